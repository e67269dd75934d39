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
            "    Preset {{ id: {:?}, bytes: b\"{}\" }},",
            preset.id,
            escaped(&bytes)
        );
    }
    out.push_str("]\n");
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    std::fs::write(std::path::Path::new(&dir).join("presets.rs"), out)
        .expect("OUT_DIR is writable");
    // The built-in sweeps: question, scenario (binary) and spec (its link JSON).
    let mut sweeps = String::from("&[\n");
    for preset in engine::sweep::presets::all() {
        let file = preset.file();
        let _ = writeln!(
            sweeps,
            "    SweepPreset {{ id: {:?}, title: {:?}, description: {:?}, scenario: b\"{}\", spec: {:?} }},",
            preset.id,
            file.title,
            file.description,
            escaped(&engine::binary::to_bytes(&file.scenario)),
            file.sweep.to_json()
        );
    }
    sweeps.push_str("]\n");
    std::fs::write(std::path::Path::new(&dir).join("sweep_presets.rs"), sweeps)
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
