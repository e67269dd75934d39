//! Conformance runner for family `streams`.

use super::{ConformanceError, VectorReport};

pub(super) fn run(_vector: &serde_json::Value) -> Result<VectorReport, ConformanceError> {
    Err(ConformanceError("family `streams` is not implemented yet".into()))
}
