//! Parameter sweeps: one scenario run again and again with one numeric
//! input stepped over a range, so "which setting should I choose?" gets a
//! plot instead of a guess.
//!
//! A [`SweepSpec`] names what is swept — a Kafka config key of the compared
//! variants, a cluster-shape number or an event's time or duration
//! ([`SweepParameter`]) — and the range, step count and scale. It is data,
//! like a scenario: it travels in sweep files, presets and links.
//!
//! Split by job: `parameter` (what can be swept, its range, how it is
//! written into a scenario; `cluster` and `event_field` for the shape and
//! event parameters), `config_keys` (the numeric Kafka keys per
//! family and their ranges), `points` (the values and the point scenarios,
//! pure), `runner` (every point through [`crate::run::run`], headline
//! metrics per point), `headline` (which metrics), `csv` and `plot_layout`
//! / `plot_svg` (what front ends show), `choices` (what a form offers), `file` (the sweep file format),
//! `link` (the `&sweep=` link part), `presets` (built-in sweeps) and
//! `error`.

mod choices;
mod cluster;
mod config_keys;
mod csv;
mod error;
mod event_field;
mod file;
mod headline;
pub mod link;
mod parameter;
pub mod plot_layout;
mod plot_svg;
mod points;
pub mod presets;
mod runner;

use serde::{Deserialize, Serialize};

pub use choices::{parameters, ParameterInfo};
pub use cluster::ClusterField;
pub use config_keys::numeric_config_keys;
pub use error::SweepError;
pub use event_field::EventField;
pub use file::SweepFile;
pub use headline::Headline;
pub use parameter::{AllowedRange, SweepParameter, ValueUnit};
pub use plot_svg::render as render_svg;
pub use points::{sweep_values, SweepPoint};
pub use runner::{
    plan, point_result, run_point, run_sweep, DefaultPosition, PointResult, PointRun, SweepPlan,
    SweepResult,
};

use crate::scenario::Scenario;

/// The sweep format version this build writes (in sweep files and links).
pub const SWEEP_VERSION: u32 = 1;
/// Points when a spec names no step count.
pub const DEFAULT_STEPS: u32 = 20;
/// Fewest points a sweep may ask for: a line needs two.
pub const MIN_STEPS: u32 = 2;
/// Most points a sweep may ask for: each point is a whole run per compared
/// variant, and a link is untrusted input.
pub const MAX_STEPS: u32 = 100;

/// One sweep: what is stepped, over which range, in how many points.
///
/// In JSON (sweep files, links) the parameter is flat, as on the CLI:
/// `{"key": "scheduled.rebalance.max.delay.ms", "variant": "cooperative",
/// "from": 0, "to": 600000, "steps": 21, "scale": "linear"}`; `variant`,
/// `index`, `steps` (20) and `scale` (linear) may be left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SpecWire", into = "SpecWire")]
pub struct SweepSpec {
    /// What is swept.
    pub parameter: SweepParameter,
    /// First value (inclusive).
    pub from: u64,
    /// Last value (inclusive), greater than `from`.
    pub to: u64,
    /// Points requested, endpoints included ([`DEFAULT_STEPS`] when absent).
    /// Values are whole numbers, so a narrow integer range may give fewer
    /// distinct points.
    pub steps: u32,
    /// How the points are spaced.
    pub scale: Scale,
}

/// A spec as JSON writes it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecWire {
    key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    variant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
    from: u64,
    to: u64,
    #[serde(default = "default_steps", skip_serializing_if = "is_default_steps")]
    steps: u32,
    #[serde(default, skip_serializing_if = "is_linear")]
    scale: Scale,
}

impl TryFrom<SpecWire> for SweepSpec {
    type Error = SweepError;

    fn try_from(w: SpecWire) -> Result<Self, SweepError> {
        Ok(SweepSpec {
            parameter: SweepParameter::parse_key(&w.key, w.variant.as_deref(), w.index)?,
            from: w.from,
            to: w.to,
            steps: w.steps,
            scale: w.scale,
        })
    }
}

impl From<SweepSpec> for SpecWire {
    fn from(s: SweepSpec) -> Self {
        let (key, variant, index) = s.parameter.key();
        SpecWire {
            variant: variant.map(str::to_string),
            key,
            index,
            from: s.from,
            to: s.to,
            steps: s.steps,
            scale: s.scale,
        }
    }
}

/// How a sweep's points are spaced between `from` and `to`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// Evenly spaced values.
    #[default]
    Linear,
    /// Evenly spaced on a logarithmic axis (a constant ratio between
    /// neighbours); `from` must be at least 1.
    Log,
}

impl Scale {
    /// `linear` or `log`, as in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Scale::Linear => "linear",
            Scale::Log => "log",
        }
    }
}

fn default_steps() -> u32 {
    DEFAULT_STEPS
}

fn is_default_steps(steps: &u32) -> bool {
    *steps == DEFAULT_STEPS
}

fn is_linear(scale: &Scale) -> bool {
    *scale == Scale::Linear
}

impl SweepSpec {
    /// Parses a spec from JSON (its shape only; [`SweepSpec::validate`]
    /// checks it against a scenario).
    pub fn from_json(text: &str) -> Result<SweepSpec, SweepError> {
        serde_json::from_str(text).map_err(|e| SweepError::Parse(e.to_string()))
    }

    /// Compact JSON, as in links.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a sweep spec serializes")
    }

    /// Checks the spec against the scenario it sweeps: the parameter exists
    /// in this scenario's family, the step count, the range order, and
    /// `from` and `to` within the parameter's range (Kafka's where Kafka has
    /// one). The point scenarios are checked by [`SweepSpec::points`].
    pub fn validate(&self, scenario: &Scenario) -> Result<(), SweepError> {
        if !(MIN_STEPS..=MAX_STEPS).contains(&self.steps) {
            return Err(SweepError::invalid(
                "steps",
                format!(
                    "is {}; a sweep has {MIN_STEPS} to {MAX_STEPS} points",
                    self.steps
                ),
            ));
        }
        let target = self.parameter.resolve(scenario)?;
        if self.to <= self.from {
            return Err(SweepError::invalid(
                "to",
                format!(
                    "is {}, not greater than from ({}); sweep from the smaller value to the larger",
                    self.to, self.from
                ),
            ));
        }
        if self.scale == Scale::Log && self.from == 0 {
            return Err(SweepError::invalid(
                "from",
                "is 0; a log sweep starts at 1 or more (use a linear sweep to include 0)",
            ));
        }
        let range = target.range();
        for (field, value) in [("from", self.from), ("to", self.to)] {
            range.check(field, value, &self.parameter.name(), target.unit())?;
        }
        Ok(())
    }

    /// The values this spec steps through (validated against `scenario`).
    pub fn values(&self, scenario: &Scenario) -> Result<Vec<u64>, SweepError> {
        self.validate(scenario)?;
        Ok(sweep_values(self.from, self.to, self.steps, self.scale))
    }

    /// Every point: its value and the scenario with that value written in,
    /// each validated like any scenario (a refusal names the point).
    pub fn points(&self, scenario: &Scenario) -> Result<Vec<SweepPoint>, SweepError> {
        points::point_scenarios(self, scenario)
    }

    /// The scenario of one value (a point a page opens in its compare
    /// view, under its own link): `scenario` with `value` written in.
    pub fn point(&self, scenario: &Scenario, value: u64) -> Result<Scenario, SweepError> {
        self.validate(scenario)?;
        let target = self.parameter.resolve(scenario)?;
        target
            .range()
            .check("value", value, &self.parameter.name(), target.unit())?;
        points::with_value(self, scenario, value)
    }
}

#[cfg(test)]
mod tests;
