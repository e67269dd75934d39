//! The entry point: simulate every compared variant of a scenario and compute
//! each run's metrics.

use std::ops::ControlFlow;

use serde::Serialize;

use crate::budget::RunProgress;
use crate::metrics::{FamilyMetrics, Metrics, StreamsMetrics};
use crate::scenario::{limits, Family, GroupProtocol, Scenario, Start};
use crate::sim::connect::ConnectSimulation;
use crate::sim::driver::{Observer, Position, Simulation};
use crate::sim::formation::{self, ScenarioStart};
use crate::sim::streams::StreamsSimulation;
use crate::sim::streams_group::StreamsGroupSimulation;
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

/// Simulates each compared variant. Each forms its group on its own first
/// (unless the scenario starts empty), so each column's t = 0 is its own
/// formed moment. Without `end_ms`, every variant runs until the slowest one
/// has been quiet for 30 s (`SETTLE_MARGIN_MS`) after its last activity (or
/// one day), so the columns share one time axis.
///
/// Each variant runs on the budget of [`crate::budget`]; one that hits it
/// (a rebalance storm) stops there, its trace and metrics marked as cut,
/// and ends where it was cut. The others share one end: their settle point
/// as above, or the latest cut if that is later, so a sane column is drawn
/// on the same axis as the storm next to it. Worst case for the whole call:
/// `MAX_VARIANTS` (4) × the budget of one variant.
pub fn run(scenario: &Scenario) -> RunResult {
    run_observed(scenario, &mut |_| {})
}

/// [`run`], telling `observer` how far each variant has got every
/// [`crate::budget::OBSERVE_EVERY`] events (the page's worker posts it as
/// progress). Observing changes nothing: the result is [`run`]'s.
pub fn run_observed(scenario: &Scenario, observer: &mut dyn FnMut(RunProgress)) -> RunResult {
    let run = run_steered(scenario, &mut |progress| {
        observer(progress);
        ControlFlow::Continue(())
    });
    run.unwrap_or_else(|| unreachable!("an observer that never stops the run stopped it"))
}

/// [`run_observed`] with an observer that may stop the run: on
/// [`ControlFlow::Break`] the run ends where it is, and there is no result
/// (`None`). Until then the observer hears what [`run_observed`]'s does, and
/// a run it never stops is [`run`]'s. The page uses it to simulate a small
/// scenario in the edit's own task and give up on a storm
/// (`web/src/worker/sim_worker.rs`).
pub fn run_steered(
    scenario: &Scenario,
    observer: &mut dyn FnMut(RunProgress) -> ControlFlow<()>,
) -> Option<RunResult> {
    let mut group = VariantGroup::new(scenario, 0..usize::MAX);
    let settled = group.settle(observer)?;
    let end = group.end(&settled);
    let variants = group.finish(end, observer)?;
    Some(RunResult { variants })
}

/// How a variant's first half ended ([`VariantGroup::settle`]), on the
/// variant's own clock (t = 0 when its group formed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Settled {
    /// Quiet since this time: no rebalance, no pending protocol step.
    Quiet(u64),
    /// Stopped by the run budget ([`crate::budget`]) at this time.
    Cut(u64),
}

/// Some of a scenario's compared variants, run in two halves so that
/// separate threads can share one scenario's run (the page's simulator gives
/// half of a big scenario's variants to a second Web Worker):
/// [`settle`](Self::settle) runs each variant until it is quiet,
/// [`end`](Self::end) of every variant's [`Settled`] is the end they all
/// share, and [`finish`](Self::finish) runs them to it. However a scenario's
/// variants are split into groups, the groups' runs in order are [`run`]'s
/// result: each variant simulates on its own, and only the shared end ties
/// them.
///
/// A stopped [`form`](Self::form), [`settle`](Self::settle) or
/// [`run_to`](Self::run_to) goes on where it stopped when called again (the
/// simulators stop between two events), so a caller can run a group in
/// slices, giving its thread back in between (the page's Web Worker does,
/// so that a superseded run stops within a slice), and still get [`run`]'s
/// result.
pub struct VariantGroup {
    /// The scenario, to build the variants' simulations from.
    scenario: Scenario,
    /// The scenario's indices of the variants here.
    range: std::ops::Range<usize>,
    /// The variants' simulations built so far, in order.
    columns: Vec<Box<dyn Column>>,
    /// Each formed column's t = 0 in simulated time.
    origins: Vec<u64>,
    /// How many variants the scenario compares.
    variants: u32,
    last_event_ms: Option<u64>,
}

impl VariantGroup {
    /// The scenario's variants whose indices are in `range` (clipped to the
    /// ones it has), each formed (its t = 0 found: that runs the formation,
    /// so it costs as much as the start of a run) and ready to run.
    pub fn new(scenario: &Scenario, range: std::ops::Range<usize>) -> Self {
        let mut group = Self::forming(scenario, range);
        let formed = group.form(&mut |_| ControlFlow::Continue(()));
        formed.unwrap_or_else(|| unreachable!("an observer that never stops formation stopped it"));
        group
    }

    /// [`Self::new`] with nothing built or formed yet: [`Self::form`] does
    /// that (or the first [`Self::settle`]).
    pub fn forming(scenario: &Scenario, range: std::ops::Range<usize>) -> Self {
        let (variants, last_event_ms) = match &scenario.family {
            Family::Connect(connect) => (
                connect.compare.len(),
                connect.events.iter().map(|e| e.at_ms).max(),
            ),
            Family::Streams(streams) => (
                streams.compare.len(),
                streams.events.iter().map(|e| e.at_ms).max(),
            ),
        };
        // The range clipped to the variants there are (empty when reversed).
        let start = range.start.min(variants);
        VariantGroup {
            scenario: scenario.clone(),
            range: start..range.end.clamp(start, variants),
            columns: Vec::new(),
            origins: Vec::new(),
            variants: variants as u32,
            last_event_ms,
        }
    }

    /// Builds and forms each variant in turn (its group formed out of view,
    /// its t = 0 found), telling `observer` where each stands, and once
    /// after each is built. `None` if `observer` stopped it; called again,
    /// it goes on.
    pub fn form(&mut self, observer: &mut dyn FnMut(RunProgress) -> ControlFlow<()>) -> Option<()> {
        let start = self.scenario.start;
        while self.origins.len() < self.range.len() {
            let i = self.origins.len();
            let variant = self.range.start + i;
            if self.columns.len() == i {
                let mut column = self.build(variant);
                column.start_processes(start);
                self.columns.push(column);
                // Building a big variant is work: a caller may stop here.
                let built = RunProgress {
                    variant: variant as u32,
                    variants: self.variants,
                    simulated_ms: 0,
                    rounds: 0,
                    events: 0,
                };
                if observer(built).is_break() {
                    return None;
                }
            }
            let mut stopped = false;
            let origin = {
                let mut progress =
                    progress_of(&mut *observer, &mut stopped, variant, self.variants, 0);
                self.columns[i].form(start, &mut progress)
            };
            self.origins.push(origin?);
        }
        Some(())
    }

    /// The simulation of the scenario's variant `index`.
    fn build(&self, index: usize) -> Box<dyn Column> {
        let scenario = &self.scenario;
        match &scenario.family {
            Family::Connect(connect) => Box::new(ConnectSimulation::new(
                scenario,
                connect,
                &connect.compare[index],
            )),
            Family::Streams(streams) => streams_column(scenario, streams, &streams.compare[index]),
        }
    }

    /// How many variants this group runs.
    pub fn len(&self) -> usize {
        self.range.len()
    }

    /// True when the group runs no variant.
    pub fn is_empty(&self) -> bool {
        self.range.is_empty()
    }

    /// Runs each variant until it is quiet (or cut, or one day has passed)
    /// and says how each ended; nothing to run, and no [`Settled`], when the
    /// scenario gives `end_ms`. `None` if `observer` stopped it; called
    /// again, it goes on (a settled variant stays as it is).
    pub fn settle(
        &mut self,
        observer: &mut dyn FnMut(RunProgress) -> ControlFlow<()>,
    ) -> Option<Vec<Settled>> {
        if self.scenario.end_ms.is_some() {
            self.form(observer)?;
            return Some(Vec::new());
        }
        self.run_each(observer, |column, origin, progress| {
            let last = column.run_until_quiet(origin + limits::MAX_TIME_MS, progress);
            match column.cut() {
                Some(cut) => Settled::Cut(cut.at_ms.saturating_sub(origin)),
                None => Settled::Quiet(last.saturating_sub(origin)),
            }
        })
    }

    /// The end every variant of the scenario runs to, from all of its
    /// variants' [`Settled`] (this group's and the others'): the scenario's
    /// `end_ms`; else `SETTLE_MARGIN_MS` after the slowest uncut variant was
    /// quiet (not before the last scripted event) or the latest cut if that
    /// is later, capped at one day.
    pub fn end(&self, settled: &[Settled]) -> u64 {
        if let Some(end) = self.scenario.end_ms {
            return end;
        }
        let mut settle_from = self.last_event_ms.unwrap_or(0);
        let mut latest_cut = 0;
        for s in settled {
            match *s {
                Settled::Cut(at) => latest_cut = latest_cut.max(at),
                Settled::Quiet(at) => settle_from = settle_from.max(at),
            }
        }
        (settle_from + SETTLE_MARGIN_MS)
            .max(latest_cut)
            .min(limits::MAX_TIME_MS)
    }

    /// Runs every variant to `end` (a cut one ends at its cut) and closes
    /// its trace and metrics. `None` if `observer` stopped it.
    pub fn finish(
        mut self,
        end: u64,
        observer: &mut dyn FnMut(RunProgress) -> ControlFlow<()>,
    ) -> Option<Vec<VariantRun>> {
        self.run_to(end, observer)?;
        Some(self.close(end))
    }

    /// Runs every variant to `end` (a cut one ends at its cut). `None` if
    /// `observer` stopped it; called again with the same `end`, it goes on.
    pub fn run_to(
        &mut self,
        end: u64,
        observer: &mut dyn FnMut(RunProgress) -> ControlFlow<()>,
    ) -> Option<()> {
        self.run_each(observer, |column, origin, progress| {
            column.run_until(origin + end, progress)
        })?;
        Some(())
    }

    /// Forms the group (if it is not yet), then runs `step` on each variant
    /// with its origin, in order, telling `observer` how far each has got;
    /// `None` as soon as `observer` stops one.
    fn run_each<R>(
        &mut self,
        observer: &mut dyn FnMut(RunProgress) -> ControlFlow<()>,
        mut step: impl FnMut(&mut dyn Column, u64, Observer) -> R,
    ) -> Option<Vec<R>> {
        self.form(observer)?;
        let mut stopped = false;
        let mut out = Vec::new();
        let runs = self.columns.iter_mut().zip(self.origins.iter().copied());
        for (i, (column, origin)) in runs.enumerate() {
            let done = {
                let variant = self.range.start + i;
                let mut progress =
                    progress_of(&mut *observer, &mut stopped, variant, self.variants, origin);
                step(column.as_mut(), origin, &mut progress)
            };
            if stopped {
                return None;
            }
            out.push(done);
        }
        Some(out)
    }

    /// Closes every variant's trace and metrics at `end`, once
    /// [`Self::run_to`] has run them there.
    pub fn close(self, end: u64) -> Vec<VariantRun> {
        self.columns
            .into_iter()
            .zip(self.origins)
            .map(|(column, origin)| {
                let (trace, metrics) = column.finish(origin + end);
                VariantRun::new(trace, metrics)
            })
            .collect()
    }
}

/// One family's simulation of one variant, as [`run`] drives it.
trait VariantSimulation: ScenarioStart {
    /// Closes the run at `end_ms` (or where it was cut): its trace and its
    /// metrics.
    fn finish_variant(self, end_ms: u64) -> (Trace, Metrics);
}

/// The trace of a run closed at `end_ms`, or at its cut; the cut's time is
/// given on the trace's own (formed, t = 0) clock like everything else.
fn finish_trace<S: Simulation>(
    mut sim: S,
    end_ms: u64,
    finish: impl FnOnce(S, u64) -> Trace,
) -> Trace {
    let cut = sim.driver().cut();
    let origin = sim.parts().1.origin_ms();
    let mut trace = finish(sim, cut.map_or(end_ms, |c| c.at_ms));
    trace.cut = cut.map(|c| crate::budget::RunCut {
        at_ms: c.at_ms.saturating_sub(origin),
        ..c
    });
    trace
}

impl VariantSimulation for ConnectSimulation {
    fn finish_variant(self, end_ms: u64) -> (Trace, Metrics) {
        let trace = finish_trace(self, end_ms, ConnectSimulation::finish);
        let metrics = Metrics::from_trace(&trace);
        (trace, metrics)
    }
}

impl VariantSimulation for StreamsSimulation {
    fn finish_variant(self, end_ms: u64) -> (Trace, Metrics) {
        let restored = self.records_restored();
        let trace = finish_trace(self, end_ms, StreamsSimulation::finish);
        let metrics = streams_metrics(&trace, restored);
        (trace, metrics)
    }
}

/// A Streams column runs the classic protocol's simulator or, with
/// `group.protocol=streams` (KIP-1071), the streams group's.
fn streams_column(
    scenario: &Scenario,
    streams: &crate::scenario::StreamsScenario,
    variant: &crate::scenario::StreamsVariant,
) -> Box<dyn Column> {
    let version = variant.kafka_version.unwrap_or(streams.app.version());
    let protocol = streams
        .app
        .config
        .merged(&variant.config)
        .resolve(version)
        .group_protocol;
    match protocol {
        GroupProtocol::Classic => Box::new(StreamsSimulation::new(scenario, streams, variant)),
        GroupProtocol::Streams => Box::new(StreamsGroupSimulation::new(scenario, streams, variant)),
    }
}

/// The Streams metrics of a trace.
fn streams_metrics(trace: &Trace, restored: u64) -> Metrics {
    let mut metrics = Metrics::from_trace(trace);
    metrics.family = FamilyMetrics::Streams(StreamsMetrics::from_trace(trace, &metrics, restored));
    metrics
}

impl VariantSimulation for StreamsGroupSimulation {
    fn finish_variant(self, end_ms: u64) -> (Trace, Metrics) {
        let restored = self.records_restored();
        let trace = finish_trace(self, end_ms, StreamsGroupSimulation::finish);
        let metrics = streams_metrics(&trace, restored);
        (trace, metrics)
    }
}

/// One compared column as [`run_variants`] drives it, whatever simulator
/// runs it (the columns of one Streams scenario can run different ones).
trait Column {
    /// [`formation::start_processes`].
    fn start_processes(&mut self, start: Start);
    /// [`formation::form_observed`]: the column's t = 0 in simulated time.
    fn form(&mut self, start: Start, observer: Observer) -> Option<u64>;
    /// [`Simulation::run_until_quiet_observed`].
    fn run_until_quiet(&mut self, limit_ms: u64, observer: Observer) -> u64;
    /// Where the run was cut, if it was.
    fn cut(&self) -> Option<crate::budget::RunCut>;
    /// [`Simulation::run_until_observed`].
    fn run_until(&mut self, end_ms: u64, observer: Observer);
    /// [`VariantSimulation::finish_variant`].
    fn finish(self: Box<Self>, end_ms: u64) -> (Trace, Metrics);
}

impl<S: VariantSimulation> Column for S {
    fn start_processes(&mut self, start: Start) {
        formation::start_processes(self, start)
    }
    fn form(&mut self, start: Start, observer: Observer) -> Option<u64> {
        formation::form_observed(self, start, observer)
    }
    fn run_until_quiet(&mut self, limit_ms: u64, observer: Observer) -> u64 {
        Simulation::run_until_quiet_observed(self, limit_ms, observer)
    }
    fn cut(&self) -> Option<crate::budget::RunCut> {
        self.driver().cut()
    }
    fn run_until(&mut self, end_ms: u64, observer: Observer) {
        Simulation::run_until_observed(self, end_ms, observer)
    }
    fn finish(self: Box<Self>, end_ms: u64) -> (Trace, Metrics) {
        (*self).finish_variant(end_ms)
    }
}

/// A variant's driver positions as [`RunProgress`], on its own clock; a
/// `Break` from `observer` is passed on and remembered in `stopped`.
fn progress_of<'a>(
    observer: &'a mut dyn FnMut(RunProgress) -> ControlFlow<()>,
    stopped: &'a mut bool,
    variant: usize,
    variants: u32,
    origin: u64,
) -> impl FnMut(Position) -> ControlFlow<()> + 'a {
    move |p: Position| {
        let flow = observer(RunProgress {
            variant: variant as u32,
            variants,
            simulated_ms: p.now_ms.saturating_sub(origin),
            rounds: p.rounds,
            events: p.events,
        });
        *stopped |= flow.is_break();
        flow
    }
}
