//! The streams protocol's view in the trace (KIP-1071): a protocol without
//! rounds. Instead of JoinGroup/SyncGroup rounds the broker computes target
//! assignments, each at a new epoch (`GroupMetadataManager`,
//! `TargetAssignmentBuilder`), and every member moves toward its target on
//! its own heartbeats (`CurrentAssignmentBuilder`), through Kafka's
//! `MemberState`s. Empty for classic-protocol traces.

use serde::{Deserialize, Serialize};

use crate::trace::ItemList;

/// One target assignment the group coordinator computed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetAssignmentEpoch {
    /// The target assignment epoch (the group epoch it was computed at).
    pub epoch: i32,
    /// When the broker computed it.
    pub computed_ms: u64,
    /// What made the broker compute it.
    pub trigger: TargetTrigger,
    /// With [`TargetTrigger::MemberHeartbeat`]: the heartbeating member, an
    /// index into [`crate::trace::Trace::members`].
    pub trigger_member: Option<u32>,
    /// Why the group epoch moved past the previous target: every bump since
    /// it, in time order.
    pub causes: Vec<EpochBump>,
    /// Every member's target, in the member table's order.
    pub members: Vec<TargetMember>,
    /// Active tasks whose owner differs from the previous target.
    pub moved: u32,
}

/// What made the broker compute a target assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetTrigger {
    /// A member's heartbeat found the group epoch ahead of the target
    /// (`GroupMetadataManager#streamsGroupHeartbeat`).
    MemberHeartbeat,
    /// The initial rebalance delay of an empty group elapsed
    /// (`streams.initial.rebalance.delay.ms`, 4.2+).
    InitialDelay,
}

/// One bump of the group epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EpochBump {
    /// When.
    pub at_ms: u64,
    /// The group epoch it bumped to.
    pub group_epoch: i32,
    /// Why.
    pub cause: EpochBumpCause,
    /// The member it concerns, an index into [`crate::trace::Trace::members`].
    pub member: Option<u32>,
}

/// Why the group epoch was bumped (a closed set in this model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EpochBumpCause {
    /// A member joined (a heartbeat with member epoch 0).
    MemberJoined,
    /// A member left (a heartbeat with member epoch −1).
    MemberLeft,
    /// A member was fenced: no heartbeat for `streams.session.timeout.ms`.
    SessionTimeout,
    /// A member was fenced: it did not revoke within its rebalance timeout
    /// (`max.poll.interval.ms`).
    RebalanceTimeout,
}

/// One member's target in a [`TargetAssignmentEpoch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetMember {
    /// Index into [`crate::trace::Trace::members`].
    pub member: u32,
    /// Its lane (instance).
    pub worker: u32,
    /// Its StreamThread in the instance, from 0.
    pub thread: u32,
    /// Target active tasks.
    pub active: ItemList,
    /// Target standby tasks.
    pub standby: ItemList,
}

/// The broker's reconciliation state of a member (Kafka's `MemberState` of
/// the streams group, as `CurrentAssignmentBuilder` moves it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberReconciliationState {
    /// `STABLE`: at its member epoch's target (or behind a newer target it
    /// has not heartbeated since).
    Stable,
    /// `UNREVOKED_TASKS`: must revoke tasks; gets nothing new until a
    /// heartbeat no longer reports them.
    UnrevokedTasks,
    /// `UNRELEASED_TASKS`: at the target epoch, but waits for tasks another
    /// process still holds.
    UnreleasedTasks,
}

impl MemberReconciliationState {
    /// Kafka's name of the state.
    pub fn kafka_name(self) -> &'static str {
        match self {
            Self::Stable => "STABLE",
            Self::UnrevokedTasks => "UNREVOKED_TASKS",
            Self::UnreleasedTasks => "UNRELEASED_TASKS",
        }
    }
}

/// One member's reconciliation state over `[start_ms, end_ms)`, as the
/// broker sees it (from its join heartbeat until it left or was fenced).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReconciliationSpan {
    /// Its lane (instance).
    pub worker: u32,
    /// Index into [`crate::trace::Trace::members`].
    pub member: u32,
    /// Its StreamThread in the instance, from 0.
    pub thread: u32,
    /// The state.
    pub state: MemberReconciliationState,
    /// Start, inclusive.
    pub start_ms: u64,
    /// End, exclusive.
    pub end_ms: u64,
    /// Its member epoch (the target epoch it has reconciled to).
    pub member_epoch: i32,
    /// The group's newest target assignment epoch meanwhile.
    pub target_epoch: i32,
    /// Tasks it was asked to revoke and still reports (active and standby).
    pub revoking: ItemList,
    /// Target tasks withheld because another process still holds them.
    pub awaiting: ItemList,
}

impl ReconciliationSpan {
    /// True when the member is at the group's newest target and has nothing
    /// left to do.
    pub fn is_reconciled(&self) -> bool {
        self.state == MemberReconciliationState::Stable && self.member_epoch >= self.target_epoch
    }
}
