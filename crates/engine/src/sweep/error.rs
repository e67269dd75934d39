//! Why a sweep cannot run, in words a person can act on.

use std::fmt;

use crate::scenario::ScenarioError;

/// A sweep spec (or a sweep file or link) that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SweepError {
    /// The spec's JSON does not parse.
    Parse(String),
    /// A field of the spec is wrong for this scenario.
    Invalid {
        /// Path of the field inside the spec, e.g. `to` or `parameter.key`.
        field: String,
        /// Why, e.g. "is 0; a log sweep starts at 1 or more".
        reason: String,
    },
    /// One point's scenario is not valid (a value that breaks another
    /// bound, e.g. `heartbeat.interval.ms` no longer below the swept
    /// `session.timeout.ms`).
    Point {
        /// The swept parameter, e.g. `session.timeout.ms`.
        parameter: String,
        /// The point's value.
        value: u64,
        /// What is wrong with that point's scenario.
        error: ScenarioError,
    },
    /// The scenario the sweep runs on is not valid.
    Scenario(ScenarioError),
    /// A sweep file of a newer (or unknown) format version.
    UnsupportedVersion(u32),
}

impl SweepError {
    /// A spec field that is wrong.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for SweepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse(e) => write!(f, "The sweep is not valid: {e}."),
            Self::Invalid { field, reason } => write!(f, "The sweep's `{field}` {reason}."),
            Self::Point {
                parameter,
                value,
                error,
            } => write!(
                f,
                "The sweep's point {parameter} = {value} gives a scenario that cannot run: {error} Narrow the sweep's range, or change the scenario."
            ),
            Self::Scenario(e) => write!(f, "{e}"),
            Self::UnsupportedVersion(v) => write!(
                f,
                "The sweep uses format version {v}, which this playground does not know (it reads version {}). It may come from a newer version of the playground.",
                super::SWEEP_VERSION
            ),
        }
    }
}

impl std::error::Error for SweepError {}

impl From<ScenarioError> for SweepError {
    fn from(e: ScenarioError) -> Self {
        Self::Scenario(e)
    }
}
