//! The simulation result as it crosses the Web Worker boundary: JSON text,
//! because structured-cloning a JSON string is cheap and `serde_json` is
//! already in the page.
//!
//! The engine's `RunResult` and `Metrics` derive `Serialize` only, so this
//! module reads them back through local mirror structs. Each mirror converts
//! with a struct literal, so a field added in the engine fails to compile
//! here instead of being dropped silently. (Asked of the engine: derive
//! `Deserialize` on `RunResult`, `VariantRun`, `Metrics`, `EventRecovery` and
//! `TaskOutage`; this module then shrinks to two `serde_json` calls.)

use engine::metrics::{EventRecovery, Metrics, TaskOutage};
use engine::run::{RunResult, VariantRun};
use engine::trace::Trace;
use serde::Deserialize;

/// The result as JSON text.
pub fn encode(result: &RunResult) -> Result<String, String> {
    serde_json::to_string(result).map_err(|e| format!("cannot encode the result: {e}"))
}

/// The result back from JSON text.
pub fn decode(text: &str) -> Result<RunResult, String> {
    let wire: WireResult =
        serde_json::from_str(text).map_err(|e| format!("cannot read the result: {e}"))?;
    Ok(RunResult {
        variants: wire.variants.into_iter().map(Into::into).collect(),
    })
}

#[derive(Deserialize)]
struct WireResult {
    variants: Vec<WireVariant>,
}

#[derive(Deserialize)]
struct WireVariant {
    label: String,
    trace: Trace,
    metrics: WireMetrics,
}

impl From<WireVariant> for VariantRun {
    fn from(w: WireVariant) -> Self {
        VariantRun {
            label: w.label,
            trace: w.trace,
            metrics: w.metrics.into(),
        }
    }
}

#[derive(Deserialize)]
struct WireMetrics {
    measured_from_ms: u64,
    task_ms_not_running: u64,
    tasks_stopped: u64,
    tasks_started: u64,
    rebalance_rounds: u32,
    recovery: Vec<WireRecovery>,
    longest_task_outage: Option<WireOutage>,
    peak_imbalance: u32,
    duplicate_task_ms: u64,
    settled_ms: Option<u64>,
    #[serde(default)]
    streams: Option<engine::metrics::StreamsMetrics>,
}

impl From<WireMetrics> for Metrics {
    fn from(w: WireMetrics) -> Self {
        Metrics {
            measured_from_ms: w.measured_from_ms,
            task_ms_not_running: w.task_ms_not_running,
            tasks_stopped: w.tasks_stopped,
            tasks_started: w.tasks_started,
            rebalance_rounds: w.rebalance_rounds,
            recovery: w.recovery.into_iter().map(Into::into).collect(),
            longest_task_outage: w.longest_task_outage.map(Into::into),
            peak_imbalance: w.peak_imbalance,
            duplicate_task_ms: w.duplicate_task_ms,
            settled_ms: w.settled_ms,
            streams: w.streams,
        }
    }
}

#[derive(Deserialize)]
struct WireRecovery {
    at_ms: u64,
    label: String,
    recovered_after_ms: Option<u64>,
}

impl From<WireRecovery> for EventRecovery {
    fn from(w: WireRecovery) -> Self {
        EventRecovery {
            at_ms: w.at_ms,
            label: w.label,
            recovered_after_ms: w.recovered_after_ms,
        }
    }
}

#[derive(Deserialize)]
struct WireOutage {
    task: String,
    item: u32,
    start_ms: u64,
    end_ms: u64,
    duration_ms: u64,
}

impl From<WireOutage> for TaskOutage {
    fn from(w: WireOutage) -> Self {
        TaskOutage {
            task: w.task,
            item: w.item,
            start_ms: w.start_ms,
            end_ms: w.end_ms,
            duration_ms: w.duration_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_round_trips() {
        for preset in engine::presets::all() {
            let result = engine::run::run(&preset.scenario());
            let text = encode(&result).expect("encodes");
            assert_eq!(decode(&text).expect("decodes"), result, "{}", preset.id);
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(decode("{\"variants\": 3}").is_err());
        assert!(decode("").is_err());
    }
}
