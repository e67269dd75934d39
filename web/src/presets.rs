//! The built-in presets as the page holds them: in the engine's binary form,
//! made at build time by `web/build.rs` from the engine's presets (the same
//! files the CLI and the simulator read as JSON). Decoding one is a pass over
//! a few hundred bytes, so the gallery, the default scenario and `#p=` links
//! need neither the simulator nor a JSON parser in the page.

use engine::scenario::{FamilyKind, Scenario};

/// A built-in scenario, addressed by a link like `#p=connect/worker-joins`.
#[derive(Debug)]
pub struct Preset {
    /// Stable id: `<family>/<name>`.
    pub id: &'static str,
    /// The site ships its result ([`engine::presets::Preset::ships_result`]).
    ships_result: bool,
    bytes: &'static [u8],
}

static PRESETS: &[Preset] = include!(concat!(env!("OUT_DIR"), "/presets.rs"));

/// The blank scenarios (Connect, Streams), binary, from `web/build.rs`.
static BLANKS: [&[u8]; 2] = include!(concat!(env!("OUT_DIR"), "/blanks.rs"));

/// A blank scenario of a family ([`engine::presets::blank`]).
pub fn blank(kind: FamilyKind) -> Scenario {
    let bytes = match kind {
        FamilyKind::Connect => BLANKS[0],
        FamilyKind::Streams => BLANKS[1],
    };
    engine::binary::from_bytes(bytes).expect("the blank scenarios decode")
}

impl Preset {
    /// The preset's scenario.
    pub fn scenario(&self) -> Scenario {
        // Written by the build script from validated scenarios: a failure
        // here is a build that mixed two engine versions.
        engine::binary::from_bytes(self.bytes).expect("built-in presets decode")
    }

    /// The family, from the id's `<family>/` prefix ([`engine::presets::family_of`]).
    pub fn family(&self) -> FamilyKind {
        engine::presets::family_of(self.id)
    }
}

/// A built-in sweep (`#p=sweeps/<name>`): its id and scenario in binary,
/// from `web/build.rs`; its question and spec are read apart (the page
/// opens its scenario, the sweep module asks the question).
#[derive(Debug)]
pub struct SweepPreset {
    /// Stable id: `sweeps/<name>`.
    pub id: &'static str,
    index: usize,
    scenario: &'static [u8],
}

/// A built-in sweep's question and spec as links write it.
struct SweepQuestion {
    title: &'static str,
    description: &'static str,
    spec: &'static str,
}

static SWEEP_PRESETS: &[SweepPreset] = include!(concat!(env!("OUT_DIR"), "/sweep_presets.rs"));
static SWEEP_QUESTIONS: &[SweepQuestion] =
    include!(concat!(env!("OUT_DIR"), "/sweep_questions.rs"));

impl SweepPreset {
    /// The scenario it sweeps.
    pub fn scenario(&self) -> Scenario {
        engine::binary::from_bytes(self.scenario).expect("built-in sweeps decode")
    }

    /// The question it answers.
    pub fn title(&self) -> &'static str {
        SWEEP_QUESTIONS[self.index].title
    }

    /// What it shows.
    pub fn description(&self) -> &'static str {
        SWEEP_QUESTIONS[self.index].description
    }

    /// What it sweeps.
    pub fn spec(&self) -> engine::sweep::SweepSpec {
        // Not `expect`: that would keep `SweepError`'s Debug in the module.
        engine::sweep::SweepSpec::from_json(SWEEP_QUESTIONS[self.index].spec)
            .unwrap_or_else(|_| panic!("built-in sweeps' specs parse"))
    }
}

/// The built-in sweep with this id.
pub fn find_sweep(id: &str) -> Option<&'static SweepPreset> {
    SWEEP_PRESETS.iter().find(|p| p.id == id)
}

/// Every built-in sweep.
pub fn sweeps() -> &'static [SweepPreset] {
    SWEEP_PRESETS
}

/// Every preset, in gallery order.
pub fn all() -> &'static [Preset] {
    PRESETS
}

/// The preset with this id.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// The preset shown when a link names nothing.
pub fn default_preset() -> &'static Preset {
    find(engine::presets::DEFAULT_PRESET).expect("the default preset exists")
}

/// Where the site keeps a preset's shipped result, written when it is built
/// (`rebalance presets --results`, Trunk's `post_build` hook), relative to
/// the page; none for a preset whose result it does not ship.
pub fn shipped_result_url(id: &str) -> Option<String> {
    find(id)
        .filter(|p| p.ships_result)
        .map(|p| format!("./results/{}.bin", p.id))
}

/// The preset a link or the gallery names, or the message for an id this
/// version does not have (the engine's, as the CLI shows it).
pub fn resolve(id: &str) -> Result<&'static Preset, String> {
    find(id).ok_or_else(|| engine::presets::unknown_preset_message(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_every_engine_preset_as_the_engine_parses_it() {
        let engine_ids: Vec<&str> = engine::presets::all().iter().map(|p| p.id).collect();
        let page_ids: Vec<&str> = all().iter().map(|p| p.id).collect();
        assert_eq!(page_ids, engine_ids);
        for (page, engine) in all().iter().zip(engine::presets::all()) {
            assert_eq!(page.scenario(), engine.scenario(), "{}", page.id);
            assert_eq!(page.family(), engine.family(), "{}", page.id);
            assert_eq!(page.ships_result, engine.ships_result(), "{}", page.id);
        }
        assert_eq!(
            shipped_result_url("connect/worker-joins").as_deref(),
            Some("./results/connect/worker-joins.bin")
        );
        assert_eq!(shipped_result_url("connect/rebalance-storm"), None);
        assert_eq!(shipped_result_url("no/such"), None);
    }

    /// `index.html` fetches a preset link's shipped result before the page's
    /// module loads, for the ids it lists: exactly the presets that ship one.
    #[test]
    fn index_html_lists_the_presets_that_ship_their_result() {
        let html = include_str!("../../index.html");
        let list = html
            .split_once("var shipped = [")
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(list, _)| list)
            .expect("index.html has `var shipped = [...]`");
        let listed: Vec<&str> = list
            .split(',')
            .map(|id| id.trim().trim_matches('\''))
            .filter(|id| !id.is_empty())
            .collect();
        let shipping: Vec<&str> = all()
            .iter()
            .filter(|p| p.ships_result)
            .map(|p| p.id)
            .collect();
        assert_eq!(
            listed, shipping,
            "index.html's `shipped` list must name every preset that ships its result, in gallery order"
        );
        assert_eq!(default_preset().id, engine::presets::DEFAULT_PRESET);
        assert!(resolve("no/such").unwrap_err().contains("no/such"));
    }

    #[test]
    fn the_page_holds_every_built_in_sweep_as_the_engine_reads_it() {
        let engine_ids: Vec<&str> = engine::sweep::presets::all().iter().map(|p| p.id).collect();
        let page_ids: Vec<&str> = sweeps().iter().map(|p| p.id).collect();
        assert_eq!(page_ids, engine_ids);
        for (page, engine) in sweeps().iter().zip(engine::sweep::presets::all()) {
            let file = engine.file();
            assert_eq!(page.scenario(), file.scenario, "{}", page.id);
            assert_eq!(page.spec(), file.sweep, "{}", page.id);
            assert_eq!(page.title(), file.title);
            assert_eq!(page.description(), file.description);
        }
    }
}
