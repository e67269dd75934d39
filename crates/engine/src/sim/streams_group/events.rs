//! What a streams-protocol run schedules, its dispatch, the scenario's
//! events, and an instance's process: start, `KafkaStreams.close()` (every
//! thread leaves the group, KIP-1071 in 4.1–4.3), crash, restart, and a
//! StreamThread blocked past `max.poll.interval.ms`.

use super::coordinator::HeartbeatResponse;
use super::{ClientState, Lane, Process, StreamThread, StreamsGroupSimulation, Th};
use crate::scenario::{KafkaVersion, ProcessingGuarantee, StreamsConfig};
use crate::sim::driver::{DriverEvent, Simulation};
use crate::sim::recorder::TraceRecorder;
use crate::sim::streams::seeded_uuid;
use crate::sim::streams_script::{InstanceLane, PlannedEvent, ProcessRuns, Restart, StreamsScript};
use crate::streams_group::current_assignment_builder::TasksTuple;
use crate::trace::{ItemState, StepKind, WorkerState};
use crate::wording::duration;

#[derive(Clone, Debug)]
pub(crate) enum Ev {
    Planned {
        index: usize,
        deferred: bool,
    },
    ProcessStart {
        lane: u32,
    },
    /// The regular heartbeat timer of a thread.
    HeartbeatTimer {
        th: Th,
        token: u64,
        background: bool,
    },
    /// A heartbeat reaches the coordinator (`leave`: member epoch −1;
    /// `quiet`: sent while the group was settled, in that quiet period).
    HeartbeatArrives {
        th: Th,
        member_id: String,
        epoch: i32,
        owned: Option<TasksTuple>,
        leave: bool,
        quiet: Option<u64>,
    },
    HeartbeatResponse {
        th: Th,
        response: HeartbeatResponse,
        quiet: Option<u64>,
    },
    /// A gone member's session runs out.
    SessionTimer {
        member_id: String,
        token: u64,
    },
    RebalanceTimer {
        member_id: String,
        token: u64,
    },
    InitialDelay {
        token: u64,
    },
    /// `onTasksRevoked` / `onTasksAssigned` ran on the StreamThread.
    Callbacks {
        th: Th,
        token: u64,
    },
    Initialized {
        th: Th,
        tasks: Vec<u32>,
        token: u64,
    },
    RestoreTick {
        th: Th,
        token: u64,
    },
    Exit {
        lane: u32,
        inc: u32,
    },
    PollTimeout {
        th: Th,
    },
    Unblock {
        th: Th,
    },
    /// The JVM of a paused process runs again.
    Resume {
        lane: u32,
        inc: u32,
    },
}

impl Ev {
    /// The thread whose StreamThread or consumer runs this event: it waits
    /// while that process's JVM is paused.
    fn stream_thread(&self) -> Option<Th> {
        match self {
            Ev::HeartbeatTimer { th, .. }
            | Ev::HeartbeatResponse { th, .. }
            | Ev::Callbacks { th, .. }
            | Ev::Initialized { th, .. }
            | Ev::RestoreTick { th, .. }
            | Ev::PollTimeout { th }
            | Ev::Unblock { th } => Some(*th),
            _ => None,
        }
    }
}

impl DriverEvent for Ev {
    /// A regular heartbeat of a settled group and a rebalance timer (its
    /// member is either revoking, which is activity, or done) do not keep a
    /// run from being quiet; everything else does.
    fn is_background(&self) -> bool {
        match self {
            Ev::HeartbeatTimer { background, .. } => *background,
            Ev::RebalanceTimer { .. } => true,
            _ => false,
        }
    }

    /// A regular heartbeat sent while the group was settled, its arrival
    /// and its answer: steady, not protocol work.
    fn is_steady(&self) -> bool {
        match self {
            Ev::HeartbeatTimer { background, .. } => *background,
            Ev::HeartbeatArrives { quiet, .. } | Ev::HeartbeatResponse { quiet, .. } => {
                quiet.is_some()
            }
            _ => false,
        }
    }
}

impl StreamsGroupSimulation {
    pub(super) fn dispatch(&mut self, ev: Ev) {
        if let Some(until) = ev.stream_thread().and_then(|th| self.frozen_until(th)) {
            self.schedule(until, ev);
            return;
        }
        match ev {
            Ev::Planned { index, deferred } => self.apply_planned(index, deferred),
            Ev::ProcessStart { lane } => self.start_process(lane),
            Ev::HeartbeatTimer { th, token, .. } => {
                if self.thread(th).is_some_and(|x| x.hb_token == token) {
                    self.send_heartbeat(th);
                }
            }
            Ev::HeartbeatArrives {
                th,
                member_id,
                epoch,
                owned,
                leave,
                quiet,
            } => self.on_heartbeat_arrives(th, member_id, epoch, owned, leave, quiet),
            Ev::HeartbeatResponse { th, response, .. } => self.on_heartbeat_response(th, response),
            Ev::SessionTimer { member_id, token } => self.on_session_timer(&member_id, token),
            Ev::RebalanceTimer { member_id, token } => self.on_rebalance_timer(&member_id, token),
            Ev::InitialDelay { token } => self.on_initial_delay(token),
            Ev::Callbacks { th, token } => self.on_callbacks(th, token),
            Ev::Initialized { th, tasks, token } => self.on_initialized(th, tasks, token),
            Ev::RestoreTick { th, token } => {
                if self.thread(th).is_some_and(|x| x.restore_token == token) {
                    self.replan_restore(th);
                }
            }
            Ev::Exit { lane, inc } => self.on_exit(lane, inc),
            Ev::PollTimeout { th } => self.on_poll_timeout(th),
            Ev::Unblock { th } => self.on_unblock(th),
            Ev::Resume { lane, inc } => self.on_resume(lane, inc),
        }
    }

    /// A process starts: one member per StreamThread, each with a new member
    /// id, joining after `instance_start_ms`.
    pub(super) fn start_process(&mut self, lane: u32) {
        let l = &mut self.lanes[lane as usize];
        l.incarnations += 1;
        let inc = l.incarnations;
        let threads = l.config.num_stream_threads.max(1);
        let mut list = Vec::new();
        for thread in 0..threads {
            list.push(StreamThread {
                member_id: self.member_id(lane, inc, thread),
                epoch: 0,
                state: ClientState::Joining,
                target: TasksTuple::default(),
                active: Default::default(),
                standby: Default::default(),
                reported: None,
                in_flight: false,
                hb_token: 0,
                hb_at: 0,
                hb_background: false,
                callback_token: None,
                blocked_until: None,
                // A new thread starts "not ready" (`streamsGroupReady`).
                ready: false,
                restore_token: 0,
                zombie: false,
            });
        }
        self.lanes[lane as usize].proc = Some(Process {
            inc,
            threads: list,
            stopping: false,
            frozen_until: None,
        });
        self.recorder.set_threads(lane, threads);
        self.open_worker_span(lane, WorkerState::Up);
        let at = self.driver.now() + u64::from(self.timings.instance_start_ms);
        for thread in 0..threads {
            let th = Th { lane, inc, thread };
            let token = self.next_token();
            if let Some(x) = self.thread_mut(th) {
                x.hb_token = token;
                x.hb_at = at;
            }
            self.schedule(
                at,
                Ev::HeartbeatTimer {
                    th,
                    token,
                    background: false,
                },
            );
        }
    }

    /// A client-generated member id (`Uuid.randomUuid()`, 22 base64
    /// characters), fixed by the seed, the instance, its start and thread.
    pub(super) fn member_id(&self, lane: u32, inc: u32, thread: u32) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let salt = (u64::from(lane) << 40) ^ (u64::from(inc) << 20) ^ u64::from(thread);
        let id = seeded_uuid(self.seed ^ 0x6d65_6d62, salt ^ 0xabcd_ef00_0000_0000);
        let bits = id.least_significant_bits() as u64;
        let high = id.most_significant_bits() as u64;
        (0..22)
            .map(|k| {
                let v = if k < 11 {
                    high >> (k * 6)
                } else {
                    bits >> ((k - 11) * 6)
                };
                ALPHABET[(v & 63) as usize] as char
            })
            .collect()
    }

    /// `KafkaStreams.close()`: each thread commits and closes its tasks, then
    /// its consumer leaves the group (4.1–4.3, whatever `CloseOptions` say:
    /// `StreamsMembershipManager#leaveGroupOnClose`).
    pub(super) fn close_instance(&mut self, lane: u32) {
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        p.stopping = true;
        let inc = p.inc;
        let mut actives = Vec::new();
        for x in &mut p.threads {
            actives.extend(x.active.keys().copied());
            x.state = ClientState::Leaving;
            x.callback_token = None;
        }
        self.set_copies(lane, &actives, ItemState::Stopping);
        let name = self.name(lane);
        let exit_ms = self.driver.now() + u64::from(self.timings.task_commit_ms);
        let back = self.comeback(lane, exit_ms);
        self.note(
            Some(lane),
            StepKind::Close,
            format!("{name} closes: its stream threads commit and close their tasks, then each thread's consumer leaves the streams group with a heartbeat of member epoch −1 (StreamsMembershipManager.leaveGroupOnClose, whatever CloseOptions say in 4.1–4.3). Classic Streams sends no LeaveGroup here.{back}"),
        );
        self.schedule(exit_ms, Ev::Exit { lane, inc });
    }

    fn comeback(&self, lane: u32, exit_ms: u64) -> String {
        Restart::comeback(
            self.lanes[lane as usize].restart.as_ref(),
            &self.recorder,
            exit_ms,
        )
    }

    fn on_exit(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.lanes[lane as usize]
            .proc
            .as_ref()
            .filter(|p| p.inc == inc)
        else {
            return;
        };
        let members: Vec<(Th, String)> = p
            .threads
            .iter()
            .enumerate()
            .map(|(i, x)| {
                (
                    Th {
                        lane,
                        inc,
                        thread: i as u32,
                    },
                    x.member_id.clone(),
                )
            })
            .collect();
        let half = self.rtt / 2;
        for (th, member_id) in members {
            if self.coordinator.contains(&member_id) {
                self.schedule(
                    self.driver.now() + half,
                    Ev::HeartbeatArrives {
                        th,
                        member_id,
                        epoch: -1,
                        owned: None,
                        leave: true,
                        quiet: None,
                    },
                );
            }
        }
        self.process_gone(lane, false);
    }

    fn crash(&mut self, lane: u32) {
        let name = self.name(lane);
        let eos = self.lanes[lane as usize].config.processing_guarantee
            == ProcessingGuarantee::ExactlyOnceV2;
        let back = self.comeback(lane, self.driver.now());
        let session = self.coordinator.config().session_timeout_ms;
        let wiped = if eos {
            " Under exactly_once_v2 a running task's checkpoint was deleted at initialisation, so its local state is wiped."
        } else {
            " Its last checkpoints survive (at_least_once)."
        };
        self.note(
            Some(lane),
            StepKind::Crash,
            format!("{name} crashes: no leave heartbeat; the group coordinator notices each thread's member only when its streams.session.timeout.ms ({}) runs out.{wiped}{back}", duration(session)),
        );
        // Its members' session timers are now what the run waits for.
        let members: Vec<String> = self.lanes[lane as usize]
            .proc
            .iter()
            .flat_map(|p| p.threads.iter().map(|x| x.member_id.clone()))
            .collect();
        for member_id in members {
            if let Some(&(token, at)) = self.sessions.get(&member_id) {
                self.schedule(at, Ev::SessionTimer { member_id, token });
            }
        }
        self.process_gone(lane, eos);
    }

    /// The process is gone: its copies end, its state stays on disk (unless
    /// wiped), a planned restart is scheduled.
    fn process_gone(&mut self, lane: u32, wipe: bool) {
        let Some(p) = self.lanes[lane as usize].proc.take() else {
            return;
        };
        let now = self.driver.now();
        for x in &p.threads {
            self.threads_by_member.remove(&x.member_id);
            for &t in x.active.keys().chain(&x.standby) {
                self.end_copy(lane, t);
            }
        }
        if wipe {
            self.lanes[lane as usize].local.clear();
        }
        self.close_worker_span(lane, now);
        if let Some(r) = self.lanes[lane as usize].restart.take() {
            let l = &mut self.lanes[lane as usize];
            l.version = r.version;
            (l.raw_config, l.config) = r.reconfigure(&l.raw_config);
            self.schedule(now + r.downtime_ms, Ev::ProcessStart { lane });
        }
    }

    /// A record handler blocks `StreamThread-<thread + 1>`: no poll, so no
    /// processing and no callbacks; its consumer's background thread keeps
    /// heartbeating.
    fn block(&mut self, lane: u32, thread: u32, duration_ms: u64) {
        let Some(inc) = self.lanes[lane as usize].proc.as_ref().map(|p| p.inc) else {
            return;
        };
        let th = Th { lane, inc, thread };
        let now = self.driver.now();
        let max_poll = self.lanes[lane as usize].config.max_poll_interval_ms;
        let who = self.thread_name(th);
        let Some(x) = self.thread_mut(th) else {
            let name = self.name(lane);
            self.skip_event(
                Some(lane),
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
        self.note(
            Some(lane),
            StepKind::Blocked,
            format!("{who} blocks in a record handler for {}: no poll(), no processing, no rebalance callbacks; its consumer's background thread keeps heartbeating (max.poll.interval.ms is {}). Other members are not held up: there is no group-wide barrier.", duration(duration_ms), duration(max_poll)),
        );
        self.show(th);
        if duration_ms > max_poll {
            self.schedule(now + max_poll, Ev::PollTimeout { th });
        }
        self.schedule(now + duration_ms, Ev::Unblock { th });
    }

    /// `max.poll.interval.ms` without a poll: the background thread sends a
    /// leave heartbeat at once and the member goes stale
    /// (`StreamsGroupHeartbeatRequestManager#poll`).
    fn on_poll_timeout(&mut self, th: Th) {
        let max_poll = self.lanes[th.lane as usize].config.max_poll_interval_ms;
        let name = self.thread_name(th);
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        if x.blocked_until.is_none() || x.state == ClientState::Leaving {
            return;
        }
        x.state = ClientState::Stale;
        x.callback_token = None;
        x.hb_token = 0;
        let member_id = x.member_id.clone();
        self.note(
            Some(th.lane),
            StepKind::PollTimeout,
            format!("{name} has not polled for max.poll.interval.ms ({}): its consumer's background thread sends a leave heartbeat (member epoch −1) and goes stale; the broker fences the member and its tasks go to the others at their next heartbeats. It rejoins when its thread polls again.", duration(max_poll)),
        );
        self.schedule(
            self.driver.now() + self.rtt / 2,
            Ev::HeartbeatArrives {
                th,
                member_id,
                epoch: -1,
                owned: None,
                leave: true,
                quiet: None,
            },
        );
    }

    /// The handler returns: the thread polls again. A stale or fenced member
    /// loses its tasks and rejoins; otherwise pending callbacks run.
    fn on_unblock(&mut self, th: Th) {
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        x.blocked_until = None;
        match x.state {
            ClientState::Stale | ClientState::Fenced => self.lose_all_tasks(th),
            _ => {
                if x.callback_token.is_some() {
                    self.run_callbacks_at_poll(th);
                }
                self.replan_restore(th);
                self.show(th);
            }
        }
    }
}

impl InstanceLane for Lane {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> KafkaVersion {
        self.version
    }

    fn process(&self) -> Option<ProcessRuns> {
        let p = self.proc.as_ref()?;
        Some(if p.stopping {
            ProcessRuns::Closing
        } else {
            ProcessRuns::Running
        })
    }
}

impl StreamsScript for StreamsGroupSimulation {
    type Lane = Lane;

    const EXITS_AFTER: &'static str = "after close() commits and its threads leave the group";
    const CLOSE_WAITS: &'static str = "is frozen (a GC pause): close() runs when the JVM resumes.";

    fn planned_mut(&mut self) -> &mut Vec<PlannedEvent> {
        &mut self.planned
    }

    fn planned_event(index: usize, deferred: bool) -> Ev {
        Ev::Planned { index, deferred }
    }

    fn recorder_mut(&mut self) -> &mut TraceRecorder {
        &mut self.recorder
    }

    fn instances(&self) -> &[Lane] {
        &self.lanes
    }

    fn base_version(&self) -> KafkaVersion {
        self.base_version
    }

    /// Only a paused JVM holds a close back: a blocked StreamThread does not
    /// (its consumer leaves from close() while the handler runs on).
    fn close_waits_until(&self, lane: u32) -> Option<u64> {
        self.lanes[lane as usize].proc.as_ref()?.frozen_until
    }

    fn plan_restart(&mut self, lane: u32, restart: Restart) {
        self.lanes[lane as usize].restart = Some(restart);
    }

    fn join_instance(&mut self, version: KafkaVersion, config: &StreamsConfig) {
        self.add_lane(version, config, &[]);
        self.start_process(self.lanes.len() as u32 - 1);
    }

    fn stop_instance(&mut self, lane: u32) {
        self.close_instance(lane);
    }

    fn crash_instance(&mut self, lane: u32) {
        self.crash(lane);
    }

    fn pause_instance(&mut self, lane: u32, duration_ms: u64) {
        self.freeze(lane, duration_ms);
    }

    fn block_thread(&mut self, lane: u32, thread: u32, duration_ms: u64) {
        self.block(lane, thread, duration_ms);
    }
}
