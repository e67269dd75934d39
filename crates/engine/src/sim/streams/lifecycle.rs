//! An instance's process: start, `KafkaStreams.close()`, crash, restart;
//! GC pauses (freeze), a blocked stream thread and its poll timeout; the
//! session of a silent member.

use crate::sim::driver::Simulation;
use std::collections::BTreeMap;

use super::events::Ev;
use super::member::{MemberKey, Phase, Process, TaskPhase};
use super::StreamsSimulation;
use crate::scenario::ProcessingGuarantee;
use crate::sim::group::RemovalReason;
use crate::sim::restart::comes_back;
use crate::trace::{ItemState, StepKind, WorkerState};
use crate::wording::{self, duration};

impl StreamsSimulation {
    pub(super) fn start_process(&mut self, lane: u32) {
        self.clean_state_dirs(lane);
        let l = &mut self.lanes[lane as usize];
        l.incarnations += 1;
        l.started_ms = self.driver.now();
        let inc = l.incarnations;
        l.proc = Some(Process {
            inc,
            member: None,
            phase: Phase::Starting,
            generation: 0,
            active: BTreeMap::new(),
            standby: BTreeMap::new(),
            frozen_until: None,
            blocked_until: None,
            out_of_group: false,
            rejoin_when_free: false,
            revoking: 0,
            rejoin_after_revoke: false,
        });
        self.open_worker_span(lane, WorkerState::Up);
        let start = u64::from(self.timings.instance_start_ms);
        let statics = self.lanes[lane as usize].config.group_instance_id.is_some();
        // A dynamic member's first JoinGroup is answered MEMBER_ID_REQUIRED:
        // one extra round trip (KIP-394).
        let extra = if statics { 0 } else { 2 * self.rtt };
        self.schedule(
            self.driver.now() + start + extra,
            Ev::SendJoin { lane, inc },
        );
    }

    /// `KafkaStreams.close()`: commit and checkpoint every active, no LeaveGroup.
    pub(super) fn close_instance(&mut self, lane: u32) {
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        p.phase = Phase::Stopping;
        let inc = p.inc;
        if p.out_of_group {
            // Removed from the group: its commits fail, the tasks are closed
            // dirty at once.
            let lost: Vec<u32> = std::mem::take(&mut p.active).into_keys().collect();
            for t in lost {
                self.recorder
                    .timeline
                    .remove_copy(t, lane, &mut self.recorder.pool);
                self.settle_local(lane, t);
            }
        }
        let p = self.lanes[lane as usize]
            .proc
            .as_ref()
            .expect("checked above");
        // Tasks already being revoked are stopping anyway.
        let active: Vec<u32> = p
            .active
            .iter()
            .filter(|(_, a)| a.0 != TaskPhase::Revoking)
            .map(|(&t, _)| t)
            .collect();
        let name = self.name(lane);
        self.recorder.timeline.split_off(
            lane,
            &active,
            ItemState::Stopping,
            &mut self.recorder.pool,
        );
        let exit_ms = self.driver.now() + u64::from(self.timings.task_commit_ms);
        let back = self.comeback(lane, exit_ms);
        self.note(
            Some(lane),
            StepKind::Close,
            format!("{name} closes: commits and checkpoints its tasks. Streams' main consumer sets internal.leave.group.on.close=false, so no LeaveGroup is sent (StreamsConfig CONSUMER_DEFAULT_OVERRIDES).{back}"),
        );
        self.schedule(exit_ms, Ev::Exit { lane, inc });
    }

    pub(super) fn on_exit(&mut self, lane: u32, inc: u32) {
        if self.proc_of(lane, inc).is_none() {
            return;
        }
        self.process_gone(lane, false);
    }

    pub(super) fn crash(&mut self, lane: u32) {
        let name = self.name(lane);
        let eos = self.lanes[lane as usize].config.processing_guarantee
            == ProcessingGuarantee::ExactlyOnceV2;
        let back = self.comeback(lane, self.driver.now());
        self.note(
            Some(lane),
            StepKind::Crash,
            if eos {
                format!("{name} crashes. Under exactly_once_v2 a running task's checkpoint was deleted at initialisation, so its local state is wiped (ProcessorStateManager, TaskCorruptedException).{back}")
            } else {
                format!("{name} crashes; its last checkpoints survive (at_least_once).{back}")
            },
        );
        self.process_gone(lane, eos);
    }

    /// `" As a restart, it comes back at t = …"` when a restart is planned
    /// for the process exiting at `exit_ms` (`sim::restart`), else nothing.
    fn comeback(&self, lane: u32, exit_ms: u64) -> String {
        match &self.lanes[lane as usize].restart {
            Some(r) => format!(
                " As a restart, {}.",
                comes_back(&self.recorder, exit_ms, r.downtime_ms)
            ),
            None => String::new(),
        }
    }

    /// The process is gone (clean close done, or a crash): its copies end,
    /// its state stays on disk (unless wiped), and the group notices only
    /// after `session.timeout.ms`.
    pub(super) fn process_gone(&mut self, lane: u32, wipe: bool) {
        self.clean_state_dirs(lane);
        let Some(p) = self.lanes[lane as usize].proc.take() else {
            return;
        };
        let now = self.driver.now();
        for &t in p.active.keys().chain(p.standby.keys()) {
            self.recorder
                .timeline
                .remove_copy(t, lane, &mut self.recorder.pool);
            self.settle_local(lane, t);
        }
        if wipe {
            self.lanes[lane as usize].local.clear();
        }
        self.close_worker_span(lane, now);
        if let Some(key) = p.member {
            if self.group.contains(&key) && !p.out_of_group {
                self.go_silent(key);
            }
        }
        if let Some(r) = self.lanes[lane as usize].restart.take() {
            let l = &mut self.lanes[lane as usize];
            l.version = r.version;
            l.used_metadata = None;
            l.raw_config = l.raw_config.merged(&r.config).without(&r.remove_config);
            l.config = l.raw_config.resolve(r.version);
            self.schedule(now + r.downtime_ms, Ev::ProcessStart { lane });
        }
    }

    /// Deletes the unowned task directories the running process's state
    /// cleaner has removed by now (none while no process runs).
    pub(super) fn clean_state_dirs(&mut self, lane: u32) {
        let now = self.driver.now();
        let l = &mut self.lanes[lane as usize];
        if l.proc.is_none() {
            return;
        }
        let (delay, started) = (l.config.state_cleanup_delay_ms, l.started_ms);
        l.local.retain(|_, s| !s.cleaned(delay, started, now));
    }

    pub(super) fn go_silent(&mut self, key: MemberKey) {
        if self.silent.contains_key(&key) {
            // Silent already: the session runs out from the first silence.
            return;
        }
        let session = self.lanes[key.0 as usize].config.session_timeout_ms;
        self.silent.insert(key, self.driver.now());
        let since = self.driver.now();
        self.schedule(
            self.driver.now() + session,
            Ev::SessionExpiry { key, since },
        );
    }

    pub(super) fn on_session_expiry(&mut self, key: MemberKey, since: u64) {
        if self.silent.get(&key) != Some(&since) || !self.group.contains(&key) {
            return;
        }
        self.silent.remove(&key);
        let name = self.name(key.0);
        let session = self.lanes[key.0 as usize].config.session_timeout_ms;
        self.note(
            Some(key.0),
            StepKind::SessionTimeout,
            format!(
                "The coordinator removes {name}'s member: no heartbeat for session.timeout.ms ({}).",
                duration(session)
            ),
        );
        self.set_cause(format!("{name}'s session expired"));
        if let Some(p) = self.lanes[key.0 as usize].proc.as_mut() {
            if p.member == Some(key) {
                p.out_of_group = true;
            }
        }
        let change = self
            .group
            .remove(&key, RemovalReason::SessionTimeout, self.driver.now());
        self.apply_change(change);
    }

    pub(super) fn freeze(&mut self, lane: u32, duration: u64) {
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        if p.frozen_until.is_some() {
            return;
        }
        p.frozen_until = Some(self.driver.now() + duration);
        let inc = p.inc;
        let member = p.member;
        let active: Vec<u32> = p.active.keys().copied().collect();
        self.recorder
            .timeline
            .split_off(lane, &active, ItemState::Frozen, &mut self.recorder.pool);
        self.open_worker_span(lane, WorkerState::Frozen);
        if let Some(key) = member {
            if self.group.contains(&key) {
                self.go_silent(key);
            }
        }
        self.schedule(self.driver.now() + duration, Ev::Resume { lane, inc });
    }

    pub(super) fn on_resume(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        p.frozen_until = None;
        let member = p.member;
        let out = p.out_of_group;
        self.open_worker_span(lane, WorkerState::Up);
        if let Some(key) = member {
            self.silent.remove(&key);
        }
        let name = self.name(lane);
        if out {
            // It still believes it owns its tasks and processes the running
            // ones until its first heartbeat answers UNKNOWN_MEMBER_ID
            // (`AbstractCoordinator.HeartbeatResponseHandler`); tasks that were not running yet never get
            // to process before onPartitionsLost closes them.
            let (mut running, mut idle) = (Vec::new(), Vec::new());
            if let Some(p) = self.lanes[lane as usize].proc.as_ref() {
                for (&t, a) in &p.active {
                    if a.0 == TaskPhase::Running {
                        running.push(t);
                    } else {
                        idle.push(t);
                    }
                }
            }
            for &t in &idle {
                if let Some(p) = self.proc_mut(lane, inc) {
                    p.active.remove(&t);
                }
                self.recorder
                    .timeline
                    .remove_copy(t, lane, &mut self.recorder.pool);
                self.settle_local(lane, t);
            }
            self.recorder.timeline.split_off(
                lane,
                &running,
                ItemState::Zombie,
                &mut self.recorder.pool,
            );
            self.note(
                Some(lane),
                StepKind::Zombie,
                format!("{name} resumes after its session expired: it processes its old tasks as a zombie until its next heartbeat is answered UNKNOWN_MEMBER_ID (their new owners already run them; under EOS its commit would be fenced)."),
            );
            self.schedule(self.driver.now() + self.rtt, Ev::ZombieEnds { lane, inc });
            return;
        }
        self.resume_tasks(lane);
        self.maybe_rejoin_when_free(lane, inc);
    }

    pub(super) fn on_zombie_ends(&mut self, lane: u32, inc: u32) {
        // Already found out on its own (a poll after a blocked handler)?
        if !self.proc_of(lane, inc).is_some_and(|p| p.out_of_group) {
            return;
        }
        self.lose_tasks(lane, inc);
    }

    /// `onPartitionsLost`: the member fell out of the group; its actives are
    /// closed dirty and it rejoins as a new member (`ConsumerCoordinator.onJoinPrepare`).
    pub(super) fn lose_tasks(&mut self, lane: u32, inc: u32) {
        let name = self.name(lane);
        let eos = self.lanes[lane as usize].config.processing_guarantee
            == ProcessingGuarantee::ExactlyOnceV2;
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        let active: Vec<u32> = std::mem::take(&mut p.active).into_keys().collect();
        p.out_of_group = false;
        p.member = None;
        p.phase = Phase::Starting;
        for &t in &active {
            self.recorder
                .timeline
                .remove_copy(t, lane, &mut self.recorder.pool);
            self.settle_local(lane, t);
            if eos {
                self.lanes[lane as usize].local.remove(&t);
            }
        }
        self.note(
            Some(lane),
            StepKind::PartitionsLost,
            format!("{name} learns it is no longer a member: onPartitionsLost closes its {} tasks dirty and it rejoins.", active.len()),
        );
        self.send_join(lane, inc);
    }

    pub(super) fn block(&mut self, lane: u32, duration: u64) {
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        if p.blocked_until.is_some() {
            return;
        }
        p.blocked_until = Some(self.driver.now() + duration);
        let inc = p.inc;
        let active: Vec<u32> = p.active.keys().copied().collect();
        self.recorder
            .timeline
            .split_off(lane, &active, ItemState::Frozen, &mut self.recorder.pool);
        let max_poll = self.lanes[lane as usize].config.max_poll_interval_ms;
        let name = self.name(lane);
        self.note(
            Some(lane),
            StepKind::Blocked,
            format!("{name}'s stream thread blocks in a record handler for {}: no poll(), no processing; its heartbeat thread keeps the session alive (max.poll.interval.ms is {}).", wording::duration(duration), wording::duration(max_poll)),
        );
        if duration > max_poll {
            self.schedule(self.driver.now() + max_poll, Ev::PollTimeout { lane, inc });
        }
        self.schedule(self.driver.now() + duration, Ev::Unblock { lane, inc });
    }

    pub(super) fn on_poll_timeout(&mut self, lane: u32, inc: u32) {
        // The heartbeat thread is frozen with the rest of the JVM.
        if let Some(until) = self.proc_of(lane, inc).and_then(|p| p.frozen_until) {
            self.schedule(until, Ev::PollTimeout { lane, inc });
            return;
        }
        let statics = self.lanes[lane as usize].config.group_instance_id.is_some();
        let max_poll = self.lanes[lane as usize].config.max_poll_interval_ms;
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        let Some(key) = p.member else {
            return;
        };
        p.out_of_group = true;
        let name = self.name(lane);
        if statics {
            self.note(
                Some(lane),
                StepKind::PollTimeout,
                format!("{name} has not polled for max.poll.interval.ms ({}): a static member sends no LeaveGroup, it stops heartbeating and its session runs out.", duration(max_poll)),
            );
            self.go_silent(key);
        } else {
            self.note(
                Some(lane),
                StepKind::PollTimeout,
                format!("{name} has not polled for max.poll.interval.ms ({}): its heartbeat thread sends LeaveGroup, a rebalance starts at once (AbstractCoordinator.maybeLeaveGroup).", duration(max_poll)),
            );
            self.set_cause(format!("{name} exceeded max.poll.interval.ms"));
            let change = self
                .group
                .remove(&key, RemovalReason::LeaveGroup, self.driver.now());
            self.apply_change(change);
        }
    }

    pub(super) fn on_unblock(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if let Some(until) = p.frozen_until {
            // A frozen JVM's handler returns when it resumes.
            self.schedule(until, Ev::Unblock { lane, inc });
            return;
        }
        p.blocked_until = None;
        let out = p.out_of_group;
        if out {
            self.lose_tasks(lane, inc);
            return;
        }
        self.resume_tasks(lane);
        self.maybe_rejoin_when_free(lane, inc);
    }

    /// Frozen or blocked actives go back to the state they were in.
    pub(super) fn resume_tasks(&mut self, lane: u32) {
        let Some(p) = self.lanes[lane as usize].proc.as_ref() else {
            return;
        };
        if p.is_busy() {
            // Still frozen or blocked for the other reason.
            return;
        }
        let mut by_state: BTreeMap<ItemState, Vec<u32>> = BTreeMap::new();
        for (&t, &(phase, _)) in &p.active {
            let state = match phase {
                TaskPhase::Initializing => ItemState::Starting,
                TaskPhase::Restoring => ItemState::Restoring,
                TaskPhase::Running => ItemState::Running,
                TaskPhase::Revoking => ItemState::Stopping,
            };
            by_state.entry(state).or_default().push(t);
        }
        for (state, tasks) in by_state {
            self.recorder
                .timeline
                .split_off(lane, &tasks, state, &mut self.recorder.pool);
        }
    }

    pub(super) fn maybe_rejoin_when_free(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if p.rejoin_when_free {
            p.rejoin_when_free = false;
            self.begin_rejoin(lane, inc);
        }
    }

    pub(super) fn busy(&self, lane: u32, inc: u32) -> bool {
        self.proc_of(lane, inc).is_some_and(Process::is_busy)
    }
}
