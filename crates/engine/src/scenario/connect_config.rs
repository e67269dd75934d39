//! Connect worker (and broker) configuration under Kafka's own property names,
//! with Kafka's defaults (`DistributedConfig`, `WorkerConfig` and the broker's
//! `GroupCoordinatorConfig`).
//!
//! Every field is optional in a scenario file: absent means "Kafka's default",
//! which keeps links short. The same type serves as the cluster-wide config, a
//! compared variant's overrides and one worker's overrides; [`ConnectConfig::merged`]
//! layers them and [`ConnectConfig::resolve`] fills in the defaults.

use serde::{Deserialize, Serialize};

use crate::connect::protocol::ConnectProtocol;
use crate::connect::versions;
use crate::kafka_version::KafkaVersion;

/// Declares the config types. Each default is an expression that may read
/// `$version`, the version already resolved: a default that changed between
/// releases (`connect.protocol`) is taken from the version the worker runs.
macro_rules! connect_config {
    (version = $version:ident; $( $(#[$doc:meta])* $field:ident : $ty:ty = $default:expr, $key:literal; )*) => {
        /// Connect configuration as written in a scenario: every key optional.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct ConnectConfig {
            $(
                $(#[$doc])*
                #[serde(rename = $key, default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
        }

        /// Connect configuration with every default filled in.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
        pub struct ResolvedConnectConfig {
            $(
                $(#[$doc])*
                #[serde(rename = $key)]
                pub $field: $ty,
            )*
        }

        impl ConnectConfig {
            /// `self` with every key that `over` sets replaced by `over`'s value.
            pub fn merged(&self, over: &ConnectConfig) -> ConnectConfig {
                ConnectConfig { $( $field: over.$field.clone().or_else(|| self.$field.clone()), )* }
            }

            /// Fills in Kafka's defaults, those of the release `kafka_version` names.
            pub fn resolve(&self) -> ResolvedConnectConfig {
                let $version: KafkaVersion = self.kafka_version.unwrap_or(versions::NEWEST);
                ResolvedConnectConfig { $( $field: self.$field.clone().unwrap_or_else(|| $default), )* }
            }

            /// Every key with its Kafka default, as shown in the editor.
            pub fn defaults() -> Vec<(&'static str, String)> {
                let d = ConnectConfig::default().resolve();
                vec![ $( ($key, serde_json::to_string(&d.$field).unwrap_or_default()), )* ]
            }
        }
    };
}

connect_config! {
    version = version;
    /// The Kafka release the workers run, `major.minor` or
    /// `major.minor.patch` (default: the newest, 4.3). It decides which
    /// assignor fixes apply and `connect.protocol`'s default
    /// (`connect::versions`); 2.3.0 to 4.3 are modelled.
    kafka_version: KafkaVersion = version, "kafka_version";
    /// `connect.protocol`: eager, compatible or sessioned (default since 2.4.0,
    /// compatible in 2.3).
    connect_protocol: ConnectProtocol = versions::connect_release(version).default_connect_protocol, "connect.protocol";
    /// `scheduled.rebalance.max.delay.ms`: how long departed workers' work is held back (5 min).
    scheduled_rebalance_max_delay_ms: u32 = 300_000, "scheduled.rebalance.max.delay.ms";
    /// `session.timeout.ms`: Connect's default is 10 s (the consumer's is 45 s).
    session_timeout_ms: u32 = 10_000, "session.timeout.ms";
    /// `heartbeat.interval.ms`: members learn of a rebalance within one interval.
    heartbeat_interval_ms: u32 = 3_000, "heartbeat.interval.ms";
    /// `rebalance.timeout.ms`: how long the join phase waits for known members.
    rebalance_timeout_ms: u32 = 60_000, "rebalance.timeout.ms";
    /// `task.shutdown.graceful.timeout.ms`: per revoked task during a rebalance.
    task_shutdown_graceful_timeout_ms: u32 = 5_000, "task.shutdown.graceful.timeout.ms";
    /// `inter.worker.key.ttl.ms`: session-key rotation period under `sessioned` (1 h).
    inter_worker_key_ttl_ms: u32 = 3_600_000, "inter.worker.key.ttl.ms";
    /// Broker `group.initial.rebalance.delay.ms`: first rebalance of an empty group is held this long.
    group_initial_rebalance_delay_ms: u32 = 3_000, "group.initial.rebalance.delay.ms";
}

/// Bounds a scenario's config values must respect: Kafka's own ranges
/// where it has them, the playground's elsewhere (`scenario::ranges`).
pub(crate) fn validate(
    config: &ConnectConfig,
    at: &str,
) -> Result<(), crate::scenario::ScenarioError> {
    use crate::scenario::ranges::{self, *};
    let r = config.resolve();
    let field = |key: &str| format!("{at}.{key}");
    let ms = u64::from;
    if !versions::is_modelled(r.kafka_version) {
        return Err(crate::scenario::ScenarioError::invalid(
            field("kafka_version"),
            format!(
                "is {}; the playground models Kafka Connect {} (KIP-415, incremental cooperative rebalancing) to {}",
                r.kafka_version,
                versions::OLDEST,
                versions::NEWEST
            ),
        ));
    }
    SESSION_TIMEOUT_MS.check(
        &field("session.timeout.ms"),
        ms(r.session_timeout_ms),
        " ms",
    )?;
    ranges::check_heartbeat(
        &field("heartbeat.interval.ms"),
        ms(r.heartbeat_interval_ms),
        ms(r.session_timeout_ms),
    )?;
    CONNECT_REBALANCE_TIMEOUT_MS.check(
        &field("rebalance.timeout.ms"),
        ms(r.rebalance_timeout_ms),
        " ms",
    )?;
    for (key, value) in [
        (
            "scheduled.rebalance.max.delay.ms",
            r.scheduled_rebalance_max_delay_ms,
        ),
        ("inter.worker.key.ttl.ms", r.inter_worker_key_ttl_ms),
    ] {
        CONNECT_DELAY_MS.check(&field(key), ms(value), " ms")?;
    }
    for (key, value) in [
        (
            "task.shutdown.graceful.timeout.ms",
            r.task_shutdown_graceful_timeout_ms,
        ),
        (
            "group.initial.rebalance.delay.ms",
            r.group_initial_rebalance_delay_ms,
        ),
    ] {
        PLAYGROUND_TIME_MS.check(&field(key), ms(value), " ms")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_kafkas() {
        let r = ConnectConfig::default().resolve();
        assert_eq!(r.connect_protocol, ConnectProtocol::Sessioned);
        assert_eq!(r.scheduled_rebalance_max_delay_ms, 300_000);
        assert_eq!(r.session_timeout_ms, 10_000);
        assert_eq!(r.heartbeat_interval_ms, 3_000);
        assert_eq!(r.rebalance_timeout_ms, 60_000);
    }

    #[test]
    fn connect_protocol_defaults_to_what_the_release_shipped() {
        let on = |v: &str| -> ResolvedConnectConfig {
            serde_json::from_str::<ConnectConfig>(&format!(r#"{{"kafka_version": "{v}"}}"#))
                .unwrap()
                .resolve()
        };
        assert_eq!(on("2.3").connect_protocol, ConnectProtocol::Compatible);
        assert_eq!(on("2.4.1").connect_protocol, ConnectProtocol::Sessioned);
        assert_eq!(on("2.3").kafka_version, KafkaVersion::new(2, 3));
        let explicit: ConnectConfig =
            serde_json::from_str(r#"{"kafka_version": "2.3", "connect.protocol": "eager"}"#)
                .unwrap();
        assert_eq!(explicit.resolve().connect_protocol, ConnectProtocol::Eager);
        assert_eq!(
            ConnectConfig::default().resolve().kafka_version,
            KafkaVersion::NEWEST
        );
        let defaults = ConnectConfig::defaults();
        assert_eq!(defaults[0], ("kafka_version", "\"4.3\"".to_string()));
    }

    #[test]
    fn versions_outside_the_modelled_range_are_refused_naming_the_field() {
        let config: ConnectConfig = serde_json::from_str(r#"{"kafka_version": "2.2"}"#).unwrap();
        let err = validate(&config, "compare[1].config")
            .unwrap_err()
            .to_string();
        assert!(err.contains("compare[1].config.kafka_version"), "{err}");
        assert!(err.contains("2.3 (KIP-415"), "{err}");
        assert!(err.contains("to 4.3"), "{err}");
        let newer: ConnectConfig = serde_json::from_str(r#"{"kafka_version": "4.4"}"#).unwrap();
        assert!(validate(&newer, "connect.config").is_err());
        let patch: ConnectConfig = serde_json::from_str(r#"{"kafka_version": "4.3.1"}"#).unwrap();
        assert!(validate(&patch, "connect.config").is_ok());
    }

    #[test]
    fn kafka_names_and_layering() {
        let base: ConnectConfig =
            serde_json::from_str(r#"{"scheduled.rebalance.max.delay.ms": 0}"#).unwrap();
        let over: ConnectConfig = serde_json::from_str(r#"{"connect.protocol": "eager"}"#).unwrap();
        let r = base.merged(&over).resolve();
        assert_eq!(r.connect_protocol, ConnectProtocol::Eager);
        assert_eq!(r.scheduled_rebalance_max_delay_ms, 0);
        let err =
            serde_json::from_str::<ConnectConfig>(r#"{"connect.protocl": "eager"}"#).unwrap_err();
        assert!(err.to_string().contains("connect.protocl"), "{err}");
    }
}
