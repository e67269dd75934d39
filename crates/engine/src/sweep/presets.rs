//! Built-in sweeps: sweep files in the repository's `presets/sweeps/`
//! folder, compiled in like the scenario presets, so the CLI and the page
//! share them. Each answers one question an operator brings.

use super::SweepFile;

/// A built-in sweep, id `sweeps/<name>`.
#[derive(Clone, Copy, Debug)]
pub struct SweepPreset {
    /// Stable id: `sweeps/<name>`.
    pub id: &'static str,
    json: &'static str,
}

macro_rules! sweep_presets {
    ($($id:literal),* $(,)?) => {
        &[$(SweepPreset { id: $id, json: include_str!(concat!("../../../../presets/", $id, ".json")) }),*]
    };
}

static SWEEP_PRESETS: &[SweepPreset] = sweep_presets![
    "sweeps/connect-delay-vs-bounce",
    "sweeps/streams-warmups-vs-changelog",
    "sweeps/streams-static-session-timeout",
];

impl SweepPreset {
    /// The sweep file: question, scenario and sweep.
    pub fn file(&self) -> SweepFile {
        // Built-in data: every sweep preset is parsed and validated by the tests below.
        SweepFile::from_json(self.json)
            .unwrap_or_else(|e| panic!("built-in sweep presets are valid: {e}"))
    }
}

/// Every sweep preset, in gallery order.
pub fn all() -> &'static [SweepPreset] {
    SWEEP_PRESETS
}

/// The sweep preset with this id.
pub fn find(id: &str) -> Option<&'static SweepPreset> {
    SWEEP_PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sweep_preset_parses_builds_its_points_and_has_a_question() {
        for p in all() {
            let file = SweepFile::from_json(p.json).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            assert!(!file.title.is_empty(), "{} has no title", p.id);
            assert!(!file.description.is_empty(), "{} has no description", p.id);
            let points = file
                .sweep
                .points(&file.scenario)
                .unwrap_or_else(|e| panic!("{}: {e}", p.id));
            assert!(points.len() >= 10, "{}: {} points", p.id, points.len());
            assert!(p.id.starts_with("sweeps/"), "{}", p.id);
            assert_eq!(
                SweepFile::from_json(&file.to_json_pretty()).unwrap(),
                file,
                "{}: a sweep file reads back what it writes",
                p.id
            );
        }
    }
}
