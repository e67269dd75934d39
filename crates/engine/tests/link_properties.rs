//! Property tests of the scenario file format and the link codec: every
//! generated scenario survives `to_json` → `from_json` and `encode` →
//! `decode` unchanged, and no link, however damaged, makes `decode` panic.
//!
//! Scenarios are generated as JSON text (the stable wire format), so the
//! test does not depend on how the Rust types are laid out.

use engine::link::{self, LinkTarget};
use engine::scenario::Scenario;
use proptest::prelude::*;

/// A JSON string literal for `s` (any Unicode, quotes and control characters).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// A Connect scenario: 1–12 workers, 1–4 connectors, 0–5 events naming
/// only workers and connectors that exist.
fn connect_scenario() -> impl Strategy<Value = String> {
    (
        any::<String>(),
        "[ -~]{0,60}",
        1u32..=12,
        prop::collection::vec((1u32..=16, any::<bool>()), 1..=4),
        prop::collection::vec((0u64..600_000, 0u8..6, 1u64..120_000), 0..=5),
        prop::option::of(0u32..=300_000),
    )
        .prop_map(|(title, description, workers, connectors, events, delay)| {
            let connectors: Vec<String> = connectors
                .iter()
                .enumerate()
                .map(|(i, (tasks, dash))| {
                    let name = if *dash { format!("src-{i}") } else { format!("c{i}") };
                    format!(r#"{{"name":"{name}","tasks":{tasks}}}"#)
                })
                .collect();
            let mut at = 10_000u64;
            let events: Vec<String> = events
                .iter()
                .map(|&(gap, kind, ms)| {
                    at += gap;
                    let worker = format!("worker-{}", 1 + ms % u64::from(workers));
                    let e = match kind {
                        0 => r#""type":"worker_join""#.to_string(),
                        1 => format!(r#""type":"worker_crash","worker":"{worker}""#),
                        2 => format!(r#""type":"worker_stop","worker":"{worker}""#),
                        3 => format!(
                            r#""type":"worker_restart","worker":"{worker}","downtime_ms":{ms}"#
                        ),
                        4 => format!(
                            r#""type":"gc_pause","worker":"{worker}","duration_ms":{ms}"#
                        ),
                        _ => format!(
                            r#""type":"rolling_restart","downtime_ms":{ms},"interval_ms":{}"#,
                            ms + 1_000
                        ),
                    };
                    format!(r#"{{"at_ms":{at},{e}}}"#)
                })
                .collect();
            let config = delay
                .map(|d| format!(r#","config":{{"scheduled.rebalance.max.delay.ms":{d}}}"#))
                .unwrap_or_default();
            format!(
                r#"{{"version":1,"title":{},"description":{},"connect":{{"workers":{workers},"connectors":[{}]{config}}},"events":[{}]}}"#,
                quoted(&title),
                quoted(&description),
                connectors.join(","),
                events.join(",")
            )
        })
}

/// A Streams scenario: 1–6 instances, 1–3 subtopologies, 0–4 events.
fn streams_scenario() -> impl Strategy<Value = String> {
    (
        any::<String>(),
        1u32..=6,
        prop::collection::vec((1u32..=8, any::<bool>()), 1..=3),
        prop::collection::vec((0u64..600_000, 0u8..4, 1u64..120_000), 0..=4),
        prop::sample::select(vec!["2.3", "2.4", "2.8", "3.8"]),
    )
        .prop_map(|(title, instances, subtopologies, events, version)| {
            let subtopologies: Vec<String> = subtopologies
                .iter()
                .map(|(partitions, stateful)| {
                    format!(r#"{{"partitions":{partitions},"stateful":{stateful}}}"#)
                })
                .collect();
            let mut at = 20_000u64;
            let events: Vec<String> = events
                .iter()
                .map(|&(gap, kind, ms)| {
                    at += gap;
                    let who = format!("instance-{}", 1 + ms % u64::from(instances));
                    let e = match kind {
                        0 => r#""type":"instance_join""#.to_string(),
                        1 => format!(r#""type":"instance_crash","instance":"{who}""#),
                        2 => format!(
                            r#""type":"instance_restart","instance":"{who}","downtime_ms":{ms}"#
                        ),
                        _ => format!(r#""type":"instance_stop","instance":"{who}""#),
                    };
                    format!(r#"{{"at_ms":{at},{e}}}"#)
                })
                .collect();
            format!(
                r#"{{"version":1,"title":{},"streams":{{"instances":{instances},"kafka_version":"{version}","subtopologies":[{}]}},"events":[{}]}}"#,
                quoted(&title),
                subtopologies.join(","),
                events.join(",")
            )
        })
}

fn parse(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("generated scenario rejected: {e}\n{json}"))
}

fn round_trips(json: &str) -> Result<(), TestCaseError> {
    let scenario = parse(json);
    prop_assert_eq!(
        &Scenario::from_json(&scenario.to_json()).unwrap(),
        &scenario
    );
    let fragment = link::encode(&scenario);
    prop_assert!(fragment.len() <= link::MAX_FRAGMENT_BYTES);
    match link::decode(&fragment) {
        Ok(LinkTarget::Scenario(back)) => prop_assert_eq!(*back, scenario),
        other => prop_assert!(false, "{fragment} decoded to {other:?}"),
    }
    Ok(())
}

proptest! {
    // A fixed seed: the same cases on every run (CI included).
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_2026),
        ..ProptestConfig::with_cases(128)
    })]

    #[test]
    fn connect_scenarios_survive_json_and_links(json in connect_scenario()) {
        round_trips(&json)?;
    }

    #[test]
    fn streams_scenarios_survive_json_and_links(json in streams_scenario()) {
        round_trips(&json)?;
    }

    /// A damaged link (one character replaced, or cut short) is an error or
    /// a valid scenario, never a panic.
    #[test]
    fn damaged_links_never_panic(
        json in connect_scenario(),
        at in any::<prop::sample::Index>(),
        with in prop::sample::select(b"AZaz09-_=.!#%".to_vec()),
        cut in any::<bool>(),
    ) {
        let fragment = link::encode(&parse(&json));
        let i = at.index(fragment.len());
        let damaged = if cut {
            fragment[..i].to_string()
        } else {
            format!("{}{}{}", &fragment[..i], with as char, &fragment[i + 1..])
        };
        if let Ok(LinkTarget::Scenario(s)) = link::decode(&damaged) {
            // Whatever decodes is a scenario the codec can carry again.
            prop_assert!(link::decode(&link::encode(&s)).is_ok());
        }
    }

    /// Arbitrary text, with or without a scenario prefix, never panics.
    #[test]
    fn arbitrary_fragments_never_panic(
        prefix in prop::sample::select(vec!["", "#", "#s=", "s=1.z.", "s=1.j.", "#p=", "https://x/#s=1."]),
        body in ".{0,300}",
    ) {
        let _ = link::decode(&format!("{prefix}{body}"));
    }
}
