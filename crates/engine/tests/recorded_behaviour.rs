//! The simulator's behaviour, pinned: every preset, every engine workload
//! small enough for a unit test, and a few hundred random scenarios (stored as
//! scenario JSON, so they do not depend on any generator) give the trace
//! fingerprints and metrics recorded in `tests/recorded/behaviour.jsonl`.
//!
//! Recorded before the one-shape redesign (issue #12) to prove it changed no
//! behaviour. When a change is *meant* to alter traces, re-record with
//! `RECORD=1 cargo test --test recorded_behaviour` and say in the commit
//! which traces changed and why; a change that only rewords explanations
//! must leave `fingerprint_without_explanations` as it was.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use engine::presets;
use engine::run::run;
use engine::scenario::{FamilyKind, Scenario};
use engine::trace::Trace;
use serde_json::Value;

const RECORDED: &str = "tests/recorded/behaviour.jsonl";
const RANDOM: &str = "tests/recorded/random-scenarios.jsonl";

/// Metrics as `path = value` lines, so a regrouping of the metrics struct
/// (an enum instead of an `Option` field) compares equal when no number
/// changed: wrapper keys that only say which family a figure belongs to are
/// dropped from the path, and so is a bare family tag (`"family":"connect"`).
fn flat_metrics(metrics: &Value) -> BTreeMap<String, String> {
    fn walk(v: &Value, path: &str, out: &mut BTreeMap<String, String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if k == "family" && x.is_string() {
                        continue;
                    }
                    let wrapper = matches!(k.as_str(), "streams" | "connect" | "family");
                    let p = if wrapper {
                        path.to_string()
                    } else if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &p, out);
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    walk(x, &format!("{path}[{i}]"), out);
                }
            }
            Value::Null => {}
            other => {
                out.insert(path.to_string(), other.to_string());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(metrics, "", &mut out);
    out
}

/// One recorded line: a named scenario and, per variant, its fingerprint
/// and metrics.
fn record_line(name: &str, scenario: &Scenario) -> Value {
    let result = run(scenario);
    let variants: Vec<Value> = result
        .variants
        .iter()
        .map(|v| {
            let metrics = serde_json::to_value(&v.metrics).expect("metrics serialize");
            serde_json::json!({
                "label": v.label,
                "fingerprint": v.fingerprint,
                "fingerprint_without_explanations": format!("{:016x}", without_explanations(&v.trace)),
                "metrics": flat_metrics(&metrics),
            })
        })
        .collect();
    serde_json::json!({ "name": name, "variants": variants })
}

/// The fingerprint of a trace with every explanation blanked: a change that
/// only rewords explanations (and re-records) must leave this one equal.
fn without_explanations(trace: &Trace) -> u64 {
    let mut t = trace.clone();
    for r in &mut t.rounds {
        r.explanation = Default::default();
    }
    for s in &mut t.steps {
        s.explanation = Default::default();
    }
    t.fingerprint()
}

/// Every scenario the file pins, by name.
fn scenarios() -> Vec<(String, Scenario)> {
    let mut out: Vec<(String, Scenario)> = presets::all()
        .iter()
        .map(|p| (format!("preset {}", p.id), p.scenario()))
        .collect();
    let random = std::fs::read_to_string(RANDOM).expect("the recorded random scenarios");
    for (i, line) in random.lines().enumerate() {
        let scenario =
            Scenario::from_json(line).unwrap_or_else(|e| panic!("{RANDOM} line {}: {e}", i + 1));
        out.push((format!("random {}: {}", i + 1, scenario.title), scenario));
    }
    out
}

#[test]
fn every_recorded_scenario_gives_the_recorded_fingerprints_and_metrics() {
    let lines: Vec<Value> = scenarios()
        .iter()
        .map(|(name, s)| record_line(name, s))
        .collect();
    if std::env::var_os("RECORD").is_some() {
        let mut text = String::new();
        for l in &lines {
            writeln!(text, "{l}").expect("write to a string");
        }
        std::fs::write(RECORDED, text).expect("write the recording");
        return;
    }
    let recorded = std::fs::read_to_string(RECORDED).expect("the recording");
    let recorded: Vec<Value> = recorded
        .lines()
        .map(|l| serde_json::from_str(l).expect("a recorded line is JSON"))
        .collect();
    assert_eq!(
        recorded.len(),
        lines.len(),
        "the recording has {} scenarios, the test {}",
        recorded.len(),
        lines.len()
    );
    let mut differences = Vec::new();
    for (want, got) in recorded.iter().zip(&lines) {
        if want != got {
            differences.push(format!(
                "{}:\n  recorded {want}\n  now      {got}",
                want["name"]
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} scenarios changed:\n{}",
        differences.len(),
        lines.len(),
        differences.join("\n")
    );
}

#[test]
fn the_recording_covers_both_families_and_every_preset() {
    let all = scenarios();
    let streams = all
        .iter()
        .filter(|(_, s)| s.family_kind() == FamilyKind::Streams)
        .count();
    assert!(streams >= 100, "{streams} Streams scenarios");
    assert!(
        all.len() - streams >= 100,
        "{} Connect scenarios",
        all.len() - streams
    );
}
