//! Step 8 as releases before KAFKA-12495 (3.4.0) run it:
//! `performTaskRevocation` behind the `canRevoke` flag. The leader revokes
//! only when at least one worker is empty and one is not, over the *active*
//! totals (what members report), and never in the round after one that
//! revoked or waited for a delay. Before KAFKA-10413 (2.6.2, 2.7.1, 2.8.0)
//! it revoked one floor average in total, walking the loaded workers in
//! order; after, it cuts every worker down to the ceiling of the average.

use super::kind_round::KindRound;
use super::{IncrementalCooperativeAssignor, LoadBalancing};
use crate::connect::assignment::MemberHoldings;
use crate::connect::ids::{ConnectorId, TaskId};
use crate::connect::work_slots::WorkItem;

impl IncrementalCooperativeAssignor {
    /// `canRevoke` and `performTaskRevocation`.
    pub(super) fn legacy_revocation(
        &mut self,
        members: &[MemberHoldings],
        connectors: &mut KindRound<ConnectorId>,
        tasks: &mut KindRound<TaskId>,
    ) -> LoadBalancing {
        let delay_free = self.delay_ms == 0;
        self.can_revoke = delay_free && self.can_revoke;
        let workers = members.len();
        let loaded: Vec<bool> = (0..workers)
            .map(|w| connectors.current[w] + tasks.current[w] > 0)
            .collect();
        let existing = loaded.iter().filter(|&&l| l).count();
        let spread = self.fixes.kafka_10413_spread;
        let plans = || {
            (
                connectors.legacy_revocation_plan(&loaded, spread),
                tasks.legacy_revocation_plan(&loaded, spread),
            )
        };
        if !self.can_revoke {
            // The round after a revoking (or delayed) one may revoke again.
            self.can_revoke = delay_free;
            if !delay_free {
                return LoadBalancing::SuppressedByDelay;
            }
            let (c, t) = plans();
            return if c.iter().chain(&t).any(|&n| n > 0) {
                LoadBalancing::HeldBack
            } else {
                LoadBalancing::Balanced
            };
        }
        if existing == 0 || existing == workers {
            // No empty worker to make room for (or nothing runs at all);
            // `perform_assignment` calls it balanced if the new work evens
            // the load out.
            return if existing > 0 {
                LoadBalancing::NoEmptyWorker
            } else {
                LoadBalancing::Balanced
            };
        }
        let (connector_plan, task_plan) = plans();
        let revoking = connector_plan.iter().chain(&task_plan).any(|&n| n > 0);
        connectors.apply_revocations(members, &connector_plan);
        tasks.apply_revocations(members, &task_plan);
        self.can_revoke = !revoking;
        if revoking {
            LoadBalancing::Revoked
        } else {
            LoadBalancing::Balanced
        }
    }
}

impl<T: WorkItem> KindRound<T> {
    /// How many of its kept items each loaded worker gives up
    /// (`performTaskRevocation` for one kind): the floor and ceiling of the
    /// average of the *active* items over every member; with `spread`
    /// (KAFKA-10413) each loaded worker keeps at most the ceiling, before it
    /// one floor average in total is taken from the loaded workers in order,
    /// none below the floor. A worker gives up at most what it keeps.
    pub(super) fn legacy_revocation_plan(&self, loaded: &[bool], spread: bool) -> Vec<usize> {
        let workers = loaded.len();
        let mut plan = vec![0; workers];
        if workers == 0 {
            return plan;
        }
        let floor = self.active / workers;
        let ceil = floor + usize::from(!self.active.is_multiple_of(workers));
        let mut budget = floor;
        for w in (0..workers).filter(|&w| loaded[w]) {
            let count = self.current[w];
            let take = if spread {
                count.saturating_sub(ceil)
            } else {
                count.saturating_sub(floor).min(budget)
            };
            plan[w] = take.min(self.kept[w]);
            if !spread {
                budget -= take;
                if budget == 0 {
                    break;
                }
            }
        }
        plan
    }
}
