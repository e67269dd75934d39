//! `group.protocol` (KIP-1071) in the Streams scenario model: Kafka's version
//! rules, the messages that name the field, and links that carry the key.

use engine::link::{self, LinkTarget};
use engine::scenario::{Family, GroupProtocol, Scenario};

fn scenario(version: &str, variant_config: &str) -> String {
    format!(
        r#"{{"version": 1, "title": "t", "seed": 1,
            "streams": {{"instances": 2, "kafka_version": "{version}",
                         "subtopologies": [{{"partitions": 4, "stateful": true}}]}},
            "compare": [{{"label": "classic"}}, {{"label": "x", "config": {{{variant_config}}}}}]}}"#
    )
}

fn error(text: &str) -> String {
    Scenario::from_json(text).unwrap_err().to_string()
}

#[test]
fn absent_means_classic_and_old_scenarios_are_unchanged() {
    let s = Scenario::from_json(&scenario("3.8", r#""num.standby.replicas": 1"#)).unwrap();
    let Family::Streams(streams) = &s.family else {
        panic!("streams")
    };
    for variant in &streams.compare {
        assert_eq!(variant.config.group_protocol, None);
        let resolved = streams
            .app
            .config
            .merged(&variant.config)
            .resolve(streams.app.version());
        assert_eq!(resolved.group_protocol, GroupProtocol::Classic);
    }
    // Nothing new is written for a scenario that does not set the key.
    assert!(!s.to_json().contains("group.protocol"));
}

#[test]
fn classic_is_accepted_in_every_version_and_round_trips_through_a_link() {
    for version in ["2.3", "3.9", "4.0", "4.3"] {
        let s = Scenario::from_json(&scenario(version, r#""group.protocol": "classic""#))
            .unwrap_or_else(|e| panic!("{version}: {e}"));
        let fragment = format!("#{}", link::encode(&s));
        match link::decode(&fragment) {
            Ok(LinkTarget::Scenario(back)) => assert_eq!(*back, s),
            other => panic!("{version}: {other:?}"),
        }
        let Family::Streams(streams) = &s.family else {
            panic!("streams")
        };
        assert_eq!(
            streams.compare[1].config.group_protocol,
            Some(GroupProtocol::Classic)
        );
        assert!(s.to_json().contains("group.protocol"));
    }
}

#[test]
fn streams_is_refused_before_4_1() {
    for version in ["3.8", "3.9", "4.0"] {
        let e = error(&scenario(version, r#""group.protocol": "streams""#));
        assert!(e.contains("compare[1].config.group.protocol"), "{e}");
        assert!(e.contains("needs Kafka Streams 4.1 or later"), "{e}");
        assert!(e.contains(version), "{e}");
    }
}

#[test]
fn streams_with_static_membership_is_refused_before_4_4() {
    for version in ["4.1", "4.2", "4.3"] {
        let e = error(&scenario(
            version,
            r#""group.protocol": "streams", "group.instance.id": "app""#,
        ));
        assert!(e.contains("static membership"), "{e}");
    }
}

// 4.4 is not released yet (December 2026): the scenario model refuses it as
// a release, before `group.protocol` is looked at.
#[test]
fn streams_is_simulated_from_4_1() {
    for version in ["4.1", "4.2", "4.3"] {
        let s = Scenario::from_json(&scenario(version, r#""group.protocol": "streams""#))
            .unwrap_or_else(|e| panic!("{version}: {e}"));
        let result = engine::run::run(&s);
        let run = &result.variants[1];
        assert!(
            run.trace.rounds.is_empty(),
            "{version}: no JoinGroup rounds"
        );
        assert!(
            run.metrics.settled_ms.is_some(),
            "{version}: every task runs"
        );
        assert_eq!(
            run.trace.members.len(),
            2,
            "{version}: one member per thread"
        );
    }
}

#[test]
fn an_event_cannot_switch_an_instance_to_the_other_protocol() {
    let text = r#"{"version": 1, "title": "t", "seed": 1,
        "streams": {"instances": 2, "kafka_version": "4.3",
                     "subtopologies": [{"partitions": 4, "stateful": true}]},
        "compare": [{"label": "streams", "config": {"group.protocol": "streams"}}],
        "events": [{"at_ms": 1000, "type": "instance_join", "config": {"group.protocol": "classic"}}]}"#;
    let e = error(text);
    assert!(e.contains("events[0].config.group.protocol"), "{e}");
    assert!(e.contains("no online migration"), "{e}");
}

#[test]
fn unknown_values_are_refused() {
    let e = error(&scenario("4.3", r#""group.protocol": "consumer""#));
    assert!(e.contains("consumer"), "{e}");
}
