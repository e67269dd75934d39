//! A long GC pause under `group.protocol=streams` (KIP-1071): the paused
//! instance's members send no heartbeats and process nothing; a pause past
//! `streams.session.timeout.ms` gets them fenced by the group coordinator,
//! and on resume they find out from their heartbeat's answer, lose their
//! tasks and rejoin with member epoch 0 (`StreamsMembershipManager`).

use engine::run::run;
use engine::scenario::Scenario;
use engine::trace::{ItemState, StepKind, Trace, WorkerState};

fn paused(pause_ms: u64) -> Trace {
    let text = format!(
        r#"{{"version": 1, "title": "t", "seed": 5,
            "streams": {{"instances": 2, "kafka_version": "4.3",
                         "subtopologies": [{{"partitions": 6, "stateful": true, "changelog_records": 1000}}]}},
            "compare": [{{"label": "streams", "config": {{"group.protocol": "streams"}}}}],
            "events": [{{"at_ms": 20000, "type": "gc_pause", "instance": "instance-2", "duration_ms": {pause_ms}}}]}}"#
    );
    let s = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{e}"));
    run(&s).variants.remove(0).trace
}

fn steps(t: &Trace, kind: StepKind) -> Vec<(u64, Option<u32>)> {
    t.steps
        .iter()
        .filter(|s| s.kind == kind)
        .map(|s| (s.at_ms, s.worker))
        .collect()
}

/// The first `kind` step's explanation.
fn explanation(t: &Trace, kind: StepKind) -> &str {
    let step = t.steps.iter().find(|s| s.kind == kind);
    step.map_or("", |s| &*s.explanation)
}

/// Tasks with a copy in `state` on `lane` at `at`.
fn tasks_at(t: &Trace, lane: u32, state: ItemState, at: u64) -> usize {
    t.spans
        .iter()
        .filter(|s| s.worker == Some(lane) && s.state == state)
        .filter(|s| s.start_ms <= at && s.end_ms > at)
        .map(|s| t.list(s.items).len())
        .sum()
}

/// When the paused instance's JVM stops and resumes.
fn pause_window(t: &Trace) -> (u64, u64) {
    let w = t
        .worker_spans
        .iter()
        .find(|w| w.worker == 1 && w.state == WorkerState::Frozen)
        .expect("the instance is shown frozen");
    (w.start_ms, w.end_ms)
}

#[test]
fn a_short_pause_freezes_the_instance_and_it_resumes_in_the_group() {
    let t = paused(10_000);
    let (from, to) = pause_window(&t);
    assert_eq!(to - from, 10_000);
    assert!(
        steps(&t, StepKind::EventSkipped).is_empty(),
        "{:?}",
        t.steps
    );
    assert_eq!(steps(&t, StepKind::GcPause), vec![(from, Some(1))]);
    assert!(explanation(&t, StepKind::GcPause).contains("keeps its members"));
    // Its three actives stop processing for the pause and run again after.
    assert_eq!(tasks_at(&t, 1, ItemState::Frozen, from + 5_000), 3);
    assert_eq!(tasks_at(&t, 1, ItemState::Running, from + 5_000), 0);
    assert_eq!(tasks_at(&t, 1, ItemState::Running, to + 1_000), 3);
    // Within the session: nobody is fenced, nobody rejoins.
    for kind in [
        StepKind::SessionTimeout,
        StepKind::UnknownMember,
        StepKind::PartitionsLost,
        StepKind::Zombie,
    ] {
        assert!(steps(&t, kind).is_empty(), "{kind:?}: {:?}", t.steps);
    }
    assert_eq!(t.members.len(), 2, "one membership per thread");
}

#[test]
fn a_pause_past_the_session_gets_the_members_fenced_and_they_rejoin() {
    let t = paused(60_000);
    let (from, to) = pause_window(&t);
    assert_eq!(to - from, 60_000);
    // The broker fences the silent member streams.session.timeout.ms (45 s)
    // after its last heartbeat (at most one interval, 5 s, before the pause).
    assert!(explanation(&t, StepKind::GcPause).contains("fences its members"));
    let fenced = steps(&t, StepKind::SessionTimeout);
    assert_eq!(fenced.len(), 1, "{:?}", t.steps);
    let (at, lane) = fenced[0];
    assert_eq!(lane, Some(1));
    assert!(
        (from + 40_000..=from + 45_000).contains(&at),
        "fenced at {at}, pause from {from}"
    );
    // Its tasks move to the other instance while it is paused.
    assert_eq!(tasks_at(&t, 0, ItemState::Running, to - 1), 6);
    assert_eq!(tasks_at(&t, 1, ItemState::Frozen, to - 1), 3);
    // On resume it runs on as a zombie until its heartbeat is answered
    // UNKNOWN_MEMBER_ID, then loses its tasks and rejoins with epoch 0.
    let zombie = steps(&t, StepKind::Zombie);
    assert_eq!(zombie, vec![(to, Some(1))]);
    assert_eq!(tasks_at(&t, 1, ItemState::Zombie, to), 3);
    let unknown = steps(&t, StepKind::UnknownMember);
    assert_eq!(unknown.len(), 1);
    assert!(unknown[0].0 >= to && unknown[0].0 < to + 1_000);
    assert!(explanation(&t, StepKind::UnknownMember).contains("UNKNOWN_MEMBER_ID"));
    let lost = steps(&t, StepKind::PartitionsLost);
    assert_eq!(lost, vec![(unknown[0].0, Some(1))]);
    assert_eq!(tasks_at(&t, 1, ItemState::Zombie, unknown[0].0), 0);
    // The rejoin is a new member for the broker (same member id).
    assert_eq!(t.members.len(), 3);
    let paused: Vec<_> = t.members.iter().filter(|m| m.worker == 1).collect();
    assert_eq!(paused.len(), 2);
    assert_eq!(paused[0].member_id, paused[1].member_id);
    assert!(paused[1].joined_ms >= unknown[0].0);
    // The sticky assignor gives it half of the tasks back.
    let end = t.end_ms - 1;
    assert_eq!(tasks_at(&t, 0, ItemState::Running, end), 3);
    assert_eq!(tasks_at(&t, 1, ItemState::Running, end), 3);
}

#[test]
fn a_clean_close_waits_for_the_paused_jvm() {
    let text = r#"{"version": 1, "title": "t", "seed": 5,
        "streams": {"instances": 2, "kafka_version": "4.3",
                    "subtopologies": [{"partitions": 4}]},
        "compare": [{"label": "streams", "config": {"group.protocol": "streams"}}],
        "events": [{"at_ms": 20000, "type": "gc_pause", "instance": "instance-2", "duration_ms": 8000},
                   {"at_ms": 22000, "type": "instance_stop", "instance": "instance-2"}]}"#;
    let s = Scenario::from_json(text).unwrap_or_else(|e| panic!("{e}"));
    let t = run(&s).variants.remove(0).trace;
    let (_, to) = pause_window(&t);
    assert_eq!(steps(&t, StepKind::EventDeferred).len(), 1);
    assert_eq!(steps(&t, StepKind::Close), vec![(to, Some(1))]);
}
