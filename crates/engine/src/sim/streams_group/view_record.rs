//! What the streams group's view in the trace records at the points the
//! client and timers see the broker act: epoch bumps, target assignments
//! and each member's reconciliation state (`crate::sim::reconciliation_recorder`).

use std::collections::BTreeSet;

use super::coordinator::TargetComputed;
use super::{StreamsGroupSimulation, Th};
use crate::sim::reconciliation_recorder::{MemberRef, MemberTarget, MemberView};
use crate::streams_group::current_assignment_builder::MemberState;
use crate::trace::{EpochBumpCause, MemberReconciliationState};

impl StreamsGroupSimulation {
    /// A member joined as the newest entry of the trace's member table.
    pub(super) fn record_join(&mut self, th: Th, member_id: &str) {
        let member = self.recorder.members.len().saturating_sub(1) as u32;
        self.recorder.reconciliation.joined(
            member_id,
            MemberRef {
                member,
                worker: th.lane,
                thread: th.thread,
            },
        );
    }

    /// The group epoch is `group_epoch` now, because of `cause`; a member
    /// that left or was fenced is out of the broker's table.
    pub(super) fn record_bump(&mut self, member_id: &str, group_epoch: i32, cause: EpochBumpCause) {
        let now = self.driver.now();
        let r = &mut self.recorder;
        r.reconciliation.bumped(now, group_epoch, cause, member_id);
        if cause != EpochBumpCause::MemberJoined {
            r.reconciliation.member_gone(&mut r.pool, member_id, now);
        }
    }

    /// The broker computed `c` on `trigger`'s heartbeat (`None`: the
    /// initial-delay timer); every member's view moves to the new epoch.
    pub(super) fn record_target(&mut self, c: &TargetComputed, trigger: Option<&str>) {
        let now = self.driver.now();
        let targets: Vec<MemberTarget> = c
            .targets
            .iter()
            .map(|(member_id, t)| MemberTarget {
                member_id: member_id.clone(),
                active: self.indices(&t.active).into_iter().collect(),
                standby: self.indices(&t.standby).into_iter().collect(),
            })
            .collect();
        let r = &mut self.recorder;
        r.reconciliation.target_computed(
            &mut r.pool,
            now,
            c.epoch,
            trigger,
            &targets,
            c.moved as u32,
        );
        for t in &targets {
            self.record_member(&t.member_id);
        }
    }

    /// The member's reconciliation as the broker holds it now.
    pub(super) fn record_member(&mut self, member_id: &str) {
        let Some(rec) = self.coordinator.reconciliation(member_id) else {
            return;
        };
        let target = self
            .coordinator
            .target_of(member_id)
            .cloned()
            .unwrap_or_default();
        let revoking: BTreeSet<u32> = self.indices(
            &rec.pending_revocation
                .active
                .union(&rec.pending_revocation.standby)
                .cloned()
                .collect(),
        );
        let state = match rec.state {
            MemberState::Stable => MemberReconciliationState::Stable,
            MemberState::UnrevokedTasks => MemberReconciliationState::UnrevokedTasks,
            MemberState::UnreleasedTasks => MemberReconciliationState::UnreleasedTasks,
        };
        let awaiting: BTreeSet<u32> = if state == MemberReconciliationState::UnreleasedTasks {
            let active = &target.active - &rec.assigned.active;
            let standby = &target.standby - &rec.assigned.standby;
            self.indices(&active.union(&standby).cloned().collect())
        } else {
            BTreeSet::new()
        };
        let view = MemberView {
            state,
            member_epoch: rec.member_epoch,
            target_epoch: self.coordinator.assignment_epoch(),
            revoking: revoking.into_iter().collect(),
            awaiting: awaiting.into_iter().collect(),
        };
        let now = self.driver.now();
        let r = &mut self.recorder;
        r.reconciliation
            .member_is(&mut r.pool, now, member_id, view);
    }
}
