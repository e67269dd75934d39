//! Issue #15: scenario values are checked against Kafka's own ranges where
//! Kafka has them and the playground's elsewhere; each refusal names the
//! key, the value and the range. Values Kafka accepts stay accepted, even
//! those that make the group storm. Events after `end_ms` are refused.

use engine::scenario::{Scenario, ScenarioError};

fn connect(config: &str, compare: &str, extra: &str) -> String {
    format!(
        r#"{{"version":1,"connect":{{"workers":3,"connectors":[{{"name":"c","tasks":6}}],"config":{{{config}}}}},
            "compare":[{{"label":"eager","config":{{"connect.protocol":"eager"}}}},{{"label":"other","config":{{{compare}}}}}]{extra}}}"#
    )
}

fn streams(config: &str, extra: &str) -> String {
    format!(
        r#"{{"version":1,"streams":{{"instances":3,"subtopologies":[{{"partitions":6}}],"config":{{{config}}}}}{extra}}}"#
    )
}

fn refusal(json: &str) -> (String, String) {
    match Scenario::from_json(json) {
        Err(ScenarioError::Invalid { field, reason }) => (field, reason),
        other => panic!("expected a refusal naming a field, got {other:?}\n{json}"),
    }
}

fn accepted(json: &str) {
    if let Err(e) = Scenario::from_json(json) {
        panic!("refused: {e}\n{json}");
    }
}

#[test]
fn the_broker_refuses_session_timeouts_outside_its_group_bounds() {
    let err = Scenario::from_json(&connect("", r#""session.timeout.ms":1000"#, ""))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("compare[1].config.session.timeout.ms` is 1000 ms; the broker accepts 6000 to 1800000 ms (group.min.session.timeout.ms, group.max.session.timeout.ms"),
        "{err}"
    );
    let (field, reason) = refusal(&connect(r#""session.timeout.ms":1800001"#, "", ""));
    assert_eq!(field, "connect.config.session.timeout.ms");
    assert!(
        reason.starts_with("is 1800001 ms; the broker accepts"),
        "{reason}"
    );
    let (field, reason) = refusal(&streams(r#""session.timeout.ms":5999"#, ""));
    assert_eq!(field, "streams.config.session.timeout.ms");
    assert!(reason.contains("6000 to 1800000"), "{reason}");
    // The bounds themselves are accepted.
    accepted(&connect(
        r#""session.timeout.ms":6000,"heartbeat.interval.ms":2000"#,
        r#""session.timeout.ms":1800000"#,
        "",
    ));
    accepted(&streams(
        r#""session.timeout.ms":6000,"heartbeat.interval.ms":2000"#,
        "",
    ));
}

#[test]
fn heartbeats_must_be_positive_and_below_the_session_timeout() {
    let (field, reason) = refusal(&connect(r#""heartbeat.interval.ms":10000"#, "", ""));
    assert_eq!(field, "connect.config.heartbeat.interval.ms");
    assert!(
        reason.contains("is 10000 ms") && reason.contains("session.timeout.ms (10000 ms)"),
        "{reason}"
    );
    let (field, _) = refusal(&streams(r#""heartbeat.interval.ms":0"#, ""));
    assert_eq!(field, "streams.config.heartbeat.interval.ms");
}

#[test]
fn streams_configs_keep_kafkas_ranges() {
    for (config, key, range) in [
        (
            r#""probing.rebalance.interval.ms":30000"#,
            "probing.rebalance.interval.ms",
            "60000 to 86400000 ms",
        ),
        (
            r#""max.warmup.replicas":0"#,
            "max.warmup.replicas",
            "1 to 2147483647",
        ),
        (
            r#""acceptable.recovery.lag":9223372036854775808"#,
            "acceptable.recovery.lag",
            "0 to 9223372036854775807",
        ),
        (
            r#""num.standby.replicas":11"#,
            "num.standby.replicas",
            "0 to 10",
        ),
        (r#""num.stream.threads":0"#, "num.stream.threads", "1 to 32"),
        (
            r#""max.poll.interval.ms":0"#,
            "max.poll.interval.ms",
            "1 to 86400000 ms",
        ),
        (
            r#""state.cleanup.delay.ms":86400001"#,
            "state.cleanup.delay.ms",
            "0 to 86400000 ms",
        ),
    ] {
        let (field, reason) = refusal(&streams(config, ""));
        assert_eq!(field, format!("streams.config.{key}"));
        assert!(reason.contains(range), "{key}: {reason}");
    }
    // Kafka's own bounds are accepted.
    accepted(&streams(
        r#""probing.rebalance.interval.ms":60000,"acceptable.recovery.lag":9223372036854775807,"max.warmup.replicas":1"#,
        "",
    ));
}

#[test]
fn connect_configs_keep_kafkas_ranges() {
    for (config, key, range) in [
        (
            r#""rebalance.timeout.ms":0"#,
            "rebalance.timeout.ms",
            "1 to 2147483647 ms",
        ),
        (
            r#""rebalance.timeout.ms":2147483648"#,
            "rebalance.timeout.ms",
            "1 to 2147483647 ms",
        ),
        (
            r#""scheduled.rebalance.max.delay.ms":2147483648"#,
            "scheduled.rebalance.max.delay.ms",
            "0 to 2147483647 ms",
        ),
        (
            r#""inter.worker.key.ttl.ms":4000000000"#,
            "inter.worker.key.ttl.ms",
            "0 to 2147483647 ms",
        ),
        (
            r#""group.initial.rebalance.delay.ms":100000000"#,
            "group.initial.rebalance.delay.ms",
            "0 to 86400000 ms",
        ),
        (
            r#""task.shutdown.graceful.timeout.ms":4000000000"#,
            "task.shutdown.graceful.timeout.ms",
            "0 to 86400000 ms",
        ),
    ] {
        let (field, reason) = refusal(&connect(config, "", ""));
        assert_eq!(field, format!("connect.config.{key}"));
        assert!(reason.contains(range), "{key}: {reason}");
    }
}

/// Kafka accepts these, so the playground does too: a storm is a result
/// (the run budget bounds its cost), not an input error.
#[test]
fn values_that_make_a_group_storm_are_not_refused() {
    Scenario::from_json(&connect(
        r#""rebalance.timeout.ms":10,"heartbeat.interval.ms":1"#,
        "",
        "",
    ))
    .unwrap();
    Scenario::from_json(&streams(
        r#""max.poll.interval.ms":1000,"heartbeat.interval.ms":1"#,
        "",
    ))
    .unwrap();
}

#[test]
fn timings_have_playground_ranges() {
    // ~49 days used to be accepted.
    let json = r#"{"version":1,"connect":{"workers":1,"timings":{"task_start_ms":4294967295}}}"#;
    let (field, reason) = refusal(json);
    assert_eq!(field, "connect.timings.task_start_ms");
    assert_eq!(
        reason,
        "is 4294967295 ms; the playground accepts 0 to 600000 ms (10 minutes is its bound for starting, stopping or committing)"
    );
    let json = r#"{"version":1,"connect":{"workers":1,"timings":{"coordinator_rtt_ms":60000}}}"#;
    assert_eq!(refusal(json).0, "connect.timings.coordinator_rtt_ms");
    let json = r#"{"version":1,"streams":{"instances":1,"subtopologies":[{"partitions":1}],"timings":{"instance_start_ms":3600000}}}"#;
    assert_eq!(refusal(json).0, "streams.timings.instance_start_ms");
    let json = r#"{"version":1,"streams":{"instances":1,"subtopologies":[{"partitions":1}],"timings":{"coordinator_rtt_ms":30001}}}"#;
    assert_eq!(refusal(json).0, "streams.timings.coordinator_rtt_ms");
}

#[test]
fn event_times_and_durations_name_value_and_range() {
    let extra = r#","events":[{"at_ms":1000,"type":"gc_pause","worker":"worker-1","duration_ms":90000000}]"#;
    let (field, reason) = refusal(&connect("", "", extra));
    assert_eq!(field, "events[0].duration_ms");
    assert_eq!(
        reason,
        "is 90000000 ms; the playground accepts 0 to 86400000 ms (it simulates at most one day)"
    );
    let extra = r#","events":[{"at_ms":86400001,"type":"instance_crash","instance":"instance-1"}]"#;
    let (field, reason) = refusal(&streams("", extra));
    assert_eq!(field, "events[0].at_ms");
    assert!(reason.starts_with("is 86400001 ms;"), "{reason}");
    let (field, reason) = refusal(&connect("", "", r#","end_ms":90000000"#));
    assert_eq!(field, "end_ms");
    assert!(reason.starts_with("is 90000000 ms;"), "{reason}");
}

#[test]
fn events_after_end_ms_are_refused_naming_the_event() {
    let extra = r#","end_ms":300000,"events":[{"at_ms":60000,"type":"worker_join"},{"at_ms":120000,"type":"worker_stop","worker":"worker-1"},{"at_ms":420000,"type":"worker_crash","worker":"worker-3"}]"#;
    let err = Scenario::from_json(&connect("", "", extra)).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with(
            "The scenario's `events[2]` (worker-3 crashes at 7 min) is after end_ms (5 min): "
        ),
        "{text}"
    );
    assert!(matches!(err, ScenarioError::Invalid { field, .. } if field == "events[2]"));

    let extra = r#","end_ms":60000,"events":[{"at_ms":60500,"type":"instance_crash","instance":"instance-2"}]"#;
    let text = Scenario::from_json(&streams("", extra))
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("`events[0]` (instance-2 crashes at 1 min 500 ms) is after end_ms (1 min)"),
        "{text}"
    );

    // An event at end_ms itself still runs.
    accepted(&connect(
        "",
        "",
        r#","end_ms":60000,"events":[{"at_ms":60000,"type":"worker_join"}]"#,
    ));
    accepted(&streams(
        "",
        r#","end_ms":60000,"events":[{"at_ms":60000,"type":"instance_crash","instance":"instance-1"}]"#,
    ));
}
