//! The coordinator's rules, one test per rule of Kafka's
//! `GroupMetadataManager#streamsGroupHeartbeat` that the simulator relies on.

use super::*;
use crate::streams_group::{Subtopology, TaskId};

fn config(minor: u16) -> StreamsGroupConfig {
    StreamsGroupConfig {
        heartbeat_interval_ms: 5_000,
        session_timeout_ms: 45_000,
        initial_rebalance_delay_ms: (minor >= 2).then_some(3_000),
        assignment_interval_ms: if minor >= 3 { 1_000 } else { 0 },
        num_standby_replicas: 0,
        initial_epoch: if minor >= 3 { 1 } else { 0 },
        first_bumped_epoch: if minor >= 2 { 2 } else { 1 },
        assignor: if minor >= 2 {
            BrokerAssignor::Sticky(StickyTaskAssignorVersion::NEWEST_RELEASE)
        } else {
            BrokerAssignor::Legacy41
        },
    }
}

fn group(minor: u16, tasks: u32, standbys: u32) -> StreamsGroupCoordinator {
    let topology = Topology::new(vec![Subtopology {
        id: "0".into(),
        partitions: tasks,
        stateful: true,
    }])
    .unwrap();
    let mut c = config(minor);
    c.num_standby_replicas = standbys;
    StreamsGroupCoordinator::new(c, topology)
}

fn join(g: &mut StreamsGroupCoordinator, id: &str, process: &str, now: u64) -> HeartbeatOk {
    beat(g, id, process, 0, Some(TasksTuple::default()), now)
}

fn beat(
    g: &mut StreamsGroupCoordinator,
    id: &str,
    process: &str,
    epoch: i32,
    owned: Option<TasksTuple>,
    now: u64,
) -> HeartbeatOk {
    match g.heartbeat(
        HeartbeatRequest {
            member_id: id.into(),
            member_epoch: epoch,
            process_id: process.into(),
            rebalance_timeout_ms: 300_000,
            owned,
        },
        now,
    ) {
        HeartbeatResponse::Ok(ok) => *ok,
        other => panic!("{id}: {other:?}"),
    }
}

fn tasks(active: &[u32]) -> TasksTuple {
    TasksTuple {
        active: active.iter().map(|&p| TaskId::new("0", p)).collect(),
        ..TasksTuple::default()
    }
}

fn session_token(ok: &HeartbeatOk) -> u64 {
    ok.timers
        .iter()
        .find_map(|t| match t {
            Timer::Session { token, .. } => Some(*token),
            _ => None,
        })
        .expect("every heartbeat reschedules the session")
}

/// Reconciles a lone member to its target: join, then acknowledge.
fn settle(g: &mut StreamsGroupCoordinator, id: &str, process: &str, now: u64) -> TasksTuple {
    let ok = join(g, id, process, now);
    let owned = ok.assignment.clone().unwrap_or_default();
    let ok = beat(g, id, process, ok.member_epoch, Some(owned), now + 10);
    assert_eq!(ok.state, MemberState::Stable);
    g.reconciliation(id).unwrap().assigned.clone()
}

#[test]
fn a_join_bumps_the_group_epoch_and_the_first_heartbeat_computes_4_1() {
    let mut g = group(1, 4, 0);
    assert_eq!((g.group_epoch(), g.assignment_epoch()), (0, 0));
    let ok = join(&mut g, "A", "pA", 0);
    assert_eq!(ok.bumped_to, Some(1));
    assert_eq!(ok.computed.as_ref().map(|c| c.epoch), Some(1));
    assert!(!ok.assignment_delayed, "4.1 has no initial delay");
    assert_eq!(ok.assignment.unwrap().active.len(), 4);
    assert_eq!(ok.member_epoch, 1);
    assert_eq!(ok.heartbeat_interval_ms, 5_000);
}

#[test]
fn epochs_start_at_1_in_4_3_and_jump_to_2_in_4_2() {
    let mut g43 = group(3, 2, 0);
    assert_eq!(g43.group_epoch(), 1);
    assert_eq!(join(&mut g43, "A", "pA", 0).bumped_to, Some(2));
    let mut g42 = group(2, 2, 0);
    assert_eq!(g42.group_epoch(), 0);
    assert_eq!(join(&mut g42, "A", "pA", 0).bumped_to, Some(2));
}

#[test]
fn the_initial_delay_is_scheduled_once_and_answers_assignment_delayed() {
    let mut g = group(2, 4, 0);
    let a = join(&mut g, "A", "pA", 0);
    assert!(a.assignment_delayed && a.computed.is_none());
    let delay = a
        .timers
        .iter()
        .find_map(|t| match t {
            Timer::InitialDelay { token, at_ms } => Some((*token, *at_ms)),
            _ => None,
        })
        .expect("an empty group's first heartbeat starts the delay");
    assert_eq!(delay.1, 3_000);
    // 4.2: the member reconciles to an empty target at epoch max(1, 0).
    assert_eq!(a.member_epoch, 1);
    let b = join(&mut g, "B", "pB", 2_000);
    assert!(b.assignment_delayed);
    assert!(
        !b.timers
            .iter()
            .any(|t| matches!(t, Timer::InitialDelay { .. })),
        "not extended by a later joiner"
    );
    let c = g.on_initial_delay(delay.0, delay.1).expect("computes");
    assert_eq!(c.epoch, g.group_epoch());
    assert_eq!(c.targets.len(), 2);
    // Members receive it at their next heartbeat.
    let a2 = beat(&mut g, "A", "pA", 1, None, 5_000);
    assert!(!a2.assignment_delayed);
    assert_eq!(a2.assignment.unwrap().active.len(), 2);
    assert_eq!(g.on_initial_delay(delay.0, 9_000), None, "fires once");
}

#[test]
fn a_leave_bumps_but_computes_nothing_the_next_heartbeat_does() {
    let mut g = group(1, 4, 0);
    settle(&mut g, "A", "pA", 0);
    join(&mut g, "B", "pB", 100);
    let before = g.assignment_epoch();
    let e = g.leave("B").unwrap();
    assert_eq!(e, g.group_epoch());
    assert_eq!(g.assignment_epoch(), before, "no computation on leave");
    let epoch = g.reconciliation("A").unwrap().member_epoch;
    let ok = beat(&mut g, "A", "pA", epoch, None, 5_000);
    assert_eq!(ok.computed.map(|c| c.epoch), Some(e));
}

#[test]
fn the_assignment_interval_delays_without_a_timer_4_3() {
    let mut g = group(3, 4, 0);
    let a = join(&mut g, "A", "pA", 0);
    let token = a
        .timers
        .iter()
        .find_map(|t| match t {
            Timer::InitialDelay { token, .. } => Some(*token),
            _ => None,
        })
        .unwrap();
    g.on_initial_delay(token, 3_000).unwrap();
    // B joins 500 ms after the last computation: delayed, nothing scheduled.
    let b = join(&mut g, "B", "pB", 3_500);
    assert!(b.assignment_delayed && b.computed.is_none());
    assert!(!b
        .timers
        .iter()
        .any(|t| matches!(t, Timer::InitialDelay { .. })));
    // The first heartbeat after the interval computes.
    let b2 = beat(&mut g, "B", "pB", b.member_epoch, None, 4_000);
    assert_eq!(b2.computed.map(|c| c.epoch), Some(g.group_epoch()));
}

#[test]
fn a_moved_task_is_revoked_acknowledged_then_picked_up() {
    let mut g = group(1, 2, 0);
    let a_tasks = settle(&mut g, "A", "pA", 0);
    assert_eq!(a_tasks, tasks(&[0, 1]));
    let epoch_a = g.reconciliation("A").unwrap().member_epoch;
    // B joins: the target moves one task; B must wait for it.
    let b = join(&mut g, "B", "pB", 1_000);
    assert!(b.computed.is_some());
    assert_eq!(b.state, MemberState::UnreleasedTasks);
    assert!(b.assignment.unwrap().active.is_empty());
    // A's next heartbeat: revoke, epoch unchanged, rebalance timer armed.
    let a = beat(&mut g, "A", "pA", epoch_a, None, 2_000);
    assert_eq!(a.state, MemberState::UnrevokedTasks);
    assert_eq!(a.member_epoch, epoch_a);
    assert_eq!(a.pending_revocation.active.len(), 1);
    assert!(a
        .timers
        .iter()
        .any(|t| matches!(t, Timer::Rebalance { at_ms: 302_000, .. })));
    // B heartbeats before A acknowledged: still nothing.
    let b2 = beat(&mut g, "B", "pB", b.member_epoch, None, 2_050);
    assert_eq!(b2.state, MemberState::UnreleasedTasks);
    // A acknowledges: it no longer reports the task.
    let kept = a.assignment.unwrap();
    let a2 = beat(&mut g, "A", "pA", epoch_a, Some(kept.clone()), 2_100);
    assert_eq!(a2.state, MemberState::Stable);
    assert!(a2.member_epoch > epoch_a);
    // B's next regular heartbeat picks it up.
    let b3 = beat(&mut g, "B", "pB", b.member_epoch, None, 6_000);
    assert_eq!(b3.state, MemberState::Stable);
    let got = b3.assignment.unwrap().active;
    assert_eq!(got.len(), 1);
    assert!(kept.active.is_disjoint(&got));
    assert!(g.is_stable());
}

#[test]
fn the_session_timer_fences_only_when_it_is_the_latest() {
    let mut g = group(1, 2, 0);
    let first = join(&mut g, "A", "pA", 0);
    let old = session_token(&first);
    let ok = beat(&mut g, "A", "pA", first.member_epoch, None, 5_000);
    let latest = session_token(&ok);
    assert_eq!(
        g.on_session_timer("A", old),
        None,
        "re-armed by a heartbeat"
    );
    let epoch = g.group_epoch();
    assert_eq!(g.on_session_timer("A", latest), Some(epoch + 1));
    assert!(!g.contains("A"));
}

#[test]
fn the_rebalance_timer_fences_a_member_that_is_still_revoking() {
    let mut g = group(1, 2, 0);
    settle(&mut g, "A", "pA", 0);
    let epoch_a = g.reconciliation("A").unwrap().member_epoch;
    join(&mut g, "B", "pB", 1_000);
    let a = beat(&mut g, "A", "pA", epoch_a, None, 2_000);
    let token = a
        .timers
        .iter()
        .find_map(|t| match t {
            Timer::Rebalance { token, .. } => Some(*token),
            _ => None,
        })
        .unwrap();
    // Acknowledged in time: the timer does nothing.
    let mut acked = g.clone();
    beat(
        &mut acked,
        "A",
        "pA",
        epoch_a,
        Some(a.assignment.clone().unwrap()),
        3_000,
    );
    assert_eq!(acked.on_rebalance_timer("A", token), None);
    // Still revoking when it fires: fenced, group epoch +1.
    let epoch = g.group_epoch();
    assert_eq!(g.on_rebalance_timer("A", token), Some(epoch + 1));
    assert!(!g.contains("A"));
}

#[test]
fn unknown_members_and_wrong_epochs_are_fenced() {
    let mut g = group(1, 2, 0);
    let req = |id: &str, epoch| HeartbeatRequest {
        member_id: id.into(),
        member_epoch: epoch,
        process_id: "p".into(),
        rebalance_timeout_ms: 1,
        owned: None,
    };
    assert_eq!(
        g.heartbeat(req("X", 3), 0),
        HeartbeatResponse::Fenced {
            unknown_member: true
        }
    );
    let ok = join(&mut g, "A", "p", 0);
    assert_eq!(
        g.heartbeat(req("A", ok.member_epoch + 5), 1),
        HeartbeatResponse::Fenced {
            unknown_member: false
        }
    );
}

#[test]
fn promoting_its_own_standby_takes_one_more_heartbeat_4_1_to_4_3() {
    // A and B, one task, one standby: A runs it, B holds the standby.
    let mut g = group(3, 1, 1);
    let a = join(&mut g, "A", "pA", 0);
    let delay = a
        .timers
        .iter()
        .find_map(|t| match t {
            Timer::InitialDelay { token, .. } => Some(*token),
            _ => None,
        })
        .unwrap();
    let b = join(&mut g, "B", "pB", 10);
    g.on_initial_delay(delay, 3_000).unwrap();
    let a = beat(&mut g, "A", "pA", a.member_epoch, None, 5_000);
    let a = beat(
        &mut g,
        "A",
        "pA",
        a.member_epoch,
        a.assignment.clone(),
        5_010,
    );
    let b = beat(&mut g, "B", "pB", b.member_epoch, None, 5_020);
    let b = beat(
        &mut g,
        "B",
        "pB",
        b.member_epoch,
        b.assignment.clone(),
        5_030,
    );
    let _ = (a, b);
    let (active_owner, standby_owner, process) =
        if g.reconciliation("A").unwrap().assigned.active.len() == 1 {
            ("A", "B", "pB")
        } else {
            ("B", "A", "pA")
        };
    assert_eq!(
        g.reconciliation(standby_owner)
            .unwrap()
            .assigned
            .standby
            .len(),
        1
    );
    // The active owner leaves; the standby owner's heartbeat computes and
    // must first drop the standby.
    g.leave(active_owner).unwrap();
    let epoch = g.reconciliation(standby_owner).unwrap().member_epoch;
    let r1 = beat(&mut g, standby_owner, process, epoch, None, 10_000);
    assert_eq!(r1.state, MemberState::UnrevokedTasks);
    assert_eq!(r1.pending_revocation.standby.len(), 1);
    // Its acknowledgement: the ownership maps still show the standby, so
    // the active is unreleased.
    let r2 = beat(
        &mut g,
        standby_owner,
        process,
        epoch,
        Some(TasksTuple::default()),
        10_020,
    );
    assert_eq!(r2.state, MemberState::UnreleasedTasks);
    assert!(g
        .reconciliation(standby_owner)
        .unwrap()
        .assigned
        .active
        .is_empty());
    // The next regular heartbeat grants it.
    let r3 = beat(
        &mut g,
        standby_owner,
        process,
        r2.member_epoch,
        None,
        15_000,
    );
    assert_eq!(r3.state, MemberState::Stable);
    assert_eq!(r3.assignment.unwrap().active.len(), 1);
}

#[test]
fn the_answer_carries_tasks_only_when_joining_or_when_they_changed() {
    // `GroupMetadataManager#streamsGroupHeartbeat`: "The assignment is only
    // provided in the following cases" — a join, or assigned tasks changed.
    let mut g = group(1, 2, 0);
    let joined = join(&mut g, "A", "pA", 0);
    assert!(joined.assignment.is_some(), "a join gets its tasks");
    let owned = joined.assignment.clone();
    let ack = beat(&mut g, "A", "pA", joined.member_epoch, owned, 10);
    assert_eq!(ack.assignment, None, "nothing changed");
    let regular = beat(&mut g, "A", "pA", ack.member_epoch, None, 5_010);
    assert_eq!(regular.assignment, None);
    // B joins; A must give one task up: its answer carries the change.
    join(&mut g, "B", "pB", 6_000);
    let revoke = beat(&mut g, "A", "pA", regular.member_epoch, None, 10_010);
    assert_eq!(revoke.state, MemberState::UnrevokedTasks);
    assert_eq!(revoke.assignment.map(|a| a.active.len()), Some(1));
}

#[test]
fn every_heartbeat_reschedules_the_session_to_now_plus_the_session_timeout() {
    let mut g = group(3, 2, 0);
    let at = |ok: &HeartbeatOk| {
        ok.timers.iter().find_map(|t| match t {
            Timer::Session { at_ms, .. } => Some(*at_ms),
            _ => None,
        })
    };
    let a = join(&mut g, "A", "pA", 1_000);
    assert_eq!(at(&a), Some(1_000 + 45_000));
    // While the initial delay runs, too (the session is not the target's).
    assert!(a.assignment_delayed);
    let b = beat(&mut g, "A", "pA", a.member_epoch, None, 6_000);
    assert_eq!(at(&b), Some(6_000 + 45_000));
}

#[test]
fn a_session_expiry_fences_bumps_and_computes_nothing_the_next_heartbeat_hands_over() {
    let mut g = group(1, 4, 0);
    settle(&mut g, "A", "pA", 0);
    let b = join(&mut g, "B", "pB", 100);
    let a_epoch = g.reconciliation("A").unwrap().member_epoch;
    // A releases two tasks to B, B picks them up.
    let a = beat(&mut g, "A", "pA", a_epoch, None, 5_000);
    let kept = a.assignment.unwrap();
    let a = beat(&mut g, "A", "pA", a_epoch, Some(kept.clone()), 5_010);
    let b = beat(&mut g, "B", "pB", b.member_epoch, None, 5_100);
    let b_tasks = b.assignment.unwrap();
    beat(
        &mut g,
        "B",
        "pB",
        b.member_epoch,
        Some(b_tasks.clone()),
        5_110,
    );
    assert!(g.is_stable());
    let session = session_token(&beat(&mut g, "B", "pB", b.member_epoch, None, 10_100));
    let (group_epoch, assignment_epoch) = (g.group_epoch(), g.assignment_epoch());
    // B's process is gone: its session runs out.
    assert_eq!(g.on_session_timer("B", session), Some(group_epoch + 1));
    assert!(!g.contains("B"));
    assert_eq!(
        g.assignment_epoch(),
        assignment_epoch,
        "fencing computes nothing"
    );
    // A's next regular heartbeat computes and gets B's tasks at once: they
    // are free, so there is no revocation step.
    let a2 = beat(&mut g, "A", "pA", a.member_epoch, None, 15_000);
    assert_eq!(a2.computed.map(|c| c.epoch), Some(group_epoch + 1));
    assert_eq!(a2.state, MemberState::Stable);
    let all = a2.assignment.unwrap().active;
    assert_eq!(all.len(), 4);
    assert!(b_tasks.active.is_subset(&all) && kept.active.is_subset(&all));
}

#[test]
fn the_initial_delay_starts_again_once_the_group_became_empty() {
    let mut g = group(2, 2, 0);
    let delay = |ok: &HeartbeatOk| {
        ok.timers.iter().find_map(|t| match t {
            Timer::InitialDelay { token, at_ms } => Some((*token, *at_ms)),
            _ => None,
        })
    };
    let a = join(&mut g, "A", "pA", 0);
    let (token, at) = delay(&a).unwrap();
    g.on_initial_delay(token, at).unwrap();
    let a = beat(&mut g, "A", "pA", a.member_epoch, None, 5_000);
    assert!(!a.assignment_delayed);
    g.leave("A").unwrap();
    // Everybody restarted: the first heartbeat into the empty group waits again.
    let again = join(&mut g, "A2", "pA2", 60_000);
    assert!(again.assignment_delayed && again.computed.is_none());
    assert_eq!(delay(&again).map(|d| d.1), Some(63_000));
}
