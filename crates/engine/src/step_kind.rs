//! What a [`crate::trace::ProtocolStep`] is: a closed set of kinds, each
//! written in the trace's JSON (and hashed by the fingerprint) as its
//! snake_case name, e.g. `leave_group`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Declares [`StepKind`] with each variant's wire name next to it, so the
/// name the JSON shows and the one the fingerprint hashes are one string.
macro_rules! step_kinds {
    ($( $(#[doc = $doc:literal])* $variant:ident => $name:literal, )*) => {
        /// The kind of a protocol or lifecycle step other than a round.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum StepKind {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl StepKind {
            /// Every kind, in declaration order.
            pub const ALL: &'static [StepKind] = &[$(StepKind::$variant,)*];

            /// The kind's wire name, e.g. `leave_group`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(StepKind::$variant => $name,)*
                }
            }
        }
    };
}

step_kinds! {
    // Both families: the lifecycle of a process and the simulation itself.
    /// A scenario event that could not apply (the worker or instance is not
    /// in a state it applies to).
    EventSkipped => "event_skipped",
    /// A scenario event postponed until the process can handle it (it is frozen
    /// or its stream thread is blocked).
    EventDeferred => "event_deferred",
    /// A rolling restart is expanded into one restart per process.
    RollingRestart => "rolling_restart",
    /// A process crashes: no LeaveGroup, the group learns it from the session timeout.
    Crash => "crash",
    /// The broker (group coordinator) removes a member whose heartbeats stopped
    /// for `session.timeout.ms`.
    SessionTimeout => "session_timeout",
    /// A member removed from the group without knowing it (its session
    /// expired while it was frozen, or the join phase dropped it while it was
    /// busy or frozen) runs its old work as zombie copies until its next
    /// heartbeat or JoinGroup is answered `UNKNOWN_MEMBER_ID`.
    Zombie => "zombie",
    /// The run hit its budget (`crate::budget`) and stopped: a rebalance storm.
    SimulationStopped => "simulation_stopped",

    // Kafka Connect.
    /// A connector config was written for an existing connector (an update).
    ConnectorConfig => "connector_config",
    /// A new connector's config was written to the config topic.
    ConnectorCreated => "connector_created",
    /// A connector was deleted (a tombstone in the config topic).
    ConnectorDeleted => "connector_deleted",
    /// The leader wrote new task configs for a connector.
    TaskConfigs => "task_configs",
    /// A worker forwards a REST request to the leader.
    RestForward => "rest_forward",
    /// A forwarded REST request reached no leader and will be retried.
    RestFailed => "rest_failed",
    /// The leader accepted a forwarded, signed REST request (KIP-507).
    RestAccepted => "rest_accepted",
    /// The leader rejected a forwarded REST request (a bad or stale signature, KIP-507).
    RestRejected => "rest_rejected",
    /// The leader rotated the session key for internal REST requests (KIP-507).
    SessionKey => "session_key",
    /// A worker shuts down gracefully: it stops its work, then sends LeaveGroup.
    GracefulStop => "graceful_stop",
    /// A worker sends LeaveGroup and exits.
    LeaveGroup => "leave_group",
    /// A worker's JVM freezes (a long GC pause): no heartbeats, no work.
    GcPause => "gc_pause",
    /// A frozen worker resumes before its session expired.
    Resume => "resume",
    /// A SyncGroup for a generation the group has moved past is rejected.
    SyncRejected => "sync_rejected",
    /// A heartbeat is answered `UNKNOWN_MEMBER_ID`: the member must rejoin as new.
    UnknownMember => "unknown_member",
    /// The broker made another member leader.
    LeaderChange => "leader_change",
    /// A member did not rejoin within `rebalance.timeout.ms` and was dropped from
    /// the generation.
    Dropped => "dropped",
    /// Cooperative → eager: work a member kept without revoking it
    /// (`WorkerCoordinator.onJoinPrepare` follows the previous generation's protocol).
    DowngradeOrphans => "downgrade_orphans",
    /// The group protocol the members' vote chose changed.
    GroupProtocol => "group_protocol",

    // Kafka Streams.
    /// A member's subscription version differs from the group's: it up- or
    /// downgrades and rejoins (KIP-268).
    VersionProbing => "version_probing",
    /// A leader without the cooperative filter handed out a task another member
    /// still owns.
    DoubleOwnership => "double_ownership",
    /// The leader could not compute an assignment.
    AssignmentError => "assignment_error",
    /// A member did not rejoin within the rebalance timeout and was removed.
    MemberDropped => "member_dropped",
    /// An instance closes cleanly (`KafkaStreams.close`).
    Close => "close",
    /// A member learns it is no longer in the group: `onPartitionsLost`.
    PartitionsLost => "partitions_lost",
    /// A stream thread blocks in a record handler: no `poll()`.
    Blocked => "blocked",
    /// A stream thread exceeded `max.poll.interval.ms`.
    PollTimeout => "poll_timeout",
    /// A static member rejoined within `session.timeout.ms`: no rebalance.
    StaticRejoin => "static_rejoin",
    /// A cooperative member revokes tasks, then rejoins for the follow-up round (KIP-429).
    Revoke => "revoke",
    /// The leader's client triggers the probing rebalance (`probing.rebalance.interval.ms`, KIP-441).
    ProbingRebalance => "probing_rebalance",

    // The streams rebalance protocol (KIP-1071, `group.protocol=streams`).
    /// A StreamThread's member joins the streams group (heartbeat with member
    /// epoch 0): the group epoch goes up.
    StreamsGroupJoin => "streams_group_join",
    /// A member leaves the streams group (heartbeat with member epoch −1): the
    /// group epoch goes up, nothing is computed yet.
    StreamsGroupLeave => "streams_group_leave",
    /// The group coordinator computed a new target assignment
    /// (`GroupMetadataManager`, `StickyTaskAssignor`): its epoch and the moves.
    TargetAssignment => "target_assignment",
    /// A heartbeat was answered `ASSIGNMENT_DELAYED` (initial delay of an empty
    /// group, or the assignment interval): the target waits.
    AssignmentDelayed => "assignment_delayed",
    /// `CurrentAssignmentBuilder` put a member in `UNREVOKED_TASKS`: it must
    /// revoke tasks before it gets new ones.
    MemberRevoking => "member_revoking",
    /// A member is in `UNRELEASED_TASKS`: at the target epoch, waiting for
    /// tasks another process still holds.
    MemberPending => "member_pending",
    /// A member's reconciliation hands it tasks, or it reached its target.
    MemberAssigned => "member_assigned",
}

impl std::fmt::Display for StepKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for StepKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for StepKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        StepKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown step kind `{name}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_snake_case_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for &k in StepKind::ALL {
            let name = k.as_str();
            assert!(seen.insert(name), "{name} twice");
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{name}"
            );
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<StepKind>(&json).unwrap(), k);
        }
        assert!(serde_json::from_str::<StepKind>("\"no_such_kind\"").is_err());
    }
}
