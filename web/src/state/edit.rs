//! Scenario edits: each replaces one part of the scenario with a new value
//! the editor built. The reducer applies them and validates the result with
//! the engine's own `Scenario::validate`, so the page never accepts a
//! scenario a link could not carry.

use engine::scenario::{
    ConnectConfig, ConnectScenario, ConnectVariant, ConnectorSpec, Family, Scenario,
    StreamsScenario, TimedEvent, Timings,
};

/// One change to the scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// The title.
    Title(String),
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
}
