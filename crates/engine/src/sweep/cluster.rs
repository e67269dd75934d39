//! The cluster-shape numbers a sweep can step: what each takes, where the
//! scenario stands, and how a value is written into it.

use super::config_keys::as_u32;
use super::parameter::{AllowedRange, Target, ValueUnit};
use super::SweepError;
use crate::scenario::{
    limits, ranges, ConnectScenario, Family, FamilyKind, Scenario, StreamsScenario,
};

/// A cluster-shape number a sweep can step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// The entries (`connect.connectors` or `streams.subtopologies`) a cluster
/// field sets: every one, or the one at `index`.
fn entry_indices(len: usize, index: Option<usize>, list: &str) -> Result<Vec<usize>, SweepError> {
    if len == 0 {
        return Err(SweepError::invalid(
            "key",
            format!("sets a field of {list}, but the scenario lists none"),
        ));
    }
    match index {
        None => Ok((0..len).collect()),
        Some(i) if i < len => Ok(vec![i]),
        Some(i) => Err(SweepError::invalid(
            "index",
            format!("is {i}, but {list} has {len} entries (0 to {})", len - 1),
        )),
    }
}

pub(super) fn resolve_cluster(
    scenario: &Scenario,
    field: ClusterField,
    index: Option<usize>,
) -> Result<Target, SweepError> {
    let family = scenario.family_kind();
    if field.is_connect() != matches!(scenario.family, Family::Connect(_)) {
        let own: Vec<&str> = ClusterField::ALL
            .iter()
            .filter(|f| f.is_connect() == (family == FamilyKind::Connect))
            .map(|f| f.as_str())
            .collect();
        return Err(SweepError::invalid(
            "key",
            format!(
                "is `{}`, which a {family} scenario does not have (it has {})",
                field.as_str(),
                own.join(", ")
            ),
        ));
    }
    if index.is_some() && !field.has_entries() {
        return Err(SweepError::invalid(
            "index",
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
                "key",
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

pub(super) fn apply_cluster(
    scenario: &mut Scenario,
    field: ClusterField,
    index: Option<usize>,
    value: u64,
) {
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
