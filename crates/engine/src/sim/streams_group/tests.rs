//! The simulator's own choices around the coordinator: identities, the
//! group's rules per release, and quiet runs.

use super::*;
use crate::scenario::Scenario;

fn sim(version: &str) -> StreamsGroupSimulation {
    let text = format!(
        r#"{{"version": 1, "title": "t", "seed": 3,
            "streams": {{"instances": 2, "kafka_version": "{version}",
                         "subtopologies": [{{"partitions": 4, "stateful": true}}]}},
            "compare": [{{"label": "s", "config": {{"group.protocol": "streams", "num.stream.threads": 2}}}}]}}"#
    );
    let scenario = Scenario::from_json(&text).unwrap();
    let crate::scenario::Family::Streams(streams) = &scenario.family else {
        unreachable!("a Streams scenario")
    };
    StreamsGroupSimulation::new(&scenario, streams, &streams.compare[0])
}

#[test]
fn member_ids_are_new_per_process_start_and_22_base64_characters() {
    let s = sim("4.3");
    let a = s.member_id(0, 1, 0);
    assert_eq!(a.len(), 22);
    assert!(a
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    assert_eq!(a, s.member_id(0, 1, 0), "fixed by the seed");
    assert_ne!(a, s.member_id(0, 2, 0), "a restart gets a new id");
    assert_ne!(a, s.member_id(0, 1, 1), "each thread its own");
    assert_ne!(a, s.member_id(1, 1, 0));
}

#[test]
fn the_broker_rules_follow_the_release() {
    let c41 = sim("4.1").coordinator.config().clone();
    assert_eq!(c41.assignor, BrokerAssignor::Legacy41);
    assert_eq!(c41.initial_rebalance_delay_ms, None);
    assert_eq!(c41.assignment_interval_ms, 0);
    assert_eq!((c41.initial_epoch, c41.first_bumped_epoch), (0, 1));
    let c42 = sim("4.2").coordinator.config().clone();
    assert_eq!(
        c42.assignor,
        BrokerAssignor::Sticky(StickyTaskAssignorVersion::Released4_3)
    );
    assert_eq!(c42.initial_rebalance_delay_ms, Some(3_000));
    assert_eq!(c42.assignment_interval_ms, 0);
    assert_eq!((c42.initial_epoch, c42.first_bumped_epoch), (0, 2));
    let c43 = sim("4.3").coordinator.config().clone();
    assert_eq!(c43.assignment_interval_ms, 1_000);
    assert_eq!((c43.initial_epoch, c43.first_bumped_epoch), (1, 2));
    assert_eq!(
        (c43.heartbeat_interval_ms, c43.session_timeout_ms),
        (5_000, 45_000)
    );
}

#[test]
fn a_formed_group_goes_quiet_though_heartbeats_go_on() {
    let mut s = sim("4.3");
    let origin = crate::sim::formation::begin(&mut s, crate::scenario::Start::Formed);
    assert!(origin < 60_000, "formed at {origin}");
    assert!(s.settled());
    // Regular heartbeats continue in the background, and change nothing.
    let before = s.driver.now();
    while s.driver.now() < before + 20_000 {
        s.step();
    }
    assert!(s.settled());
    assert!(s.rest_is_steady());
}

/// Every event up to `end_ms`, none skipped.
fn run_every_event(s: &mut StreamsGroupSimulation, end_ms: u64) {
    while s.driver.next_due(end_ms).is_some() {
        s.step();
    }
}

#[test]
fn skipping_a_settled_groups_heartbeats_keeps_the_trace() {
    // A join, a crash and a clean stop, then an hour of a settled group:
    // `run_until_observed` stops playing heartbeats once only they are
    // left; playing every one of them gives the same trace.
    let text = r#"{"version": 1, "title": "t", "seed": 11,
        "streams": {"instances": 3, "kafka_version": "4.3",
                    "subtopologies": [{"partitions": 12, "stateful": true, "changelog_records": 5000}]},
        "compare": [{"label": "s", "config": {"group.protocol": "streams", "num.stream.threads": 2,
                                              "streams.num.standby.replicas": 1}}],
        "events": [{"at_ms": 20000, "type": "instance_join"},
                   {"at_ms": 90000, "type": "instance_crash", "instance": "instance-2"},
                   {"at_ms": 200000, "type": "instance_stop", "instance": "instance-3"}]}"#;
    let scenario = Scenario::from_json(text).unwrap();
    let crate::scenario::Family::Streams(streams) = &scenario.family else {
        unreachable!("a Streams scenario")
    };
    let run = |skip: bool| {
        let mut s = StreamsGroupSimulation::new(&scenario, streams, &streams.compare[0]);
        let origin = crate::sim::formation::begin(&mut s, crate::scenario::Start::Formed);
        let end = origin + 3_600_000;
        if skip {
            s.run_until_observed(end, &mut |_| std::ops::ControlFlow::Continue(()));
        } else {
            run_every_event(&mut s, end);
        }
        let processed = s.driver.next_due(u64::MAX);
        (s.finish(end), processed)
    };
    let (skipped, left) = run(true);
    let (played, next) = run(false);
    assert!(left.is_some(), "heartbeats were left unplayed");
    assert!(
        next.is_some_and(|t| t > 3_600_000),
        "every event to the end was played"
    );
    assert_eq!(skipped.cut, None);
    assert_eq!(skipped.fingerprint(), played.fingerprint());
    assert_eq!(skipped.steps.len(), played.steps.len());
}

#[test]
fn a_regular_heartbeat_is_due_one_interval_after_the_last_send_without_jitter() {
    // `StreamsGroupHeartbeatRequestManager`: the timer restarts at each
    // send with the interval from the broker (5 s), no jitter.
    let mut s = sim("4.3");
    crate::sim::formation::begin(&mut s, crate::scenario::Start::Formed);
    let threads = s.all_threads();
    let mut due: std::collections::BTreeMap<Th, Vec<u64>> = Default::default();
    let start = s.driver.now();
    while s.driver.now() < start + 40_000 {
        s.step();
        for &th in &threads {
            let at = s.thread(th).unwrap().hb_at;
            let seen = due.entry(th).or_default();
            if seen.last() != Some(&at) {
                seen.push(at);
            }
        }
    }
    assert_eq!(due.len(), 4, "2 instances × 2 threads");
    for (th, times) in &due {
        assert!(times.len() >= 7, "{th:?}: {times:?}");
        for w in times.windows(2) {
            assert_eq!(w[1] - w[0], 5_000, "{th:?}: {times:?}");
        }
    }
    let phases: std::collections::BTreeSet<u64> = due.values().map(|t| t[0] % 5_000).collect();
    assert!(
        phases.len() > 1,
        "instances start spread, so do their phases"
    );
}
