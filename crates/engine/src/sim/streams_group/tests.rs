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
    // Regular heartbeats continue in the background.
    let before = s.driver.now();
    s.run_until_observed(before + 20_000, &mut |_| {});
    assert!(s.driver.now() > before + 15_000, "heartbeats kept coming");
    assert!(s.settled());
}
