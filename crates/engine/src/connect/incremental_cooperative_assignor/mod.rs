//! `IncrementalCooperativeAssignor` as Kafka trunk runs it (KIP-415, with the
//! changes of KAFKA-9848, KAFKA-9841, KAFKA-10413, KAFKA-12495 and KAFKA-15693).
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

use std::collections::BTreeSet;

use super::assignment::{ConfiguredWork, MemberDelta, MemberHoldings, RoundInput, RoundOutput};
use super::backoff::ExponentialBackoff;
use super::ids::{java_string_cmp, ConnectorId, MemberId, TaskId};
use super::java_hash::hash_set_iteration_order;
use super::work_slots::{SlotUniverse, WorkItem};

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

/// How a round treated lost work (`handleLostAssignments`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LostHandling {
    /// Nothing lost and no revocation last round: any pending delay and the
    /// candidate workers were cleared (step 7.1, KAFKA-9184).
    NothingLost,
    /// Work was lost but no member departed and no delay was scheduled: the
    /// assignment of the previous round was computed but never delivered, so
    /// the lost work is reassigned at once as new work (step 7.2, KAFKA-9848).
    ReassignedNoDeparture,
    /// `scheduled.rebalance.max.delay.ms` is 0: lost work is reassigned at
    /// once as new work (step 7.3, KAFKA-15693).
    ReassignedDelayDisabled,
    /// The scheduled delay expired and lost work was dealt round-robin to
    /// these candidate workers, in this order (step 7.4, KAFKA-10413).
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
    /// Work reported by more than one member (all copies are revoked, KAFKA-9841).
    pub duplicated: ConnectorsAndTasks,
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

/// Kafka's incremental cooperative Connect assignor. Keeps the leader's
/// memory between rounds (`previousAssignment`, `previousRevocation`,
/// `scheduledRebalance`, …); a new leader starts a fresh one.
#[derive(Clone, Debug)]
pub struct IncrementalCooperativeAssignor {
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
        Self {
            max_delay_ms,
            backoff: ExponentialBackoff::consecutive_revoking_rebalances(max_delay_ms),
            previous_generation_id,
            previous_assignment: ConnectorsAndTasks::default(),
            previous_revocation: ConnectorsAndTasks::default(),
            revoked_in_previous: false,
            num_successive_revoking_rebalances: 0,
            candidate_workers: Vec::new(),
            candidate_set: BTreeSet::new(),
            scheduled_rebalance_ms: 0,
            delay_ms: 0,
            previous_members: Vec::new(),
            last_round: None,
        }
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
        let history_discarded = self.previous_generation_id != input.last_completed_generation;
        if history_discarded {
            self.previous_assignment = ConnectorsAndTasks::default();
        }

        // Step 1 — base sets.
        let mut connectors = KindRound::<ConnectorId>::new(
            &connector_ranges(input.configured),
            members,
            &self.previous_assignment.connectors,
        );
        let mut tasks = KindRound::<TaskId>::new(
            &task_ranges(input.configured),
            members,
            &self.previous_assignment.tasks,
        );

        // Step 2 — a revocation that did not happen: some worker still runs an
        // item revoked last round (it missed the SyncGroup), so trust the
        // members' reports over the remembered assignment.
        let revocation_undone = connectors.any_active(&self.previous_revocation.connectors)
            || tasks.any_active(&self.previous_revocation.tasks);
        if revocation_undone {
            connectors.replace_previous_with_active();
            tasks.replace_previous_with_active();
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
        let load_balancing = self.load_balance(now, members, &mut connectors, &mut tasks);

        // Step 9 — created work (sorted), then lost work to reassign (sorted),
        // water-filled over the least-loaded members.
        connectors.assign_new_work(&roster);
        tasks.assign_new_work(&roster);

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

    /// `handleLostAssignments`. Deals lost work straight to
    /// candidate workers, or marks it for reassignment as new work, or
    /// postpones it behind the single scheduled deadline.
    fn handle_lost_assignments(
        &mut self,
        now: i64,
        members: &[MemberHoldings],
        roster: &Roster<'_>,
        connectors: &mut KindRound<ConnectorId>,
        tasks: &mut KindRound<TaskId>,
    ) -> LostHandling {
        let nothing_lost = connectors.lost.is_empty() && tasks.lost.is_empty();
        // 7.1: a delay only outlives a round while something is lost, or right
        // after a revoking round (the backoff).
        if nothing_lost && !self.revoked_in_previous {
            self.reset_delay();
            return LostHandling::NothingLost;
        }
        // 7.2: lost work but nobody left and no deadline: the last assignment
        // was never delivered, so there is nothing to wait for.
        if self.scheduled_rebalance_ms <= 0 && roster.contains_all(&self.previous_members) {
            connectors.reassign_lost_as_new();
            tasks.reassign_lost_as_new();
            return LostHandling::ReassignedNoDeparture;
        }
        // 7.3: KAFKA-15693, delays disabled.
        if self.max_delay_ms == 0 {
            connectors.reassign_lost_as_new();
            tasks.reassign_lost_as_new();
            return LostHandling::ReassignedDelayDisabled;
        }
        // 7.4: the deadline passed.
        if self.scheduled_rebalance_ms > 0 && now >= self.scheduled_rebalance_ms {
            let candidates: Vec<usize> = self
                .candidate_workers
                .iter()
                .filter_map(|id| roster.position(id))
                .collect();
            let outcome = if nothing_lost {
                LostHandling::DelayExpired
            } else if candidates.is_empty() {
                connectors.reassign_lost_as_new();
                tasks.reassign_lost_as_new();
                LostHandling::ReassignedNoCandidates
            } else {
                connectors.deal_lost_to(&candidates);
                tasks.deal_lost_to(&candidates);
                LostHandling::DealtToCandidates {
                    candidates: candidates
                        .iter()
                        .map(|&w| members[w].member.clone())
                        .collect(),
                }
            };
            self.reset_delay();
            // The full delay has passed, so successive revoking rebalances are
            // permitted again.
            self.revoked_in_previous = false;
            return outcome;
        }
        // 7.5: a delay is pending, or starts now. Every member whose next
        // assignment is empty becomes a candidate. Kafka gathers them in a
        // fresh HashSet<String> and appends that to its insertion-ordered set.
        let empty: Vec<&str> = (0..members.len())
            .filter(|&w| connectors.kept[w] == 0 && tasks.kept[w] == 0)
            .map(|w| members[w].member.as_str())
            .collect();
        for i in hash_set_iteration_order(&empty) {
            if self.candidate_set.insert(empty[i].to_owned()) {
                self.candidate_workers.push(empty[i].to_owned());
            }
        }
        self.delay_ms = if now < self.scheduled_rebalance_ms {
            // The deadline is fixed at first detection; d is the time left.
            (self.scheduled_rebalance_ms - now).min(i64::from(self.max_delay_ms)) as i32
        } else {
            self.max_delay_ms
        };
        self.scheduled_rebalance_ms = now + i64::from(self.delay_ms);
        LostHandling::Postponed {
            deadline_ms: self.scheduled_rebalance_ms,
        }
    }

    /// `resetDelay`.
    fn reset_delay(&mut self) {
        self.candidate_workers.clear();
        self.candidate_set.clear();
        self.scheduled_rebalance_ms = 0;
        self.delay_ms = 0;
    }

    /// `performLoadBalancingRevocations`: load-balancing revocations over the configured
    /// totals, with the consecutive-revocation backoff (KAFKA-12495).
    fn load_balance(
        &mut self,
        now: i64,
        members: &[MemberHoldings],
        connectors: &mut KindRound<ConnectorId>,
        tasks: &mut KindRound<TaskId>,
    ) -> LoadBalancing {
        if self.delay_ms != 0 {
            self.revoked_in_previous = false;
            return LoadBalancing::SuppressedByDelay;
        }
        let all_empty =
            (0..members.len()).all(|w| connectors.next_len(w) == 0 && tasks.next_len(w) == 0);
        let nothing_configured = connectors.configured == 0 && tasks.configured == 0;
        let (connector_plan, task_plan) = if all_empty || nothing_configured {
            (Vec::new(), Vec::new())
        } else {
            (connectors.revocation_plan(), tasks.revocation_plan())
        };
        let revoking = connector_plan.iter().chain(&task_plan).any(|&n| n > 0);

        if self.revoked_in_previous && revoking {
            self.num_successive_revoking_rebalances =
                self.num_successive_revoking_rebalances.wrapping_add(1);
            let attempt = self.num_successive_revoking_rebalances;
            // The backoff never exceeds maxDelay, an i32.
            self.delay_ms = self.backoff.backoff(i64::from(attempt)) as i32;
            if self.delay_ms != 0 {
                self.scheduled_rebalance_ms = now + i64::from(self.delay_ms);
                LoadBalancing::PostponedByBackoff {
                    attempt,
                    delay_ms: self.delay_ms,
                }
            } else {
                connectors.apply_revocations(members, &connector_plan);
                tasks.apply_revocations(members, &task_plan);
                LoadBalancing::RevokedWithoutBackoff
            }
        } else if revoking {
            connectors.apply_revocations(members, &connector_plan);
            tasks.apply_revocations(members, &task_plan);
            self.revoked_in_previous = true;
            LoadBalancing::Revoked
        } else if self.revoked_in_previous {
            self.revoked_in_previous = false;
            self.num_successive_revoking_rebalances = 0;
            LoadBalancing::BalancedBackoffReset
        } else {
            LoadBalancing::Balanced
        }
    }
}

/// The configured connectors as slot ranges (one key each).
fn connector_ranges(configured: &ConfiguredWork) -> Vec<(u32, u32)> {
    configured
        .connectors
        .iter()
        .map(|&(c, _)| (c.0, 1))
        .collect()
}

/// The configured tasks as slot ranges (`count` indices per connector).
fn task_ranges(configured: &ConfiguredWork) -> Vec<(u32, u32)> {
    configured
        .connectors
        .iter()
        .map(|&(c, n)| (c.0, n))
        .collect()
}

/// The members of one round, sorted once by member id (Java string order).
struct Roster<'a> {
    members: &'a [MemberHoldings],
    /// Member indices sorted by id.
    by_id: Vec<usize>,
    /// `rank[w]`: position of member `w` in `by_id`.
    rank: Vec<usize>,
}

impl<'a> Roster<'a> {
    fn new(members: &'a [MemberHoldings]) -> Self {
        let mut by_id: Vec<usize> = (0..members.len()).collect();
        by_id.sort_by(|&a, &b| java_string_cmp(&members[a].member, &members[b].member));
        let mut rank = vec![0; members.len()];
        for (r, &w) in by_id.iter().enumerate() {
            rank[w] = r;
        }
        Self {
            members,
            by_id,
            rank,
        }
    }

    /// The index of the member with this id, if present.
    fn position(&self, id: &str) -> Option<usize> {
        self.by_id
            .binary_search_by(|&w| java_string_cmp(&self.members[w].member, id))
            .ok()
            .map(|r| self.by_id[r])
    }

    /// `activeMembers.containsAll(previous)`, with `previous` sorted.
    fn contains_all(&self, previous: &[MemberId]) -> bool {
        let mut present = self
            .by_id
            .iter()
            .map(|&w| self.members[w].member.as_str())
            .peekable();
        previous.iter().all(|id| {
            while present
                .next_if(|p| java_string_cmp(p, id).is_lt())
                .is_some()
            {}
            present.peek().is_some_and(|p| *p == id)
        })
    }

    /// The member ids, sorted and without repeats.
    fn sorted_ids(&self) -> Vec<MemberId> {
        let mut ids: Vec<MemberId> = self
            .by_id
            .iter()
            .map(|&w| self.members[w].member.clone())
            .collect();
        ids.dedup();
        ids
    }
}

/// Slot flags.
const CONFIGURED: u8 = 1;
/// In the previous assignment P.
const PREVIOUS: u8 = 2;
/// Reported by at least one member.
const ACTIVE: u8 = 4;
/// Reported more than once.
const DUPLICATED: u8 = 8;
/// In the next assignment (step 10 bookkeeping).
const NEXT: u8 = 16;

/// True for an item every holder must give up now: deleted (in P, no longer
/// configured) or duplicated (held by two members; KAFKA-9841 revokes every copy).
#[inline]
fn must_revoke(flags: u8) -> bool {
    flags & DUPLICATED != 0 || (flags & PREVIOUS != 0 && flags & CONFIGURED == 0)
}

/// One kind of work (connectors, or tasks) in one round. Kafka treats the two
/// kinds identically and independently, except where step 7 and step 8 look
/// at both (emptiness of a worker, whether anything is revoked).
struct KindRound<T: WorkItem> {
    universe: SlotUniverse,
    flags: Vec<u8>,
    /// Number of configured items.
    configured: usize,
    deleted: Vec<T>,
    duplicated: Vec<T>,
    lost: Vec<T>,
    created: Vec<T>,
    /// Lost work to hand out like created work (`lostAssignmentsToReassign`).
    lost_to_reassign: Vec<T>,
    /// Per member: held items that stay in `next` (owned minus mandatory revocations).
    kept: Vec<usize>,
    /// Per member: how many of those a load-balancing revocation took (always
    /// the head of the kept list).
    kept_revoked: Vec<usize>,
    /// Per member: the items appended to `next` — lost work dealt to a
    /// candidate, then new work — which is exactly the member's newly assigned
    /// list (`next − current`), in Kafka's order.
    assigned: Vec<Vec<T>>,
    /// Per member: `toRevoke` — deleted and duplicated copies, then load-balancing revocations.
    revoked: Vec<Vec<T>>,
    /// The slot of every held item, all members concatenated in input and
    /// holdings order; member `w`'s are `held_slots[held_start[w]..held_start[w + 1]]`.
    held_slots: Vec<u32>,
    held_start: Vec<usize>,
}

impl<T: WorkItem> KindRound<T> {
    /// Step 1: numbers every configured, reported and remembered item and
    /// flags the configured, previous, active and duplicated ones.
    fn new(configured_ranges: &[(u32, u32)], members: &[MemberHoldings], previous: &[T]) -> Self {
        let mut lists: Vec<&[T]> = members.iter().map(T::held).collect();
        lists.push(previous);
        let universe = SlotUniverse::new(configured_ranges, &lists);
        let mut flags = vec![0u8; universe.len()];
        universe.mark_ranges(configured_ranges, &mut flags, CONFIGURED);
        // Every item passed to the universe has a slot.
        let slot = |item: T| universe.slot(item.key()).unwrap_or_default();
        for &item in previous {
            flags[slot(item)] |= PREVIOUS;
        }
        let mut held_slots = Vec::with_capacity(lists.iter().map(|l| l.len()).sum());
        let mut held_start = Vec::with_capacity(members.len() + 1);
        held_start.push(0);
        for member in members {
            for &item in T::held(member) {
                let s = slot(item);
                let f = &mut flags[s];
                if *f & ACTIVE != 0 {
                    *f |= DUPLICATED;
                }
                *f |= ACTIVE;
                held_slots.push(s as u32);
            }
            held_start.push(held_slots.len());
        }
        let m = members.len();
        Self {
            universe,
            flags,
            configured: 0,
            deleted: Vec::new(),
            duplicated: Vec::new(),
            lost: Vec::new(),
            created: Vec::new(),
            lost_to_reassign: Vec::new(),
            kept: vec![0; m],
            kept_revoked: vec![0; m],
            assigned: vec![Vec::new(); m],
            revoked: vec![Vec::new(); m],
            held_slots,
            held_start,
        }
    }

    /// Member `w`'s held items with their slots, in holdings order.
    #[inline]
    fn held<'m>(
        &'m self,
        w: usize,
        member: &'m MemberHoldings,
    ) -> impl Iterator<Item = (T, usize)> + 'm {
        let slots = &self.held_slots[self.held_start[w]..self.held_start[w + 1]];
        T::held(member)
            .iter()
            .zip(slots)
            .map(|(&item, &slot)| (item, slot as usize))
    }

    #[inline]
    fn slot(&self, item: T) -> usize {
        self.universe.slot(item.key()).unwrap_or_default()
    }

    /// Whether any of `items` is reported by a member.
    fn any_active(&self, items: &[T]) -> bool {
        items.iter().any(|&item| {
            self.universe
                .slot(item.key())
                .is_some_and(|s| self.flags[s] & ACTIVE != 0)
        })
    }

    /// Step 2: P := active.
    fn replace_previous_with_active(&mut self) {
        for f in &mut self.flags {
            *f = if *f & ACTIVE != 0 {
                *f | PREVIOUS
            } else {
                *f & !PREVIOUS
            };
        }
    }

    /// Step 3: deleted = P − configured; duplicated; lost = P − active −
    /// deleted; created = configured − P − active. All sorted, as Kafka's
    /// `TreeSet`s are.
    fn classify(&mut self) {
        let mut configured = 0;
        let (mut deleted, mut duplicated, mut lost, mut created) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        self.universe.scan(
            &self.flags,
            |f| f != 0,
            |_, key, f| {
                let item = T::from_key(key);
                let is_configured = f & CONFIGURED != 0;
                let previous = f & PREVIOUS != 0;
                let active = f & ACTIVE != 0;
                if is_configured {
                    configured += 1;
                }
                if previous && !is_configured {
                    deleted.push(item);
                }
                if f & DUPLICATED != 0 {
                    duplicated.push(item);
                }
                if previous && !active && is_configured {
                    lost.push(item);
                }
                if is_configured && !previous && !active {
                    created.push(item);
                }
            },
        );
        self.configured = configured;
        self.deleted = deleted;
        self.duplicated = duplicated;
        self.lost = lost;
        self.created = created;
    }

    /// Steps 4–6: `toRevoke[w]` = owned(w) ∩ (deleted ∪ duplicated); `next[w]`
    /// = owned(w) − toRevoke[w], kept in holdings order (only its length is
    /// stored; the items are re-read from the holdings when needed).
    fn build_skeleton(&mut self, members: &[MemberHoldings]) {
        for (w, member) in members.iter().enumerate() {
            let mut kept = 0;
            let mut revoked = Vec::new();
            for (item, slot) in self.held(w, member) {
                if must_revoke(self.flags[slot]) {
                    revoked.push(item);
                } else {
                    kept += 1;
                }
            }
            self.kept[w] = kept;
            self.revoked[w] = revoked;
        }
    }

    /// The items of `next[w]` that come from the member's holdings, in order
    /// (before any load-balancing revocation).
    #[inline]
    fn kept_items<'m>(
        &'m self,
        w: usize,
        member: &'m MemberHoldings,
    ) -> impl Iterator<Item = (T, usize)> + 'm {
        self.held(w, member)
            .filter(move |&(_, slot)| !must_revoke(self.flags[slot]))
    }

    /// The current size of `next[w]`.
    #[inline]
    fn next_len(&self, w: usize) -> usize {
        self.kept[w] - self.kept_revoked[w] + self.assigned[w].len()
    }

    /// Step 7: lost work joins the new work of step 9.
    fn reassign_lost_as_new(&mut self) {
        self.lost_to_reassign = self.lost.clone();
    }

    /// Step 7.4: lost items, sorted, dealt round-robin over `candidates`
    /// starting from the first, appended to their next assignment.
    fn deal_lost_to(&mut self, candidates: &[usize]) {
        for (&item, &w) in self.lost.iter().zip(candidates.iter().cycle()) {
            self.assigned[w].push(item);
        }
    }

    /// `loadBalancingRevocations`: how many items each member must
    /// give up so that at most `total mod W` members keep `min + 1` and the
    /// rest keep `min`, where `total` counts *configured* items. Members are
    /// walked in input order: the first over-loaded ones take the `min + 1`
    /// allowances.
    fn revocation_plan(&self) -> Vec<usize> {
        let workers = self.kept.len();
        let mut plan = vec![0; workers];
        if workers == 0 {
            return plan;
        }
        let min = self.configured / workers;
        let extras = self.configured % workers;
        let at_min = (0..workers).filter(|&w| self.next_len(w) == min).count();
        let at_min_plus_one = (0..workers)
            .filter(|&w| self.next_len(w) == min + 1)
            .count();
        if at_min_plus_one == extras && at_min + at_min_plus_one == workers {
            return plan;
        }
        let mut given = 0;
        for (w, take) in plan.iter_mut().enumerate() {
            let load = self.next_len(w);
            if load <= min {
                continue;
            }
            let ceiling = if given < extras {
                given += 1;
                if load == min + 1 {
                    continue;
                }
                min + 1
            } else {
                min
            };
            *take = load - ceiling;
        }
        plan
    }

    /// Revokes, from each member, the head of its next assignment: first its
    /// kept holdings, then lost work just dealt to it. Revoking dealt work is
    /// what Kafka does too (revocation of items a worker does not hold, seen in
    /// the recorded conformance vectors):
    /// the item is listed as revoked and not as assigned.
    fn apply_revocations(&mut self, members: &[MemberHoldings], plan: &[usize]) {
        for (w, &take) in plan.iter().enumerate() {
            if take == 0 {
                continue;
            }
            let from_kept = take.min(self.kept[w]);
            let head: Vec<T> = self
                .kept_items(w, &members[w])
                .take(from_kept)
                .map(|(item, _)| item)
                .collect();
            self.revoked[w].extend(head);
            self.kept_revoked[w] = from_kept;
            let from_dealt = (take - from_kept).min(self.assigned[w].len());
            let dealt: Vec<T> = self.assigned[w].drain(..from_dealt).collect();
            self.revoked[w].extend(dealt);
        }
    }

    /// `assignConnectors` / `assignTasks` over `created` then
    /// `lost_to_reassign`: members sorted by (load, member id) once; the
    /// least-loaded level is raised one item per member, in that order, until
    /// the work runs out.
    fn assign_new_work(&mut self, roster: &Roster<'_>) {
        let workers = self.kept.len();
        let total = self.created.len() + self.lost_to_reassign.len();
        if workers == 0 || total == 0 {
            return;
        }
        let mut load: Vec<usize> = (0..workers).map(|w| self.next_len(w)).collect();
        let mut order: Vec<usize> = (0..workers).collect();
        order.sort_unstable_by_key(|&w| (load[w], roster.rank[w]));
        for assigned in &mut self.assigned {
            assigned.reserve(total / workers + 1);
        }
        let mut work = self.created.iter().chain(&self.lost_to_reassign).copied();
        // Loads along `order` stay non-decreasing: only a prefix of equal
        // loads is raised, by one, per pass. So the first member loaded above
        // the leader's level is found by moving `upto` forward.
        let mut upto = 0;
        'fill: loop {
            let level = load[order[0]];
            while upto < workers && load[order[upto]] <= level {
                upto += 1;
            }
            for &w in &order[..upto] {
                let Some(item) = work.next() else {
                    break 'fill;
                };
                self.assigned[w].push(item);
                load[w] += 1;
            }
        }
    }

    /// Step 10: P := ∪ next − revoked ∪ lost, sorted.
    fn next_previous_assignment(&mut self, members: &[MemberHoldings]) -> Vec<T> {
        for w in 0..members.len() {
            // The kept holdings minus the load-balancing head, by slot; the
            // NEXT bit does not affect `must_revoke`, so flags can be updated
            // in the same pass.
            let mut skip = self.kept_revoked[w];
            for i in self.held_start[w]..self.held_start[w + 1] {
                let slot = self.held_slots[i] as usize;
                if must_revoke(self.flags[slot]) {
                    continue;
                }
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                self.flags[slot] |= NEXT;
            }
            for i in 0..self.assigned[w].len() {
                let slot = self.slot(self.assigned[w][i]);
                self.flags[slot] |= NEXT;
            }
        }
        for w in 0..members.len() {
            for i in 0..self.revoked[w].len() {
                let s = self.slot(self.revoked[w][i]);
                self.flags[s] &= !NEXT;
            }
        }
        for i in 0..self.lost.len() {
            let s = self.slot(self.lost[i]);
            self.flags[s] |= NEXT;
        }
        let mut previous = Vec::with_capacity(self.flags.len());
        self.universe.scan(
            &self.flags,
            |f| f & NEXT != 0,
            |_, key, _| previous.push(T::from_key(key)),
        );
        previous
    }

    /// Everything revoked this round, sorted (the next round's PR).
    fn all_revoked(&self) -> Vec<T> {
        let mut all: Vec<T> = self.revoked.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}
