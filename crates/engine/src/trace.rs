//! The trace: everything one simulated run produced, in the shape the views
//! and metrics read. Engine state flows one way: scenario → simulator → trace
//! → metrics → view. Intervals are runs of one state (never per-ms samples),
//! and items are referenced by index so a 100,000-task trace stays compact.

use serde::{Deserialize, Serialize};

/// One simulated run of one compared variant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// The variant's label, e.g. `cooperative`.
    pub label: String,
    /// Simulated time at which the run stopped.
    pub end_ms: u64,
    /// Worker lanes, by index (`worker-1` …). Joined workers are appended.
    pub workers: Vec<String>,
    /// Every connector and task that was ever configured, by index.
    pub items: Vec<WorkItem>,
    /// State intervals; `worker: None` is the unassigned lane.
    pub intervals: Vec<StateInterval>,
    /// Completed (or failed) rebalance rounds, in time order.
    pub rounds: Vec<RebalanceRound>,
    /// Other protocol and lifecycle steps, in time order, each explained.
    pub steps: Vec<ProtocolStep>,
    /// The scenario's events as they happened (rolling restarts expanded).
    pub events: Vec<EventMarker>,
}

/// A connector instance or a task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkItem {
    /// `my-connector` or `my-connector-3`.
    pub label: String,
    /// Connector or task.
    pub kind: ItemKind,
}

/// What a [`WorkItem`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// A connector instance (task index −1 in Kafka's assignment format).
    Connector,
    /// A task.
    Task,
}

/// The state of one item on one worker (or unassigned) over an interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemState {
    /// Assigned and starting up.
    Starting,
    /// Doing its work.
    Running,
    /// Being stopped (revoked, or its worker is shutting down).
    Stopping,
    /// Configured but nobody runs it.
    Unassigned,
    /// Held by a frozen or cut-off worker that does not know it lost it (a zombie copy).
    Zombie,
}

/// `[start_ms, end_ms)` of one state of one item on one worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateInterval {
    /// Index into [`Trace::items`].
    pub item: u32,
    /// Index into [`Trace::workers`]; `None` for the unassigned lane.
    pub worker: Option<u32>,
    /// The state.
    pub state: ItemState,
    /// Start, inclusive.
    pub start_ms: u64,
    /// End, exclusive.
    pub end_ms: u64,
}

/// One JoinGroup/SyncGroup round.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RebalanceRound {
    /// The generation the round created.
    pub generation: i32,
    /// When the broker started the rebalance (first JoinGroup or member loss).
    pub started_ms: u64,
    /// When SyncGroup answered.
    pub completed_ms: u64,
    /// The group protocol chosen by the vote (`default`, `compatible`, `sessioned`).
    pub protocol: String,
    /// The leader's worker index.
    pub leader: u32,
    /// Every member of the round.
    pub members: Vec<RoundMember>,
    /// The `delay` in the assignments, ms.
    pub delay_ms: i32,
    /// Why the round happened and what it decided, in one line.
    pub explanation: String,
}

/// One member's view of a round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundMember {
    /// Worker index.
    pub worker: u32,
    /// The member id the broker gave this process.
    pub member_id: String,
    /// Items it reported owning in JoinGroup (empty under eager: V0 metadata has none).
    pub owned: Vec<u32>,
    /// Items SyncGroup told it to start (eager: its whole assignment).
    pub assigned: Vec<u32>,
    /// Items SyncGroup told it to stop.
    pub revoked: Vec<u32>,
}

/// A protocol or lifecycle step other than a round (heartbeat expiry,
/// LeaveGroup, session-key rotation, a signed REST call, a skipped event …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtocolStep {
    /// When.
    pub at_ms: u64,
    /// Worker index, when it concerns one worker.
    pub worker: Option<u32>,
    /// Short kind, e.g. `leave_group`, `session_timeout`, `session_key`.
    pub kind: String,
    /// One-line human explanation.
    pub explanation: String,
}

/// A scenario event as it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventMarker {
    /// When.
    pub at_ms: u64,
    /// Worker index, when it concerns one worker.
    pub worker: Option<u32>,
    /// E.g. `worker-2 crashes`.
    pub label: String,
}
