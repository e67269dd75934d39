//! Standby replicas (`StickyTaskAssignor#assignStandby`), stateful tasks only.
//!
//! In (partition, subtopology) order, descending, each replica of a task goes
//! to the task's previous active owner if its process lacks the task and it is
//! under the total quota; else to a previous standby owner picked by the
//! version's rule (`findPrevMemberWithLeastLoad`) if under the total quota;
//! else the task's remaining replicas wait for the fallback. The fallback, in
//! (subtopology, partition) order, descending, gives each replica to the
//! least-loaded process (a fresh heap by load) that lacks the task, popping
//! past processes that hold it; its member heap may carry over from the
//! active phase. The fallback ignores the total quota, so totals can be uneven.

use super::local_state::{LocalState, Role};
use crate::streams::java::JavaPriorityQueue;

pub(super) fn assign_standby(state: &mut LocalState<'_>) {
    let replicas = state.num_standby_replicas;
    if replicas == 0 {
        return;
    }
    let topology = state.topology;
    let mut tasks: Vec<u32> = (0..topology.task_count())
        .filter(|&t| topology.is_stateful(t))
        .collect();
    // Descending (partition, rank), packed; distinct per task.
    crate::sort_by_key::sort_by_u64_key(&mut tasks, |&t| {
        let (rank, partition) = topology.rank_and_partition(t);
        !((u64::from(partition) << 32) | rank as u64)
    });

    // (task, replicas still to place)
    let mut to_least_loaded: Vec<(u32, u32)> = Vec::new();
    for task in tasks {
        for placed in 0..replicas {
            if let Some(owner) = state.prev_active_owner[task as usize] {
                if !state.holds(state.process_of(owner), task)
                    && state.total_quota.has_room(state.member_tasks(owner))
                {
                    let count = state.add_to_member(owner, task, Role::Standby);
                    state.total_quota.on_count(count);
                    continue;
                }
            }
            if let Some(owner) = state.pick_previous_standby_owner(task, true) {
                if state.total_quota.has_room(state.member_tasks(owner)) {
                    let count = state.add_to_member(owner, task, Role::Standby);
                    state.total_quota.on_count(count);
                    continue;
                }
            }
            to_least_loaded.push((task, replicas - placed));
            break;
        }
    }

    // Dense task order is (subtopology, partition); the fallback walks it backwards.
    // Each task is in the list once, so a stable sort gives the unstable one's order.
    crate::sort_by_key::sort_stable_by_key(&mut to_least_loaded, |&(task, _)| {
        std::cmp::Reverse(task)
    });
    let mut processes = JavaPriorityQueue::new();
    for p in 0..state.process_count() {
        processes.offer(p, &mut |a, b| state.compare_load(a, b));
    }
    for (task, remaining) in to_least_loaded {
        for _ in 0..remaining {
            // Kafka logs "There is not enough available capacity" and moves on.
            if !place_on_least_loaded(state, &mut processes, task) {
                break;
            }
        }
    }
}

/// `assignStandbyToMemberWithLeastLoad`: pops processes until one lacks
/// `task`, gives it the replica, then pushes the popped processes back,
/// innermost first (Kafka recurses). False when every process holds the task.
fn place_on_least_loaded(
    state: &mut LocalState<'_>,
    processes: &mut JavaPriorityQueue<usize>,
    task: u32,
) -> bool {
    let mut popped = Vec::new();
    let mut placed = false;
    while let Some(process) = processes.poll(&mut |a, b| state.compare_load(a, b)) {
        popped.push(process);
        if !state.holds(process, task) {
            let count = state.add_to_least_loaded_member(process, task, Role::Standby);
            state.total_quota.on_count(count);
            placed = true;
            break;
        }
        if processes.is_empty() {
            break;
        }
    }
    for process in popped.into_iter().rev() {
        processes.offer(process, &mut |a, b| state.compare_load(a, b));
    }
    placed
}
