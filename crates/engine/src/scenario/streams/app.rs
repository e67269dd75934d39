//! The Streams application at time 0 (`KafkaStreams` instances, the topology
//! by counts, the simulator timings), the scenario that holds it and the
//! variants it compares.

use serde::{Deserialize, Serialize};

use super::{is_default, is_false, is_zero_u32, is_zero_u64};
use super::{KafkaVersion, StreamsConfig, StreamsTimedEvent};
use crate::streams::ProcessId;

/// The Streams part of a scenario: the application at time 0, the variants
/// to compare and the timed event script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamsScenario {
    /// The application.
    pub app: StreamsApp,
    /// The settings to compare side by side (default: eager vs cooperative).
    pub compare: Vec<StreamsVariant>,
    /// The timed event script.
    pub events: Vec<StreamsTimedEvent>,
}

/// One compared Streams setting: a label and the config keys it layers over
/// the application's config.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamsVariant {
    /// Column title, e.g. `eager` or `cooperative`.
    pub label: String,
    /// Keys layered over the application's config.
    #[serde(default, skip_serializing_if = "is_default")]
    pub config: StreamsConfig,
    /// The Kafka Streams version this column's instances run, if not the
    /// application's (e.g. an eager column needs 3.9 or older: 4.0 dropped
    /// EAGER, KAFKA-18839).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kafka_version: Option<KafkaVersion>,
}

/// A Streams application at time 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamsApp {
    /// `KafkaStreams` instances running at time 0, named `instance-1` … `instance-N`.
    pub instances: u32,
    /// The Kafka Streams version the instances run, `major.minor` (default:
    /// the newest release, 4.3). It decides defaults and behaviours that
    /// changed (`streams::versions`): `session.timeout.ms` (10 s before
    /// 3.0), the rebalance protocol (eager before 2.4, cooperative only from
    /// 4.0), the task assignor (`StickyTaskAssignor` before 2.6), how tasks
    /// go to threads, and the state updater (3.8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kafka_version: Option<KafkaVersion>,
    /// Each instance's `ProcessId`, by instance number: `instance-1` first,
    /// then the instances that join later. They decide
    /// `HighAvailabilityTaskAssignor`'s round-robin and every tie (clients
    /// sort by `UUID.compareTo`). An instance without an entry gets a
    /// random UUID derived from the scenario's `seed`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub process_ids: Vec<ProcessId>,
    /// The topology: each subtopology has one task per input partition,
    /// `<subtopology>_<partition>`.
    pub subtopologies: Vec<SubtopologySpec>,
    /// A new application: the instances at time 0 have no local state. By
    /// default the application was already running: each instance starts
    /// with the checkpointed state of its tasks in the steady layout.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cold_start: bool,
    /// Application-wide configuration (Kafka property names).
    #[serde(default, skip_serializing_if = "is_default")]
    pub config: StreamsConfig,
    /// How fast state restores and how long task work takes.
    #[serde(default, skip_serializing_if = "is_default")]
    pub timings: StreamsTimings,
}

/// One subtopology, or `count` alike subtopologies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubtopologySpec {
    /// Input partitions: the number of tasks.
    pub partitions: u32,
    /// True when it has a state store backed by a changelog topic.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stateful: bool,
    /// Records in each task's changelog at time 0 (its end-offset sum).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub changelog_records: u64,
    /// Records appended to each task's changelog per second while it runs.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub changelog_records_per_sec: u32,
    /// Expand into this many alike subtopologies (a rule, so big topologies stay short).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
}

/// Simulator timings: not Kafka configs but the model of how long real work
/// takes. Restoration runs per stream thread: its restore consumer
/// (`StoreChangelogReader`, on the state updater thread from 3.8) reads
/// `restore_records_per_sec`, shared by the copies it restores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StreamsTimings {
    /// Records one stream thread (its state updater from 3.8) restores per
    /// second from changelogs, shared by every copy it restores.
    pub restore_records_per_sec: u32,
    /// Initialising a task (opening stores, first poll).
    pub task_init_ms: u32,
    /// Suspending a revoked task (commit, flush, checkpoint).
    pub task_commit_ms: u32,
    /// From process start to the first JoinGroup.
    pub instance_start_ms: u32,
    /// One request round trip to the group coordinator.
    pub coordinator_rtt_ms: u32,
}

impl Default for StreamsTimings {
    fn default() -> Self {
        Self {
            restore_records_per_sec: 20_000,
            task_init_ms: 200,
            task_commit_ms: 100,
            instance_start_ms: 2_000,
            coordinator_rtt_ms: 20,
        }
    }
}

/// The name of the n-th instance (1-based).
pub fn instance_name(n: u32) -> String {
    format!("instance-{n}")
}

impl StreamsApp {
    /// The application's Kafka Streams version.
    pub fn version(&self) -> KafkaVersion {
        self.kafka_version.unwrap_or(KafkaVersion::DEFAULT)
    }

    /// The subtopologies expanded: (partitions, stateful, records, records/s).
    pub fn expanded_subtopologies(&self) -> Vec<&SubtopologySpec> {
        self.subtopologies
            .iter()
            .flat_map(|s| std::iter::repeat_n(s, s.count.unwrap_or(1) as usize))
            .collect()
    }

    /// Tasks in the topology.
    pub fn task_count(&self) -> u64 {
        self.subtopologies
            .iter()
            .map(|s| u64::from(s.partitions) * u64::from(s.count.unwrap_or(1)))
            .sum()
    }
}
