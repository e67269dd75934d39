//! Replays the streams-group (KIP-1071) `StickyTaskAssignor` vectors: those
//! recorded here from Kafka's own classes (`tests/vectors/streams-groups/`)
//! and, when present beside the workspace, the public set recorded from Kafka
//! in `shared/conformance/streams-groups/`. Every file is replayed under each
//! Kafka version it names.

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use engine::conformance::run_vector;
use support::replay_dir;

/// Vectors per Kafka version in `dir`, all of which must pass.
fn per_version(dir: &Path) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let report = run_vector(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for version in &report.kafka_versions {
            assert!(
                report.passed_under(version),
                "{}: fails under {version}",
                path.display()
            );
            *counts.entry(version.clone()).or_default() += 1;
        }
    }
    counts
}

#[test]
fn vectors_recorded_from_kafkas_classes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/streams-groups");
    assert!(replay_dir(&dir, "streams-groups") >= 24);
    let counts = per_version(&dir);
    assert_eq!(counts.get("4.3.1"), Some(&8));
    assert_eq!(counts.get("4.4"), Some(&16));
}

#[test]
fn public_kafka_vectors() {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/streams-groups");
    if !dir.is_dir() {
        eprintln!("skipping: {} does not exist on this machine", dir.display());
        return;
    }
    replay_dir(&dir, "streams-groups");
    let counts = per_version(&dir);
    // FORMAT.md §9.6: every scenario covers each version exactly once.
    assert_eq!(counts.get("4.3.1"), counts.get("4.4"));
    assert!(counts.get("4.3.1").is_some_and(|&n| n >= 11));
}

#[test]
fn a_wrong_expectation_fails_under_that_version_only() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/streams-groups");
    let text = std::fs::read_to_string(dir.join("kafka-4.3.1-random-01.json")).unwrap();
    let mut vector: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Also replay it under the patched 4.3 line, and move one active task.
    vector["kafka_versions"] = serde_json::json!(["4.3.1", "4.3.2"]);
    let steps = vector["steps"].as_array_mut().unwrap();
    let assign = steps.iter_mut().find(|s| s["op"] == "assign").unwrap();
    let members = assign["expect"]["members"].as_object_mut().unwrap();
    let (giver, taker) = {
        let mut ids = members.keys().cloned();
        (ids.next().unwrap(), ids.next().unwrap())
    };
    let task = members[&giver]["active"].as_array_mut().unwrap().pop();
    if let Some(task) = task {
        members[&taker]["active"].as_array_mut().unwrap().push(task);
    } else {
        members[&giver]["active"] = serde_json::json!(["0_0"]);
    }
    let report = run_vector(&vector.to_string()).unwrap();
    assert!(!report.passed());
    assert!(!report.passed_under("4.3.1"));
    assert!(!report.passed_under("4.3.2"));
    assert!(report.failures.iter().all(|f| f.starts_with("[4.3.")));
}

#[test]
fn malformed_vectors_are_errors_naming_the_problem() {
    let base = r#"{"format": "rebalance-conformance/1", "family": "streams-groups", "assignor": "sticky",
        "name": "x", "config": {"num_standby_replicas": 0},
        "topology": [{"subtopology": "0", "partitions": 2, "stateful": true}], "#;
    let unknown_version = format!(r#"{base} "kafka_versions": ["4.1"], "steps": []}}"#);
    let e = run_vector(&unknown_version).unwrap_err();
    assert!(e.0.contains("`4.1`"), "{e}");
    let bad_leave = format!(
        r#"{base} "kafka_versions": ["4.4"], "steps": [{{"op": "leave", "members": ["A"]}}]}}"#
    );
    let e = run_vector(&bad_leave).unwrap_err();
    assert!(e.0.contains("`A` is not present"), "{e}");
    let missing_expect = format!(
        r#"{base} "kafka_versions": ["4.4"], "steps": [
        {{"op": "join", "members": [{{"member_id": "A", "process_id": "pA"}}]}},
        {{"op": "assign", "expect": {{"members": {{}}}}}}]}}"#
    );
    let e = run_vector(&missing_expect).unwrap_err();
    assert!(e.0.contains("no entry for present member `A`"), "{e}");
}
