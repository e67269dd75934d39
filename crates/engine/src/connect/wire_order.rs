//! The order of a worker's assignment as `ConnectProtocol` puts it on the
//! wire, and the assignment snapshot a worker keeps between rounds.
//!
//! Order matters because the cooperative assignor revokes the head of each
//! worker's reported list. Kafka never sorts a worker's holdings:
//! `ConnectProtocol.Assignment.asMap` groups them by connector in a
//! `LinkedHashMap` — first the connectors the worker runs, in the iteration
//! order of a `java.util.HashSet` copy of their names, then the other
//! connectors in the order their first task appears; within a connector, its
//! tasks in list order — and the deserializer reads the connectors and tasks
//! back in that order (`ConnectProtocol.deserializeAssignment`,
//! `ExtendedAssignment.fromStruct`). The same serialization carries a
//! worker's snapshot in its JoinGroup metadata
//! (`IncrementalCooperativeConnectProtocol.metadataRequest`), so the leader
//! sees every member's holdings in this grouped order.

use super::assignment::{MemberDelta, MemberHoldings};
use super::ids::{ConnectorId, ConnectorNames, TaskId};
use super::java_hash::hash_set_copy_iteration_order;
use super::work_slots::{sort_items, WorkItem};

/// `connectors` and `tasks` as they come back from the wire: connectors in
/// the iteration order of `new HashSet<>(connectors)`, tasks grouped by
/// connector (those connectors first, then the others by first appearance),
/// each group in list order.
fn serialized(
    connectors: &[ConnectorId],
    tasks: &[TaskId],
    names: &ConnectorNames,
) -> (Vec<ConnectorId>, Vec<TaskId>) {
    let labels: Vec<&str> = connectors.iter().map(|&c| names.name(c)).collect();
    let connectors: Vec<ConnectorId> = hash_set_copy_iteration_order(&labels)
        .into_iter()
        .map(|i| connectors[i])
        .collect();
    // Runs of one connector, in list order (a sorted eager assignment is a
    // few long runs).
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for i in 1..=tasks.len() {
        if i == tasks.len() || tasks[i].connector != tasks[start].connector {
            runs.push((start, i));
            start = i;
        }
    }
    // The LinkedHashMap's entry order ranks a run's connector: the
    // connectors above first, in their order, then the others by their first
    // run. Sorting packed `u64` keys instead of filling a `BTreeMap` per
    // worker and round: this runs for every member of every round, and the
    // map was a quarter of a 1,000-worker scenario's time.
    let mut own: Vec<u64> = connectors
        .iter()
        .enumerate()
        .map(|(rank, c)| (u64::from(c.0) << 32) | rank as u64)
        .collect();
    crate::sort_by_key::sort_u64s(&mut own);
    let mut by_connector: Vec<u64> = runs
        .iter()
        .enumerate()
        .map(|(run, &(from, _))| (u64::from(tasks[from].connector.0) << 32) | run as u64)
        .collect();
    crate::sort_by_key::sort_u64s(&mut by_connector);
    const LOW: u64 = 0xffff_ffff;
    let mut order: Vec<u64> = Vec::with_capacity(runs.len());
    let mut rank = 0;
    for (k, &key) in by_connector.iter().enumerate() {
        let connector = key >> 32;
        if k == 0 || by_connector[k - 1] >> 32 != connector {
            // The first run of this connector (keys sort by run within one).
            let at = own.partition_point(|&o| o >> 32 < connector);
            rank = match own.get(at) {
                Some(&o) if o >> 32 == connector => o & LOW,
                _ => (1 << 31) | (key & LOW),
            };
        }
        order.push((rank << 32) | (key & LOW));
    }
    // A connector's runs, and the tasks in each, keep list order.
    crate::sort_by_key::sort_u64s(&mut order);
    let tasks = order
        .iter()
        .flat_map(|&key| {
            let (from, to) = runs[(key & LOW) as usize];
            tasks[from..to].iter().copied()
        })
        .collect();
    (connectors, tasks)
}

/// A worker's holdings in the order the leader reads them from its JoinGroup
/// metadata (and, for an eager assignment, the order the worker keeps).
pub fn wire_order(holdings: &MemberHoldings, names: &ConnectorNames) -> MemberHoldings {
    let (connectors, tasks) = serialized(&holdings.connectors, &holdings.tasks, names);
    MemberHoldings {
        member: holdings.member.clone(),
        connectors,
        tasks,
    }
}

/// The snapshot `WorkerCoordinator.onJoinComplete` keeps after an
/// incremental (cooperative) assignment: the newly assigned connectors and
/// tasks as the wire delivered them, followed by what it held before minus
/// the revoked items, in its old order. (An item assigned that it already
/// holds is kept once, at its old place; the assignor never sends one.)
pub fn snapshot_after(
    snapshot: &MemberHoldings,
    delta: &MemberDelta,
    names: &ConnectorNames,
) -> MemberHoldings {
    fn rebuild<T: WorkItem>(assigned: Vec<T>, held: &[T], revoked: &[T]) -> Vec<T> {
        let kept: Vec<T> = if revoked.is_empty() {
            held.to_vec()
        } else {
            let mut gone: Vec<T> = revoked.to_vec();
            sort_items(&mut gone);
            held.iter()
                .copied()
                .filter(|x| gone.binary_search(x).is_err())
                .collect()
        };
        if assigned.is_empty() {
            return kept;
        }
        let mut present = kept.clone();
        sort_items(&mut present);
        let mut out: Vec<T> = assigned
            .into_iter()
            .filter(|x| present.binary_search(x).is_err())
            .collect();
        out.extend(kept);
        out
    }
    let (assigned_connectors, assigned_tasks) =
        serialized(&delta.assigned_connectors, &delta.assigned_tasks, names);
    MemberHoldings {
        member: snapshot.member.clone(),
        connectors: rebuild(
            assigned_connectors,
            &snapshot.connectors,
            &delta.revoked_connectors,
        ),
        tasks: rebuild(assigned_tasks, &snapshot.tasks, &delta.revoked_tasks),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect::java_hash::java_string_hash;

    fn names() -> ConnectorNames {
        // "q" and "a" share bucket 1 of 16; "b" is bucket 2.
        ConnectorNames::new(["a", "b", "q"])
    }

    fn t(names: &ConnectorNames, label: &str) -> TaskId {
        names.parse_task(label).unwrap()
    }

    #[test]
    fn connectors_follow_the_hash_set_and_tasks_group_behind_them() {
        let n = names();
        let (a, b, q) = (n.id("a").unwrap(), n.id("b").unwrap(), n.id("q").unwrap());
        assert_eq!(java_string_hash("q") & 15, java_string_hash("a") & 15);
        let holdings = MemberHoldings {
            member: "w".into(),
            // Sorted, as EagerAssignor deals them: a, b, q.
            connectors: vec![q, b],
            tasks: vec![
                t(&n, "a-0"),
                t(&n, "b-0"),
                t(&n, "q-0"),
                t(&n, "a-1"),
                t(&n, "q-1"),
            ],
        };
        let wire = wire_order(&holdings, &n);
        // q (bucket 1) before b (bucket 2); then q's tasks, b's, then a's
        // (no instance here: after the others, where its first task was).
        assert_eq!(wire.connectors, vec![q, b]);
        let labels: Vec<String> = wire.tasks.iter().map(|&x| n.task_label(x)).collect();
        assert_eq!(labels, ["q-0", "q-1", "b-0", "a-0", "a-1"]);
        assert_eq!(
            wire_order(&wire, &n),
            wire,
            "reading it back changes nothing"
        );
        let _ = a;
    }

    #[test]
    fn a_cooperative_snapshot_puts_the_new_work_first() {
        let n = names();
        let (a, b, q) = (n.id("a").unwrap(), n.id("b").unwrap(), n.id("q").unwrap());
        let before = MemberHoldings {
            member: "w".into(),
            connectors: vec![b],
            tasks: vec![t(&n, "b-0"), t(&n, "b-1"), t(&n, "a-0")],
        };
        let delta = MemberDelta {
            assigned_connectors: vec![a, q],
            assigned_tasks: vec![t(&n, "q-0"), t(&n, "a-1")],
            revoked_connectors: vec![],
            revoked_tasks: vec![t(&n, "b-1")],
        };
        let after = snapshot_after(&before, &delta, &n);
        // New connectors in hash order (a, q share a bucket: list order),
        // then the old one; new tasks grouped by those connectors, then the
        // kept ones.
        assert_eq!(after.connectors, vec![a, q, b]);
        let labels: Vec<String> = after.tasks.iter().map(|&x| n.task_label(x)).collect();
        assert_eq!(labels, ["a-1", "q-0", "b-0", "a-0"]);
    }

    /// The grouping as first written, with a rank map: the packed-key
    /// version must give the same order for any holdings.
    fn grouped_with_a_map(connectors: &[ConnectorId], tasks: &[TaskId]) -> Vec<TaskId> {
        let mut rank: std::collections::BTreeMap<ConnectorId, usize> = connectors
            .iter()
            .enumerate()
            .map(|(r, &c)| (c, r))
            .collect();
        let mut runs = Vec::new();
        let mut start = 0;
        for i in 1..=tasks.len() {
            if i == tasks.len() || tasks[i].connector != tasks[start].connector {
                let next = rank.len();
                let r = *rank.entry(tasks[start].connector).or_insert(next);
                runs.push((r, start, i));
                start = i;
            }
        }
        crate::sort_by_key::sort_stable_by_key(&mut runs, |run| run.0);
        runs.iter()
            .flat_map(|&(_, from, to)| tasks[from..to].iter().copied())
            .collect()
    }

    #[test]
    fn tasks_group_as_a_rank_map_groups_them() {
        let n = ConnectorNames::new((0..40).map(|i| format!("c{i}")));
        let mut rng = crate::test_rng::SplitMix64::new(11);
        for case in 0..300 {
            let held = rng.below(6) as usize;
            let connectors: Vec<ConnectorId> = (0..held)
                .map(|_| ConnectorId(rng.below(40) as u32))
                .collect();
            let len = rng.below(60) as usize;
            let tasks: Vec<TaskId> = (0..len)
                .map(|i| TaskId {
                    connector: ConnectorId(rng.below(if case % 2 == 0 { 5 } else { 40 }) as u32),
                    index: i as u32,
                })
                .collect();
            let (wire_connectors, wire_tasks) = serialized(&connectors, &tasks, &n);
            assert_eq!(
                wire_tasks,
                grouped_with_a_map(&wire_connectors, &tasks),
                "case {case}"
            );
        }
    }
}
