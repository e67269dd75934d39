//! The sweep file: a question (title, description), the scenario it is
//! asked of, and the sweep that answers it. Sweep presets are such files;
//! `rebalance sweep` reads them like scenario files.
//!
//! ```json
//! {"version": 1, "title": "…", "description": "…",
//!  "scenario": { …a whole scenario… },
//!  "sweep": {"key": "scheduled.rebalance.max.delay.ms", "from": 0, "to": 600000, "steps": 21}}
//! ```

use serde::de::IgnoredAny;

use super::{SweepError, SweepSpec, SWEEP_VERSION};
use crate::scenario::{limits, Scenario};

/// A sweep with the scenario it runs on.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepFile {
    /// The question, e.g. "How long should scheduled.rebalance.max.delay.ms be?".
    pub title: String,
    /// What to look for in the plot.
    pub description: String,
    /// The scenario every point starts from.
    pub scenario: Scenario,
    /// What is swept.
    pub sweep: SweepSpec,
}

/// A sweep file as written. The scenario is skipped here and read from its
/// own text by [`Scenario::from_json`], like any scenario (its errors quote
/// it); going through `serde_json::Value` or `RawValue` instead would add
/// their deserializers to each WebAssembly module that reads sweep files.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    /// Checked by [`Version`] first.
    #[serde(rename = "version")]
    _version: IgnoredAny,
    #[serde(default)]
    title: String,
    #[serde(default)]
    description: String,
    #[serde(rename = "scenario")]
    _scenario: IgnoredAny,
    sweep: SweepSpec,
}

/// The first look at a sweep file: only its version (a newer file may
/// have keys this build does not know).
#[derive(serde::Deserialize)]
struct Version {
    version: Option<u32>,
}

/// Whether a JSON object has a `sweep` key.
#[derive(serde::Deserialize)]
struct HasSweep {
    sweep: Option<IgnoredAny>,
}

impl SweepFile {
    /// True when `text` looks like a sweep file rather than a scenario (an
    /// object with a `sweep` key), so a front end knows which to parse.
    pub fn looks_like(text: &str) -> bool {
        serde_json::from_str::<HasSweep>(text).is_ok_and(|h| h.sweep.is_some())
    }

    /// Parses a sweep file and checks the scenario and the sweep (its
    /// points are checked when they are built).
    pub fn from_json(text: &str) -> Result<SweepFile, SweepError> {
        let parse = |e: serde_json::Error| SweepError::Parse(e.to_string());
        match serde_json::from_str::<Version>(text)
            .map_err(parse)?
            .version
        {
            Some(SWEEP_VERSION) => {}
            Some(v) => return Err(SweepError::UnsupportedVersion(v)),
            None => return Err(SweepError::Parse("a sweep file needs a `version`".into())),
        }
        let wire: Wire = serde_json::from_str(text).map_err(parse)?;
        if wire.title.len().max(wire.description.len()) > limits::MAX_TEXT {
            return Err(SweepError::Parse(format!(
                "the title or description is longer than {} characters",
                limits::MAX_TEXT
            )));
        }
        let scenario_text = member_text(text, "scenario")
            .ok_or_else(|| SweepError::Parse("a sweep file needs a `scenario`".into()))?;
        let scenario = Scenario::from_json(scenario_text)?;
        wire.sweep.validate(&scenario)?;
        Ok(SweepFile {
            title: wire.title,
            description: wire.description,
            scenario,
            sweep: wire.sweep,
        })
    }

    /// Pretty JSON, as in preset files: `version`, `title`, `description`,
    /// `scenario`, `sweep`, in that order.
    pub fn to_json_pretty(&self) -> String {
        #[derive(serde::Serialize)]
        struct Wire<'a> {
            version: u32,
            #[serde(skip_serializing_if = "str::is_empty")]
            title: &'a str,
            #[serde(skip_serializing_if = "str::is_empty")]
            description: &'a str,
            scenario: &'a Scenario,
            sweep: &'a SweepSpec,
        }
        serde_json::to_string_pretty(&Wire {
            version: SWEEP_VERSION,
            title: &self.title,
            description: &self.description,
            scenario: &self.scenario,
            sweep: &self.sweep,
        })
        .expect("a sweep file serializes")
    }
}

/// The text of member `key`'s value in a JSON object that serde_json has
/// already read without error (so only strings and nesting need care).
fn member_text<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let b = text.as_bytes();
    let skip_ws = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let (mut i, mut depth) = (0, 0usize);
    while i < b.len() {
        match b[i] {
            b'"' => {
                let end = string_end(b, i);
                let colon = skip_ws(end);
                if depth == 1 && &text[i + 1..end - 1] == key && b.get(colon) == Some(&b':') {
                    let start = skip_ws(colon + 1);
                    return Some(&text[start..value_end(b, start)]);
                }
                i = end;
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// Just past the string that opens at `b[start]` (a `"`).
fn string_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// Just past the JSON value that starts at `b[start]`.
fn value_end(b: &[u8], start: usize) -> usize {
    let mut i = start;
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = string_end(b, i);
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return i,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b',' if depth == 0 => return i,
            c if depth == 0 && c.is_ascii_whitespace() => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_members_text_is_found_at_the_top_level_only() {
        let text = r#"{"title": "the \"scenario\": here", "nested": {"scenario": 1},
            "scenario" : {"a": [1, {"b": "}"}], "c": "x"} , "sweep": 2}"#;
        assert_eq!(
            member_text(text, "scenario"),
            Some(r#"{"a": [1, {"b": "}"}], "c": "x"}"#)
        );
        assert_eq!(member_text(text, "sweep"), Some("2"));
        assert_eq!(
            member_text(r#"{"s": "x", "sweep": "y"}"#, "sweep"),
            Some(r#""y""#)
        );
        assert_eq!(member_text(r#"{"a": 1}"#, "scenario"), None);
    }
}
