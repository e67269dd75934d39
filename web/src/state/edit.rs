//! Scenario edits: each replaces one part of the scenario with a new value
//! the editor built. The reducer applies them and validates the result with
//! the engine's own `Scenario::validate`, so the page never accepts a
//! scenario a link could not carry.

use engine::scenario::{
    ConnectConfig, ConnectScenario, ConnectVariant, ConnectorSpec, Family, FamilyKind,
    KafkaVersion, Scenario, StreamsConfig, StreamsEvent, StreamsScenario, StreamsVariant,
    TimedEvent, Timings,
};
use engine::streams::versions::{KNOWN_RELEASES, NEWEST_RELEASE};

use super::config_keys::{Key, Kind};

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
    /// Streams instances at time 0 (one field of [`Edit::Streams`], on its
    /// own so that it may wait to be shown: [`Edit::stands_alone`]).
    Instances(u32),
    /// What the Streams config grid edits, and only that, so that the grid
    /// need not be drawn again for an edit of anything else.
    StreamsConfigs(Box<StreamsConfigs>),
}

/// The part of a Streams scenario its config grid shows and edits: the
/// application's release and configs, and the compared columns.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamsConfigs {
    /// The application's release (`None`: Kafka's newest).
    pub app_version: Option<KafkaVersion>,
    /// The application's configs.
    pub app_config: StreamsConfig,
    /// The compared columns.
    pub compare: Vec<StreamsVariant>,
}

impl StreamsConfigs {
    /// The application's release, as [`engine::scenario::StreamsApp::version`]
    /// gives it.
    pub fn app_release(&self) -> KafkaVersion {
        self.app_version.unwrap_or(KafkaVersion::DEFAULT)
    }

    /// Those of `st`.
    pub fn of(st: &StreamsScenario) -> Self {
        StreamsConfigs {
            app_version: st.app.kafka_version,
            app_config: st.app.config.clone(),
            compare: st.compare.clone(),
        }
    }
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
            Edit::Instances(n) => {
                if let Family::Streams(st) = &mut s.family {
                    st.app.instances = n;
                }
            }
            Edit::StreamsConfigs(c) => {
                if let Family::Streams(st) = &mut s.family {
                    st.app.kafka_version = c.app_version;
                    st.app.config = c.app_config;
                    st.compare = c.compare;
                }
            }
        }
        s
    }

    /// True for an edit of the words about the scenario (title,
    /// description) rather than of what it simulates.
    pub fn is_text(&self) -> bool {
        matches!(self, Edit::Title(_) | Edit::Description(_))
    }

    /// True when the edit carries one field's whole new value, not a list
    /// or a group the editor rebuilt from the scenario it was drawn with.
    /// Only such an edit may wait to be shown (components::outbox): a second
    /// edit, made before the editor is redrawn, could otherwise rebuild the
    /// same list from the old scenario and undo the first.
    pub fn stands_alone(&self) -> bool {
        matches!(
            self,
            Edit::Title(_)
                | Edit::Description(_)
                | Edit::Workers(_)
                | Edit::Instances(_)
                | Edit::Seed(_)
                | Edit::EndMs(_)
        )
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

/// The Streams grid's `kafka_version` row (first, as in the Connect grid):
/// the application's release in the base column, a compared column's own
/// release (`compare[].kafka_version`) in the others; a choice of the
/// releases the engine models, oldest first, Kafka's newest by default.
pub fn streams_version_key() -> Key {
    use std::sync::OnceLock;
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        KNOWN_RELEASES
            .iter()
            .map(|v| &*Box::leak(v.to_string().into_boxed_str()))
            .collect()
    });
    Key {
        name: STREAMS_VERSION_KEY,
        default: NEWEST_RELEASE.to_string(),
        kind: Kind::Choice(names),
    }
}

/// The name of [`streams_version_key`]'s row, as a scenario file spells it.
pub const STREAMS_VERSION_KEY: &str = "kafka_version";

/// Sets the release of the Streams application (`column` `None`) or of a
/// compared column from `text` (empty: inherit — the application's release
/// for a column, the newest for the application).
pub fn set_streams_version(
    configs: &mut StreamsConfigs,
    column: Option<usize>,
    text: &str,
) -> Result<(), String> {
    let text = text.trim();
    let version = if text.is_empty() {
        None
    } else {
        match KafkaVersion::parse(text) {
            Some(v) if KNOWN_RELEASES.contains(&v) => Some(v),
            _ => {
                return Err(format!(
                    "{STREAMS_VERSION_KEY} must be a Kafka Streams release from {} to {}, e.g. 3.9",
                    KNOWN_RELEASES[0], NEWEST_RELEASE
                ))
            }
        }
    };
    match column {
        None => configs.app_version = version,
        Some(i) => match configs.compare.get_mut(i) {
            Some(v) => v.kafka_version = version,
            None => return Ok(()),
        },
    }
    Ok(())
}

/// Sets which `StreamThread-<n>` a `slow_processing` event blocks from
/// `text` (empty or 1: the first, Kafka's only thread by default).
pub fn set_blocked_thread(event: &mut StreamsEvent, text: &str) -> Result<(), String> {
    let StreamsEvent::SlowProcessing { thread, .. } = event else {
        return Ok(());
    };
    let text = text.trim();
    *thread =
        match text.parse::<u32>() {
            _ if text.is_empty() => None,
            Ok(1) => None,
            Ok(n) if n > 1 => Some(n),
            _ => return Err(
                "thread must be a StreamThread number of at least 1 (StreamThread-1 is the first)"
                    .to_string(),
            ),
        };
    Ok(())
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
        assert_eq!(
            Edit::Instances(9).apply(&s),
            s,
            "a Streams edit leaves Connect alone"
        );
    }

    #[test]
    fn the_instance_count_is_an_edit_of_its_own() {
        let s = blank(FamilyKind::Streams);
        let t = Edit::Instances(5).apply(&s);
        let (Family::Streams(before), Family::Streams(after)) = (&s.family, &t.family) else {
            panic!("a Streams blank")
        };
        assert_eq!(after.app.instances, 5);
        assert_eq!(after.events, before.events);
        assert!(Edit::Instances(5).stands_alone());
        assert!(!Edit::Streams(Box::new(after.clone())).stands_alone());
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

    fn streams() -> StreamsScenario {
        let s = blank(FamilyKind::Streams);
        match s.family {
            Family::Streams(st) => st,
            Family::Connect(_) => panic!("a Streams blank"),
        }
    }

    #[test]
    fn the_streams_version_row_offers_every_modelled_release() {
        let key = streams_version_key();
        let Kind::Choice(options) = key.kind else {
            panic!("a choice")
        };
        assert_eq!(options.len(), KNOWN_RELEASES.len());
        assert_eq!(options.first(), Some(&"0.10"));
        assert_eq!(options.last(), Some(&"4.3"));
        assert!(options.contains(&"3.9") && options.contains(&"2.3"));
        assert_eq!(key.default, "4.3");
    }

    #[test]
    fn a_column_and_the_application_get_their_own_release() {
        let mut st = StreamsConfigs::of(&streams());
        set_streams_version(&mut st, Some(0), "3.9").unwrap();
        assert_eq!(st.compare[0].kafka_version, Some(KafkaVersion::new(3, 9)));
        assert_eq!(
            st.compare[1].kafka_version, None,
            "the other column inherits"
        );
        set_streams_version(&mut st, None, "3.8").unwrap();
        assert_eq!(st.app_version, Some(KafkaVersion::new(3, 8)));
        set_streams_version(&mut st, Some(0), " ").unwrap();
        assert_eq!(st.compare[0].kafka_version, None);
        let err = set_streams_version(&mut st, Some(1), "9.9").unwrap_err();
        assert!(
            err.contains("kafka_version") && err.contains("4.3"),
            "{err}"
        );
        assert!(set_streams_version(&mut st, Some(1), "soon").is_err());
        assert_eq!(
            st.compare[1].kafka_version, None,
            "an error changes nothing"
        );
        // The scenario a link carries.
        let mut s = blank(FamilyKind::Streams);
        set_streams_version(&mut st, Some(1), "3.9").unwrap();
        s = Edit::StreamsConfigs(Box::new(st)).apply(&s);
        s.validate().unwrap();
        assert!(
            s.to_json().contains(r#""kafka_version":"3.9""#),
            "{}",
            s.to_json()
        );
    }

    #[test]
    fn a_config_grid_edit_keeps_the_instances_and_events() {
        let s = crate::presets::all()
            .iter()
            .find(|p| p.id == "streams/warmup-convergence")
            .expect("preset")
            .scenario();
        let Family::Streams(before) = &s.family else {
            panic!("a Streams preset")
        };
        // The grid's configs as drawn, then an instance count edit, then a
        // grid edit built from the configs drawn before it.
        let mut configs = StreamsConfigs::of(before);
        configs.app_config.num_standby_replicas = Some(2);
        let s = Edit::Instances(before.app.instances + 3).apply(&s);
        let s = Edit::StreamsConfigs(Box::new(configs.clone())).apply(&s);
        let Family::Streams(after) = &s.family else {
            panic!("still Streams")
        };
        assert_eq!(after.app.instances, before.app.instances + 3);
        assert_eq!(after.events, before.events);
        assert_eq!(after.app.subtopologies, before.app.subtopologies);
        assert_eq!(StreamsConfigs::of(after), configs);
    }

    #[test]
    fn a_slow_handler_names_its_stream_thread() {
        let mut e = StreamsEvent::SlowProcessing {
            instance: "instance-1".into(),
            duration_ms: 1_000,
            thread: None,
        };
        set_blocked_thread(&mut e, "2").unwrap();
        assert!(matches!(
            e,
            StreamsEvent::SlowProcessing {
                thread: Some(2),
                ..
            }
        ));
        assert_eq!(e.label(), "instance-1 StreamThread-2 blocks in a handler");
        set_blocked_thread(&mut e, "1").unwrap();
        assert!(matches!(
            e,
            StreamsEvent::SlowProcessing { thread: None, .. }
        ));
        set_blocked_thread(&mut e, "3").unwrap();
        set_blocked_thread(&mut e, "").unwrap();
        assert!(matches!(
            e,
            StreamsEvent::SlowProcessing { thread: None, .. }
        ));
        assert!(set_blocked_thread(&mut e, "0").is_err());
        assert!(set_blocked_thread(&mut e, "two").is_err());
    }
}
