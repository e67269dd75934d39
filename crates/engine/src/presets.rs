//! Built-in presets: scenario files shipped in the repository's `presets/`
//! folder, compiled in so the CLI and the page share them.

use crate::scenario::{FamilyKind, Scenario};

/// A built-in scenario, addressed by a link like `#p=connect/worker-joins`.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Stable id: `<family>/<name>`.
    pub id: &'static str,
    json: &'static str,
}

macro_rules! presets {
    ($($id:literal),* $(,)?) => {
        &[$(Preset { id: $id, json: include_str!(concat!("../../../presets/", $id, ".json")) }),*]
    };
}

static PRESETS: &[Preset] = presets![
    "connect/worker-joins",
    "connect/add-connector",
    "connect/worker-bounce",
    "connect/worker-dies",
    "connect/two-workers-join",
    "connect/rolling-restart",
    "connect/mixed-version-upgrade",
    "connect/rebalance-storm",
    "streams/slow-handler",
    "streams/rolling-restart-static",
    "streams/upgrade-from-2-3",
    "streams/stateful-scale-out",
    "streams/warmup-convergence",
    "streams/stateless-restart",
    "streams/scale-from-zero",
    "streams/streams-protocol-instance-joins",
    "streams/streams-protocol-instance-crashes",
    "streams/streams-protocol-scale-in",
    "streams/streams-protocol-rolling-restart",
    "streams/streams-protocol-slow-thread",
    "streams/streams-protocol-fresh-start",
];

/// Presets whose result the site does not ship: the rebalance storm's is
/// 7 MB (9,999 rounds), more to download than to simulate. Every other
/// preset's result is computed when the site is built and shipped beside
/// it ([`Preset::ships_result`]).
const SIMULATED_WHEN_OPENED: &[&str] = &["connect/rebalance-storm"];

/// A shipped result stays under this size ([`crate::result_wire::to_file`]'s
/// bytes); the largest today is about 24 KB. A preset whose result grows past
/// it belongs in [`SIMULATED_WHEN_OPENED`].
pub const SHIPPED_RESULT_MAX_BYTES: usize = 128 * 1024;

/// The preset shown when a link names nothing.
pub const DEFAULT_PRESET: &str = "connect/worker-joins";

impl Preset {
    /// The preset's scenario.
    pub fn scenario(&self) -> Scenario {
        // Built-in data: every preset is parsed and validated by the tests below.
        Scenario::from_json(self.json).expect("built-in presets are valid scenarios")
    }

    /// The family, from the id's `<family>/` prefix (a test checks that it
    /// is the scenario's), so the gallery need not parse every preset.
    pub fn family(&self) -> FamilyKind {
        family_of(self.id)
    }

    /// True when the static site ships this preset's result, computed when
    /// the site is built (`rebalance presets --results`): opening the
    /// preset's link then draws it without waiting for a cold simulator,
    /// whose own answer checks it (the engine is deterministic).
    pub fn ships_result(&self) -> bool {
        !SIMULATED_WHEN_OPENED.contains(&self.id)
    }
}

/// A preset's family, from its id's `<family>/` prefix.
pub fn family_of(id: &str) -> FamilyKind {
    if id.starts_with("streams/") {
        FamilyKind::Streams
    } else {
        FamilyKind::Connect
    }
}

/// Every preset, in gallery order.
pub fn all() -> &'static [Preset] {
    PRESETS
}

/// The preset with this id.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// The default preset.
pub fn default_preset() -> &'static Preset {
    find(DEFAULT_PRESET).expect("the default preset exists")
}

/// The preset a link or the gallery names, or the message the page, the
/// JS API and the CLI show for an id this version does not have.
pub fn resolve(id: &str) -> Result<&'static Preset, String> {
    find(id).ok_or_else(|| unknown_preset_message(id))
}

/// What to tell someone whose link names a preset that does not exist.
pub fn unknown_preset_message(id: &str) -> String {
    let shown: String = id.chars().take(60).collect();
    format!("There is no preset `{shown}` in this version of the playground. Pick one from the gallery.")
}

/// A blank scenario of a family: a small cluster with Kafka's defaults, the
/// family's default comparison (eager vs cooperative) and no events.
pub fn blank(kind: FamilyKind) -> Scenario {
    let json = match kind {
        FamilyKind::Connect => {
            r#"{"version": 1, "title": "New Connect scenario",
                "description": "Three workers run one connector with six tasks. Add events (a worker joins, leaves or restarts) to see how each protocol rebalances.",
                "seed": 1, "connect": {"workers": 3, "connectors": [{"name": "connector-1", "tasks": 6}]},
                "events": [], "end_ms": 60000}"#
        }
        FamilyKind::Streams => {
            r#"{"version": 1, "title": "New Streams scenario",
                "description": "Three instances run one stateless subtopology with six partitions. Add events (an instance joins, stops or restarts) to see how each protocol rebalances.",
                "seed": 1, "streams": {"instances": 3, "subtopologies": [{"partitions": 6}]},
                "events": [], "end_ms": 60000}"#
        }
    };
    Scenario::from_json(json).expect("the blank scenarios are valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_ids_are_unique() {
        let mut ids: Vec<&str> = all().iter().map(|p| p.id).collect();
        for p in all() {
            let s = Scenario::from_json(p.json).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            assert!(!s.title.is_empty(), "{} has no title", p.id);
            assert_eq!(p.family(), s.family_kind(), "{}", p.id);
            assert!(p.id.starts_with(&format!("{}/", p.family())), "{}", p.id);
        }
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all().len());
        assert_eq!(default_preset().id, DEFAULT_PRESET);
        assert!(SIMULATED_WHEN_OPENED.iter().all(|id| find(id).is_some()));
    }
}
