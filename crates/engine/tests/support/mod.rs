//! What the conformance tests share: replaying a folder of vectors.

use std::path::{Path, PathBuf};

use engine::conformance::run_vector;

/// Replays every `.json` file of `dir`, which must all be `family` vectors
/// named after their file; panics listing every failure. Returns how many
/// files were replayed.
pub fn replay_dir(dir: &Path, family: &str) -> usize {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| {
        panic!(
            "cannot read the conformance vectors at {}: {e} (see shared/conformance/FORMAT.md)",
            dir.display()
        )
    });
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .json vectors in {}", dir.display());

    let mut problems = Vec::new();
    for file in &files {
        let report = std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|text| run_vector(&text).map_err(|e| e.to_string()));
        match report {
            Ok(report) => {
                // `<name>@<version>.json` holds another Kafka version's recording.
                let stem = file
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default();
                let stem = stem.split_once('@').map_or(stem, |(name, _)| name);
                if report.name != stem {
                    problems.push(format!(
                        "{}: `name` is `{}`, expected the file name",
                        file.display(),
                        report.name
                    ));
                }
                if report.family != family {
                    problems.push(format!("{}: not a {family} vector", file.display()));
                }
                if report.checks == 0 {
                    problems.push(format!("{}: nothing was checked", file.display()));
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
