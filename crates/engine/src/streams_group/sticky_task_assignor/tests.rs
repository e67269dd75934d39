//! The assignor on Kafka's own worked examples (ids exactly as shown; the
//! results are what Kafka 4.3.1's and 4.4's `StickyTaskAssignor` returned) and
//! on the rules that tell the releases apart.

use std::collections::{BTreeMap, BTreeSet};

use super::legacy_4_1::StickyTaskAssignor41;
use super::*;
use crate::streams_group::task_id::{Subtopology, TaskId, Topology};

const RELEASED: StickyTaskAssignorVersion = StickyTaskAssignorVersion::Released4_3;
const PATCHED: StickyTaskAssignorVersion = StickyTaskAssignorVersion::Patched4_3;
const V4_4: StickyTaskAssignorVersion = StickyTaskAssignorVersion::Kafka4_4;

fn topology(subs: &[(&str, u32, bool)]) -> Topology {
    Topology::new(
        subs.iter()
            .map(|&(id, partitions, stateful)| Subtopology {
                id: id.to_owned(),
                partitions,
                stateful,
            })
            .collect(),
    )
    .unwrap()
}

fn tasks(list: &[&str]) -> BTreeSet<TaskId> {
    list.iter()
        .map(|t| {
            if t.contains('_') {
                t.parse().unwrap()
            } else {
                TaskId::new("0", t.parse().unwrap())
            }
        })
        .collect()
}

/// `(member, process, previous active, previous standby)`; task `"3"` is `0_3`.
type Row<'a> = (&'a str, &'a str, &'a [&'a str], &'a [&'a str]);

fn spec(rows: &[Row<'_>], standbys: u32) -> GroupSpec {
    GroupSpec {
        members: rows
            .iter()
            .map(|&(m, p, active, standby)| AssignmentMember {
                member_id: m.to_owned(),
                process_id: p.to_owned(),
                previous_active: tasks(active),
                previous_standby: tasks(standby),
                task_offsets: BTreeMap::new(),
            })
            .collect(),
        num_standby_replicas: standbys,
    }
}

fn run(
    version: StickyTaskAssignorVersion,
    spec: &GroupSpec,
    topology: &Topology,
) -> GroupAssignment {
    StickyTaskAssignor::new(version)
        .assign(spec, topology)
        .unwrap()
}

fn expect(result: &GroupAssignment, member: &str, active: &[&str], standby: &[&str]) {
    let got = result.member(member).unwrap();
    assert_eq!(got.active, tasks(active), "{member} active");
    assert_eq!(got.standby, tasks(standby), "{member} standby");
}

fn six() -> Topology {
    topology(&[("0", 6, true)])
}

#[test]
fn w1_fresh_placement_rotates_on_equal_loads() {
    let s = spec(
        &[
            ("A", "pA", &[], &[]),
            ("B", "pB", &[], &[]),
            ("C", "pC", &[], &[]),
        ],
        0,
    );
    for version in [RELEASED, V4_4] {
        let r = run(version, &s, &six());
        expect(&r, "A", &["0", "5"], &[]);
        expect(&r, "B", &["2", "4"], &[]);
        expect(&r, "C", &["1", "3"], &[]);
    }
}

#[test]
fn w2_old_owners_keep_their_lowest_partitions() {
    let s = spec(
        &[
            ("A", "pA", &["0", "1", "2"], &[]),
            ("B", "pB", &["3", "4", "5"], &[]),
            ("C", "pC", &[], &[]),
        ],
        0,
    );
    let r = run(RELEASED, &s, &six());
    expect(&r, "A", &["0", "1"], &[]);
    expect(&r, "B", &["3", "4"], &[]);
    expect(&r, "C", &["2", "5"], &[]);
}

#[test]
fn w3_only_lost_tasks_move_and_4_4_meets_pb_first() {
    let s = spec(
        &[("A", "pA", &["0", "3"], &[]), ("B", "pB", &["1", "4"], &[])],
        0,
    );
    let r = run(RELEASED, &s, &six());
    expect(&r, "A", &["0", "2", "3"], &[]);
    expect(&r, "B", &["1", "4", "5"], &[]);
    let r = run(V4_4, &s, &six());
    expect(&r, "A", &["0", "3", "5"], &[]);
    expect(&r, "B", &["1", "2", "4"], &[]);
    // The patched 4.3 line keeps 4.3's process map.
    assert_eq!(run(PATCHED, &s, &six()), run(RELEASED, &s, &six()));
}

#[test]
fn w4_standby_fallback_ignores_the_total_quota() {
    let s = spec(
        &[
            ("A", "pA", &[], &[]),
            ("B", "pB", &[], &[]),
            ("C", "pC", &[], &[]),
        ],
        1,
    );
    let r = run(RELEASED, &s, &six());
    expect(&r, "A", &["0", "5"], &["4"]);
    expect(&r, "B", &["2", "4"], &["0", "1", "3"]);
    expect(&r, "C", &["1", "3"], &["2", "5"]);
}

#[test]
fn w5_leaver_actives_go_to_previous_standbys_and_a_restart_gets_partition_order() {
    // W5a: W4's result, A leaves.
    let s = spec(
        &[
            ("B", "pB", &["2", "4"], &["0", "1", "3"]),
            ("C", "pC", &["1", "3"], &["2", "5"]),
        ],
        1,
    );
    let r = run(RELEASED, &s, &six());
    expect(&r, "B", &["0", "2", "4"], &["1", "3", "5"]);
    expect(&r, "C", &["1", "3", "5"], &["0", "2", "4"]);
    // W5b: A restarts as A2 in pA.
    let s = spec(
        &[
            ("B", "pB", &["0", "2", "4"], &["1", "3", "5"]),
            ("C", "pC", &["1", "3", "5"], &["0", "2", "4"]),
            ("A2", "pA", &[], &[]),
        ],
        1,
    );
    let r = run(RELEASED, &s, &six());
    expect(&r, "A2", &["4", "5"], &["0", "1"]);
    expect(&r, "B", &["0", "2"], &["3", "4"]);
    expect(&r, "C", &["1", "3"], &["2", "5"]);
}

#[test]
fn w6_a_newcomer_may_get_only_stateless_tasks() {
    let t = topology(&[("0", 4, true), ("1", 4, false)]);
    let s = spec(
        &[
            ("A", "pA", &["0_0", "0_1", "1_0", "1_1"], &[]),
            ("B", "pB", &["0_2", "0_3", "1_2", "1_3"], &[]),
            ("C", "pC", &[], &[]),
        ],
        0,
    );
    let r = run(RELEASED, &s, &t);
    expect(&r, "A", &["0_0", "0_1", "1_0"], &[]);
    expect(&r, "B", &["0_2", "0_3", "1_2"], &[]);
    expect(&r, "C", &["1_1", "1_3"], &[]);
}

#[test]
fn w7_process_load_is_tasks_per_thread() {
    let s = spec(
        &[
            ("A1", "pA", &[], &[]),
            ("A2", "pA", &[], &[]),
            ("B1", "pB", &[], &[]),
        ],
        0,
    );
    let r = run(RELEASED, &s, &six());
    expect(&r, "A1", &["0", "4"], &[]);
    expect(&r, "A2", &["2", "5"], &[]);
    expect(&r, "B1", &["1", "3"], &[]);
}

#[test]
fn w8_freed_tasks_go_to_the_least_loaded_process() {
    let t = topology(&[("0", 8, true)]);
    let s = spec(
        &[
            ("A1", "pA", &["0", "4"], &[]),
            ("B1", "pB", &["1", "5"], &[]),
            ("B2", "pB", &["3", "7"], &[]),
            ("A3", "pA", &[], &[]),
        ],
        0,
    );
    let r = run(RELEASED, &s, &t);
    expect(&r, "A1", &["0", "4"], &[]);
    expect(&r, "A3", &["2", "6"], &[]);
    expect(&r, "B1", &["1", "5"], &[]);
    expect(&r, "B2", &["3", "7"], &[]);
}

/// 0_0's previous standby owners are X then Y; X is promoted to 0_0's active
/// (active step 2). For the standby replica the released rule gives up on the
/// owners because the *first* one's process now holds the task, exactly as if
/// Y had no claim; KAFKA-20899 skips X and keeps Y's replica.
#[test]
fn standby_owner_pick_released_vs_kafka_20899() {
    let t = topology(&[("0", 4, true)]);
    let rows: [Row<'_>; 4] = [
        ("X", "pX", &[], &["0"]),
        ("Y", "pY", &["2"], &["0"]),
        ("Z", "pZ", &["3"], &[]),
        ("W", "pW", &["1"], &[]),
    ];
    let s = spec(&rows, 1);
    let patched = run(PATCHED, &s, &t);
    let zero = TaskId::new("0", 0);
    assert!(patched.member("X").unwrap().active.contains(&zero));
    assert!(patched.member("Y").unwrap().standby.contains(&zero));
    assert_eq!(run(V4_4, &s, &t).member("Y"), patched.member("Y"));

    let released = run(RELEASED, &s, &t);
    assert!(released.member("X").unwrap().active.contains(&zero));
    let mut without_y_claim = rows;
    without_y_claim[1].3 = &[];
    assert_eq!(released, run(RELEASED, &spec(&without_y_claim, 1), &t));
    assert_ne!(released, patched);
}

/// With both picks possible, a later candidate wins only with a strictly
/// lower process load *and* a strictly lower member count.
#[test]
fn a_later_standby_owner_needs_both_lower_load_and_lower_count() {
    let t = topology(&[("0", 3, true)]);
    // Q's process pQ has two threads: load 0.5 with one task on Q2, Q at 0
    // tasks; P has 1 task on one thread: load 1. Task 0_2's owners: P then Q.
    let s = spec(
        &[
            ("P", "pP", &["0"], &["2"]),
            ("Q2", "pQ", &["1"], &[]),
            ("Q", "pQ", &[], &["2"]),
        ],
        0,
    );
    for version in [RELEASED, PATCHED, V4_4] {
        let r = run(version, &s, &t);
        // Quota ceil(3/3) = 1: P and Q2 keep theirs; 0_2 → Q (load 0.5 < 1, count 0 < 1).
        expect(&r, "Q", &["2"], &[]);
    }
}

#[test]
fn kafka_4_4_ranks_standby_owners_by_reported_offsets() {
    let t = topology(&[("0", 2, true)]);
    let mut s = spec(
        &[
            ("A", "pA", &["1"], &[]),
            ("B", "pB", &[], &[]),
            ("C", "pC", &[], &[]),
        ],
        0,
    );
    // Nobody had 0_0; B and C report state for it, C more caught up.
    s.members[1].task_offsets.insert(TaskId::new("0", 0), 10);
    s.members[2].task_offsets.insert(TaskId::new("0", 0), 500);
    let r = run(V4_4, &s, &t);
    expect(&r, "C", &["0"], &[]);
    // Before 4.4 offsets are ignored: the least-loaded step decides.
    let r = run(RELEASED, &s, &t);
    assert!(r.member("C").unwrap().active.is_empty() || r.member("B").unwrap().active.is_empty());
}

#[test]
fn rejects_duplicate_members_and_empty_groups_with_tasks() {
    let s = spec(&[("A", "pA", &[], &[]), ("A", "pB", &[], &[])], 0);
    assert_eq!(
        StickyTaskAssignor::new(RELEASED).assign(&s, &six()),
        Err(StickyTaskAssignorError::DuplicateMember("A".into()))
    );
    assert!(matches!(
        StickyTaskAssignor::new(RELEASED).assign(&GroupSpec::default(), &six()),
        Err(StickyTaskAssignorError::NoMembers { .. })
    ));
    let empty = topology(&[]);
    assert_eq!(
        StickyTaskAssignor::new(RELEASED).assign(&GroupSpec::default(), &empty),
        Ok(GroupAssignment::default())
    );
}

#[test]
fn explicit_orders_must_cover_every_member_once() {
    let s = spec(&[("A", "pA", &[], &[]), ("B", "pB", &[], &[])], 0);
    let assignor = StickyTaskAssignor::new(RELEASED);
    let mut orders = assignor.iteration_orders(&s);
    orders.members.pop();
    assert!(matches!(
        assignor.assign_in_order(&s, &six(), &orders),
        Err(StickyTaskAssignorError::InconsistentOrder(_))
    ));
}

/// The properties every output has, on seeded random groups and histories.
#[test]
fn invariants_hold_on_random_groups() {
    let mut rng = crate::test_rng::SplitMix64::new(0x1071);
    for case in 0..300 {
        let processes = 1 + rng.below(6) as usize;
        let subs: Vec<(String, u32, bool)> = (0..1 + rng.below(3))
            .map(|s| (s.to_string(), 1 + rng.below(12) as u32, rng.below(3) > 0))
            .collect();
        let t = Topology::new(
            subs.iter()
                .map(|(id, n, st)| Subtopology {
                    id: id.clone(),
                    partitions: *n,
                    stateful: *st,
                })
                .collect(),
        )
        .unwrap();
        let standbys = rng.below(3) as u32;
        let mut s = GroupSpec {
            members: Vec::new(),
            num_standby_replicas: standbys,
        };
        for p in 0..processes {
            for thread in 0..1 + rng.below(3) {
                s.members.push(AssignmentMember::new(
                    format!("m{p}-{thread}-{case}"),
                    format!("proc-{p}"),
                ));
            }
        }
        let all: Vec<TaskId> = t.tasks().collect();
        // A random previous assignment, possibly inconsistent, as after churn.
        for member in &mut s.members {
            for task in &all {
                match rng.below(8) {
                    0 => drop(member.previous_active.insert(task.clone())),
                    1 => drop(member.previous_standby.insert(task.clone())),
                    _ => {}
                }
            }
        }
        for version in [RELEASED, PATCHED, V4_4] {
            let r = run(version, &s, &t);
            check_invariants(&s, &t, &r, true, &format!("case {case} {version}"));
        }
        let r = StickyTaskAssignor41.assign(&s, &t).unwrap();
        check_invariants(&s, &t, &r, false, &format!("case {case} 4.1"));
    }
}

fn check_invariants(s: &GroupSpec, t: &Topology, r: &GroupAssignment, exact: bool, at: &str) {
    let members = s.members.len() as u32;
    let cap = t.task_count().div_ceil(members);
    let mut active_count: BTreeMap<TaskId, u32> = BTreeMap::new();
    let mut per_process: BTreeMap<(&str, TaskId), u32> = BTreeMap::new();
    let mut standby_count: BTreeMap<TaskId, u32> = BTreeMap::new();
    for (member, got) in s.members.iter().zip(&r.members) {
        assert_eq!(member.member_id, got.member_id, "{at}");
        if exact {
            assert!(
                got.active.len() as u32 <= cap,
                "{at}: {} over ceil(A/M)",
                got.member_id
            );
        }
        for task in &got.active {
            *active_count.entry(task.clone()).or_default() += 1;
            *per_process
                .entry((&member.process_id, task.clone()))
                .or_default() += 1;
        }
        for task in &got.standby {
            *standby_count.entry(task.clone()).or_default() += 1;
            *per_process
                .entry((&member.process_id, task.clone()))
                .or_default() += 1;
        }
    }
    for task in t.tasks() {
        assert_eq!(
            active_count.get(&task),
            Some(&1),
            "{at}: {task} active once"
        );
    }
    assert!(
        per_process.values().all(|&n| n == 1),
        "{at}: a process holds a task twice"
    );
    let stateful = t.stateful_tasks();
    let processes: BTreeSet<&str> = s.members.iter().map(|m| m.process_id.as_str()).collect();
    let want = s.num_standby_replicas.min(processes.len() as u32 - 1);
    for (task, n) in &standby_count {
        assert!(
            stateful.contains(task),
            "{at}: standby for stateless {task}"
        );
        assert!(*n <= want, "{at}: too many standbys of {task}");
    }
    if exact {
        for task in &stateful {
            assert_eq!(
                standby_count.get(task).copied().unwrap_or(0),
                want,
                "{at}: {task} standbys"
            );
        }
    }
}
