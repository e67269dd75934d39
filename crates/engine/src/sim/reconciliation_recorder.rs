//! Records the streams protocol's view as a run goes: the group epoch's
//! bumps, each target assignment, and each member's reconciliation spans
//! (the trace's [`TargetAssignmentEpoch`]s and [`ReconciliationSpan`]s).
//! The simulator says what the broker did; this only keeps the record.

use std::collections::BTreeMap;

use super::timeline::ItemPool;
use crate::trace::{
    EpochBump, EpochBumpCause, ItemList, MemberReconciliationState, ReconciliationSpan,
    TargetAssignmentEpoch, TargetMember, TargetTrigger,
};

/// Who a broker member is in the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemberRef {
    /// Index into the trace's members.
    pub(crate) member: u32,
    pub(crate) worker: u32,
    pub(crate) thread: u32,
}

/// A member's reconciliation as the broker holds it after a heartbeat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemberView {
    pub(crate) state: MemberReconciliationState,
    pub(crate) member_epoch: i32,
    pub(crate) target_epoch: i32,
    /// Item indices, sorted.
    pub(crate) revoking: Vec<u32>,
    /// Item indices, sorted.
    pub(crate) awaiting: Vec<u32>,
}

/// One member's target: its item indices, sorted.
pub(crate) struct MemberTarget {
    pub(crate) member_id: String,
    pub(crate) active: Vec<u32>,
    pub(crate) standby: Vec<u32>,
}

#[derive(Debug)]
struct Open {
    view: MemberView,
    since: u64,
}

/// The record so far.
#[derive(Debug, Default)]
pub(crate) struct ReconciliationRecorder {
    targets: Vec<TargetAssignmentEpoch>,
    spans: Vec<ReconciliationSpan>,
    /// Member id → who it is (its latest membership).
    members: BTreeMap<String, MemberRef>,
    /// Member id → its open span.
    open: BTreeMap<String, Open>,
    /// Bumps since the last target.
    bumps: Vec<EpochBump>,
}

impl ReconciliationRecorder {
    /// A member joined the broker's table as `who`.
    pub(crate) fn joined(&mut self, member_id: &str, who: MemberRef) {
        self.members.insert(member_id.to_string(), who);
    }

    /// Who a member is, when it ever joined.
    pub(crate) fn member(&self, member_id: &str) -> Option<MemberRef> {
        self.members.get(member_id).copied()
    }

    /// The group epoch was bumped to `group_epoch`.
    pub(crate) fn bumped(
        &mut self,
        at_ms: u64,
        group_epoch: i32,
        cause: EpochBumpCause,
        member_id: &str,
    ) {
        let member = self.member(member_id).map(|m| m.member);
        self.bumps.push(EpochBump {
            at_ms,
            group_epoch,
            cause,
            member,
        });
    }

    /// The broker computed the target of `epoch`.
    pub(crate) fn target_computed(
        &mut self,
        pool: &mut ItemPool,
        at_ms: u64,
        epoch: i32,
        trigger: Option<&str>,
        targets: &[MemberTarget],
        moved: u32,
    ) {
        let members = targets
            .iter()
            .filter_map(|t| {
                let who = self.member(&t.member_id)?;
                Some(TargetMember {
                    member: who.member,
                    worker: who.worker,
                    thread: who.thread,
                    active: push_list(pool, &t.active),
                    standby: push_list(pool, &t.standby),
                })
            })
            .collect();
        let (trigger, trigger_member) = match trigger {
            Some(id) => (
                TargetTrigger::MemberHeartbeat,
                self.member(id).map(|m| m.member),
            ),
            None => (TargetTrigger::InitialDelay, None),
        };
        self.targets.push(TargetAssignmentEpoch {
            epoch,
            computed_ms: at_ms,
            trigger,
            trigger_member,
            causes: std::mem::take(&mut self.bumps),
            members,
            moved,
        });
    }

    /// The member's reconciliation is `view` from `at_ms` on.
    pub(crate) fn member_is(
        &mut self,
        pool: &mut ItemPool,
        at_ms: u64,
        member_id: &str,
        view: MemberView,
    ) {
        if self.open.get(member_id).is_some_and(|o| o.view == view) {
            return;
        }
        self.close(pool, member_id, at_ms);
        self.open
            .insert(member_id.to_string(), Open { view, since: at_ms });
    }

    /// The member left the broker's table at `at_ms`.
    pub(crate) fn member_gone(&mut self, pool: &mut ItemPool, member_id: &str, at_ms: u64) {
        self.close(pool, member_id, at_ms);
    }

    fn close(&mut self, pool: &mut ItemPool, member_id: &str, at_ms: u64) {
        let Some(open) = self.open.remove(member_id) else {
            return;
        };
        let Some(who) = self.member(member_id) else {
            return;
        };
        if at_ms <= open.since {
            return;
        }
        let v = open.view;
        self.spans.push(ReconciliationSpan {
            worker: who.worker,
            member: who.member,
            thread: who.thread,
            state: v.state,
            start_ms: open.since,
            end_ms: at_ms,
            member_epoch: v.member_epoch,
            target_epoch: v.target_epoch,
            revoking: push_list(pool, &v.revoking),
            awaiting: push_list(pool, &v.awaiting),
        });
    }

    /// Closes every open span at `end_ms` and returns the record.
    pub(crate) fn finish(
        mut self,
        pool: &mut ItemPool,
        end_ms: u64,
    ) -> (Vec<TargetAssignmentEpoch>, Vec<ReconciliationSpan>) {
        let open: Vec<String> = self.open.keys().cloned().collect();
        for id in open {
            self.close(pool, &id, end_ms);
        }
        (self.targets, self.spans)
    }
}

fn push_list(pool: &mut ItemPool, items: &[u32]) -> ItemList {
    if items.is_empty() {
        ItemList::EMPTY
    } else {
        pool.push(items)
    }
}
