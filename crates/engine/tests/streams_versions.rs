//! Kafka Streams releases up to 4.3 (the default) and the identities a
//! scenario pins: what a version changes, what it refuses (naming the field
//! and the values it accepts), and `ProcessId`s deciding the assignor's ties.

use engine::run::run;
use engine::scenario::{Family, KafkaVersion, Scenario, ScenarioError};
use engine::trace::Trace;

fn streams_json(app_extra: &str, compare: &str) -> String {
    format!(
        r#"{{"version":1,"title":"v","seed":6,
  "streams":{{"instances":3{app_extra},"subtopologies":[{{"partitions":6,"stateful":true,"changelog_records":1000}}]}},
  "compare":{compare},
  "events":[{{"at_ms":20000,"type":"instance_join"}}]}}"#
    )
}

fn invalid(json: &str) -> (String, String) {
    match Scenario::from_json(json) {
        Err(ScenarioError::Invalid { field, reason }) => (field, reason),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn the_default_release_is_4_3() {
    let s = Scenario::from_json(&streams_json("", r#"[{"label":"c"}]"#)).unwrap();
    let Family::Streams(st) = &s.family else {
        panic!("streams")
    };
    assert_eq!(st.app.version(), KafkaVersion::new(4, 3));
}

#[test]
fn kafka_4_0_drops_eager_rebalancing_and_refuses_upgrade_from_2_3_kafka_18839() {
    let (field, reason) = invalid(&streams_json(
        r#","kafka_version":"4.0""#,
        r#"[{"label":"eager","config":{"upgrade.from":"2.3"}}]"#,
    ));
    assert_eq!(field, "compare[0].config.upgrade.from");
    assert!(reason.contains("2.4 … 3.9"), "{reason}");
    assert!(reason.contains("KAFKA-18839"), "{reason}");
    // 3.9 still has it: the eager column runs there.
    let s = Scenario::from_json(&streams_json(
        r#","kafka_version":"3.9""#,
        r#"[{"label":"eager","config":{"upgrade.from":"2.3"}},{"label":"cooperative"}]"#,
    ))
    .unwrap();
    let r = run(&s);
    let protocol = |t: &Trace| t.rounds.first().map(|r| r.protocol.clone());
    assert_eq!(protocol(&r.variants[0].trace).as_deref(), Some("eager"));
    assert_eq!(
        protocol(&r.variants[1].trace).as_deref(),
        Some("cooperative")
    );
}

#[test]
fn kafka_4_2_removed_the_upgrade_from_values_up_to_2_3_kafka_19703() {
    let (field, reason) = invalid(&streams_json(
        "",
        r#"[{"label":"eager","config":{"upgrade.from":"2.3"}}]"#,
    ));
    assert_eq!(field, "compare[0].config.upgrade.from");
    assert!(reason.contains("2.4 … 4.2"), "{reason}");
    assert!(reason.contains("KAFKA-19703"), "{reason}");
    // A column may run an older release instead.
    let ok = streams_json(
        "",
        r#"[{"label":"eager","kafka_version":"3.9","config":{"upgrade.from":"2.3"}},{"label":"cooperative"}]"#,
    );
    assert!(Scenario::from_json(&ok).is_ok());
    // A rolling upgrade to 4.3 that keeps upgrade.from=2.3 is refused too.
    let bounce = streams_json(
        r#","kafka_version":"2.3""#,
        r#"[{"label":"bridge","config":{"upgrade.from":"2.3"}}]"#,
    )
    .replace(
        r#"{"at_ms":20000,"type":"instance_join"}"#,
        r#"{"at_ms":20000,"type":"rolling_restart","downtime_ms":1000,"interval_ms":10000,"kafka_version":"4.3"}"#,
    );
    let (field, _) = invalid(&bounce);
    assert_eq!(field, "events[0].config.upgrade.from");
}

#[test]
fn unknown_releases_and_the_removed_state_updater_flag_are_refused_with_the_allowed_values() {
    let (field, reason) = invalid(&streams_json(
        r#","kafka_version":"4.4""#,
        r#"[{"label":"c"}]"#,
    ));
    assert_eq!(field, "streams.kafka_version");
    assert!(reason.contains("0.10 … 4.3"), "{reason}");
    let flag = |version: &str, value: &str| {
        streams_json(
            &format!(
                r#","kafka_version":"{version}","config":{{"__state.updater.enabled__":{value}}}"#
            ),
            r#"[{"label":"c"}]"#,
        )
    };
    let (field, reason) = invalid(&flag("4.3", "false"));
    assert_eq!(field, "streams.config.__state.updater.enabled__");
    assert!(reason.contains("removed in 4.3"), "{reason}");
    let (_, reason) = invalid(&flag("3.3", "true"));
    assert!(reason.contains("from Kafka Streams 3.4"), "{reason}");
    assert!(Scenario::from_json(&flag("3.7", "true")).is_ok());
    assert!(Scenario::from_json(&flag("4.3", "true")).is_ok());
}

/// Each lane's running tasks at the end of the run.
fn layout(t: &Trace) -> Vec<Vec<String>> {
    let mut lanes = vec![Vec::new(); t.workers.len()];
    for iv in t.intervals() {
        if iv.end_ms >= t.end_ms && iv.state == engine::trace::ItemState::Running {
            if let Some(w) = iv.worker {
                lanes[w as usize].push(t.items[iv.item as usize].label.clone());
            }
        }
    }
    for l in &mut lanes {
        l.sort();
    }
    lanes
}

#[test]
fn pinned_process_ids_decide_the_assignors_tie_breaks() {
    // HighAvailabilityTaskAssignor deals tasks round-robin over clients in
    // ProcessId order: pinning the ids pins who gets which task, whatever the
    // seed; reversing them reverses the deal.
    let ids = |a: u32, b: u32, c: u32, d: u32| {
        format!(
            r#","process_ids":["00000000-0000-0000-0000-00000000000{a}","00000000-0000-0000-0000-00000000000{b}","00000000-0000-0000-0000-00000000000{c}","00000000-0000-0000-0000-00000000000{d}"]"#
        )
    };
    let with = |extra: &str, seed: u32| {
        let json = streams_json(extra, r#"[{"label":"c"}]"#)
            .replace(r#""seed":6"#, &format!(r#""seed":{seed}"#));
        let s = Scenario::from_json(&json).unwrap();
        layout(&run(&s).variants[0].trace)
    };
    let forward = with(&ids(1, 2, 3, 4), 6);
    assert_eq!(
        forward,
        with(&ids(1, 2, 3, 4), 7),
        "the seed no longer decides"
    );
    let backward = with(&ids(4, 3, 2, 1), 6);
    assert_ne!(forward, backward);
    // instance-4 (joined at 20 s) sorts last forward and first backward: it
    // gets 0_3 in the first deal and 0_0 in the second, once warmed up.
    assert!(forward[3].contains(&"0_3".to_string()), "{forward:?}");
    assert!(backward[3].contains(&"0_0".to_string()), "{backward:?}");
    // Ids must differ.
    let (field, reason) = invalid(&streams_json(&ids(1, 1, 3, 4), r#"[{"label":"c"}]"#));
    assert_eq!(field, "streams.process_ids[1]");
    assert!(reason.contains("repeats"), "{reason}");
    // They round-trip through a link.
    let s = Scenario::from_json(&streams_json(&ids(1, 2, 3, 4), r#"[{"label":"c"}]"#)).unwrap();
    let link = engine::link::encode(&s);
    assert!(matches!(
        engine::link::decode(&format!("#{link}")),
        Ok(engine::link::LinkTarget::Scenario(b)) if *b == s
    ));
}
