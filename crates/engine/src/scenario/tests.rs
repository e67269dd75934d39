use super::*;

fn tiny() -> &'static str {
    r#"{"version":1,"title":"t","connect":{"workers":3,"connectors":[{"name":"c1","tasks":4},{"name":"c2","tasks":4}]},
        "events":[{"at_ms":30000,"type":"worker_join"}]}"#
}

#[test]
fn parses_with_defaults() {
    let s = Scenario::from_json(tiny()).unwrap();
    assert_eq!(s.compare.len(), 2);
    assert_eq!(
        s.compare[0].config.connect_protocol,
        Some(ConnectProtocol::Eager)
    );
    assert_eq!(s.connect.timings, Timings::default());
    assert_eq!(
        s.events[0].event,
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
        Err(ScenarioError::Malformed(_))
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
