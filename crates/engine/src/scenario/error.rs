//! Why a scenario (or a link carrying one) could not be used, in words a person can act on.

use std::fmt;

/// A scenario that cannot be simulated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// The JSON does not parse, or a value does not fit where it stands.
    Parse {
        /// Path of the value, in the format of [`ScenarioError::Invalid`]'s
        /// `field`, e.g. `connect.connectors[2].tasks`; empty for the whole
        /// text (a syntax error before the first key, a missing family).
        path: String,
        /// What is wrong, in plain words, e.g. `expected a whole number ≥ 0, got "4"`.
        problem: String,
        /// The text around the error on one line, e.g. `…"tasks":"4"}…`;
        /// empty when the error has no position.
        snippet: String,
        /// The line of the error, for a text of several lines (a file); a
        /// one-line text (a link's JSON) has none.
        line: Option<usize>,
    },
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

    /// The same error without a line number: a link's reader sees no lines.
    pub fn without_line(self) -> Self {
        match self {
            Self::Parse {
                path,
                problem,
                snippet,
                ..
            } => Self::Parse {
                path,
                problem,
                snippet,
                line: None,
            },
            other => other,
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse {
                path,
                problem,
                snippet,
                line,
            } => {
                f.write_str("The scenario is not valid: ")?;
                if !path.is_empty() {
                    write!(f, "{path}: ")?;
                }
                f.write_str(problem)?;
                match (line, snippet.is_empty()) {
                    (Some(line), false) => write!(f, " (line {line}, near `{snippet}`)")?,
                    (Some(line), true) => write!(f, " (line {line})")?,
                    (None, false) => write!(f, " (near `{snippet}`)")?,
                    (None, true) => {}
                }
                f.write_str(".")
            }
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
