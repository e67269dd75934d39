//! `rebalance presets`: list the built-in presets and sweeps, or write the
//! results the static site ships beside them (`--results`, run by Trunk's
//! `post_build` hook in `Trunk.toml`).

use std::path::Path;
use std::process::ExitCode;

use engine::presets::SHIPPED_RESULT_MAX_BYTES;
use engine::result_wire;

/// Exit code when a result cannot be written.
const CANNOT_WRITE: u8 = 1;

/// `rebalance presets`.
pub fn list() -> ExitCode {
    let sweeps = engine::sweep::presets::all();
    let width = engine::presets::all()
        .iter()
        .map(|p| p.id.len())
        .chain(sweeps.iter().map(|p| p.id.len()))
        .max()
        .unwrap_or(0);
    for p in engine::presets::all() {
        println!("{:width$}  {}", p.id, p.scenario().title);
    }
    for p in sweeps {
        println!("{:width$}  {}", p.id, p.file().title);
    }
    ExitCode::SUCCESS
}

/// `rebalance presets --results <dir>`: `<dir>/<id>.bin` for every preset
/// that ships its result ([`engine::presets::Preset::ships_result`]), in the
/// form the page reads ([`result_wire::to_file`]).
pub fn write_results(dir: &Path) -> ExitCode {
    let mut total = 0;
    let shipped: Vec<_> = engine::presets::all()
        .iter()
        .filter(|p| p.ships_result())
        .collect();
    for preset in &shipped {
        let result = engine::run::run(&preset.scenario());
        let file = result_wire::to_file(&result_wire::encode(result));
        if file.len() > SHIPPED_RESULT_MAX_BYTES {
            eprintln!(
                "{}'s result is {} bytes, over the {SHIPPED_RESULT_MAX_BYTES} a shipped result may be: add it to SIMULATED_WHEN_OPENED in crates/engine/src/presets.rs",
                preset.id,
                file.len()
            );
            return ExitCode::from(CANNOT_WRITE);
        }
        let path = dir.join(format!("{}.bin", preset.id));
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, &file));
        if let Err(e) = written {
            eprintln!("cannot write {}: {e}", path.display());
            return ExitCode::from(CANNOT_WRITE);
        }
        total += file.len();
    }
    println!(
        "wrote {} preset results ({total} bytes) to {}",
        shipped.len(),
        dir.display()
    );
    ExitCode::SUCCESS
}
