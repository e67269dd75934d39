//! A Kafka Streams application as a scenario describes it: instances, a
//! topology by counts (subtopologies × partitions), Kafka's configs under
//! their own names, and the Streams event script.

use serde::{Deserialize, Serialize};

pub use crate::kafka_version::KafkaVersion;

use super::{limits, ScenarioError};
use crate::streams::partition_assignor::AssignorKind;
use crate::streams::versions::{runs_cooperative, streams_release};

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
}

/// A Streams application at time 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamsApp {
    /// `KafkaStreams` instances running at time 0, named `instance-1` … `instance-N`.
    pub instances: u32,
    /// The Kafka Streams version the instances run, `major.minor` (default
    /// `3.8`). It decides defaults that changed: `session.timeout.ms` (10 s
    /// before 3.0), the rebalance protocol (eager before 2.4) and the task
    /// assignor (`StickyTaskAssignor` before 2.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kafka_version: Option<KafkaVersion>,
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

/// `processing.guarantee`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProcessingGuarantee {
    /// `at_least_once` (default): a crash keeps the last checkpoint.
    #[default]
    #[serde(rename = "at_least_once")]
    AtLeastOnce,
    /// `exactly_once_v2`: a running task's checkpoint is deleted, so a crash
    /// wipes local state (`ProcessorStateManager`).
    #[serde(rename = "exactly_once_v2", alias = "exactly_once")]
    ExactlyOnceV2,
}

/// Streams configuration as written in a scenario: every key optional, absent
/// meaning Kafka's default for the instance's version (`StreamsConfig`;
/// version-dependent defaults in `streams::versions`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamsConfig {
    /// `num.stream.threads` (1): the client's capacity.
    #[serde(
        rename = "num.stream.threads",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub num_stream_threads: Option<u32>,
    /// `processing.guarantee` (`at_least_once`).
    #[serde(
        rename = "processing.guarantee",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub processing_guarantee: Option<ProcessingGuarantee>,
    /// `acceptable.recovery.lag` (10000): a client this close to the changelog end is caught up.
    #[serde(
        rename = "acceptable.recovery.lag",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub acceptable_recovery_lag: Option<u64>,
    /// `max.warmup.replicas` (2): group-wide warmup budget per rebalance.
    #[serde(
        rename = "max.warmup.replicas",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub max_warmup_replicas: Option<u32>,
    /// `num.standby.replicas` (0).
    #[serde(
        rename = "num.standby.replicas",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub num_standby_replicas: Option<u32>,
    /// `probing.rebalance.interval.ms` (600000, minimum 60000).
    #[serde(
        rename = "probing.rebalance.interval.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub probing_rebalance_interval_ms: Option<u64>,
    /// `session.timeout.ms` (45000 from 3.0, 10000 before).
    #[serde(
        rename = "session.timeout.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub session_timeout_ms: Option<u64>,
    /// `heartbeat.interval.ms` (3000).
    #[serde(
        rename = "heartbeat.interval.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub heartbeat_interval_ms: Option<u64>,
    /// `max.poll.interval.ms` (300000); also the rebalance timeout.
    #[serde(
        rename = "max.poll.interval.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub max_poll_interval_ms: Option<u64>,
    /// `group.instance.id`: set, the instances are static members named
    /// `<value>-<n>` (Kafka appends `-<thread>` per StreamThread).
    #[serde(
        rename = "group.instance.id",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub group_instance_id: Option<String>,
    /// `upgrade.from`: `0100` … `2.3` force the EAGER protocol; later values
    /// have no effect on the protocol (`AssignorConfiguration.rebalanceProtocol`).
    #[serde(
        rename = "upgrade.from",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub upgrade_from: Option<KafkaVersion>,
    /// `internal.task.assignor.class`: `HighAvailabilityTaskAssignor` (2.6+)
    /// or `StickyTaskAssignor` (the pre-2.6 default); short class names.
    #[serde(
        rename = "internal.task.assignor.class",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub internal_task_assignor_class: Option<TaskAssignorClass>,
    /// `state.cleanup.delay.ms` (600000): unowned task directories are deleted this long after.
    #[serde(
        rename = "state.cleanup.delay.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub state_cleanup_delay_ms: Option<u64>,
    /// Broker `group.initial.rebalance.delay.ms` (3000).
    #[serde(
        rename = "group.initial.rebalance.delay.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub group_initial_rebalance_delay_ms: Option<u64>,
}

/// The task assignor a leader runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskAssignorClass {
    /// KIP-441's assignor with warmups and probing rebalances (default since 2.6).
    HighAvailabilityTaskAssignor,
    /// The legacy sticky assignor (default before 2.6).
    StickyTaskAssignor,
}

impl From<AssignorKind> for TaskAssignorClass {
    fn from(kind: AssignorKind) -> Self {
        match kind {
            AssignorKind::HighAvailability => Self::HighAvailabilityTaskAssignor,
            AssignorKind::Sticky => Self::StickyTaskAssignor,
        }
    }
}

impl From<TaskAssignorClass> for AssignorKind {
    fn from(class: TaskAssignorClass) -> Self {
        match class {
            TaskAssignorClass::HighAvailabilityTaskAssignor => Self::HighAvailability,
            TaskAssignorClass::StickyTaskAssignor => Self::Sticky,
        }
    }
}

/// Streams configuration with every default filled in for one version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResolvedStreamsConfig {
    /// `num.stream.threads`.
    pub num_stream_threads: u32,
    /// `processing.guarantee`.
    pub processing_guarantee: ProcessingGuarantee,
    /// `acceptable.recovery.lag`.
    pub acceptable_recovery_lag: u64,
    /// `max.warmup.replicas`.
    pub max_warmup_replicas: u32,
    /// `num.standby.replicas`.
    pub num_standby_replicas: u32,
    /// `probing.rebalance.interval.ms`.
    pub probing_rebalance_interval_ms: u64,
    /// `session.timeout.ms`.
    pub session_timeout_ms: u64,
    /// `heartbeat.interval.ms`.
    pub heartbeat_interval_ms: u64,
    /// `max.poll.interval.ms`.
    pub max_poll_interval_ms: u64,
    /// `group.instance.id` prefix.
    pub group_instance_id: Option<String>,
    /// `upgrade.from`.
    pub upgrade_from: Option<KafkaVersion>,
    /// The task assignor.
    pub task_assignor: TaskAssignorClass,
    /// `state.cleanup.delay.ms`.
    pub state_cleanup_delay_ms: u64,
    /// `group.initial.rebalance.delay.ms`.
    pub group_initial_rebalance_delay_ms: u64,
}

impl StreamsConfig {
    /// `self` with every key that `over` sets replaced by `over`'s value.
    pub fn merged(&self, over: &StreamsConfig) -> StreamsConfig {
        macro_rules! pick {
            ($($f:ident),*) => { StreamsConfig { $( $f: over.$f.clone().or_else(|| self.$f.clone()), )* } };
        }
        pick!(
            num_stream_threads,
            processing_guarantee,
            acceptable_recovery_lag,
            max_warmup_replicas,
            num_standby_replicas,
            probing_rebalance_interval_ms,
            session_timeout_ms,
            heartbeat_interval_ms,
            max_poll_interval_ms,
            group_instance_id,
            upgrade_from,
            internal_task_assignor_class,
            state_cleanup_delay_ms,
            group_initial_rebalance_delay_ms
        )
    }

    /// Fills in Kafka's defaults for `version` (`streams::versions`): `session.timeout.ms`
    /// is 10 s before 3.0 (KIP-735) and the assignor is `StickyTaskAssignor`
    /// before 2.6 (KIP-441).
    pub fn resolve(&self, version: KafkaVersion) -> ResolvedStreamsConfig {
        let release = streams_release(version);
        ResolvedStreamsConfig {
            num_stream_threads: self.num_stream_threads.unwrap_or(1),
            processing_guarantee: self.processing_guarantee.unwrap_or_default(),
            acceptable_recovery_lag: self.acceptable_recovery_lag.unwrap_or(10_000),
            max_warmup_replicas: self.max_warmup_replicas.unwrap_or(2),
            num_standby_replicas: self.num_standby_replicas.unwrap_or(0),
            probing_rebalance_interval_ms: self.probing_rebalance_interval_ms.unwrap_or(600_000),
            session_timeout_ms: self
                .session_timeout_ms
                .unwrap_or(release.default_session_timeout_ms),
            heartbeat_interval_ms: self.heartbeat_interval_ms.unwrap_or(3_000),
            max_poll_interval_ms: self.max_poll_interval_ms.unwrap_or(300_000),
            group_instance_id: self.group_instance_id.clone(),
            upgrade_from: self.upgrade_from,
            task_assignor: self
                .internal_task_assignor_class
                .unwrap_or(TaskAssignorClass::from(release.default_task_assignor)),
            state_cleanup_delay_ms: self.state_cleanup_delay_ms.unwrap_or(600_000),
            group_initial_rebalance_delay_ms: self
                .group_initial_rebalance_delay_ms
                .unwrap_or(3_000),
        }
    }
}

impl StreamsConfig {
    /// `self` without the keys named in `keys` (Kafka property names).
    pub fn without(&self, keys: &[String]) -> StreamsConfig {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        if let Some(map) = value.as_object_mut() {
            for k in keys {
                map.remove(k);
            }
        }
        serde_json::from_value(value).unwrap_or_else(|_| self.clone())
    }

    /// True when `key` is a Streams config key this playground knows.
    pub fn is_known_key(key: &str) -> bool {
        let mut map = serde_json::Map::new();
        map.insert(key.to_string(), serde_json::Value::Null);
        serde_json::from_value::<StreamsConfig>(serde_json::Value::Object(map)).is_ok()
    }
}

impl ResolvedStreamsConfig {
    /// The rebalance protocol this member runs (`StreamsPartitionAssignor.supportedProtocols`): EAGER when
    /// its code predates 2.4 or `upgrade.from` names 2.3 or older.
    pub fn cooperative(&self, version: KafkaVersion) -> bool {
        runs_cooperative(version, self.upgrade_from)
    }
}

/// Simulator timings: not Kafka configs but the model of how long real work
/// takes. Restoration runs per task at `restore_records_per_sec` (`StoreChangelogReader`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StreamsTimings {
    /// Records one task restores per second from its changelog.
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

/// A Streams event at a point in simulated time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsTimedEvent {
    /// When it happens, in ms from the start.
    pub at_ms: u64,
    /// What happens.
    #[serde(flatten)]
    pub event: StreamsEvent,
}

/// Something that happens to a Streams application. Instance names are
/// `instance-<n>`; instances that join later continue the numbering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum StreamsEvent {
    /// New instances start (scale out), without local state.
    InstanceJoin {
        /// How many (default 1).
        #[serde(default = "one", skip_serializing_if = "is_one")]
        count: u32,
        /// Their Kafka Streams version, if not the application's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kafka_version: Option<KafkaVersion>,
        /// Config keys that differ from the application's.
        #[serde(default, skip_serializing_if = "is_default")]
        config: StreamsConfig,
    },
    /// `KafkaStreams.close()`: tasks are committed and checkpointed, but the
    /// main consumer sends no LeaveGroup (`internal.leave.group.on.close=false`): the group notices after
    /// `session.timeout.ms` (scale in).
    InstanceStop {
        /// The instance.
        instance: String,
    },
    /// The process dies; under exactly-once its local state is lost.
    InstanceCrash {
        /// The instance.
        instance: String,
    },
    /// The instance goes away and comes back after `downtime_ms` with its
    /// state directory (a bounce or a redeploy, optionally an upgrade).
    InstanceRestart {
        /// The instance.
        instance: String,
        /// How long the process is down.
        downtime_ms: u64,
        /// Killed rather than closed.
        #[serde(default, skip_serializing_if = "is_false")]
        crash: bool,
        /// The version it comes back with.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kafka_version: Option<KafkaVersion>,
        /// Config keys it comes back with.
        #[serde(default, skip_serializing_if = "is_default")]
        config: StreamsConfig,
        /// Config keys they no longer set (the second bounce of an upgrade removes `upgrade.from`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        remove_config: Vec<String>,
    },
    /// Every instance running at `at_ms` restarted in name order, one every
    /// `interval_ms`, each down for `downtime_ms` (a Kubernetes rollout).
    RollingRestart {
        /// How long each process is down.
        downtime_ms: u64,
        /// Time between two instances' restarts.
        interval_ms: u64,
        /// Restart only the first this many (default: all).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u32>,
        /// Highest-numbered instance first, as a Kubernetes StatefulSet rolls its pods.
        #[serde(default, skip_serializing_if = "is_false")]
        reverse_order: bool,
        /// The version they come back with (a rolling upgrade).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kafka_version: Option<KafkaVersion>,
        /// Config keys they come back with.
        #[serde(default, skip_serializing_if = "is_default")]
        config: StreamsConfig,
        /// Config keys they no longer set (the second bounce of an upgrade removes `upgrade.from`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        remove_config: Vec<String>,
    },
    /// The JVM freezes (a long GC pause): no heartbeats, no processing.
    GcPause {
        /// The instance.
        instance: String,
        /// How long.
        duration_ms: u64,
    },
    /// A record handler blocks the instance's stream thread: it does not
    /// call `poll()` for `duration_ms` while its heartbeat thread runs on.
    SlowProcessing {
        /// The instance.
        instance: String,
        /// How long the thread is blocked.
        duration_ms: u64,
    },
}

impl StreamsEvent {
    /// A short label for markers, e.g. `instance-2 crashes`.
    pub fn label(&self) -> String {
        match self {
            Self::InstanceJoin { count: 1, .. } => "an instance joins".to_string(),
            Self::InstanceJoin { count, .. } => format!("{count} instances join"),
            Self::InstanceStop { instance } => format!("{instance} stops"),
            Self::InstanceCrash { instance } => format!("{instance} crashes"),
            Self::InstanceRestart { instance, .. } => format!("{instance} restarts"),
            Self::RollingRestart { .. } => "rolling restart".to_string(),
            Self::GcPause { instance, .. } => format!("{instance} freezes (GC)"),
            Self::SlowProcessing { instance, .. } => format!("{instance} blocks in a handler"),
        }
    }

    /// The instance the event names, if any.
    pub fn instance(&self) -> Option<&str> {
        match self {
            Self::InstanceStop { instance }
            | Self::InstanceCrash { instance }
            | Self::InstanceRestart { instance, .. }
            | Self::GcPause { instance, .. }
            | Self::SlowProcessing { instance, .. } => Some(instance),
            Self::InstanceJoin { .. } | Self::RollingRestart { .. } => None,
        }
    }
}

fn one() -> u32 {
    1
}
fn is_one(v: &u32) -> bool {
    *v == 1
}
fn is_false(v: &bool) -> bool {
    !*v
}
fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}
fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
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

/// Checks a config's values against Kafka's validators (`StreamsConfig`).
pub(crate) fn validate_config(
    config: &StreamsConfig,
    version: KafkaVersion,
    at: &str,
) -> Result<(), ScenarioError> {
    let r = config.resolve(version);
    let field = |key: &str| format!("{at}.{key}");
    if r.num_stream_threads == 0 || r.num_stream_threads > limits::MAX_STREAM_THREADS {
        return Err(ScenarioError::invalid(
            field("num.stream.threads"),
            format!("must be between 1 and {}", limits::MAX_STREAM_THREADS),
        ));
    }
    if r.max_warmup_replicas == 0 {
        return Err(ScenarioError::invalid(
            field("max.warmup.replicas"),
            "must be at least 1 (Kafka's minimum)",
        ));
    }
    if r.num_standby_replicas > 10 {
        return Err(ScenarioError::invalid(
            field("num.standby.replicas"),
            "must be at most 10 in the playground",
        ));
    }
    if r.probing_rebalance_interval_ms < 60_000
        || r.probing_rebalance_interval_ms > limits::MAX_TIME_MS
    {
        return Err(ScenarioError::invalid(
            field("probing.rebalance.interval.ms"),
            "must be between 60000 (Kafka's minimum) and one day",
        ));
    }
    for (key, v) in [
        ("session.timeout.ms", r.session_timeout_ms),
        ("heartbeat.interval.ms", r.heartbeat_interval_ms),
        ("max.poll.interval.ms", r.max_poll_interval_ms),
    ] {
        if v == 0 || v > limits::MAX_TIME_MS {
            return Err(ScenarioError::invalid(
                field(key),
                "must be between 1 ms and one day",
            ));
        }
    }
    if r.heartbeat_interval_ms >= r.session_timeout_ms {
        return Err(ScenarioError::invalid(
            field("heartbeat.interval.ms"),
            "must be lower than session.timeout.ms (Kafka requires it)",
        ));
    }
    for (key, v) in [
        ("state.cleanup.delay.ms", r.state_cleanup_delay_ms),
        (
            "group.initial.rebalance.delay.ms",
            r.group_initial_rebalance_delay_ms,
        ),
    ] {
        if v > limits::MAX_TIME_MS {
            return Err(ScenarioError::invalid(
                field(key),
                "must be at most one day",
            ));
        }
    }
    if let Some(id) = &r.group_instance_id {
        super::check_name(&field("group.instance.id"), id)?;
    }
    Ok(())
}

fn check_keys(keys: &[String], at: &str) -> Result<(), ScenarioError> {
    match keys.iter().find(|k| !StreamsConfig::is_known_key(k)) {
        Some(k) => Err(ScenarioError::invalid(
            format!("{at}.remove_config"),
            format!(
                "names `{}`, which is not a Streams config key",
                k.chars().take(80).collect::<String>()
            ),
        )),
        None if keys.len() > 32 => Err(ScenarioError::invalid(
            format!("{at}.remove_config"),
            "lists more than 32 keys",
        )),
        None => Ok(()),
    }
}

/// Checks the application and its events; errors name the field and why.
pub(crate) fn validate(s: &StreamsScenario) -> Result<(), ScenarioError> {
    use limits::*;
    let app = &s.app;
    let version = app.version();
    if app.instances > MAX_INSTANCES {
        return Err(ScenarioError::invalid(
            "streams.instances",
            format!(
                "{} instances is more than the playground simulates (at most {MAX_INSTANCES})",
                app.instances
            ),
        ));
    }
    if app.subtopologies.is_empty() {
        return Err(ScenarioError::invalid(
            "streams.subtopologies",
            "must list at least one subtopology",
        ));
    }
    // Before the subtopologies: each must restore-lag behind this rate, so a
    // zero rate would otherwise be reported against the first of them.
    if app.timings.restore_records_per_sec == 0 {
        return Err(ScenarioError::invalid(
            "streams.timings.restore_records_per_sec",
            "must be greater than 0",
        ));
    }
    let mut tasks: u64 = 0;
    let mut subtopologies: u64 = 0;
    for (i, st) in app.subtopologies.iter().enumerate() {
        let at = format!("streams.subtopologies[{i}]");
        if st.partitions == 0 {
            return Err(ScenarioError::invalid(
                format!("{at}.partitions"),
                "must be at least 1",
            ));
        }
        if st.count == Some(0) {
            return Err(ScenarioError::invalid(
                format!("{at}.count"),
                "must be at least 1",
            ));
        }
        subtopologies += u64::from(st.count.unwrap_or(1));
        tasks += u64::from(st.partitions) * u64::from(st.count.unwrap_or(1));
        if tasks > MAX_STREAMS_TASKS || subtopologies > u64::from(MAX_SUBTOPOLOGIES) {
            return Err(ScenarioError::invalid(
                format!("{at}.partitions"),
                format!("more than {MAX_STREAMS_TASKS} tasks or {MAX_SUBTOPOLOGIES} subtopologies in total"),
            ));
        }
        if st.changelog_records > MAX_CHANGELOG_RECORDS {
            return Err(ScenarioError::invalid(
                format!("{at}.changelog_records"),
                format!("must be at most {MAX_CHANGELOG_RECORDS}"),
            ));
        }
        if (st.changelog_records > 0 || st.changelog_records_per_sec > 0) && !st.stateful {
            return Err(ScenarioError::invalid(
                format!("{at}.changelog_records"),
                "needs `stateful: true` (a stateless task has no changelog)",
            ));
        }
        if u64::from(st.changelog_records_per_sec) >= u64::from(app.timings.restore_records_per_sec)
        {
            return Err(ScenarioError::invalid(
                format!("{at}.changelog_records_per_sec"),
                "must be lower than timings.restore_records_per_sec, or standbys never catch up",
            ));
        }
    }
    validate_config(&app.config, version, "streams.config")?;
    for (i, v) in s.compare.iter().enumerate() {
        validate_config(
            &app.config.merged(&v.config),
            version,
            &format!("compare[{i}].config"),
        )?;
    }
    let mut instances_ever = u64::from(app.instances);
    let mut expanded: usize = 0;
    for (i, e) in s.events.iter().enumerate() {
        let at = format!("events[{i}]");
        if e.at_ms > MAX_TIME_MS {
            return Err(ScenarioError::invalid(
                format!("{at}.at_ms"),
                "is later than one day",
            ));
        }
        expanded += 1;
        let day = |field: &str, ms: u64| {
            if ms > MAX_TIME_MS {
                Err(ScenarioError::invalid(
                    format!("{at}.{field}"),
                    "is longer than one day",
                ))
            } else {
                Ok(())
            }
        };
        let known = |w: &str, ever: u64| {
            let ok = w
                .strip_prefix("instance-")
                .and_then(|n| n.parse::<u64>().ok())
                .is_some_and(|n| n >= 1 && n <= ever && instance_name(n as u32) == w);
            if ok {
                Ok(())
            } else {
                Err(ScenarioError::invalid(
                    format!("{at}.instance"),
                    format!("names `{w}`, but the instances are instance-1 … instance-{ever}"),
                ))
            }
        };
        match &e.event {
            StreamsEvent::InstanceJoin {
                count,
                kafka_version,
                config,
            } => {
                if *count == 0 {
                    return Err(ScenarioError::invalid(
                        format!("{at}.count"),
                        "must be at least 1",
                    ));
                }
                instances_ever += u64::from(*count);
                validate_config(
                    &app.config.merged(config),
                    kafka_version.unwrap_or(version),
                    &format!("{at}.config"),
                )?;
            }
            StreamsEvent::InstanceStop { instance } | StreamsEvent::InstanceCrash { instance } => {
                known(instance, instances_ever)?
            }
            StreamsEvent::InstanceRestart {
                instance,
                downtime_ms,
                kafka_version,
                config,
                remove_config,
                ..
            } => {
                known(instance, instances_ever)?;
                check_keys(remove_config, &at)?;
                day("downtime_ms", *downtime_ms)?;
                validate_config(
                    &app.config.merged(config),
                    kafka_version.unwrap_or(version),
                    &format!("{at}.config"),
                )?;
            }
            StreamsEvent::RollingRestart {
                downtime_ms,
                interval_ms,
                limit,
                kafka_version,
                config,
                remove_config,
                ..
            } => {
                check_keys(remove_config, &at)?;
                day("downtime_ms", *downtime_ms)?;
                day("interval_ms", *interval_ms)?;
                let n = limit.map_or(instances_ever, |l| u64::from(l).min(instances_ever));
                if interval_ms.saturating_mul(n) > MAX_TIME_MS {
                    return Err(ScenarioError::invalid(
                        format!("{at}.interval_ms"),
                        "makes the rolling restart last longer than one day",
                    ));
                }
                expanded += n as usize;
                validate_config(
                    &app.config.merged(config),
                    kafka_version.unwrap_or(version),
                    &format!("{at}.config"),
                )?;
            }
            StreamsEvent::GcPause {
                instance,
                duration_ms,
            }
            | StreamsEvent::SlowProcessing {
                instance,
                duration_ms,
            } => {
                known(instance, instances_ever)?;
                day("duration_ms", *duration_ms)?;
            }
        }
        if instances_ever > u64::from(MAX_INSTANCES) {
            return Err(ScenarioError::invalid(
                at,
                format!("brings the number of instances over {MAX_INSTANCES}, the most the playground simulates"),
            ));
        }
        if expanded > MAX_EVENTS {
            return Err(ScenarioError::invalid(
                "events",
                format!("more than {MAX_EVENTS} events"),
            ));
        }
    }
    Ok(())
}
