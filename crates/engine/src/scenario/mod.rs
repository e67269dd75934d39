//! The scenario format: a versioned, serde (JSON) description of a cluster, the
//! protocols to compare and a timed event script. Scenarios are data: presets,
//! links and the page all use this one model.
//!
//! A scenario describes counts and rules, not lists of tasks, so a 1,000-worker
//! cluster still fits in a short link.

mod connect_config;
mod error;
mod event;
mod parse_problem;
pub(crate) mod ranges;
mod streams;
mod wire;

use serde::{Deserialize, Serialize};

pub use connect_config::{ConnectConfig, ResolvedConnectConfig};
pub use error::ScenarioError;
pub use event::{Event, TimedEvent};
pub use streams::{
    instance_name, GroupProtocol, KafkaVersion, ProcessingGuarantee, ResolvedStreamsConfig,
    StreamsApp, StreamsConfig, StreamsEvent, StreamsProtocolSupport, StreamsScenario,
    StreamsTimedEvent, StreamsTimings, StreamsVariant, SubtopologySpec, TaskAssignorClass,
};

use crate::connect::protocol::ConnectProtocol;
use crate::wording::duration;

/// The scenario schema version this build writes. Older versions stay readable.
pub const SCENARIO_VERSION: u32 = 1;

/// Limits that keep an untrusted scenario from asking for absurd work, and
/// the playground's ranges for values Kafka does not bound. Kafka's own
/// ranges (the broker's `group.min.session.timeout.ms` and
/// `group.max.session.timeout.ms`, `ConfigDef` validators) are checked too;
/// every refusal names the key, the value and the range.
pub mod limits {
    /// Workers present at once (initial plus joined).
    pub const MAX_WORKERS: u32 = 2_000;
    /// Connectors after expanding `count` rules.
    pub const MAX_CONNECTORS: u32 = 20_000;
    /// Tasks summed over every connector, at any time.
    pub const MAX_TASKS: u64 = 200_000;
    /// Distinct tasks ever configured: per connector name its largest task
    /// count, summed. Each gets a row in the trace, so connectors added and
    /// removed again and again cannot blow the trace up.
    pub const MAX_TASKS_EVER: u64 = 1_000_000;
    /// Scripted events (a rolling restart counts once per worker it restarts).
    pub const MAX_EVENTS: usize = 5_000;
    /// Simulated time: one day. Also the bound on `end_ms`, an event's
    /// `at_ms`, its `downtime_ms`, `duration_ms` and `interval_ms`, and on
    /// durations Kafka does not bound (`task.shutdown.graceful.timeout.ms`,
    /// `group.initial.rebalance.delay.ms`, `state.cleanup.delay.ms`).
    pub const MAX_TIME_MS: u64 = 86_400_000;
    /// `timings` start, stop, initialisation and commit times: 10 minutes.
    pub const MAX_WORK_TIMING_MS: u64 = 600_000;
    /// `timings.coordinator_rtt_ms`: 30 s, a consumer's default
    /// `request.timeout.ms`; a slower round trip would time out.
    pub const MAX_COORDINATOR_RTT_MS: u64 = 30_000;
    /// Protocol variants compared side by side.
    pub const MAX_VARIANTS: usize = 4;
    /// Length of names and free text.
    pub const MAX_TEXT: usize = 2_000;
    /// Streams instances present over a run (initial plus joined).
    pub const MAX_INSTANCES: u32 = 1_000;
    /// `num.stream.threads` per instance.
    pub const MAX_STREAM_THREADS: u32 = 32;
    /// `num.standby.replicas` (Kafka sets no maximum).
    pub const MAX_STANDBY_REPLICAS: u32 = 10;
    /// Streams tasks (subtopologies × partitions).
    pub const MAX_STREAMS_TASKS: u64 = 50_000;
    /// Subtopologies after expanding `count` rules.
    pub const MAX_SUBTOPOLOGIES: u32 = 1_000;
    /// Records in one task's changelog.
    pub const MAX_CHANGELOG_RECORDS: u64 = 1_000_000_000_000;
}

/// A whole scenario: what it is about (title, seed, end) and its family —
/// a Kafka Connect cluster or a Kafka Streams application, each with its own
/// compared variants and event script.
///
/// (De)serialized through `wire`: a Connect scenario's JSON is exactly what
/// version 1 always wrote, so old links decode and re-encode byte for byte.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Schema version ([`SCENARIO_VERSION`]).
    pub version: u32,
    /// Short title shown in the page header.
    pub title: String,
    /// What to watch, for people.
    pub description: String,
    /// Seed for every random choice the simulator makes; same seed, same trace.
    pub seed: u64,
    /// Whether t = 0 shows a group that has already formed (the default) or
    /// processes that are only starting.
    pub start: Start,
    /// When the simulation stops; default: after the last event has settled.
    pub end_ms: Option<u64>,
    /// Where to read more: KIPs, JIRA issues, docs (shown beside the description).
    pub references: Vec<Reference>,
    /// The Connect cluster or Streams application, its variants and events.
    pub family: Family,
}

/// What the cluster looks like at t = 0 (`start` in the JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// The group has already formed: every initial process is a member, runs
    /// its assignment and nothing is pending. The run forms the group first,
    /// out of view, and t = 0 is the moment it is quiet; the scenario's
    /// event times count from there.
    #[default]
    Formed,
    /// Every initial process starts at t = 0 and the group forms in view
    /// (first JoinGroup, `group.initial.rebalance.delay.ms`, first
    /// assignment): for scenarios about formation.
    Empty,
}

/// Which system a scenario simulates, with everything that differs between the two.
#[derive(Clone, Debug, PartialEq)]
pub enum Family {
    /// A Kafka Connect cluster (`connect` in the JSON).
    Connect(ConnectScenario),
    /// A Kafka Streams application (`streams` in the JSON).
    Streams(StreamsScenario),
}

/// The name of a scenario's family, for places that only need to tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FamilyKind {
    /// Kafka Connect.
    Connect,
    /// Kafka Streams.
    Streams,
}

impl FamilyKind {
    /// `connect` or `streams`, as in preset ids and the JSON keys.
    pub fn as_str(self) -> &'static str {
        match self {
            FamilyKind::Connect => "connect",
            FamilyKind::Streams => "streams",
        }
    }
}

impl std::fmt::Display for FamilyKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The Connect part of a scenario: the cluster at time 0, the protocol
/// variants to compare and the timed event script.
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectScenario {
    /// The cluster at time 0.
    pub cluster: ConnectCluster,
    /// The protocol variants to compare side by side (default: eager vs sessioned).
    pub compare: Vec<ConnectVariant>,
    /// The timed event script.
    pub events: Vec<TimedEvent>,
}

impl ConnectScenario {
    /// The initial connectors, expanded.
    pub fn initial_connectors(&self) -> Vec<(String, u32)> {
        self.cluster
            .connectors
            .iter()
            .flat_map(ConnectorSpec::expand)
            .collect()
    }

    /// Checks the cluster and the variants (the events are checked after
    /// `end_ms`, as they always were); errors name the field and why.
    fn validate_cluster_and_variants(&self) -> Result<(), ScenarioError> {
        use limits::*;
        let c = &self.cluster;
        if c.workers > MAX_WORKERS {
            return Err(ScenarioError::invalid(
                "connect.workers",
                format!(
                    "{} workers is more than the playground simulates (at most {MAX_WORKERS})",
                    c.workers
                ),
            ));
        }
        connect_config::validate(&c.config, "connect.config")?;
        c.timings.validate("connect.timings")?;
        let mut connectors: u64 = 0;
        let mut tasks: u64 = 0;
        for (i, spec) in c.connectors.iter().enumerate() {
            let at = format!("connect.connectors[{i}]");
            check_name(&format!("{at}.name"), &spec.name)?;
            let n = u64::from(spec.count.unwrap_or(1));
            connectors += n;
            tasks += n * u64::from(spec.tasks);
            if connectors > u64::from(MAX_CONNECTORS) {
                return Err(ScenarioError::invalid(
                    format!("{at}.count"),
                    format!("more than {MAX_CONNECTORS} connectors in total"),
                ));
            }
            if tasks > MAX_TASKS {
                return Err(ScenarioError::invalid(
                    format!("{at}.tasks"),
                    format!("more than {MAX_TASKS} tasks in total; the playground simulates at most that many"),
                ));
            }
        }
        let names = self.initial_connectors();
        let mut sorted: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
        crate::sort_by_key::sort_values(&mut sorted);
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(ScenarioError::invalid(
                "connect.connectors",
                format!("connector `{}` is defined twice", w[0]),
            ));
        }
        for (i, o) in c.worker_overrides.iter().enumerate() {
            check_name(&format!("connect.worker_overrides[{i}].worker"), &o.worker)?;
            connect_config::validate(
                &c.config.merged(&o.config),
                &format!("connect.worker_overrides[{i}].config"),
            )?;
        }
        check_variant_count(self.compare.len())?;
        for (i, v) in self.compare.iter().enumerate() {
            check_name(&format!("compare[{i}].label"), &v.label)?;
            connect_config::validate(&c.config.merged(&v.config), &format!("compare[{i}].config"))?;
        }
        Ok(())
    }
}

/// A link to a KIP, a JIRA issue or a doc page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// Link text, e.g. `KIP-415` or `KAFKA-12495`.
    pub label: String,
    /// An `https://` address.
    pub url: String,
}

/// A Connect cluster at time 0.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectCluster {
    /// Workers running at time 0, named `worker-1` … `worker-N`.
    pub workers: u32,
    /// Connectors configured at time 0.
    #[serde(default)]
    pub connectors: Vec<ConnectorSpec>,
    /// Cluster-wide worker configuration (Kafka property names).
    #[serde(default, skip_serializing_if = "is_default")]
    pub config: ConnectConfig,
    /// Per-worker overrides by worker name, e.g. one worker still on `eager`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub worker_overrides: Vec<WorkerOverride>,
    /// How long connectors and tasks take to start and stop.
    #[serde(default, skip_serializing_if = "is_default")]
    pub timings: Timings,
}

/// One connector, or `count` alike connectors named `<name>-1` … `<name>-<count>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectorSpec {
    /// Connector name (or name prefix with `count`).
    pub name: String,
    /// `tasks.max` as the connector uses it: the number of tasks.
    pub tasks: u32,
    /// Expand into this many connectors (a rule, so big clusters stay short).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
}

impl ConnectorSpec {
    /// The (name, tasks) pairs this spec expands to.
    pub fn expand(&self) -> Vec<(String, u32)> {
        match self.count {
            None => vec![(self.name.clone(), self.tasks)],
            Some(n) => (1..=n)
                .map(|i| (format!("{}-{i}", self.name), self.tasks))
                .collect(),
        }
    }
}

/// Config overrides for one worker (a mixed-version cluster).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkerOverride {
    /// Worker name, e.g. `worker-3`.
    pub worker: String,
    /// Keys that differ from the cluster config on this worker.
    #[serde(default)]
    pub config: ConnectConfig,
}

/// Start and stop durations: not Kafka configs but the simulator's model of how
/// long real work takes. Defaults are typical for a source connector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Timings {
    /// Starting a connector instance.
    pub connector_start_ms: u32,
    /// Stopping a connector instance (Kafka waits up to 5 s).
    pub connector_stop_ms: u32,
    /// Starting a task (consumer/producer set-up, first poll).
    pub task_start_ms: u32,
    /// Stopping a task (flush and commit); capped by `task.shutdown.graceful.timeout.ms`.
    pub task_stop_ms: u32,
    /// One JoinGroup/SyncGroup round trip to the group coordinator.
    pub coordinator_rtt_ms: u32,
}

impl Default for Timings {
    fn default() -> Self {
        Self {
            connector_start_ms: 500,
            connector_stop_ms: 200,
            task_start_ms: 1_000,
            task_stop_ms: 500,
            coordinator_rtt_ms: 20,
        }
    }
}

impl Timings {
    /// Each timing within the playground's ranges (`limits`).
    fn validate(&self, at: &str) -> Result<(), ScenarioError> {
        use ranges::{COORDINATOR_RTT_MS, WORK_TIMING_MS};
        for (key, value) in [
            ("connector_start_ms", self.connector_start_ms),
            ("connector_stop_ms", self.connector_stop_ms),
            ("task_start_ms", self.task_start_ms),
            ("task_stop_ms", self.task_stop_ms),
        ] {
            WORK_TIMING_MS.check(&format!("{at}.{key}"), u64::from(value), " ms")?;
        }
        COORDINATOR_RTT_MS.check(
            &format!("{at}.coordinator_rtt_ms"),
            u64::from(self.coordinator_rtt_ms),
            " ms",
        )
    }
}

/// One compared Connect protocol setting: a label and the config keys it
/// sets cluster-wide. Per-worker overrides still win, so one old worker can
/// pin the group to eager.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectVariant {
    /// Column title, e.g. `eager` or `cooperative`.
    pub label: String,
    /// Keys layered over the cluster config.
    #[serde(default)]
    pub config: ConnectConfig,
}

impl ConnectVariant {
    /// A variant that sets only `connect.protocol`.
    pub fn protocol(label: &str, protocol: ConnectProtocol) -> Self {
        Self {
            label: label.to_string(),
            config: ConnectConfig {
                connect_protocol: Some(protocol),
                ..ConnectConfig::default()
            },
        }
    }
}

pub(crate) fn default_variants() -> Vec<ConnectVariant> {
    vec![
        ConnectVariant::protocol("eager", ConnectProtocol::Eager),
        ConnectVariant::protocol("cooperative", ConnectProtocol::Sessioned),
    ]
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

impl Scenario {
    /// Parses and validates a scenario from JSON.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let scenario = wire::scenario_from_str(text)
            .map_err(|failure| parse_problem::parse_error(text, failure))?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// Pretty JSON, as in scenario files.
    pub fn to_json_pretty(&self) -> String {
        wire::pretty(&self.to_json())
    }

    /// Compact JSON, as in links.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("scenario serializes")
    }

    /// Which family this scenario simulates.
    pub fn family_kind(&self) -> FamilyKind {
        match &self.family {
            Family::Connect(_) => FamilyKind::Connect,
            Family::Streams(_) => FamilyKind::Streams,
        }
    }

    /// The compared variants' labels, in order (one column each).
    pub fn variant_labels(&self) -> Vec<&str> {
        match &self.family {
            Family::Connect(c) => c.compare.iter().map(|v| v.label.as_str()).collect(),
            Family::Streams(s) => s.compare.iter().map(|v| v.label.as_str()).collect(),
        }
    }

    /// Checks every bound; errors name the field and why.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.version == 0 || self.version > SCENARIO_VERSION {
            return Err(ScenarioError::UnsupportedVersion(self.version));
        }
        check_text("title", &self.title)?;
        check_text("description", &self.description)?;
        if self.references.len() > 20 {
            return Err(ScenarioError::invalid(
                "references",
                "lists more than 20 links",
            ));
        }
        for (i, r) in self.references.iter().enumerate() {
            check_name(&format!("references[{i}].label"), &r.label)?;
            check_text(&format!("references[{i}].url"), &r.url)?;
            // Only web links: a link is untrusted and the page renders these as <a href>.
            if !r.url.starts_with("https://") {
                return Err(ScenarioError::invalid(
                    format!("references[{i}].url"),
                    "must start with https://",
                ));
            }
        }
        // The order of the checks decides which error a scenario with
        // several problems reports; each family keeps the order it always had.
        match &self.family {
            Family::Streams(s) => {
                check_variant_count(s.compare.len())?;
                for (i, v) in s.compare.iter().enumerate() {
                    check_name(&format!("compare[{i}].label"), &v.label)?;
                }
                check_end(self.end_ms)?;
                streams::validate(s)?;
                let events = s.events.iter().map(|e| (e.at_ms, e.event.label()));
                check_events_before_end(self.end_ms, events)
            }
            Family::Connect(c) => {
                c.validate_cluster_and_variants()?;
                check_end(self.end_ms)?;
                event::validate_events(c)?;
                let events = c.events.iter().map(|e| (e.at_ms, e.event.label()));
                check_events_before_end(self.end_ms, events)
            }
        }
    }
}

fn check_variant_count(n: usize) -> Result<(), ScenarioError> {
    use limits::MAX_VARIANTS;
    if n == 0 || n > MAX_VARIANTS {
        return Err(ScenarioError::invalid(
            "compare",
            format!("list 1 to {MAX_VARIANTS} protocol variants to compare"),
        ));
    }
    Ok(())
}

fn check_end(end_ms: Option<u64>) -> Result<(), ScenarioError> {
    use limits::MAX_TIME_MS;
    match end_ms {
        Some(end) if end == 0 || end > MAX_TIME_MS => Err(ScenarioError::invalid(
            "end_ms",
            format!("is {end} ms; the playground simulates 1 to {MAX_TIME_MS} ms (one day)"),
        )),
        _ => Ok(()),
    }
}

/// An event after `end_ms` would never happen: the run stops first
/// (events at `end_ms` itself still run). Refused, naming the event.
fn check_events_before_end(
    end_ms: Option<u64>,
    events: impl Iterator<Item = (u64, String)>,
) -> Result<(), ScenarioError> {
    let Some(end) = end_ms else {
        return Ok(());
    };
    for (i, (at, label)) in events.enumerate() {
        if at > end {
            return Err(ScenarioError::invalid(
                format!("events[{i}]"),
                format!(
                    "({label} at {}) is after end_ms ({}): the run stops before it happens; move it to end_ms or earlier, or raise end_ms",
                    duration(at),
                    duration(end)
                ),
            ));
        }
    }
    Ok(())
}

/// The name of the n-th worker (1-based).
pub fn worker_name(n: u32) -> String {
    format!("worker-{n}")
}

fn check_text(field: &str, text: &str) -> Result<(), ScenarioError> {
    if text.len() > limits::MAX_TEXT {
        return Err(ScenarioError::invalid(
            field,
            format!("longer than {} characters", limits::MAX_TEXT),
        ));
    }
    Ok(())
}

fn check_name(field: &str, name: &str) -> Result<(), ScenarioError> {
    if name.is_empty() {
        return Err(ScenarioError::invalid(field, "must not be empty"));
    }
    if name.len() > 200 {
        return Err(ScenarioError::invalid(field, "longer than 200 characters"));
    }
    if name.chars().any(char::is_control) {
        return Err(ScenarioError::invalid(field, "contains control characters"));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
