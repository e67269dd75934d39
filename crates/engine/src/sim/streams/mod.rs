//! The Kafka Streams simulator: a Streams application's instances in one
//! classic consumer group, on the same group coordinator ([`ClassicGroup`]),
//! event queue and span timeline as Connect.
//!
//! Model, per instance (one lane): a `ProcessId` (random from the seed, kept
//! across restarts because the state directory persists,
//! `StateDirectory.initializeProcessId`), its stream threads as capacity, a
//! local state per stateful task (checkpoint, restoring copy, or RUNNING
//! active) and its active/standby/warmup tasks. All threads of an instance
//! join together, so one group member stands for the instance (see
//! `streams::partition_assignor` on the filter's granularity).
//!
//! Protocol: EAGER members revoke every active before JoinGroup;
//! COOPERATIVE members keep processing, a task still owned elsewhere is held
//! back (`StreamsPartitionAssignor.populateActiveTaskAndPartitionsLists`) and
//! its owner revokes and rejoins (`ConsumerCoordinator.onJoinComplete`,
//! KIP-429). Members learn of a rebalance from their next heartbeat; a
//! closed instance sends no LeaveGroup (`internal.leave.group.on.close`);
//! static members return without a rebalance (KIP-345); a thread that does
//! not poll for `max.poll.interval.ms` leaves
//! (`AbstractCoordinator.maybeLeaveGroup`). The leader's client schedules the
//! probing rebalance (KIP-441). Version probing (KIP-268) adds immediate
//! rounds while versions are mixed.
//!
//! Simplified or not modelled:
//! * one group member per instance: its threads join together, so the
//!   thread distribution (`StreamsPartitionAssignor.assignTasksToThreads`)
//!   and a move between two threads of one instance are not modelled;
//!   capacity is `num.stream.threads`;
//! * restoration runs per task at a fixed rate, independent of other tasks
//!   on the same thread, and standbys do not yield to restoring actives;
//! * an at-least-once crash keeps checkpoints as of the crash (Kafka's are
//!   up to one commit older);
//! * a zombie learns it was removed on its next heartbeat response;
//! * metadata version numbers per release are approximate (their order is
//!   what version probing needs, see `streams::versions`), and a pre-2.0
//!   leader's `FUTURE_ID` client is not modelled;
//! * rack awareness, KIP-924 assignors, `FallbackPriorTaskAssignor`, named
//!   topologies and the KIP-848/KIP-1071 protocols.
//!
//! The code is split by job: `events` (what is scheduled, its dispatch and
//! the scenario's events), `lifecycle` (processes, pauses, sessions),
//! `rounds` (join, notice, revoke, sync, assignment), `leader` (the glue
//! around `streams::partition_assignor::assign_group`), `restoration`
//! (actives and standbys catching up), `member` (lanes, processes,
//! subscriptions), `explain` (wording). The clock, the queue and the trace
//! being recorded are the shared `sim::driver` and `sim::recorder`.

mod events;
mod explain;
mod leader;
mod lifecycle;
mod local_state;
mod member;
mod restoration;
mod rounds;

use crate::sim::driver::Simulation;
use crate::sim::rebalance_cause::{JoinPhaseCause, RebalanceCause};
use std::collections::{BTreeMap, BTreeSet};

use events::Ev;
use local_state::Changelog;
use member::{Assigned, Lane, MemberKey, PendingRound, Process, Subscription};

use crate::scenario::{
    instance_name, KafkaVersion, Scenario, StreamsConfig, StreamsEvent, StreamsScenario,
    StreamsTimings, StreamsVariant,
};
use crate::sim::driver::SimulationDriver;
use crate::sim::formation::ScenarioStart;
use crate::sim::group::{ClassicGroup, GroupState};
use crate::sim::recorder::TraceRecorder;
use crate::streams::{ProcessId, StreamsTaskId};
use crate::trace::{ItemKind, Trace, WorkItem};

/// The application's tasks, fixed for a run: task `i` of the trace is
/// `task_ids[i]`, with its changelog and whether it is stateful.
struct Topology {
    /// Every task, in `TaskId` order (the trace's item order).
    task_ids: Vec<StreamsTaskId>,
    /// Each task's changelog (empty for a stateless task).
    logs: Vec<Changelog>,
    /// Each task has state.
    stateful: Vec<bool>,
    /// `task_ids` as a set, for the leader.
    all_tasks: BTreeSet<StreamsTaskId>,
    /// The stateful ones, for the leader.
    stateful_tasks: BTreeSet<StreamsTaskId>,
}

/// One variant of a Streams scenario, simulated.
pub(crate) struct StreamsSimulation {
    label: String,
    driver: SimulationDriver<Ev>,
    recorder: TraceRecorder,
    timings: StreamsTimings,
    rtt: u64,
    seed: u64,
    base_config: StreamsConfig,
    base_version: KafkaVersion,
    topology: Topology,
    lanes: Vec<Lane>,
    group: ClassicGroup<MemberKey, Subscription>,
    member_index: BTreeMap<MemberKey, u32>,
    silent: BTreeMap<MemberKey, u64>,
    last_assignment: BTreeMap<MemberKey, Assigned>,
    pending: Option<PendingRound>,
    cause: JoinPhaseCause,
    planned: Vec<(u64, StreamsEvent, Option<String>)>,
    unique: u64,
    token: u64,
    records_restored: u64,
}

impl StreamsSimulation {
    /// Prepares a run of `variant`, one of `streams.compare`.
    pub(crate) fn new(
        scenario: &Scenario,
        streams: &StreamsScenario,
        variant: &StreamsVariant,
    ) -> Self {
        let app = &streams.app;
        let base_config = app.config.merged(&variant.config);
        let mut task_ids = Vec::new();
        let mut logs = Vec::new();
        let mut stateful = Vec::new();
        for (s, spec) in app.expanded_subtopologies().into_iter().enumerate() {
            for p in 0..spec.partitions {
                task_ids.push(StreamsTaskId::new(s as u32, p));
                logs.push(Changelog {
                    records: spec.changelog_records,
                    records_per_sec: u64::from(spec.changelog_records_per_sec),
                });
                stateful.push(spec.stateful);
            }
        }
        let all_tasks: BTreeSet<StreamsTaskId> = task_ids.iter().copied().collect();
        let stateful_tasks: BTreeSet<StreamsTaskId> = task_ids
            .iter()
            .zip(&stateful)
            .filter(|(_, &s)| s)
            .map(|(&t, _)| t)
            .collect();
        let mut planned: Vec<(u64, StreamsEvent, Option<String>)> = streams
            .events
            .iter()
            .map(|e| (e.at_ms, e.event.clone(), None))
            .collect();
        planned.sort_by_key(|p| p.0);
        let initial_delay = base_config
            .resolve(app.version())
            .group_initial_rebalance_delay_ms;
        let mut sim = Self {
            label: variant.label.clone(),
            driver: SimulationDriver::new(),
            recorder: TraceRecorder::new(),
            rtt: u64::from(app.timings.coordinator_rtt_ms),
            timings: app.timings.clone(),
            seed: scenario.seed,
            base_config,
            base_version: app.version(),
            topology: Topology {
                task_ids,
                logs,
                stateful,
                all_tasks,
                stateful_tasks,
            },
            lanes: Vec::new(),
            group: ClassicGroup::new(initial_delay),
            member_index: BTreeMap::new(),
            silent: BTreeMap::new(),
            last_assignment: BTreeMap::new(),
            pending: None,
            cause: JoinPhaseCause::default(),
            planned,
            unique: 0,
            token: 0,
            records_restored: 0,
        };
        let n = sim.topology.task_ids.len();
        sim.recorder.timeline.ensure_items(n);
        for item in 0..n as u32 {
            sim.recorder.timeline.set_task(item);
            sim.recorder
                .timeline
                .set_configured(item, true, &mut sim.recorder.pool);
        }
        for _ in 0..app.instances {
            sim.add_lane(app.version(), &StreamsConfig::default());
        }
        if !app.cold_start {
            sim.seed_steady_state();
        }
        sim
    }

    /// Records replayed from changelogs so far (actives, warmups, standbys).
    pub(crate) fn records_restored(&self) -> u64 {
        self.records_restored
    }

    /// Closes everything at `end_ms` and returns the trace.
    pub(crate) fn finish(self, end_ms: u64) -> Trace {
        let workers = self.lanes.iter().map(|l| l.name.clone()).collect();
        let items = self
            .topology
            .task_ids
            .iter()
            .map(|t| WorkItem {
                label: t.to_string(),
                kind: ItemKind::Task,
            })
            .collect();
        let now = self.driver.now();
        self.recorder
            .finish(self.label, now, end_ms, workers, items)
    }

    fn next_token(&mut self) -> u64 {
        self.token += 1;
        self.token
    }

    /// What started the rebalance in progress, for the round's explanation;
    /// a later trigger during the same join phase does not replace it.
    fn set_cause(&mut self, text: String) {
        let cause = RebalanceCause {
            started_ms: self.driver.now(),
            text,
        };
        let in_progress = self.group.state() == GroupState::PreparingRebalance;
        self.cause.trigger(cause, in_progress);
    }

    fn name(&self, lane: u32) -> String {
        self.lanes[lane as usize].name.clone()
    }

    fn proc_of(&self, lane: u32, inc: u32) -> Option<&Process> {
        self.lanes[lane as usize]
            .proc
            .as_ref()
            .filter(|p| p.inc == inc)
    }

    fn proc_mut(&mut self, lane: u32, inc: u32) -> Option<&mut Process> {
        self.lanes[lane as usize]
            .proc
            .as_mut()
            .filter(|p| p.inc == inc)
    }

    fn add_lane(&mut self, version: KafkaVersion, over: &StreamsConfig) -> u32 {
        let lane = self.lanes.len() as u32;
        let raw = self.base_config.merged(over);
        let config = raw.resolve(version);
        // A random UUID per instance, fixed by the seed: where a new client
        // sorts decides how far `HighAvailabilityTaskAssignor`'s round-robin shifts.
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let s = (self.seed ^ 0x5eed_0000)
            .wrapping_add(u64::from(lane) + 1)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.lanes.push(Lane {
            name: instance_name(lane + 1),
            process_id: ProcessId::new(mix(s) as i64, mix(s ^ 0xa5a5) as i64),
            version,
            raw_config: raw,
            config,
            local: BTreeMap::new(),
            proc: None,
            incarnations: 0,
            started_ms: 0,
            memberships: 0,
            restart: None,
            used_metadata: None,
        });
        self.recorder.ensure_lanes(self.lanes.len());
        lane
    }

    fn heartbeat_delay(&self, lane: u32) -> u64 {
        // Members hear of a rebalance on their next heartbeat: a fixed phase
        // per instance within `heartbeat.interval.ms`.
        let hb = self.lanes[lane as usize]
            .config
            .heartbeat_interval_ms
            .max(1);
        let phase = (u64::from(lane) + 1)
            .wrapping_mul(0x9e37_79b9)
            .wrapping_add(self.seed)
            % hb;
        phase.max(self.rtt)
    }

    fn cooperative(&self, lane: u32) -> bool {
        let l = &self.lanes[lane as usize];
        l.config.cooperative(l.version)
    }

    /// The member key a JoinGroup uses: its current one, else the static
    /// `group.instance.id` slot, else a new member id (a new key per
    /// membership, as the broker hands out a new member id).
    fn key_for(&mut self, lane: u32, inc: u32) -> MemberKey {
        if let Some(key) = self.proc_of(lane, inc).and_then(|p| p.member) {
            return key;
        }
        let l = &mut self.lanes[lane as usize];
        if l.config.group_instance_id.is_some() {
            (lane, 0)
        } else {
            l.memberships += 1;
            (lane, l.memberships)
        }
    }

    fn indices(&self, tasks: &BTreeSet<StreamsTaskId>) -> BTreeSet<u32> {
        tasks.iter().map(|&t| self.task_index(t)).collect()
    }

    fn task_index(&self, t: StreamsTaskId) -> u32 {
        self.topology.task_ids.binary_search(&t).unwrap_or(0) as u32
    }
}

impl ScenarioStart for StreamsSimulation {
    fn start_initial_processes(&mut self) {
        for lane in 0..self.lanes.len() as u32 {
            self.schedule(self.driver.now(), Ev::ProcessStart { lane });
        }
    }

    fn schedule_scenario_events(&mut self, origin_ms: u64) {
        for index in 0..self.planned.len() {
            self.planned[index].0 += origin_ms;
            let at = self.planned[index].0;
            self.schedule(
                at,
                Ev::Planned {
                    index,
                    deferred: false,
                },
            );
        }
    }

    /// Records restored while the group formed are not shown.
    fn formation_done(&mut self) {
        self.records_restored = 0;
    }
}

impl Simulation for StreamsSimulation {
    type Event = Ev;

    fn driver(&self) -> &SimulationDriver<Ev> {
        &self.driver
    }

    fn parts(&mut self) -> (&mut SimulationDriver<Ev>, &mut TraceRecorder) {
        (&mut self.driver, &mut self.recorder)
    }

    fn handle(&mut self, event: Ev) {
        self.dispatch(event);
    }
}
