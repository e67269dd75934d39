//! `group.protocol=streams` (KIP-1071) in the simulator: the rules of the
//! streams group that are not tied to one preset (members per thread,
//! group-side configs, the readiness pause, standbys from the group config).

use engine::run::run;
use engine::scenario::Scenario;
use engine::trace::{ItemState, StepKind, Trace};

fn trace(text: &str) -> Trace {
    let s = Scenario::from_json(text).unwrap_or_else(|e| panic!("{e}"));
    run(&s).variants.remove(0).trace
}

fn scenario(version: &str, config: &str, events: &str) -> String {
    format!(
        r#"{{"version": 1, "title": "t", "seed": 5,
            "streams": {{"instances": 2, "kafka_version": "{version}",
                         "subtopologies": [{{"partitions": 6, "stateful": true, "changelog_records": 1000}}]}},
            "compare": [{{"label": "streams", "config": {{"group.protocol": "streams"{config}}}}}],
            "events": [{events}]}}"#
    )
}

/// (lane, task) pairs that hold a copy of a task in two roles on one
/// instance at some moment.
fn twice_on_one_process(t: &Trace) -> bool {
    let mut moments: Vec<u64> = t.spans.iter().map(|s| s.start_ms).collect();
    moments.sort_unstable();
    moments.dedup();
    moments.into_iter().any(|at| {
        let mut seen = std::collections::BTreeSet::new();
        t.spans
            .iter()
            .filter(|s| s.start_ms <= at && s.end_ms > at)
            .filter_map(|s| s.worker.map(|w| (w, s)))
            .flat_map(|(w, s)| t.list(s.items).iter().map(move |&i| (w, i)))
            .any(|pair| !seen.insert(pair))
    })
}

#[test]
fn every_stream_thread_is_a_member_and_threads_share_the_process() {
    let t = trace(&scenario(
        "4.3",
        r#", "num.stream.threads": 3, "streams.num.standby.replicas": 1"#,
        "",
    ));
    assert_eq!(t.members.len(), 6, "2 instances × 3 threads");
    let ids: std::collections::BTreeSet<_> = t.members.iter().map(|m| &m.member_id).collect();
    assert_eq!(ids.len(), 6, "each thread its own member id");
    assert!(
        t.members.iter().all(|m| m.member_id.len() == 22),
        "Uuid base64"
    );
    // A process never holds a task twice (active and standby, across threads).
    assert!(!twice_on_one_process(&t));
    let standbys = t
        .spans
        .iter()
        .filter(|s| s.state == ItemState::Standby && s.end_ms == t.end_ms)
        .map(|s| t.list(s.items).len())
        .sum::<usize>();
    assert_eq!(
        standbys, 6,
        "one standby per stateful task, from the group config"
    );
}

#[test]
fn the_clients_num_standby_replicas_is_ignored() {
    let t = trace(&scenario("4.3", r#", "num.standby.replicas": 2"#, ""));
    assert!(
        !t.spans.iter().any(|s| s.state == ItemState::Standby),
        "standbys come from streams.num.standby.replicas"
    );
}

#[test]
fn no_warmups_in_any_release() {
    for v in ["4.1", "4.2", "4.3"] {
        let t = trace(&scenario(
            v,
            "",
            r#"{"at_ms": 10000, "type": "instance_join"}"#,
        ));
        assert!(!t.spans.iter().any(|s| s.state == ItemState::Warmup), "{v}");
        assert!(t.rounds.is_empty(), "{v}: no JoinGroup rounds");
    }
}

#[test]
fn the_session_and_heartbeat_are_the_groups_not_the_clients() {
    let crash = r#"{"at_ms": 10000, "type": "instance_crash", "instance": "instance-2"}"#;
    let fenced = |t: &Trace| {
        t.steps
            .iter()
            .find(|s| s.kind == StepKind::SessionTimeout)
            .unwrap()
            .at_ms
    };
    // The client's session.timeout.ms (10 s here) changes nothing.
    let client = trace(&scenario("4.3", r#", "session.timeout.ms": 10000"#, crash));
    assert!((10_000 + 40_000..=10_000 + 45_000).contains(&fenced(&client)));
    let group = trace(&scenario(
        "4.3",
        r#", "streams.session.timeout.ms": 60000"#,
        crash,
    ));
    assert!((10_000 + 55_000..=10_000 + 60_000).contains(&fenced(&group)));
}

#[test]
fn assignment_delayed_pauses_processing_on_4_2_and_later_but_not_on_4_1() {
    // Four threads of a new instance join a running group within
    // milliseconds: with 4.3's 1 s assignment interval the later bumps are
    // answered ASSIGNMENT_DELAYED, and a member that hears it stops
    // processing until an answer without it.
    // Whether an existing member heartbeats inside that second depends on
    // its phase: joins half a second apart cover a whole heartbeat interval.
    let paused = |version: &str, at: u64| {
        let join = format!(
            r#"{{"at_ms": {at}, "type": "instance_join", "config": {{"num.stream.threads": 4}}}}"#
        );
        let t = trace(&scenario(version, "", &join));
        let delayed = t
            .steps
            .iter()
            .any(|s| s.kind == StepKind::AssignmentDelayed);
        let frozen = t
            .spans
            .iter()
            .any(|s| s.state == ItemState::Frozen && s.start_ms >= at);
        (delayed, frozen)
    };
    let runs: Vec<(bool, bool)> = (0..10).map(|k| paused("4.3", 10_000 + k * 500)).collect();
    assert!(runs.iter().all(|r| r.0), "every burst is batched: {runs:?}");
    assert!(
        runs.iter().any(|r| r.1),
        "a member that heard ASSIGNMENT_DELAYED stops processing: {runs:?}"
    );
    for k in 0..10 {
        assert_eq!(paused("4.1", 10_000 + k * 500), (false, false));
    }
}

#[test]
fn nothing_runs_twice_and_every_task_runs_at_the_end() {
    for v in ["4.1", "4.2", "4.3"] {
        let events = r#"{"at_ms": 10000, "type": "instance_join", "count": 2},
            {"at_ms": 40000, "type": "instance_stop", "instance": "instance-1"},
            {"at_ms": 70000, "type": "instance_restart", "instance": "instance-2", "crash": true, "downtime_ms": 5000}"#;
        let s = Scenario::from_json(&scenario(
            v,
            r#", "streams.num.standby.replicas": 1"#,
            events,
        ))
        .unwrap();
        let result = run(&s);
        let r = &result.variants[0];
        assert_eq!(r.metrics.duplicate_task_ms, 0, "{v}");
        assert!(r.metrics.settled_ms.is_some(), "{v}: settles");
        assert!(!twice_on_one_process(&r.trace), "{v}");
        // Deterministic.
        assert_eq!(run(&s).variants[0].fingerprint, r.fingerprint, "{v}");
    }
}

#[test]
fn a_revoking_member_acknowledges_right_after_its_poll_not_at_its_next_heartbeat() {
    // StreamsMembershipManager: the revocation runs on the StreamThread's
    // next poll (commit), then ACKNOWLEDGING sends a heartbeat at once
    // (`shouldHeartbeatBeforeIntervalExpires`), well before the 5 s timer.
    for v in ["4.1", "4.2", "4.3"] {
        let t = trace(&scenario(
            v,
            "",
            r#"{"at_ms": 10000, "type": "instance_join"}"#,
        ));
        let revokes: Vec<_> = t
            .steps
            .iter()
            .filter(|s| s.kind == StepKind::MemberRevoking)
            .collect();
        assert!(!revokes.is_empty(), "{v}: the join moves tasks");
        for r in revokes {
            let ack = t
                .steps
                .iter()
                .find(|s| {
                    s.kind == StepKind::MemberAssigned && s.worker == r.worker && s.at_ms > r.at_ms
                })
                .unwrap_or_else(|| panic!("{v}: no acknowledgement after {}", r.at_ms));
            assert!(
                ack.explanation.contains("acknowledged the revocation"),
                "{v}: {}",
                ack.explanation
            );
            let took = ack.at_ms - r.at_ms;
            assert!(
                (100..1_000).contains(&took),
                "{v}: acknowledged {took} ms after the revocation (commit 100 ms, heartbeat 5 s)"
            );
        }
    }
}
