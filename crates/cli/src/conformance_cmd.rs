//! `rebalance conformance`: replays vectors, one line per case, then `N passed, M failed`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(paths: &[PathBuf]) -> ExitCode {
    let mut files = Vec::new();
    for path in paths {
        if let Err(e) = collect(path, &mut files) {
            eprintln!("Cannot read {}: {e}.", path.display());
            return ExitCode::from(2);
        }
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    // Per Kafka version, for vectors replayed under several: (passed, failed).
    let mut by_version: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for file in &files {
        let outcome = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read: {e}"))
            .and_then(|text| engine::conformance::run_vector(&text).map_err(|e| e.to_string()));
        if let Ok(report) = &outcome {
            for version in &report.kafka_versions {
                let tally = by_version.entry(version.clone()).or_default();
                if report.passed_under(version) {
                    tally.0 += 1;
                } else {
                    tally.1 += 1;
                }
            }
        }
        match outcome {
            Ok(report) if report.passed() => {
                passed += 1;
                println!(
                    "ok    {}/{}{} ({} checks)  {}",
                    report.family,
                    report.name,
                    versions(&report.kafka_versions),
                    report.checks,
                    file.display()
                );
            }
            Ok(report) => {
                failed += 1;
                println!(
                    "FAIL  {}/{}{}  {}",
                    report.family,
                    report.name,
                    versions(&report.kafka_versions),
                    file.display()
                );
                for f in &report.failures {
                    println!("        {f}");
                }
            }
            Err(e) => {
                failed += 1;
                println!("FAIL  {}: {e}", file.display());
            }
        }
    }
    for (version, (ok, bad)) in &by_version {
        println!("under Kafka {version}: {ok} passed, {bad} failed");
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// ` [4.3.1, 4.4]` for a vector replayed under several Kafka versions.
fn versions(list: &[String]) -> String {
    if list.is_empty() {
        String::new()
    } else {
        format!(" [{}]", list.join(", "))
    }
}

/// Files as given; directories expand to their `*.json` files, sorted, recursively.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for entry in entries {
            if entry.is_dir() || entry.extension().is_some_and(|x| x == "json") {
                collect(&entry, out)?;
            }
        }
    } else {
        std::fs::metadata(path)?;
        out.push(path.to_path_buf());
    }
    Ok(())
}
