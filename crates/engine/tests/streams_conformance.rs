//! Replays the Streams conformance vectors (FORMAT.md §8, single-shot
//! `HighAvailabilityTaskAssignor` calls): the vectors in
//! `tests/vectors/streams/`, written from the exact outputs of spec §7, and,
//! when present beside the workspace, the public examples recorded from
//! Kafka in `shared/conformance/streams/`.

use std::path::{Path, PathBuf};

use engine::conformance::run_vector;

/// Replays every `.json` file of `dir`; panics listing every failure.
/// Returns how many files were replayed.
fn replay_dir(dir: &Path) -> usize {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read the vectors at {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();

    let mut problems = Vec::new();
    for file in &files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                problems.push(format!("{}: {e}", file.display()));
                continue;
            }
        };
        match run_vector(&text) {
            Ok(report) => {
                let stem = file
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default();
                if report.name != stem {
                    problems.push(format!(
                        "{}: `name` is `{}`, expected the file name",
                        file.display(),
                        report.name
                    ));
                }
                if report.family != "streams" {
                    problems.push(format!("{}: not a streams vector", file.display()));
                }
                if !report.passed() {
                    problems.push(format!(
                        "{}:\n  {}",
                        file.display(),
                        report.failures.join("\n  ")
                    ));
                }
            }
            Err(e) => problems.push(format!("{}: {e}", file.display())),
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} vectors failed:\n{}",
        problems.len(),
        files.len(),
        problems.join("\n")
    );
    files.len()
}

#[test]
fn spec_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/streams");
    let replayed = replay_dir(&dir);
    assert!(
        replayed >= 10,
        "expected the spec §7 vectors in {}",
        dir.display()
    );
}

#[test]
fn public_kafka_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/streams");
    if !dir.is_dir() {
        eprintln!("skipping: {} does not exist on this machine", dir.display());
        return;
    }
    replay_dir(&dir);
}
