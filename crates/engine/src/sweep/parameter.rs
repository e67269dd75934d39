//! What a sweep steps: a Kafka config key of the compared variants, a
//! cluster-shape number or an event's time or duration; the range its
//! values must lie in, where Kafka's default lies, and how a value is
//! written into a scenario.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::config_keys::{
    NumericKey, CONNECT_CHOICE_KEYS, CONNECT_KEYS, STREAMS_CHOICE_KEYS, STREAMS_KEYS,
};
use super::SweepError;
use crate::budget::thousands;
use crate::scenario::ranges::{self, Range};
use crate::scenario::{
    limits, ConnectConfig, ConnectScenario, Event, Family, Scenario, StreamsConfig, StreamsEvent,
    StreamsScenario,
};
use crate::wording::duration;

/// The one input a sweep steps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SweepParameter {
    /// A numeric Kafka config key (its property name), set in the config of
    /// every compared variant, or only of the one labelled `variant`.
    Config {
        /// E.g. `scheduled.rebalance.max.delay.ms`.
        key: String,
        /// The compared variant's label; absent: every variant.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        variant: Option<String>,
    },
    /// A number of the cluster's shape.
    Cluster {
        /// Which number.
        field: ClusterField,
        /// For a field of `connect.connectors` or `streams.subtopologies`:
        /// which entry; absent: every entry.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<usize>,
    },
    /// A time or duration of one scripted event.
    Event {
        /// Index into the scenario's `events`.
        event: usize,
        /// Which of its fields.
        field: EventField,
    },
}

/// A cluster-shape number a sweep can step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClusterField {
    /// `connect.workers`.
    Workers,
    /// `connect.connectors[].count`: how many alike connectors the entry
    /// expands to (an entry without `count` is renamed `<name>-1` …).
    Connectors,
    /// `connect.connectors[].tasks`: tasks per connector.
    Tasks,
    /// `streams.instances`.
    Instances,
    /// `streams.config` `num.stream.threads`, application-wide.
    Threads,
    /// `streams.subtopologies[].partitions`: tasks per subtopology.
    Partitions,
    /// `streams.subtopologies[].changelog_records`: each task's changelog.
    ChangelogRecords,
    /// `streams.timings.restore_records_per_sec`.
    RestoreRecordsPerSec,
}

/// A field of a scripted event a sweep can step (the event's own key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventField {
    /// When it happens (a join's time, a crash's time …).
    AtMs,
    /// A restart's (or each rolling restart's) downtime.
    DowntimeMs,
    /// A GC pause's or a slow handler's length.
    DurationMs,
    /// The time between two restarts of a rolling restart.
    IntervalMs,
}

/// What a swept value counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueUnit {
    /// Milliseconds.
    Ms,
    /// A count (workers, tasks, threads, replicas).
    Count,
    /// Changelog records.
    Records,
    /// Records per second.
    RecordsPerSec,
}

impl ValueUnit {
    /// A value as people read it: `5 min`, `12`, `200,000 records`.
    pub fn format(self, value: u64) -> String {
        match self {
            ValueUnit::Ms => duration(value),
            ValueUnit::Count => thousands(value),
            ValueUnit::Records => format!("{} records", thousands(value)),
            ValueUnit::RecordsPerSec => format!("{} records/s", thousands(value)),
        }
    }

    /// The unit after a number in a range: " ms" or "".
    fn suffix(self) -> &'static str {
        match self {
            ValueUnit::Ms => " ms",
            ValueUnit::Count => "",
            ValueUnit::Records => " records",
            ValueUnit::RecordsPerSec => " records/s",
        }
    }
}

/// The values a swept parameter accepts, and who says so.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllowedRange {
    /// Smallest accepted value.
    pub min: u64,
    /// Largest accepted value.
    pub max: u64,
    /// Who sets the range and why, e.g. "Kafka (its range in DistributedConfig)".
    pub source: String,
}

impl AllowedRange {
    fn of(range: &Range) -> Self {
        Self {
            min: range.min,
            max: range.max,
            source: format!("{} ({})", range.who, range.why),
        }
    }

    fn playground(min: u64, max: u64, why: &str) -> Self {
        Self {
            min,
            max,
            source: format!("the playground ({why})"),
        }
    }

    /// Refuses a spec's `field` (`from`, `to`) outside the range, naming
    /// the parameter, the value and the range.
    pub(crate) fn check(
        &self,
        field: &str,
        value: u64,
        parameter: &str,
        unit: ValueUnit,
    ) -> Result<(), SweepError> {
        if (self.min..=self.max).contains(&value) {
            return Ok(());
        }
        let u = unit.suffix();
        Err(SweepError::invalid(
            field,
            format!(
                "is {value}{u}, outside what {parameter} takes: {} accepts {} to {}{u}",
                self.source, self.min, self.max
            ),
        ))
    }
}

/// A parameter checked against one scenario: what it takes and where it
/// stands.
pub(crate) struct Target {
    range: AllowedRange,
    unit: ValueUnit,
    /// Kafka's default, for a config key.
    pub(crate) kafka_default: Option<u64>,
    /// The scenario's own value (of the first entry or variant it sets).
    pub(crate) scenario_value: u64,
    /// People's name for the axis, e.g. `scheduled.rebalance.max.delay.ms (cooperative)`.
    pub(crate) label: String,
}

impl Target {
    pub(crate) fn range(&self) -> &AllowedRange {
        &self.range
    }

    pub(crate) fn unit(&self) -> ValueUnit {
        self.unit
    }
}

impl ClusterField {
    /// The field's name in a spec, e.g. `changelog_records`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Workers => "workers",
            Self::Connectors => "connectors",
            Self::Tasks => "tasks",
            Self::Instances => "instances",
            Self::Threads => "threads",
            Self::Partitions => "partitions",
            Self::ChangelogRecords => "changelog_records",
            Self::RestoreRecordsPerSec => "restore_records_per_sec",
        }
    }

    /// Every field, Connect's first.
    pub const ALL: [ClusterField; 8] = [
        Self::Workers,
        Self::Connectors,
        Self::Tasks,
        Self::Instances,
        Self::Threads,
        Self::Partitions,
        Self::ChangelogRecords,
        Self::RestoreRecordsPerSec,
    ];

    /// The field named `name` in a spec.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == name)
    }

    fn is_connect(self) -> bool {
        matches!(self, Self::Workers | Self::Connectors | Self::Tasks)
    }

    /// Whether the field belongs to an entry of `connect.connectors` or
    /// `streams.subtopologies` (and so takes an `index`).
    fn has_entries(self) -> bool {
        matches!(
            self,
            Self::Connectors | Self::Tasks | Self::Partitions | Self::ChangelogRecords
        )
    }

    fn label(self) -> &'static str {
        match self {
            Self::Workers => "workers",
            Self::Connectors => "connectors per entry",
            Self::Tasks => "tasks per connector",
            Self::Instances => "instances",
            Self::Threads => "num.stream.threads",
            Self::Partitions => "partitions per subtopology",
            Self::ChangelogRecords => "changelog records per task",
            Self::RestoreRecordsPerSec => "restored records/s per task",
        }
    }

    fn unit(self) -> ValueUnit {
        match self {
            Self::ChangelogRecords => ValueUnit::Records,
            Self::RestoreRecordsPerSec => ValueUnit::RecordsPerSec,
            _ => ValueUnit::Count,
        }
    }

    fn range(self) -> AllowedRange {
        use limits::*;
        match self {
            Self::Workers => {
                AllowedRange::playground(1, u64::from(MAX_WORKERS), "the most workers it simulates")
            }
            Self::Connectors => AllowedRange::playground(
                1,
                u64::from(MAX_CONNECTORS),
                "the most connectors it simulates",
            ),
            Self::Tasks => AllowedRange::playground(1, MAX_TASKS, "the most tasks it simulates"),
            Self::Instances => AllowedRange::playground(
                1,
                u64::from(MAX_INSTANCES),
                "the most instances it simulates",
            ),
            Self::Threads => AllowedRange::of(&ranges::NUM_STREAM_THREADS),
            Self::Partitions => AllowedRange::playground(
                1,
                MAX_STREAMS_TASKS,
                "the most Streams tasks it simulates",
            ),
            Self::ChangelogRecords => AllowedRange::playground(
                0,
                MAX_CHANGELOG_RECORDS,
                "the largest changelog it simulates",
            ),
            Self::RestoreRecordsPerSec => {
                AllowedRange::playground(1, u64::from(u32::MAX), "a restore rate above 0 records/s")
            }
        }
    }
}

impl EventField {
    /// The field's name in a spec and in the event's JSON, e.g. `downtime_ms`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AtMs => "at_ms",
            Self::DowntimeMs => "downtime_ms",
            Self::DurationMs => "duration_ms",
            Self::IntervalMs => "interval_ms",
        }
    }

    /// The field named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        [
            Self::AtMs,
            Self::DowntimeMs,
            Self::DurationMs,
            Self::IntervalMs,
        ]
        .into_iter()
        .find(|f| f.as_str() == name)
    }

    /// The event types that have this field, for a refusal.
    fn owners(self, family: &Family) -> &'static str {
        match (self, family) {
            (Self::AtMs, _) => "every event",
            (Self::DowntimeMs, Family::Connect(_)) => "worker_restart and rolling_restart",
            (Self::DowntimeMs, Family::Streams(_)) => "instance_restart and rolling_restart",
            (Self::DurationMs, Family::Connect(_)) => "gc_pause",
            (Self::DurationMs, Family::Streams(_)) => "gc_pause and slow_processing",
            (Self::IntervalMs, _) => "rolling_restart",
        }
    }
}

/// A Connect event's field, if it has it.
fn connect_event_field(event: &mut Event, field: EventField) -> Option<&mut u64> {
    match (event, field) {
        (
            Event::WorkerRestart { downtime_ms, .. } | Event::RollingRestart { downtime_ms, .. },
            EventField::DowntimeMs,
        ) => Some(downtime_ms),
        (Event::GcPause { duration_ms, .. }, EventField::DurationMs) => Some(duration_ms),
        (Event::RollingRestart { interval_ms, .. }, EventField::IntervalMs) => Some(interval_ms),
        _ => None,
    }
}

/// A Streams event's field, if it has it.
fn streams_event_field(event: &mut StreamsEvent, field: EventField) -> Option<&mut u64> {
    use StreamsEvent as E;
    match (event, field) {
        (
            E::InstanceRestart { downtime_ms, .. } | E::RollingRestart { downtime_ms, .. },
            EventField::DowntimeMs,
        ) => Some(downtime_ms),
        (
            E::GcPause { duration_ms, .. } | E::SlowProcessing { duration_ms, .. },
            EventField::DurationMs,
        ) => Some(duration_ms),
        (E::RollingRestart { interval_ms, .. }, EventField::IntervalMs) => Some(interval_ms),
        _ => None,
    }
}

/// The field `field` of event `index`, and the event's label; `None` when
/// the event has no such field (the index is checked by the caller).
fn event_field(family: &mut Family, index: usize, field: EventField) -> Option<&mut u64> {
    match family {
        Family::Connect(c) => {
            let e = c.events.get_mut(index)?;
            match field {
                EventField::AtMs => Some(&mut e.at_ms),
                _ => connect_event_field(&mut e.event, field),
            }
        }
        Family::Streams(s) => {
            let e = s.events.get_mut(index)?;
            match field {
                EventField::AtMs => Some(&mut e.at_ms),
                _ => streams_event_field(&mut e.event, field),
            }
        }
    }
}

fn event_labels(family: &Family) -> Vec<String> {
    match family {
        Family::Connect(c) => c.events.iter().map(|e| e.event.label()).collect(),
        Family::Streams(s) => s.events.iter().map(|e| e.event.label()).collect(),
    }
}

/// `config` with `key` set to `value`, through serde under Kafka's
/// property names (the format's own mapping, never field names).
fn with_key<C: Serialize + DeserializeOwned>(
    config: &C,
    key: &str,
    value: u64,
) -> Result<C, SweepError> {
    let mut map = match serde_json::to_value(config) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    map.insert(key.to_string(), serde_json::Value::from(value));
    serde_json::from_value(serde_json::Value::Object(map)).map_err(|e| {
        SweepError::invalid("parameter.key", format!("({key}) cannot be {value}: {e}"))
    })
}

/// The compared variants' labels.
fn labels(scenario: &Scenario) -> Vec<&str> {
    scenario.variant_labels()
}

impl SweepParameter {
    /// The parameter's short name, as errors and the CSV header use it:
    /// the Kafka key, the cluster field or `events[i].<field>`.
    pub fn name(&self) -> String {
        match self {
            Self::Config { key, .. } => key.clone(),
            Self::Cluster { field, index: None } => field.as_str().to_string(),
            Self::Cluster {
                field,
                index: Some(i),
            } => format!("{}[{i}]", field.as_str()),
            Self::Event { event, field } => format!("events[{event}].{}", field.as_str()),
        }
    }

    /// Reads the CLI's `--key`: a Kafka config key (`session.timeout.ms`),
    /// a cluster field (`workers`, `changelog_records`) or an event field
    /// (`events[0].downtime_ms`). `variant` and `index` go with a config
    /// key and a cluster field.
    pub fn parse_key(
        key: &str,
        variant: Option<&str>,
        index: Option<usize>,
    ) -> Result<Self, SweepError> {
        let key = key.trim();
        if let Some(rest) = key.strip_prefix("events[") {
            let parsed = rest
                .split_once("].")
                .and_then(|(i, f)| Some((i.parse::<usize>().ok()?, EventField::parse(f)?)));
            let Some((event, field)) = parsed else {
                return Err(SweepError::invalid(
                    "parameter",
                    format!("`{}` is not an event field; write events[<index>].<at_ms|downtime_ms|duration_ms|interval_ms>", shorten(key)),
                ));
            };
            return Ok(Self::Event { event, field });
        }
        if let Some(field) = ClusterField::parse(key) {
            return Ok(Self::Cluster { field, index });
        }
        if key.contains('.') {
            return Ok(Self::Config {
                key: key.to_string(),
                variant: variant.map(str::to_string),
            });
        }
        let fields: Vec<&str> = ClusterField::ALL.iter().map(|f| f.as_str()).collect();
        Err(SweepError::invalid(
            "parameter",
            format!(
                "`{}` is neither a Kafka config key, a cluster field ({}) nor an event field (events[<index>].downtime_ms …)",
                shorten(key),
                fields.join(", ")
            ),
        ))
    }

    /// Checks the parameter against `scenario`: it exists in this family,
    /// its variant, entry or event exists; and says what it takes.
    pub(crate) fn resolve(&self, scenario: &Scenario) -> Result<Target, SweepError> {
        match self {
            Self::Config { key, variant } => resolve_config(scenario, key, variant.as_deref()),
            Self::Cluster { field, index } => resolve_cluster(scenario, *field, *index),
            Self::Event { event, field } => resolve_event(scenario, *event, *field),
        }
    }

    /// Writes `value` into `scenario` (resolved before: errors here are
    /// only values a config type cannot hold).
    pub(crate) fn apply(&self, scenario: &mut Scenario, value: u64) -> Result<(), SweepError> {
        match self {
            Self::Config { key, variant } => {
                let only = variant.as_deref();
                let wanted = |label: &str| only.is_none_or(|v| v == label);
                match &mut scenario.family {
                    Family::Connect(c) => {
                        for v in c.compare.iter_mut().filter(|v| wanted(&v.label)) {
                            v.config = with_key(&v.config, key, value)?;
                        }
                    }
                    Family::Streams(s) => {
                        for v in s.compare.iter_mut().filter(|v| wanted(&v.label)) {
                            v.config = with_key(&v.config, key, value)?;
                        }
                    }
                }
            }
            Self::Cluster { field, index } => apply_cluster(scenario, *field, *index, value),
            Self::Event { event, field } => {
                if let Some(slot) = event_field(&mut scenario.family, *event, *field) {
                    *slot = value;
                }
            }
        }
        Ok(())
    }
}

fn shorten(s: &str) -> String {
    s.chars().take(80).collect()
}

/// The compared variants a config parameter sets (indices), checking the label.
fn variant_indices(scenario: &Scenario, variant: Option<&str>) -> Result<Vec<usize>, SweepError> {
    let labels = labels(scenario);
    let Some(wanted) = variant else {
        return Ok((0..labels.len()).collect());
    };
    let hits: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == wanted).collect();
    match hits.len() {
        1 => Ok(hits),
        0 => Err(SweepError::invalid(
            "parameter.variant",
            format!(
                "names `{}`, but the compared variants are {}",
                shorten(wanted),
                labels
                    .iter()
                    .map(|l| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
        _ => Err(SweepError::invalid(
            "parameter.variant",
            format!(
                "names `{}`, which labels {} compared variants; give them distinct labels",
                shorten(wanted),
                hits.len()
            ),
        )),
    }
}

fn unknown_key(key: &str, numeric: Vec<&str>, choices: &[&str]) -> SweepError {
    let reason = if choices.contains(&key) {
        format!(
            "is `{key}`, which takes a name, not a number: compare its values as variants instead"
        )
    } else {
        format!(
            "is `{}`, not a numeric config key of this family",
            shorten(key)
        )
    };
    SweepError::invalid(
        "parameter.key",
        format!("{reason} (numeric keys: {})", numeric.join(", ")),
    )
}

fn find_key<R>(keys: &'static [NumericKey<R>], key: &str) -> Option<&'static NumericKey<R>> {
    keys.iter().find(|k| k.name == key)
}

fn config_target<R>(k: &NumericKey<R>, default: &R, first_variant: &R, label: String) -> Target {
    Target {
        range: AllowedRange::of(k.range),
        unit: k.unit,
        kafka_default: Some((k.value)(default)),
        scenario_value: (k.value)(first_variant),
        label,
    }
}

fn resolve_config(
    scenario: &Scenario,
    key: &str,
    variant: Option<&str>,
) -> Result<Target, SweepError> {
    let indices = variant_indices(scenario, variant)?;
    let label = match variant {
        Some(v) => format!("{key} ({v})"),
        None => key.to_string(),
    };
    let first = indices.first().copied().unwrap_or(0);
    match &scenario.family {
        Family::Connect(c) => {
            let k = find_key(CONNECT_KEYS, key).ok_or_else(|| {
                unknown_key(
                    key,
                    super::numeric_config_keys(scenario.family_kind()),
                    CONNECT_CHOICE_KEYS,
                )
            })?;
            let mine = c
                .compare
                .get(first)
                .map(|v| c.cluster.config.merged(&v.config))
                .unwrap_or_default();
            Ok(config_target(
                k,
                &ConnectConfig::default().resolve(),
                &mine.resolve(),
                label,
            ))
        }
        Family::Streams(s) => {
            let k = find_key(STREAMS_KEYS, key).ok_or_else(|| {
                unknown_key(
                    key,
                    super::numeric_config_keys(scenario.family_kind()),
                    STREAMS_CHOICE_KEYS,
                )
            })?;
            let version = s.app.version();
            let mine = s
                .compare
                .get(first)
                .map(|v| s.app.config.merged(&v.config))
                .unwrap_or_default();
            Ok(config_target(
                k,
                &StreamsConfig::default().resolve(version),
                &mine.resolve(version),
                label,
            ))
        }
    }
}

/// The entries (`connect.connectors` or `streams.subtopologies`) a cluster
/// field sets: every one, or the one at `index`.
fn entry_indices(len: usize, index: Option<usize>, list: &str) -> Result<Vec<usize>, SweepError> {
    if len == 0 {
        return Err(SweepError::invalid(
            "parameter.field",
            format!("sets a field of {list}, but the scenario lists none"),
        ));
    }
    match index {
        None => Ok((0..len).collect()),
        Some(i) if i < len => Ok(vec![i]),
        Some(i) => Err(SweepError::invalid(
            "parameter.index",
            format!("is {i}, but {list} has {len} entries (0 to {})", len - 1),
        )),
    }
}

fn resolve_cluster(
    scenario: &Scenario,
    field: ClusterField,
    index: Option<usize>,
) -> Result<Target, SweepError> {
    let family = scenario.family_kind();
    if field.is_connect() != matches!(scenario.family, Family::Connect(_)) {
        let own: Vec<&str> = ClusterField::ALL
            .iter()
            .filter(|f| f.is_connect() == (family == crate::scenario::FamilyKind::Connect))
            .map(|f| f.as_str())
            .collect();
        return Err(SweepError::invalid(
            "parameter.field",
            format!(
                "is `{}`, which a {family} scenario does not have (it has {})",
                field.as_str(),
                own.join(", ")
            ),
        ));
    }
    if index.is_some() && !field.has_entries() {
        return Err(SweepError::invalid(
            "parameter.index",
            format!(
                "is set, but `{}` is one number, not a field of a list's entries",
                field.as_str()
            ),
        ));
    }
    let label = match index {
        Some(i) => format!("{} [{i}]", field.label()),
        None => field.label().to_string(),
    };
    let value = match &scenario.family {
        Family::Connect(c) => connect_value(c, field, index)?,
        Family::Streams(s) => streams_value(s, field, index)?,
    };
    Ok(Target {
        range: field.range(),
        unit: field.unit(),
        kafka_default: None,
        scenario_value: value,
        label,
    })
}

fn connect_value(
    c: &ConnectScenario,
    field: ClusterField,
    index: Option<usize>,
) -> Result<u64, SweepError> {
    if field == ClusterField::Workers {
        return Ok(u64::from(c.cluster.workers));
    }
    let entries = entry_indices(c.cluster.connectors.len(), index, "connect.connectors")?;
    let spec = &c.cluster.connectors[entries[0]];
    Ok(match field {
        ClusterField::Connectors => u64::from(spec.count.unwrap_or(1)),
        _ => u64::from(spec.tasks),
    })
}

fn streams_value(
    s: &StreamsScenario,
    field: ClusterField,
    index: Option<usize>,
) -> Result<u64, SweepError> {
    let app = &s.app;
    match field {
        ClusterField::Instances => return Ok(u64::from(app.instances)),
        ClusterField::Threads => {
            return Ok(u64::from(
                app.config.resolve(app.version()).num_stream_threads,
            ))
        }
        ClusterField::RestoreRecordsPerSec => {
            return Ok(u64::from(app.timings.restore_records_per_sec))
        }
        _ => {}
    }
    let entries = entry_indices(app.subtopologies.len(), index, "streams.subtopologies")?;
    if field == ClusterField::ChangelogRecords {
        if let Some(&i) = entries.iter().find(|&&i| !app.subtopologies[i].stateful) {
            return Err(SweepError::invalid(
                "parameter.field",
                format!(
                    "is changelog_records, but streams.subtopologies[{i}] is stateless (it has no changelog); pick a stateful entry with `index`"
                ),
            ));
        }
    }
    let spec = &app.subtopologies[entries[0]];
    Ok(match field {
        ClusterField::Partitions => u64::from(spec.partitions),
        _ => spec.changelog_records,
    })
}

/// A count as the `u32` the format stores (the range check keeps it within).
fn as_u32(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn apply_cluster(scenario: &mut Scenario, field: ClusterField, index: Option<usize>, value: u64) {
    let pick = |i: usize| index.is_none_or(|only| only == i);
    match &mut scenario.family {
        Family::Connect(c) => match field {
            ClusterField::Workers => c.cluster.workers = as_u32(value),
            _ => {
                for (i, spec) in c.cluster.connectors.iter_mut().enumerate() {
                    if !pick(i) {
                        continue;
                    }
                    match field {
                        ClusterField::Connectors => spec.count = Some(as_u32(value)),
                        _ => spec.tasks = as_u32(value),
                    }
                }
            }
        },
        Family::Streams(s) => {
            let app = &mut s.app;
            match field {
                ClusterField::Instances => app.instances = as_u32(value),
                ClusterField::Threads => app.config.num_stream_threads = Some(as_u32(value)),
                ClusterField::RestoreRecordsPerSec => {
                    app.timings.restore_records_per_sec = as_u32(value)
                }
                _ => {
                    for (i, spec) in app.subtopologies.iter_mut().enumerate() {
                        if !pick(i) {
                            continue;
                        }
                        match field {
                            ClusterField::Partitions => spec.partitions = as_u32(value),
                            _ => spec.changelog_records = value,
                        }
                    }
                }
            }
        }
    }
}

fn resolve_event(
    scenario: &Scenario,
    event: usize,
    field: EventField,
) -> Result<Target, SweepError> {
    let labels = event_labels(&scenario.family);
    let Some(event_label) = labels.get(event) else {
        let has = match labels.len() {
            0 => "the scenario has no events".to_string(),
            n => format!("the scenario has {n} (0 to {})", n - 1),
        };
        return Err(SweepError::invalid(
            "parameter.event",
            format!("is {event}, but {has}"),
        ));
    };
    let mut family = scenario.family.clone();
    let Some(value) = event_field(&mut family, event, field).map(|v| *v) else {
        return Err(SweepError::invalid(
            "parameter.field",
            format!(
                "is {}, but events[{event}] ({event_label}) has none; {} have one",
                field.as_str(),
                field.owners(&scenario.family)
            ),
        ));
    };
    let what = match field {
        EventField::AtMs => "time of",
        EventField::DowntimeMs => "downtime of",
        EventField::DurationMs => "length of",
        EventField::IntervalMs => "interval of",
    };
    Ok(Target {
        range: AllowedRange::of(&ranges::PLAYGROUND_TIME_MS),
        unit: ValueUnit::Ms,
        kafka_default: None,
        scenario_value: value,
        label: format!("{what} “{event_label}”"),
    })
}
