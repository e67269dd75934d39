//! The Kafka Connect cluster simulation: worker processes (Kafka's
//! `WorkerCoordinator` and `DistributedHerder`) around a broker-side
//! [`ClassicGroup`], the two assignors (`EagerAssignor`,
//! `IncrementalCooperativeAssignor`), the config topic and KIP-507 session
//! keys, recorded into a [`Trace`]. `docs/model.md` describes the model.
//!
//! Time is integer milliseconds. Network and coordinator latency is one
//! `coordinator_rtt_ms` per request (JoinGroup of a new member takes two: the
//! MEMBER_ID_REQUIRED round trip; SyncGroup one; a REST call one each way).
//! Config-topic records reach every worker one `coordinator_rtt_ms` after they
//! are written; the leader uses a session key it wrote at once, so a follower
//! that signs in that window gets a 403.
//!
//! Determinism: members are handed to the assignor in ascending member-id
//! order (Kafka: hash-map order); member ids are `connect-<worker>-<uuid>`,
//! the uuid drawn from the scenario seed, so the order is by worker name (as
//! strings: `worker-10` < `worker-2`). The same order elects a new leader when
//! the leader leaves. No hash map is iterated anywhere. A worker's holdings
//! keep Kafka's order: its snapshot as `WorkerCoordinator.onJoinComplete`
//! builds it, reported in the grouped order `ConnectProtocol` serializes
//! (Java `HashSet` order of its connector names, `connect::wire_order`).
//!
//! What is modelled, and how:
//! * Heartbeats are not events: a member learns of a rebalance at its next
//!   heartbeat tick (`heartbeat.interval.ms` after its last SyncGroup), and a
//!   silent member (crashed, or frozen by a GC pause) is expired
//!   `session.timeout.ms` after its last heartbeat. Members whose ticks fall
//!   together are notified by one event.
//! * Each worker process owns its assignor object (Kafka's
//!   `WorkerCoordinator` field): a worker that becomes leader starts with no
//!   history (`performTaskAssignment` discards a stale `previousAssignment`),
//!   while other fields keep their stale values.
//! * Stops block the herder: revocations and eager `onJoinPrepare` stop one
//!   callable per item on 8 threads, each bounded by its timeout
//!   (`task.shutdown.graceful.timeout.ms` per task, 5 s per connector);
//!   the items show `stopping` until the whole stop returns. Starts do not
//!   block: every item starts in parallel and runs after its start duration.
//! * A new connector has tasks only once it runs and generates task configs;
//!   a follower forwards them to the leader over internal REST, signed under
//!   `sessioned` (KIP-507). A task-count change restarts the connector, which
//!   then writes new task configs; only that triggers a rebalance
//!   (`DistributedHerder`'s `onTaskConfigUpdate`).
//! * A GC pause freezes everything on the worker; events due during the
//!   pause are postponed (ticks to its end, work by what was left of it).
//! * A member removed without knowing it — its session expired while it
//!   was frozen, or the join phase closed without it (busy stopping work,
//!   frozen, or its heartbeat came after `rebalance.timeout.ms`) — runs its
//!   copies on, marked `zombie`, until its heartbeat or JoinGroup is
//!   answered UNKNOWN_MEMBER_ID and it rejoins as a new member (eager stops
//!   everything first; cooperative reports what it runs, and duplicated
//!   work is revoked, KAFKA-9841).
//! * Cooperative → eager downgrade (`WorkerCoordinator.onJoinPrepare` follows
//!   the previous generation's protocol): the first eager
//!   generation is entered without a revoke-all, and work missing from a
//!   worker's new full assignment keeps running untracked (`zombie`, a
//!   `downgrade_orphans` step) — the code reading of `startWork` and
//!   `onJoinPrepare`, which no Kafka test covers.
//! * Not modelled: CONFIG_MISMATCH rounds (every member reads the config
//!   topic in time), the poll-timeout proactive leave, and coordinator
//!   failover (KAFKA-9184): a member slower than `rebalance.timeout.ms` is
//!   dropped by the broker (rather than leaving by itself) and rejoins as a
//!   new member.
//!
//! The code is split by job: `lifecycle` (processes, pauses, heartbeats),
//! `events` (the scenario's events),
//! a round in `join` (the join phase), `assign` (the leader's assignment),
//! `sync` (SyncGroup and each worker applying it) and `round_explain` (the
//! round's explanation), `config` (config topic, task configs, KIP-507
//! forwarding), `member` (member ids), `work` (item numbering and the config
//! topic), `worker` (one process), `explain` (Connect's wording). The clock,
//! the queue and the trace being recorded are the shared `sim::driver` and
//! `sim::recorder`.

mod assign;
mod config;
mod events;
mod explain;
mod join;
mod lifecycle;
mod member;
mod round_explain;
mod sync;
mod work;
mod worker;

use crate::sim::rebalance_cause::JoinPhaseCause;
use std::collections::BTreeMap;

use crate::connect::assignment::MemberHoldings;
use crate::connect::ids::ConnectorNames;
use crate::connect::protocol::ConnectProtocol;
use crate::scenario::{
    worker_name, ConnectConfig, ConnectScenario, ConnectVariant, Event, Scenario, Timings,
};
use crate::trace::Trace;

use super::driver::{DriverEvent, Simulation, SimulationDriver};
use super::formation::ScenarioStart;
use super::group::{ClassicGroup, RebalanceTrigger};
use super::recorder::TraceRecorder;
use super::session_key::SessionKey;
use super::timeline::BatchId;
use member::MemberKey;
use work::{ConfigRecord, ConfigTopic, ConnectorConfigState, WorkRegistry};
use worker::{ConnectMetadata, ConnectWorker};

/// The assignor's clock is the simulated time plus this epoch: Kafka treats a
/// scheduled-rebalance time of 0 as "none", so the leader's clock must be > 0
/// (the recorded conformance vectors use the same offset).
const ASSIGNOR_EPOCH_MS: i64 = 1_000_000_000;

/// Something scheduled.
#[derive(Clone, Debug)]
pub(crate) enum SimEvent {
    /// A planned scenario event (index into `planned`).
    Planned { index: usize, deferred: bool },
    /// A worker process starts (a join or the end of a restart's downtime).
    ProcessStart { lane: u32 },
    /// A JoinGroup reaches the broker.
    Join { lane: u32, inc: u32, token: u32 },
    /// The broker's join-phase deadline.
    JoinDeadline { timer: u64 },
    /// The leader computes the assignment of a generation.
    Assign {
        lane: u32,
        inc: u32,
        generation: i32,
    },
    /// The leader's SyncGroup reaches the broker.
    Sync { generation: i32 },
    /// A heartbeat answers REBALANCE_IN_PROGRESS or UNKNOWN_MEMBER_ID.
    Notice { lane: u32, inc: u32, token: u32 },
    /// The same for every member whose heartbeat falls on this instant
    /// (members synced together heartbeat together): one event, not 1,000.
    Notices { members: Box<[(u32, u32, u32)]> },
    /// The broker checks a silent member's session.
    Expire { member: Box<MemberKey> },
    /// A blocking stop on the herder thread completes.
    HerderFree { lane: u32, inc: u32, token: u32 },
    /// A batch finished starting.
    Started {
        lane: u32,
        inc: u32,
        batch: BatchId,
        token: u32,
    },
    /// The assignment's delay ran out.
    RejoinTimer { lane: u32, inc: u32, token: u32 },
    /// A GC pause ends.
    Resume { lane: u32, inc: u32 },
    /// A graceful shutdown finished stopping work.
    HaltDone { lane: u32, inc: u32 },
    /// A config record becomes visible to the workers.
    ConfigVisible { offset: u64 },
    /// A session key becomes visible to the followers.
    KeyVisible { key: u32 },
    /// The leader checks whether its session key expired (background).
    KeyCheck { key: u32 },
    /// A task-config forward reaches the leader.
    ForwardArrives(Box<Forward>),
    /// A failed forward is retried.
    ForwardRetry {
        lane: u32,
        inc: u32,
        connector: u32,
        attempt: u32,
        first_ms: u64,
    },
}

impl DriverEvent for SimEvent {
    /// The leader's periodic session-key check does not keep a run from
    /// being quiet.
    fn is_background(&self) -> bool {
        matches!(self, SimEvent::KeyCheck { .. })
    }
}

/// A task-config forward on its way to the leader.
#[derive(Clone, Debug)]
pub(crate) struct Forward {
    lane: u32,
    inc: u32,
    connector: u32,
    attempt: u32,
    signed_with: Option<u32>,
    first_ms: u64,
}

/// A scenario event with a resolved time (rolling restarts expand into these).
#[derive(Clone, Debug)]
struct Planned {
    at_ms: u64,
    event: Event,
    /// Extra words for the marker, e.g. `(rolling restart 3/10)`.
    note: Option<String>,
}

/// A worker lane: one worker name, successive processes.
#[derive(Debug)]
struct Lane {
    name: String,
    process: Option<ConnectWorker>,
    incarnations: u32,
    /// The config a new process on this lane starts with.
    config: ConnectConfig,
    /// A restart to perform after the current shutdown: (downtime, config).
    restart_after: Option<(u64, ConnectConfig)>,
    /// The snapshot of a process that died while it was a member, for the
    /// round it had already joined.
    last_snapshot: MemberHoldings,
}

/// A member that stopped heartbeating (crashed or frozen).
#[derive(Clone, Copy, Debug)]
struct Silent {
    lane: u32,
    expires_ms: u64,
    session_ms: u64,
}

/// Where a member id lives.
#[derive(Clone, Copy, Debug)]
struct MemberRef {
    lane: u32,
    inc: u32,
    /// Index into the trace's member table.
    no: u32,
}

/// The round the leader computed and the broker has not yet synced.
#[derive(Clone, Debug)]
struct PendingRound {
    round: usize,
    generation: i32,
    protocol: ConnectProtocol,
    leader_lane: u32,
    delay_ms: i32,
    members: Vec<MemberKey>,
    deltas: Vec<crate::connect::assignment::MemberDelta>,
    assigned_lists: Vec<crate::trace::ItemList>,
}

/// One variant of one scenario, simulated.
pub(crate) struct ConnectSimulation {
    label: String,
    timings: Timings,
    rtt: u64,
    seed: u64,
    driver: SimulationDriver<SimEvent>,
    recorder: TraceRecorder,
    group: ClassicGroup<MemberKey, ConnectMetadata>,
    name_ranks: Vec<u32>,
    lanes: Vec<Lane>,
    /// Where each membership lives, by member number.
    member_refs: Vec<MemberRef>,
    completed: Option<super::group::CompletedJoin<MemberKey, ConnectMetadata>>,
    silent: BTreeMap<MemberKey, Silent>,
    work: WorkRegistry,
    config: ConfigTopic,
    visible_offset: u64,
    base_config: ConnectConfig,
    /// `worker_overrides` as listed (worker, config); the last for a worker
    /// applies. Read once per new lane, so a list rather than a map.
    overrides: Vec<(String, ConnectConfig)>,
    planned: Vec<Planned>,
    cause: JoinPhaseCause,
    pending: Option<PendingRound>,
    group_protocol: Option<ConnectProtocol>,
    previous_round_lanes: Vec<u32>,
    keys: Vec<SessionKey>,
    visible_key: Option<u32>,
}

impl ConnectSimulation {
    /// Prepares a run of `variant` (one of the scenario's compared protocols).
    pub(crate) fn new(
        scenario: &Scenario,
        connect: &ConnectScenario,
        variant: &ConnectVariant,
    ) -> Self {
        let cluster = &connect.cluster;
        let base_config = cluster.config.merged(&variant.config);
        let overrides: Vec<(String, ConnectConfig)> = cluster
            .worker_overrides
            .iter()
            .map(|o| (o.worker.clone(), o.config.clone()))
            .collect();
        let mut names: Vec<String> = connect
            .initial_connectors()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        for e in &connect.events {
            match &e.event {
                Event::ConnectorAdd { name, .. } | Event::ConnectorRemove { name } => {
                    names.push(name.clone())
                }
                Event::TaskCountChange { connector, .. } => names.push(connector.clone()),
                _ => {}
            }
        }
        let work = WorkRegistry::new(ConnectorNames::new(names));
        let joined: u32 = connect
            .events
            .iter()
            .map(|e| match e.event {
                Event::WorkerJoin { count, .. } => count,
                _ => 0,
            })
            .fold(0u32, u32::saturating_add);
        let workers_ever = cluster.workers.saturating_add(joined);
        // Stable: events at the same time keep their script order. (The
        // engine's one `u64`-key sort, not another copy of the standard
        // sort for `Planned` in the simulator's WebAssembly.)
        let mut order: Vec<usize> = (0..connect.events.len()).collect();
        crate::sort_by_key::sort_by_u64_key(&mut order, |&i| connect.events[i].at_ms);
        let planned: Vec<Planned> = order
            .iter()
            .map(|&i| Planned {
                at_ms: connect.events[i].at_ms,
                event: connect.events[i].event.clone(),
                note: None,
            })
            .collect();
        let mut sim = Self {
            label: variant.label.clone(),
            timings: cluster.timings.clone(),
            rtt: u64::from(cluster.timings.coordinator_rtt_ms),
            seed: scenario.seed,
            driver: SimulationDriver::new(),
            recorder: TraceRecorder::new(),
            group: ClassicGroup::new(u64::from(
                base_config.resolve().group_initial_rebalance_delay_ms,
            )),
            name_ranks: member::name_ranks(workers_ever),
            lanes: Vec::new(),
            member_refs: Vec::new(),
            completed: None,
            silent: BTreeMap::new(),
            work,
            config: ConfigTopic::default(),
            visible_offset: 0,
            base_config,
            overrides,
            planned,
            cause: JoinPhaseCause::default(),
            pending: None,
            group_protocol: None,
            previous_round_lanes: Vec::new(),
            keys: Vec::new(),
            visible_key: None,
        };
        sim.recorder.timeline.ensure_items(sim.work.len());
        // The cluster's config topic already holds the initial connectors and
        // their task configs.
        for (name, tasks) in connect.initial_connectors() {
            let Some(c) = sim.work.names().id(&name) else {
                continue;
            };
            sim.config.write(
                ConfigRecord::ConnectorAdded(c),
                Some(ConnectorConfigState {
                    desired_tasks: tasks,
                    task_configs: 0,
                }),
            );
            sim.set_task_configs(c, tasks);
        }
        sim.visible_offset = sim.config.offset();
        for n in 1..=cluster.workers {
            sim.add_lane(worker_name(n), &ConnectConfig::default());
        }
        sim
    }

    /// A simulated time as the trace shows it: from the visible t = 0.
    fn clock_at(&self, ms: u64) -> String {
        crate::wording::clock(ms.saturating_sub(self.recorder.origin_ms()))
    }

    /// Closes the run at `end_ms` and returns its trace.
    pub(crate) fn finish(self, end_ms: u64) -> Trace {
        let workers = self.lanes.iter().map(|l| l.name.clone()).collect();
        let now = self.driver.now();
        self.recorder
            .finish(self.label, now, end_ms, workers, self.work.into_items())
    }

    /// Events a frozen process cannot act on are postponed: ticks (heartbeat,
    /// timers, the leader's work) to the end of the pause, work in progress by
    /// what remained of it when the pause began.
    fn deferral(&self, event: &SimEvent) -> Option<u64> {
        let (lane, inc, duration_like) = match *event {
            SimEvent::Notice { lane, inc, .. }
            | SimEvent::RejoinTimer { lane, inc, .. }
            | SimEvent::Assign { lane, inc, .. }
            | SimEvent::ForwardRetry { lane, inc, .. } => (lane, inc, false),
            SimEvent::HerderFree { lane, inc, .. }
            | SimEvent::Started { lane, inc, .. }
            | SimEvent::HaltDone { lane, inc } => (lane, inc, true),
            SimEvent::ForwardArrives(_) | SimEvent::KeyCheck { .. } => {
                let lane = self.leader_lane()?;
                let w = self.lanes[lane as usize].process.as_ref()?;
                return w.frozen.as_ref().map(|f| f.until);
            }
            _ => return None,
        };
        let w = self.lanes.get(lane as usize)?.process.as_ref()?;
        if w.incarnation != inc {
            return None;
        }
        let f = w.frozen.as_ref()?;
        Some(if duration_like {
            f.until + self.driver.now().saturating_sub(f.since)
        } else {
            f.until
        })
    }

    fn dispatch(&mut self, event: SimEvent) {
        match event {
            SimEvent::Planned { index, deferred } => self.on_planned(index, deferred),
            SimEvent::ProcessStart { lane } => self.start_process(lane),
            SimEvent::Join { lane, inc, token } => self.on_join_arrives(lane, inc, token),
            SimEvent::JoinDeadline { timer } => {
                let change = self.group.on_join_deadline(timer, self.driver.now());
                self.apply_group_change(change);
            }
            SimEvent::Assign {
                lane,
                inc,
                generation,
            } => self.on_assign(lane, inc, generation),
            SimEvent::Sync { generation } => self.on_sync(generation),
            SimEvent::Notice { lane, inc, token } => self.on_notice(lane, inc, token),
            SimEvent::Notices { members } => {
                for &(lane, inc, token) in members.iter() {
                    let frozen_until = self
                        .worker(lane, inc)
                        .and_then(|w| w.frozen.as_ref().map(|f| f.until));
                    match frozen_until {
                        Some(until) => self.schedule(until, SimEvent::Notice { lane, inc, token }),
                        None => self.on_notice(lane, inc, token),
                    }
                }
            }
            SimEvent::Expire { member } => self.on_expire(*member),
            SimEvent::HerderFree { lane, inc, token } => self.on_herder_free(lane, inc, token),
            SimEvent::Started {
                lane,
                inc,
                batch,
                token,
            } => self.on_started(lane, inc, batch, token),
            SimEvent::RejoinTimer { lane, inc, token } => self.on_rejoin_timer(lane, inc, token),
            SimEvent::Resume { lane, inc } => self.on_resume(lane, inc),
            SimEvent::HaltDone { lane, inc } => self.on_halt_done(lane, inc),
            SimEvent::ConfigVisible { offset } => self.on_config_visible(offset),
            SimEvent::KeyVisible { key } => self.on_key_visible(key),
            SimEvent::KeyCheck { key } => self.on_key_check(key),
            SimEvent::ForwardArrives(f) => self.on_forward_arrives(*f),
            SimEvent::ForwardRetry {
                lane,
                inc,
                connector,
                attempt,
                first_ms,
            } => self.on_forward_retry(lane, inc, connector, attempt, first_ms),
        }
    }

    // --- small shared helpers -------------------------------------------

    fn add_lane(&mut self, name: String, event_config: &ConnectConfig) -> u32 {
        let mut config = self.base_config.clone();
        if let Some((_, o)) = self.overrides.iter().rev().find(|(w, _)| *w == name) {
            config = config.merged(o);
        }
        config = config.merged(event_config);
        self.lanes.push(Lane {
            name,
            process: None,
            incarnations: 0,
            config,
            restart_after: None,
            last_snapshot: MemberHoldings::default(),
        });
        let lane = (self.lanes.len() - 1) as u32;
        self.recorder.ensure_lanes(self.lanes.len());
        lane
    }

    fn lane_by_name(&self, name: &str) -> Option<u32> {
        self.lanes
            .iter()
            .position(|l| l.name == name)
            .map(|i| i as u32)
    }

    fn name(&self, lane: u32) -> &str {
        &self.lanes[lane as usize].name
    }

    fn worker(&self, lane: u32, inc: u32) -> Option<&ConnectWorker> {
        self.lanes
            .get(lane as usize)?
            .process
            .as_ref()
            .filter(|w| w.incarnation == inc)
    }

    fn worker_mut(&mut self, lane: u32, inc: u32) -> Option<&mut ConnectWorker> {
        self.lanes
            .get_mut(lane as usize)?
            .process
            .as_mut()
            .filter(|w| w.incarnation == inc)
    }

    fn proc(&self, lane: u32) -> &ConnectWorker {
        self.lanes[lane as usize]
            .process
            .as_ref()
            .expect("a live process on this lane")
    }

    fn proc_mut(&mut self, lane: u32) -> &mut ConnectWorker {
        self.lanes[lane as usize]
            .process
            .as_mut()
            .expect("a live process on this lane")
    }

    fn leader_lane(&self) -> Option<u32> {
        let key = self.group.leader()?;
        self.member_ref(key).map(|m| m.lane)
    }

    /// Where a member id lives.
    fn member_ref(&self, key: &MemberKey) -> Option<&MemberRef> {
        self.member_refs.get(key.no as usize)
    }

    fn member_name(&self, key: &MemberKey) -> String {
        match self.member_ref(key) {
            Some(m) => self.name(m.lane).to_string(),
            None => "a departed member".to_string(),
        }
    }

    /// A worker name for a member id string (the assignor speaks in ids).
    fn member_name_by_id(&self, id: &str) -> String {
        self.recorder
            .members
            .iter()
            .find(|m| m.member_id == id)
            .map_or_else(|| id.to_string(), |m| self.name(m.worker).to_string())
    }

    /// Writes a connector's task configs: `count` tasks become configured.
    fn set_task_configs(&mut self, c: crate::connect::ids::ConnectorId, count: u32) {
        let Some(state) = self.config.connector(c) else {
            return;
        };
        let old = state.task_configs;
        self.work.ensure_tasks(c, count);
        self.recorder.timeline.ensure_items(self.work.len());
        let connector_item = WorkRegistry::connector_item(c);
        self.recorder
            .timeline
            .set_configured(connector_item, true, &mut self.recorder.pool);
        for &item in self.work.task_items(c, old.min(count), count) {
            self.recorder.timeline.set_task(item);
        }
        let (lo, hi) = (old.min(count), old.max(count));
        let items: Vec<u32> = self.work.task_items(c, lo, hi).to_vec();
        for item in items {
            self.recorder
                .timeline
                .set_configured(item, count > old, &mut self.recorder.pool);
        }
        self.config.write(
            ConfigRecord::TaskConfigs(c),
            Some(ConnectorConfigState {
                desired_tasks: state.desired_tasks,
                task_configs: count,
            }),
        );
    }

    /// The trigger of the current join phase, in words.
    fn describe_trigger(&self, trigger: &RebalanceTrigger<MemberKey>) -> String {
        use crate::wording::duration;
        let who = self.member_name(trigger.member());
        let reason = self
            .member_ref(trigger.member())
            .and_then(|m| self.worker(m.lane, m.inc))
            .and_then(|w| w.rejoin_reason.clone());
        let restarted = self
            .member_ref(trigger.member())
            .is_some_and(|m| self.lanes[m.lane as usize].incarnations > 1);
        let why = |r: Option<worker::RejoinReason>| -> String {
            use worker::RejoinReason::*;
            match r {
                Some(Startup) | None if restarted => "a restarted process: new member id, empty assignment".to_string(),
                Some(Startup) | None => "a new process with an empty assignment".to_string(),
                Some(FollowUp { connectors, tasks }) => format!(
                    "follow-up rebalance: it stopped the {} it was told to revoke",
                    explain::work(connectors, tasks)
                ),
                Some(DelayExpired) => "the scheduled rebalance delay in its last assignment ran out".to_string(),
                Some(RebalanceNotice) => "a heartbeat told it a rebalance is in progress".to_string(),
                Some(UnknownMember) => "the broker had removed it; it rejoins as a new member and reports what it still runs".to_string(),
                Some(SyncFailed) => "its SyncGroup failed because the group restarted the rebalance".to_string(),
                Some(ConfigChanged(s)) => s,
            }
        };
        match trigger {
            RebalanceTrigger::FirstMember(_) => {
                let delay = self.base_config.resolve().group_initial_rebalance_delay_ms;
                format!(
                    "{who} is the first member of the empty group and becomes leader; the broker holds the join phase for group.initial.rebalance.delay.ms ({}) to collect the others",
                    duration(u64::from(delay))
                )
            }
            RebalanceTrigger::NewMember(_) => format!("{who} joins ({})", why(reason)),
            RebalanceTrigger::LeaderRejoined(_) => {
                format!("leader {who} rejoins ({})", why(reason))
            }
            RebalanceTrigger::MetadataChanged(_) => {
                format!("{who} rejoins with new metadata ({})", why(reason))
            }
            RebalanceTrigger::RejoinDuringSync(_) => format!(
                "{who} rejoins while the group waits for SyncGroup ({})",
                why(reason)
            ),
            RebalanceTrigger::MemberLeft(_) => format!("{who} sent LeaveGroup (graceful shutdown)"),
            RebalanceTrigger::SessionExpired(key) => {
                let session = self.silent_session(key);
                format!(
                    "{who}'s session expired: no heartbeat for session.timeout.ms ({})",
                    duration(session)
                )
            }
        }
    }

    fn silent_session(&self, key: &MemberKey) -> u64 {
        self.member_ref(key)
            .map(|m| {
                u64::from(
                    self.lanes[m.lane as usize]
                        .config
                        .resolve()
                        .session_timeout_ms,
                )
            })
            .unwrap_or(10_000)
    }
}

impl ScenarioStart for ConnectSimulation {
    fn start_initial_processes(&mut self) {
        for lane in 0..self.lanes.len() as u32 {
            self.schedule(self.driver.now(), SimEvent::ProcessStart { lane });
        }
    }

    fn schedule_scenario_events(&mut self, origin_ms: u64) {
        for index in 0..self.planned.len() {
            self.planned[index].at_ms += origin_ms;
            let at = self.planned[index].at_ms;
            self.schedule(
                at,
                SimEvent::Planned {
                    index,
                    deferred: false,
                },
            );
        }
    }
}

impl Simulation for ConnectSimulation {
    type Event = SimEvent;

    fn driver(&self) -> &SimulationDriver<SimEvent> {
        &self.driver
    }

    fn parts(&mut self) -> (&mut SimulationDriver<SimEvent>, &mut TraceRecorder) {
        (&mut self.driver, &mut self.recorder)
    }

    fn handle(&mut self, event: SimEvent) {
        if let Some(defer_to) = self.deferral(&event) {
            self.schedule(defer_to, event);
            return;
        }
        self.dispatch(event);
    }
}
