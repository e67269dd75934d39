//! Reading and writing Connect configuration by Kafka property name.
//!
//! The editor lists every key of `ConnectConfig::defaults()`, so a key the
//! engine adds shows up without a page change. Values go through serde under
//! their Kafka names (the engine's own mapping), never through field names.

use engine::scenario::ConnectConfig;
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

/// Through JSON text rather than `serde_json::to_value`: the page already
/// holds the text serialiser (for links), not a second one for `Value`.
fn as_map(config: &ConnectConfig) -> Map<String, Value> {
    let text = serde_json::to_string(config).unwrap_or_default();
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// The value `config` sets for `key`, as text; `None` when it leaves it unset.
pub fn get(config: &ConnectConfig, key: &str) -> Option<String> {
    as_map(config).get(key).map(|v| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

/// `config` with `key` set from `text` (empty text unsets it), or a message
/// saying why the text is not a value for that key.
pub fn set(config: &ConnectConfig, key: &Key, text: &str) -> Result<ConnectConfig, String> {
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
    serde_json::from_value(Value::Object(map)).map_err(|e| format!("{}: {e}", key.name))
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
}
