//! Reading and writing Connect and Streams configuration by Kafka property
//! name.
//!
//! The editor lists every key of `ConnectConfig::defaults()` (and of the
//! resolved Streams config), so a key the engine adds shows up without a
//! page change. Values go through serde under their Kafka names (the
//! engine's own mapping), never through field names.

use engine::scenario::{ConnectConfig, KafkaVersion, StreamsConfig};
use serde::{de::DeserializeOwned, Serialize};
use serde_json::{Map, Value};

/// How a key's value is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number (ms or a count).
    Number,
    /// One of a few names (`connect.protocol`).
    Choice(&'static [&'static str]),
    /// Free text.
    Text,
}

/// Every `connect.protocol` value, oldest first (the test below keeps
/// [`PROTOCOL_NAMES`] equal to their config values).
#[cfg(test)]
fn protocols() -> [engine::connect::protocol::ConnectProtocol; 3] {
    use engine::connect::protocol::ConnectProtocol;
    // A match keeps this list honest: a new protocol fails to compile here.
    fn _exhaustive(p: ConnectProtocol) {
        match p {
            ConnectProtocol::Eager | ConnectProtocol::Compatible | ConnectProtocol::Sessioned => {}
        }
    }
    [
        ConnectProtocol::Eager,
        ConnectProtocol::Compatible,
        ConnectProtocol::Sessioned,
    ]
}

const PROTOCOL_NAMES: &[&str] = &["eager", "compatible", "sessioned"];

/// `processing.guarantee` values (`exactly_once` is read as `exactly_once_v2`).
const GUARANTEES: &[&str] = &["at_least_once", "exactly_once_v2"];

/// `internal.task.assignor.class` values, as short class names.
const ASSIGNORS: &[&str] = &["HighAvailabilityTaskAssignor", "StickyTaskAssignor"];

/// `acceptable.recovery.lag` at `Long.MAX_VALUE`: every client counts as
/// caught up, so `HighAvailabilityTaskAssignor` assigns no warmups (KIP-441).
pub const WARMUPS_OFF_KEY: &str = "acceptable.recovery.lag";

/// The value of [`WARMUPS_OFF_KEY`] that turns warmups off (`Long.MAX_VALUE`).
pub const WARMUPS_OFF_VALUE: &str = "9223372036854775807";

/// One editable key: its Kafka name, Kafka's default as text, and its kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    /// E.g. `scheduled.rebalance.max.delay.ms`.
    pub name: &'static str,
    /// Kafka's default, as shown (`300000`, `sessioned`).
    pub default: String,
    /// How it is entered.
    pub kind: Kind,
}

/// Every key the engine knows, in its order.
pub fn keys() -> Vec<Key> {
    ConnectConfig::defaults()
        .into_iter()
        .map(|(name, default_json)| {
            let parsed: Value = serde_json::from_str(&default_json).unwrap_or(Value::Null);
            let (default, kind) = match parsed {
                Value::Number(n) => (n.to_string(), Kind::Number),
                Value::String(s) if name == "connect.protocol" => (s, Kind::Choice(PROTOCOL_NAMES)),
                Value::String(s) => (s, Kind::Text),
                other => (other.to_string(), Kind::Text),
            };
            Key {
                name,
                default,
                kind,
            }
        })
        .collect()
}

/// The Kafka name of a Streams key, as a `'static` name (made once per key).
fn streams_name(dotted: &str) -> Option<&'static str> {
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<Vec<&'static str>>> = OnceLock::new();
    if !StreamsConfig::is_known_key(dotted) {
        return None;
    }
    let mut names = NAMES.get_or_init(|| Mutex::new(Vec::new())).lock().ok()?;
    if let Some(n) = names.iter().find(|n| **n == dotted) {
        return Some(n);
    }
    let name: &'static str = Box::leak(dotted.to_string().into_boxed_str());
    names.push(name);
    Some(name)
}

/// Every Streams key, with Kafka's default for `version` (some defaults
/// changed between versions: `session.timeout.ms`, the task assignor).
pub fn streams_keys(version: KafkaVersion) -> Vec<Key> {
    let resolved = StreamsConfig::default().resolve(version);
    as_map(&resolved)
        .into_iter()
        .filter_map(|(field, default)| {
            // The resolved config names its fields in Rust; the Kafka name is
            // the same words with dots, except for the assignor's class.
            let dotted = match field.as_str() {
                "task_assignor" => "internal.task.assignor.class".to_string(),
                f => f.replace('_', "."),
            };
            let name = streams_name(&dotted)?;
            let kind = match name {
                "processing.guarantee" => Kind::Choice(GUARANTEES),
                "internal.task.assignor.class" => Kind::Choice(ASSIGNORS),
                _ if default.is_number() => Kind::Number,
                _ => Kind::Text,
            };
            let default = match default {
                Value::Null => String::new(),
                Value::String(s) => s,
                other => other.to_string(),
            };
            Some(Key {
                name,
                default,
                kind,
            })
        })
        .collect()
}

/// Through JSON text rather than `serde_json::to_value`: the page already
/// holds the text serialiser (for links), not a second one for `Value`.
fn as_map<T: Serialize>(config: &T) -> Map<String, Value> {
    let text = serde_json::to_string(config).unwrap_or_default();
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// The value `config` sets for `key`, as text; `None` when it leaves it unset.
pub fn get<T: Serialize>(config: &T, key: &str) -> Option<String> {
    as_map(config).get(key).map(|v| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

/// `config` with `key` set from `text` (empty text unsets it), or a message
/// saying why the text is not a value for that key.
pub fn set<T: Serialize + DeserializeOwned>(
    config: &T,
    key: &Key,
    text: &str,
) -> Result<T, String> {
    let mut map = as_map(config);
    let text = text.trim();
    if text.is_empty() {
        map.remove(key.name);
    } else {
        let value = match key.kind {
            Kind::Number => text
                .parse::<u64>()
                .map(Value::from)
                .map_err(|_| format!("{} must be a whole number of at least 0", key.name))?,
            Kind::Choice(options) => {
                if !options.contains(&text) {
                    return Err(format!(
                        "{} must be one of {}",
                        key.name,
                        options.join(", ")
                    ));
                }
                Value::from(text)
            }
            Kind::Text => Value::from(text),
        };
        map.insert(key.name.to_string(), value);
    }
    // Through JSON text, not `from_value`: the page already parses configs
    // from link text, so this adds no second deserializer to its module.
    serde_json::from_str(&Value::Object(map).to_string()).map_err(|e| format!("{}: {e}", key.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_kafka_names_and_defaults() {
        let keys = keys();
        let protocol = keys.iter().find(|k| k.name == "connect.protocol").unwrap();
        assert_eq!(protocol.default, "sessioned");
        assert!(matches!(protocol.kind, Kind::Choice(_)));
        let delay = keys
            .iter()
            .find(|k| k.name == "scheduled.rebalance.max.delay.ms")
            .unwrap();
        assert_eq!(delay.default, "300000");
        assert_eq!(delay.kind, Kind::Number);
        for p in protocols() {
            assert!(PROTOCOL_NAMES.contains(&p.config_value()));
        }
    }

    #[test]
    fn set_and_unset_by_kafka_name() {
        let keys = keys();
        let delay = keys
            .iter()
            .find(|k| k.name == "scheduled.rebalance.max.delay.ms")
            .unwrap();
        let c = set(&ConnectConfig::default(), delay, "0").unwrap();
        assert_eq!(c.scheduled_rebalance_max_delay_ms, Some(0));
        assert_eq!(get(&c, delay.name).as_deref(), Some("0"));
        let c = set(&c, delay, "").unwrap();
        assert_eq!(c, ConnectConfig::default());
        assert!(set(&c, delay, "soon").is_err());
        assert!(set(&c, delay, "-1").is_err());
        let protocol = keys.iter().find(|k| k.name == "connect.protocol").unwrap();
        assert!(set(&c, protocol, "eager").is_ok());
        assert!(set(&c, protocol, "greedy").is_err());
    }

    #[test]
    fn streams_keys_carry_kafka_names_and_version_defaults() {
        let latest = streams_keys(KafkaVersion::DEFAULT);
        let names: Vec<&str> = latest.iter().map(|k| k.name).collect();
        for name in [
            "num.standby.replicas",
            "acceptable.recovery.lag",
            "session.timeout.ms",
            "internal.task.assignor.class",
            "upgrade.from",
            "group.instance.id",
        ] {
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
        assert!(names.iter().all(|n| StreamsConfig::is_known_key(n)));
        let default = |keys: &[Key], name: &str| {
            keys.iter()
                .find(|k| k.name == name)
                .unwrap()
                .default
                .clone()
        };
        assert_eq!(default(&latest, "session.timeout.ms"), "45000");
        assert_eq!(default(&latest, "acceptable.recovery.lag"), "10000");
        let old = streams_keys(KafkaVersion::parse("2.8").unwrap());
        assert_eq!(default(&old, "session.timeout.ms"), "10000");
        let upgrade = latest.iter().find(|k| k.name == "upgrade.from").unwrap();
        assert_eq!((upgrade.default.as_str(), upgrade.kind), ("", Kind::Text));
    }

    #[test]
    fn streams_values_by_kafka_name_and_the_warmups_switch() {
        let keys = streams_keys(KafkaVersion::DEFAULT);
        let key = |n: &str| keys.iter().find(|k| k.name == n).unwrap().clone();
        let c = set(&StreamsConfig::default(), &key("num.standby.replicas"), "1").unwrap();
        assert_eq!(c.num_standby_replicas, Some(1));
        let lag = key(WARMUPS_OFF_KEY);
        let off = set(&c, &lag, WARMUPS_OFF_VALUE).unwrap();
        assert_eq!(off.acceptable_recovery_lag, Some(i64::MAX as u64));
        assert_eq!(
            get(&off, WARMUPS_OFF_KEY).as_deref(),
            Some(WARMUPS_OFF_VALUE)
        );
        let c = set(&off, &key("upgrade.from"), "2.3").unwrap();
        assert_eq!(get(&c, "upgrade.from").as_deref(), Some("2.3"));
        assert!(set(&c, &key("upgrade.from"), "soon").is_err());
        assert!(set(&c, &key("processing.guarantee"), "exactly_once_v2").is_ok());
        assert!(set(&c, &key("processing.guarantee"), "twice").is_err());
    }
}
