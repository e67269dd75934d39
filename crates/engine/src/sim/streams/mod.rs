//! The Kafka Streams simulator: a Streams application's instances in one
//! classic consumer group, on the same group coordinator ([`ClassicGroup`]),
//! event queue and span timeline as Connect.
//!
//! Model, per instance (one lane): a `ProcessId` (pinned by the scenario, or
//! random from the seed; kept across restarts because the state directory
//! persists, `StateDirectory.initializeProcessId`), a local state per
//! stateful task (checkpoint, restoring copy, or RUNNING active) shared by
//! its `num.stream.threads` stream threads. Each thread's consumer is its
//! own group member (`StreamThread`): it joins, rejoins, revokes, is
//! evicted and finds out on its own, and owns its tasks; the leader decides
//! per client, then hands a client's tasks to its threads
//! (`StreamsPartitionAssignor`, `streams::thread_assignment`). The trace
//! keeps one lane per instance; the members and rounds are per thread.
//!
//! Protocol: EAGER members revoke every active before JoinGroup;
//! COOPERATIVE members keep processing, a task still owned by another
//! consumer is held back (`StreamsPartitionAssignor.populateActiveTaskAndPartitionsLists`) and
//! its owner revokes and rejoins (`ConsumerCoordinator.onJoinComplete`,
//! KIP-429). Members learn of a rebalance from their next heartbeat; a
//! closed instance sends no LeaveGroup (`internal.leave.group.on.close`);
//! static members return without a rebalance (KIP-345); a thread that does
//! not poll for `max.poll.interval.ms` leaves
//! (`AbstractCoordinator.maybeLeaveGroup`); a member removed while alive
//! runs on as a zombie until a heartbeat or poll tells it, then
//! `onPartitionsLost`. The leader's client schedules the probing rebalance
//! (KIP-441). Version probing (KIP-268) adds immediate rounds while versions
//! are mixed. Restoration runs per thread (`restoration`).
//!
//! Simplified or not modelled:
//! * restoration shares a thread's rate equally among its restoring copies
//!   (Kafka's restore consumer fetches `max.poll.records` per poll over them);
//! * an at-least-once crash keeps checkpoints as of the crash (Kafka's are
//!   up to one commit older);
//! * a directory locked for a rebalance by one thread does not stop a
//!   sibling from creating that task (only a sibling's copy does);
//! * metadata version numbers before 2.0 are approximate, and a pre-2.0
//!   leader's `FUTURE_ID` client is not modelled;
//! * rack awareness, KIP-924 assignors, `FallbackPriorTaskAssignor`, named
//!   topologies, `addStreamThread`/`removeStreamThread`, and the
//!   KIP-848/KIP-1071 protocols.
//!
//! The code is split by job: `events` (what is scheduled, its dispatch and
//! the scenario's events), `lifecycle` (processes, pauses, sessions,
//! zombies), `poll` (a blocked thread and its poll timeout), `rounds`
//! (join, notice, revoke, sync, assignment), `leader` (the glue around
//! `streams::partition_assignor::assign_group`), `restoration` (actives and
//! standbys catching up, per thread), `member` (lanes, processes, threads,
//! subscriptions), `explain` (wording). The clock, the queue and the trace
//! being recorded are the shared `sim::driver` and `sim::recorder`.

mod events;
mod explain;
mod leader;
mod lifecycle;
pub(crate) mod local_state;
mod member;
mod poll;
mod processing;
mod restoration;
mod rounds;

use crate::sim::driver::Simulation;
use crate::sim::rebalance_cause::{JoinPhaseCause, RebalanceCause};
use std::collections::{BTreeMap, BTreeSet};

use events::Ev;
use local_state::Changelog;
use member::{Assigned, Lane, MemberKey, PendingRound, Process, StreamThread, Subscription, Th};

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
    /// Each member's current member id (the leader orders a client's
    /// consumers by it).
    member_ids: BTreeMap<MemberKey, String>,
    /// `ProcessId`s the scenario pins, by instance number.
    pinned_process_ids: Vec<ProcessId>,
    silent: BTreeMap<MemberKey, u64>,
    last_assignment: BTreeMap<MemberKey, Assigned>,
    pending: Option<PendingRound>,
    cause: JoinPhaseCause,
    planned: Vec<(u64, StreamsEvent, Option<String>)>,
    unique: u64,
    token: u64,
    records_restored: u64,
    /// Tasks whose copies changed during the current event ([`Self::settle_processing`]).
    touched: BTreeSet<u32>,
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
        let base_version = variant.kafka_version.unwrap_or(app.version());
        let mut task_ids = Vec::new();
        let mut logs = Vec::new();
        let mut stateful = Vec::new();
        for (s, spec) in app.expanded_subtopologies().into_iter().enumerate() {
            for p in 0..spec.partitions {
                task_ids.push(StreamsTaskId::new(s as u32, p));
                logs.push(Changelog::new(
                    spec.changelog_records,
                    u64::from(spec.changelog_records_per_sec),
                ));
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
        crate::sort_by_key::sort_stable_by_key(&mut planned, |p| p.0);
        let initial_delay = base_config
            .resolve(base_version)
            .group_initial_rebalance_delay_ms;
        let mut sim = Self {
            label: variant.label.clone(),
            driver: SimulationDriver::new(),
            recorder: TraceRecorder::new(),
            rtt: u64::from(app.timings.coordinator_rtt_ms),
            timings: app.timings.clone(),
            seed: scenario.seed,
            base_config,
            base_version,
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
            member_ids: BTreeMap::new(),
            pinned_process_ids: app.process_ids.clone(),
            silent: BTreeMap::new(),
            last_assignment: BTreeMap::new(),
            pending: None,
            cause: JoinPhaseCause::default(),
            planned,
            unique: 0,
            token: 0,
            records_restored: 0,
            touched: BTreeSet::new(),
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
            sim.add_lane(base_version, &StreamsConfig::default());
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

    fn thread_of(&self, th: Th) -> Option<&StreamThread> {
        self.proc_of(th.lane, th.inc)?
            .threads
            .get(th.thread as usize)
    }

    fn thread_mut(&mut self, th: Th) -> Option<&mut StreamThread> {
        self.proc_mut(th.lane, th.inc)?
            .threads
            .get_mut(th.thread as usize)
    }

    fn thread_count(&self, lane: u32, inc: u32) -> u32 {
        self.proc_of(lane, inc)
            .map_or(0, |p| p.threads.len() as u32)
    }

    /// The live thread whose consumer is member `key`.
    fn thread_of_member(&self, key: MemberKey) -> Option<Th> {
        let p = self.lanes[key.0 as usize].proc.as_ref()?;
        let x = p.threads.get(key.1 as usize)?;
        (x.member == Some(key)).then_some(Th {
            lane: key.0,
            inc: p.inc,
            thread: key.1,
        })
    }

    /// `instance-2 StreamThread-1`, for the trace's wording.
    fn thread_name(&self, th: Th) -> String {
        format!("{} StreamThread-{}", self.name(th.lane), th.thread + 1)
    }

    fn member_name(&self, key: MemberKey) -> String {
        format!("{} StreamThread-{}", self.name(key.0), key.1 + 1)
    }

    fn add_lane(&mut self, version: KafkaVersion, over: &StreamsConfig) -> u32 {
        let lane = self.lanes.len() as u32;
        let raw = self.base_config.merged(over);
        let config = raw.resolve(version);
        let process_id = self
            .pinned_process_ids
            .get(lane as usize)
            .copied()
            .unwrap_or_else(|| seeded_process_id(self.seed, lane));
        self.lanes.push(Lane {
            name: instance_name(lane + 1),
            process_id,
            version,
            raw_config: raw,
            config,
            local: BTreeMap::new(),
            proc: None,
            incarnations: 0,
            started_ms: 0,
            memberships: Vec::new(),
            restart: None,
            used_metadata: None,
        });
        self.recorder.ensure_lanes(self.lanes.len());
        lane
    }

    fn heartbeat_delay(&self, th: Th) -> u64 {
        // Members hear of a rebalance on their next heartbeat: each thread's
        // heartbeat thread has its own fixed phase within `heartbeat.interval.ms`.
        let hb = self.lanes[th.lane as usize]
            .config
            .heartbeat_interval_ms
            .max(1);
        let phase = (u64::from(th.lane) + 1)
            .wrapping_mul(0x9e37_79b9)
            .wrapping_add(u64::from(th.thread).wrapping_mul(0x85eb_ca6b))
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
    fn key_for(&mut self, th: Th) -> MemberKey {
        if let Some(key) = self.thread_of(th).and_then(|x| x.member) {
            return key;
        }
        let l = &mut self.lanes[th.lane as usize];
        if l.config.group_instance_id.is_some() {
            (th.lane, th.thread, 0)
        } else {
            if l.memberships.len() <= th.thread as usize {
                l.memberships.resize(th.thread as usize + 1, 0);
            }
            l.memberships[th.thread as usize] += 1;
            (th.lane, th.thread, l.memberships[th.thread as usize])
        }
    }

    /// The member id the broker hands `key`'s new membership: Kafka's
    /// `<client.id>-<uuid>` with the stream thread's client id
    /// (`…-StreamThread-<n>-consumer`), or `<group.instance.id>-<uuid>` for
    /// a static member, whose instance id Streams suffixes with the thread.
    fn new_member_id(&mut self, th: Th, key: MemberKey) -> String {
        let salt = (u64::from(key.1) << 48) ^ (u64::from(key.2) << 24) ^ u64::from(th.inc);
        let tag = seeded_process_id(self.seed ^ salt.wrapping_mul(0x9e37_79b9), th.lane);
        let uuid = format!("{:08x}", (tag.least_significant_bits() as u64) >> 32);
        match &self.lanes[th.lane as usize].config.group_instance_id {
            Some(prefix) => format!("{prefix}-{}-{}-{uuid}", th.lane + 1, key.1 + 1),
            None => format!(
                "{}-StreamThread-{}-consumer-{uuid}",
                self.name(th.lane),
                th.thread + 1
            ),
        }
    }

    fn indices(&self, tasks: &BTreeSet<StreamsTaskId>) -> BTreeSet<u32> {
        tasks.iter().map(|&t| self.task_index(t)).collect()
    }

    fn task_index(&self, t: StreamsTaskId) -> u32 {
        self.topology.task_ids.binary_search(&t).unwrap_or(0) as u32
    }
}

/// A random UUID per instance, fixed by the seed: where a new client sorts
/// decides how far `HighAvailabilityTaskAssignor`'s round-robin shifts.
fn seeded_process_id(seed: u64, lane: u32) -> ProcessId {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let s = (seed ^ 0x5eed_0000)
        .wrapping_add(u64::from(lane) + 1)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ProcessId::new(mix(s) as i64, mix(s ^ 0xa5a5) as i64)
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
        self.settle_processing();
    }
}
