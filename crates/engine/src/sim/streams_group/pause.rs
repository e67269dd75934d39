//! A long GC pause of an instance under the streams protocol: the JVM stops,
//! every StreamThread and its consumer's background thread with it, so its
//! members send no heartbeats and process nothing. A pause that outlasts
//! `streams.session.timeout.ms` gets each member fenced by the group
//! coordinator (`GroupMetadataManager`'s session timeout: the group epoch is
//! bumped, nothing is computed). On resume a fenced member's running tasks
//! process on as zombies until its next heartbeat is answered
//! `UNKNOWN_MEMBER_ID`; then `onAllTasksLost` and a rejoin with member epoch
//! 0 (`StreamsMembershipManager`). A short pause just resumes.

use super::events::Ev;
use super::{ClientState, StreamsGroupSimulation, Th};
use crate::sim::driver::Simulation;
use crate::trace::{StepKind, WorkerState};
use crate::wording::duration;

impl StreamsGroupSimulation {
    /// Until when `th`'s process is paused.
    pub(super) fn frozen_until(&self, th: Th) -> Option<u64> {
        self.lanes[th.lane as usize]
            .proc
            .as_ref()
            .filter(|p| p.inc == th.inc)?
            .frozen_until
    }

    /// The JVM of `lane` stops for `duration_ms`.
    pub(super) fn freeze(&mut self, lane: u32, duration_ms: u64) {
        let now = self.driver.now();
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        if p.frozen_until.is_some() {
            return;
        }
        let until = now + duration_ms;
        p.frozen_until = Some(until);
        let inc = p.inc;
        let members: Vec<String> = p.threads.iter().map(|x| x.member_id.clone()).collect();
        let threads = p.threads.len() as u32;
        let name = self.name(lane);
        let session = self.coordinator.config().session_timeout_ms;
        // Each member's session runs from its last heartbeat; one sent on
        // resume reaches the coordinator half a round trip later.
        let arrives = until + self.rtt / 2;
        let expiring = members
            .iter()
            .filter(|m| self.sessions.get(*m).is_some_and(|&(_, at)| at <= arrives))
            .count();
        let outcome = match expiring {
            0 => "so the group coordinator keeps its members".to_string(),
            n if n == members.len() => {
                "so the group coordinator fences its members when their sessions run out"
                    .to_string()
            }
            n => format!(
                "so the group coordinator fences {n} of its {} members when their sessions run out",
                members.len()
            ),
        };
        self.note(
            Some(lane),
            StepKind::GcPause,
            format!("{name}'s JVM pauses for {} (a long GC pause): no StreamThread polls or processes, and its consumers' background threads send no heartbeats. Sessions last streams.session.timeout.ms ({}) from each member's last heartbeat, {outcome}.", duration(duration_ms), duration(session)),
        );
        self.open_worker_span(lane, WorkerState::Frozen);
        for member_id in members {
            self.watch_session(&member_id, until);
        }
        for thread in 0..threads {
            let th = Th { lane, inc, thread };
            self.replan_restore(th);
            self.show(th);
        }
        self.schedule(until, Ev::Resume { lane, inc });
    }

    /// A paused member's session deadline is what the run waits for when it
    /// falls within the pause (or before its first heartbeat after it can
    /// arrive); otherwise the member heartbeats first, as a live one does.
    pub(super) fn watch_session(&mut self, member_id: &str, frozen_until: u64) {
        if let Some(&(token, at)) = self.sessions.get(member_id) {
            if at <= frozen_until + self.rtt {
                let member_id = member_id.to_string();
                self.schedule(at, Ev::SessionTimer { member_id, token });
            }
        }
    }

    /// The JVM runs again. A thread whose member was fenced meanwhile does
    /// not know it yet: it runs on as a zombie until its heartbeat's answer.
    pub(super) fn on_resume(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.lanes[lane as usize]
            .proc
            .as_mut()
            .filter(|p| p.inc == inc)
        else {
            return;
        };
        p.frozen_until = None;
        let threads = p.threads.len() as u32;
        self.open_worker_span(lane, WorkerState::Up);
        for thread in 0..threads {
            let th = Th { lane, inc, thread };
            let fenced = self.thread(th).is_some_and(|x| {
                x.epoch > 0
                    && !matches!(
                        x.state,
                        ClientState::Stale | ClientState::Fenced | ClientState::Leaving
                    )
                    && !self.coordinator.contains(&x.member_id)
            });
            if let Some(x) = self.thread_mut(th) {
                x.zombie = fenced;
            }
            self.replan_restore(th);
            self.show(th);
            let running = self.thread(th).map_or(0, |x| x.active.len());
            if fenced && running > 0 {
                let who = self.thread_name(th);
                self.note(
                    Some(lane),
                    StepKind::Zombie,
                    format!("{who} runs on after the group coordinator fenced its member: it processes its {running} tasks as a zombie until its next heartbeat is answered UNKNOWN_MEMBER_ID (their new owners may already run them; under EOS its commit would be fenced)."),
                );
            }
        }
    }
}
