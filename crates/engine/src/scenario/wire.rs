//! The scenario's JSON shape. A Connect scenario reads and writes exactly the
//! fields version 1 always had, in the same order; a Streams scenario has
//! `streams` in place of `connect`, and its `compare[].config` and `events`
//! use the Streams keys and event types.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{
    default_variants, ConnectCluster, ConnectConfig, Reference, Scenario, StreamsApp,
    StreamsConfig, StreamsScenario, StreamsTimedEvent, TimedEvent, Variant,
};

/// A Connect scenario, field for field as version 1 wrote it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConnectWire {
    version: u32,
    #[serde(default)]
    title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    description: String,
    #[serde(default)]
    seed: u64,
    connect: ConnectCluster,
    #[serde(default = "default_variants")]
    compare: Vec<Variant>,
    #[serde(default)]
    events: Vec<TimedEvent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    end_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    references: Vec<Reference>,
}

/// A Streams scenario.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StreamsWire {
    version: u32,
    #[serde(default)]
    title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    description: String,
    #[serde(default)]
    seed: u64,
    streams: StreamsApp,
    #[serde(default = "default_streams_variants")]
    compare: Vec<StreamsVariantWire>,
    #[serde(default)]
    events: Vec<StreamsTimedEvent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    end_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    references: Vec<Reference>,
}

/// One compared Streams setting.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StreamsVariantWire {
    label: String,
    #[serde(default, skip_serializing_if = "is_default_config")]
    config: StreamsConfig,
}

fn is_default_config(c: &StreamsConfig) -> bool {
    *c == StreamsConfig::default()
}

/// Streams compares eager (`upgrade.from` 2.3 forces it) with the default cooperative protocol.
fn default_streams_variants() -> Vec<StreamsVariantWire> {
    vec![
        StreamsVariantWire {
            label: "eager".to_string(),
            config: StreamsConfig {
                upgrade_from: super::KafkaVersion::parse("2.3"),
                ..StreamsConfig::default()
            },
        },
        StreamsVariantWire {
            label: "cooperative".to_string(),
            config: StreamsConfig::default(),
        },
    ]
}

impl Serialize for Scenario {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.streams {
            None => ConnectWire {
                version: self.version,
                title: self.title.clone(),
                description: self.description.clone(),
                seed: self.seed,
                connect: self.connect.clone(),
                compare: self.compare.clone(),
                events: self.events.clone(),
                end_ms: self.end_ms,
                references: self.references.clone(),
            }
            .serialize(s),
            Some(streams) => StreamsWire {
                version: self.version,
                title: self.title.clone(),
                description: self.description.clone(),
                seed: self.seed,
                streams: streams.app.clone(),
                compare: self
                    .compare
                    .iter()
                    .map(|v| StreamsVariantWire {
                        label: v.label.clone(),
                        config: v.streams.clone(),
                    })
                    .collect(),
                events: streams.events.clone(),
                end_ms: self.end_ms,
                references: self.references.clone(),
            }
            .serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Scenario {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        let has = |key: &str| value.as_object().is_some_and(|o| o.contains_key(key));
        match (has("connect"), has("streams")) {
            (true, true) => Err(D::Error::custom(
                "a scenario has either `connect` (a Connect cluster) or `streams` (a Streams application), not both",
            )),
            (false, false) => Err(D::Error::custom(
                "a scenario needs `connect` (a Connect cluster) or `streams` (a Streams application)",
            )),
            (true, false) => {
                let w: ConnectWire = serde_json::from_value(value).map_err(D::Error::custom)?;
                Ok(Scenario {
                    version: w.version,
                    title: w.title,
                    description: w.description,
                    seed: w.seed,
                    connect: w.connect,
                    compare: w.compare,
                    events: w.events,
                    end_ms: w.end_ms,
                    streams: None,
                    references: w.references,
                })
            }
            (false, true) => {
                let w: StreamsWire = serde_json::from_value(value).map_err(D::Error::custom)?;
                Ok(Scenario {
                    version: w.version,
                    title: w.title,
                    description: w.description,
                    seed: w.seed,
                    connect: ConnectCluster::default(),
                    compare: w
                        .compare
                        .into_iter()
                        .map(|v| Variant {
                            label: v.label,
                            config: ConnectConfig::default(),
                            streams: v.config,
                        })
                        .collect(),
                    events: Vec::new(),
                    end_ms: w.end_ms,
                    streams: Some(StreamsScenario {
                        app: w.streams,
                        events: w.events,
                    }),
                    references: w.references,
                })
            }
        }
    }
}
