//! Runs a sweep: every point through [`crate::run::run`] (so every compared
//! variant, on the run budget of [`crate::budget`]), keeping each run's
//! headline metrics. Deterministic: the same scenario and spec give the
//! same numbers, natively and in WebAssembly.

use serde::{Deserialize, Serialize};

use super::parameter::{AllowedRange, ValueUnit};
use super::{Headline, SweepError, SweepPoint, SweepSpec};
use crate::budget::RunCut;
use crate::run::RunResult;
use crate::scenario::{FamilyKind, Scenario};

/// A sweep's results: what was swept, where Kafka's default lies, and per
/// point each compared variant's headline metrics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepResult {
    /// The spec that was run.
    pub spec: SweepSpec,
    /// The swept parameter as people read it, for an axis or a header.
    pub label: String,
    /// What its values count.
    pub unit: ValueUnit,
    /// The values it accepts.
    pub range: AllowedRange,
    /// Kafka's default for a config key (for the scenario's Kafka version).
    pub kafka_default: Option<u64>,
    /// Where Kafka's default lies among the points.
    pub kafka_default_at: Option<DefaultPosition>,
    /// The scenario's own value (before the sweep wrote any).
    pub scenario_value: u64,
    /// The compared variants' labels: one line each.
    pub variants: Vec<String>,
    /// The metrics of each run, in this order.
    pub metrics: Vec<Headline>,
    /// The points, by increasing value.
    pub points: Vec<PointResult>,
}

/// Where Kafka's default value lies relative to a sweep's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefaultPosition {
    /// It is the value of this point.
    Point {
        /// Index into `points`.
        index: usize,
    },
    /// It lies between two neighbouring points.
    Between {
        /// Index of the point below it.
        below: usize,
    },
    /// It is smaller than every point.
    BelowRange,
    /// It is larger than every point.
    AboveRange,
}

/// One point's runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointResult {
    /// The swept value.
    pub value: u64,
    /// One run per compared variant, in the scenario's order.
    pub runs: Vec<PointRun>,
}

/// One variant's run at one point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointRun {
    /// The variant's label.
    pub label: String,
    /// The headline metrics, in [`SweepResult::metrics`]' order; `None`
    /// where a metric is undefined (no outage, never settled).
    pub metrics: Vec<Option<u64>>,
    /// Set when the run hit its budget (a rebalance storm): its figures
    /// stop at the cut and it never settled. Shown, never hidden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<RunCut>,
    /// [`crate::trace::Trace::fingerprint`] as 16 hex digits, as
    /// `rebalance run --fingerprints` prints it.
    pub fingerprint: String,
}

impl SweepResult {
    /// The value of `metric` for variant `variant` at every point.
    pub fn series(&self, variant: usize, metric: Headline) -> Vec<Option<u64>> {
        let Some(m) = self.metrics.iter().position(|&h| h == metric) else {
            return vec![None; self.points.len()];
        };
        self.points
            .iter()
            .map(|p| p.runs.get(variant).and_then(|r| r.metrics[m]))
            .collect()
    }

    /// Adds a point that was run elsewhere (a worker pool), keeping the
    /// points in value order.
    pub fn insert_point(&mut self, point: PointResult) {
        let at = self.points.partition_point(|p| p.value < point.value);
        self.points.insert(at, point);
        self.kafka_default_at = self
            .kafka_default
            .map(|d| default_position(&self.points, d));
    }
}

fn default_position(points: &[PointResult], default: u64) -> DefaultPosition {
    match points.iter().position(|p| p.value >= default) {
        None => DefaultPosition::AboveRange,
        Some(i) if points[i].value == default => DefaultPosition::Point { index: i },
        Some(0) => DefaultPosition::BelowRange,
        Some(i) => DefaultPosition::Between { below: i - 1 },
    }
}

/// A sweep ready to run: its result without points, and the point
/// scenarios to run (in value order). [`run_sweep`] runs them here; a page
/// hands them to a pool of workers and adds each [`PointResult`] with
/// [`SweepResult::insert_point`].
pub struct SweepPlan {
    /// Everything but the points.
    pub result: SweepResult,
    /// The points to run.
    pub points: Vec<SweepPoint>,
}

/// Checks `spec` against `scenario` and builds every point scenario.
pub fn plan(scenario: &Scenario, spec: &SweepSpec) -> Result<SweepPlan, SweepError> {
    let points = spec.points(scenario)?;
    let target = spec.parameter.resolve(scenario)?;
    let result = SweepResult {
        spec: spec.clone(),
        label: target.label.clone(),
        unit: target.unit(),
        range: target.range().clone(),
        kafka_default: target.kafka_default,
        kafka_default_at: None,
        scenario_value: target.scenario_value,
        variants: scenario
            .variant_labels()
            .into_iter()
            .map(str::to_string)
            .collect(),
        metrics: Headline::for_family(scenario.family_kind()).to_vec(),
        points: Vec::new(),
    };
    Ok(SweepPlan { result, points })
}

/// Runs one point: every compared variant, headline metrics only.
pub fn run_point(point: &SweepPoint) -> PointResult {
    point_result(
        point.value,
        point.scenario.family_kind(),
        crate::run::run(&point.scenario),
    )
}

/// A point's headline metrics from its run (made here, or by a simulator
/// worker and decoded by a page), so every front end reads the same figures.
pub fn point_result(value: u64, family: FamilyKind, run: RunResult) -> PointResult {
    let metrics = Headline::for_family(family);
    PointResult {
        value,
        runs: run
            .variants
            .into_iter()
            .map(|v| PointRun {
                metrics: metrics.iter().map(|h| h.value(&v.metrics)).collect(),
                cut: v.trace.cut,
                label: v.label,
                fingerprint: v.fingerprint,
            })
            .collect(),
    }
}

/// Runs every point of `spec` over `scenario`, one after the other.
pub fn run_sweep(scenario: &Scenario, spec: &SweepSpec) -> Result<SweepResult, SweepError> {
    let SweepPlan { mut result, points } = plan(scenario, spec)?;
    result.points = points.iter().map(run_point).collect();
    result.kafka_default_at = result
        .kafka_default
        .map(|d| default_position(&result.points, d));
    Ok(result)
}
