//! The Kafka Streams simulator for `group.protocol=streams` (KIP-1071): a
//! Streams application's StreamThreads as members of a streams group whose
//! assignment the group coordinator computes ([`coordinator`]).
//!
//! Model: each instance (one lane) has a `ProcessId` (pinned, or random from
//! the seed, kept across restarts as the state directory keeps it) and local
//! state per stateful task; each of its `num.stream.threads` threads is one
//! member with its own client-generated member id
//! (`StreamsMembershipManager`), new on every process start. A thread
//! heartbeats every `streams.heartbeat.interval.ms` from its consumer's
//! background thread, at once while joining or acknowledging
//! (`StreamsGroupHeartbeatRequestManager`); the broker's answer can carry new
//! tasks, whose revocation and assignment callbacks run on the StreamThread
//! at its next poll (`onTasksRevoked`, `onTasksAssigned`), after which it
//! acknowledges. There is no group-wide barrier and no client leader.
//!
//! Shared with the classic simulator: the driver and trace recorder, the
//! scenario script (`sim::streams_script`), the changelog and local-state
//! arithmetic (`sim::streams::local_state`), a thread's restoration
//! re-planned (`sim::streams::restore_plan`) and the seeded ids. Restoration follows the state updater
//! (always on from 4.1's point of view here): a thread keeps processing its
//! running tasks while its new actives restore; standbys wait while an
//! active of the thread restores.
//!
//! Split by job: `events` (what is scheduled, the scenario's events, process
//! lifecycle), `pause` (a GC pause: frozen members, fencing, zombies),
//! `client` (heartbeats, responses, callbacks, fencing), `tasks` (copies on
//! the timeline, restoration), `explain` (wording). The scenario script is
//! the classic simulator's too (`sim::streams_script`).

mod client;
pub(crate) mod coordinator;
mod events;
mod explain;
mod pause;
mod tasks;
mod view_record;

use std::collections::{BTreeMap, BTreeSet};

use coordinator::{BrokerAssignor, StreamsGroupConfig, StreamsGroupCoordinator};
use events::Ev;

use crate::scenario::{
    instance_name, KafkaVersion, ResolvedStreamsConfig, Scenario, StreamsConfig, StreamsScenario,
    StreamsTimings, StreamsVariant,
};
use crate::sim::driver::{Simulation, SimulationDriver};
use crate::sim::formation::ScenarioStart;
use crate::sim::recorder::TraceRecorder;
use crate::sim::streams::local_state::{Changelog, LocalState};
use crate::sim::streams::seeded_uuid;
use crate::sim::streams_script::{planned_events, PlannedEvent, Restart, StreamsScript};
use crate::streams::ProcessId;
use crate::streams_group::current_assignment_builder::TasksTuple;
use crate::streams_group::{StickyTaskAssignorVersion, Subtopology, TaskId, Topology};
use crate::trace::Trace;

/// One stream thread of one process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Th {
    pub(crate) lane: u32,
    pub(crate) inc: u32,
    pub(crate) thread: u32,
}

/// The member's state as its consumer sees it (`MemberState` of
/// `StreamsMembershipManager`), for what the simulator needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClientState {
    Joining,
    Reconciling,
    Acknowledging,
    Stable,
    /// Left because its StreamThread did not poll in time; rejoins on poll.
    Stale,
    /// Fenced by the broker; its tasks are lost on the next poll.
    Fenced,
    /// Closing: no more heartbeats but the leave.
    Leaving,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TaskPhase {
    Initializing,
    Restoring,
    Running,
}

/// One `StreamThread` and its main consumer's membership.
#[derive(Clone, Debug)]
struct StreamThread {
    member_id: String,
    epoch: i32,
    state: ClientState,
    /// The tasks the last response with tasks gave it.
    target: TasksTuple,
    /// Its actives (task index → phase and init token).
    active: BTreeMap<u32, (TaskPhase, u64)>,
    standby: BTreeSet<u32>,
    /// What its last heartbeat reported as owned.
    reported: Option<(BTreeSet<u32>, BTreeSet<u32>)>,
    in_flight: bool,
    /// Token of its scheduled regular heartbeat, when it is due, and
    /// whether it was scheduled as a background event.
    hb_token: u64,
    hb_at: u64,
    hb_background: bool,
    /// Token of the callbacks waiting for its next poll.
    callback_token: Option<u64>,
    blocked_until: Option<u64>,
    /// The group is ready (no `ASSIGNMENT_DELAYED`, 4.2+): it processes.
    ready: bool,
    restore_token: u64,
    /// Fenced while its JVM was paused and not told yet: its running tasks
    /// process on as zombies.
    zombie: bool,
}

#[derive(Clone, Debug)]
struct Process {
    inc: u32,
    threads: Vec<StreamThread>,
    stopping: bool,
    /// Until when the JVM is paused (a long GC pause): no heartbeats, no
    /// processing, no restoration.
    frozen_until: Option<u64>,
}

/// One instance: its identity, release, config and local state, and its
/// process while one runs.
#[derive(Clone, Debug)]
pub(crate) struct Lane {
    name: String,
    process_id: ProcessId,
    version: KafkaVersion,
    raw_config: StreamsConfig,
    config: ResolvedStreamsConfig,
    local: BTreeMap<u32, LocalState>,
    proc: Option<Process>,
    incarnations: u32,
    restart: Option<Restart>,
}

/// The application's tasks: task `i` of the trace is `ids[i]`.
struct Tasks {
    ids: Vec<TaskId>,
    /// `(ids[i], i)` sorted by id, searched by bisection (built once, then
    /// only read: no B-tree for this key and value type).
    index: Vec<(TaskId, u32)>,
    stateful: Vec<bool>,
    logs: Vec<Changelog>,
}

/// One `group.protocol=streams` variant of a Streams scenario, simulated.
pub(crate) struct StreamsGroupSimulation {
    label: String,
    driver: SimulationDriver<Ev>,
    recorder: TraceRecorder,
    timings: StreamsTimings,
    rtt: u64,
    seed: u64,
    base_config: StreamsConfig,
    base_version: KafkaVersion,
    tasks: Tasks,
    coordinator: StreamsGroupCoordinator,
    lanes: Vec<Lane>,
    /// Member id → its thread (while its process runs).
    threads_by_member: BTreeMap<String, Th>,
    /// Each member's session deadline (token, at), to keep a silent
    /// member's expiry in the foreground.
    sessions: BTreeMap<String, (u64, u64)>,
    planned: Vec<PlannedEvent>,
    token: u64,
    records_restored: u64,
    touched: BTreeSet<u32>,
    /// The last assignment epoch whose delay was noted.
    delay_noted: i32,
    /// Goes up whenever an event leaves the group unsettled, so a heartbeat
    /// sent while it was settled knows whether it still is (`Ev::quiet`).
    quiet_period: u64,
    /// Set while handling a heartbeat of a group that has stayed settled
    /// since it was sent: it changes nothing, so [`Self::settled`] need
    /// not look at every member (a long run's cost).
    in_quiet_heartbeat: bool,
}

/// The coordinator's rules for a broker of `version` with `config`.
fn group_config(config: &ResolvedStreamsConfig, version: KafkaVersion) -> StreamsGroupConfig {
    let assignor = if version.before(4, 2) {
        BrokerAssignor::Legacy41
    } else {
        BrokerAssignor::Sticky(StickyTaskAssignorVersion::NEWEST_RELEASE)
    };
    StreamsGroupConfig {
        heartbeat_interval_ms: config.streams_heartbeat_interval_ms,
        session_timeout_ms: config.streams_session_timeout_ms,
        initial_rebalance_delay_ms: (!version.before(4, 2))
            .then_some(config.streams_initial_rebalance_delay_ms),
        assignment_interval_ms: if version.before(4, 3) {
            0
        } else {
            config.streams_assignment_interval_ms
        },
        num_standby_replicas: config.streams_num_standby_replicas,
        initial_epoch: if version.before(4, 3) { 0 } else { 1 },
        first_bumped_epoch: if version.before(4, 2) { 1 } else { 2 },
        assignor,
    }
}

impl StreamsGroupSimulation {
    /// Prepares a run of `variant` (whose `group.protocol` is `streams`).
    pub(crate) fn new(
        scenario: &Scenario,
        streams: &StreamsScenario,
        variant: &StreamsVariant,
    ) -> Self {
        let app = &streams.app;
        let base_config = app.config.merged(&variant.config);
        let base_version = variant.kafka_version.unwrap_or(app.version());
        let mut ids = Vec::new();
        let mut stateful = Vec::new();
        let mut logs = Vec::new();
        let mut subtopologies = Vec::new();
        for (s, spec) in app.expanded_subtopologies().into_iter().enumerate() {
            subtopologies.push(Subtopology {
                id: s.to_string(),
                partitions: spec.partitions,
                stateful: spec.stateful,
            });
            for p in 0..spec.partitions {
                ids.push(TaskId::new(s.to_string(), p));
                stateful.push(spec.stateful);
                logs.push(Changelog::new(
                    spec.changelog_records,
                    u64::from(spec.changelog_records_per_sec),
                ));
            }
        }
        let mut index: Vec<(TaskId, u32)> = ids
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        // Task ids are distinct, so the sort's stability does not matter.
        crate::sort_by_key::sort_stable_by(&mut index, |a, b| a.0.cmp(&b.0));
        // Validation bounds the tasks far below the broker model's limit.
        let topology = Topology::new(subtopologies)
            .unwrap_or_else(|_| Topology::new(Vec::new()).expect("an empty topology is valid"));
        let resolved = base_config.resolve(base_version);
        let coordinator =
            StreamsGroupCoordinator::new(group_config(&resolved, base_version), topology);
        let planned = planned_events(&streams.events);
        let mut sim = Self {
            label: variant.label.clone(),
            driver: SimulationDriver::new(),
            recorder: TraceRecorder::streams_tasks(ids.len()),
            rtt: u64::from(app.timings.coordinator_rtt_ms),
            timings: app.timings.clone(),
            seed: scenario.seed,
            base_config,
            base_version,
            tasks: Tasks {
                ids,
                index,
                stateful,
                logs,
            },
            coordinator,
            lanes: Vec::new(),
            threads_by_member: BTreeMap::new(),
            sessions: BTreeMap::new(),
            planned,
            token: 0,
            records_restored: 0,
            touched: BTreeSet::new(),
            delay_noted: i32::MIN,
            quiet_period: 0,
            in_quiet_heartbeat: false,
        };
        for _ in 0..app.instances {
            sim.add_lane(base_version, &StreamsConfig::default(), &app.process_ids);
        }
        if !app.cold_start {
            sim.seed_steady_state();
        }
        sim
    }

    /// A running application's instances have the state of their tasks on
    /// disk (as in the classic simulator): the layout the broker's assignor
    /// gives the initial members, checkpointed at the changelog end.
    fn seed_steady_state(&mut self) {
        let mut members = Vec::new();
        let mut lanes = Vec::new();
        let mut order: Vec<u32> = (0..self.lanes.len() as u32).collect();
        crate::sort_by_key::sort_stable_by_key(&mut order, |&l| (self.start_offset(l), l));
        for lane in order {
            let l = &self.lanes[lane as usize];
            for thread in 0..l.config.num_stream_threads.max(1) {
                members.push((self.member_id(lane, 1, thread), l.process_id.to_string()));
                lanes.push(lane);
            }
        }
        let layout = self.coordinator.fresh_layout(&members);
        for (lane, tuple) in lanes.into_iter().zip(layout) {
            for t in self.indices(&tuple.active.union(&tuple.standby).cloned().collect()) {
                if self.tasks.stateful[t as usize] {
                    let offset = self.tasks.logs[t as usize].end(0);
                    self.lanes[lane as usize]
                        .local
                        .insert(t, LocalState::Idle { offset, since: 0 });
                }
            }
        }
    }

    /// How long after the run's start an initial instance starts: spread
    /// over 2 s by the seed, so that the threads' heartbeats do not all share
    /// one phase (each member's phase is set by its join).
    fn start_offset(&self, lane: u32) -> u64 {
        let z = seeded_uuid(self.seed ^ 0x0ff5_e700, u64::from(lane));
        (z.least_significant_bits() as u64) % 2_000
    }

    /// Records replayed from changelogs so far.
    pub(crate) fn records_restored(&self) -> u64 {
        self.records_restored
    }

    /// Closes everything at `end_ms` and returns the trace.
    pub(crate) fn finish(self, end_ms: u64) -> Trace {
        let instances = self.lanes.iter().map(|l| l.name.clone()).collect();
        let now = self.driver.now();
        self.recorder
            .finish_streams(self.label, now, end_ms, instances, &self.tasks.ids)
    }

    fn next_token(&mut self) -> u64 {
        self.token += 1;
        self.token
    }

    fn add_lane(&mut self, version: KafkaVersion, over: &StreamsConfig, pinned: &[ProcessId]) {
        let lane = self.lanes.len() as u32;
        let raw = self.base_config.merged(over);
        let config = raw.resolve(version);
        let process_id = pinned
            .get(lane as usize)
            .copied()
            .unwrap_or_else(|| seeded_uuid(self.seed, u64::from(lane)));
        self.lanes.push(Lane {
            name: instance_name(lane + 1),
            process_id,
            version,
            raw_config: raw,
            config,
            local: BTreeMap::new(),
            proc: None,
            incarnations: 0,
            restart: None,
        });
        self.recorder.ensure_lanes(self.lanes.len());
    }

    fn name(&self, lane: u32) -> String {
        self.lanes[lane as usize].name.clone()
    }

    fn thread_name(&self, th: Th) -> String {
        format!("{} StreamThread-{}", self.name(th.lane), th.thread + 1)
    }

    fn thread(&self, th: Th) -> Option<&StreamThread> {
        self.lanes[th.lane as usize]
            .proc
            .as_ref()
            .filter(|p| p.inc == th.inc)?
            .threads
            .get(th.thread as usize)
    }

    fn thread_mut(&mut self, th: Th) -> Option<&mut StreamThread> {
        self.lanes[th.lane as usize]
            .proc
            .as_mut()
            .filter(|p| p.inc == th.inc)?
            .threads
            .get_mut(th.thread as usize)
    }

    /// Every live thread.
    fn all_threads(&self) -> Vec<Th> {
        let mut out = Vec::new();
        for (lane, l) in self.lanes.iter().enumerate() {
            if let Some(p) = &l.proc {
                for thread in 0..p.threads.len() as u32 {
                    out.push(Th {
                        lane: lane as u32,
                        inc: p.inc,
                        thread,
                    });
                }
            }
        }
        out
    }

    /// The task labels of a set of broker task ids.
    fn labels(tasks: &BTreeSet<TaskId>) -> String {
        if tasks.is_empty() {
            return "nothing".to_string();
        }
        tasks
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn indices(&self, tasks: &BTreeSet<TaskId>) -> BTreeSet<u32> {
        tasks
            .iter()
            .filter_map(|t| {
                let index = &self.tasks.index;
                let at = index.binary_search_by(|(id, _)| id.cmp(t)).ok()?;
                Some(index[at].1)
            })
            .collect()
    }

    fn task_ids(&self, tasks: &BTreeSet<u32>) -> BTreeSet<TaskId> {
        tasks
            .iter()
            .map(|&t| self.tasks.ids[t as usize].clone())
            .collect()
    }

    /// Nothing left to happen in the group: every member reconciled and
    /// stable, no target pending. Regular heartbeats are background then.
    fn settled(&self) -> bool {
        if self.in_quiet_heartbeat {
            return true;
        }
        self.coordinator.is_stable()
            && self.all_threads().iter().all(|&th| {
                self.thread(th).is_some_and(|x| {
                    x.state == ClientState::Stable && x.ready && x.callback_token.is_none()
                })
            })
    }
}

impl ScenarioStart for StreamsGroupSimulation {
    fn start_initial_processes(&mut self) {
        for lane in 0..self.lanes.len() as u32 {
            let at = self.driver.now() + self.start_offset(lane);
            self.schedule(at, Ev::ProcessStart { lane });
        }
    }

    fn schedule_scenario_events(&mut self, origin_ms: u64) {
        self.schedule_script(origin_ms);
    }

    fn formation_done(&mut self) {
        self.records_restored = 0;
    }
}

impl Simulation for StreamsGroupSimulation {
    type Event = Ev;

    fn driver(&self) -> &SimulationDriver<Ev> {
        &self.driver
    }

    fn parts(&mut self) -> (&mut SimulationDriver<Ev>, &mut TraceRecorder) {
        (&mut self.driver, &mut self.recorder)
    }

    fn handle(&mut self, event: Ev) {
        // A settled group's heartbeat — a background timer (a change since
        // would have replaced it) or an arrival and its answer from the same
        // quiet period — leaves it settled: no need to look again.
        let quiet = match &event {
            Ev::HeartbeatTimer { background, .. } => *background,
            Ev::HeartbeatArrives { quiet, .. } | Ev::HeartbeatResponse { quiet, .. } => {
                *quiet == Some(self.quiet_period)
            }
            _ => false,
        };
        self.in_quiet_heartbeat = quiet;
        self.dispatch(event);
        self.in_quiet_heartbeat = false;
        self.settle_processing();
        if !quiet {
            self.keep_heartbeats_in_view();
        }
    }

    /// A settled group's heartbeats and stale rebalance timers are all that
    /// is left: none changes an assignment, a state or the trace.
    fn rest_is_steady(&self) -> bool {
        self.settled()
    }
}

#[cfg(test)]
mod tests;
