//! The events a Streams run schedules, their dispatch, and the scenario
//! script's events applied to the instances.

use super::member::{MemberKey, Phase, Process, Restart};
use super::StreamsSimulation;
use crate::scenario::StreamsEvent;
use crate::sim::driver::{DriverEvent, Simulation};
use crate::trace::StepKind;
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
    SendJoin {
        lane: u32,
        inc: u32,
    },
    JoinArrives {
        lane: u32,
        inc: u32,
    },
    JoinDeadline {
        timer: u64,
    },
    SyncDone {
        generation: i32,
    },
    Assignment {
        lane: u32,
        inc: u32,
        generation: i32,
    },
    Notice {
        lane: u32,
        inc: u32,
    },
    Revoked {
        lane: u32,
        inc: u32,
        tasks: Vec<u32>,
        token: u64,
    },
    Initialized {
        lane: u32,
        inc: u32,
        tasks: Vec<u32>,
        token: u64,
    },
    Restored {
        lane: u32,
        inc: u32,
        task: u32,
        token: u64,
    },
    Exit {
        lane: u32,
        inc: u32,
    },
    SessionExpiry {
        key: MemberKey,
        since: u64,
    },
    Resume {
        lane: u32,
        inc: u32,
    },
    PollTimeout {
        lane: u32,
        inc: u32,
    },
    Unblock {
        lane: u32,
        inc: u32,
    },
    Probe {
        lane: u32,
        inc: u32,
        generation: i32,
    },
    ZombieEnds {
        lane: u32,
        inc: u32,
    },
}

impl DriverEvent for Ev {
    /// Every Streams event is activity: a run is quiet when none is pending.
    fn is_background(&self) -> bool {
        false
    }
}

impl StreamsSimulation {
    pub(super) fn dispatch(&mut self, ev: Ev) {
        match ev {
            Ev::Planned { index, deferred } => self.on_planned(index, deferred),
            Ev::ProcessStart { lane } => self.start_process(lane),
            Ev::SendJoin { lane, inc } => {
                // JoinGroup is sent from poll(): not while frozen or blocked.
                match self.proc_of(lane, inc).and_then(Process::free_at) {
                    Some(until) => self.schedule(until, Ev::SendJoin { lane, inc }),
                    None => self.send_join(lane, inc),
                }
            }
            Ev::JoinArrives { lane, inc } => self.on_join_arrives(lane, inc),
            Ev::JoinDeadline { timer } => {
                let change = self.group.on_join_deadline(timer, self.driver.now());
                self.apply_change(change);
            }
            Ev::SyncDone { generation } => self.on_sync(generation),
            Ev::Assignment {
                lane,
                inc,
                generation,
            } => self.on_assignment(lane, inc, generation),
            Ev::Notice { lane, inc } => self.on_notice(lane, inc),
            Ev::Revoked {
                lane,
                inc,
                tasks,
                token,
            } => self.on_revoked(lane, inc, tasks, token),
            Ev::Initialized {
                lane,
                inc,
                tasks,
                token,
            } => self.on_initialized(lane, inc, tasks, token),
            Ev::Restored {
                lane,
                inc,
                task,
                token,
            } => self.on_restored(lane, inc, task, token),
            Ev::Exit { lane, inc } => self.on_exit(lane, inc),
            Ev::SessionExpiry { key, since } => self.on_session_expiry(key, since),
            Ev::Resume { lane, inc } => self.on_resume(lane, inc),
            Ev::PollTimeout { lane, inc } => self.on_poll_timeout(lane, inc),
            Ev::Unblock { lane, inc } => self.on_unblock(lane, inc),
            Ev::Probe {
                lane,
                inc,
                generation,
            } => self.on_probe(lane, inc, generation),
            Ev::ZombieEnds { lane, inc } => self.on_zombie_ends(lane, inc),
        }
    }

    pub(super) fn on_planned(&mut self, index: usize, deferred: bool) {
        let (_, event, note) = self.planned[index].clone();
        let lane = event
            .instance()
            .and_then(|n| self.lanes.iter().position(|l| l.name == n))
            .map(|l| l as u32);
        if !deferred {
            let now = self.driver.now();
            self.recorder
                .mark_event(now, lane, event.label(), note.as_deref());
        }
        if let Some(name) = event.instance() {
            let alive = lane.is_some_and(|l| {
                self.lanes[l as usize]
                    .proc
                    .as_ref()
                    .is_some_and(|p| p.phase != Phase::Stopping)
            });
            if !alive {
                if let Some(m) = self.recorder.markers.last_mut() {
                    m.applied = false;
                }
                self.note(
                    lane,
                    StepKind::EventSkipped,
                    format!("{name} is not running; the event is skipped."),
                );
                return;
            }
        }
        // A clean close waits for the stream thread: a frozen or blocked
        // instance closes when it is free again (a crash does not wait).
        let clean_close = matches!(
            event,
            StreamsEvent::InstanceStop { .. } | StreamsEvent::InstanceRestart { crash: false, .. }
        );
        if let Some(l) = lane.filter(|_| clean_close) {
            let free_at = self.lanes[l as usize]
                .proc
                .as_ref()
                .and_then(Process::free_at);
            if let Some(until) = free_at {
                let name = self.name(l);
                self.note(
                    Some(l),
                    StepKind::EventDeferred,
                    format!("{name}'s stream thread is not running (frozen or blocked in a handler): close() waits for it."),
                );
                self.schedule(
                    until,
                    Ev::Planned {
                        index,
                        deferred: true,
                    },
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
                    let lane = self.add_lane(kafka_version.unwrap_or(self.base_version), &config);
                    self.start_process(lane);
                }
            }
            StreamsEvent::InstanceStop { .. } => {
                let lane = lane.expect("checked above");
                self.close_instance(lane);
            }
            StreamsEvent::InstanceCrash { .. } => {
                let lane = lane.expect("checked above");
                self.crash(lane);
            }
            StreamsEvent::InstanceRestart {
                downtime_ms,
                crash,
                kafka_version,
                config,
                remove_config,
                ..
            } => {
                let lane = lane.expect("checked above");
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
                    let at = self.driver.now() + k as u64 * interval_ms;
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
                    let i = self.planned.len() - 1;
                    self.schedule(
                        at,
                        Ev::Planned {
                            index: i,
                            deferred: false,
                        },
                    );
                }
                self.note(
                    None,
                    StepKind::RollingRestart,
                    format!(
                        "Rolling restart of {n} instances: one every {}, each down for {} from the moment it exits (after close() commits).",
                        duration(interval_ms),
                        duration(downtime_ms)
                    ),
                );
            }
            StreamsEvent::GcPause { duration_ms, .. } => {
                let lane = lane.expect("checked above");
                self.freeze(lane, duration_ms);
            }
            StreamsEvent::SlowProcessing { duration_ms, .. } => {
                let lane = lane.expect("checked above");
                self.block(lane, duration_ms);
            }
        }
    }
}
