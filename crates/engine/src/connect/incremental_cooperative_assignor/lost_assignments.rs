//! Step 7 of a round: `handleLostAssignments` and `resetDelay`. Lost work is
//! reassigned at once, dealt to the candidate workers when the scheduled
//! rebalance delay (`scheduled.rebalance.max.delay.ms`) expires, or held back
//! until then (KIP-415, KAFKA-9184, KAFKA-9848, KAFKA-10413, KAFKA-15693;
//! each rule as the release the assignor models has it, `AssignorFixes`).

use super::kind_round::KindRound;
use super::roster::Roster;
use super::{IncrementalCooperativeAssignor, LostHandling};
use crate::connect::assignment::MemberHoldings;
use crate::connect::ids::{ConnectorId, TaskId};
use crate::connect::java_hash::hash_set_iteration_order;
use crate::connect::work_slots::WorkItem;

impl IncrementalCooperativeAssignor {
    /// `handleLostAssignments`. Deals lost work straight to
    /// candidate workers, or marks it for reassignment as new work, or
    /// postpones it behind the single scheduled deadline.
    pub(super) fn handle_lost_assignments(
        &mut self,
        now: i64,
        members: &[MemberHoldings],
        roster: &Roster<'_>,
        connectors: &mut KindRound<ConnectorId>,
        tasks: &mut KindRound<TaskId>,
    ) -> LostHandling {
        let fixes = self.fixes;
        let nothing_lost = connectors.lost.is_empty() && tasks.lost.is_empty();
        // 7.1: a delay only outlives a round while something is lost, or right
        // after a revoking round (the backoff, KAFKA-12495).
        if nothing_lost && !(fixes.kafka_12495_backoff && self.revoked_in_previous) {
            if !fixes.kafka_9184_reset_delay && self.delay_ms != 0 {
                // Before KAFKA-9184 nothing cleared it: the last delay goes
                // out again, and every member rejoins when it runs out.
                return LostHandling::StaleDelayKept;
            }
            self.reset_delay();
            return LostHandling::NothingLost;
        }
        // 7.2: lost work but nobody left and no deadline: the last assignment
        // was never delivered, so there is nothing to wait for (KAFKA-9848).
        if fixes.kafka_9848_generation_check
            && self.scheduled_rebalance_ms <= 0
            && roster.contains_all(&self.previous_members)
        {
            connectors.reassign_lost_as_new();
            tasks.reassign_lost_as_new();
            return LostHandling::ReassignedNoDeparture;
        }
        // 7.3: KAFKA-15693, delays disabled.
        if fixes.kafka_15693_zero_delay && self.max_delay_ms == 0 {
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
                // Before KAFKA-10413 the first candidate present takes it all.
                let dealt_to = if fixes.kafka_10413_spread {
                    &candidates[..]
                } else {
                    &candidates[..1]
                };
                connectors.deal_lost_to(dealt_to);
                tasks.deal_lost_to(dealt_to);
                LostHandling::DealtToCandidates {
                    candidates: dealt_to
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
        // assignment is empty becomes a candidate (before KAFKA-12495, whose
        // held work minus deleted work is empty: a duplicated copy counts).
        // Kafka gathers them in a fresh HashSet<String> and appends that to
        // its insertion-ordered set.
        let holds_work = |w: usize| -> bool {
            if fixes.kafka_12495_backoff {
                connectors.kept[w] + tasks.kept[w] > 0
            } else {
                connectors.current[w] + tasks.current[w] > 0
            }
        };
        let empty: Vec<&str> = (0..members.len())
            .filter(|&w| !holds_work(w))
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
}

impl<T: WorkItem> KindRound<T> {
    /// Step 7: lost work joins the new work of step 9.
    pub(super) fn reassign_lost_as_new(&mut self) {
        self.lost_to_reassign = self.lost.clone();
    }

    /// Step 7.4: lost items, sorted, dealt round-robin over `candidates`
    /// starting from the first, appended to their next assignment.
    pub(super) fn deal_lost_to(&mut self, candidates: &[usize]) {
        for (&item, &w) in self.lost.iter().zip(candidates.iter().cycle()) {
            self.assigned[w].push(item);
        }
    }
}
