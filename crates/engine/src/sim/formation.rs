//! Where a run's t = 0 is. By default ([`Start::Formed`]) the trace opens on
//! a group that has already formed: the run first lets the initial
//! processes form their group out of view, with the scenario's events held
//! back, and the moment nothing is pending any more (every JoinGroup,
//! SyncGroup, start and restore done: [`Simulation::run_until_quiet_observed`]) becomes
//! t = 0. The scenario's events are scheduled from there, and
//! [`present_from`] drops what came before from the trace and shifts the
//! rest, so generations, member ids and local state are those of a group
//! that has been running (`Trace::formed_generation` keeps the generation
//! the group formed in). [`Start::Empty`] shows the formation itself.

use super::driver::{Observer, Simulation};
use crate::scenario::Start;
use crate::trace::{StepKind, Trace};

/// How long formation may take before the visible run starts anyway: a
/// group still not quiet after an hour (a cold start with huge changelogs)
/// is shown from there, still settling.
pub(crate) const FORMATION_LIMIT_MS: u64 = 3_600_000;

/// What a family does at the start of a run.
pub(crate) trait ScenarioStart: Simulation {
    /// Starts the initial processes, at the current time (0).
    fn start_initial_processes(&mut self);

    /// Schedules the scenario's events, their `at_ms` counted from `origin_ms`.
    fn schedule_scenario_events(&mut self, origin_ms: u64);

    /// The group has formed, out of view: per-run counts that the trace does
    /// not hold start from here.
    fn formation_done(&mut self) {}
}

/// The recorder's note of where the visible run begins: its time, and how
/// much had been recorded by then (formation's rounds, steps and markers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Origin {
    /// The visible t = 0, in simulated ms.
    pub(crate) at_ms: u64,
    pub(crate) rounds: usize,
    pub(crate) steps: usize,
    pub(crate) markers: usize,
}

/// Starts a run as `start` says and schedules the scenario's events;
/// returns the simulated time that the trace will show as t = 0.
#[cfg(test)]
pub(crate) fn begin<S: ScenarioStart>(sim: &mut S, start: Start) -> u64 {
    start_processes(sim, start);
    let origin = form_observed(sim, start, &mut |_| std::ops::ControlFlow::Continue(()));
    origin.unwrap_or_else(|| unreachable!("an observer that never stops formation stopped it"))
}

/// [`begin`]'s first half: the initial processes start (and, for
/// [`Start::Empty`], the scenario's events are scheduled).
pub(crate) fn start_processes<S: ScenarioStart>(sim: &mut S, start: Start) {
    if start == Start::Empty {
        // The script's events are queued first, as they always were, so
        // events at t = 0 come before the processes start.
        sim.schedule_scenario_events(0);
    }
    sim.start_initial_processes();
}

/// [`begin`]'s second half, after [`start_processes`]: the group forms out
/// of view, telling `observer` where it stands, and the run's t = 0 is
/// returned. `None` if `observer` stopped it; called again, it goes on.
pub(crate) fn form_observed<S: ScenarioStart>(
    sim: &mut S,
    start: Start,
    observer: Observer,
) -> Option<u64> {
    if start == Start::Empty {
        return Some(0);
    }
    let mut stopped = false;
    sim.run_until_quiet_observed(FORMATION_LIMIT_MS, &mut |p| {
        let flow = observer(p);
        stopped |= flow.is_break();
        flow
    });
    if stopped {
        return None;
    }
    let origin = sim.driver().now();
    sim.parts().1.begin_visible_run(origin);
    sim.formation_done();
    sim.schedule_scenario_events(origin);
    Some(origin)
}

/// Drops what a trace recorded before `origin` and shifts the rest so that
/// `origin.at_ms` is t = 0. A span running across the origin is clipped to
/// it and marked as continuing (it is not a start); memberships formed
/// before keep their ids and show as joined at 0. Of formation's steps,
/// those that describe the group the run starts with stay, at 0 (see
/// [`describes_the_formed_group`]), and so does a `simulation_stopped`.
pub(crate) fn present_from(trace: &mut Trace, origin: &Origin) {
    let t0 = origin.at_ms;
    let shift = |t: u64| t.saturating_sub(t0);
    trace.end_ms = shift(trace.end_ms);
    trace.spans.retain(|s| s.end_ms > t0);
    for s in &mut trace.spans {
        s.continues |= s.start_ms < t0;
        s.start_ms = shift(s.start_ms);
        s.end_ms = shift(s.end_ms);
    }
    trace.configured.retain(|c| c.end_ms > t0);
    for c in &mut trace.configured {
        c.start_ms = shift(c.start_ms);
        c.end_ms = shift(c.end_ms);
    }
    trace.worker_spans.retain(|w| w.end_ms > t0);
    for w in &mut trace.worker_spans {
        w.start_ms = shift(w.start_ms);
        w.end_ms = shift(w.end_ms);
    }
    for m in &mut trace.members {
        m.joined_ms = shift(m.joined_ms);
    }
    let forming_rounds = origin.rounds.min(trace.rounds.len());
    trace.formed_generation = trace.rounds[..forming_rounds]
        .iter()
        .rev()
        .find(|r| r.delivered)
        .map(|r| r.generation);
    trace.rounds.drain(..forming_rounds);
    for r in &mut trace.rounds {
        r.started_ms = shift(r.started_ms);
        r.joined_ms = shift(r.joined_ms);
        r.completed_ms = shift(r.completed_ms);
    }
    let formation = origin.steps.min(trace.steps.len());
    let mut k = 0;
    trace.steps.retain(|s| {
        k += 1;
        k > formation || describes_the_formed_group(s.kind)
    });
    for s in &mut trace.steps {
        s.at_ms = shift(s.at_ms);
    }
    trace.events.drain(..origin.markers.min(trace.events.len()));
    for e in &mut trace.events {
        e.at_ms = shift(e.at_ms);
    }
    for t in &mut trace.target_assignments {
        t.computed_ms = shift(t.computed_ms);
        for c in &mut t.causes {
            c.at_ms = shift(c.at_ms);
        }
    }
    trace.member_reconciliation.retain(|r| r.end_ms > t0);
    for r in &mut trace.member_reconciliation {
        r.start_ms = shift(r.start_ms);
        r.end_ms = shift(r.end_ms);
    }
}

/// Formation steps kept at t = 0: which group protocol the vote chose and
/// why (one old worker keeps a group eager), the session key in force, and
/// an event cap hit before the group formed.
fn describes_the_formed_group(kind: StepKind) -> bool {
    matches!(
        kind,
        StepKind::GroupProtocol | StepKind::SessionKey | StepKind::SimulationStopped
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{
        ItemList, ItemState, MemberInfo, ProtocolStep, RebalanceRound, StateSpan, WorkerSpan,
        WorkerState,
    };

    fn span(state: ItemState, start_ms: u64, end_ms: u64) -> StateSpan {
        StateSpan {
            worker: Some(0),
            state,
            start_ms,
            end_ms,
            items: ItemList { start: 0, len: 1 },
            continues: false,
        }
    }

    fn step(at_ms: u64, kind: StepKind) -> ProtocolStep {
        ProtocolStep {
            at_ms,
            worker: None,
            kind,
            explanation: Default::default(),
        }
    }

    #[test]
    fn the_trace_opens_at_the_origin() {
        let round = |generation, at| RebalanceRound {
            generation,
            started_ms: at,
            joined_ms: at,
            completed_ms: at + 5,
            delivered: true,
            ..RebalanceRound::default()
        };
        let mut trace = Trace {
            end_ms: 100,
            item_lists: vec![0],
            spans: vec![
                span(ItemState::Starting, 2, 6),
                span(ItemState::Running, 6, 40),
                span(ItemState::Running, 40, 100),
            ],
            worker_spans: vec![WorkerSpan {
                worker: 0,
                state: WorkerState::Up,
                start_ms: 0,
                end_ms: 100,
                threads: 0,
            }],
            members: vec![MemberInfo {
                worker: 0,
                member_id: "m".into(),
                joined_ms: 1,
            }],
            rounds: vec![round(1, 1), round(2, 50)],
            steps: vec![
                step(1, StepKind::LeaveGroup),
                step(2, StepKind::SessionKey),
                step(60, StepKind::LeaveGroup),
            ],
            ..Trace::default()
        };
        let origin = Origin {
            at_ms: 10,
            rounds: 1,
            steps: 2,
            markers: 0,
        };
        present_from(&mut trace, &origin);
        assert_eq!(trace.end_ms, 90);
        let spans: Vec<_> = trace
            .spans
            .iter()
            .map(|s| (s.state, s.start_ms, s.end_ms, s.continues))
            .collect();
        assert_eq!(
            spans,
            [
                (ItemState::Running, 0, 30, true),
                (ItemState::Running, 30, 90, false)
            ]
        );
        assert_eq!(
            (trace.worker_spans[0].start_ms, trace.worker_spans[0].end_ms),
            (0, 90)
        );
        assert_eq!(trace.members[0].joined_ms, 0);
        assert_eq!(trace.rounds.len(), 1);
        assert_eq!(trace.formed_generation, Some(1), "formed in generation 1");
        assert_eq!(
            (trace.rounds[0].generation, trace.rounds[0].started_ms),
            (2, 40)
        );
        let steps: Vec<_> = trace.steps.iter().map(|s| (s.at_ms, s.kind)).collect();
        assert_eq!(
            steps,
            [(0, StepKind::SessionKey), (50, StepKind::LeaveGroup)]
        );
    }
}
