//! `IncrementalCooperativeAssignor` as Kafka runs it (KIP-415, with the
//! changes of KAFKA-9184, KAFKA-9848, KAFKA-9841, KAFKA-10413, KAFKA-12495 and
//! KAFKA-15693), as the newest release has it or, with
//! [`IncrementalCooperativeAssignor::with_fixes`], as an older release that
//! lacks some of those fixes (`connect::versions`).
//!
//! One call of [`IncrementalCooperativeAssignor::perform_assignment`] is one
//! rebalance round at the leader (`performTaskAssignment`). The
//! assignor object is the leader's memory (`previousAssignment`,
//! `scheduledRebalance`, `candidateWorkersForReassignment`, …): a new leader starts a
//! fresh one, which is why a leader change makes lost work reassign at once.
//!
//! The round is computed over dense slot numbers instead of hashed ids (see
//! the private `work_slots` module), so it stays linear in members + tasks: a round
//! with 1,000 workers and 100,000 tasks takes 1–4 ms (opt-level 3 / "z"), where
//! Kafka's Java takes hundreds. Everything that decides *which* item moves is
//! kept as Kafka does it: members are walked in the caller's order (Java
//! `HashMap` order of the member ids), holdings in their listed order, and new work
//! in sorted order.
//!
//! The round is split by step, each in its own file:
//! - this module: the types and [`IncrementalCooperativeAssignor::perform_assignment`]
//!   (`performTaskAssignment`), which runs the steps in Kafka's order;
//! - `kind_round`: one kind of work (connectors or tasks) in one round, and the
//!   set arithmetic of `performTaskAssignment` (deleted, duplicated, lost,
//!   created, `toRevoke`, the next `previousAssignment`);
//! - `roster`: the round's members sorted by id;
//! - `lost_assignments`: `handleLostAssignments` and the scheduled rebalance delay;
//! - `load_balancing`: `performLoadBalancingRevocations` with the
//!   consecutive-revocation backoff;
//! - `legacy_revocation`: the revocation before KAFKA-12495 (`canRevoke`,
//!   `performTaskRevocation`);
//! - `new_work`: `assignConnectors` / `assignTasks`;
//! - `explanation`: why a round came out as it did ([`RoundExplanation`]).

use std::collections::BTreeSet;

use super::assignment::{MemberDelta, RoundInput, RoundOutput};
use super::backoff::ExponentialBackoff;
use super::ids::{ConnectorId, MemberId, TaskId};
use super::versions::AssignorFixes;

mod explanation;
mod kind_round;
mod legacy_revocation;
mod load_balancing;
mod lost_assignments;
mod new_work;
mod roster;

pub use explanation::{LoadBalancing, LostHandling, RoundExplanation};
use kind_round::{connector_ranges, task_ranges, KindRound};
use roster::Roster;

/// A set of connectors and tasks, each list sorted (connector name, then task index).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConnectorsAndTasks {
    /// Connectors, sorted.
    pub connectors: Vec<ConnectorId>,
    /// Tasks, sorted.
    pub tasks: Vec<TaskId>,
}

impl ConnectorsAndTasks {
    /// True when there are neither connectors nor tasks.
    pub fn is_empty(&self) -> bool {
        self.connectors.is_empty() && self.tasks.is_empty()
    }

    /// Number of connectors plus tasks.
    pub fn len(&self) -> usize {
        self.connectors.len() + self.tasks.len()
    }
}

/// Kafka's incremental cooperative Connect assignor. Keeps the leader's
/// memory between rounds (`previousAssignment`, `previousRevocation`,
/// `scheduledRebalance`, …); a new leader starts a fresh one.
#[derive(Clone, Debug)]
pub struct IncrementalCooperativeAssignor {
    /// The fixes of the release it belongs to.
    fixes: AssignorFixes,
    /// `scheduled.rebalance.max.delay.ms` (`maxDelay`).
    max_delay_ms: i32,
    /// `consecutiveRevokingRebalancesBackoff`.
    backoff: ExponentialBackoff,
    /// `previousGenerationId`.
    previous_generation_id: i32,
    /// `previousAssignment` (P), including lost work not yet reassigned.
    previous_assignment: ConnectorsAndTasks,
    /// `previousRevocation` (PR): what the last round revoked.
    previous_revocation: ConnectorsAndTasks,
    /// `revokedInPrevious`: the last round issued load-balancing revocations.
    revoked_in_previous: bool,
    /// `canRevoke`, before KAFKA-12495: this round may revoke for balance.
    can_revoke: bool,
    /// `numSuccessiveRevokingRebalances` (N).
    num_successive_revoking_rebalances: i32,
    /// `candidateWorkersForReassignment` (C), in insertion order.
    candidate_workers: Vec<MemberId>,
    /// The same set, for membership tests.
    candidate_set: BTreeSet<MemberId>,
    /// `scheduledRebalance` (S): absolute deadline in ms, 0 = none.
    scheduled_rebalance_ms: i64,
    /// `delay` (d): the delay put in this round's assignments.
    delay_ms: i32,
    /// `previousMembers`, sorted by Java string order.
    previous_members: Vec<MemberId>,
    /// Explanation of the last round computed.
    last_round: Option<RoundExplanation>,
}

impl IncrementalCooperativeAssignor {
    /// A fresh assignor (a new leader) with `scheduled.rebalance.max.delay.ms`
    /// and the generation it starts from (Kafka's tests use the current generation).
    pub fn new(max_delay_ms: i32, previous_generation_id: i32) -> Self {
        Self::with_fixes(max_delay_ms, previous_generation_id, AssignorFixes::ALL)
    }

    /// A fresh assignor of a release with only `fixes` (`connect::versions`).
    pub fn with_fixes(
        max_delay_ms: i32,
        previous_generation_id: i32,
        fixes: AssignorFixes,
    ) -> Self {
        Self {
            fixes,
            max_delay_ms,
            backoff: ExponentialBackoff::consecutive_revoking_rebalances(max_delay_ms),
            previous_generation_id,
            previous_assignment: ConnectorsAndTasks::default(),
            previous_revocation: ConnectorsAndTasks::default(),
            revoked_in_previous: false,
            can_revoke: true,
            num_successive_revoking_rebalances: 0,
            candidate_workers: Vec::new(),
            candidate_set: BTreeSet::new(),
            scheduled_rebalance_ms: 0,
            delay_ms: 0,
            previous_members: Vec::new(),
            last_round: None,
        }
    }

    /// The fixes of the release this assignor belongs to.
    pub fn fixes(&self) -> AssignorFixes {
        self.fixes
    }

    /// `scheduled.rebalance.max.delay.ms`.
    pub fn max_delay_ms(&self) -> i32 {
        self.max_delay_ms
    }

    /// The delay sent with the last round's assignments.
    pub fn delay_ms(&self) -> i32 {
        self.delay_ms
    }

    /// The scheduled rebalance deadline (absolute ms), if one is pending.
    pub fn scheduled_rebalance_ms(&self) -> Option<i64> {
        (self.scheduled_rebalance_ms > 0).then_some(self.scheduled_rebalance_ms)
    }

    /// Workers that were seen empty while a delay was pending, in the order
    /// they will receive lost work when the delay expires.
    pub fn candidate_workers(&self) -> &[MemberId] {
        &self.candidate_workers
    }

    /// What the leader believes is assigned, lost work included.
    pub fn previous_assignment(&self) -> &ConnectorsAndTasks {
        &self.previous_assignment
    }

    /// What the last round revoked.
    pub fn previous_revocation(&self) -> &ConnectorsAndTasks {
        &self.previous_revocation
    }

    /// Whether the last round issued load-balancing revocations.
    pub fn revoked_in_previous(&self) -> bool {
        self.revoked_in_previous
    }

    /// The consecutive-revocation backoff counter.
    pub fn successive_revoking_rebalances(&self) -> i32 {
        self.num_successive_revoking_rebalances
    }

    /// The generation of the last round computed (or the starting generation).
    pub fn previous_generation_id(&self) -> i32 {
        self.previous_generation_id
    }

    /// The members of the last round computed, sorted.
    pub fn previous_members(&self) -> &[MemberId] {
        &self.previous_members
    }

    /// Why the last round came out as it did.
    pub fn last_round(&self) -> Option<&RoundExplanation> {
        self.last_round.as_ref()
    }

    /// One round at the leader (`performTaskAssignment`).
    pub fn perform_assignment(&mut self, input: &RoundInput<'_>) -> RoundOutput {
        let members = input.members;
        let now = input.now_ms;
        let roster = Roster::new(members);

        // Step 0 — stale history: the leader did not complete the round it
        // last computed, or was not the leader then (KAFKA-9848).
        let fixes = self.fixes;
        let history_discarded = fixes.kafka_9848_generation_check
            && self.previous_generation_id != input.last_completed_generation;
        if history_discarded {
            self.previous_assignment = ConnectorsAndTasks::default();
        }

        // Step 1 — base sets.
        let mut connectors = KindRound::<ConnectorId>::new(
            &connector_ranges(input.configured),
            members,
            &self.previous_assignment.connectors,
            fixes.kafka_9841_revoke_duplicates,
        );
        let mut tasks = KindRound::<TaskId>::new(
            &task_ranges(input.configured),
            members,
            &self.previous_assignment.tasks,
            fixes.kafka_9841_revoke_duplicates,
        );

        // Step 2 — a revocation that did not happen: some worker still runs an
        // item revoked last round (it missed the SyncGroup), so trust the
        // members' reports over the remembered assignment.
        let revocation_undone = connectors.any_active(&self.previous_revocation.connectors)
            || tasks.any_active(&self.previous_revocation.tasks);
        if revocation_undone {
            connectors.replace_previous_with_active();
            tasks.replace_previous_with_active();
            self.can_revoke = true;
        }
        self.previous_revocation = ConnectorsAndTasks::default();

        // Steps 3–6 — deleted, duplicated, lost, created; mandatory
        // revocations; the next-assignment skeleton.
        connectors.classify();
        tasks.classify();
        connectors.build_skeleton(members);
        tasks.build_skeleton(members);

        // Step 7 — lost work.
        let lost_handling =
            self.handle_lost_assignments(now, members, &roster, &mut connectors, &mut tasks);

        // Step 8 — load-balancing revocations, only without a pending delay.
        let legacy = !fixes.kafka_12495_backoff;
        let load_balancing = if legacy {
            self.legacy_revocation(members, &mut connectors, &mut tasks)
        } else {
            self.load_balance(now, members, &mut connectors, &mut tasks)
        };

        // Step 9 — created work (sorted), then lost work to reassign (sorted),
        // water-filled over the least-loaded members.
        connectors.assign_new_work(&roster, legacy);
        tasks.assign_new_work(&roster, legacy);
        // Before KAFKA-12495 the new work may even the load out after all:
        // then there was nothing to hold back.
        let load_balancing = match load_balancing {
            LoadBalancing::HeldBack | LoadBalancing::NoEmptyWorker
                if connectors.next_is_even() && tasks.next_is_even() =>
            {
                LoadBalancing::Balanced
            }
            other => other,
        };

        // Step 10 — bookkeeping and outputs.
        self.previous_assignment = ConnectorsAndTasks {
            connectors: connectors.next_previous_assignment(members),
            tasks: tasks.next_previous_assignment(members),
        };
        self.previous_revocation = ConnectorsAndTasks {
            connectors: connectors.all_revoked(),
            tasks: tasks.all_revoked(),
        };
        self.previous_generation_id = input.generation;
        self.previous_members = roster.sorted_ids();

        self.last_round = Some(RoundExplanation {
            history_discarded,
            revocation_undone,
            deleted: ConnectorsAndTasks {
                connectors: std::mem::take(&mut connectors.deleted),
                tasks: std::mem::take(&mut tasks.deleted),
            },
            duplicated: ConnectorsAndTasks {
                connectors: std::mem::take(&mut connectors.duplicated),
                tasks: std::mem::take(&mut tasks.duplicated),
            },
            duplicates_revoked: fixes.kafka_9841_revoke_duplicates,
            lost: ConnectorsAndTasks {
                connectors: std::mem::take(&mut connectors.lost),
                tasks: std::mem::take(&mut tasks.lost),
            },
            created: ConnectorsAndTasks {
                connectors: std::mem::take(&mut connectors.created),
                tasks: std::mem::take(&mut tasks.created),
            },
            lost_handling,
            load_balancing,
            delay_ms: self.delay_ms,
        });

        let deltas = connectors
            .assigned
            .into_iter()
            .zip(connectors.revoked)
            .zip(tasks.assigned.into_iter().zip(tasks.revoked))
            .map(
                |((assigned_connectors, revoked_connectors), (assigned_tasks, revoked_tasks))| {
                    MemberDelta {
                        assigned_connectors,
                        assigned_tasks,
                        revoked_connectors,
                        revoked_tasks,
                    }
                },
            )
            .collect();
        RoundOutput {
            deltas,
            delay_ms: self.delay_ms,
        }
    }
}
