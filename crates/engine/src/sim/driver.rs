//! The discrete-event driver both simulators run on: the simulated clock, the
//! future-event list, the run's budget (`crate::budget`) and the cut, and the
//! loops that run a simulation until it is quiet or until a time.
//!
//! A simulator implements [`Simulation`]: it hands out its driver and its
//! [`TraceRecorder`] and handles one event at a time; everything else
//! (`schedule`, `note`, worker spans, `run_until*`) comes from the trait, so
//! both families count, stop and record in the same way.

use std::ops::ControlFlow;

use super::event_queue::EventQueue;
use super::recorder::TraceRecorder;
use crate::budget::{RunCut, Usage, OBSERVE_EVERY};
use crate::trace::{StepKind, WorkerState};

/// What the driver needs to know about an event.
pub(crate) trait DriverEvent {
    /// Background events (a periodic check) do not keep a run from being
    /// quiet: [`Simulation::run_until_quiet_observed`] stops when only they remain.
    fn is_background(&self) -> bool;

    /// Steady events (a settled group's regular heartbeats) change nothing
    /// and count against [`crate::budget::MAX_STEADY_EVENTS`] instead of
    /// the storm budget. None by default.
    fn is_steady(&self) -> bool {
        false
    }
}

/// Where a run stands, for a progress observer: the simulated time (the
/// driver's clock), rounds recorded and events processed so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) now_ms: u64,
    pub(crate) rounds: u64,
    pub(crate) events: u64,
}

/// Told where a run stands every [`OBSERVE_EVERY`] events. It never
/// steers the run (an observed run is the same run), but it may stop it:
/// [`ControlFlow::Break`] leaves the run where it is, unfinished, for the
/// caller to throw away (`crate::run::run_steered`).
pub(crate) type Observer<'a> = &'a mut dyn FnMut(Position) -> ControlFlow<()>;

/// The clock and the queue of one run.
#[derive(Debug)]
pub(crate) struct SimulationDriver<E> {
    now: u64,
    queue: EventQueue<E>,
    /// Pending events that are not background.
    foreground: usize,
    processed: u64,
    /// The steady ones among the processed events.
    steady: u64,
    /// When the last foreground event was processed.
    last_activity: u64,
    /// Set when the run hit its budget; the queue is kept as it was.
    cut: Option<RunCut>,
}

impl<E: DriverEvent> SimulationDriver<E> {
    /// A run at time 0 with nothing scheduled.
    pub(crate) fn new() -> Self {
        Self {
            now: 0,
            queue: EventQueue::new(),
            foreground: 0,
            processed: 0,
            steady: 0,
            last_activity: 0,
            cut: None,
        }
    }

    /// The simulated time, ms.
    pub(crate) fn now(&self) -> u64 {
        self.now
    }

    /// Schedules `event` at `at_ms`, or now if that is in the past.
    pub(crate) fn schedule(&mut self, at_ms: u64, event: E) {
        if !event.is_background() {
            self.foreground += 1;
        }
        self.queue.schedule(at_ms.max(self.now), event);
    }

    /// Where the run was cut, if it hit its budget.
    pub(crate) fn cut(&self) -> Option<RunCut> {
        self.cut
    }

    /// The time of the next event when one is due by `limit_ms` and the run
    /// has not been cut.
    pub(crate) fn next_due(&self, limit_ms: u64) -> Option<u64> {
        if self.cut.is_some() {
            return None;
        }
        self.queue.peek_time().filter(|&t| t <= limit_ms)
    }

    /// Cuts the run now when `usage` (with this driver's event count) has
    /// reached the budget; the clock and the queue stay as they are.
    fn check_budget(&mut self, rounds: usize, trace_entries: usize) -> Option<RunCut> {
        let usage = Usage {
            rounds,
            events: self.processed,
            steady_events: self.steady,
            trace_entries,
        };
        let cut = usage.cut(usage.exceeded()?, self.now);
        self.cut = Some(cut);
        Some(cut)
    }

    fn pop(&mut self) -> Option<E> {
        let (t, event) = self.queue.pop()?;
        if !event.is_background() {
            self.foreground -= 1;
            self.last_activity = t;
        }
        self.processed += 1;
        self.steady += u64::from(event.is_steady());
        self.now = t;
        Some(event)
    }
}

/// A simulator on a [`SimulationDriver`], recording into a [`TraceRecorder`].
pub(crate) trait Simulation {
    /// What the simulator schedules.
    type Event: DriverEvent;

    /// The driver, to read.
    fn driver(&self) -> &SimulationDriver<Self::Event>;

    /// The driver and the recorder, to change.
    fn parts(&mut self) -> (&mut SimulationDriver<Self::Event>, &mut TraceRecorder);

    /// Handles one event; the clock and the timeline are at its time.
    fn handle(&mut self, event: Self::Event);

    /// Whether the rest of the run, when only background events are
    /// pending, cannot change the trace (a settled streams group whose
    /// regular heartbeats change nothing): [`Self::run_until_observed`]
    /// then stops early, with the same trace. No by default.
    fn rest_is_steady(&self) -> bool {
        false
    }

    /// Schedules `event` at `at_ms`, or now if that is in the past.
    fn schedule(&mut self, at_ms: u64, event: Self::Event) {
        self.parts().0.schedule(at_ms, event);
    }

    /// Records a step at the current time.
    fn note(&mut self, lane: Option<u32>, kind: StepKind, explanation: String) {
        let (driver, recorder) = self.parts();
        recorder.note(driver.now(), lane, kind, explanation);
    }

    /// A lane's process is `state` from now on.
    fn open_worker_span(&mut self, lane: u32, state: WorkerState) {
        let (driver, recorder) = self.parts();
        recorder.open_worker_span(lane, state, driver.now());
    }

    /// A lane's process ends (or changes state) at `end_ms`.
    fn close_worker_span(&mut self, lane: u32, end_ms: u64) {
        self.parts().1.close_worker_span(lane, end_ms);
    }

    /// Processes the next event: advances the clock and the timeline to it
    /// and handles it — or, when the run has used its budget, cuts it here
    /// (a `simulation_stopped` step with the verdict) and leaves the event.
    fn step(&mut self) {
        let (driver, recorder) = self.parts();
        let (rounds, entries) = (recorder.rounds.len(), recorder.trace_entries());
        if let Some(cut) = driver.check_budget(rounds, entries) {
            recorder.note(
                driver.now(),
                None,
                StepKind::SimulationStopped,
                cut.explanation(),
            );
            return;
        }
        if let Some(event) = driver.pop() {
            recorder.advance(driver.now());
            self.handle(event);
        }
    }

    /// Runs until nothing but background events remain (or `limit_ms`),
    /// telling `observer` where the run stands every [`OBSERVE_EVERY`]
    /// events; returns the time of the last foreground event (so far, if
    /// `observer` stopped it).
    fn run_until_quiet_observed(&mut self, limit_ms: u64, observer: Observer) -> u64 {
        while self.driver().foreground > 0 && self.driver().next_due(limit_ms).is_some() {
            self.step();
            if self.report(observer).is_break() {
                break;
            }
        }
        self.driver().last_activity
    }

    /// Runs every event up to and including `end_ms`, telling `observer`
    /// where the run stands every [`OBSERVE_EVERY`] events.
    fn run_until_observed(&mut self, end_ms: u64, observer: Observer) {
        while self.driver().next_due(end_ms).is_some() {
            if self.driver().foreground == 0 && self.rest_is_steady() {
                return;
            }
            self.step();
            if self.report(observer).is_break() {
                return;
            }
        }
    }

    /// Tells `observer` where the run stands, once every [`OBSERVE_EVERY`]
    /// events (a counter check otherwise), and passes on its answer; the
    /// events it reports are the protocol work, the share of the storm
    /// budget used.
    fn report(&mut self, observer: Observer) -> ControlFlow<()> {
        let events = self.driver().processed;
        if !events.is_multiple_of(OBSERVE_EVERY) {
            return ControlFlow::Continue(());
        }
        let (driver, recorder) = self.parts();
        observer(Position {
            now_ms: driver.now(),
            rounds: recorder.rounds.len() as u64,
            events: events - driver.steady,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Tick {
        background: bool,
    }

    impl DriverEvent for Tick {
        fn is_background(&self) -> bool {
            self.background
        }
    }

    #[test]
    fn background_events_do_not_count_as_activity() {
        let mut d = SimulationDriver::new();
        d.schedule(5, Tick { background: false });
        d.schedule(9, Tick { background: true });
        assert_eq!(d.foreground, 1);
        assert!(d.pop().is_some());
        assert_eq!((d.now(), d.last_activity, d.foreground), (5, 5, 0));
        assert!(d.pop().is_some());
        assert_eq!((d.now(), d.last_activity), (9, 5));
        // Scheduling in the past means now.
        d.schedule(1, Tick { background: false });
        assert_eq!(d.next_due(100), Some(9));
    }

    #[test]
    fn a_cut_run_keeps_its_queue_and_its_clock() {
        let mut d = SimulationDriver::new();
        d.schedule(3, Tick { background: false });
        d.schedule(4, Tick { background: false });
        assert!(d.pop().is_some());
        assert_eq!(d.check_budget(0, 0), None);
        d.processed = crate::budget::MAX_EVENTS;
        let cut = d.check_budget(0, 0).expect("over budget");
        assert_eq!(cut.reason, crate::budget::BudgetKind::Events);
        assert_eq!((cut.at_ms, d.now()), (3, 3));
        assert_eq!(d.queue.peek_time(), Some(4));
        assert_eq!(d.next_due(u64::MAX), None);
        assert_eq!(d.cut(), Some(cut));
    }
}
