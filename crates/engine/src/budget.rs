//! What one simulated run may cost, and the verdict a run gets when it hits
//! that limit.
//!
//! A rebalance storm is real Kafka behaviour (a `rebalance.timeout.ms` shorter
//! than the time workers need to stop their tasks, a `max.poll.interval.ms`
//! shorter than processing a batch), so the simulator plays it — but a storm
//! is never quiet, and a link is untrusted input. Each variant therefore runs
//! on a budget of rebalance rounds, processed events and trace size; when it
//! hits one, it stops there and its [`Trace`](crate::trace::Trace) carries a
//! [`RunCut`]. The trace up to that point is kept, so a view draws the storm.
//!
//! The limits sit far above anything the presets and the engine's workloads
//! need (measured, see `docs/performance.md`): the presets stay below 270
//! events, 15 rounds and 600 trace entries per variant; the engine's
//! workloads need at most 144,305 events (`connect-scenario-1000w-100000t`,
//! cooperative), 208 rounds (`connect-rolling-restart-100w-10000t`) and
//! 2,683,368 trace entries (`connect-scenario-1000w-100000t`, eager) per
//! variant.

use serde::{Deserialize, Serialize};

use crate::wording::duration;

/// Rebalance rounds one variant may record before it is cut. A settling
/// group needs a handful per scenario event; 10,000 only happens in a storm.
pub const MAX_ROUNDS: usize = 10_000;

/// Events of protocol work one variant may process before it is cut: 14
/// times what the largest workload (1,000 workers × 100,000 tasks, a join,
/// a crash and a rolling restart) needs. Steady events (the regular
/// heartbeats of a settled streams group, see [`MAX_STEADY_EVENTS`]) do not
/// count: a long stable run is not a storm.
pub const MAX_EVENTS: u64 = 2_000_000;

/// Steady events one variant may process before it is cut: the regular
/// heartbeats of a settled streams group (KIP-1071 members heartbeat every
/// `streams.heartbeat.interval.ms` whatever happens), which change nothing
/// but cost time to play one by one. A run whose rest is only such
/// heartbeats skips them (the trace is the same); this bounds the others,
/// a stable group waiting for a late scripted event: 1,000 members for
/// 9 hours of 5 s heartbeats, at about 1.2 µs an event natively
/// (measured, `docs/performance.md`).
pub const MAX_STEADY_EVENTS: u64 = 20_000_000;

/// Trace entries — state spans, protocol steps and item-list entries, the
/// parts that grow with the run — one variant may record before it is cut:
/// 3.7 times the largest workload (eager, 1,000 workers × 100,000 tasks,
/// whose every round stops and starts every task). An item-list entry
/// costs 4 bytes, a span 40, a step about 100.
pub const MAX_TRACE_ENTRIES: usize = 10_000_000;

/// Which limit a run hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BudgetKind {
    /// [`MAX_ROUNDS`] rebalance rounds.
    Rounds,
    /// [`MAX_EVENTS`] processed events.
    Events,
    /// [`MAX_TRACE_ENTRIES`] trace entries.
    TraceSize,
    /// [`MAX_STEADY_EVENTS`] steady heartbeats: the group was stable, the
    /// run was only long.
    SteadyHeartbeats,
}

/// Where and why a run was stopped before it was quiet or reached its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunCut {
    /// The limit it hit.
    pub reason: BudgetKind,
    /// Simulated time at which it stopped (the trace ends here).
    pub at_ms: u64,
    /// Rebalance rounds recorded by then.
    pub rounds: u64,
    /// Events processed by then (protocol work and steady heartbeats).
    pub events: u64,
    /// Trace entries recorded by then (see [`MAX_TRACE_ENTRIES`]).
    pub trace_entries: u64,
}

impl RunCut {
    /// The verdict in one line, e.g. "the group did not stabilise: 10,000
    /// rebalance rounds in 4 min 10 s; stopped here".
    pub fn verdict(&self) -> String {
        let rounds = thousands(self.rounds);
        let took = duration(self.at_ms);
        match self.reason {
            BudgetKind::Rounds => format!(
                "the group did not stabilise: {rounds} rebalance rounds in {took}; stopped here"
            ),
            BudgetKind::Events => format!(
                "the run did not settle: {} events ({rounds} rebalance rounds) in {took}; stopped here",
                thousands(self.events)
            ),
            BudgetKind::TraceSize => format!(
                "the trace outgrew the playground: {} entries ({rounds} rebalance rounds) in {took}; stopped here",
                thousands(self.trace_entries)
            ),
            BudgetKind::SteadyHeartbeats => format!(
                "the group was stable, but the run is longer than the playground plays heartbeat by heartbeat: {} events in {took}; stopped here",
                thousands(self.events)
            ),
        }
    }

    /// The verdict as the trace's `simulation_stopped` step explains it: a
    /// sentence, with what Kafka would do.
    pub fn explanation(&self) -> String {
        let verdict = self.verdict();
        let rest = verdict.strip_prefix('t').unwrap_or(&verdict);
        format!(
            "T{rest}. Kafka would go on; the playground simulates up to {} rounds, {} events of protocol work, {} steady heartbeat events and {} trace entries per run.",
            thousands(MAX_ROUNDS as u64),
            thousands(MAX_EVENTS),
            thousands(MAX_STEADY_EVENTS),
            thousands(MAX_TRACE_ENTRIES as u64)
        )
    }
}

/// How far one variant's run has got: what [`crate::run::run_observed`]
/// hands its observer every [`OBSERVE_EVERY`] events. Reporting reads the
/// run and changes nothing, so an observed run gives the same result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunProgress {
    /// Which compared variant (0-based).
    pub variant: u32,
    /// How many variants the scenario compares.
    pub variants: u32,
    /// Simulated time on the variant's own clock (t = 0 when its group formed).
    pub simulated_ms: u64,
    /// Rebalance rounds recorded so far.
    pub rounds: u64,
    /// Events processed so far.
    pub events: u64,
}

impl RunProgress {
    /// The share of its budget this variant has used (the nearest limit),
    /// from 0 to 1: a storm's run ends at 1, a settling run well before.
    pub fn budget_used(&self) -> f64 {
        let rounds = self.rounds as f64 / MAX_ROUNDS as f64;
        let events = self.events as f64 / MAX_EVENTS as f64;
        rounds.max(events).min(1.0)
    }

    /// The progress in one line, e.g. "variant 2 of 4: 3 min 10 s
    /// simulated, 4,213 rebalance rounds, 1,200,000 events".
    pub fn summary(&self) -> String {
        format!(
            "variant {} of {}: {} simulated, {} rebalance rounds, {} events",
            self.variant + 1,
            self.variants,
            duration(self.simulated_ms),
            thousands(self.rounds),
            thousands(self.events)
        )
    }
}

/// A run tells its observer where it stands every this many processed
/// events: rare enough to cost nothing measurable (a counter check per
/// event), often enough that a caller running it in slices stops within a
/// few milliseconds (the page's Web Worker gives its thread back between
/// slices, so that a superseded run stops; a caller throttles its progress
/// posts to wall time, as the worker does to one every 100 ms).
pub const OBSERVE_EVERY: u64 = 64;

/// `10000` → `10,000`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What a run has used so far, checked before each event.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Usage {
    pub(crate) rounds: usize,
    /// Every processed event, steady ones included.
    pub(crate) events: u64,
    /// The steady ones among them ([`MAX_STEADY_EVENTS`]).
    pub(crate) steady_events: u64,
    pub(crate) trace_entries: usize,
}

impl Usage {
    /// The limit this usage has reached, if any (rounds first: the most
    /// telling verdict for a storm).
    pub(crate) fn exceeded(&self) -> Option<BudgetKind> {
        if self.rounds >= MAX_ROUNDS {
            Some(BudgetKind::Rounds)
        } else if self.events - self.steady_events >= MAX_EVENTS {
            Some(BudgetKind::Events)
        } else if self.trace_entries >= MAX_TRACE_ENTRIES {
            Some(BudgetKind::TraceSize)
        } else if self.steady_events >= MAX_STEADY_EVENTS {
            Some(BudgetKind::SteadyHeartbeats)
        } else {
            None
        }
    }

    /// The cut at `at_ms` for `reason`.
    pub(crate) fn cut(&self, reason: BudgetKind, at_ms: u64) -> RunCut {
        RunCut {
            reason,
            at_ms,
            rounds: self.rounds as u64,
            events: self.events,
            trace_entries: self.trace_entries as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_names_the_limit_and_the_time() {
        let usage = Usage {
            rounds: 10_000,
            events: 123_456,
            steady_events: 0,
            trace_entries: 7,
        };
        assert_eq!(usage.exceeded(), Some(BudgetKind::Rounds));
        let cut = usage.cut(BudgetKind::Rounds, 250_000);
        assert_eq!(
            cut.verdict(),
            "the group did not stabilise: 10,000 rebalance rounds in 4 min 10 s; stopped here"
        );
        let events = Usage {
            rounds: 3,
            events: MAX_EVENTS,
            steady_events: 0,
            trace_entries: 0,
        };
        assert_eq!(events.exceeded(), Some(BudgetKind::Events));
        assert!(events
            .cut(BudgetKind::Events, 40)
            .verdict()
            .contains("2,000,000 events (3 rebalance rounds) in 40 ms"));
        let size = Usage {
            rounds: 0,
            events: 0,
            steady_events: 0,
            trace_entries: MAX_TRACE_ENTRIES,
        };
        assert_eq!(size.exceeded(), Some(BudgetKind::TraceSize));
        let under = Usage {
            rounds: MAX_ROUNDS - 1,
            events: MAX_EVENTS - 1,
            steady_events: 0,
            trace_entries: MAX_TRACE_ENTRIES - 1,
        };
        assert_eq!(under.exceeded(), None);
    }

    #[test]
    fn steady_heartbeats_are_not_protocol_work_but_are_bounded() {
        let long_and_stable = Usage {
            rounds: 2,
            events: MAX_EVENTS + 10_000_000,
            steady_events: 10_000_001,
            trace_entries: 500,
        };
        assert_eq!(long_and_stable.exceeded(), None, "not a storm");
        let too_long = Usage {
            events: MAX_STEADY_EVENTS + 5,
            steady_events: MAX_STEADY_EVENTS,
            ..long_and_stable
        };
        assert_eq!(too_long.exceeded(), Some(BudgetKind::SteadyHeartbeats));
        let verdict = too_long
            .cut(BudgetKind::SteadyHeartbeats, 7_200_000)
            .verdict();
        assert!(verdict.starts_with("the group was stable"), "{verdict}");
        assert!(!verdict.contains("did not"), "{verdict}");
        let storm_among_heartbeats = Usage {
            events: MAX_EVENTS + 7,
            steady_events: 7,
            ..long_and_stable
        };
        assert_eq!(storm_among_heartbeats.exceeded(), Some(BudgetKind::Events));
    }

    #[test]
    fn progress_says_where_the_run_is() {
        let p = RunProgress {
            variant: 1,
            variants: 4,
            simulated_ms: 190_000,
            rounds: 4_213,
            events: 1_000_000,
        };
        assert_eq!(
            p.summary(),
            "variant 2 of 4: 3 min 10 s simulated, 4,213 rebalance rounds, 1,000,000 events"
        );
        assert!(
            (p.budget_used() - 0.5).abs() < 1e-9,
            "events are the nearest limit"
        );
        let storm = RunProgress {
            rounds: MAX_ROUNDS as u64 * 2,
            ..p
        };
        assert_eq!(storm.budget_used(), 1.0);
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
