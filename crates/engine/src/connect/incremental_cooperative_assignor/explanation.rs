//! Why a round came out as it did: the derived sets of `performTaskAssignment`
//! (deleted, duplicated, lost, created) and the branch taken in
//! `handleLostAssignments` and `performLoadBalancingRevocations`.

use super::ConnectorsAndTasks;
use crate::connect::ids::MemberId;

/// How a round treated lost work (`handleLostAssignments`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LostHandling {
    /// Nothing lost and no revocation last round: any pending delay and the
    /// candidate workers were cleared (step 7.1, KAFKA-9184).
    NothingLost,
    /// Nothing lost, but a release before KAFKA-9184 (2.4.0) does not clear
    /// the delay of an earlier round: it is sent again.
    StaleDelayKept,
    /// Work was lost but no member departed and no delay was scheduled: the
    /// assignment of the previous round was computed but never delivered, so
    /// the lost work is reassigned at once as new work (step 7.2, KAFKA-9848).
    ReassignedNoDeparture,
    /// `scheduled.rebalance.max.delay.ms` is 0: lost work is reassigned at
    /// once as new work (step 7.3, KAFKA-15693).
    ReassignedDelayDisabled,
    /// The scheduled delay expired and lost work was dealt round-robin to
    /// these candidate workers, in this order (step 7.4, KAFKA-10413); before
    /// KAFKA-10413 all of it goes to the first candidate, the only one listed.
    DealtToCandidates {
        /// The candidates still present, in the order they were dealt to.
        candidates: Vec<MemberId>,
    },
    /// The scheduled delay expired with no candidate worker present: lost
    /// work is spread over everybody as new work (step 7.4).
    ReassignedNoCandidates,
    /// A scheduled delay (a consecutive-revocation backoff) expired with
    /// nothing lost: the delay and the candidates were cleared, and
    /// load-balancing revocations are allowed again (step 7.4).
    DelayExpired,
    /// A delay is pending: lost work stays unassigned until `deadline_ms`
    /// (step 7.5). Also the branch taken when nothing is lost but the
    /// previous round revoked and a backoff delay is pending.
    Postponed {
        /// The fixed deadline (`scheduledRebalance`).
        deadline_ms: i64,
    },
}

/// What the load-balancing step of a round did (`performLoadBalancingRevocations`
/// and the consecutive-revocation backoff).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadBalancing {
    /// A delay was active, so no load-balancing revocation was considered.
    SuppressedByDelay,
    /// The load was balanced over the configured totals: nothing to revoke.
    Balanced,
    /// Balanced right after a revoking round: the consecutive-revocation
    /// backoff counter was reset.
    BalancedBackoffReset,
    /// Revocations were issued (the previous round did not revoke).
    Revoked,
    /// A second consecutive revoking round was postponed by the exponential
    /// backoff (KAFKA-12495).
    PostponedByBackoff {
        /// The number of successive revoking rebalances, after increment.
        attempt: i32,
        /// The backoff delay put in the assignment.
        delay_ms: i32,
    },
    /// A consecutive revoking round with a backoff of 0
    /// (`scheduled.rebalance.max.delay.ms` = 0): revoked at once.
    RevokedWithoutBackoff,
    /// Before KAFKA-12495 (3.4.0): the previous round revoked, or a delay
    /// was pending, so this leader does not revoke now (`canRevoke`), though
    /// the load is uneven.
    HeldBack,
    /// Before KAFKA-12495 (3.4.0): the load is uneven but no worker is empty,
    /// and the leader revokes only to make room for an empty (new) worker
    /// (`performTaskRevocation`).
    NoEmptyWorker,
}

/// Why a round came out as it did: the derived sets of `performTaskAssignment`
/// (deleted, duplicated, lost, created) and the
/// branches taken. Kept for explanations; not needed to run the assignor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundExplanation {
    /// Step 0: the previous assignment was discarded because the leader's
    /// previous generation differed from its last completed one.
    pub history_discarded: bool,
    /// Step 2: some item revoked last round is still running somewhere, so the
    /// previous assignment was replaced by what members report.
    pub revocation_undone: bool,
    /// Previously assigned work that is no longer configured.
    pub deleted: ConnectorsAndTasks,
    /// Work reported by more than one member.
    pub duplicated: ConnectorsAndTasks,
    /// Whether every copy of the duplicated work was revoked (KAFKA-9841,
    /// 2.5.1 and 2.6.0 on); before, both copies keep running.
    pub duplicates_revoked: bool,
    /// Previously assigned, configured work that no member reports.
    pub lost: ConnectorsAndTasks,
    /// Configured work that was neither previously assigned nor reported.
    pub created: ConnectorsAndTasks,
    /// What happened to the lost work.
    pub lost_handling: LostHandling,
    /// What the load-balancing step did.
    pub load_balancing: LoadBalancing,
    /// The delay sent to every member.
    pub delay_ms: i32,
}
