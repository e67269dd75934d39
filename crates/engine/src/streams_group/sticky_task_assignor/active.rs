//! Active tasks (`StickyTaskAssignor#assignActive`).
//!
//! 1. In (partition, subtopology) order, each task returns to its previous
//!    active owner while that member is under the active quota, so an owner
//!    keeps its lowest partitions and releases the highest.
//! 2. Each remaining task goes to one of its previous standby owners, picked
//!    by least process load and member count, if that one is under quota;
//!    otherwise the task falls through (no other candidate is tried).
//! 3. The rest, in (subtopology, partition) order, go to the least-loaded
//!    process of a binary heap keyed by load alone, and there to its member
//!    with the fewest tasks. No quota check here.

use super::local_state::{LocalState, Role};
use super::StickyTaskAssignorError;
use crate::streams::java::JavaPriorityQueue;

pub(super) fn assign_active(state: &mut LocalState<'_>) -> Result<(), StickyTaskAssignorError> {
    let topology = state.topology;
    let mut remaining: Vec<u32> = (0..topology.task_count()).collect();
    // (partition, rank) packed; distinct per task, so the order is the unstable sort's.
    crate::sort_by_key::sort_by_u64_key(&mut remaining, |&t| {
        let (rank, partition) = topology.rank_and_partition(t);
        (u64::from(partition) << 32) | rank as u64
    });

    remaining.retain(|&task| match state.prev_active_owner[task as usize] {
        Some(owner) if state.active_quota.has_room(state.member_tasks(owner)) => {
            give(state, owner, task);
            false
        }
        _ => true,
    });

    remaining.retain(
        |&task| match state.pick_previous_standby_owner(task, false) {
            Some(owner) if state.active_quota.has_room(state.member_tasks(owner)) => {
                give(state, owner, task);
                false
            }
            _ => true,
        },
    );

    // Dense task order is (subtopology, partition).
    remaining.sort_unstable();
    let mut processes = JavaPriorityQueue::new();
    for p in 0..state.process_count() {
        processes.offer(p, &mut |a, b| state.compare_load(a, b));
    }
    for task in remaining {
        let process = processes
            .poll(&mut |a, b| state.compare_load(a, b))
            .ok_or_else(|| StickyTaskAssignorError::NoMembers {
                task: topology.task_at(task),
            })?;
        let count = state.add_to_least_loaded_member(process, task, Role::Active);
        state.active_quota.on_count(count);
        state.total_quota.on_count(count);
        processes.offer(process, &mut |a, b| state.compare_load(a, b));
    }
    Ok(())
}

/// Gives `task` to the named previous owner and updates both quotas.
fn give(state: &mut LocalState<'_>, owner: usize, task: u32) {
    let count = state.add_to_member(owner, task, Role::Active);
    state.active_quota.on_count(count);
    state.total_quota.on_count(count);
}
