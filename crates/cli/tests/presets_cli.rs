//! `rebalance presets --results <dir>` writes the results the site ships:
//! one file per preset that ships its result, none for the others, each the
//! engine's result for that preset.

mod common;

use common::rebalance;
use engine::result_wire;

#[test]
fn every_shipped_result_is_written_and_is_the_engines() {
    let dir = std::env::temp_dir().join(format!("rebalance-results-{}", std::process::id()));
    let (code, out, err) = rebalance(&["presets", "--results", &dir.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("wrote "), "{out}");
    for preset in engine::presets::all() {
        let path = dir.join(format!("{}.bin", preset.id));
        if !preset.ships_result() {
            assert!(!path.exists(), "{}", preset.id);
            continue;
        }
        let file = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", preset.id));
        let wire = result_wire::from_file(file).expect("a result file");
        let result = result_wire::decode(wire.bytes, wire.lists).expect("decodes");
        assert_eq!(
            result,
            engine::run::run(&preset.scenario()),
            "{}",
            preset.id
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_directory_is_an_error() {
    let file = std::env::temp_dir().join(format!("rebalance-not-a-dir-{}", std::process::id()));
    std::fs::write(&file, b"").expect("a temp file");
    let (code, _, err) = rebalance(&["presets", "--results", &file.to_string_lossy()]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot write"), "{err}");
    let _ = std::fs::remove_file(&file);
}
