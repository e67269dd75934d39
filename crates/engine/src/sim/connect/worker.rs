//! One Connect worker process: its group membership as it believes it, its
//! assignment snapshot (what it reports in JoinGroup, rebuilt by
//! `WorkerCoordinator.onJoinComplete`), its own `connect.protocol` and its
//! herder thread's state (`DistributedHerder`).

use std::collections::VecDeque;

use crate::connect::assignment::{MemberDelta, MemberHoldings};
use crate::connect::ids::ConnectorNames;
use crate::connect::incremental_cooperative_assignor::IncrementalCooperativeAssignor;
use crate::connect::protocol::ConnectProtocol;
use crate::connect::versions::connect_release;
use crate::connect::wire_order::wire_order;
use crate::scenario::ResolvedConnectConfig;
use crate::trace::{ItemList, ItemState};

use super::super::timeline::BatchId;

/// JoinGroup metadata as the broker compares it: the advertised protocols
/// (from `connect.protocol`), the config offset and the assignment snapshot
/// (by version; the holdings themselves are read from the worker).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ConnectMetadata {
    /// The worker's `connect.protocol`: it advertises this mode and every older one.
    pub(crate) mode: ConnectProtocol,
    /// The config-topic offset the worker has read.
    pub(crate) config_offset: u64,
    /// Version of the assignment snapshot.
    pub(crate) snapshot_version: u64,
}

/// Why a worker sends JoinGroup; quoted in round explanations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RejoinReason {
    /// A fresh process joins.
    Startup,
    /// It revoked work in the last round and rejoins for the follow-up round.
    FollowUp {
        /// Connectors it stopped.
        connectors: usize,
        /// Tasks it stopped.
        tasks: usize,
    },
    /// The assignment's `delay` ran out (`WorkerCoordinator.onAssigned` armed it).
    DelayExpired,
    /// A heartbeat answered REBALANCE_IN_PROGRESS.
    RebalanceNotice,
    /// The broker no longer knew its member id.
    UnknownMember,
    /// Its SyncGroup failed because the group restarted the rebalance.
    SyncFailed,
    /// The config topic changed in a way that needs a rebalance.
    ConfigChanged(String),
}

/// What the herder does when a blocking stop completes.
#[derive(Clone, Debug)]
pub(crate) enum AfterStop {
    /// Eager `onJoinPrepare` finished: send JoinGroup.
    Join,
    /// A cooperative revocation (`onRevoked`) finished: finish applying the
    /// round (start new work, rejoin if anything was revoked, arm the delay).
    FinishRound {
        /// The assignment's delay.
        delay_ms: i32,
        /// What the member was told.
        delta: MemberDelta,
    },
    /// Local tasks of reconfigured connectors (or a deleted connector) were
    /// stopped: rejoin.
    Rejoin(RejoinReason),
    /// A connector whose config changed was stopped: start it again.
    RestartConnector(u32),
}

/// The herder thread's state.
#[derive(Clone, Debug)]
pub(crate) enum Phase {
    /// Running its tick loop (a stable member, or between rounds).
    Idle,
    /// A JoinGroup is on its way to the broker.
    Joining,
    /// The broker holds its JoinGroup until the join phase completes.
    AwaitingJoin,
    /// Waiting for SyncGroup of a generation.
    AwaitingSync(i32),
    /// Blocked stopping work until `until`.
    Busy {
        /// The stop batches.
        batches: Vec<(BatchId, u32)>,
        /// What comes next.
        then: AfterStop,
    },
    /// Shutting down gracefully (`halt`), then LeaveGroup.
    Halting,
}

/// A GC pause in progress.
#[derive(Clone, Debug)]
pub(crate) struct Freeze {
    /// When it started.
    pub(crate) since: u64,
    /// When it ends.
    pub(crate) until: u64,
    /// The batches frozen, with their token and state before the pause.
    pub(crate) prior: Vec<(BatchId, u32, ItemState)>,
}

/// One member's assignment from a delivered round.
#[derive(Clone, Debug)]
pub(crate) struct Delivery {
    /// The generation.
    pub(crate) generation: i32,
    /// The group protocol of the generation.
    pub(crate) protocol: ConnectProtocol,
    /// The leader's lane.
    pub(crate) leader_lane: u32,
    /// The delay every member got.
    pub(crate) delay_ms: i32,
    /// What this member is told.
    pub(crate) delta: MemberDelta,
    /// The pooled list of `delta`'s assigned items (connectors, then tasks).
    pub(crate) assigned_list: ItemList,
}

/// A worker process.
#[derive(Debug)]
pub(crate) struct ConnectWorker {
    /// Process incarnation on its lane (1 for the first process).
    pub(crate) incarnation: u32,
    /// Its configuration.
    pub(crate) config: ResolvedConnectConfig,
    /// Its current member id and index in the trace's member table.
    pub(crate) member: Option<(super::member::MemberKey, u32)>,
    /// The herder thread's state.
    pub(crate) phase: Phase,
    /// Token of the JoinGroup in flight (stale arrivals are ignored).
    pub(crate) join_token: u32,
    /// Token of the herder's blocking stop.
    pub(crate) busy_token: u32,
    /// Token of the pending heartbeat notice.
    pub(crate) notice_token: u32,
    /// Token of the scheduled-rebalance timer.
    pub(crate) timer_token: u32,
    /// The assignment snapshot (`assignmentSnapshot`), in the order the
    /// worker keeps it.
    pub(crate) snapshot: MemberHoldings,
    /// The snapshot as its JoinGroup metadata carries it (wire order, see
    /// `connect::wire_order`), for the snapshot version it was made from.
    pub(crate) reported: Option<(u64, MemberHoldings)>,
    /// Bumped whenever the snapshot changes.
    pub(crate) snapshot_version: u64,
    /// The snapshot's items as last written to the pool, by version.
    pub(crate) owned_list: Option<(u64, ItemList)>,
    /// Config-topic offset read.
    pub(crate) config_offset: u64,
    /// `lastCompletedGenerationId`.
    pub(crate) last_completed_generation: i32,
    /// The group protocol of its last completed generation
    /// (`currentConnectProtocol`; starts as its own mode, as in Kafka).
    pub(crate) current_protocol: ConnectProtocol,
    /// The assignor object of this process: the leader's history lives here.
    pub(crate) assignor: IncrementalCooperativeAssignor,
    /// `previousGenerationId` of its assignor: the generation of the last
    /// round this process computed as leader (-1: never).
    pub(crate) assignor_generation: i32,
    /// Start every snapshot item not running locally at the next round (after
    /// an eager→cooperative switch, a task reconfiguration or a zombie rejoin)
    /// instead of only the newly assigned ones.
    pub(crate) full_start: bool,
    /// The leader according to its last assignment.
    pub(crate) leader_lane: Option<u32>,
    /// Heartbeats are sent at `hb_anchor + k * heartbeat.interval.ms`.
    pub(crate) hb_anchor: u64,
    /// Last time the broker heard from it outside heartbeats.
    pub(crate) last_contact: u64,
    /// The GC pause in progress.
    pub(crate) frozen: Option<Freeze>,
    /// Removed from the group while it could not know (session expired during a pause).
    pub(crate) zombie: bool,
    /// Runs work it no longer tracks (after a cooperative→eager downgrade).
    pub(crate) orphans: bool,
    /// Session key it has read.
    pub(crate) session_key: Option<u32>,
    /// Why its next JoinGroup is sent.
    pub(crate) rejoin_reason: Option<RejoinReason>,
    /// A rejoin requested while the herder was busy.
    pub(crate) pending_rejoin: Option<RejoinReason>,
    /// Config records seen while it could not act on them, oldest first.
    pub(crate) pending_config: VecDeque<u64>,
    /// `scheduledRebalance`: when the assignment's delay runs out.
    pub(crate) scheduled_rebalance: Option<u64>,
    /// An assignment that arrived while frozen.
    pub(crate) held_delivery: Option<Delivery>,
}

impl ConnectWorker {
    /// A fresh process.
    pub(crate) fn new(incarnation: u32, config: ResolvedConnectConfig, now: u64) -> Self {
        let mode = config.connect_protocol;
        let max_delay = config.scheduled_rebalance_max_delay_ms.min(i32::MAX as u32) as i32;
        let fixes = connect_release(config.kafka_version).fixes;
        Self {
            incarnation,
            config,
            member: None,
            phase: Phase::Idle,
            join_token: 0,
            busy_token: 0,
            notice_token: 0,
            timer_token: 0,
            snapshot: MemberHoldings::default(),
            reported: None,
            snapshot_version: 0,
            owned_list: None,
            config_offset: 0,
            last_completed_generation: -1,
            current_protocol: mode,
            assignor: IncrementalCooperativeAssignor::with_fixes(max_delay, -1, fixes),
            assignor_generation: -1,
            full_start: false,
            leader_lane: None,
            hb_anchor: now,
            last_contact: now,
            frozen: None,
            zombie: false,
            orphans: false,
            session_key: None,
            rejoin_reason: None,
            pending_rejoin: None,
            pending_config: VecDeque::new(),
            scheduled_rebalance: None,
            held_delivery: None,
        }
    }

    /// The metadata it would send now.
    pub(crate) fn metadata(&self) -> ConnectMetadata {
        ConnectMetadata {
            mode: self.config.connect_protocol,
            config_offset: self.config_offset,
            snapshot_version: self.snapshot_version,
        }
    }

    /// Its holdings as the leader reads them from its JoinGroup metadata,
    /// moved out (hand them back with [`ConnectWorker::keep_reported`]).
    pub(crate) fn take_reported(&mut self, names: &ConnectorNames) -> MemberHoldings {
        match self.reported.take() {
            Some((version, holdings)) if version == self.snapshot_version => holdings,
            _ => wire_order(&self.snapshot, names),
        }
    }

    /// Keeps the reported holdings for the next round while the snapshot is unchanged.
    pub(crate) fn keep_reported(&mut self, holdings: MemberHoldings) {
        self.reported = Some((self.snapshot_version, holdings));
    }

    /// `heartbeat.interval.ms`.
    pub(crate) fn heartbeat_ms(&self) -> u64 {
        u64::from(self.config.heartbeat_interval_ms)
    }

    /// The first heartbeat at or after `t`.
    pub(crate) fn next_heartbeat(&self, t: u64) -> u64 {
        let hb = self.heartbeat_ms().max(1);
        if t <= self.hb_anchor {
            return self.hb_anchor + hb;
        }
        let k = (t - self.hb_anchor).div_ceil(hb);
        self.hb_anchor + k * hb
    }

    /// The last heartbeat at or before `t`.
    pub(crate) fn last_heartbeat(&self, t: u64) -> u64 {
        let hb = self.heartbeat_ms().max(1);
        if t <= self.hb_anchor {
            return self.hb_anchor;
        }
        self.hb_anchor + (t - self.hb_anchor) / hb * hb
    }

    /// True while the herder is blocked stopping work.
    pub(crate) fn is_busy(&self) -> bool {
        matches!(self.phase, Phase::Busy { .. })
    }
}
