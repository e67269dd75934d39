//! `rebalance run`: simulate a scenario file or preset; print the metrics side
//! by side, or the whole result as JSON.

use std::process::ExitCode;

use engine::report::metric_rows;
use engine::scenario::Scenario;

use crate::url_cmd::{read_scenario, BAD_INPUT};

/// A scenario file path or a preset id.
pub fn resolve(arg: &str) -> Result<Scenario, String> {
    let path = std::path::PathBuf::from(arg);
    if path.exists() {
        return read_scenario(&path);
    }
    match engine::presets::find(arg) {
        Some(p) => Ok(p.scenario()),
        None => Err(format!(
            "`{arg}` is neither a scenario file nor a preset id. `rebalance presets` lists the presets."
        )),
    }
}

pub fn run(arg: &str, json: bool, fingerprints: bool) -> ExitCode {
    let scenario = match resolve(arg) {
        Ok(s) => s,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(BAD_INPUT);
        }
    };
    let result = engine::run::run(&scenario);
    if fingerprints {
        for v in &result.variants {
            println!("{}  {}", v.fingerprint, v.label);
        }
        return ExitCode::SUCCESS;
    }
    if json {
        match serde_json::to_string(&result) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("cannot serialize the result: {e}");
                return ExitCode::FAILURE;
            }
        }
        return ExitCode::SUCCESS;
    }
    println!("{}", scenario.title);
    for r in &scenario.references {
        println!("  see {}: {}", r.label, r.url);
    }
    let labels: Vec<&str> = result.variants.iter().map(|v| v.label.as_str()).collect();
    let rows = metric_rows(&result);
    let first_w = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let col_w: Vec<usize> = (0..labels.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.values[i].chars().count())
                .chain([labels[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut header = format!("{:first_w$}", "");
    for (label, w) in labels.iter().zip(&col_w) {
        header.push_str(&format!("  {label:>w$}"));
    }
    println!("{}", header.trim_end());
    for r in &rows {
        let mut line = format!("{:first_w$}", r.label);
        for (v, w) in r.values.iter().zip(&col_w) {
            line.push_str(&format!("  {v:>w$}"));
        }
        println!("{line}");
    }
    for line in verdicts(&result) {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

/// One line per variant that was cut at its budget (a rebalance storm).
fn verdicts(result: &engine::run::RunResult) -> Vec<String> {
    result
        .variants
        .iter()
        .filter_map(|v| Some(format!("{}: {}.", v.label, v.trace.cut?.verdict())))
        .collect()
}

/// `rebalance svg`.
pub fn svg(arg: &str, output: &std::path::Path) -> ExitCode {
    let scenario = match resolve(arg) {
        Ok(s) => s,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(BAD_INPUT);
        }
    };
    let result = engine::run::run(&scenario);
    let svg = engine::svg_export::render(&scenario, &result);
    match std::fs::write(output, svg) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Cannot write {}: {e}.", output.display());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storming_variant_gets_a_verdict_line_and_a_sane_one_none() {
        let scenario = Scenario::from_json(
            r#"{"version": 1, "title": "storm",
                "connect": {"workers": 3, "connectors": [{"name": "c", "tasks": 6}]},
                "compare": [{"label": "storm", "config": {"rebalance.timeout.ms": 10}},
                            {"label": "sane"}],
                "events": [{"at_ms": 30000, "type": "worker_join"}]}"#,
        )
        .expect("valid scenario");
        let lines = verdicts(&engine::run::run(&scenario));
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("storm: the group did not stabilise: 10,000 rebalance rounds in "),
            "{lines:?}"
        );
        assert!(lines[0].ends_with("; stopped here."), "{lines:?}");
    }
}
