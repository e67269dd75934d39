//! The scenario's JSON shape. A Connect scenario reads and writes exactly the
//! fields version 1 always had, in the same order; a Streams scenario has
//! `streams` in place of `connect`, and its `compare[].config` and `events`
//! use the Streams keys and event types. `start` (added later) is written
//! only when it is not the default, so older scenarios still re-encode byte
//! for byte.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{
    default_variants, ConnectCluster, ConnectScenario, ConnectVariant, Family, Reference, Scenario,
    Start, StreamsApp, StreamsConfig, StreamsScenario, StreamsTimedEvent, StreamsVariant,
    TimedEvent,
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
    #[serde(default, skip_serializing_if = "super::is_default")]
    start: Start,
    connect: ConnectCluster,
    #[serde(default = "default_variants")]
    compare: Vec<ConnectVariant>,
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
    #[serde(default, skip_serializing_if = "super::is_default")]
    start: Start,
    streams: StreamsApp,
    #[serde(default = "default_streams_variants")]
    compare: Vec<StreamsVariant>,
    #[serde(default)]
    events: Vec<StreamsTimedEvent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    end_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    references: Vec<Reference>,
}

/// Streams compares eager with the default cooperative protocol. Eager
/// needs a release that still has it: `upgrade.from` 2.3 forces it up to
/// 3.9 (4.0 dropped EAGER, KAFKA-18839).
fn default_streams_variants() -> Vec<StreamsVariant> {
    vec![
        StreamsVariant {
            label: "eager".to_string(),
            config: StreamsConfig {
                upgrade_from: super::KafkaVersion::parse("2.3"),
                ..StreamsConfig::default()
            },
            kafka_version: super::KafkaVersion::parse("3.9"),
        },
        StreamsVariant {
            label: "cooperative".to_string(),
            config: StreamsConfig::default(),
            kafka_version: None,
        },
    ]
}

impl Serialize for Scenario {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.family {
            Family::Connect(connect) => ConnectWire {
                version: self.version,
                title: self.title.clone(),
                description: self.description.clone(),
                seed: self.seed,
                start: self.start,
                connect: connect.cluster.clone(),
                compare: connect.compare.clone(),
                events: connect.events.clone(),
                end_ms: self.end_ms,
                references: self.references.clone(),
            }
            .serialize(s),
            Family::Streams(streams) => StreamsWire {
                version: self.version,
                title: self.title.clone(),
                description: self.description.clone(),
                seed: self.seed,
                start: self.start,
                streams: streams.app.clone(),
                compare: streams.compare.clone(),
                events: streams.events.clone(),
                end_ms: self.end_ms,
                references: self.references.clone(),
            }
            .serialize(s),
        }
    }
}

impl From<ConnectWire> for Scenario {
    fn from(w: ConnectWire) -> Self {
        Scenario {
            version: w.version,
            title: w.title,
            description: w.description,
            seed: w.seed,
            start: w.start,
            end_ms: w.end_ms,
            references: w.references,
            family: Family::Connect(ConnectScenario {
                cluster: w.connect,
                compare: w.compare,
                events: w.events,
            }),
        }
    }
}

impl From<StreamsWire> for Scenario {
    fn from(w: StreamsWire) -> Self {
        Scenario {
            version: w.version,
            title: w.title,
            description: w.description,
            seed: w.seed,
            start: w.start,
            end_ms: w.end_ms,
            references: w.references,
            family: Family::Streams(StreamsScenario {
                app: w.streams,
                compare: w.compare,
                events: w.events,
            }),
        }
    }
}

/// Which shape a scenario object has, from its keys.
#[derive(Clone, Copy)]
enum Shape {
    Connect,
    Streams,
}

impl Shape {
    fn of(has_connect: bool, has_streams: bool) -> Result<Shape, &'static str> {
        match (has_connect, has_streams) {
            (true, true) => Err(
                "a scenario has either `connect` (a Connect cluster) or `streams` (a Streams application), not both",
            ),
            (false, false) => Err(
                "a scenario needs `connect` (a Connect cluster) or `streams` (a Streams application)",
            ),
            (true, false) => Ok(Shape::Connect),
            (false, true) => Ok(Shape::Streams),
        }
    }
}

impl<'de> Deserialize<'de> for Scenario {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        let has = |key: &str| value.as_object().is_some_and(|o| o.contains_key(key));
        match Shape::of(has("connect"), has("streams")).map_err(D::Error::custom)? {
            Shape::Connect => serde_json::from_value::<ConnectWire>(value)
                .map(Scenario::from)
                .map_err(D::Error::custom),
            Shape::Streams => serde_json::from_value::<StreamsWire>(value)
                .map(Scenario::from)
                .map_err(D::Error::custom),
        }
    }
}

/// Reads a scenario from JSON text: the same result as its `Deserialize`
/// impl, without the intermediate `serde_json::Value`, and on failure the
/// path of the value that did not fit (`serde_path_to_error`).
/// Going through `Value` would build every scenario type's deserializer a
/// second time (for `Value`) in each WebAssembly module that reads
/// scenarios; here a first pass only looks at the top-level keys and a
/// second reads the shape they name.
pub(super) fn scenario_from_str(text: &str) -> Result<Scenario, PathedError> {
    let KeysPresent { connect, streams } = read(text)?;
    match Shape::of(connect, streams).map_err(|msg| PathedError {
        path: String::new(),
        error: serde_json::Error::custom(msg),
    })? {
        Shape::Connect => read::<ConnectWire>(text).map(Scenario::from),
        Shape::Streams => read::<StreamsWire>(text).map(Scenario::from),
    }
}

/// A JSON error and the path of the value it is about (`connect.workers`,
/// `events[3]`; empty for the top level or a syntax error before any key).
pub(super) struct PathedError {
    pub(super) path: String,
    pub(super) error: serde_json::Error,
}

/// `serde_json::from_str` with the path of the failing value tracked.
#[cfg(feature = "path-errors")]
fn read<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, PathedError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| PathedError {
        path: path_text(e.path()),
        error: e.into_inner(),
    })?;
    // What `from_str` also checks: nothing but whitespace after the value.
    de.end().map_err(|error| PathedError {
        path: String::new(),
        error,
    })?;
    Ok(value)
}

/// Without the `path-errors` feature (the page's WebAssembly module, where
/// tracking the path costs about 12 KB gzip): the same result, and an error
/// without its path (its message and the quoted excerpt still say what and
/// where).
#[cfg(not(feature = "path-errors"))]
fn read<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, PathedError> {
    serde_json::from_str(text).map_err(|error| PathedError {
        path: String::new(),
        error,
    })
}

/// A path as the validation errors write it: `compare[0].config.session.timeout.ms`.
#[cfg(feature = "path-errors")]
fn path_text(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            // Enum variants are not written in the JSON; unknown segments
            // (non-string keys) cannot occur in JSON.
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    out
}

/// Whether an object has the keys `connect` and `streams` (any value, even
/// `null`, as `Value::contains_key` sees them); everything else is skipped.
struct KeysPresent {
    connect: bool,
    streams: bool,
}

impl<'de> Deserialize<'de> for KeysPresent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = KeysPresent;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<KeysPresent, A::Error> {
                let mut keys = KeysPresent {
                    connect: false,
                    streams: false,
                };
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "connect" => keys.connect = true,
                        "streams" => keys.streams = true,
                        _ => {}
                    }
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
                Ok(keys)
            }
        }
        d.deserialize_map(Keys)
    }
}

/// Compact JSON re-indented exactly as `serde_json::to_string_pretty`
/// writes it (two spaces, `"key": value`, `[]` and `{}` when empty). The
/// page's module holds one copy of the scenario's serialiser (the compact
/// one, for links) instead of two.
pub(super) fn pretty(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut chars = compact.chars().peekable();
    let (mut in_string, mut escaped) = (false, false);
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", depth));
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                match chars.peek() {
                    Some(&close @ ('}' | ']')) => {
                        out.push(close);
                        chars.next();
                    }
                    _ => {
                        depth += 1;
                        newline(&mut out, depth);
                    }
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn pretty_is_serde_json_pretty_for_every_preset() {
        for preset in crate::presets::all() {
            let s = preset.scenario();
            let expected = serde_json::to_string_pretty(&s).unwrap();
            assert_eq!(super::pretty(&s.to_json()), expected, "{}", preset.id);
        }
        let tricky =
            serde_json::json!({"a": [], "b": {}, "c": "x\\\"y:{,}[", "d": [1, {"e": null}]});
        assert_eq!(
            super::pretty(&tricky.to_string()),
            serde_json::to_string_pretty(&tricky).unwrap()
        );
    }

    use super::super::{Scenario, Start};

    #[test]
    fn start_is_written_only_when_not_formed() {
        let formed = r#"{"version":1,"title":"t","seed":1,"connect":{"workers":2}}"#;
        let s = Scenario::from_json(formed).unwrap();
        assert_eq!(s.start, Start::Formed);
        assert!(!s.to_json().contains("start"), "{}", s.to_json());
        let empty = formed.replace(r#""seed":1,"#, r#""seed":1,"start":"empty","#);
        let s = Scenario::from_json(&empty).unwrap();
        assert_eq!(s.start, Start::Empty);
        assert!(
            s.to_json().contains(r#""seed":1,"start":"empty","#),
            "{}",
            s.to_json()
        );
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
        let bad = formed.replace(r#""seed":1,"#, r#""start":"later","#);
        let err = Scenario::from_json(&bad).unwrap_err().to_string();
        assert!(err.contains("formed") && err.contains("empty"), "{err}");
    }
}
