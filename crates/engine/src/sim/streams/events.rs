//! The events a Streams run schedules, their dispatch, and the scenario
//! script's events applied to the instances.

use super::member::{MemberKey, Process, Restart, Th};
use super::StreamsSimulation;
use crate::scenario::StreamsEvent;
use crate::sim::driver::{DriverEvent, Simulation};
use crate::trace::StepKind;
use crate::wording::duration;

#[derive(Clone, Debug)]
pub(crate) enum Ev {
    Planned { index: usize, deferred: bool },
    ProcessStart { lane: u32 },
    SendJoin { th: Th },
    JoinArrives { th: Th },
    JoinDeadline { timer: u64 },
    SyncDone { generation: i32 },
    Assignment { th: Th, generation: i32 },
    Notice { th: Th },
    Revoked { th: Th, tasks: Vec<u32>, token: u64 },
    Initialized { th: Th, tasks: Vec<u32>, token: u64 },
    RestoreTick { th: Th, token: u64 },
    Exit { lane: u32, inc: u32 },
    SessionExpiry { key: MemberKey, since: u64 },
    Resume { lane: u32, inc: u32 },
    PollTimeout { th: Th },
    Unblock { th: Th },
    Probe { th: Th, generation: i32 },
    ZombieEnds { th: Th },
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
            Ev::SendJoin { th } => {
                // JoinGroup is sent from poll(): not while frozen or blocked.
                match self
                    .proc_of(th.lane, th.inc)
                    .and_then(|p| p.free_at(th.thread))
                {
                    Some(until) => self.schedule(until, Ev::SendJoin { th }),
                    None => self.send_join(th),
                }
            }
            Ev::JoinArrives { th } => self.on_join_arrives(th),
            Ev::JoinDeadline { timer } => {
                let change = self.group.on_join_deadline(timer, self.driver.now());
                self.apply_change(change);
            }
            Ev::SyncDone { generation } => self.on_sync(generation),
            Ev::Assignment { th, generation } => self.on_assignment(th, generation),
            Ev::Notice { th } => self.on_notice(th),
            Ev::Revoked { th, tasks, token } => self.on_revoked(th, tasks, token),
            Ev::Initialized { th, tasks, token } => self.on_initialized(th, tasks, token),
            Ev::RestoreTick { th, token } => self.on_restore_tick(th, token),
            Ev::Exit { lane, inc } => self.on_exit(lane, inc),
            Ev::SessionExpiry { key, since } => self.on_session_expiry(key, since),
            Ev::Resume { lane, inc } => self.on_resume(lane, inc),
            Ev::PollTimeout { th } => self.on_poll_timeout(th),
            Ev::Unblock { th } => self.on_unblock(th),
            Ev::Probe { th, generation } => self.on_probe(th, generation),
            Ev::ZombieEnds { th } => self.on_zombie_ends(th),
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
                    .is_some_and(|p| !p.stopping)
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
                .and_then(Process::all_free_at);
            if let Some(until) = free_at {
                let name = self.name(l);
                self.note(
                    Some(l),
                    StepKind::EventDeferred,
                    format!("{name} has a stream thread that is not running (frozen or blocked in a handler): close() waits for every thread."),
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
            StreamsEvent::SlowProcessing {
                duration_ms,
                thread,
                ..
            } => {
                let lane = lane.expect("checked above");
                self.block(lane, thread.unwrap_or(1).saturating_sub(1), duration_ms);
            }
        }
    }
}
