//! The three Java iteration orders that decide the assignor's ties.
//!
//! 1. The group spec's members: a default `HashMap` keyed by member id, filled
//!    in the broker's member order (`TargetAssignmentBuilder#build`).
//! 2. The assignor's process map: a `HashMap` sized for the number of members,
//!    filled in members-map order (`putIfAbsent` up to 4.3, `computeIfAbsent`
//!    in 4.4). Each least-loaded phase adds the processes to a heap in this order.
//! 3. Each process's member → task-count map (a default `HashMap`, filled in
//!    members-map order), from which its member heap is built.

use super::rules::ProcessMapFill;
use crate::streams_group::java_hash_map::{iteration_order, InitialCapacity, Insertion};

/// One process in the process map's order, with its members in the order of
/// its member → task-count map. Indices refer to the group spec's members.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessOrder {
    /// The member whose process id names this process (its first member in
    /// members-map order).
    pub first_member: usize,
    /// The process's members, in its member map's order.
    pub members: Vec<usize>,
}

/// The iteration orders of one assignment, as indices into the group spec's
/// member list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationOrders {
    /// The members map's order (`groupSpec.members()` / `memberIds()`).
    pub members: Vec<usize>,
    /// The process map's order, each with its member map's order.
    pub processes: Vec<ProcessOrder>,
}

impl IterationOrders {
    /// What Java's `HashMap` rules give for these members, inserted in the
    /// listed order (`member_ids[i]` runs in process `process_ids[i]`).
    /// Member ids must be distinct.
    pub fn derive(member_ids: &[&str], process_ids: &[&str], fill: ProcessMapFill) -> Self {
        debug_assert_eq!(member_ids.len(), process_ids.len());
        let members = iteration_order(member_ids, InitialCapacity::Default, Insertion::Put);

        let in_member_order: Vec<&str> = members.iter().map(|&m| process_ids[m]).collect();
        let insertion = match fill {
            ProcessMapFill::PutIfAbsent => Insertion::Put,
            ProcessMapFill::ComputeIfAbsent => Insertion::ComputeIfAbsent,
        };
        let process_positions = iteration_order(
            &in_member_order,
            InitialCapacity::Requested(member_ids.len()),
            insertion,
        );

        let mut members_of: std::collections::HashMap<&str, Vec<usize>> =
            std::collections::HashMap::new();
        for &m in &members {
            members_of.entry(process_ids[m]).or_default().push(m);
        }
        let processes = process_positions
            .into_iter()
            .map(|position| {
                let first_member = members[position];
                let own = members_of
                    .get(process_ids[first_member])
                    .map_or(&[][..], Vec::as_slice);
                let own_ids: Vec<&str> = own.iter().map(|&m| member_ids[m]).collect();
                let member_order =
                    iteration_order(&own_ids, InitialCapacity::Default, Insertion::Put)
                        .into_iter()
                        .map(|i| own[i])
                        .collect();
                ProcessOrder {
                    first_member,
                    members: member_order,
                }
            })
            .collect();
        Self { members, processes }
    }
}
