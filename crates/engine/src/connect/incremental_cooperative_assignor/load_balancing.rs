//! Step 8 of a round: `performLoadBalancingRevocations` and
//! `loadBalancingRevocations`, with the consecutive-revocation backoff of
//! KAFKA-12495. Runs only when no delay is pending.

use super::kind_round::KindRound;
use super::{IncrementalCooperativeAssignor, LoadBalancing};
use crate::connect::assignment::MemberHoldings;
use crate::connect::ids::{ConnectorId, TaskId};
use crate::connect::work_slots::WorkItem;

impl IncrementalCooperativeAssignor {
    /// `performLoadBalancingRevocations`: load-balancing revocations over the configured
    /// totals, with the consecutive-revocation backoff (KAFKA-12495).
    pub(super) fn load_balance(
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

impl<T: WorkItem> KindRound<T> {
    /// `loadBalancingRevocations`: how many items each member must
    /// give up so that at most `total mod W` members keep `min + 1` and the
    /// rest keep `min`, where `total` counts *configured* items. Members are
    /// walked in input order: the first over-loaded ones take the `min + 1`
    /// allowances.
    pub(super) fn revocation_plan(&self) -> Vec<usize> {
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
    pub(super) fn apply_revocations(&mut self, members: &[MemberHoldings], plan: &[usize]) {
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
}
