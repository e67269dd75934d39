//! The Kafka Streams simulator: a Streams application's instances in one
//! classic consumer group (streams spec §1–§5), on the same group
//! coordinator ([`ClassicGroup`]), event queue and span timeline as Connect.
//!
//! Model, per instance (one lane): a `ProcessId` (random from the seed, kept
//! across restarts because the state directory persists, spec §3.1), its
//! stream threads as capacity, a local state per stateful task (checkpoint,
//! restoring copy, or RUNNING active) and its active/standby/warmup tasks.
//! All threads of an instance join together, so one group member stands for
//! the instance (see `streams::partition_assignor` on the filter's
//! granularity).
//!
//! Protocol: EAGER members revoke every active before JoinGroup;
//! COOPERATIVE members keep processing, a task still owned elsewhere is held
//! back (spec §3.3 step 8) and its owner revokes and rejoins (§2.4, §3.5).
//! Members learn of a rebalance from their next heartbeat; a closed instance
//! sends no LeaveGroup (§1.3); static members return without a rebalance
//! (§1.4); a thread that does not poll for `max.poll.interval.ms` leaves
//! (§1.2). The leader's client schedules the probing rebalance (§0.6).
//! Version probing (§3.6) adds immediate rounds while versions are mixed.
//!
//! Simplified or not modelled:
//! * one group member per instance: its threads join together, so the
//!   thread distribution (§3.3 step 7) and a move between two threads of one
//!   instance are not modelled; capacity is `num.stream.threads`;
//! * restoration runs per task at a fixed rate, independent of other tasks
//!   on the same thread, and standbys do not yield to restoring actives;
//! * an at-least-once crash keeps checkpoints as of the crash (Kafka's are
//!   up to one commit older);
//! * a zombie learns it was removed on its next heartbeat response;
//! * metadata version numbers per release are approximate (their order is
//!   what version probing needs), and a pre-2.0 leader's `FUTURE_ID` client
//!   is not modelled;
//! * rack awareness, KIP-924 assignors, `FallbackPriorTaskAssignor`, named
//!   topologies and the KIP-848/KIP-1071 protocols.

mod local_state;

use std::collections::{BTreeMap, BTreeSet};

use local_state::{restore_ms, Changelog, LocalState};

use crate::report::format_duration;
use crate::scenario::{
    instance_name, KafkaVersion, ProcessingGuarantee, ResolvedStreamsConfig, Scenario,
    StreamsConfig, StreamsEvent, StreamsScenario, StreamsTimings, StreamsVariant,
    TaskAssignorClass,
};
use crate::sim::event_queue::EventQueue;
use crate::sim::group::{
    ClassicGroup, GroupChange, GroupState, JoinResponse, RebalanceTrigger, RemovalReason,
};
use crate::sim::timeline::{ItemPool, Timeline};
use crate::streams::partition_assignor::{self, AssignorKind, ClientSubscription, LeaderContext};
use crate::streams::{
    AssignmentConfigs, ProcessId, StreamsTaskId, LATEST_OFFSET, UNKNOWN_OFFSET_SUM,
};
use crate::trace::{
    EventMarker, ItemKind, ItemState, MemberInfo, ProtocolStep, RebalanceRound, RoundMember, Trace,
    WorkItem, WorkerSpan, WorkerState,
};

/// Events one run may process before it stops (a runaway scenario).
const MAX_EVENTS: u64 = 2_000_000;

/// A group member: (lane, incarnation); static members keep incarnation 0
/// across restarts, as their `group.instance.id` does.
type MemberKey = (u32, u32);

/// The latest `SubscriptionInfo` version a Kafka Streams release supports
/// (spec §3.2: v7 came with 2.6, v11 is HEAD's). Earlier steps are
/// approximate; only their order matters for version probing (spec §3.6).
fn latest_metadata_version(v: KafkaVersion) -> u32 {
    match (v.major, v.minor) {
        (0, _) | (1, _) => 2,
        (2, 0) => 3,
        (2, 1) | (2, 2) => 4,
        (2, 3) => 5,
        (2, 4) | (2, 5) => 6,
        (2, 6) => 7,
        (2, 7) => 8,
        (2, _) => 9,
        (3, 0..=3) => 10,
        _ => 11,
    }
}

/// A member's JoinGroup metadata (the Streams subscription, spec §3.2).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Subscription {
    process_id: ProcessId,
    capacity: u32,
    cooperative: bool,
    version: KafkaVersion,
    /// The metadata version it sent, and the latest it supports.
    used_metadata: u32,
    latest_metadata: u32,
    owned: Vec<u32>,
    offset_sums: Vec<(u32, i64)>,
    /// `uniqueField`: makes every JoinGroup's metadata differ.
    unique: u64,
}

#[derive(Clone, Debug)]
enum Ev {
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Starting,
    Revoking,
    Joining,
    Stable,
    Stopping,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TaskPhase {
    Initializing,
    Restoring,
    Running,
    Revoking,
}

#[derive(Clone, Debug)]
struct Process {
    inc: u32,
    member: Option<MemberKey>,
    phase: Phase,
    generation: i32,
    active: BTreeMap<u32, (TaskPhase, u64)>,
    /// Standby copies: true for a warmup.
    standby: BTreeMap<u32, bool>,
    frozen_until: Option<u64>,
    blocked_until: Option<u64>,
    /// Out of the group while frozen or blocked (session expired, poll timeout).
    out_of_group: bool,
    rejoin_when_free: bool,
    revoking: usize,
    rejoin_after_revoke: bool,
}

impl Process {
    /// When to look again if the stream thread is not running: the end of
    /// the freeze if frozen, else the end of the block; `None` when free.
    fn free_at(&self) -> Option<u64> {
        self.frozen_until.or(self.blocked_until)
    }

    /// Frozen or blocked (in a handler): the stream thread is not running.
    fn is_busy(&self) -> bool {
        self.free_at().is_some()
    }
}

#[derive(Clone, Debug)]
struct Lane {
    name: String,
    process_id: ProcessId,
    version: KafkaVersion,
    raw_config: StreamsConfig,
    config: ResolvedStreamsConfig,
    local: BTreeMap<u32, LocalState>,
    proc: Option<Process>,
    incarnations: u32,
    /// When the current (or last) process started: its state cleaner's clock.
    started_ms: u64,
    /// Dynamic memberships so far (each gets a new member id).
    memberships: u32,
    restart: Option<Restart>,
    /// The metadata version version probing settled on (`None`: its latest).
    used_metadata: Option<u32>,
}

/// A planned comeback: after `downtime_ms`, with this version and config.
#[derive(Clone, Debug)]
struct Restart {
    downtime_ms: u64,
    version: KafkaVersion,
    config: StreamsConfig,
    remove_config: Vec<String>,
}

#[derive(Clone, Debug, Default)]
struct Assigned {
    active: BTreeSet<u32>,
    standby: BTreeSet<u32>,
    warmup: BTreeSet<u32>,
    immediate: bool,
    probing_at: Option<u64>,
    /// Version probing: the metadata version to use from now on.
    metadata_version: Option<u32>,
}

#[derive(Clone, Debug)]
struct PendingRound {
    round: RebalanceRound,
    assignments: BTreeMap<MemberKey, Assigned>,
}

/// One variant of a Streams scenario, simulated.
pub struct StreamsSimulation {
    label: String,
    now: u64,
    queue: EventQueue<Ev>,
    processed: u64,
    last_activity: u64,
    timings: StreamsTimings,
    rtt: u64,
    seed: u64,
    base_config: StreamsConfig,
    base_version: KafkaVersion,
    task_ids: Vec<StreamsTaskId>,
    logs: Vec<Changelog>,
    stateful: Vec<bool>,
    all_tasks: BTreeSet<StreamsTaskId>,
    stateful_tasks: BTreeSet<StreamsTaskId>,
    lanes: Vec<Lane>,
    group: ClassicGroup<MemberKey, Subscription>,
    member_index: BTreeMap<MemberKey, u32>,
    silent: BTreeMap<MemberKey, u64>,
    last_assignment: BTreeMap<MemberKey, Assigned>,
    pending: Option<PendingRound>,
    cause: String,
    timeline: Timeline,
    pool: ItemPool,
    planned: Vec<(u64, StreamsEvent, Option<String>)>,
    members: Vec<MemberInfo>,
    worker_spans: Vec<WorkerSpan>,
    open_worker_spans: Vec<Option<(WorkerState, u64)>>,
    rounds: Vec<RebalanceRound>,
    steps: Vec<ProtocolStep>,
    markers: Vec<EventMarker>,
    unique: u64,
    token: u64,
    records_restored: u64,
}

impl StreamsSimulation {
    /// Prepares a run of `variant`, one of `streams.compare`.
    pub fn new(scenario: &Scenario, streams: &StreamsScenario, variant: &StreamsVariant) -> Self {
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
            now: 0,
            queue: EventQueue::new(),
            processed: 0,
            last_activity: 0,
            rtt: u64::from(app.timings.coordinator_rtt_ms),
            timings: app.timings.clone(),
            seed: scenario.seed,
            base_config,
            base_version: app.version(),
            task_ids,
            logs,
            stateful,
            all_tasks,
            stateful_tasks,
            lanes: Vec::new(),
            group: ClassicGroup::new(initial_delay),
            member_index: BTreeMap::new(),
            silent: BTreeMap::new(),
            last_assignment: BTreeMap::new(),
            pending: None,
            cause: String::new(),
            timeline: Timeline::new(),
            pool: ItemPool::default(),
            planned,
            members: Vec::new(),
            worker_spans: Vec::new(),
            open_worker_spans: Vec::new(),
            rounds: Vec::new(),
            steps: Vec::new(),
            markers: Vec::new(),
            unique: 0,
            token: 0,
            records_restored: 0,
        };
        let n = sim.task_ids.len();
        sim.timeline.ensure_items(n);
        for item in 0..n as u32 {
            sim.timeline.set_task(item);
            sim.timeline.set_configured(item, true, &mut sim.pool);
        }
        for i in 0..sim.planned.len() {
            let at = sim.planned[i].0;
            sim.queue.schedule(
                at,
                Ev::Planned {
                    index: i,
                    deferred: false,
                },
            );
        }
        for _ in 0..app.instances {
            let lane = sim.add_lane(app.version(), &StreamsConfig::default());
            sim.queue.schedule(0, Ev::ProcessStart { lane });
        }
        if !app.cold_start {
            sim.seed_steady_state();
        }
        sim
    }

    /// An application that was already running: every initial instance has
    /// checkpoints, at the changelog end at time 0, for the tasks and standbys
    /// the leader's assignor gives it from scratch (the steady layout), so
    /// the first rebalance finds everyone caught up.
    fn seed_steady_state(&mut self) {
        let Some(first) = self.lanes.first() else {
            return;
        };
        let cfg = first.config.clone();
        let subs: Vec<ClientSubscription> = self
            .lanes
            .iter()
            .map(|l| ClientSubscription {
                process_id: l.process_id,
                capacity: l.config.num_stream_threads,
                owned: BTreeSet::new(),
                offset_sums: BTreeMap::new(),
            })
            .collect();
        let end_offsets: BTreeMap<StreamsTaskId, i64> = self
            .stateful_tasks
            .iter()
            .map(|&t| (t, self.logs[self.task_index(t) as usize].end(0) as i64))
            .collect();
        let ctx = LeaderContext {
            all_tasks: &self.all_tasks,
            stateful_tasks: &self.stateful_tasks,
            end_offsets: &end_offsets,
            configs: AssignmentConfigs {
                acceptable_recovery_lag: i64::MAX,
                max_warmup_replicas: cfg.max_warmup_replicas,
                num_standby_replicas: cfg.num_standby_replicas,
                probing_rebalance_interval_ms: cfg.probing_rebalance_interval_ms,
            },
            assignor: AssignorKind::HighAvailability,
            cooperative_filter: true,
            leader: first.process_id,
        };
        let Ok(layout) = partition_assignor::assign(&subs, &ctx) else {
            return;
        };
        for (lane, client) in layout.clients.iter().enumerate() {
            for t in client.active.iter().chain(&client.standby) {
                let idx = self.task_index(*t);
                if self.stateful[idx as usize] {
                    let offset = self.logs[idx as usize].end(0);
                    self.lanes[lane]
                        .local
                        .insert(idx, LocalState::Idle { offset, since: 0 });
                }
            }
        }
    }

    /// Records replayed from changelogs so far (actives, warmups, standbys).
    pub fn records_restored(&self) -> u64 {
        self.records_restored
    }

    /// Runs until nothing is pending (or `limit_ms`); returns the time of the last activity.
    pub fn run_until_quiet(&mut self, limit_ms: u64) -> u64 {
        while let Some(t) = self.queue.peek_time() {
            if t > limit_ms {
                break;
            }
            self.step();
        }
        self.last_activity
    }

    /// Runs every event up to `end_ms`.
    pub fn run_until(&mut self, end_ms: u64) {
        while let Some(t) = self.queue.peek_time() {
            if t > end_ms {
                break;
            }
            self.step();
        }
    }

    /// Closes everything at `end_ms` and returns the trace.
    pub fn finish(mut self, end_ms: u64) -> Trace {
        let end_ms = end_ms.max(self.now);
        self.timeline.advance(end_ms, &mut self.pool);
        for lane in 0..self.lanes.len() as u32 {
            self.close_worker_span(lane, end_ms);
        }
        let (spans, configured) = self.timeline.finish(end_ms, &mut self.pool);
        Trace {
            label: self.label,
            end_ms,
            workers: self.lanes.iter().map(|l| l.name.clone()).collect(),
            members: self.members,
            items: self
                .task_ids
                .iter()
                .map(|t| WorkItem {
                    label: t.to_string(),
                    kind: ItemKind::Task,
                })
                .collect(),
            item_lists: self.pool.into_vec(),
            spans,
            configured,
            worker_spans: self.worker_spans,
            rounds: self.rounds,
            steps: self.steps,
            events: self.markers,
        }
    }

    // --- plumbing ------------------------------------------------------------

    fn step(&mut self) {
        let Some((t, ev)) = self.queue.pop() else {
            return;
        };
        self.processed += 1;
        self.now = t;
        self.last_activity = t;
        self.timeline.advance(t, &mut self.pool);
        if self.processed > MAX_EVENTS {
            self.queue = EventQueue::new();
            self.note(
                None,
                "simulation_stopped",
                format!("The simulation stopped after {MAX_EVENTS} events; the scenario keeps the application busy without end."),
            );
            return;
        }
        self.dispatch(ev);
    }

    fn schedule(&mut self, at: u64, ev: Ev) {
        self.queue.schedule(at.max(self.now), ev);
    }

    fn next_token(&mut self) -> u64 {
        self.token += 1;
        self.token
    }

    fn note(&mut self, lane: Option<u32>, kind: &str, explanation: String) {
        self.steps.push(ProtocolStep {
            at_ms: self.now,
            worker: lane,
            kind: kind.to_string(),
            explanation,
        });
    }

    /// What started the rebalance in progress, for the round's explanation;
    /// a later trigger during the same join phase does not replace it.
    fn set_cause(&mut self, cause: String) {
        if self.group.state() != GroupState::PreparingRebalance || self.cause.is_empty() {
            self.cause = cause;
        }
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

    fn labels(&self, tasks: &BTreeSet<u32>) -> String {
        let shown: Vec<String> = tasks
            .iter()
            .take(6)
            .map(|&t| self.task_ids[t as usize].to_string())
            .collect();
        if tasks.len() > 6 {
            format!("{} … ({} tasks)", shown.join(", "), tasks.len())
        } else {
            shown.join(", ")
        }
    }

    fn add_lane(&mut self, version: KafkaVersion, over: &StreamsConfig) -> u32 {
        let lane = self.lanes.len() as u32;
        let raw = self.base_config.merged(over);
        let config = raw.resolve(version);
        // A random UUID per instance, fixed by the seed (spec §0.4: where a new
        // client sorts decides how far the round-robin shifts).
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
        self.open_worker_spans.push(None);
        self.timeline.ensure_lanes(self.lanes.len());
        lane
    }

    fn open_worker_span(&mut self, lane: u32, state: WorkerState) {
        self.close_worker_span(lane, self.now);
        self.open_worker_spans[lane as usize] = Some((state, self.now));
    }

    fn close_worker_span(&mut self, lane: u32, at: u64) {
        if let Some((state, since)) = self.open_worker_spans[lane as usize].take() {
            if since < at {
                self.worker_spans.push(WorkerSpan {
                    worker: lane,
                    state,
                    start_ms: since,
                    end_ms: at,
                });
            }
        }
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

    // --- dispatch ------------------------------------------------------------

    fn dispatch(&mut self, ev: Ev) {
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
                let change = self.group.on_join_deadline(timer, self.now);
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

    // --- scenario events ---------------------------------------------------

    fn on_planned(&mut self, index: usize, deferred: bool) {
        let (_, event, note) = self.planned[index].clone();
        let lane = event
            .instance()
            .and_then(|n| self.lanes.iter().position(|l| l.name == n))
            .map(|l| l as u32);
        if !deferred {
            let mut label = event.label();
            if let Some(n) = &note {
                label = format!("{label} ({n})");
            }
            self.markers.push(EventMarker {
                at_ms: self.now,
                worker: lane,
                label,
                applied: true,
            });
        }
        if let Some(name) = event.instance() {
            let alive = lane.is_some_and(|l| {
                self.lanes[l as usize]
                    .proc
                    .as_ref()
                    .is_some_and(|p| p.phase != Phase::Stopping)
            });
            if !alive {
                if let Some(m) = self.markers.last_mut() {
                    m.applied = false;
                }
                self.note(
                    lane,
                    "event_skipped",
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
                    "event_deferred",
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
                    let at = self.now + k as u64 * interval_ms;
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
                    "rolling_restart",
                    format!(
                        "Rolling restart of {n} instances: one every {}, each down for {}.",
                        format_duration(interval_ms),
                        format_duration(downtime_ms)
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

    // --- process lifecycle ---------------------------------------------------

    fn start_process(&mut self, lane: u32) {
        self.clean_state_dirs(lane);
        let l = &mut self.lanes[lane as usize];
        l.incarnations += 1;
        l.started_ms = self.now;
        let inc = l.incarnations;
        l.proc = Some(Process {
            inc,
            member: None,
            phase: Phase::Starting,
            generation: 0,
            active: BTreeMap::new(),
            standby: BTreeMap::new(),
            frozen_until: None,
            blocked_until: None,
            out_of_group: false,
            rejoin_when_free: false,
            revoking: 0,
            rejoin_after_revoke: false,
        });
        self.open_worker_span(lane, WorkerState::Up);
        let start = u64::from(self.timings.instance_start_ms);
        let statics = self.lanes[lane as usize].config.group_instance_id.is_some();
        // A dynamic member's first JoinGroup is answered MEMBER_ID_REQUIRED:
        // one extra round trip (spec §1.1).
        let extra = if statics { 0 } else { 2 * self.rtt };
        self.schedule(self.now + start + extra, Ev::SendJoin { lane, inc });
    }

    /// `KafkaStreams.close()`: commit and checkpoint every active, no LeaveGroup.
    fn close_instance(&mut self, lane: u32) {
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        p.phase = Phase::Stopping;
        let inc = p.inc;
        if p.out_of_group {
            // Removed from the group: its commits fail, the tasks are closed
            // dirty at once.
            let lost: Vec<u32> = std::mem::take(&mut p.active).into_keys().collect();
            for t in lost {
                self.timeline.remove_copy(t, lane, &mut self.pool);
                self.settle_local(lane, t);
            }
        }
        let p = self.lanes[lane as usize]
            .proc
            .as_ref()
            .expect("checked above");
        // Tasks already being revoked are stopping anyway.
        let active: Vec<u32> = p
            .active
            .iter()
            .filter(|(_, a)| a.0 != TaskPhase::Revoking)
            .map(|(&t, _)| t)
            .collect();
        let name = self.name(lane);
        self.timeline
            .split_off(lane, &active, ItemState::Stopping, &mut self.pool);
        self.note(
            Some(lane),
            "close",
            format!("{name} closes: commits and checkpoints its tasks. Streams' main consumer sets internal.leave.group.on.close=false, so no LeaveGroup is sent (spec §1.3)."),
        );
        self.schedule(
            self.now + u64::from(self.timings.task_commit_ms),
            Ev::Exit { lane, inc },
        );
    }

    fn on_exit(&mut self, lane: u32, inc: u32) {
        if self.proc_of(lane, inc).is_none() {
            return;
        }
        self.process_gone(lane, false);
    }

    fn crash(&mut self, lane: u32) {
        let name = self.name(lane);
        let eos = self.lanes[lane as usize].config.processing_guarantee
            == ProcessingGuarantee::ExactlyOnceV2;
        self.note(
            Some(lane),
            "crash",
            if eos {
                format!("{name} crashes. Under exactly_once_v2 a running task's checkpoint was deleted at initialisation, so its local state is wiped (spec §5).")
            } else {
                format!("{name} crashes; its last checkpoints survive (at_least_once).")
            },
        );
        self.process_gone(lane, eos);
    }

    /// The process is gone (clean close done, or a crash): its copies end,
    /// its state stays on disk (unless wiped), and the group notices only
    /// after `session.timeout.ms`.
    fn process_gone(&mut self, lane: u32, wipe: bool) {
        self.clean_state_dirs(lane);
        let Some(p) = self.lanes[lane as usize].proc.take() else {
            return;
        };
        let now = self.now;
        for &t in p.active.keys().chain(p.standby.keys()) {
            self.timeline.remove_copy(t, lane, &mut self.pool);
            self.settle_local(lane, t);
        }
        if wipe {
            self.lanes[lane as usize].local.clear();
        }
        self.close_worker_span(lane, now);
        if let Some(key) = p.member {
            if self.group.contains(&key) && !p.out_of_group {
                self.go_silent(key);
            }
        }
        if let Some(r) = self.lanes[lane as usize].restart.take() {
            let l = &mut self.lanes[lane as usize];
            l.version = r.version;
            l.used_metadata = None;
            l.raw_config = l.raw_config.merged(&r.config).without(&r.remove_config);
            l.config = l.raw_config.resolve(r.version);
            self.schedule(now + r.downtime_ms, Ev::ProcessStart { lane });
        }
    }

    /// Deletes the unowned task directories the running process's state
    /// cleaner has removed by now (none while no process runs).
    fn clean_state_dirs(&mut self, lane: u32) {
        let now = self.now;
        let l = &mut self.lanes[lane as usize];
        if l.proc.is_none() {
            return;
        }
        let (delay, started) = (l.config.state_cleanup_delay_ms, l.started_ms);
        l.local.retain(|_, s| !s.cleaned(delay, started, now));
    }

    fn go_silent(&mut self, key: MemberKey) {
        if self.silent.contains_key(&key) {
            // Silent already: the session runs out from the first silence.
            return;
        }
        let session = self.lanes[key.0 as usize].config.session_timeout_ms;
        self.silent.insert(key, self.now);
        let since = self.now;
        self.schedule(self.now + session, Ev::SessionExpiry { key, since });
    }

    fn on_session_expiry(&mut self, key: MemberKey, since: u64) {
        if self.silent.get(&key) != Some(&since) || !self.group.contains(&key) {
            return;
        }
        self.silent.remove(&key);
        let name = self.name(key.0);
        let session = self.lanes[key.0 as usize].config.session_timeout_ms;
        self.note(
            Some(key.0),
            "session_timeout",
            format!(
                "The coordinator removes {name}'s member: no heartbeat for session.timeout.ms ({}).",
                format_duration(session)
            ),
        );
        self.set_cause(format!("{name}'s session expired"));
        if let Some(p) = self.lanes[key.0 as usize].proc.as_mut() {
            if p.member == Some(key) {
                p.out_of_group = true;
            }
        }
        let change = self
            .group
            .remove(&key, RemovalReason::SessionTimeout, self.now);
        self.apply_change(change);
    }

    fn freeze(&mut self, lane: u32, duration: u64) {
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        if p.frozen_until.is_some() {
            return;
        }
        p.frozen_until = Some(self.now + duration);
        let inc = p.inc;
        let member = p.member;
        let active: Vec<u32> = p.active.keys().copied().collect();
        self.timeline
            .split_off(lane, &active, ItemState::Frozen, &mut self.pool);
        self.open_worker_span(lane, WorkerState::Frozen);
        if let Some(key) = member {
            if self.group.contains(&key) {
                self.go_silent(key);
            }
        }
        self.schedule(self.now + duration, Ev::Resume { lane, inc });
    }

    fn on_resume(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        p.frozen_until = None;
        let member = p.member;
        let out = p.out_of_group;
        self.open_worker_span(lane, WorkerState::Up);
        if let Some(key) = member {
            self.silent.remove(&key);
        }
        let name = self.name(lane);
        if out {
            // It still believes it owns its tasks and processes the running
            // ones until its first heartbeat answers UNKNOWN_MEMBER_ID (spec
            // §1.2, Connect §4.1); tasks that were not running yet never get
            // to process before onPartitionsLost closes them.
            let (mut running, mut idle) = (Vec::new(), Vec::new());
            if let Some(p) = self.lanes[lane as usize].proc.as_ref() {
                for (&t, a) in &p.active {
                    if a.0 == TaskPhase::Running {
                        running.push(t);
                    } else {
                        idle.push(t);
                    }
                }
            }
            for &t in &idle {
                if let Some(p) = self.proc_mut(lane, inc) {
                    p.active.remove(&t);
                }
                self.timeline.remove_copy(t, lane, &mut self.pool);
                self.settle_local(lane, t);
            }
            self.timeline
                .split_off(lane, &running, ItemState::Zombie, &mut self.pool);
            self.note(
                Some(lane),
                "zombie",
                format!("{name} resumes after its session expired: it processes its old tasks as a zombie until its next heartbeat is answered UNKNOWN_MEMBER_ID (their new owners already run them; under EOS its commit would be fenced)."),
            );
            self.schedule(self.now + self.rtt, Ev::ZombieEnds { lane, inc });
            return;
        }
        self.resume_tasks(lane);
        self.maybe_rejoin_when_free(lane, inc);
    }

    fn on_zombie_ends(&mut self, lane: u32, inc: u32) {
        // Already found out on its own (a poll after a blocked handler)?
        if !self.proc_of(lane, inc).is_some_and(|p| p.out_of_group) {
            return;
        }
        self.lose_tasks(lane, inc);
    }

    /// `onPartitionsLost`: the member fell out of the group; its actives are
    /// closed dirty and it rejoins as a new member (spec §2.2).
    fn lose_tasks(&mut self, lane: u32, inc: u32) {
        let name = self.name(lane);
        let eos = self.lanes[lane as usize].config.processing_guarantee
            == ProcessingGuarantee::ExactlyOnceV2;
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        let active: Vec<u32> = std::mem::take(&mut p.active).into_keys().collect();
        p.out_of_group = false;
        p.member = None;
        p.phase = Phase::Starting;
        for &t in &active {
            self.timeline.remove_copy(t, lane, &mut self.pool);
            self.settle_local(lane, t);
            if eos {
                self.lanes[lane as usize].local.remove(&t);
            }
        }
        self.note(
            Some(lane),
            "partitions_lost",
            format!("{name} learns it is no longer a member: onPartitionsLost closes its {} tasks dirty and it rejoins.", active.len()),
        );
        self.send_join(lane, inc);
    }

    fn block(&mut self, lane: u32, duration: u64) {
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        if p.blocked_until.is_some() {
            return;
        }
        p.blocked_until = Some(self.now + duration);
        let inc = p.inc;
        let active: Vec<u32> = p.active.keys().copied().collect();
        self.timeline
            .split_off(lane, &active, ItemState::Frozen, &mut self.pool);
        let max_poll = self.lanes[lane as usize].config.max_poll_interval_ms;
        let name = self.name(lane);
        self.note(
            Some(lane),
            "blocked",
            format!("{name}'s stream thread blocks in a record handler for {}: no poll(), no processing; its heartbeat thread keeps the session alive (max.poll.interval.ms is {}).", format_duration(duration), format_duration(max_poll)),
        );
        if duration > max_poll {
            self.schedule(self.now + max_poll, Ev::PollTimeout { lane, inc });
        }
        self.schedule(self.now + duration, Ev::Unblock { lane, inc });
    }

    fn on_poll_timeout(&mut self, lane: u32, inc: u32) {
        // The heartbeat thread is frozen with the rest of the JVM.
        if let Some(until) = self.proc_of(lane, inc).and_then(|p| p.frozen_until) {
            self.schedule(until, Ev::PollTimeout { lane, inc });
            return;
        }
        let statics = self.lanes[lane as usize].config.group_instance_id.is_some();
        let max_poll = self.lanes[lane as usize].config.max_poll_interval_ms;
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        let Some(key) = p.member else {
            return;
        };
        p.out_of_group = true;
        let name = self.name(lane);
        if statics {
            self.note(
                Some(lane),
                "poll_timeout",
                format!("{name} has not polled for max.poll.interval.ms ({}): a static member sends no LeaveGroup, it stops heartbeating and its session runs out.", format_duration(max_poll)),
            );
            self.go_silent(key);
        } else {
            self.note(
                Some(lane),
                "poll_timeout",
                format!("{name} has not polled for max.poll.interval.ms ({}): its heartbeat thread sends LeaveGroup, a rebalance starts at once (spec §1.2).", format_duration(max_poll)),
            );
            self.set_cause(format!("{name} exceeded max.poll.interval.ms"));
            let change = self.group.remove(&key, RemovalReason::LeaveGroup, self.now);
            self.apply_change(change);
        }
    }

    fn on_unblock(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if let Some(until) = p.frozen_until {
            // A frozen JVM's handler returns when it resumes.
            self.schedule(until, Ev::Unblock { lane, inc });
            return;
        }
        p.blocked_until = None;
        let out = p.out_of_group;
        if out {
            self.lose_tasks(lane, inc);
            return;
        }
        self.resume_tasks(lane);
        self.maybe_rejoin_when_free(lane, inc);
    }

    /// Frozen or blocked actives go back to the state they were in.
    fn resume_tasks(&mut self, lane: u32) {
        let Some(p) = self.lanes[lane as usize].proc.as_ref() else {
            return;
        };
        if p.is_busy() {
            // Still frozen or blocked for the other reason.
            return;
        }
        let mut by_state: BTreeMap<ItemState, Vec<u32>> = BTreeMap::new();
        for (&t, &(phase, _)) in &p.active {
            let state = match phase {
                TaskPhase::Initializing => ItemState::Starting,
                TaskPhase::Restoring => ItemState::Restoring,
                TaskPhase::Running => ItemState::Running,
                TaskPhase::Revoking => ItemState::Stopping,
            };
            by_state.entry(state).or_default().push(t);
        }
        for (state, tasks) in by_state {
            self.timeline.split_off(lane, &tasks, state, &mut self.pool);
        }
    }

    fn maybe_rejoin_when_free(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if p.rejoin_when_free {
            p.rejoin_when_free = false;
            self.begin_rejoin(lane, inc);
        }
    }

    fn busy(&self, lane: u32, inc: u32) -> bool {
        self.proc_of(lane, inc).is_some_and(Process::is_busy)
    }

    // --- the group protocol --------------------------------------------------

    fn subscription(&mut self, lane: u32) -> Subscription {
        self.unique += 1;
        let l = &self.lanes[lane as usize];
        let cooperative = l.config.cooperative(l.version);
        let p = l.proc.as_ref();
        let owned: Vec<u32> = if cooperative {
            p.map(|p| p.active.keys().copied().collect())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let cleanup = l.config.state_cleanup_delay_ms;
        let now = self.now;
        let rate = u64::from(self.timings.restore_records_per_sec);
        let offset_sums: Vec<(u32, i64)> = l
            .local
            .iter()
            .filter(|(_, s)| !s.cleaned(cleanup, l.started_ms, now))
            .map(|(&t, &s)| {
                let running = matches!(s, LocalState::Current)
                    && p.is_some_and(|p| {
                        p.active.get(&t).is_some_and(|a| a.0 == TaskPhase::Running)
                    });
                let sum = if running {
                    LATEST_OFFSET
                } else {
                    s.offset(self.logs[t as usize], rate, now) as i64
                };
                (t, sum)
            })
            .collect();
        let latest = latest_metadata_version(l.version);
        let used = l.used_metadata.unwrap_or(latest).min(latest);
        // Before v7 a subscription carried task sets, which the leader maps to
        // LATEST_OFFSET (previous actives) and UNKNOWN_OFFSET_SUM (spec §3.2).
        let offset_sums = if used < 7 {
            offset_sums
                .into_iter()
                .map(|(t, _sum): (u32, i64)| {
                    let active = p.is_some_and(|p| p.active.contains_key(&t));
                    (
                        t,
                        if active {
                            LATEST_OFFSET
                        } else {
                            UNKNOWN_OFFSET_SUM
                        },
                    )
                })
                .collect()
        } else {
            offset_sums
        };
        Subscription {
            process_id: l.process_id,
            capacity: l.config.num_stream_threads,
            cooperative,
            version: l.version,
            used_metadata: used,
            latest_metadata: latest,
            owned,
            offset_sums,
            unique: self.unique,
        }
    }

    fn send_join(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if p.phase == Phase::Stopping {
            return;
        }
        p.phase = Phase::Joining;
        let rtt = self.rtt;
        self.schedule(self.now + rtt, Ev::JoinArrives { lane, inc });
    }

    fn on_join_arrives(&mut self, lane: u32, inc: u32) {
        if self
            .proc_of(lane, inc)
            .is_none_or(|p| p.phase != Phase::Joining)
        {
            return;
        }
        let key = self.key_for(lane, inc);
        let statics = key.1 == 0;
        let known = self.proc_of(lane, inc).and_then(|p| p.member) == Some(key);
        let metadata = self.subscription(lane);
        let timeout = self.lanes[lane as usize].config.max_poll_interval_ms;
        let name = self.name(lane);
        // Only a new process (unknown member id) takes the static replacement
        // path; a known static member rejoins like any other (spec §1.4).
        let response = if statics && !known {
            self.group.rejoin_static(key, metadata, timeout, self.now)
        } else {
            self.group.join(key, !known, metadata, timeout, self.now)
        };
        if !self.member_index.contains_key(&key) || (statics && !known) {
            self.member_index.insert(key, self.members.len() as u32);
            self.members.push(MemberInfo {
                worker: lane,
                member_id: match &self.lanes[lane as usize].config.group_instance_id {
                    Some(prefix) => format!("{prefix}-{}", lane + 1),
                    None => format!("{name}-consumer-{}", key.1),
                },
                joined_ms: self.now,
            });
        }
        self.silent.remove(&key);
        let frozen = self
            .proc_of(lane, inc)
            .is_some_and(|p| p.frozen_until.is_some());
        if let Some(p) = self.proc_mut(lane, inc) {
            p.member = Some(key);
        }
        if frozen {
            // Accepted while its process is frozen: no heartbeats follow.
            self.go_silent(key);
        }
        match response {
            JoinResponse::UnknownMember => {
                // Removed meanwhile: rejoin as a new member.
                if let Some(p) = self.proc_mut(lane, inc) {
                    p.member = None;
                }
                self.lose_tasks(lane, inc);
            }
            JoinResponse::CurrentGeneration { generation } => {
                if statics {
                    self.note(
                        Some(lane),
                        "static_rejoin",
                        format!("{name} rejoins with its group.instance.id within session.timeout.ms: the coordinator swaps in the new member id and returns its stored assignment, no rebalance (KIP-345, spec §1.4)."),
                    );
                }
                let at = self.now + self.rtt;
                self.schedule(
                    at,
                    Ev::Assignment {
                        lane,
                        inc,
                        generation,
                    },
                );
            }
            JoinResponse::Accepted(change) => {
                if change.started.is_some() && self.cause.is_empty() {
                    let cause = match change.started.as_ref().map(|s| &s.trigger) {
                        Some(RebalanceTrigger::FirstMember(_)) => {
                            "the first instance joined".into()
                        }
                        Some(RebalanceTrigger::NewMember(_)) => {
                            format!("{name} joined as a new member")
                        }
                        Some(RebalanceTrigger::LeaderRejoined(_)) => {
                            format!("the leader {name} rejoined")
                        }
                        Some(RebalanceTrigger::MetadataChanged(_)) => format!("{name} rejoined"),
                        Some(RebalanceTrigger::RejoinDuringSync(_)) => {
                            format!("{name} rejoined during SyncGroup")
                        }
                        _ => self.cause.clone(),
                    };
                    self.cause = cause;
                }
                self.apply_change(change);
            }
        }
    }

    fn apply_change(&mut self, change: GroupChange<MemberKey, Subscription>) {
        if let Some(started) = &change.started {
            if started.aborted_generation.is_some() {
                self.pending = None;
            }
            let trigger_key = *started.trigger.member();
            let keys: Vec<MemberKey> = self.group.members().map(|(k, _)| *k).collect();
            for key in keys {
                if key == trigger_key {
                    continue;
                }
                let (lane, _) = key;
                let Some(p) = self.lanes[lane as usize].proc.as_ref() else {
                    continue;
                };
                if p.member != Some(key) {
                    continue;
                }
                let inc = p.inc;
                let delay = if started.aborted_generation.is_some() && p.phase == Phase::Joining {
                    // Its SyncGroup is answered REBALANCE_IN_PROGRESS: rejoin now.
                    self.rtt
                } else {
                    self.heartbeat_delay(lane)
                };
                if started.aborted_generation.is_some() && p.phase == Phase::Joining {
                    self.schedule(self.now + delay, Ev::SendJoin { lane, inc });
                } else {
                    self.schedule(self.now + delay, Ev::Notice { lane, inc });
                }
            }
        }
        if let Some(d) = change.deadline {
            self.schedule(d.at_ms, Ev::JoinDeadline { timer: d.timer });
        }
        if let Some(done) = change.completed {
            self.compute_assignment(done);
        }
    }

    fn on_notice(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_of(lane, inc) else {
            return;
        };
        let Some(key) = p.member else {
            return;
        };
        if p.phase != Phase::Stable || self.group.state() != GroupState::PreparingRebalance {
            return;
        }
        if self.group.has_joined(&key) {
            return;
        }
        if p.frozen_until.is_some() {
            if let Some(p) = self.proc_mut(lane, inc) {
                p.rejoin_when_free = true;
            }
            return;
        }
        if p.blocked_until.is_some() {
            // The heartbeat thread hears REBALANCE_IN_PROGRESS, but only poll()
            // rejoins: the join phase waits for the blocked thread.
            if let Some(p) = self.proc_mut(lane, inc) {
                p.rejoin_when_free = true;
            }
            return;
        }
        self.begin_rejoin(lane, inc);
    }

    /// `onJoinPrepare` then JoinGroup: EAGER revokes every active first.
    fn begin_rejoin(&mut self, lane: u32, inc: u32) {
        if self.busy(lane, inc) {
            if let Some(p) = self.proc_mut(lane, inc) {
                p.rejoin_when_free = true;
            }
            return;
        }
        let cooperative = self.cooperative(lane);
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if matches!(p.phase, Phase::Joining | Phase::Revoking | Phase::Stopping) {
            return;
        }
        if p.revoking > 0 {
            p.rejoin_after_revoke = true;
            return;
        }
        if cooperative || p.active.is_empty() {
            self.send_join(lane, inc);
            return;
        }
        p.phase = Phase::Revoking;
        let tasks: Vec<u32> = p.active.keys().copied().collect();
        self.revoke(lane, inc, tasks);
    }

    fn revoke(&mut self, lane: u32, inc: u32, tasks: Vec<u32>) {
        let token = self.next_token();
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        for t in &tasks {
            if let Some(a) = p.active.get_mut(t) {
                *a = (TaskPhase::Revoking, token);
            }
        }
        p.revoking += 1;
        self.timeline
            .split_off(lane, &tasks, ItemState::Stopping, &mut self.pool);
        let at = self.now + u64::from(self.timings.task_commit_ms);
        self.schedule(
            at,
            Ev::Revoked {
                lane,
                inc,
                tasks,
                token,
            },
        );
    }

    fn on_revoked(&mut self, lane: u32, inc: u32, tasks: Vec<u32>, token: u64) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        p.revoking = p.revoking.saturating_sub(1);
        let mut done = Vec::new();
        for t in tasks {
            if p.active.get(&t).is_some_and(|a| a.1 == token) {
                p.active.remove(&t);
                done.push(t);
            }
        }
        let phase = p.phase;
        let recycle: Vec<u32> = done
            .iter()
            .copied()
            .filter(|t| p.standby.contains_key(t))
            .collect();
        for &t in &done {
            self.timeline.remove_copy(t, lane, &mut self.pool);
            self.settle_local(lane, t);
        }
        // A revoked task assigned as standby is recycled, not closed (spec §3.4).
        for t in recycle {
            let warm = self.lanes[lane as usize]
                .proc
                .as_ref()
                .and_then(|p| p.standby.get(&t).copied())
                .unwrap_or(false);
            self.start_standby_copy(lane, t, warm);
        }
        if phase == Phase::Revoking {
            self.send_join(lane, inc);
        } else if let Some(p) = self.proc_mut(lane, inc) {
            if p.revoking == 0 && p.rejoin_after_revoke {
                p.rejoin_after_revoke = false;
                self.begin_rejoin(lane, inc);
            }
        }
    }

    // --- the leader ------------------------------------------------------------

    fn compute_assignment(
        &mut self,
        done: crate::sim::group::CompletedJoin<MemberKey, Subscription>,
    ) {
        let now = self.now;
        for k in &done.dropped {
            let name = self.name(k.0);
            self.note(
                Some(k.0),
                "member_dropped",
                format!("{name}'s member did not rejoin within the rebalance timeout (max.poll.interval.ms) and is removed."),
            );
            // A live process still believes it is a member: it keeps processing
            // as a zombie until its next heartbeat is answered UNKNOWN_MEMBER_ID
            // (a frozen or blocked one finds out when it is free again).
            let Some(p) = self.lanes[k.0 as usize].proc.as_mut() else {
                continue;
            };
            if p.member != Some(*k) {
                continue;
            }
            p.out_of_group = true;
            let (inc, busy) = (p.inc, p.is_busy());
            if !busy {
                let active: Vec<u32> = p.active.keys().copied().collect();
                self.timeline
                    .split_off(k.0, &active, ItemState::Zombie, &mut self.pool);
                let delay = self.heartbeat_delay(k.0);
                self.schedule(now + delay, Ev::ZombieEnds { lane: k.0, inc });
            }
        }
        let leader_lane = done.leader.0;
        let leader_cfg = self.lanes[leader_lane as usize].config.clone();
        let leader_version = done
            .members
            .iter()
            .find(|(k, _)| *k == done.leader)
            .map_or(self.lanes[leader_lane as usize].version, |(_, m)| m.version);
        // Clients by ProcessId (a client's consumers share it).
        let mut by_process: BTreeMap<ProcessId, (ClientSubscription, Vec<MemberKey>)> =
            BTreeMap::new();
        for (key, sub) in &done.members {
            let entry = by_process.entry(sub.process_id).or_insert_with(|| {
                (
                    ClientSubscription {
                        process_id: sub.process_id,
                        capacity: 0,
                        owned: BTreeSet::new(),
                        offset_sums: BTreeMap::new(),
                    },
                    Vec::new(),
                )
            });
            entry.0.capacity += sub.capacity;
            entry
                .0
                .owned
                .extend(sub.owned.iter().map(|&t| self.task_ids[t as usize]));
            for &(t, s) in &sub.offset_sums {
                if self.stateful[t as usize] {
                    entry.0.offset_sums.insert(self.task_ids[t as usize], s);
                }
            }
            entry.1.push(*key);
        }
        // Split (in ProcessId order) rather than clone every subscription.
        let (subs, member_keys): (Vec<ClientSubscription>, Vec<Vec<MemberKey>>) =
            by_process.into_values().unzip();
        let end_offsets: BTreeMap<StreamsTaskId, i64> = self
            .stateful_tasks
            .iter()
            .map(|&t| {
                let idx = self.task_index(t);
                (t, self.logs[idx as usize].end(now) as i64)
            })
            .collect();
        let assignor = match leader_cfg.task_assignor {
            TaskAssignorClass::HighAvailabilityTaskAssignor if !leader_version.before(2, 6) => {
                AssignorKind::HighAvailability
            }
            _ => AssignorKind::Sticky,
        };
        let ctx = LeaderContext {
            all_tasks: &self.all_tasks,
            stateful_tasks: &self.stateful_tasks,
            end_offsets: &end_offsets,
            configs: AssignmentConfigs {
                acceptable_recovery_lag: i64::try_from(leader_cfg.acceptable_recovery_lag)
                    .unwrap_or(i64::MAX),
                max_warmup_replicas: leader_cfg.max_warmup_replicas,
                num_standby_replicas: leader_cfg.num_standby_replicas,
                probing_rebalance_interval_ms: leader_cfg.probing_rebalance_interval_ms,
            },
            assignor,
            cooperative_filter: !leader_version.before(2, 4),
            leader: self.lanes[leader_lane as usize].process_id,
        };
        let result = match partition_assignor::assign(&subs, &ctx) {
            Ok(r) => r,
            Err(e) => {
                self.note(
                    Some(leader_lane),
                    "assignment_error",
                    format!("The leader cannot assign: {e}."),
                );
                return;
            }
        };
        // Version probing (spec §3.6): the leader encodes at the lowest used
        // version with the commonly supported one; a member that sent more
        // downgrades and rejoins at once, and once every member supports
        // more, the others upgrade and rejoin at once.
        let common = done
            .members
            .iter()
            .map(|(_, m)| m.latest_metadata)
            .min()
            .unwrap_or(0);
        // Everyone converges on the highest version all members support.
        let probing_versions: Vec<(MemberKey, u32, u32)> = done
            .members
            .iter()
            .filter(|(_, m)| m.used_metadata != common)
            .map(|(k, m)| (*k, m.used_metadata, common))
            .collect();
        let mut assignments: BTreeMap<MemberKey, Assigned> = BTreeMap::new();
        let mut round_members = Vec::new();
        let (mut moved, mut held, mut warm, mut standby) = (0usize, 0usize, 0usize, 0usize);
        for ((client, keys), res) in subs.iter().zip(&member_keys).zip(&result.clients) {
            let idx = |s: &BTreeSet<StreamsTaskId>| -> BTreeSet<u32> {
                s.iter().map(|&t| self.task_index(t)).collect()
            };
            let active = idx(&res.active);
            let owned = idx(&client.owned);
            moved += active.difference(&owned).count();
            held += res.held_back.len();
            warm += res.warmup.len();
            standby += res.standby.len();
            let assigned = Assigned {
                active: active.clone(),
                standby: idx(&res.standby),
                warmup: idx(&res.warmup),
                immediate: res.immediate_rebalance,
                probing_at: res
                    .probing_rebalance
                    .then_some(now + leader_cfg.probing_rebalance_interval_ms),
                metadata_version: None,
            };
            for (n, key) in keys.iter().enumerate() {
                // The whole client's assignment goes to its first consumer here
                // (one member per instance).
                let mut a = if n == 0 {
                    assigned.clone()
                } else {
                    Assigned::default()
                };
                if let Some(&(_, _, to)) = probing_versions.iter().find(|p| p.0 == *key) {
                    a.metadata_version = Some(to);
                    a.immediate = true;
                    a.probing_at = None;
                }
                let revoked: Vec<u32> = owned.difference(&a.active).copied().collect();
                let added: Vec<u32> = a.active.difference(&owned).copied().collect();
                let member = self.member_index.get(key).copied().unwrap_or(0);
                let owned_list = self.pool.push(&owned.iter().copied().collect::<Vec<_>>());
                let assigned_list = self.pool.push(&added);
                let revoked_list = self.pool.push(&revoked);
                round_members.push(RoundMember {
                    worker: key.0,
                    member,
                    owned: owned_list,
                    assigned: assigned_list,
                    revoked: revoked_list,
                });
                assignments.insert(*key, a);
            }
        }
        let protocols: BTreeSet<bool> = done.members.iter().map(|(_, m)| m.cooperative).collect();
        let protocol = match (protocols.contains(&false), protocols.contains(&true)) {
            (true, true) => "mixed",
            (false, true) => "cooperative",
            _ => "eager",
        };
        let leader_name = self.name(leader_lane);
        let assignor_name = match assignor {
            AssignorKind::HighAvailability => "HighAvailabilityTaskAssignor",
            AssignorKind::Sticky => "StickyTaskAssignor",
        };
        let mut explanation = format!(
            "{}: {assignor_name} on leader {leader_name} ({} clients): {moved} actives newly placed",
            if self.cause.is_empty() { "rebalance".to_string() } else { self.cause.clone() },
            subs.len()
        );
        if held > 0 {
            explanation.push_str(&format!(
                ", {held} held back until their owners revoke them (follow-up round)"
            ));
        }
        if warm > 0 {
            explanation.push_str(&format!(", {warm} warmup replicas"));
        }
        if standby > 0 {
            explanation.push_str(&format!(", {standby} standbys"));
        }
        if result.probing_rebalance_needed {
            explanation.push_str(&format!(
                "; probing rebalance in {}",
                format_duration(leader_cfg.probing_rebalance_interval_ms)
            ));
        }
        for &(key, from, to) in &probing_versions {
            let name = self.name(key.0);
            let what = if to < from { "downgrades" } else { "upgrades" };
            self.note(
                Some(key.0),
                "version_probing",
                format!("Version probing: {name} sent subscription v{from}; the group's common version is v{to}, so it {what} and rejoins at once (spec §3.6)."),
            );
        }
        if !probing_versions.is_empty() {
            explanation.push_str(&format!(
                "; version probing: {} members rejoin with another metadata version",
                probing_versions.len()
            ));
        }
        if !result.doubly_owned.is_empty() {
            let tasks: BTreeSet<u32> = result
                .doubly_owned
                .iter()
                .map(|&t| self.task_index(t))
                .collect();
            let labels = self.labels(&tasks);
            self.note(
                Some(leader_lane),
                "double_ownership",
                format!("Leader {leader_name} runs Streams {leader_version}, which has no cooperative filter: it gives {labels} to a new owner while a cooperative member still owns them. Both own them until the old owner revokes on its SyncGroup response; this is why an upgrade from 2.3 or older needs upgrade.from and two bounces (spec §3.6)."),
            );
            explanation.push_str(&format!(
                "; {} tasks doubly owned (no cooperative filter on a {leader_version} leader)",
                tasks.len()
            ));
        }
        explanation.push('.');
        self.cause.clear();
        let round = RebalanceRound {
            generation: done.generation,
            started_ms: done.started_ms,
            joined_ms: now,
            completed_ms: now + 2 * self.rtt,
            delivered: false,
            protocol: protocol.to_string(),
            leader: leader_lane,
            members: round_members,
            delay_ms: 0,
            explanation,
        };
        self.pending = Some(PendingRound { round, assignments });
        let at = now + 2 * self.rtt;
        self.schedule(
            at,
            Ev::SyncDone {
                generation: done.generation,
            },
        );
    }

    fn task_index(&self, t: StreamsTaskId) -> u32 {
        self.task_ids.binary_search(&t).unwrap_or(0) as u32
    }

    fn on_sync(&mut self, generation: i32) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        if pending.round.generation != generation {
            self.pending = Some(pending);
            return;
        }
        let mut round = pending.round;
        if self.group.sync(generation).is_err() {
            round.completed_ms = self.now;
            self.rounds.push(round);
            return;
        }
        round.delivered = true;
        round.completed_ms = self.now;
        self.rounds.push(round);
        for (key, a) in pending.assignments {
            self.last_assignment.insert(key, a);
            let (lane, _) = key;
            let Some(p) = self.lanes[lane as usize].proc.as_ref() else {
                continue;
            };
            if p.member != Some(key) {
                continue;
            }
            let inc = p.inc;
            self.schedule(
                self.now + self.rtt,
                Ev::Assignment {
                    lane,
                    inc,
                    generation,
                },
            );
        }
    }

    // --- the member ------------------------------------------------------------

    fn on_assignment(&mut self, lane: u32, inc: u32, generation: i32) {
        let Some(p) = self.proc_of(lane, inc) else {
            return;
        };
        let Some(key) = p.member else {
            return;
        };
        if p.phase != Phase::Joining || p.out_of_group {
            return;
        }
        if let Some(until) = p.free_at() {
            // The JoinGroup/SyncGroup answer is handled on the next poll.
            self.schedule(
                until,
                Ev::Assignment {
                    lane,
                    inc,
                    generation,
                },
            );
            return;
        }
        if generation != self.group.generation() {
            // The group moved on meanwhile (SyncGroup answers
            // REBALANCE_IN_PROGRESS or ILLEGAL_GENERATION): rejoin.
            self.send_join(lane, inc);
            return;
        }
        let a = self.last_assignment.get(&key).cloned().unwrap_or_default();
        let cooperative = self.cooperative(lane);
        let p = self.proc_mut(lane, inc).expect("checked above");
        p.phase = Phase::Stable;
        p.generation = generation;
        let current: BTreeSet<u32> = p.active.keys().copied().collect();
        let revoked: Vec<u32> = current.difference(&a.active).copied().collect();
        let added: Vec<u32> = a.active.difference(&current).copied().collect();
        let mut standby_now: BTreeMap<u32, bool> = BTreeMap::new();
        for &t in &a.standby {
            standby_now.insert(t, false);
        }
        for &t in &a.warmup {
            standby_now.insert(t, true);
        }
        let old_standby = std::mem::replace(&mut p.standby, standby_now.clone());
        // Standbys no longer assigned are closed (their directory stays).
        for (&t, _) in old_standby.iter() {
            if !standby_now.contains_key(&t) || a.active.contains(&t) {
                self.timeline.remove_copy(t, lane, &mut self.pool);
                self.settle_local(lane, t);
            }
        }
        // New standbys and warmups start following their changelog.
        for (&t, &warm) in &standby_now {
            if a.active.contains(&t) || revoked.contains(&t) {
                continue;
            }
            match old_standby.get(&t) {
                Some(&was) if was == warm => {}
                Some(_) => {
                    let state = if warm {
                        ItemState::Warmup
                    } else {
                        ItemState::Standby
                    };
                    self.timeline.split_off(lane, &[t], state, &mut self.pool);
                }
                None => self.start_standby_copy(lane, t, warm),
            }
        }
        let rejoin = a.immediate;
        if let Some(v) = a.metadata_version {
            self.lanes[lane as usize].used_metadata = Some(v);
        }
        if !revoked.is_empty() && cooperative {
            let name = self.name(lane);
            let labels = self.labels(&revoked.iter().copied().collect());
            self.note(
                Some(lane),
                "revoke",
                format!("{name} revokes {labels} (commit, suspend) and then rejoins for the follow-up round (requestRejoin, spec §2.4)."),
            );
            if let Some(p) = self.proc_mut(lane, inc) {
                p.rejoin_after_revoke = true;
            }
            self.revoke(lane, inc, revoked);
        }
        // An EAGER member told to rejoin at once (version probing) revokes
        // everything again in onJoinPrepare before its next poll: the tasks
        // it was just given never initialise.
        if !rejoin || cooperative {
            self.start_actives(lane, inc, added);
        }
        if let Some(at) = a.probing_at {
            self.schedule(
                at,
                Ev::Probe {
                    lane,
                    inc,
                    generation,
                },
            );
        }
        // A rebalance that started since this answer was produced (or while
        // it waited for a frozen or blocked thread) needs this member too.
        let missed =
            self.group.state() == GroupState::PreparingRebalance && !self.group.has_joined(&key);
        if rejoin || missed {
            self.begin_rejoin(lane, inc);
        }
    }

    fn start_standby_copy(&mut self, lane: u32, t: u32, warm: bool) {
        let state = if warm {
            ItemState::Warmup
        } else {
            ItemState::Standby
        };
        self.timeline
            .place(lane, state, vec![t], None, &mut self.pool);
        let now = self.now;
        let rate = u64::from(self.timings.restore_records_per_sec);
        let log = self.logs[t as usize];
        let l = &mut self.lanes[lane as usize];
        let (cleanup, started) = (l.config.state_cleanup_delay_ms, l.started_ms);
        let from = match l.local.get(&t) {
            Some(s) if !s.cleaned(cleanup, started, now) => s.offset(log, rate, now),
            _ => 0,
        };
        l.local.insert(
            t,
            LocalState::Catching {
                from,
                since: now,
                target: None,
            },
        );
    }

    /// Folds a local state into a checkpoint when its copy stops, counting
    /// the records it restored.
    fn settle_local(&mut self, lane: u32, t: u32) {
        if !self.stateful[t as usize] {
            return;
        }
        let now = self.now;
        let rate = u64::from(self.timings.restore_records_per_sec);
        let log = self.logs[t as usize];
        let l = &mut self.lanes[lane as usize];
        if let Some(s) = l.local.get(&t).copied() {
            let offset = s.offset(log, rate, now);
            if let LocalState::Catching { from, .. } = s {
                self.records_restored += offset.saturating_sub(from);
            }
            l.local.insert(t, LocalState::Idle { offset, since: now });
        }
    }

    fn start_actives(&mut self, lane: u32, inc: u32, tasks: Vec<u32>) {
        if tasks.is_empty() {
            return;
        }
        let token = self.next_token();
        for &t in &tasks {
            // A standby copy is recycled into the active (spec §3.4).
            if self
                .proc_of(lane, inc)
                .is_some_and(|p| p.standby.contains_key(&t))
            {
                if let Some(p) = self.proc_mut(lane, inc) {
                    p.standby.remove(&t);
                }
            }
            if self.timeline.state_on(t, lane).is_some() {
                self.timeline.remove_copy(t, lane, &mut self.pool);
                self.settle_local(lane, t);
            }
        }
        if let Some(p) = self.proc_mut(lane, inc) {
            for &t in &tasks {
                p.active.insert(t, (TaskPhase::Initializing, token));
            }
        }
        self.timeline.place(
            lane,
            ItemState::Starting,
            tasks.clone(),
            None,
            &mut self.pool,
        );
        let at = self.now + u64::from(self.timings.task_init_ms);
        self.schedule(
            at,
            Ev::Initialized {
                lane,
                inc,
                tasks,
                token,
            },
        );
    }

    fn on_initialized(&mut self, lane: u32, inc: u32, tasks: Vec<u32>, token: u64) {
        if let Some(until) = self.proc_of(lane, inc).and_then(Process::free_at) {
            // Frozen or blocked: initialisation finishes when it is free again.
            self.schedule(
                until,
                Ev::Initialized {
                    lane,
                    inc,
                    tasks,
                    token,
                },
            );
            return;
        }
        if self.proc_of(lane, inc).is_some_and(|p| p.out_of_group) {
            // Removed from the group: these tasks are about to be lost.
            return;
        }
        let now = self.now;
        let rate = u64::from(self.timings.restore_records_per_sec);
        let (cleanup, started) = (
            self.lanes[lane as usize].config.state_cleanup_delay_ms,
            self.lanes[lane as usize].started_ms,
        );
        let mut running = Vec::new();
        let mut restoring = Vec::new();
        for t in tasks {
            let Some(p) = self.proc_of(lane, inc) else {
                return;
            };
            if p.active.get(&t) != Some(&(TaskPhase::Initializing, token)) {
                continue;
            }
            if !self.stateful[t as usize] {
                running.push(t);
                continue;
            }
            let log = self.logs[t as usize];
            let end = log.end(now);
            let from = match self.lanes[lane as usize].local.get(&t) {
                Some(s) if !s.cleaned(cleanup, started, now) => s.offset(log, rate, now),
                _ => 0,
            };
            let lag = end.saturating_sub(from);
            if lag == 0 {
                running.push(t);
                self.lanes[lane as usize]
                    .local
                    .insert(t, LocalState::Current);
            } else {
                // Restore up to the end offset at registration, then process.
                self.lanes[lane as usize].local.insert(
                    t,
                    LocalState::Catching {
                        from,
                        since: now,
                        target: Some(end),
                    },
                );
                restoring.push((t, lag));
            }
        }
        let p = self.proc_mut(lane, inc).expect("checked above");
        for &t in &running {
            p.active.insert(t, (TaskPhase::Running, token));
        }
        for &(t, _) in &restoring {
            p.active.insert(t, (TaskPhase::Restoring, token));
        }
        if !running.is_empty() {
            self.timeline
                .split_off(lane, &running, ItemState::Running, &mut self.pool);
        }
        if !restoring.is_empty() {
            let ids: Vec<u32> = restoring.iter().map(|r| r.0).collect();
            self.timeline
                .split_off(lane, &ids, ItemState::Restoring, &mut self.pool);
            for (t, lag) in restoring {
                let at = now + restore_ms(lag, rate);
                self.schedule(
                    at,
                    Ev::Restored {
                        lane,
                        inc,
                        task: t,
                        token,
                    },
                );
            }
        }
    }

    fn on_restored(&mut self, lane: u32, inc: u32, task: u32, token: u64) {
        if let Some(until) = self.proc_of(lane, inc).and_then(Process::free_at) {
            self.schedule(
                until,
                Ev::Restored {
                    lane,
                    inc,
                    task,
                    token,
                },
            );
            return;
        }
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if p.active.get(&task) != Some(&(TaskPhase::Restoring, token)) || p.out_of_group {
            return;
        }
        p.active.insert(task, (TaskPhase::Running, token));
        let now = self.now;
        let rate = u64::from(self.timings.restore_records_per_sec);
        let log = self.logs[task as usize];
        if let Some(LocalState::Catching { from, .. }) =
            self.lanes[lane as usize].local.get(&task).copied()
        {
            let offset = self.lanes[lane as usize].local[&task].offset(log, rate, now);
            self.records_restored += offset.saturating_sub(from);
        }
        self.lanes[lane as usize]
            .local
            .insert(task, LocalState::Current);
        self.timeline
            .split_off(lane, &[task], ItemState::Running, &mut self.pool);
    }

    fn on_probe(&mut self, lane: u32, inc: u32, generation: i32) {
        let Some(p) = self.proc_of(lane, inc) else {
            return;
        };
        if p.generation != generation
            || p.phase != Phase::Stable
            || self.group.generation() != generation
            || self.group.state() != GroupState::Stable
        {
            return;
        }
        let name = self.name(lane);
        let interval = self.lanes[lane as usize]
            .config
            .probing_rebalance_interval_ms;
        self.note(
            Some(lane),
            "probing_rebalance",
            format!("{name} (the leader's client) triggers the probing rebalance, probing.rebalance.interval.ms ({}) after the assignment that asked for it: warmups within acceptable.recovery.lag are promoted (spec §0.6).", format_duration(interval)),
        );
        self.set_cause("probing rebalance".to_string());
        self.begin_rejoin(lane, inc);
    }
}
