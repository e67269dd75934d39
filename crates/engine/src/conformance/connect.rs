//! Conformance runner for family `connect`.

use super::{ConformanceError, VectorReport};

pub(super) fn run(_vector: &serde_json::Value) -> Result<VectorReport, ConformanceError> {
    Err(ConformanceError("family `connect` is not implemented yet".into()))
}
