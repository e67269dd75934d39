//! One stream thread's poll loop when it stalls: a record handler that
//! blocks it, `max.poll.interval.ms` taking that thread's member (not the
//! instance's other threads) out of the group, and the thread finding out
//! when its handler returns.

use crate::sim::driver::Simulation;

use super::events::Ev;
use super::member::Th;
use super::StreamsSimulation;
use crate::sim::group::RemovalReason;
use crate::trace::StepKind;
use crate::wording::duration;

impl StreamsSimulation {
    /// A record handler blocks `StreamThread-<thread + 1>` for `duration_ms`.
    pub(super) fn block(&mut self, lane: u32, thread: u32, duration_ms: u64) {
        let Some(p) = self.lanes[lane as usize].proc.as_ref() else {
            return;
        };
        let inc = p.inc;
        let th = Th { lane, inc, thread };
        let name = self.name(lane);
        let now = self.driver.now();
        let Some(x) = self.thread_mut(th) else {
            self.note(
                Some(lane),
                StepKind::EventSkipped,
                format!(
                    "{name} has no StreamThread-{}; the event is skipped.",
                    thread + 1
                ),
            );
            return;
        };
        if x.blocked_until.is_some() {
            return;
        }
        x.blocked_until = Some(now + duration_ms);
        let max_poll = self.lanes[lane as usize].config.max_poll_interval_ms;
        let who = self.thread_name(th);
        self.note(
            Some(lane),
            StepKind::Blocked,
            format!("{who} blocks in a record handler for {}: no poll(), no processing of its tasks; its heartbeat thread keeps the session alive (max.poll.interval.ms is {}). The instance's other threads run on.", duration(duration_ms), duration(max_poll)),
        );
        self.replan_restore(th);
        self.show(th);
        if duration_ms > max_poll {
            self.schedule(self.driver.now() + max_poll, Ev::PollTimeout { th });
        }
        self.schedule(self.driver.now() + duration_ms, Ev::Unblock { th });
    }

    /// The thread has not polled for `max.poll.interval.ms`: its heartbeat
    /// thread takes its member out of the group
    /// (`AbstractCoordinator.maybeLeaveGroup`): LeaveGroup for a dynamic
    /// member, silence for a static one.
    pub(super) fn on_poll_timeout(&mut self, th: Th) {
        // The heartbeat thread is frozen with the rest of the JVM.
        if let Some(until) = self.proc_of(th.lane, th.inc).and_then(|p| p.frozen_until) {
            self.schedule(until, Ev::PollTimeout { th });
            return;
        }
        let statics = self.lanes[th.lane as usize]
            .config
            .group_instance_id
            .is_some();
        let max_poll = self.lanes[th.lane as usize].config.max_poll_interval_ms;
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        let Some(key) = x.member else {
            return;
        };
        x.out_of_group = true;
        let name = self.thread_name(th);
        if statics {
            self.note(
                Some(th.lane),
                StepKind::PollTimeout,
                format!("{name} has not polled for max.poll.interval.ms ({}): a static member sends no LeaveGroup, it stops heartbeating and its session runs out.", duration(max_poll)),
            );
            self.go_silent(key);
        } else {
            self.note(
                Some(th.lane),
                StepKind::PollTimeout,
                format!("{name} has not polled for max.poll.interval.ms ({}): its heartbeat thread sends LeaveGroup for this thread's member, and a rebalance starts at once (AbstractCoordinator.maybeLeaveGroup). The instance's other threads stay members.", duration(max_poll)),
            );
            self.set_cause(format!("{name} exceeded max.poll.interval.ms"));
            let change = self
                .group
                .remove(&key, RemovalReason::LeaveGroup, self.driver.now());
            self.apply_change(change);
        }
    }

    /// The handler returns: the thread polls again. Removed meanwhile, it
    /// finds out at once (`onPartitionsLost`); otherwise it processes again
    /// and rejoins if a rebalance waited for it.
    pub(super) fn on_unblock(&mut self, th: Th) {
        if let Some(until) = self.proc_of(th.lane, th.inc).and_then(|p| p.frozen_until) {
            // A frozen JVM's handler returns when it resumes.
            self.schedule(until, Ev::Unblock { th });
            return;
        }
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        x.blocked_until = None;
        if x.out_of_group {
            self.lose_tasks(th);
            return;
        }
        self.replan_restore(th);
        self.show(th);
        self.maybe_rejoin_when_free(th);
    }

    pub(super) fn maybe_rejoin_when_free(&mut self, th: Th) {
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        if x.rejoin_when_free {
            x.rejoin_when_free = false;
            self.begin_rejoin(th);
        }
    }

    /// The thread cannot run now (its JVM is frozen or it is blocked).
    pub(super) fn busy(&self, th: Th) -> bool {
        self.proc_of(th.lane, th.inc)
            .is_some_and(|p| p.free_at(th.thread).is_some())
    }
}
