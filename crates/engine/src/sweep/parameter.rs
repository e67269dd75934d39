//! What a sweep steps: a Kafka config key of the compared variants, a
//! cluster-shape number or an event's time or duration; the range its
//! values must lie in, where Kafka's default lies, and how a value is
//! written into a scenario.

use serde::{Deserialize, Serialize};

use super::cluster::{apply_cluster, resolve_cluster, ClusterField};
use super::config_keys::{
    NumericKey, CONNECT_CHOICE_KEYS, CONNECT_KEYS, STREAMS_CHOICE_KEYS, STREAMS_KEYS,
};
use super::event_field::{event_field, resolve_event, EventField};
use super::SweepError;
use crate::budget::thousands;
use crate::scenario::ranges::Range;
use crate::scenario::{ConnectConfig, Family, Scenario, StreamsConfig};
use crate::wording::duration;

/// The one input a sweep steps. In a spec's JSON (and on the CLI) it is a
/// `key` — a Kafka config key, a cluster field or `events[<i>].<field>` —
/// with `variant` for a config key and `index` for a field of the
/// connectors or subtopologies ([`SweepParameter::parse_key`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SweepParameter {
    /// A numeric Kafka config key (its property name), set in the config of
    /// every compared variant, or only of the one labelled `variant`.
    Config {
        /// E.g. `scheduled.rebalance.max.delay.ms`.
        key: String,
        /// The compared variant's label; absent: every variant.
        variant: Option<String>,
    },
    /// A number of the cluster's shape.
    Cluster {
        /// Which number.
        field: ClusterField,
        /// For a field of `connect.connectors` or `streams.subtopologies`:
        /// which entry; absent: every entry.
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

    /// A range's bound as people read it: like [`ValueUnit::format`], but
    /// a duration of a day or more in days, rounded down to a tenth (Kafka's
    /// `Integer.MAX_VALUE` ms reads `24.8 days`, not `596 h 31 min 23.647 s`).
    pub fn format_bound(self, value: u64) -> String {
        const TENTH_OF_A_DAY: u64 = 8_640_000;
        match self {
            ValueUnit::Ms if value >= 10 * TENTH_OF_A_DAY => {
                let tenths = value / TENTH_OF_A_DAY;
                match (tenths / 10, tenths % 10) {
                    (1, 0) => "1 day".to_string(),
                    (days, 0) => format!("{days} days"),
                    (days, tenth) => format!("{days}.{tenth} days"),
                }
            }
            _ => self.format(value),
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
    pub(super) fn of(range: &Range) -> Self {
        Self {
            min: range.min,
            max: range.max,
            source: format!("{} ({})", range.who, range.why),
        }
    }

    pub(super) fn playground(min: u64, max: u64, why: &str) -> Self {
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
    pub(super) range: AllowedRange,
    pub(super) unit: ValueUnit,
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

    /// Reads a spec's (and the CLI's) `key`: a Kafka config key
    /// (`session.timeout.ms`), a cluster field (`workers`,
    /// `changelog_records`) or an event field (`events[0].downtime_ms`).
    /// `variant` goes only with a config key, `index` only with a cluster
    /// field of the connectors or subtopologies.
    pub fn parse_key(
        key: &str,
        variant: Option<&str>,
        index: Option<usize>,
    ) -> Result<Self, SweepError> {
        let key = key.trim();
        let parameter = if let Some(rest) = key.strip_prefix("events[") {
            let parsed = rest
                .split_once("].")
                .and_then(|(i, f)| Some((i.parse::<usize>().ok()?, EventField::parse(f)?)));
            let Some((event, field)) = parsed else {
                return Err(SweepError::invalid(
                    "key",
                    format!("`{}` is not an event field; write events[<index>].<at_ms|downtime_ms|duration_ms|interval_ms>", shorten(key)),
                ));
            };
            Self::Event { event, field }
        } else if let Some(field) = ClusterField::parse(key) {
            Self::Cluster { field, index }
        } else if key.contains('.') {
            Self::Config {
                key: key.to_string(),
                variant: variant.map(str::to_string),
            }
        } else {
            let fields: Vec<&str> = ClusterField::ALL.iter().map(|f| f.as_str()).collect();
            return Err(SweepError::invalid(
                "key",
                format!(
                    "is `{}`, neither a Kafka config key, a cluster field ({}) nor an event field (events[<index>].downtime_ms …)",
                    shorten(key),
                    fields.join(", ")
                ),
            ));
        };
        if variant.is_some() && !matches!(parameter, Self::Config { .. }) {
            return Err(SweepError::invalid(
                "variant",
                "is set, but only a config key is set per variant; leave it out",
            ));
        }
        if index.is_some() && !matches!(parameter, Self::Cluster { .. }) {
            return Err(SweepError::invalid(
                "index",
                "is set, but only a cluster field picks an entry; leave it out",
            ));
        }
        Ok(parameter)
    }

    /// The parameter as a spec writes it: `key`, `variant`, `index`.
    pub fn key(&self) -> (String, Option<&str>, Option<usize>) {
        match self {
            Self::Config { key, variant } => (key.clone(), variant.as_deref(), None),
            Self::Cluster { field, index } => (field.as_str().to_string(), None, *index),
            Self::Event { event, field } => {
                (format!("events[{event}].{}", field.as_str()), None, None)
            }
        }
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

    /// Writes `value` into `scenario` (resolved and range-checked before).
    pub(crate) fn apply(&self, scenario: &mut Scenario, value: u64) {
        match self {
            Self::Config { key, variant } => {
                let only = variant.as_deref();
                let wanted = |label: &str| only.is_none_or(|v| v == label);
                match &mut scenario.family {
                    Family::Connect(c) => {
                        if let Some(k) = find_key(CONNECT_KEYS, key) {
                            for v in c.compare.iter_mut().filter(|v| wanted(&v.label)) {
                                (k.set)(&mut v.config, value);
                            }
                        }
                    }
                    Family::Streams(s) => {
                        if let Some(k) = find_key(STREAMS_KEYS, key) {
                            for v in s.compare.iter_mut().filter(|v| wanted(&v.label)) {
                                (k.set)(&mut v.config, value);
                            }
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
    }
}

pub(super) fn shorten(s: &str) -> String {
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
            "variant",
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
            "variant",
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
        "key",
        format!("{reason} (numeric keys: {})", numeric.join(", ")),
    )
}

fn find_key<R, C>(
    keys: &'static [NumericKey<R, C>],
    key: &str,
) -> Option<&'static NumericKey<R, C>> {
    keys.iter().find(|k| k.name == key)
}

fn config_target<R, C>(
    k: &NumericKey<R, C>,
    default: &R,
    first_variant: &R,
    label: String,
) -> Target {
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
