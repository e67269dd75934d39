//! Streams configuration under Kafka's property names (`StreamsConfig`): the
//! keys a scenario may set, how variants layer them, and the defaults filled in
//! per version (`streams::versions`).

use serde::{Deserialize, Serialize};

use super::{GroupProtocol, KafkaVersion};
use crate::streams::partition_assignor::AssignorKind;
use crate::streams::versions::{runs_cooperative, streams_release};

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
    /// `num.stream.threads` (1): stream threads, each its own group member;
    /// the client's capacity.
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
    /// `group.instance.id`: set, the instances' threads are static members
    /// named `<value>-<n>-<thread>` (instance `n`; Kafka appends `-<thread>`
    /// per StreamThread).
    #[serde(
        rename = "group.instance.id",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub group_instance_id: Option<String>,
    /// `upgrade.from`: `0100` … `2.3` force the EAGER protocol up to 3.9;
    /// later values have no effect on the protocol
    /// (`AssignorConfiguration.rebalanceProtocol`). 4.0 refuses 0.10.0 … 2.3
    /// (KAFKA-18839), 4.2 no longer has them (KAFKA-19703).
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
    /// `group.protocol` (`classic`; `streams` from 4.1, KIP-1071).
    #[serde(
        rename = "group.protocol",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub group_protocol: Option<GroupProtocol>,
    /// `__state.updater.enabled__` (internal, 3.4–4.2): restoration on a
    /// state updater thread per stream thread. Default false up to 3.7,
    /// true from 3.8 (KAFKA-10199); 4.3 removed the flag (always on).
    #[serde(
        rename = "__state.updater.enabled__",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub state_updater_enabled: Option<bool>,
    /// Group config `streams.heartbeat.interval.ms` (broker
    /// `group.streams.heartbeat.interval.ms`, 5000; bounds 5000 … 15000):
    /// the streams protocol's heartbeat, set on the group, not the client.
    #[serde(
        rename = "streams.heartbeat.interval.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub streams_heartbeat_interval_ms: Option<u64>,
    /// Group config `streams.session.timeout.ms` (broker
    /// `group.streams.session.timeout.ms`, 45000; bounds 45000 … 60000).
    #[serde(
        rename = "streams.session.timeout.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub streams_session_timeout_ms: Option<u64>,
    /// Group config `streams.num.standby.replicas` (broker
    /// `group.streams.num.standby.replicas`, 0; at most 2): the streams
    /// protocol ignores the client's `num.standby.replicas`.
    #[serde(
        rename = "streams.num.standby.replicas",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub streams_num_standby_replicas: Option<u32>,
    /// Group config `streams.initial.rebalance.delay.ms` (broker
    /// `group.streams.initial.rebalance.delay.ms`, 3000; 4.2+).
    #[serde(
        rename = "streams.initial.rebalance.delay.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub streams_initial_rebalance_delay_ms: Option<u64>,
    /// Group config `streams.assignment.interval.ms` (broker
    /// `group.streams.assignment.interval.ms`, 1000; 0 … 15000; 4.3+, KIP-1263).
    #[serde(
        rename = "streams.assignment.interval.ms",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub streams_assignment_interval_ms: Option<u64>,
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
    /// `group.protocol`.
    pub group_protocol: GroupProtocol,
    /// `__state.updater.enabled__` as set (`None`: the release's default).
    pub state_updater_enabled: Option<bool>,
    /// `streams.heartbeat.interval.ms` (group config).
    pub streams_heartbeat_interval_ms: u64,
    /// `streams.session.timeout.ms` (group config).
    pub streams_session_timeout_ms: u64,
    /// `streams.num.standby.replicas` (group config).
    pub streams_num_standby_replicas: u32,
    /// `streams.initial.rebalance.delay.ms` (group config; no effect before 4.2).
    pub streams_initial_rebalance_delay_ms: u64,
    /// `streams.assignment.interval.ms` (group config; no effect before 4.3).
    pub streams_assignment_interval_ms: u64,
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
            group_initial_rebalance_delay_ms,
            group_protocol,
            state_updater_enabled,
            streams_heartbeat_interval_ms,
            streams_session_timeout_ms,
            streams_num_standby_replicas,
            streams_initial_rebalance_delay_ms,
            streams_assignment_interval_ms
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
            group_protocol: self.group_protocol.unwrap_or_default(),
            state_updater_enabled: self.state_updater_enabled,
            streams_heartbeat_interval_ms: self.streams_heartbeat_interval_ms.unwrap_or(5_000),
            streams_session_timeout_ms: self.streams_session_timeout_ms.unwrap_or(45_000),
            streams_num_standby_replicas: self.streams_num_standby_replicas.unwrap_or(0),
            streams_initial_rebalance_delay_ms: self
                .streams_initial_rebalance_delay_ms
                .unwrap_or(3_000),
            streams_assignment_interval_ms: self.streams_assignment_interval_ms.unwrap_or(1_000),
        }
    }
}

impl StreamsConfig {
    /// `self` without the keys named in `keys` (Kafka property names);
    /// names that are not keys are ignored.
    pub fn without(&self, keys: &[String]) -> StreamsConfig {
        let mut config = self.clone();
        for key in keys {
            if let Some((_, clear)) = KEYS.iter().find(|(name, _)| name == key) {
                clear(&mut config);
            }
        }
        config
    }

    /// True when `key` is a Streams config key this playground knows.
    pub fn is_known_key(key: &str) -> bool {
        KEYS.iter().any(|(name, _)| *name == key)
    }
}

/// Clears one key of a [`StreamsConfig`].
type Unset = fn(&mut StreamsConfig);

/// Every key of [`StreamsConfig`] (its serde names) and how to unset it.
/// A table rather than a round trip through `serde_json::Value`: that put a
/// second serialiser and deserialiser of the config into the simulator's
/// WebAssembly module, which runs `without` for every `remove_config`.
const KEYS: &[(&str, Unset)] = &[
    ("num.stream.threads", |c| c.num_stream_threads = None),
    ("processing.guarantee", |c| c.processing_guarantee = None),
    ("acceptable.recovery.lag", |c| {
        c.acceptable_recovery_lag = None
    }),
    ("max.warmup.replicas", |c| c.max_warmup_replicas = None),
    ("num.standby.replicas", |c| c.num_standby_replicas = None),
    ("probing.rebalance.interval.ms", |c| {
        c.probing_rebalance_interval_ms = None
    }),
    ("session.timeout.ms", |c| c.session_timeout_ms = None),
    ("heartbeat.interval.ms", |c| c.heartbeat_interval_ms = None),
    ("max.poll.interval.ms", |c| c.max_poll_interval_ms = None),
    ("group.instance.id", |c| c.group_instance_id = None),
    ("upgrade.from", |c| c.upgrade_from = None),
    ("internal.task.assignor.class", |c| {
        c.internal_task_assignor_class = None
    }),
    ("state.cleanup.delay.ms", |c| {
        c.state_cleanup_delay_ms = None
    }),
    ("group.initial.rebalance.delay.ms", |c| {
        c.group_initial_rebalance_delay_ms = None
    }),
    ("group.protocol", |c| c.group_protocol = None),
    ("__state.updater.enabled__", |c| {
        c.state_updater_enabled = None
    }),
    ("streams.heartbeat.interval.ms", |c| {
        c.streams_heartbeat_interval_ms = None
    }),
    ("streams.session.timeout.ms", |c| {
        c.streams_session_timeout_ms = None
    }),
    ("streams.num.standby.replicas", |c| {
        c.streams_num_standby_replicas = None
    }),
    ("streams.initial.rebalance.delay.ms", |c| {
        c.streams_initial_rebalance_delay_ms = None
    }),
    ("streams.assignment.interval.ms", |c| {
        c.streams_assignment_interval_ms = None
    }),
];

impl ResolvedStreamsConfig {
    /// The rebalance protocol this member runs (`StreamsPartitionAssignor.supportedProtocols`): EAGER when
    /// its code predates 2.4 or, up to 3.9, `upgrade.from` names 2.3 or older.
    pub fn cooperative(&self, version: KafkaVersion) -> bool {
        runs_cooperative(version, self.upgrade_from)
    }
}

#[cfg(test)]
mod key_table_tests {
    use super::*;

    /// The serde names of `StreamsConfig`'s fields, from the message serde
    /// writes for an unknown key.
    fn serde_keys() -> Vec<String> {
        let err = serde_json::from_str::<StreamsConfig>(r#"{"no.such.key": 1}"#).unwrap_err();
        let text = err.to_string();
        let list = text.split("expected one of ").nth(1).unwrap();
        list.split(", ")
            .map(|k| k.split('`').nth(1).unwrap().to_string())
            .collect()
    }

    #[test]
    fn the_key_table_names_every_field_once() {
        let table: Vec<String> = KEYS.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(table, serde_keys());
    }

    #[test]
    fn without_unsets_exactly_the_named_key() {
        let full: StreamsConfig = serde_json::from_str(
            r#"{"num.stream.threads": 2, "processing.guarantee": "exactly_once_v2",
                "acceptable.recovery.lag": 5, "max.warmup.replicas": 3,
                "num.standby.replicas": 1, "probing.rebalance.interval.ms": 60000,
                "session.timeout.ms": 30000, "heartbeat.interval.ms": 1000,
                "max.poll.interval.ms": 60000, "group.instance.id": "app",
                "upgrade.from": "2.3", "internal.task.assignor.class": "StickyTaskAssignor",
                "state.cleanup.delay.ms": 1, "group.initial.rebalance.delay.ms": 0,
                "group.protocol": "streams", "__state.updater.enabled__": true,
                "streams.heartbeat.interval.ms": 6000, "streams.session.timeout.ms": 50000,
                "streams.num.standby.replicas": 1, "streams.initial.rebalance.delay.ms": 3000,
                "streams.assignment.interval.ms": 1000}"#,
        )
        .unwrap();
        let as_value = serde_json::to_value(&full).unwrap();
        assert_eq!(as_value.as_object().unwrap().len(), KEYS.len());
        for (key, _) in KEYS {
            let mut expected = as_value.clone();
            expected.as_object_mut().unwrap().remove(*key);
            let got = serde_json::to_value(full.without(&[key.to_string()])).unwrap();
            assert_eq!(got, expected, "{key}");
            assert!(StreamsConfig::is_known_key(key));
        }
        assert_eq!(full.without(&["no.such.key".to_string()]), full);
        assert!(!StreamsConfig::is_known_key("no.such.key"));
    }
}
