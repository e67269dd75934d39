//! Replays conformance vectors recorded from Kafka's real assignors
//! (`shared/conformance/FORMAT.md`, format `rebalance-conformance/1`):
//! Connect's assignors, Streams' `HighAvailabilityTaskAssignor` and the
//! streams-group `StickyTaskAssignor` (KIP-1071).

mod connect;
mod streams;
mod streams_groups;

use std::fmt;

/// The outcome of replaying one vector file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorReport {
    /// The vector's `name`.
    pub name: String,
    /// `connect`, `streams` or `streams-groups`.
    pub family: String,
    /// The vector's `assignor`.
    pub assignor: String,
    /// The Kafka versions whose rules the vector was replayed under, each
    /// separately (`kafka_versions`, family `streams-groups`); empty for
    /// families recorded from a single Kafka version.
    pub kafka_versions: Vec<String>,
    /// How many expectations (rounds or single shots) were checked.
    pub checks: usize,
    /// Each mismatch, readable: which step, which member, expected vs actual.
    /// A mismatch under one of `kafka_versions` starts with `[<version>]`.
    pub failures: Vec<String>,
}

impl VectorReport {
    /// True when every check matched.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// True when every check under `version` (one of `kafka_versions`) matched.
    pub fn passed_under(&self, version: &str) -> bool {
        let prefix = format!("[{version}]");
        !self.failures.iter().any(|f| f.starts_with(&prefix))
    }
}

/// A vector that could not be replayed at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConformanceError(pub String);

impl fmt::Display for ConformanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConformanceError {}

/// Replays one vector file's JSON text.
pub fn run_vector(json: &str) -> Result<VectorReport, ConformanceError> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| ConformanceError(format!("not JSON: {e}")))?;
    let format = value.get("format").and_then(|v| v.as_str()).unwrap_or("");
    if format != "rebalance-conformance/1" {
        return Err(ConformanceError(format!(
            "unknown format `{format}` (expected `rebalance-conformance/1`)"
        )));
    }
    match value.get("family").and_then(|v| v.as_str()) {
        Some("connect") => connect::run(&value),
        Some("streams") => streams::run(&value),
        Some("streams-groups") => streams_groups::run(&value),
        other => Err(ConformanceError(format!("unknown family {other:?}"))),
    }
}
