//! The broker's `StickyTaskAssignor` (assignor name `sticky`) of the streams
//! rebalance protocol (KIP-1071), as in Kafka 4.2 through 4.4, exact to its
//! tie-breaks.
//!
//! The group coordinator (`TargetAssignmentBuilder#build`) calls it with every
//! member's process id and *previous* assignment (4.2–4.3: the member's
//! previous target; 4.4: its current assignment) and the group's
//! `num.standby.replicas`. It places:
//!
//! * active tasks ([`active`]): sticky to the previous active owner under a
//!   shrinking per-member quota, then to a previous standby owner, then to the
//!   least-loaded process (tasks per thread) and its least-loaded member;
//! * standby replicas ([`standby`]), stateful tasks only: the previous active
//!   owner, a previous standby owner, then the least-loaded process lacking the
//!   task. A process never holds a task twice.
//!
//! It reads no lag, rack or tags and places no warmups.
//!
//! **Ties.** Kafka breaks them by Java `HashMap` iteration order (members,
//! processes, each process's members) and by `PriorityQueue` heap order on
//! equal loads, so other ids can give other, equally balanced placements.
//! [`IterationOrders::derive`] reproduces those maps from the ids, and the heaps
//! are Java's (`streams::java::JavaPriorityQueue`), so the result is Kafka's
//! for the same ids and member insertion order. [`StickyTaskAssignorVersion`]
//! selects the per-release rules (KAFKA-20899, KAFKA-20719).
//!
//! Kafka 4.1 shipped an earlier port with other ties; see [`legacy_4_1`].

mod active;
mod iteration_order;
pub mod legacy_4_1;
mod local_state;
mod rules;
mod standby;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt;

pub use iteration_order::{IterationOrders, ProcessOrder};
pub use rules::{ProcessMapFill, StandbyOwnerPick, StickyTaskAssignorVersion};

use super::task_id::{TaskId, Topology};
use local_state::LocalState;

/// One member (a StreamThread) as the assignor sees it: Kafka's
/// `AssignmentMemberSpec` (4.2–4.3) or `MemberMetadataAndStateImpl` (4.4).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssignmentMember {
    /// The member id (client-generated, new on every restart of a dynamic member).
    pub member_id: String,
    /// The KafkaStreams instance the thread belongs to.
    pub process_id: String,
    /// Previous active tasks: the previous target (4.2–4.3) or the current
    /// assignment (4.4).
    pub previous_active: BTreeSet<TaskId>,
    /// Previous standby tasks, likewise.
    pub previous_standby: BTreeSet<TaskId>,
    /// Task offset sums the member reported (4.4, KAFKA-20116); only 4.4 reads
    /// them, to rank previous standby owners.
    pub task_offsets: BTreeMap<TaskId, i64>,
}

impl AssignmentMember {
    /// A member with no history.
    pub fn new(member_id: impl Into<String>, process_id: impl Into<String>) -> Self {
        Self {
            member_id: member_id.into(),
            process_id: process_id.into(),
            ..Self::default()
        }
    }
}

/// The assignor's input besides the topology: the members, in the order the
/// broker inserts them into the group spec's members map (its member table's
/// order, then a newly joining member), and the group's standby count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupSpec {
    /// The members.
    pub members: Vec<AssignmentMember>,
    /// `num.standby.replicas` of the group (broker
    /// `group.streams.num.standby.replicas`, group config
    /// `streams.num.standby.replicas`; default 0, at most 2).
    pub num_standby_replicas: u32,
}

/// What one member gets: its new target assignment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberAssignment {
    /// The member id.
    pub member_id: String,
    /// Active tasks.
    pub active: BTreeSet<TaskId>,
    /// Standby replicas.
    pub standby: BTreeSet<TaskId>,
}

/// The assignment of every member, in the group spec's member order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupAssignment {
    /// One entry per member of the spec, in the same order.
    pub members: Vec<MemberAssignment>,
}

impl GroupAssignment {
    /// The assignment of `member_id`.
    pub fn member(&self, member_id: &str) -> Option<&MemberAssignment> {
        self.members.iter().find(|m| m.member_id == member_id)
    }
}

/// Why the assignor could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StickyTaskAssignorError {
    /// The topology has tasks but the group has no members (Kafka:
    /// `TaskAssignorException` "No process available to assign active task").
    NoMembers {
        /// The first task that found no process.
        task: TaskId,
    },
    /// Two members share a member id.
    DuplicateMember(String),
    /// Explicit iteration orders that do not cover this member exactly once.
    InconsistentOrder(String),
}

impl fmt::Display for StickyTaskAssignorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoMembers { task } => write!(
                f,
                "no process available to assign active task {task}: the group has no members"
            ),
            Self::DuplicateMember(id) => {
                write!(
                    f,
                    "member id `{id}` appears twice; member ids must be unique"
                )
            }
            Self::InconsistentOrder(id) => write!(
                f,
                "the iteration orders do not list member `{id}` exactly once"
            ),
        }
    }
}

impl std::error::Error for StickyTaskAssignorError {}

/// Kafka's broker-side `StickyTaskAssignor` of one code line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StickyTaskAssignor {
    version: StickyTaskAssignorVersion,
}

impl StickyTaskAssignor {
    /// The assignor as `version`'s code has it.
    pub fn new(version: StickyTaskAssignorVersion) -> Self {
        Self { version }
    }

    /// Its code line.
    pub fn version(&self) -> StickyTaskAssignorVersion {
        self.version
    }

    /// The iteration orders Kafka's maps give for `spec`'s ids.
    pub fn iteration_orders(&self, spec: &GroupSpec) -> IterationOrders {
        let member_ids: Vec<&str> = spec.members.iter().map(|m| m.member_id.as_str()).collect();
        let process_ids: Vec<&str> = spec.members.iter().map(|m| m.process_id.as_str()).collect();
        IterationOrders::derive(&member_ids, &process_ids, self.version.process_map_fill())
    }

    /// `StickyTaskAssignor#assign`, with the iteration orders Kafka's maps
    /// give for these ids.
    pub fn assign(
        &self,
        spec: &GroupSpec,
        topology: &Topology,
    ) -> Result<GroupAssignment, StickyTaskAssignorError> {
        check_unique(spec)?;
        self.assign_in_order(spec, topology, &self.iteration_orders(spec))
    }

    /// `assign` with given iteration orders (e.g. recorded from a Kafka run).
    pub fn assign_in_order(
        &self,
        spec: &GroupSpec,
        topology: &Topology,
        orders: &IterationOrders,
    ) -> Result<GroupAssignment, StickyTaskAssignorError> {
        check_unique(spec)?;
        check_orders(spec, orders)?;
        let mut state = LocalState::new(spec, topology, self.version, orders)?;
        active::assign_active(&mut state)?;
        standby::assign_standby(&mut state);
        let to_tasks = |tasks: &[u32]| tasks.iter().map(|&t| topology.task_at(t)).collect();
        Ok(GroupAssignment {
            members: spec
                .members
                .iter()
                .enumerate()
                .map(|(m, member)| MemberAssignment {
                    member_id: member.member_id.clone(),
                    active: to_tasks(&state.active[m]),
                    standby: to_tasks(&state.standby[m]),
                })
                .collect(),
        })
    }
}

fn check_unique(spec: &GroupSpec) -> Result<(), StickyTaskAssignorError> {
    let mut seen = HashSet::with_capacity(spec.members.len());
    match spec
        .members
        .iter()
        .find(|m| !seen.insert(m.member_id.as_str()))
    {
        Some(m) => Err(StickyTaskAssignorError::DuplicateMember(
            m.member_id.clone(),
        )),
        None => Ok(()),
    }
}

/// Each member exactly once in the members order and in the process orders,
/// and every process's members sharing its process id.
fn check_orders(spec: &GroupSpec, orders: &IterationOrders) -> Result<(), StickyTaskAssignorError> {
    let n = spec.members.len();
    let mut in_members = vec![0u8; n];
    let mut in_processes = vec![0u8; n];
    let bad = |m: usize| {
        StickyTaskAssignorError::InconsistentOrder(
            spec.members
                .get(m)
                .map_or_else(|| format!("#{m}"), |x| x.member_id.clone()),
        )
    };
    for &m in &orders.members {
        *in_members.get_mut(m).ok_or_else(|| bad(m))? += 1;
    }
    for process in &orders.processes {
        let id = &spec
            .members
            .get(process.first_member)
            .ok_or_else(|| bad(process.first_member))?
            .process_id;
        for &m in &process.members {
            *in_processes.get_mut(m).ok_or_else(|| bad(m))? += 1;
            if &spec.members[m].process_id != id {
                return Err(bad(m));
            }
        }
    }
    match (0..n).find(|&m| in_members[m] != 1 || in_processes[m] != 1) {
        Some(m) => Err(bad(m)),
        None => Ok(()),
    }
}
