//! Scenario edits: each replaces one part of the scenario with a new value
//! the editor built. The reducer applies them and validates the result with
//! the engine's own `Scenario::validate`, so the page never accepts a
//! scenario a link could not carry.

use engine::scenario::{
    ConnectConfig, ConnectScenario, ConnectVariant, ConnectorSpec, Family, FamilyKind, Scenario,
    StreamsScenario, TimedEvent, Timings,
};

/// One change to the scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// The title.
    Title(String),
    /// The description.
    Description(String),
    /// Workers at time 0.
    Workers(u32),
    /// The connectors at time 0.
    Connectors(Vec<ConnectorSpec>),
    /// The cluster-wide worker configuration.
    ClusterConfig(ConnectConfig),
    /// Start and stop durations.
    Timings(Timings),
    /// The compared Connect protocol variants.
    Variants(Vec<ConnectVariant>),
    /// The timed event script.
    Events(Vec<TimedEvent>),
    /// The random seed.
    Seed(u64),
    /// When the simulation stops (`None`: after the last event has settled).
    EndMs(Option<u64>),
    /// The Streams application, its variants and events (a Streams scenario).
    Streams(Box<StreamsScenario>),
}

impl Edit {
    /// `scenario` with this edit applied (not yet validated). A Connect
    /// edit leaves a Streams scenario as it is.
    pub fn apply(self, scenario: &Scenario) -> Scenario {
        let mut s = scenario.clone();
        match self {
            Edit::Title(t) => s.title = t,
            Edit::Description(d) => s.description = d,
            Edit::Workers(n) => on_connect(&mut s, |c| c.cluster.workers = n),
            Edit::Connectors(v) => on_connect(&mut s, |c| c.cluster.connectors = v),
            Edit::ClusterConfig(v) => on_connect(&mut s, |c| c.cluster.config = v),
            Edit::Timings(t) => on_connect(&mut s, |c| c.cluster.timings = t),
            Edit::Variants(v) => on_connect(&mut s, |c| c.compare = v),
            Edit::Events(e) => on_connect(&mut s, |c| c.events = e),
            Edit::Seed(seed) => s.seed = seed,
            Edit::EndMs(end) => s.end_ms = end,
            Edit::Streams(st) => s.family = Family::Streams(*st),
        }
        s
    }

    /// True for an edit of the words about the scenario (title,
    /// description) rather than of what it simulates.
    pub fn is_text(&self) -> bool {
        matches!(self, Edit::Title(_) | Edit::Description(_))
    }
}

/// A blank scenario of a family ([`engine::presets::blank`]), as the page
/// holds it: decoded from the build script's binary copy, so the page needs
/// no scenario parser for it.
pub fn blank(kind: FamilyKind) -> Scenario {
    crate::presets::blank(kind)
}

/// True when `now` simulates something other than `basis` (the scenario as
/// it was when its title and description were last written): the words may
/// no longer describe it.
pub fn text_is_stale(basis: &Scenario, now: &Scenario) -> bool {
    let strip = |s: &Scenario| Scenario {
        title: String::new(),
        description: String::new(),
        ..s.clone()
    };
    strip(basis) != strip(now)
}

/// Applies `f` to the Connect part of `s`, if it is a Connect scenario.
fn on_connect(s: &mut Scenario, f: impl FnOnce(&mut ConnectScenario)) {
    if let Family::Connect(c) = &mut s.family {
        f(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_replace_one_part() {
        let s = engine::presets::default_preset().scenario();
        let t = Edit::Workers(7).apply(&s);
        let (Family::Connect(before), Family::Connect(after)) = (&s.family, &t.family) else {
            panic!("the default preset is a Connect scenario")
        };
        assert_eq!(after.cluster.workers, 7);
        assert_eq!(after.events, before.events);
        assert!(Edit::Workers(100_000).apply(&s).validate().is_err());
    }

    #[test]
    fn blank_scenarios_are_small_and_have_no_events() {
        for kind in [FamilyKind::Connect, FamilyKind::Streams] {
            let s = blank(kind);
            assert_eq!(s.family_kind(), kind);
            assert_eq!(s.variant_labels().len(), 2, "eager vs cooperative");
            match &s.family {
                Family::Connect(c) => assert!(c.events.is_empty() && c.cluster.workers == 3),
                Family::Streams(st) => assert!(st.events.is_empty() && st.app.instances == 3),
            }
            assert!(s.title.starts_with("New "));
        }
    }

    #[test]
    fn words_go_stale_when_the_simulation_changes() {
        let s = engine::presets::default_preset().scenario();
        let retitled = Edit::Title("Mine".into()).apply(&s);
        let described = Edit::Description("Mine".into()).apply(&retitled);
        assert!(!text_is_stale(&s, &described), "words alone never go stale");
        assert!(text_is_stale(&s, &Edit::Workers(9).apply(&s)));
        assert!(text_is_stale(&s, &Edit::Seed(99).apply(&s)));
        assert!(Edit::Title(String::new()).is_text() && !Edit::Seed(1).is_text());
    }
}
