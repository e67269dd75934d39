//! The events a Streams run schedules, their dispatch, and what the shared
//! scenario script (`sim::streams_script`) does to this simulator's instances.

use super::member::{Lane, MemberKey, Process, Th};
use super::StreamsSimulation;
use crate::scenario::{KafkaVersion, StreamsConfig};
use crate::sim::driver::{DriverEvent, Simulation};
use crate::sim::recorder::TraceRecorder;
use crate::sim::streams_script::{InstanceLane, PlannedEvent, ProcessRuns, Restart, StreamsScript};

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
            Ev::Planned { index, deferred } => self.apply_planned(index, deferred),
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

impl StreamsScript for StreamsSimulation {
    type Lane = Lane;

    const EXITS_AFTER: &'static str = "after close() commits";
    const CLOSE_WAITS: &'static str = "has a stream thread that is not running (frozen or blocked in a handler): close() waits for every thread.";

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

    /// A clean close waits for every stream thread: a frozen or blocked
    /// instance closes when it is free again (a crash does not wait).
    fn close_waits_until(&self, lane: u32) -> Option<u64> {
        self.lanes[lane as usize]
            .proc
            .as_ref()
            .and_then(Process::all_free_at)
    }

    fn plan_restart(&mut self, lane: u32, restart: Restart) {
        self.lanes[lane as usize].restart = Some(restart);
    }

    fn join_instance(&mut self, version: KafkaVersion, config: &StreamsConfig) {
        let lane = self.add_lane(version, config);
        self.start_process(lane);
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
