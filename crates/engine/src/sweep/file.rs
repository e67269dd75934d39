//! The sweep file: a question (title, description), the scenario it is
//! asked of, and the sweep that answers it. Sweep presets are such files;
//! `rebalance sweep` reads them like scenario files.
//!
//! ```json
//! {"version": 1, "title": "…", "description": "…",
//!  "scenario": { …a whole scenario… },
//!  "sweep": {"parameter": {"kind": "config", "key": "scheduled.rebalance.max.delay.ms"},
//!            "from": 0, "to": 600000, "steps": 21}}
//! ```

use serde_json::{Map, Value};

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

/// Keys a sweep file may have.
const KEYS: [&str; 5] = ["version", "title", "description", "scenario", "sweep"];

impl SweepFile {
    /// True when `text` looks like a sweep file rather than a scenario (an
    /// object with a `sweep` key), so a front end knows which to parse.
    pub fn looks_like(text: &str) -> bool {
        serde_json::from_str::<Map<String, Value>>(text).is_ok_and(|m| m.contains_key("sweep"))
    }

    /// Parses a sweep file and checks the scenario and the sweep (its
    /// points are checked when they are built).
    pub fn from_json(text: &str) -> Result<SweepFile, SweepError> {
        let map: Map<String, Value> =
            serde_json::from_str(text).map_err(|e| SweepError::Parse(e.to_string()))?;
        if let Some(k) = map.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(SweepError::Parse(format!(
                "unknown key `{}` in a sweep file (expected {})",
                k.chars().take(40).collect::<String>(),
                KEYS.join(", ")
            )));
        }
        let version = match map.get("version") {
            Some(v) => v
                .as_u64()
                .ok_or_else(|| SweepError::Parse("`version` must be a whole number".into()))?,
            None => return Err(SweepError::Parse("a sweep file needs a `version`".into())),
        };
        if version != u64::from(SWEEP_VERSION) {
            return Err(SweepError::UnsupportedVersion(
                u32::try_from(version).unwrap_or(u32::MAX),
            ));
        }
        let text_of = |key: &str| -> Result<String, SweepError> {
            match map.get(key) {
                None => Ok(String::new()),
                Some(Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(SweepError::Parse(format!("`{key}` must be text"))),
            }
        };
        let (title, description) = (text_of("title")?, text_of("description")?);
        if title.len().max(description.len()) > limits::MAX_TEXT {
            return Err(SweepError::Parse(format!(
                "the title or description is longer than {} characters",
                limits::MAX_TEXT
            )));
        }
        let scenario_json = map
            .get("scenario")
            .ok_or_else(|| SweepError::Parse("a sweep file needs a `scenario`".into()))?;
        let scenario = Scenario::from_json(&scenario_json.to_string())?;
        let sweep_json = map
            .get("sweep")
            .ok_or_else(|| SweepError::Parse("a sweep file needs a `sweep`".into()))?;
        let sweep: SweepSpec = serde_json::from_value(sweep_json.clone())
            .map_err(|e| SweepError::Parse(format!("sweep: {e}")))?;
        sweep.validate(&scenario)?;
        Ok(SweepFile {
            title,
            description,
            scenario,
            sweep,
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
