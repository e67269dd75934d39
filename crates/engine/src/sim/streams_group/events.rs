//! What a streams-protocol run schedules, its dispatch, the scenario's
//! events, and an instance's process: start, `KafkaStreams.close()` (every
//! thread leaves the group, KIP-1071 in 4.1–4.3), crash, restart, and a
//! StreamThread blocked past `max.poll.interval.ms`.

use super::coordinator::HeartbeatResponse;
use super::{ClientState, Process, Restart, StreamThread, StreamsGroupSimulation, Th};
use crate::scenario::{ProcessingGuarantee, StreamsEvent};
use crate::sim::driver::{DriverEvent, Simulation};
use crate::sim::restart::comes_back;
use crate::streams_group::current_assignment_builder::TasksTuple;
use crate::trace::{ItemState, StepKind, WorkerState};
use crate::wording::duration;

#[derive(Clone, Debug)]
pub(crate) enum Ev {
    Planned {
        index: usize,
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
        match ev {
            Ev::Planned { index } => self.on_planned(index),
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
        }
    }

    fn on_planned(&mut self, index: usize) {
        let (_, event, note) = self.planned[index].clone();
        let lane = event
            .instance()
            .and_then(|n| self.lanes.iter().position(|l| l.name == n))
            .map(|l| l as u32);
        let now = self.driver.now();
        self.recorder
            .mark_event(now, lane, event.label(), note.as_deref());
        if let Some(name) = event.instance() {
            let alive = lane.is_some_and(|l| {
                self.lanes[l as usize]
                    .proc
                    .as_ref()
                    .is_some_and(|p| !p.stopping)
            });
            if !alive {
                self.skip(
                    lane,
                    format!("{name} is not running; the event is skipped."),
                );
                return;
            }
        }
        match event {
            StreamsEvent::InstanceJoin {
                count,
                kafka_version,
                config,
            } => {
                for _ in 0..count {
                    let version = kafka_version.unwrap_or(self.base_version);
                    self.add_lane(version, &config, &[]);
                    self.start_process(self.lanes.len() as u32 - 1);
                }
            }
            StreamsEvent::InstanceStop { .. } => self.close_instance(lane.expect("checked")),
            StreamsEvent::InstanceCrash { .. } => self.crash(lane.expect("checked")),
            StreamsEvent::InstanceRestart {
                downtime_ms,
                crash,
                kafka_version,
                config,
                remove_config,
                ..
            } => {
                let lane = lane.expect("checked");
                let version = kafka_version.unwrap_or(self.lanes[lane as usize].version);
                self.lanes[lane as usize].restart = Some(Restart {
                    downtime_ms,
                    version,
                    config,
                    remove_config,
                });
                if crash {
                    self.crash(lane);
                } else {
                    self.close_instance(lane);
                }
            }
            StreamsEvent::RollingRestart {
                downtime_ms,
                interval_ms,
                limit,
                reverse_order,
                kafka_version,
                config,
                remove_config,
            } => {
                let mut alive: Vec<u32> = (0..self.lanes.len() as u32)
                    .filter(|&l| self.lanes[l as usize].proc.is_some())
                    .collect();
                if reverse_order {
                    alive.reverse();
                }
                let n = limit.map_or(alive.len(), |l| (l as usize).min(alive.len()));
                for (k, &l) in alive.iter().take(n).enumerate() {
                    let at = now + k as u64 * interval_ms;
                    self.planned.push((
                        at,
                        StreamsEvent::InstanceRestart {
                            instance: self.name(l),
                            downtime_ms,
                            crash: false,
                            kafka_version,
                            config: config.clone(),
                            remove_config: remove_config.clone(),
                        },
                        Some(format!("rolling restart {}/{n}", k + 1)),
                    ));
                    let index = self.planned.len() - 1;
                    self.schedule(at, Ev::Planned { index });
                }
                self.note(
                    None,
                    StepKind::RollingRestart,
                    format!(
                        "Rolling restart of {n} instances: one every {}, each down for {} from the moment it exits (after close() commits and its threads leave the group).",
                        duration(interval_ms),
                        duration(downtime_ms)
                    ),
                );
            }
            StreamsEvent::GcPause { .. } => self.skip(
                lane,
                "A GC pause is not simulated for the streams protocol yet; the event is skipped."
                    .to_string(),
            ),
            StreamsEvent::SlowProcessing {
                duration_ms,
                thread,
                ..
            } => self.block(
                lane.expect("checked"),
                thread.unwrap_or(1).saturating_sub(1),
                duration_ms,
            ),
        }
    }

    fn skip(&mut self, lane: Option<u32>, text: String) {
        if let Some(m) = self.recorder.markers.last_mut() {
            m.applied = false;
        }
        self.note(lane, StepKind::EventSkipped, text);
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
            });
        }
        self.lanes[lane as usize].proc = Some(Process {
            inc,
            threads: list,
            stopping: false,
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
        let id = super::seeded_uuid(self.seed ^ 0x6d65_6d62, salt ^ 0xabcd_ef00_0000_0000);
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
        match &self.lanes[lane as usize].restart {
            Some(r) => format!(
                " As a restart, {}.",
                comes_back(&self.recorder, exit_ms, r.downtime_ms)
            ),
            None => String::new(),
        }
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
            l.raw_config = l.raw_config.merged(&r.config).without(&r.remove_config);
            l.config = l.raw_config.resolve(r.version);
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
            self.skip(
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
