//! Why a scenario (or a link carrying one) could not be used, in words a person can act on.

use std::fmt;

/// A scenario that cannot be simulated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// The JSON does not parse or does not match the schema.
    Malformed(String),
    /// The scenario was written by a newer (or unknown) schema version.
    UnsupportedVersion(u32),
    /// A field holds a value out of bounds.
    Invalid {
        /// Path of the field, e.g. `connect.workers` or `events[3].worker`.
        field: String,
        /// Why, e.g. "must be greater than 0".
        reason: String,
    },
}

impl ScenarioError {
    /// An out-of-bounds field.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }

    pub(crate) fn from_json(err: serde_json::Error) -> Self {
        Self::Malformed(err.to_string())
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(msg) => write!(f, "The scenario is not valid: {msg}."),
            Self::UnsupportedVersion(v) => write!(
                f,
                "The scenario uses format version {v}, which this playground does not know (it reads versions 1 to {}). It may come from a newer version of the playground.",
                super::SCENARIO_VERSION
            ),
            Self::Invalid { field, reason } => write!(f, "The scenario's `{field}` {reason}."),
        }
    }
}

impl std::error::Error for ScenarioError {}
