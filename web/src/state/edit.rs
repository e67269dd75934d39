//! Scenario edits: each replaces one part of the scenario with a new value
//! the editor built. The reducer applies them and validates the result with
//! the engine's own `Scenario::validate`, so the page never accepts a
//! scenario a link could not carry.

use engine::scenario::{
    ConnectConfig, ConnectorSpec, Scenario, StreamsScenario, TimedEvent, Timings, Variant,
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
    /// The compared protocol variants.
    Variants(Vec<Variant>),
    /// The timed event script.
    Events(Vec<TimedEvent>),
    /// The random seed.
    Seed(u64),
    /// When the simulation stops (`None`: after the last event has settled).
    EndMs(Option<u64>),
    /// The Streams application and its events (a Streams scenario).
    Streams(Box<StreamsScenario>),
}

impl Edit {
    /// `scenario` with this edit applied (not yet validated).
    pub fn apply(self, scenario: &Scenario) -> Scenario {
        let mut s = scenario.clone();
        match self {
            Edit::Title(t) => s.title = t,
            Edit::Workers(n) => s.connect.workers = n,
            Edit::Connectors(c) => s.connect.connectors = c,
            Edit::ClusterConfig(c) => s.connect.config = c,
            Edit::Timings(t) => s.connect.timings = t,
            Edit::Variants(v) => s.compare = v,
            Edit::Events(e) => s.events = e,
            Edit::Seed(seed) => s.seed = seed,
            Edit::EndMs(end) => s.end_ms = end,
            Edit::Streams(st) => s.streams = Some(*st),
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_replace_one_part() {
        let s = engine::presets::default_preset().scenario();
        let t = Edit::Workers(7).apply(&s);
        assert_eq!(t.connect.workers, 7);
        assert_eq!(t.events, s.events);
        assert!(Edit::Workers(100_000).apply(&s).validate().is_err());
    }
}
