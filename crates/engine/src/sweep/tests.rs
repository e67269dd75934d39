//! Spec validation and point generation.

use super::*;
use crate::presets;
use crate::scenario::{Event, Family, StreamsEvent};

fn preset(id: &str) -> Scenario {
    presets::find(id).unwrap().scenario()
}

fn config(key: &str, variant: Option<&str>) -> SweepParameter {
    SweepParameter::Config {
        key: key.into(),
        variant: variant.map(str::to_string),
    }
}

fn spec(parameter: SweepParameter, from: u64, to: u64) -> SweepSpec {
    SweepSpec {
        parameter,
        from,
        to,
        steps: DEFAULT_STEPS,
        scale: Scale::Linear,
    }
}

fn refusal(spec: &SweepSpec, scenario: &Scenario) -> String {
    spec.validate(scenario)
        .expect_err("the spec should be refused")
        .to_string()
}

#[test]
fn linear_points_are_whole_numbers_with_exact_endpoints() {
    let v = sweep_values(0, 600_000, 21, Scale::Linear);
    assert_eq!(v.len(), 21);
    assert_eq!((v[0], v[20]), (0, 600_000));
    assert!(v.windows(2).all(|w| w[1] - w[0] == 30_000), "{v:?}");
    // Not a multiple: rounded half up, endpoints kept.
    assert_eq!(sweep_values(0, 10, 4, Scale::Linear), vec![0, 3, 7, 10]);
    assert_eq!(sweep_values(5, 6, 2, Scale::Linear), vec![5, 6]);
}

#[test]
fn a_narrow_integer_range_gives_each_value_once() {
    assert_eq!(sweep_values(1, 4, 20, Scale::Linear), vec![1, 2, 3, 4]);
    assert_eq!(sweep_values(1, 3, 20, Scale::Log), vec![1, 2, 3]);
}

#[test]
fn log_points_keep_a_constant_ratio() {
    let v = sweep_values(10_000, 10_000_000, 4, Scale::Log);
    assert_eq!(v, vec![10_000, 100_000, 1_000_000, 10_000_000]);
    let v = sweep_values(1, 1_024, 11, Scale::Log);
    assert_eq!(v, vec![1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1_024]);
    let v = sweep_values(6_000, 1_800_000, 20, Scale::Log);
    assert_eq!(v.len(), 20);
    assert_eq!((v[0], v[19]), (6_000, 1_800_000));
    let ratios: Vec<f64> = v.windows(2).map(|w| w[1] as f64 / w[0] as f64).collect();
    assert!(
        ratios.iter().all(|r| (r - ratios[0]).abs() < 0.01),
        "{ratios:?}"
    );
    // The largest range: no overflow, endpoints exact.
    let v = sweep_values(1, i64::MAX as u64, 100, Scale::Log);
    assert_eq!((v[0], *v.last().unwrap()), (1, i64::MAX as u64));
    assert!(v.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_config_sweep_writes_the_key_into_the_named_variant_only() {
    let scenario = preset("connect/worker-bounce");
    let s = spec(
        config("scheduled.rebalance.max.delay.ms", Some("cooperative")),
        0,
        600_000,
    );
    let points = s.points(&scenario).unwrap();
    assert_eq!(points.len(), 20);
    let Family::Connect(c) = &points[3].scenario.family else {
        panic!("a Connect scenario");
    };
    let cooperative = c.cluster.config.merged(&c.compare[1].config).resolve();
    assert_eq!(
        u64::from(cooperative.scheduled_rebalance_max_delay_ms),
        points[3].value
    );
    assert_eq!(c.compare[0].config.scheduled_rebalance_max_delay_ms, None);
    // Only the swept key differs from the base scenario.
    let mut back = points[3].scenario.clone();
    if let Family::Connect(c) = &mut back.family {
        c.compare[1].config.scheduled_rebalance_max_delay_ms = None;
    }
    assert_eq!(back, scenario);
    // One point on its own is the same scenario.
    assert_eq!(
        s.point(&scenario, points[3].value).unwrap(),
        points[3].scenario
    );
    assert!(s
        .point(&scenario, 3_000_000_000)
        .unwrap_err()
        .to_string()
        .contains("`value` is 3000000000 ms"));
}

#[test]
fn kafka_default_and_the_scenarios_value_are_reported() {
    let scenario = preset("streams/stateless-restart");
    let s = spec(config("session.timeout.ms", None), 6_000, 120_000);
    let target = s.parameter.resolve(&scenario).unwrap();
    assert_eq!(target.kafka_default, Some(45_000));
    assert_eq!(target.scenario_value, 45_000);
    let second = config("session.timeout.ms", Some("session.timeout.ms=10000"));
    assert_eq!(second.resolve(&scenario).unwrap().scenario_value, 10_000);
    // A Streams app on 2.8 has 2.8's default.
    let mut old = scenario.clone();
    if let Family::Streams(st) = &mut old.family {
        st.app.kafka_version = crate::scenario::KafkaVersion::parse("2.8");
    }
    assert_eq!(
        s.parameter.resolve(&old).unwrap().kafka_default,
        Some(10_000)
    );
}

#[test]
fn a_value_outside_kafkas_range_is_refused_naming_field_and_range() {
    let scenario = preset("connect/worker-bounce");
    let err = refusal(
        &spec(config("session.timeout.ms", None), 1_000, 60_000),
        &scenario,
    );
    assert_eq!(
        err,
        "The sweep's `from` is 1000 ms, outside what session.timeout.ms takes: the broker \
         (group.min.session.timeout.ms, group.max.session.timeout.ms: it refuses a JoinGroup \
         outside them) accepts 6000 to 1800000 ms."
    );
    let err = refusal(
        &spec(
            config("scheduled.rebalance.max.delay.ms", None),
            0,
            3_000_000_000,
        ),
        &scenario,
    );
    assert!(
        err.contains("`to` is 3000000000 ms")
            && err.contains("Kafka (its range in DistributedConfig) accepts 0 to 2147483647 ms"),
        "{err}"
    );
    let streams = preset("streams/stateful-scale-out");
    let err = refusal(
        &spec(
            config("probing.rebalance.interval.ms", None),
            1_000,
            600_000,
        ),
        &streams,
    );
    assert!(err.contains("60000 to 86400000 ms"), "{err}");
}

#[test]
fn unknown_and_non_numeric_keys_are_refused_with_the_numeric_ones_listed() {
    let scenario = preset("connect/worker-bounce");
    let err = refusal(&spec(config("connect.protocol", None), 0, 2), &scenario);
    assert!(
        err.contains("takes a name, not a number")
            && err.contains("scheduled.rebalance.max.delay.ms"),
        "{err}"
    );
    let err = refusal(&spec(config("max.warmup.replicas", None), 1, 4), &scenario);
    assert!(
        err.starts_with("The sweep's `key` is `max.warmup.replicas`, not a numeric config key"),
        "{err}"
    );
    let err = refusal(
        &spec(config("session.timeout.ms", Some("coop")), 6_000, 60_000),
        &scenario,
    );
    assert!(
        err.contains(
            "`variant` names `coop`, but the compared variants are `eager`, `cooperative`"
        ),
        "{err}"
    );
}

#[test]
fn steps_order_and_log_from_zero_are_checked() {
    let scenario = preset("connect/worker-bounce");
    let mut s = spec(config("rebalance.timeout.ms", None), 1_000, 60_000);
    s.steps = 1;
    assert!(refusal(&s, &scenario).contains("`steps` is 1; a sweep has 2 to 100 points"));
    s.steps = 101;
    assert!(refusal(&s, &scenario).contains("`steps` is 101"));
    s.steps = 20;
    s.to = 1_000;
    assert!(refusal(&s, &scenario).contains("`to` is 1000, not greater than from (1000)"));
    let mut log = spec(config("scheduled.rebalance.max.delay.ms", None), 0, 600_000);
    log.scale = Scale::Log;
    assert!(refusal(&log, &scenario).contains("`from` is 0; a log sweep starts at 1"));
}

#[test]
fn cluster_fields_belong_to_their_family_and_entry() {
    let connect = preset("connect/worker-bounce");
    let streams = preset("streams/stateless-restart");
    let workers = SweepParameter::Cluster {
        field: ClusterField::Workers,
        index: None,
    };
    let err = refusal(&spec(workers.clone(), 2, 10), &streams);
    assert!(
        err.contains(
            "`workers`, which a streams scenario does not have (it has instances, threads"
        ),
        "{err}"
    );
    let points = spec(workers, 2, 21).points(&connect).unwrap();
    assert_eq!(points.len(), 20);
    let tasks = SweepParameter::Cluster {
        field: ClusterField::Tasks,
        index: Some(1),
    };
    let points = spec(tasks, 1, 20).points(&connect).unwrap();
    let Family::Connect(c) = &points[0].scenario.family else {
        panic!()
    };
    assert_eq!(
        (c.cluster.connectors[0].tasks, c.cluster.connectors[1].tasks),
        (8, 1)
    );
    let out_of_range = SweepParameter::Cluster {
        field: ClusterField::Tasks,
        index: Some(2),
    };
    assert!(refusal(&spec(out_of_range, 1, 4), &connect)
        .contains("`index` is 2, but connect.connectors has 2 entries (0 to 1)"));
    // A stateless subtopology has no changelog to grow.
    let changelog = SweepParameter::Cluster {
        field: ClusterField::ChangelogRecords,
        index: None,
    };
    assert!(refusal(&spec(changelog, 0, 1_000), &streams).contains("is stateless"));
    let err = refusal(
        &spec(
            SweepParameter::Cluster {
                field: ClusterField::Instances,
                index: None,
            },
            1,
            5_000,
        ),
        &streams,
    );
    assert!(
        err.contains("the playground (the most instances it simulates) accepts 1 to 1000"),
        "{err}"
    );
}

#[test]
fn event_fields_exist_on_their_event() {
    let connect = preset("connect/worker-bounce");
    let downtime = SweepParameter::Event {
        event: 0,
        field: EventField::DowntimeMs,
    };
    let points = spec(downtime, 10_000, 200_000).points(&connect).unwrap();
    let Family::Connect(c) = &points[19].scenario.family else {
        panic!()
    };
    assert!(matches!(
        c.events[0].event,
        Event::WorkerRestart {
            downtime_ms: 200_000,
            ..
        }
    ));
    let gc = SweepParameter::Event {
        event: 0,
        field: EventField::DurationMs,
    };
    assert!(refusal(&spec(gc, 1, 10), &connect).contains(
        "`key` names events[0].duration_ms, but events[0] (worker-2 restarts) has no duration_ms; gc_pause have one"
    ));
    let missing = SweepParameter::Event {
        event: 3,
        field: EventField::AtMs,
    };
    assert!(refusal(&spec(missing, 1, 10), &connect)
        .contains("`key` names events[3], but the scenario has 1 (0 to 0)"));
    let streams = preset("streams/stateless-restart");
    let at = SweepParameter::Event {
        event: 0,
        field: EventField::AtMs,
    };
    let points = spec(at, 0, 60_000).points(&streams).unwrap();
    let Family::Streams(s) = &points[19].scenario.family else {
        panic!()
    };
    assert_eq!(s.events[0].at_ms, 60_000);
    assert!(matches!(
        s.events[0].event,
        StreamsEvent::InstanceRestart { .. }
    ));
}

#[test]
fn a_point_that_breaks_another_bound_is_refused_naming_the_point() {
    // heartbeat.interval.ms stays 3 s: a session timeout of 2 s would be
    // refused by the broker anyway, but the heartbeat must stay below it.
    let scenario = preset("connect/worker-bounce");
    let s = spec(config("heartbeat.interval.ms", None), 1_000, 20_000);
    let err = s.points(&scenario).unwrap_err().to_string();
    assert!(
        err.starts_with("The sweep's point heartbeat.interval.ms = 10000 gives a scenario that cannot run: The scenario's `compare[0].config.heartbeat.interval.ms` is 10000 ms; it must be at least 1 ms and lower than session.timeout.ms (10000 ms)"),
        "{err}"
    );
    // An event moved past end_ms.
    let late = SweepParameter::Event {
        event: 0,
        field: EventField::AtMs,
    };
    let err = spec(late, 0, 500_000)
        .points(&scenario)
        .unwrap_err()
        .to_string();
    assert!(err.contains("is after end_ms"), "{err}");
}

#[test]
fn the_cli_key_syntax_reads_every_kind() {
    assert_eq!(
        SweepParameter::parse_key(
            "scheduled.rebalance.max.delay.ms",
            Some("cooperative"),
            None
        )
        .unwrap(),
        config("scheduled.rebalance.max.delay.ms", Some("cooperative"))
    );
    assert_eq!(
        SweepParameter::parse_key("changelog_records", None, Some(0)).unwrap(),
        SweepParameter::Cluster {
            field: ClusterField::ChangelogRecords,
            index: Some(0)
        }
    );
    assert_eq!(
        SweepParameter::parse_key("events[2].downtime_ms", None, None).unwrap(),
        SweepParameter::Event {
            event: 2,
            field: EventField::DowntimeMs
        }
    );
    assert!(SweepParameter::parse_key("events[x].downtime_ms", None, None).is_err());
    assert!(SweepParameter::parse_key("workers", Some("eager"), None)
        .unwrap_err()
        .to_string()
        .contains("`variant` is set, but only a config key"));
    assert!(
        SweepParameter::parse_key("session.timeout.ms", None, Some(1))
            .unwrap_err()
            .to_string()
            .contains("`index` is set, but only a cluster field")
    );
    for key in ["session.timeout.ms", "tasks", "events[3].at_ms"] {
        let p = SweepParameter::parse_key(key, None, None).unwrap();
        assert_eq!(p.key().0, key);
    }
    assert!(SweepParameter::parse_key("nodes", None, None)
        .unwrap_err()
        .to_string()
        .contains("neither a Kafka config key"));
}

#[test]
fn specs_round_trip_through_json_and_defaults_stay_out() {
    let s = spec(config("scheduled.rebalance.max.delay.ms", None), 0, 600_000);
    let json = s.to_json();
    assert_eq!(
        json,
        r#"{"key":"scheduled.rebalance.max.delay.ms","from":0,"to":600000}"#
    );
    assert_eq!(SweepSpec::from_json(&json).unwrap(), s);
    let err = SweepSpec::from_json(r#"{"key":"a.b","from":0,"to":1,"step":3}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown field `step`"), "{err}");
}

#[test]
fn a_sweep_is_deterministic_and_marks_kafkas_default() {
    let scenario = preset("connect/worker-bounce");
    let mut s = spec(
        config("scheduled.rebalance.max.delay.ms", Some("cooperative")),
        0,
        600_000,
    );
    s.steps = 5;
    let a = run_sweep(&scenario, &s).unwrap();
    let b = run_sweep(&scenario, &s).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.points.len(), 5);
    assert_eq!(a.kafka_default, Some(300_000));
    assert_eq!(
        a.kafka_default_at,
        Some(DefaultPosition::Point { index: 2 })
    );
    // Each point's numbers are the engine's metrics of that point's run.
    let point = &s.points(&scenario).unwrap()[1];
    let run = crate::run::run(&point.scenario);
    for (v, mine) in run.variants.iter().zip(&a.points[1].runs) {
        let expected: Vec<Option<u64>> = a.metrics.iter().map(|h| h.value(&v.metrics)).collect();
        assert_eq!(mine.metrics, expected);
        assert_eq!(mine.fingerprint, v.fingerprint);
    }
    // Points added one by one (a worker pool) give the same result.
    let SweepPlan { mut result, points } = plan(&scenario, &s).unwrap();
    for p in points.iter().rev() {
        result.insert_point(run_point(p));
    }
    assert_eq!(result, a);
    s.steps = 4;
    let between = run_sweep(&scenario, &s).unwrap();
    assert_eq!(
        between.kafka_default_at,
        Some(DefaultPosition::Between { below: 1 })
    );
}

#[test]
fn a_storming_point_is_kept_and_marked_as_cut() {
    let scenario = preset("connect/rebalance-storm");
    let mut s = spec(config("rebalance.timeout.ms", None), 1_000, 60_000);
    s.steps = 2;
    let result = run_sweep(&scenario, &s).unwrap();
    assert_eq!(result.points.len(), 2);
    let first = &result.points[0].runs;
    assert!(first.iter().any(|r| r.cut.is_some()), "{first:?}");
    let last = &result.points[1].runs;
    assert!(last.iter().all(|r| r.cut.is_none()), "{last:?}");
    let csv = result.to_csv();
    assert!(csv.lines().nth(1).unwrap().ends_with(",rounds"), "{csv}");
}

#[test]
fn a_range_bound_of_days_reads_in_days() {
    assert_eq!(
        ValueUnit::Ms.format_bound(i32::MAX as u64),
        "24.8 days",
        "Integer.MAX_VALUE ms"
    );
    assert_eq!(ValueUnit::Ms.format_bound(86_400_000), "1 day");
    assert_eq!(ValueUnit::Ms.format_bound(7 * 86_400_000), "7 days");
    // Below a day, as any duration.
    assert_eq!(ValueUnit::Ms.format_bound(1_800_000), "30 min");
    assert_eq!(ValueUnit::Count.format_bound(100_000), "100,000");
}
