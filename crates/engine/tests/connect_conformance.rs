//! Replays every Connect conformance vector: the public set recorded from
//! Kafka trunk (`shared/conformance/connect/`, FORMAT.md; vendored in
//! `tests/vectors/connect-kafka/`) and the small eager vectors in
//! `tests/vectors/connect/`, derived by hand from spec §2.

use std::path::{Path, PathBuf};

use engine::conformance::run_vector;

/// Replays every `.json` file of `dir`; panics with every failure listed.
fn replay_dir(dir: &Path) -> usize {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| {
        panic!(
            "cannot read the conformance vectors at {}: {e}. The public Connect vectors live in \
             shared/conformance/connect beside the workspace (see shared/conformance/FORMAT.md).",
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
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        match run_vector(&text) {
            Ok(report) => {
                let stem = file
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default();
                assert_eq!(
                    report.name,
                    stem,
                    "{}: `name` must equal the file name",
                    file.display()
                );
                assert!(
                    report.checks > 0,
                    "{}: no rebalance was checked",
                    file.display()
                );
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

/// The public vectors recorded from Kafka trunk, vendored in the repository so
/// every checkout can replay them (copied from shared/conformance/connect).
#[test]
fn public_connect_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/connect-kafka");
    assert_eq!(replay_dir(&dir), 10);
}

/// Whatever vectors the shared folder beside the checkout holds now (CI has
/// one); `cargo xtask test` also replays them through `rebalance conformance`.
#[test]
fn shared_connect_vectors_when_present() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/connect");
    if dir.is_dir() {
        assert!(replay_dir(&dir) >= 10);
    } else {
        eprintln!(
            "no {} beside this checkout; replayed the vendored copy only",
            dir.display()
        );
    }
}

#[test]
fn hand_written_eager_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/connect");
    assert!(replay_dir(&dir) >= 3);
}
