//! Worker processes: start, graceful stop (`DistributedHerder.halt`, then
//! LeaveGroup), crash, GC pauses, heartbeats and session expiry
//! (`session.timeout.ms`), and the herder thread's blocking stops. The
//! scenario's events that drive them are in `events`.

use crate::connect::protocol::ConnectProtocol;
use crate::sim::driver::Simulation;
use crate::trace::{ItemState, StepKind, WorkerState};

use super::super::group::RemovalReason;
use super::super::herder_pool::{parallel_stop_ms, CONNECTOR_GRACEFUL_SHUTDOWN_TIMEOUT_MS};
use super::super::restart::comes_back;
use super::super::timeline::BatchId;
use super::explain::work;
use super::worker::{AfterStop, ConnectWorker, Freeze, Phase, RejoinReason};
use super::{ConnectSimulation, Silent, SimEvent};
use crate::wording::{duration, plural};

/// How a blocking stop is timed.
#[derive(Clone, Copy, Debug)]
pub(super) enum StopKind {
    /// `onRevoked` / eager `onJoinPrepare`: one callable per item on the 8-thread pool.
    Pool,
    /// `Worker.stopAndAwaitTasks` / `stopAndAwaitConnector`: all signalled at
    /// once, then awaited (connectors, then tasks).
    Parallel,
}

impl ConnectSimulation {
    // --- processes -------------------------------------------------------

    pub(super) fn start_process(&mut self, lane: u32) {
        if self.lanes[lane as usize].process.is_some() {
            let name = self.name(lane).to_string();
            self.note(
                Some(lane),
                StepKind::EventSkipped,
                format!("{name} is already running; the start is skipped."),
            );
            return;
        }
        let l = &mut self.lanes[lane as usize];
        l.incarnations += 1;
        let mut w = ConnectWorker::new(l.incarnations, l.config.resolve(), self.driver.now());
        w.config_offset = self.visible_offset;
        w.session_key = self.visible_key;
        l.process = Some(w);
        self.open_worker_span(lane, WorkerState::Up);
        self.begin_join(lane, RejoinReason::Startup);
    }

    fn end_process(&mut self, lane: u32) {
        let batches: Vec<BatchId> = self.recorder.timeline.lane_batches(lane).to_vec();
        for b in batches {
            self.recorder.timeline.release(b, &mut self.recorder.pool);
        }
        if let Some(w) = self.lanes[lane as usize].process.take() {
            self.lanes[lane as usize].last_snapshot = w.snapshot;
        }
        self.close_worker_span(lane, self.driver.now());
    }

    /// The worker stops heartbeating now (crash or pause): the broker will
    /// expire it `session.timeout.ms` after its last contact.
    fn go_silent(&mut self, lane: u32) -> Option<u64> {
        let w = self.proc(lane);
        let (key, _) = w.member?;
        if !self.group.contains(&key) {
            return None;
        }
        let session = u64::from(w.config.session_timeout_ms);
        let last = w.last_contact.max(w.last_heartbeat(self.driver.now()));
        let expires = last + session;
        self.silent.insert(
            key,
            Silent {
                lane,
                expires_ms: expires,
                session_ms: session,
            },
        );
        self.schedule(
            expires,
            SimEvent::Expire {
                member: Box::new(key),
            },
        );
        Some(expires)
    }

    pub(super) fn on_expire(&mut self, key: super::member::MemberKey) {
        let Some(s) = self.silent.get(&key).copied() else {
            return;
        };
        if self.driver.now() < s.expires_ms {
            return;
        }
        if !self.group.contains(&key) {
            self.silent.remove(&key);
            return;
        }
        if self.group.has_joined(&key) {
            // A member awaiting the join response is kept alive until the
            // phase completes (the completion reschedules this check).
            return;
        }
        self.silent.remove(&key);
        let name = self.name(s.lane).to_string();
        self.note(
            Some(s.lane),
            StepKind::SessionTimeout,
            format!(
                "No heartbeat from {name} for session.timeout.ms ({}): the broker removes it from the group and starts a rebalance.",
                duration(s.session_ms)
            ),
        );
        if let Some(w) = self.lanes[s.lane as usize].process.as_mut() {
            if w.member.as_ref().is_some_and(|(k, _)| *k == key) {
                // Frozen: it will resume without knowing (a zombie).
                w.zombie = true;
            }
        }
        let change = self
            .group
            .remove(&key, RemovalReason::SessionTimeout, self.driver.now());
        self.apply_group_change(change);
    }

    pub(super) fn crash(&mut self, lane: u32) {
        let expires = self.go_silent(lane);
        let (c, t) = self.lane_work(lane);
        let name = self.name(lane).to_string();
        let notice = match expires {
            Some(e) => format!(
                "the broker notices only when its session expires at {}",
                self.clock_at(e)
            ),
            None => "it was not a group member".to_string(),
        };
        let back = self.comeback(lane, self.driver.now());
        self.note(
            Some(lane),
            StepKind::Crash,
            format!(
                "{name} crashes: its {} stop at once and nothing tells the group; {notice}.{back}",
                work(c, t)
            ),
        );
        self.end_process(lane);
    }

    /// `" It comes back at t = …, … after it exits."` when a restart is
    /// planned for the process that exits at `exit_ms`, else nothing.
    fn comeback(&self, lane: u32, exit_ms: u64) -> String {
        match &self.lanes[lane as usize].restart_after {
            Some((downtime, _)) => format!(
                " As a restart, {}.",
                comes_back(&self.recorder, exit_ms, *downtime)
            ),
            None => String::new(),
        }
    }

    pub(super) fn begin_halt(&mut self, lane: u32) {
        let batches: Vec<BatchId> = self.recorder.timeline.lane_batches(lane).to_vec();
        let (mut c, mut t) = (0, 0);
        for &b in &batches {
            self.recorder
                .timeline
                .set_state(b, ItemState::Stopping, &mut self.recorder.pool);
            let (bc, bt) = self.recorder.timeline.batch_kinds(b);
            c += bc;
            t += bt;
        }
        let took = self.stop_duration(lane, StopKind::Parallel, c, t);
        let w = self.proc_mut(lane);
        w.phase = Phase::Halting;
        let inc = w.incarnation;
        self.schedule(self.driver.now() + took, SimEvent::HaltDone { lane, inc });
        let name = self.name(lane).to_string();
        let back = self.comeback(lane, self.driver.now() + took);
        self.note(
            Some(lane),
            StepKind::GracefulStop,
            format!(
                "{name} shuts down gracefully: it stops its {} ({}), then sends LeaveGroup. To the cooperative assignor a graceful leave is the same as a crash: its work is lost and the scheduled delay applies (IncrementalCooperativeAssignor.handleLostAssignments).{back}",
                work(c, t),
                duration(took)
            ),
        );
    }

    pub(super) fn on_halt_done(&mut self, lane: u32, inc: u32) {
        let Some(w) = self.worker(lane, inc) else {
            return;
        };
        if !matches!(w.phase, Phase::Halting) {
            return;
        }
        let key = w.member.map(|(k, _)| k);
        self.end_process(lane);
        let name = self.name(lane).to_string();
        let back = self.comeback(lane, self.driver.now());
        self.note(
            Some(lane),
            StepKind::LeaveGroup,
            format!(
                "{name} sends LeaveGroup and exits; the broker starts a rebalance at once.{back}"
            ),
        );
        if let Some(key) = key {
            let change = self
                .group
                .remove(&key, RemovalReason::LeaveGroup, self.driver.now());
            self.apply_group_change(change);
        }
        self.restart_if_planned(lane);
    }

    pub(super) fn restart_if_planned(&mut self, lane: u32) {
        if let Some((downtime, config)) = self.lanes[lane as usize].restart_after.take() {
            let l = &mut self.lanes[lane as usize];
            l.config = l.config.merged(&config);
            self.schedule(
                self.driver.now() + downtime,
                SimEvent::ProcessStart { lane },
            );
        }
    }

    pub(super) fn freeze(&mut self, lane: u32, pause_ms: u64) {
        let batches: Vec<BatchId> = self.recorder.timeline.lane_batches(lane).to_vec();
        let mut prior = Vec::with_capacity(batches.len());
        for b in batches {
            prior.push((
                b,
                self.recorder.timeline.batch_token(b),
                self.recorder.timeline.batch_state(b),
            ));
            self.recorder
                .timeline
                .set_state(b, ItemState::Frozen, &mut self.recorder.pool);
        }
        let (now, until) = (self.driver.now(), self.driver.now() + pause_ms);
        let w = self.proc_mut(lane);
        w.frozen = Some(Freeze {
            since: now,
            until,
            prior,
        });
        let inc = w.incarnation;
        self.open_worker_span(lane, WorkerState::Frozen);
        let expires = self.go_silent(lane);
        self.schedule(until, SimEvent::Resume { lane, inc });
        let name = self.name(lane).to_string();
        let fate = match expires {
            Some(e) if e <= until => format!(
                "its session expires at {} — before it resumes — so the group will move on without it",
                self.clock_at(e)
            ),
            Some(e) => format!("it resumes before its session would expire at {}", self.clock_at(e)),
            None => "it is not a group member".to_string(),
        };
        self.note(
            Some(lane),
            StepKind::GcPause,
            format!(
                "{name}'s JVM freezes for {} (a long GC pause): no heartbeats, no work; {fate}.",
                duration(pause_ms)
            ),
        );
    }

    pub(super) fn on_resume(&mut self, lane: u32, inc: u32) {
        let visible_key = self.visible_key;
        let now = self.driver.now();
        let Some(w) = self.worker_mut(lane, inc) else {
            return;
        };
        let Some(f) = w.frozen.take() else { return };
        w.session_key = w.session_key.max(visible_key);
        w.hb_anchor = now;
        w.last_contact = now;
        let zombie = w.zombie;
        let key = w.member.map(|(k, _)| k);
        let held = w.held_delivery.take();
        w.notice_token += 1;
        let token = w.notice_token;
        if let Some(k) = &key {
            self.silent.remove(k);
        }
        self.open_worker_span(lane, WorkerState::Up);
        let (mut zc, mut zt, mut stopping) = (0usize, 0usize, 0usize);
        for (b, tok, prior) in f.prior {
            if self.recorder.timeline.is_current(b, tok)
                && self.recorder.timeline.batch_state(b) == ItemState::Frozen
            {
                if prior == ItemState::Stopping {
                    stopping += self.recorder.timeline.batch_len(b) as usize;
                }
                let state = if zombie && matches!(prior, ItemState::Running | ItemState::Starting) {
                    for item in self.recorder.timeline.batch_items(b) {
                        if self.work.is_task(item) {
                            zt += 1;
                        } else {
                            zc += 1;
                        }
                    }
                    ItemState::Zombie
                } else {
                    prior
                };
                self.recorder
                    .timeline
                    .set_state(b, state, &mut self.recorder.pool);
            }
        }
        let name = self.name(lane).to_string();
        let paused = duration(f.until - f.since);
        if zombie && zc + zt > 0 {
            self.note(
                Some(lane),
                StepKind::Zombie,
                format!(
                    "{name} resumes after {paused}. The broker removed it meanwhile, but it does not know: it runs its {} again as zombie copies until its next heartbeat is answered UNKNOWN_MEMBER_ID.",
                    work(zc, zt)
                ),
            );
        } else if zombie {
            self.note(
                Some(lane),
                StepKind::Zombie,
                if stopping > 0 {
                    format!("{name} resumes after {paused}. The broker removed it meanwhile, as its next heartbeat will tell it; the stop of {} it froze in finishes now, while their new owners may already run them.", plural(stopping, "item"))
                } else {
                    format!("{name} resumes after {paused}. The broker removed it meanwhile, as its next heartbeat will tell it; it runs nothing, so nothing runs twice.")
                },
            );
        } else {
            self.note(Some(lane), StepKind::Resume, format!("{name} resumes after {paused}, before its session expired; it heartbeats again."));
        }
        self.schedule(
            self.driver.now() + self.rtt,
            SimEvent::Notice { lane, inc, token },
        );
        if let Some(h) = held {
            // Its SyncGroup goes out only now: the broker answers it only if
            // that generation is still current and it is still a member.
            let current = self.group.generation() == h.generation
                && key.is_some_and(|k| self.group.contains(&k));
            if current {
                self.deliver(lane, h);
            } else {
                self.proc_mut(lane).phase = Phase::Idle;
                self.note(
                    Some(lane),
                    StepKind::SyncRejected,
                    format!("{name}'s SyncGroup for generation {} is rejected: the group moved on while it was frozen.", h.generation),
                );
            }
        }
        self.after_idle(lane);
    }

    // --- heartbeats and rejoining -----------------------------------------

    /// The member learns at its next heartbeat that the group is rebalancing.
    pub(super) fn schedule_notice(&mut self, lane: u32) {
        if let Some((at, inc, token)) = self.arm_notice(lane) {
            self.schedule(at, SimEvent::Notice { lane, inc, token });
        }
    }

    /// Arms a member's heartbeat notice: (time, incarnation, token).
    pub(super) fn arm_notice(&mut self, lane: u32) -> Option<(u64, u32, u32)> {
        let now = self.driver.now();
        let w = self.lanes[lane as usize].process.as_mut()?;
        w.notice_token += 1;
        Some((w.next_heartbeat(now), w.incarnation, w.notice_token))
    }

    pub(super) fn on_notice(&mut self, lane: u32, inc: u32, token: u32) {
        let Some(w) = self.worker(lane, inc) else {
            return;
        };
        if w.notice_token != token || matches!(w.phase, Phase::Halting) {
            return;
        }
        let Some((key, _)) = w.member else {
            return;
        };
        if !self.group.contains(&key) {
            self.learned_unknown_member(lane);
        } else if self.group.state() == super::super::group::GroupState::PreparingRebalance
            && !self.group.has_joined(&key)
        {
            self.request_rejoin(lane, RejoinReason::RebalanceNotice);
        }
    }

    pub(super) fn learned_unknown_member(&mut self, lane: u32) {
        let w = self.proc_mut(lane);
        w.member = None;
        if matches!(
            w.phase,
            Phase::Busy {
                then: AfterStop::Join,
                ..
            }
        ) {
            // The JoinGroup its eager stop is preparing goes out as a new member's.
            w.rejoin_reason = Some(RejoinReason::UnknownMember);
        }
        let zombie = w.zombie;
        let eager = w.current_protocol == ConnectProtocol::Eager;
        if matches!(w.phase, Phase::AwaitingJoin | Phase::AwaitingSync(_)) {
            w.phase = Phase::Idle;
        }
        let name = self.name(lane).to_string();
        let what = if zombie {
            if eager {
                "Under eager it first stops everything it holds (onJoinPrepare), zombie copies included, then rejoins as a new member."
            } else {
                "Under cooperative it keeps running and rejoins as a new member reporting what it runs; the leader revokes every copy that another worker also runs (KAFKA-9841)."
            }
        } else {
            "It rejoins as a new member."
        };
        self.note(
            Some(lane),
            StepKind::UnknownMember,
            format!("{name}'s heartbeat is answered UNKNOWN_MEMBER_ID: the broker no longer knows its member id. {what}"),
        );
        self.request_rejoin(lane, RejoinReason::UnknownMember);
    }

    pub(super) fn request_rejoin(&mut self, lane: u32, reason: RejoinReason) {
        let w = self.proc_mut(lane);
        match w.phase {
            Phase::Idle => self.begin_join(lane, reason),
            Phase::Busy { .. } => {
                w.pending_rejoin.get_or_insert(reason);
            }
            _ => {}
        }
    }

    /// Sends JoinGroup, after eager `onJoinPrepare` stops everything when the
    /// previous generation was eager (`WorkerCoordinator.onJoinPrepare` follows
    /// the previous generation's protocol).
    pub(super) fn begin_join(&mut self, lane: u32, reason: RejoinReason) {
        let w = self.proc_mut(lane);
        w.rejoin_reason = Some(reason);
        if w.current_protocol == ConnectProtocol::Eager {
            let running = self.local_snapshot_batches(lane);
            if !running.is_empty() {
                self.stop_blocking(lane, running, StopKind::Pool, AfterStop::Join);
                return;
            }
        }
        self.send_join(lane);
    }

    pub(super) fn send_join(&mut self, lane: u32) {
        let rtt = self.rtt;
        let w = self.proc_mut(lane);
        // This JoinGroup satisfies every rejoin requested before it, whatever
        // asked for it: the flags (`AbstractCoordinator.rejoinNeeded`,
        // `WorkerCoordinator.rejoinRequested`) are cleared when the join it
        // starts completes, so a notice queued while the herder was blocked
        // must not start another generation after this one.
        w.pending_rejoin = None;
        w.phase = Phase::Joining;
        w.join_token += 1;
        let hops = if w.member.is_none() { 2 } else { 1 };
        let (inc, token) = (w.incarnation, w.join_token);
        self.schedule(
            self.driver.now() + hops * rtt,
            SimEvent::Join { lane, inc, token },
        );
    }

    pub(super) fn on_rejoin_timer(&mut self, lane: u32, inc: u32, token: u32) {
        let Some(w) = self.worker_mut(lane, inc) else {
            return;
        };
        if w.timer_token != token {
            return;
        }
        w.scheduled_rebalance = None;
        match w.phase {
            Phase::Idle => self.request_rejoin(lane, RejoinReason::DelayExpired),
            Phase::Busy { .. } => {
                w.pending_rejoin.get_or_insert(RejoinReason::DelayExpired);
            }
            _ => {}
        }
    }

    // --- the herder's blocking stops ---------------------------------------

    /// How long stopping `c` connectors and `t` tasks blocks the herder.
    pub(super) fn stop_duration(&self, lane: u32, kind: StopKind, c: usize, t: usize) -> u64 {
        let w = self.proc(lane);
        let connector_ms =
            u64::from(self.timings.connector_stop_ms).min(CONNECTOR_GRACEFUL_SHUTDOWN_TIMEOUT_MS);
        let task_ms = u64::from(self.timings.task_stop_ms)
            .min(u64::from(w.config.task_shutdown_graceful_timeout_ms));
        match kind {
            StopKind::Pool => parallel_stop_ms(c, connector_ms, t, task_ms),
            StopKind::Parallel => {
                (if c > 0 { connector_ms } else { 0 }) + (if t > 0 { task_ms } else { 0 })
            }
        }
    }

    /// Puts `batches` (already on this lane) into Stopping and blocks the
    /// herder until they are stopped.
    pub(super) fn stop_blocking(
        &mut self,
        lane: u32,
        batches: Vec<BatchId>,
        kind: StopKind,
        then: AfterStop,
    ) {
        let (mut c, mut t) = (0, 0);
        let mut held = Vec::with_capacity(batches.len());
        for b in batches {
            self.recorder
                .timeline
                .set_state(b, ItemState::Stopping, &mut self.recorder.pool);
            let (bc, bt) = self.recorder.timeline.batch_kinds(b);
            c += bc;
            t += bt;
            held.push((b, self.recorder.timeline.batch_token(b)));
        }
        let took = self.stop_duration(lane, kind, c, t);
        let until = self.driver.now() + took;
        let w = self.proc_mut(lane);
        w.busy_token += 1;
        let (inc, token) = (w.incarnation, w.busy_token);
        w.phase = Phase::Busy {
            batches: held,
            then,
        };
        self.schedule(until, SimEvent::HerderFree { lane, inc, token });
    }

    pub(super) fn on_herder_free(&mut self, lane: u32, inc: u32, token: u32) {
        let Some(w) = self.worker_mut(lane, inc) else {
            return;
        };
        if w.busy_token != token || !w.is_busy() {
            return;
        }
        let Phase::Busy { batches, then, .. } = std::mem::replace(&mut w.phase, Phase::Idle) else {
            return;
        };
        for (b, tok) in batches {
            if self.recorder.timeline.is_current(b, tok)
                && self.recorder.timeline.batch_lane(b) == lane
            {
                self.recorder.timeline.release(b, &mut self.recorder.pool);
            }
        }
        match then {
            AfterStop::Join => self.send_join(lane),
            AfterStop::FinishRound { delay_ms, delta } => self.finish_round(lane, delay_ms, &delta),
            AfterStop::Rejoin(reason) => self.request_rejoin(lane, reason),
            AfterStop::RestartConnector(c) => self.restart_connector(lane, c),
        }
        self.after_idle(lane);
    }

    /// Work the herder put off while it was busy or rebalancing.
    pub(super) fn after_idle(&mut self, lane: u32) {
        loop {
            let now = self.driver.now();
            let Some(w) = self.lanes[lane as usize].process.as_mut() else {
                return;
            };
            if !matches!(w.phase, Phase::Idle) || w.frozen.is_some() {
                return;
            }
            if let Some(r) = w.pending_rejoin.take() {
                self.request_rejoin(lane, r);
                continue;
            }
            if let Some(offset) = w.pending_config.pop_front() {
                self.handle_config(lane, offset);
                continue;
            }
            if w.scheduled_rebalance.is_some_and(|t| t <= now) {
                w.scheduled_rebalance = None;
                self.request_rejoin(lane, RejoinReason::DelayExpired);
                continue;
            }
            return;
        }
    }

    /// The batches of this worker holding items of its snapshot (everything,
    /// unless it runs orphans from a protocol downgrade).
    fn local_snapshot_batches(&mut self, lane: u32) -> Vec<BatchId> {
        let w = self.proc(lane);
        if !w.orphans {
            return self.recorder.timeline.lane_batches(lane).to_vec();
        }
        let mut items: Vec<u32> = w
            .snapshot
            .connectors
            .iter()
            .map(|&c| super::work::WorkRegistry::connector_item(c))
            .collect();
        items.extend(w.snapshot.tasks.iter().map(|&t| self.work.task_item(t)));
        items.retain(|&i| self.recorder.timeline.state_on(i, lane).is_some());
        self.recorder
            .timeline
            .split_off(lane, &items, ItemState::Stopping, &mut self.recorder.pool)
    }

    /// Connectors and tasks currently on a lane.
    pub(super) fn lane_work(&self, lane: u32) -> (usize, usize) {
        let (mut c, mut t) = (0, 0);
        for &b in self.recorder.timeline.lane_batches(lane) {
            let (bc, bt) = self.recorder.timeline.batch_kinds(b);
            c += bc;
            t += bt;
        }
        (c, t)
    }
}
