//! The Kafka config keys a sweep can step: every numeric key the scenario
//! format (and so the editor) has, per family, with the range its value
//! must lie in (`scenario::ranges`, Kafka's own where Kafka has one), how
//! to read it from a resolved config and how to set it in a scenario's.
//! The tests check each name against the format's own serde mapping.

use crate::scenario::ranges::{self, Range};
use crate::scenario::{
    ConnectConfig, FamilyKind, ResolvedConnectConfig, ResolvedStreamsConfig, StreamsConfig,
};

use super::parameter::ValueUnit;

/// One numeric key of a family's config `C`, resolved `R`.
pub(crate) struct NumericKey<R: 'static, C: 'static> {
    /// Kafka's property name.
    pub(crate) name: &'static str,
    /// The values a scenario accepts for it.
    pub(crate) range: &'static Range,
    /// What its numbers count.
    pub(crate) unit: ValueUnit,
    /// Its value in a resolved config (so also Kafka's default, from a
    /// config that sets nothing).
    pub(crate) value: fn(&R) -> u64,
    /// Sets it in a scenario's config (the range check keeps the value
    /// within the field's type).
    pub(crate) set: fn(&mut C, u64),
}

/// A value as the `u32` Kafka reads an `int` key as (the ranges keep it within).
pub(crate) fn as_u32(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// `heartbeat.interval.ms`: at least 1 ms and below `session.timeout.ms`
/// (`Heartbeat`'s constructor), which the broker caps at
/// `group.max.session.timeout.ms`. Each point is checked against its own
/// session timeout as well.
static HEARTBEAT_INTERVAL_MS: Range = Range {
    min: 1,
    max: ranges::GROUP_MAX_SESSION_TIMEOUT_MS - 1,
    who: "Kafka",
    why: "at least 1 ms and lower than session.timeout.ms, which the broker caps at group.max.session.timeout.ms",
};

/// Connect's numeric keys (`DistributedConfig`), in the editor's order.
pub(crate) static CONNECT_KEYS: &[NumericKey<ResolvedConnectConfig, ConnectConfig>] = &[
    NumericKey {
        name: "scheduled.rebalance.max.delay.ms",
        range: &ranges::CONNECT_DELAY_MS,
        unit: ValueUnit::Ms,
        value: |r| u64::from(r.scheduled_rebalance_max_delay_ms),
        set: |c, v| c.scheduled_rebalance_max_delay_ms = Some(as_u32(v)),
    },
    NumericKey {
        name: "session.timeout.ms",
        range: &ranges::SESSION_TIMEOUT_MS,
        unit: ValueUnit::Ms,
        value: |r| u64::from(r.session_timeout_ms),
        set: |c, v| c.session_timeout_ms = Some(as_u32(v)),
    },
    NumericKey {
        name: "heartbeat.interval.ms",
        range: &HEARTBEAT_INTERVAL_MS,
        unit: ValueUnit::Ms,
        value: |r| u64::from(r.heartbeat_interval_ms),
        set: |c, v| c.heartbeat_interval_ms = Some(as_u32(v)),
    },
    NumericKey {
        name: "rebalance.timeout.ms",
        range: &ranges::CONNECT_REBALANCE_TIMEOUT_MS,
        unit: ValueUnit::Ms,
        value: |r| u64::from(r.rebalance_timeout_ms),
        set: |c, v| c.rebalance_timeout_ms = Some(as_u32(v)),
    },
    NumericKey {
        name: "task.shutdown.graceful.timeout.ms",
        range: &ranges::PLAYGROUND_TIME_MS,
        unit: ValueUnit::Ms,
        value: |r| u64::from(r.task_shutdown_graceful_timeout_ms),
        set: |c, v| c.task_shutdown_graceful_timeout_ms = Some(as_u32(v)),
    },
    NumericKey {
        name: "inter.worker.key.ttl.ms",
        range: &ranges::CONNECT_DELAY_MS,
        unit: ValueUnit::Ms,
        value: |r| u64::from(r.inter_worker_key_ttl_ms),
        set: |c, v| c.inter_worker_key_ttl_ms = Some(as_u32(v)),
    },
    NumericKey {
        name: "group.initial.rebalance.delay.ms",
        range: &ranges::PLAYGROUND_TIME_MS,
        unit: ValueUnit::Ms,
        value: |r| u64::from(r.group_initial_rebalance_delay_ms),
        set: |c, v| c.group_initial_rebalance_delay_ms = Some(as_u32(v)),
    },
];

/// Streams' numeric keys (`StreamsConfig`, `ConsumerConfig`).
pub(crate) static STREAMS_KEYS: &[NumericKey<ResolvedStreamsConfig, StreamsConfig>] = &[
    NumericKey {
        name: "num.stream.threads",
        range: &ranges::NUM_STREAM_THREADS,
        unit: ValueUnit::Count,
        value: |r| u64::from(r.num_stream_threads),
        set: |c, v| c.num_stream_threads = Some(as_u32(v)),
    },
    NumericKey {
        name: "acceptable.recovery.lag",
        range: &ranges::ACCEPTABLE_RECOVERY_LAG,
        unit: ValueUnit::Records,
        value: |r| r.acceptable_recovery_lag,
        set: |c, v| c.acceptable_recovery_lag = Some(v),
    },
    NumericKey {
        name: "max.warmup.replicas",
        range: &ranges::MAX_WARMUP_REPLICAS,
        unit: ValueUnit::Count,
        value: |r| u64::from(r.max_warmup_replicas),
        set: |c, v| c.max_warmup_replicas = Some(as_u32(v)),
    },
    NumericKey {
        name: "num.standby.replicas",
        range: &ranges::NUM_STANDBY_REPLICAS,
        unit: ValueUnit::Count,
        value: |r| u64::from(r.num_standby_replicas),
        set: |c, v| c.num_standby_replicas = Some(as_u32(v)),
    },
    NumericKey {
        name: "probing.rebalance.interval.ms",
        range: &ranges::PROBING_REBALANCE_INTERVAL_MS,
        unit: ValueUnit::Ms,
        value: |r| r.probing_rebalance_interval_ms,
        set: |c, v| c.probing_rebalance_interval_ms = Some(v),
    },
    NumericKey {
        name: "session.timeout.ms",
        range: &ranges::SESSION_TIMEOUT_MS,
        unit: ValueUnit::Ms,
        value: |r| r.session_timeout_ms,
        set: |c, v| c.session_timeout_ms = Some(v),
    },
    NumericKey {
        name: "heartbeat.interval.ms",
        range: &HEARTBEAT_INTERVAL_MS,
        unit: ValueUnit::Ms,
        value: |r| r.heartbeat_interval_ms,
        set: |c, v| c.heartbeat_interval_ms = Some(v),
    },
    NumericKey {
        name: "max.poll.interval.ms",
        range: &ranges::MAX_POLL_INTERVAL_MS,
        unit: ValueUnit::Ms,
        value: |r| r.max_poll_interval_ms,
        set: |c, v| c.max_poll_interval_ms = Some(v),
    },
    NumericKey {
        name: "state.cleanup.delay.ms",
        range: &ranges::PLAYGROUND_TIME_MS,
        unit: ValueUnit::Ms,
        value: |r| r.state_cleanup_delay_ms,
        set: |c, v| c.state_cleanup_delay_ms = Some(v),
    },
    NumericKey {
        name: "group.initial.rebalance.delay.ms",
        range: &ranges::PLAYGROUND_TIME_MS,
        unit: ValueUnit::Ms,
        value: |r| r.group_initial_rebalance_delay_ms,
        set: |c, v| c.group_initial_rebalance_delay_ms = Some(v),
    },
];

/// Keys of the format that take a name, not a number: a sweep refuses them
/// and says to compare their values as variants.
pub(crate) const CONNECT_CHOICE_KEYS: &[&str] = &["kafka_version", "connect.protocol"];
/// See [`CONNECT_CHOICE_KEYS`].
pub(crate) const STREAMS_CHOICE_KEYS: &[&str] = &[
    "processing.guarantee",
    "group.instance.id",
    "upgrade.from",
    "internal.task.assignor.class",
];

/// The Kafka config keys a sweep can step for a family, in the editor's order.
pub fn numeric_config_keys(family: FamilyKind) -> Vec<&'static str> {
    match family {
        FamilyKind::Connect => CONNECT_KEYS.iter().map(|k| k.name).collect(),
        FamilyKind::Streams => STREAMS_KEYS.iter().map(|k| k.name).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key the editor lists (`ConnectConfig::defaults`) is either
    /// sweepable or a named choice, and the table reads Kafka's default.
    #[test]
    fn every_connect_key_of_the_editor_is_covered() {
        let resolved = ConnectConfig::default().resolve();
        for (key, default_json) in ConnectConfig::defaults() {
            match CONNECT_KEYS.iter().find(|k| k.name == key) {
                Some(k) => assert_eq!(
                    (k.value)(&resolved).to_string(),
                    default_json,
                    "{key}: the table reads a different field"
                ),
                None => assert!(CONNECT_CHOICE_KEYS.contains(&key), "{key} is not covered"),
            }
        }
        assert_eq!(
            CONNECT_KEYS.len() + CONNECT_CHOICE_KEYS.len(),
            ConnectConfig::defaults().len()
        );
        for k in CONNECT_KEYS {
            let mut config = ConnectConfig::default();
            (k.set)(&mut config, 4_321);
            assert_eq!(
                serde_json::to_value(&config).unwrap(),
                serde_json::json!({ k.name: 4_321 }),
                "{}: the setter writes a different key",
                k.name
            );
        }
    }

    /// Each Streams key is a key of the format, and a config setting only
    /// that key to a value reads back that value.
    #[test]
    fn streams_keys_are_the_formats_and_read_their_own_field() {
        for k in STREAMS_KEYS {
            assert!(StreamsConfig::is_known_key(k.name), "{}", k.name);
            let value = k.range.min.max(1) + 1;
            let config: StreamsConfig =
                serde_json::from_value(serde_json::json!({ k.name: value })).unwrap();
            let r = config.resolve(crate::scenario::KafkaVersion::DEFAULT);
            assert_eq!((k.value)(&r), value, "{}", k.name);
            let mut set = StreamsConfig::default();
            (k.set)(&mut set, value);
            assert_eq!(set, config, "{}: the setter writes a different key", k.name);
        }
        for key in STREAMS_CHOICE_KEYS {
            assert!(StreamsConfig::is_known_key(key), "{key}");
        }
    }
}
