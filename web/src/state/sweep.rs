//! The sweep view's state: what is swept (a [`SweepSpec`], maybe a built-in
//! sweep's question), the run in progress and its points so far. Pure, like
//! [`super::playground`]: the view's pool of simulator workers reports each
//! point as an action; the plot is drawn from the result by
//! `engine::sweep::plot_layout`.

use engine::fixed::clamp;
use std::rc::Rc;

use engine::scenario::Scenario;
use engine::sweep::{
    self, plot_layout::PlotOptions, ParameterInfo, PointResult, Scale, SweepParameter, SweepPoint,
    SweepResult, SweepSpec, DEFAULT_STEPS,
};
use yew::Reducible;

/// A built-in sweep's question, shown above its plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// `sweeps/<name>`: the link stays `#p=sweeps/<name>` while neither the
    /// scenario nor the spec is changed.
    pub preset: &'static str,
    /// The question.
    pub title: String,
    /// What the plot shows.
    pub description: String,
    /// The scenario it sweeps, to tell whether it was edited.
    pub scenario: Rc<Scenario>,
    /// Its spec, likewise.
    pub spec: SweepSpec,
}

/// One run of a sweep (every point, every compared variant).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRun {
    /// Tells runs apart: a point of an older run is dropped.
    pub id: u64,
    /// The scenario that was swept.
    pub scenario: Rc<Scenario>,
    /// The points to run, in value order (the pool takes them from here).
    pub points: Rc<Vec<SweepPoint>>,
    /// What is known so far: the points that have finished.
    pub result: SweepResult,
    /// Points that could not run: value and why.
    pub failed: Vec<(u64, String)>,
    /// Cancelled before every point finished.
    pub cancelled: bool,
    /// When it started (the page's clock, ms).
    pub started_ms: f64,
    /// When its last point finished.
    pub finished_ms: Option<f64>,
}

impl SweepRun {
    /// Points finished (or failed).
    pub fn done(&self) -> usize {
        self.result.points.len() + self.failed.len()
    }

    /// Points in all.
    pub fn total(&self) -> usize {
        self.points.len()
    }

    /// Still running.
    pub fn running(&self) -> bool {
        !self.cancelled && self.done() < self.total()
    }
}

/// The sweep view's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepModel {
    /// The view is shown (instead of the comparison).
    pub open: bool,
    /// What to sweep; `None` until one is picked (the view then offers the
    /// scenario's first parameter).
    pub spec: Option<SweepSpec>,
    /// The built-in sweep it came from.
    pub question: Option<Question>,
    /// Run as soon as the scenario is there (a link asked for the sweep).
    pub run_when_ready: bool,
    /// The newest run.
    pub run: Option<SweepRun>,
    /// Why the sweep cannot run (a bad link's sweep, a refused spec).
    pub error: Option<String>,
    runs: u64,
}

/// Everything that changes the sweep view.
#[derive(Clone, Debug)]
pub enum SweepAction {
    /// Show the view for `scenario` (the toolbar's Sweep button); a
    /// scenario without a sweep gets its first parameter.
    Open(Rc<Scenario>),
    /// A link holds this sweep: show it and run it once its scenario is open.
    FromLink(SweepSpec),
    /// A link names a built-in sweep.
    FromPreset(Question),
    /// A link's sweep part could not be read: why.
    BadLink(String),
    /// Sweep another parameter, over a range suggested for `scenario`.
    Parameter(SweepParameter, Rc<Scenario>),
    /// First value.
    From(u64),
    /// Last value.
    To(u64),
    /// Point count.
    Steps(u32),
    /// Spacing.
    Scale(Scale),
    /// Run the spec over `scenario`, started at `at_ms`.
    Run(Rc<Scenario>, f64),
    /// A point finished in run `run`, at `at_ms`.
    Point(u64, PointResult, f64),
    /// A point of run `run` failed: its value, why, when.
    PointFailed(u64, u64, String, f64),
    /// Stop the run (its workers are terminated).
    Cancel,
}

/// A range to start from for `info`: from its smallest value (or 1 on a log
/// scale) to about four times Kafka's default or twice the scenario's value,
/// within what the parameter takes.
pub fn suggested_range(info: &ParameterInfo) -> (u64, u64) {
    let from = info.range.min;
    let reach = info
        .kafka_default
        .unwrap_or(0)
        .saturating_mul(4)
        .max(info.scenario_value.saturating_mul(2))
        .max(from.saturating_add(4));
    let to = reach.clamp(from.saturating_add(1), info.range.max.max(from + 1));
    (from, to)
}

/// The spec of a newly picked parameter: its suggested range, 20 points, linear.
pub fn spec_for(parameter: SweepParameter, scenario: &Scenario) -> Option<SweepSpec> {
    let info = parameter.info(scenario)?;
    let (from, to) = suggested_range(&info);
    Some(SweepSpec {
        parameter,
        from,
        to,
        steps: DEFAULT_STEPS,
        scale: Scale::Linear,
    })
}

/// A panel narrower than this has no room for its x labels.
const MIN_PANEL_WIDTH: f64 = 120.0;

/// The plot's sizes for a space `width` pixels wide (and, in an embed,
/// `height` high): up to three panels a row, as wide as fit; in a fixed
/// height the panels get shorter to fit every row. The title and legend
/// are the page's, above the plot, so the layout's header is empty.
pub fn plot_options(width: f64, height: Option<f64>, metrics: usize) -> PlotOptions {
    let defaults = PlotOptions::default();
    // A fixed height (an embed) takes three columns sooner: rows cost height.
    let two_columns_below = if height.is_some() { 600.0 } else { 980.0 };
    let wanted: usize = if width < 480.0 || (width < 640.0 && height.is_none()) {
        1
    } else if width < two_columns_below {
        2
    } else {
        3
    };
    let axis_left = defaults.axis_left;
    let gap = defaults.gap;
    // No more columns than panels of the least width fit.
    let fitting = ((width - defaults.right + gap) / (MIN_PANEL_WIDTH + axis_left + gap)) as usize;
    let columns = wanted.min(fitting).max(1);
    // The columns share the width less the room the last one's points
    // reach past its drawing area.
    let cell = (width - defaults.right + gap) / columns as f64;
    let panel_width = clamp(cell - axis_left - gap, MIN_PANEL_WIDTH, 420.0);
    let rows = metrics.div_ceil(columns).max(1) as f64;
    let around = defaults.title_height + defaults.axis_bottom + gap;
    let panel_height = match height {
        Some(h) => clamp((h + gap) / rows - around, 50.0, 150.0),
        None if columns == 1 => 130.0,
        None => defaults.panel_height,
    };
    PlotOptions {
        panel_width,
        panel_height,
        columns,
        axis_left,
        header: 0.0,
        ..defaults
    }
}

/// The point a key moves the plot's selection to, among `count` points in
/// value order: the arrows step (right and up to larger values; from no
/// selection, right starts at the first point and left at the last), Home
/// and End jump to the ends. `None` for any other key or no points.
pub fn step_point(current: Option<usize>, count: usize, key: &str) -> Option<usize> {
    let last = count.checked_sub(1)?;
    match key {
        "ArrowRight" | "ArrowUp" => Some(current.map_or(0, |i| (i + 1).min(last))),
        "ArrowLeft" | "ArrowDown" => Some(current.map_or(last, |i| i.saturating_sub(1).min(last))),
        "Home" => Some(0),
        "End" => Some(last),
        _ => None,
    }
}

impl SweepModel {
    /// Why the spec cannot run over `scenario`, said as the page shows it.
    pub fn refusal(&self, scenario: &Scenario) -> Option<String> {
        let spec = self.spec.as_ref()?;
        spec.validate(scenario).err().map(|e| e.to_string())
    }

    /// The built-in sweep's id while the scenario and the spec are its own.
    pub fn preset_id(&self, scenario: &Scenario) -> Option<&'static str> {
        let q = self.question.as_ref()?;
        (*q.scenario == *scenario && self.spec.as_ref() == Some(&q.spec)).then_some(q.preset)
    }

    /// The question, while the sweep is still the built-in one.
    pub fn current_question(&self, scenario: &Scenario) -> Option<&Question> {
        self.preset_id(scenario).and(self.question.as_ref())
    }

    fn with_spec(&self, f: impl FnOnce(&mut SweepSpec)) -> Self {
        let mut next = self.clone();
        if let Some(spec) = &mut next.spec {
            f(spec);
        }
        next.error = None;
        next
    }

    fn run(&self, scenario: Rc<Scenario>, at_ms: f64) -> Self {
        let Some(spec) = &self.spec else {
            return self.clone();
        };
        match sweep::plan(&scenario, spec) {
            Ok(plan) => Self {
                run: Some(SweepRun {
                    id: self.runs + 1,
                    scenario,
                    points: Rc::new(plan.points),
                    result: plan.result,
                    failed: Vec::new(),
                    cancelled: false,
                    started_ms: at_ms,
                    finished_ms: None,
                }),
                runs: self.runs + 1,
                run_when_ready: false,
                error: None,
                ..self.clone()
            },
            Err(e) => Self {
                error: Some(e.to_string()),
                run_when_ready: false,
                ..self.clone()
            },
        }
    }

    /// The run `id`, still running, changed by `f`; stamps its end when its
    /// last point comes in.
    fn on_run(&self, id: u64, at_ms: f64, f: impl FnOnce(&mut SweepRun)) -> Self {
        let mut next = self.clone();
        if let Some(run) = next.run.as_mut().filter(|r| r.id == id && r.running()) {
            f(run);
            if !run.running() {
                run.finished_ms = Some(at_ms);
            }
        }
        next
    }
}

impl Reducible for SweepModel {
    type Action = SweepAction;

    fn reduce(self: Rc<Self>, action: SweepAction) -> Rc<Self> {
        let next = match action {
            SweepAction::Open(scenario) => {
                let spec = self
                    .spec
                    .clone()
                    .filter(|s| s.validate(&scenario).is_ok())
                    .or_else(|| {
                        sweep::parameters(&scenario)
                            .into_iter()
                            .find_map(|p| spec_for(p, &scenario))
                    });
                Self {
                    open: true,
                    spec,
                    ..(*self).clone()
                }
            }
            SweepAction::FromLink(spec) => Self {
                open: true,
                spec: Some(spec),
                question: None,
                run_when_ready: true,
                error: None,
                ..(*self).clone()
            },
            SweepAction::FromPreset(question) => Self {
                open: true,
                spec: Some(question.spec.clone()),
                question: Some(question),
                run_when_ready: true,
                error: None,
                ..(*self).clone()
            },
            SweepAction::BadLink(message) => Self {
                open: true,
                run_when_ready: false,
                error: Some(message),
                ..(*self).clone()
            },
            SweepAction::Parameter(parameter, scenario) => match spec_for(parameter, &scenario) {
                Some(spec) => Self {
                    spec: Some(spec),
                    error: None,
                    ..(*self).clone()
                },
                None => (*self).clone(),
            },
            SweepAction::From(v) => self.with_spec(|s| s.from = v),
            SweepAction::To(v) => self.with_spec(|s| s.to = v),
            SweepAction::Steps(n) => self.with_spec(|s| s.steps = n),
            SweepAction::Scale(scale) => self.with_spec(|s| {
                s.scale = scale;
                // A log axis starts at 1 at the least.
                if scale == Scale::Log && s.from == 0 {
                    s.from = 1;
                }
            }),
            SweepAction::Run(scenario, at_ms) => self.run(scenario, at_ms),
            SweepAction::Point(id, point, at_ms) => {
                self.on_run(id, at_ms, |r| r.result.insert_point(point))
            }
            SweepAction::PointFailed(id, value, message, at_ms) => {
                self.on_run(id, at_ms, |r| r.failed.push((value, message)))
            }
            SweepAction::Cancel => {
                let mut next = (*self).clone();
                if let Some(run) = next.run.as_mut().filter(|r| r.running()) {
                    run.cancelled = true;
                }
                next
            }
        };
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

#[cfg(test)]
#[path = "sweep_tests.rs"]
mod tests;
