//! The streams-protocol presets (`presets/streams/streams-protocol-*`) against
//! Kafka's timings for each situation: heartbeat interval H = 5 s, session
//! 45 s, initial delay 3 s, assignment interval 1 s (4.3), a moved task idle
//! between its release and the new owner's next heartbeat, then restoring.
//! The presets' changelogs (100,000 records, growing 50 records/s while
//! processed; 20,000 records/s per thread) restore in R ≤ 6 s; a task
//! initialises in 200 ms and commits in 100 ms.

use engine::presets;
use engine::run::{run, RunResult, VariantRun};
use engine::trace::{ItemState, StepKind, Trace};

const H: u64 = 5_000;
const SESSION: u64 = 45_000;
const R: u64 = 6_000;
const INIT: u64 = 200;
const COMMIT: u64 = 100;
/// Two coordinator round trips of slack.
const RTT: u64 = 40;

fn result(id: &str) -> RunResult {
    run(&presets::find(id).unwrap().scenario())
}

fn column<'a>(r: &'a RunResult, label: &str) -> &'a VariantRun {
    r.variants
        .iter()
        .find(|v| v.label == label)
        .unwrap_or_else(|| panic!("no column {label}"))
}

fn steps(t: &Trace, kind: StepKind) -> Vec<(u64, Option<u32>)> {
    t.steps
        .iter()
        .filter(|s| s.kind == kind)
        .map(|s| (s.at_ms, s.worker))
        .collect()
}

fn first(t: &Trace, kind: StepKind, lane: Option<u32>) -> u64 {
    steps(t, kind)
        .into_iter()
        .find(|&(_, w)| lane.is_none() || w == lane)
        .unwrap_or_else(|| panic!("no {kind} step on {lane:?}"))
        .0
}

/// When each task item started running (again) after `after`, on any lane.
fn back_running(t: &Trace, item: u32, after: u64) -> Option<u64> {
    t.spans
        .iter()
        .filter(|s| s.state == ItemState::Running && s.worker.is_some() && !s.continues)
        .filter(|s| s.start_ms >= after && t.list(s.items).contains(&item))
        .map(|s| s.start_ms)
        .min()
}

/// The tasks on `lane` at `at`.
fn tasks_on(t: &Trace, lane: u32, at: u64) -> Vec<u32> {
    let mut items: Vec<u32> = t
        .spans
        .iter()
        .filter(|s| s.worker == Some(lane) && s.start_ms <= at && s.end_ms > at)
        .filter(|s| s.state == ItemState::Running)
        .flat_map(|s| t.list(s.items).iter().copied())
        .collect();
    items.sort_unstable();
    items
}

fn restoring_on(t: &Trace, lane: u32) -> bool {
    t.spans
        .iter()
        .any(|s| s.worker == Some(lane) && s.state == ItemState::Restoring)
}

#[test]
fn an_instance_joins_one_wave_of_moves_each_restored_from_scratch() {
    let r = result("streams/streams-protocol-instance-joins");
    let s = &column(&r, "streams protocol").trace;
    let join = first(s, StepKind::StreamsGroupJoin, Some(2));
    assert_eq!(
        first(s, StepKind::TargetAssignment, Some(2)),
        join,
        "computed on the join heartbeat"
    );
    // The old owners revoke at their own next heartbeats, each within H.
    let revokes = steps(s, StepKind::MemberRevoking);
    assert_eq!(revokes.len(), 2, "each old owner releases one task (W2)");
    for (at, _) in &revokes {
        assert!(
            (join..=join + H).contains(at),
            "revoke at {at}, join {join}"
        );
    }
    // The new member gets them at its first regular heartbeat after the
    // release: ≈ 5 s or 10 s after its join.
    let got = first(s, StepKind::MemberAssigned, Some(2));
    assert!(got > join && got <= join + 2 * H + RTT, "{got} vs {join}");
    let moved = tasks_on(s, 2, s.end_ms - 1);
    assert_eq!(moved.len(), 2);
    assert!(
        restoring_on(s, 2),
        "no warmups: a moved task restores while unavailable"
    );
    for t in moved {
        let up = back_running(s, t, join).unwrap();
        assert!(up <= got + INIT + 2 * R + RTT, "task {t} up at {up}");
    }
    // Classic + warmups: nothing stops, but balance waits for the probing
    // rebalance 10 min later.
    let classic = column(&r, "classic + warmups");
    assert!(classic.metrics.task_ms_not_running < 5_000);
    assert!(classic.metrics.settled_ms.unwrap() >= 30_000 + 600_000);
    assert!(column(&r, "streams protocol").metrics.settled_ms.unwrap() < 30_000 + 30_000);
}

#[test]
fn an_instance_crashes_its_tasks_move_after_the_session_timeout() {
    let r = result("streams/streams-protocol-instance-crashes");
    for label in ["streams protocol", "streams + standby"] {
        let s = &column(&r, label).trace;
        let crash = first(s, StepKind::Crash, Some(2));
        let fenced = first(s, StepKind::SessionTimeout, Some(2));
        // The last heartbeat was within H before the crash.
        assert!(
            (crash + SESSION - H..=crash + SESSION).contains(&fenced),
            "{label}: fenced at {fenced}"
        );
        let computed = first(s, StepKind::TargetAssignment, None);
        assert!((fenced..=fenced + H).contains(&computed), "{label}");
        let lost: Vec<u32> = tasks_on(s, 2, crash - 1);
        assert_eq!(lost.len(), 2, "{label}");
        let standby = label.contains("standby");
        for &t in &lost {
            let up = back_running(s, t, crash).unwrap();
            // No standby: the survivor's heartbeat (≤ H), then a restore from
            // scratch. With a standby (4.1–4.3): drop it, acknowledge, get
            // the active one heartbeat later, reopen from the checkpoint.
            let latest = if standby {
                fenced + 2 * H + INIT + 2 * RTT
            } else {
                fenced + H + INIT + R + RTT
            };
            assert!(up >= fenced && up <= latest, "{label}: task {t} up at {up}");
        }
        assert_eq!(
            restoring_on(s, 0) || restoring_on(s, 1),
            !standby,
            "{label}"
        );
    }
    // Classic notices at the same time: ≥ 45 s down either way.
    for label in ["classic", "classic + standby"] {
        let c = column(&r, label);
        assert!(c.metrics.longest_task_outage.as_ref().unwrap().duration_ms >= SESSION);
    }
}

#[test]
fn a_clean_scale_in_leaves_the_group_at_once() {
    let r = result("streams/streams-protocol-scale-in");
    let s = &column(&r, "streams protocol").trace;
    let close = first(s, StepKind::Close, Some(2));
    let leave = first(s, StepKind::StreamsGroupLeave, Some(2));
    assert!(leave <= close + COMMIT + RTT, "leaves after committing");
    let lost = tasks_on(s, 2, close - 1);
    for t in lost {
        let up = back_running(s, t, close).unwrap();
        assert!(up <= leave + H + INIT + R + RTT, "task {t} up at {up}");
    }
    // Classic sends no LeaveGroup: the session has to expire first.
    let classic = column(&r, "classic");
    assert!(
        classic
            .metrics
            .longest_task_outage
            .as_ref()
            .unwrap()
            .duration_ms
            >= SESSION
    );
    assert!(
        column(&r, "streams protocol")
            .metrics
            .longest_task_outage
            .as_ref()
            .unwrap()
            .duration_ms
            < SESSION / 3
    );
}

#[test]
fn a_rolling_restart_moves_work_away_and_back() {
    let r = result("streams/streams-protocol-rolling-restart");
    let s = column(&r, "streams protocol");
    // Three leaves, three joins with new member ids, a target each.
    assert_eq!(steps(&s.trace, StepKind::StreamsGroupLeave).len(), 3);
    assert_eq!(steps(&s.trace, StepKind::StreamsGroupJoin).len(), 3);
    assert!(steps(&s.trace, StepKind::TargetAssignment).len() >= 6);
    // Short outages, but every bounced task moves twice and restores.
    let outage = s.metrics.longest_task_outage.as_ref().unwrap().duration_ms;
    assert!(outage < 2 * (2 * H + R) + 2 * INIT, "{outage}");
    assert!(s.metrics.tasks_stopped >= 6);
    assert!((0..3).any(|lane| restoring_on(&s.trace, lane)));
    // Classic dynamic: the restarted instance waits for its old member's
    // session: one long outage per bounce, ≈ max(D, 45 s).
    let classic = column(&r, "classic");
    let c = classic
        .metrics
        .longest_task_outage
        .as_ref()
        .unwrap()
        .duration_ms;
    assert!((SESSION..SESSION + 20_000).contains(&c), "{c}");
}

#[test]
fn a_slow_thread_leaves_at_the_poll_timeout_and_nobody_waits_for_it() {
    let r = result("streams/streams-protocol-slow-thread");
    let s = &column(&r, "streams protocol").trace;
    let blocked = first(s, StepKind::Blocked, Some(2));
    let timeout = first(s, StepKind::PollTimeout, Some(2));
    assert_eq!(timeout, blocked + 300_000, "max.poll.interval.ms");
    let leave = first(s, StepKind::StreamsGroupLeave, Some(2));
    assert!(leave <= timeout + RTT);
    let lost = tasks_on(s, 2, blocked - 1);
    for t in lost {
        let up = back_running(s, t, timeout).unwrap();
        assert!(up <= leave + H + INIT + R + RTT, "task {t} up at {up}");
    }
    // The others never stop before the poll timeout.
    for lane in 0..2 {
        assert!(!s.spans.iter().any(|x| x.worker == Some(lane)
            && x.state == ItemState::Stopping
            && x.start_ms < timeout));
    }
    // When the handler returns it rejoins (same member id, epoch 0).
    let rejoin = steps(s, StepKind::StreamsGroupJoin)
        .into_iter()
        .find(|&(at, w)| w == Some(2) && at > timeout)
        .unwrap()
        .0;
    assert!((blocked + 400_000..=blocked + 400_000 + RTT).contains(&rejoin));
    assert_eq!(
        first(s, StepKind::PartitionsLost, Some(2)),
        blocked + 400_000
    );
}

#[test]
fn a_fresh_start_waits_the_initial_delay_once_4_3_and_not_at_all_4_1() {
    let r = result("streams/streams-protocol-fresh-start");
    let s = &column(&r, "streams protocol 4.3").trace;
    let joins = steps(s, StepKind::StreamsGroupJoin);
    assert_eq!(joins.len(), 3);
    let first_join = joins[0].0;
    let targets = steps(s, StepKind::TargetAssignment);
    assert_eq!(targets.len(), 1, "one computation for the whole group");
    assert_eq!(
        targets[0].0,
        first_join + 3_000,
        "not extended by later joiners"
    );
    assert!(
        steps(s, StepKind::MemberRevoking).is_empty(),
        "every task is free"
    );
    assert_eq!(steps(s, StepKind::AssignmentDelayed).len(), 1);
    // Each member gets its tasks at its next regular heartbeat, ≈ H after its join.
    for (at, lane) in joins {
        let got = first(s, StepKind::MemberAssigned, lane);
        assert!(
            (at + H - RTT..=at + H + RTT).contains(&got),
            "{lane:?}: {got} vs {at}"
        );
    }
    // 4.1: no initial delay, each join computes, the first member revokes.
    let old = &column(&r, "streams protocol 4.1").trace;
    assert_eq!(steps(old, StepKind::TargetAssignment).len(), 3);
    assert!(!steps(old, StepKind::MemberRevoking).is_empty());
    assert!(steps(old, StepKind::AssignmentDelayed).is_empty());
}
