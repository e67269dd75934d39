//! Builds the page's copy of the built-in presets: each preset's scenario in
//! the engine's binary form (`engine::binary`), parsed and validated here, at
//! build time, by the engine itself. The page's WebAssembly then holds no
//! scenario parser (links and files are parsed by the simulator's module),
//! yet opens a preset without waiting for it. See `src/presets.rs`.

use std::fmt::Write as _;

use engine::scenario::FamilyKind;

fn main() {
    // The presets are compiled into the engine (a build dependency), so a
    // changed preset rebuilds it and reruns this script.
    println!("cargo:rerun-if-changed=build.rs");
    let mut out = String::from("&[\n");
    for preset in engine::presets::all() {
        let bytes = engine::binary::to_bytes(&preset.scenario());
        let _ = writeln!(
            out,
            "    Preset {{ id: {:?}, ships_result: {}, bytes: b\"{}\" }},",
            preset.id,
            preset.ships_result(),
            escaped(&bytes)
        );
    }
    out.push_str("]\n");
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    std::fs::write(std::path::Path::new(&dir).join("presets.rs"), out)
        .expect("OUT_DIR is writable");
    // The built-in sweeps: id and scenario (binary), which the page reads;
    // apart, their question and spec (its link JSON), which only the sweep
    // module reads, so they stay out of the page's module.
    let (mut sweeps, mut questions) = (String::from("&[\n"), String::from("&[\n"));
    for (index, preset) in engine::sweep::presets::all().iter().enumerate() {
        let file = preset.file();
        let _ = writeln!(
            sweeps,
            "    SweepPreset {{ id: {:?}, index: {index}, scenario: b\"{}\" }},",
            preset.id,
            escaped(&engine::binary::to_bytes(&file.scenario)),
        );
        let _ = writeln!(
            questions,
            "    SweepQuestion {{ title: {:?}, description: {:?}, spec: {:?} }},",
            file.title,
            file.description,
            file.sweep.to_json()
        );
    }
    sweeps.push_str("]\n");
    questions.push_str("]\n");
    std::fs::write(std::path::Path::new(&dir).join("sweep_presets.rs"), sweeps)
        .expect("OUT_DIR is writable");
    std::fs::write(
        std::path::Path::new(&dir).join("sweep_questions.rs"),
        questions,
    )
    .expect("OUT_DIR is writable");
    // The blank scenarios of the gallery's "New … scenario" buttons, likewise.
    let blanks: Vec<String> = [FamilyKind::Connect, FamilyKind::Streams]
        .into_iter()
        .map(|kind| {
            let bytes = engine::binary::to_bytes(&engine::presets::blank(kind));
            format!("b\"{}\"", escaped(&bytes))
        })
        .collect();
    std::fs::write(
        std::path::Path::new(&dir).join("blanks.rs"),
        format!("[{}]\n", blanks.join(", ")),
    )
    .expect("OUT_DIR is writable");
}

/// Bytes as the inside of a Rust byte string literal.
fn escaped(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        match b {
            b'"' | b'\\' => {
                s.push('\\');
                s.push(b as char);
            }
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s
}
