//! The entry point: simulate every compared variant of a scenario and compute
//! each run's metrics.

use serde::Serialize;

use crate::metrics::{FamilyMetrics, Metrics};
use crate::scenario::{limits, ConnectScenario, Family, Scenario, StreamsScenario};
use crate::sim::connect::ConnectSimulation;
use crate::sim::driver::Simulation;
use crate::sim::SETTLE_MARGIN_MS;
use crate::trace::Trace;

/// Every variant of one scenario, simulated.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct RunResult {
    /// One run per compared variant, in the scenario's order.
    pub variants: Vec<VariantRun>,
}

/// One variant's run.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct VariantRun {
    /// The variant's label.
    pub label: String,
    /// What happened.
    pub trace: Trace,
    /// What it cost.
    pub metrics: Metrics,
    /// [`Trace::fingerprint`] as 16 hex digits (a u64 does not fit a JS
    /// number): equal natively and in WebAssembly for the same scenario.
    pub fingerprint: String,
}

impl VariantRun {
    /// A finished run; the label comes from the trace.
    fn new(trace: Trace, metrics: Metrics) -> Self {
        Self {
            label: trace.label.clone(),
            fingerprint: format!("{:016x}", trace.fingerprint()),
            trace,
            metrics,
        }
    }
}

/// Simulates each compared variant. Without `end_ms`, every variant runs
/// until the slowest one has been quiet for [`SETTLE_MARGIN_MS`] after its last
/// activity (or one day), so the columns share one time axis.
pub fn run(scenario: &Scenario) -> RunResult {
    match &scenario.family {
        Family::Connect(connect) => run_connect(scenario, connect),
        Family::Streams(streams) => run_streams(scenario, streams),
    }
}

/// The Connect family: the Connect simulator and the shared metrics.
fn run_connect(scenario: &Scenario, connect: &ConnectScenario) -> RunResult {
    let mut sims: Vec<ConnectSimulation> = connect
        .compare
        .iter()
        .map(|v| ConnectSimulation::new(scenario, connect, v))
        .collect();
    let end = match scenario.end_ms {
        Some(end) => end,
        None => {
            let last_event = connect.events.iter().map(|e| e.at_ms).max().unwrap_or(0);
            let quiet = sims
                .iter_mut()
                .map(|s| s.run_until_quiet(limits::MAX_TIME_MS))
                .max()
                .unwrap_or(0);
            (quiet.max(last_event) + SETTLE_MARGIN_MS).min(limits::MAX_TIME_MS)
        }
    };
    let variants = sims
        .into_iter()
        .map(|mut sim| {
            sim.run_until(end);
            let trace = sim.finish(end);
            let metrics = Metrics::from_trace(&trace);
            VariantRun::new(trace, metrics)
        })
        .collect();
    RunResult { variants }
}

/// The Streams family: same shape, the Streams simulator and its metrics.
fn run_streams(scenario: &Scenario, streams: &StreamsScenario) -> RunResult {
    use crate::metrics::StreamsMetrics;
    use crate::sim::streams::StreamsSimulation;
    let mut sims: Vec<StreamsSimulation> = streams
        .compare
        .iter()
        .map(|v| StreamsSimulation::new(scenario, streams, v))
        .collect();
    let end = match scenario.end_ms {
        Some(end) => end,
        None => {
            let last_event = streams.events.iter().map(|e| e.at_ms).max().unwrap_or(0);
            let quiet = sims
                .iter_mut()
                .map(|s| s.run_until_quiet(limits::MAX_TIME_MS))
                .max()
                .unwrap_or(0);
            (quiet.max(last_event) + SETTLE_MARGIN_MS).min(limits::MAX_TIME_MS)
        }
    };
    let variants = sims
        .into_iter()
        .map(|mut sim| {
            sim.run_until(end);
            let restored = sim.records_restored();
            let trace = sim.finish(end);
            let mut metrics = Metrics::from_trace(&trace);
            metrics.family =
                FamilyMetrics::Streams(StreamsMetrics::from_trace(&trace, &metrics, restored));
            VariantRun::new(trace, metrics)
        })
        .collect();
    RunResult { variants }
}
