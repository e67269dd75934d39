use super::*;

fn tiny() -> &'static str {
    r#"{"version":1,"title":"t","connect":{"workers":3,"connectors":[{"name":"c1","tasks":4},{"name":"c2","tasks":4}]},
        "events":[{"at_ms":30000,"type":"worker_join"}]}"#
}

#[test]
fn parses_with_defaults() {
    let s = Scenario::from_json(tiny()).unwrap();
    let Family::Connect(c) = &s.family else {
        panic!("a Connect scenario")
    };
    assert_eq!(s.family_kind(), FamilyKind::Connect);
    assert_eq!(s.variant_labels(), ["eager", "cooperative"]);
    assert_eq!(
        c.compare[0].config.connect_protocol,
        Some(ConnectProtocol::Eager)
    );
    assert_eq!(c.cluster.timings, Timings::default());
    assert_eq!(
        c.events[0].event,
        Event::WorkerJoin {
            count: 1,
            config: ConnectConfig::default()
        }
    );
    // Round trip.
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
}

#[test]
fn errors_name_the_field() {
    let bad = tiny().replace("\"workers\":3", "\"workers\":1000000000");
    let err = Scenario::from_json(&bad).unwrap_err();
    assert!(
        matches!(&err, ScenarioError::Invalid { field, .. } if field == "connect.workers"),
        "{err}"
    );
    let bad = tiny().replace("\"tasks\":4}", "\"tasks\":1000000000}");
    let err = Scenario::from_json(&bad).unwrap_err().to_string();
    assert!(err.contains("connect.connectors[0].tasks"), "{err}");
    let bad = tiny().replace("worker_join", "worker_jump");
    assert!(matches!(
        Scenario::from_json(&bad),
        Err(ScenarioError::Parse { path, .. }) if path == "events[0]"
    ));
    let bad = tiny().replace("\"version\":1", "\"version\":7");
    assert_eq!(
        Scenario::from_json(&bad),
        Err(ScenarioError::UnsupportedVersion(7))
    );
}

#[test]
fn unknown_event_fields_are_rejected() {
    let bad = tiny().replace(
        "\"type\":\"worker_join\"",
        "\"type\":\"worker_crash\",\"worker\":\"worker-1\",\"wroker\":1",
    );
    assert!(Scenario::from_json(&bad).is_err());
}

#[test]
fn worker_references_must_exist() {
    let bad = tiny().replace(
        "\"type\":\"worker_join\"",
        "\"type\":\"worker_crash\",\"worker\":\"worker-9\"",
    );
    let err = Scenario::from_json(&bad).unwrap_err().to_string();
    assert!(err.contains("events[0].worker"), "{err}");
}

#[test]
fn rules_expand_connectors() {
    let spec = ConnectorSpec {
        name: "sink".into(),
        tasks: 3,
        count: Some(2),
    };
    assert_eq!(
        spec.expand(),
        vec![("sink-1".to_string(), 3), ("sink-2".to_string(), 3)]
    );
}

#[test]
fn connectors_added_again_and_again_cannot_blow_up_the_trace() {
    let events: Vec<String> = (0..10)
        .map(|i| format!(r#"{{"at_ms":{},"type":"connector_add","name":"big-{i}","tasks":150000}},{{"at_ms":{},"type":"connector_remove","name":"big-{i}"}}"#, 1000 * i + 1, 1000 * i + 2))
        .collect();
    let json = format!(
        r#"{{"version":1,"connect":{{"workers":1}},"events":[{}]}}"#,
        events.join(",")
    );
    let err = Scenario::from_json(&json).unwrap_err().to_string();
    assert!(err.contains("tasks ever configured"), "{err}");
}

fn streams_json() -> &'static str {
    r#"{"version":1,"title":"s","streams":{"instances":3,"kafka_version":"3.9","subtopologies":[{"partitions":4,"stateful":true,"changelog_records":1000},{"partitions":4}],
        "config":{"num.stream.threads":2}},
        "compare":[{"label":"eager","config":{"upgrade.from":"2.3"}},{"label":"cooperative"}],
        "events":[{"at_ms":30000,"type":"instance_restart","instance":"instance-2","downtime_ms":5000,"remove_config":["upgrade.from"]}]}"#
}

#[test]
fn streams_scenarios_parse_with_kafka_names_and_round_trip() {
    let s = Scenario::from_json(streams_json()).unwrap();
    assert_eq!(s.family_kind(), FamilyKind::Streams);
    assert_eq!(s.family_kind().as_str(), "streams");
    let Family::Streams(st) = &s.family else {
        panic!("a Streams scenario")
    };
    let app = &st.app;
    assert_eq!(app.task_count(), 8);
    assert_eq!(app.version(), KafkaVersion::new(3, 9));
    assert_eq!(st.compare.len(), 2);
    let eager = app
        .config
        .merged(&st.compare[0].config)
        .resolve(app.version());
    assert!(!eager.cooperative(app.version()));
    assert_eq!(eager.num_stream_threads, 2);
    assert_eq!(eager.session_timeout_ms, 45_000);
    let old = StreamsConfig::default().resolve(KafkaVersion::new(2, 8));
    assert_eq!(old.session_timeout_ms, 10_000, "KIP-735: 10 s before 3.0");
    assert_eq!(
        old.task_assignor,
        TaskAssignorClass::HighAvailabilityTaskAssignor
    );
    let legacy = StreamsConfig::default().resolve(KafkaVersion::new(2, 5));
    assert_eq!(legacy.task_assignor, TaskAssignorClass::StickyTaskAssignor);
    assert!(!legacy.cooperative(KafkaVersion::new(2, 3)));
    assert!(legacy.cooperative(KafkaVersion::new(2, 4)));
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    // The variant's keys are written back as `config`.
    assert!(s.to_json().contains(r#""config":{"upgrade.from":"2.3"}"#));
    let link = crate::link::encode(&s);
    assert!(matches!(
        crate::link::decode(&format!("#{link}")),
        Ok(crate::link::LinkTarget::Scenario(b)) if *b == s
    ));
}

#[test]
fn a_scenario_is_connect_or_streams_and_streams_errors_name_the_field() {
    let both = streams_json().replace(r#""title":"s","#, r#""title":"s","connect":{"workers":1},"#);
    let err = Scenario::from_json(&both).unwrap_err().to_string();
    assert!(err.contains("not both"), "{err}");
    let neither = r#"{"version":1,"title":"x"}"#;
    let err = Scenario::from_json(neither).unwrap_err().to_string();
    assert!(
        err.contains("`connect`") && err.contains("`streams`"),
        "{err}"
    );
    let typo = streams_json().replace("num.stream.threads", "num.streams.threads");
    let err = Scenario::from_json(&typo).unwrap_err().to_string();
    assert!(err.contains("num.streams.threads"), "{err}");
    let bad = streams_json().replace(r#""instance":"instance-2""#, r#""instance":"instance-9""#);
    let err = Scenario::from_json(&bad).unwrap_err();
    assert!(
        matches!(&err, ScenarioError::Invalid { field, .. } if field == "events[0].instance"),
        "{err}"
    );
    let huge = streams_json().replace(r#""instances":3"#, r#""instances":1000000"#);
    let err = Scenario::from_json(&huge).unwrap_err();
    assert!(
        matches!(&err, ScenarioError::Invalid { field, .. } if field == "streams.instances"),
        "{err}"
    );
    let tasks = streams_json().replace(r#""partitions":4}"#, r#""partitions":4,"count":100000}"#);
    let err = Scenario::from_json(&tasks).unwrap_err().to_string();
    assert!(err.contains("streams.subtopologies[1]"), "{err}");
    let probing = streams_json().replace(
        r#""num.stream.threads":2"#,
        r#""num.stream.threads":2,"probing.rebalance.interval.ms":1000"#,
    );
    let err = Scenario::from_json(&probing).unwrap_err().to_string();
    assert!(err.contains("probing.rebalance.interval.ms"), "{err}");
    // Each refusal names the key that is wrong.
    let delay = streams_json().replace(
        r#""num.stream.threads":2"#,
        r#""num.stream.threads":2,"group.initial.rebalance.delay.ms":100000000"#,
    );
    let err = Scenario::from_json(&delay).unwrap_err();
    assert!(
        matches!(&err, ScenarioError::Invalid { field, .. } if field == "streams.config.group.initial.rebalance.delay.ms"),
        "{err}"
    );
    let no_restore = streams_json().replace(
        r#""config":{"num.stream.threads":2}"#,
        r#""config":{"num.stream.threads":2},"timings":{"restore_records_per_sec":0}"#,
    );
    let err = Scenario::from_json(&no_restore).unwrap_err();
    assert!(
        matches!(&err, ScenarioError::Invalid { field, .. } if field == "streams.timings.restore_records_per_sec"),
        "{err}"
    );
    let removed = streams_json().replace(r#"["upgrade.from"]"#, r#"["upgrade.form"]"#);
    let err = Scenario::from_json(&removed).unwrap_err().to_string();
    assert!(err.contains("events[0].remove_config"), "{err}");
}

#[test]
fn references_are_https_links_and_optional() {
    let with = tiny().replace(
        "\"title\":\"t\",",
        "\"title\":\"t\",\"references\":[{\"label\":\"KIP-415\",\"url\":\"https://cwiki.apache.org/x\"}],",
    );
    let s = Scenario::from_json(&with).unwrap();
    assert_eq!(s.references[0].label, "KIP-415");
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    // Absent references are not written, so older links stay byte for byte.
    assert!(!Scenario::from_json(tiny())
        .unwrap()
        .to_json()
        .contains("references"));
    let script = with.replace("https://cwiki.apache.org/x", "javascript:alert(1)");
    let err = Scenario::from_json(&script).unwrap_err().to_string();
    assert!(
        err.contains("references[0].url") && err.contains("https://"),
        "{err}"
    );
}

/// `from_json` reads text directly; the generic `Deserialize` impl goes
/// through `serde_json::Value`. Both must read every scenario the same way
/// and refuse the same inputs.
#[test]
fn reading_text_directly_matches_the_generic_deserializer() {
    let via_value = |text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .and_then(serde_json::from_value::<Scenario>)
            .map_err(|e| e.to_string())
    };
    for preset in crate::presets::all() {
        let text = preset.scenario().to_json();
        assert_eq!(
            Scenario::from_json(&text).map_err(|e| e.to_string()),
            via_value(&text).map_err(|e| e.to_string()).and_then(|s| {
                s.validate().map_err(|e| e.to_string())?;
                Ok(s)
            }),
            "{}",
            preset.id
        );
    }
    // The same refusals; `from_json` says them in plain words with the path.
    let refused = [
        (
            r#"{"version":1,"connect":{"workers":1},"streams":{}}"#,
            "not both",
            "not both",
        ),
        (
            r#"{"version":1,"title":"no cluster"}"#,
            "needs `connect`",
            "needs `connect`",
        ),
        // A key that is present, even as null, counts.
        (
            r#"{"version":1,"connect":null}"#,
            "connect: expected an object ({…}), got null",
            "ConnectCluster",
        ),
        (
            r#"{"version":1,"connect":{"workers":1},"extra":1}"#,
            "unknown key `extra`",
            "unknown field `extra`",
        ),
        // (The generic impl sees a non-object as one without either key.)
        (
            r#"[1, 2]"#,
            "expected an object ({…}), got a list",
            "needs `connect`",
        ),
        (
            r#"{"version":1,"connect":{"workers":-1}}"#,
            "connect.workers: expected a whole number ≥ 0, got -1",
            "expected u32",
        ),
    ];
    for (text, direct_words, generic_words) in refused {
        let direct = Scenario::from_json(text).unwrap_err().to_string();
        let generic = via_value(text).unwrap_err();
        assert!(direct.contains(direct_words), "{text}: {direct}");
        assert!(generic.contains(generic_words), "{text}: {generic}");
    }
}

/// Issue #15: a value of the wrong type names its path, in plain words.
#[test]
fn parse_errors_name_the_path_in_plain_words() {
    let json = r#"{"version":1,"connect":{"workers":3,"connectors":[{"name":"a","tasks":1},{"name":"b","tasks":1},{"name":"c","tasks":"4"}]}}"#;
    let err = Scenario::from_json(json).unwrap_err();
    let ScenarioError::Parse {
        path,
        problem,
        snippet,
        line,
    } = &err
    else {
        panic!("a parse error: {err:?}")
    };
    assert_eq!(path, "connect.connectors[2].tasks");
    assert_eq!(problem, r#"expected a whole number ≥ 0, got "4""#);
    assert!(snippet.contains(r#""tasks":"4""#), "{snippet}");
    assert_eq!(*line, None, "one line of JSON has no line to point at");
    let text = err.to_string();
    assert!(
        text.contains(r#"connect.connectors[2].tasks: expected a whole number ≥ 0, got "4""#),
        "{text}"
    );
    assert!(!text.contains("column") && !text.contains("u32"), "{text}");

    // `"workers": "4"` in a file: the path, the line and the text around it.
    let file = "{\n  \"version\": 1,\n  \"connect\": {\n    \"workers\": \"4\"\n  }\n}\n";
    let text = Scenario::from_json(file).unwrap_err().to_string();
    assert!(
        text.starts_with(r#"The scenario is not valid: connect.workers: expected a whole number ≥ 0, got "4" (line 4, near `"#),
        "{text}"
    );
    assert!(text.ends_with("`)."), "{text}");

    for (json, words) in [
        (
            tiny().replace("\"tasks\":4}", "\"tasks\":4,\"tsks\":1}"),
            "connect.connectors[0]: unknown key `tsks` (known keys: `name`, `tasks`, `count`)",
        ),
        (
            tiny().replace("{\"name\":\"c2\",\"tasks\":4}", "{\"name\":\"c2\"}"),
            "connect.connectors[1]: `tasks` is missing",
        ),
        (
            tiny().replace("worker_join", "worker_jump"),
            "events[0]: unknown event type `worker_jump` (one of: `worker_join`, `worker_stop`,",
        ),
        (
            tiny().replace("\"workers\":3", "\"workers\":true"),
            "connect.workers: expected a whole number ≥ 0, got true",
        ),
        (
            tiny().replace("\"title\":\"t\"", "\"title\":7"),
            "title: expected text in double quotes, got 7",
        ),
        (
            tiny().replace("\"workers\":3", "\"workers\":5000000000"),
            "connect.workers: expected a whole number from 0 to 4294967295, got 5000000000",
        ),
        (
            tiny().replace("}]}", "}]"),
            "the text is not valid JSON: it ends inside an object (was it cut off?)",
        ),
        (
            streams_json().replace("\"num.stream.threads\":2", "\"num.stream.threads\":\"2\""),
            "streams.config.num.stream.threads: expected a whole number ≥ 0, got \"2\"",
        ),
        (
            streams_json().replace(
                "\"num.stream.threads\":2",
                "\"processing.guarantee\":\"maybe_once\"",
            ),
            "streams.config.processing.guarantee: unknown value `maybe_once` (one of: `at_least_once`,",
        ),
        (
            streams_json().replace("instance_restart", "instance_reboot"),
            "events[0]: unknown event type `instance_reboot` (one of: `instance_join`,",
        ),
    ] {
        let text = Scenario::from_json(&json).unwrap_err().to_string();
        assert!(text.contains(words), "{json}\n{text}");
    }
}
