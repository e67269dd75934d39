//! The streams protocol's view in the trace (KIP-1071 has no rounds): the
//! target assignments the broker computed and each member's reconciliation
//! spans, checked against `CurrentAssignmentBuilder`'s order on the presets:
//! a moved task's old owner is UNREVOKED_TASKS from its next heartbeat after
//! the target until it acknowledges, the new owner UNRELEASED_TASKS from its
//! own heartbeat until its first regular heartbeat after the release, then
//! STABLE at the target epoch, running the task.

use engine::presets;
use engine::run::run;
use engine::trace::{
    EpochBumpCause, ItemState, MemberReconciliationState as S, ReconciliationSpan,
    TargetAssignmentEpoch, TargetTrigger, Trace,
};

/// `streams.heartbeat.interval.ms`.
const H: u64 = 5_000;
/// `streams.session.timeout.ms`.
const SESSION: u64 = 45_000;
/// A task commit on revocation (100 ms) and a coordinator round trip or two.
const ACK: u64 = 100 + 2 * 20;

fn streams_trace(id: &str, label: &str) -> Trace {
    let result = run(&presets::find(id).unwrap().scenario());
    for v in &result.variants {
        if v.label != label {
            assert!(
                v.trace.rounds.is_empty()
                    || (v.trace.target_assignments.is_empty()
                        && v.trace.member_reconciliation.is_empty()),
                "a classic column ({}) records no target assignments",
                v.label
            );
        }
    }
    result
        .variants
        .into_iter()
        .find(|v| v.label == label)
        .unwrap_or_else(|| panic!("no column {label}"))
        .trace
}

/// One member's spans, in time order.
fn spans_of(t: &Trace, member: u32) -> Vec<ReconciliationSpan> {
    let mut out: Vec<_> = t
        .member_reconciliation
        .iter()
        .filter(|s| s.member == member)
        .copied()
        .collect();
    out.sort_by_key(|s| s.start_ms);
    out
}

fn owner(t: &Trace, target: &TargetAssignmentEpoch, item: u32) -> Option<u32> {
    target
        .members
        .iter()
        .find(|m| t.list(m.active).contains(&item))
        .map(|m| m.member)
}

/// The member's first span in `state` from `after` on.
fn the_span(spans: &[ReconciliationSpan], state: S, after: u64) -> ReconciliationSpan {
    *spans
        .iter()
        .find(|s| s.state == state && s.start_ms >= after)
        .unwrap_or_else(|| panic!("no {state:?} span from {after} on"))
}

#[test]
fn every_members_spans_are_contiguous_and_end_where_the_member_leaves() {
    for (id, label) in [
        (
            "streams/streams-protocol-instance-joins",
            "streams protocol",
        ),
        (
            "streams/streams-protocol-instance-crashes",
            "streams + standby",
        ),
    ] {
        let t = streams_trace(id, label);
        assert!(!t.member_reconciliation.is_empty(), "{id}");
        for member in 0..t.members.len() as u32 {
            let spans = spans_of(&t, member);
            assert!(!spans.is_empty(), "{id}: member {member} has spans");
            for w in spans.windows(2) {
                assert_eq!(w[0].end_ms, w[1].start_ms, "{id}: member {member}");
                assert_ne!(
                    (w[0].state, w[0].member_epoch, w[0].target_epoch),
                    (w[1].state, w[1].member_epoch, w[1].target_epoch),
                    "{id}: a new span only where something changed"
                );
            }
            for s in &spans {
                assert!(s.start_ms < s.end_ms && s.end_ms <= t.end_ms);
                assert_eq!(t.members[member as usize].worker, s.worker);
                assert_eq!(s.revoking.len > 0, s.state == S::UnrevokedTasks, "{s:?}");
                assert_eq!(s.awaiting.len > 0, s.state == S::UnreleasedTasks, "{s:?}");
            }
        }
    }
}

#[test]
fn an_instance_joins_one_target_and_each_moved_task_goes_revoke_release_assign() {
    let t = streams_trace(
        "streams/streams-protocol-instance-joins",
        "streams protocol",
    );
    let epochs: Vec<i32> = t.target_assignments.iter().map(|a| a.epoch).collect();
    // 4.3: the group epoch starts at 1, the two initial members bump it to
    // 2 and 3; the joiner's heartbeat bumps it to 4 and computes at once.
    assert_eq!(epochs, [3, 4]);
    let (before, after) = (&t.target_assignments[0], &t.target_assignments[1]);
    assert_eq!(before.trigger, TargetTrigger::InitialDelay);
    assert_eq!(
        before.causes.iter().map(|c| c.cause).collect::<Vec<_>>(),
        [EpochBumpCause::MemberJoined; 2]
    );
    let joiner = t.members.iter().position(|m| m.worker == 2).unwrap() as u32;
    assert_eq!(after.trigger, TargetTrigger::MemberHeartbeat);
    assert_eq!(after.trigger_member, Some(joiner));
    assert_eq!(after.causes.len(), 1);
    assert_eq!(after.causes[0].cause, EpochBumpCause::MemberJoined);
    assert_eq!(after.causes[0].member, Some(joiner));
    assert_eq!(after.causes[0].group_epoch, 4);
    assert!((30_000..30_000 + 3_000).contains(&after.computed_ms));
    // Quota ceil(6/3) = 2: one task from each old owner.
    assert_eq!(after.moved, 2);
    let gained: Vec<u32> = {
        let m = after.members.iter().find(|m| m.member == joiner).unwrap();
        t.list(m.active).to_vec()
    };
    assert_eq!(gained.len(), 2);

    let new_spans = spans_of(&t, joiner);
    let pending = new_spans[0];
    assert_eq!(pending.state, S::UnreleasedTasks);
    assert_eq!(pending.start_ms, after.computed_ms);
    assert_eq!((pending.member_epoch, pending.target_epoch), (4, 4));
    assert_eq!(t.list(pending.awaiting), &gained[..]);
    let assigned = new_spans[1];
    assert_eq!(assigned.state, S::Stable);
    assert!(assigned.is_reconciled());
    assert_eq!(assigned.end_ms, t.end_ms);

    for &task in &gained {
        let old = owner(&t, before, task).unwrap();
        let spans = spans_of(&t, old);
        // Behind the new target until its next heartbeat: still STABLE at 3.
        let behind = spans
            .iter()
            .find(|s| s.start_ms == after.computed_ms)
            .unwrap();
        assert_eq!(
            (behind.state, behind.member_epoch, behind.target_epoch),
            (S::Stable, 3, 4)
        );
        assert!(!behind.is_reconciled());
        let revoking = the_span(&spans, S::UnrevokedTasks, after.computed_ms);
        assert_eq!(t.list(revoking.revoking), [task]);
        assert_eq!(revoking.start_ms, behind.end_ms);
        assert!(
            revoking.start_ms - after.computed_ms <= H,
            "at its next heartbeat"
        );
        assert_eq!(revoking.member_epoch, 3, "the epoch stays while revoking");
        assert!(
            revoking.end_ms - revoking.start_ms <= ACK,
            "revokes at its next poll and acknowledges at once"
        );
        let stable = spans
            .iter()
            .find(|s| s.start_ms == revoking.end_ms)
            .unwrap();
        assert_eq!((stable.state, stable.member_epoch), (S::Stable, 4));

        // The new owner gets it at its first regular heartbeat after the release.
        assert!(pending.end_ms >= revoking.end_ms);
        assert!(pending.end_ms - revoking.end_ms <= H);
        assert_eq!(
            (pending.end_ms - pending.start_ms) % H,
            0,
            "a regular heartbeat"
        );
        let runs_again = t
            .spans
            .iter()
            .filter(|s| s.worker == Some(2) && t.list(s.items).contains(&task))
            .filter(|s| matches!(s.state, ItemState::Restoring | ItemState::Running))
            .map(|s| s.start_ms)
            .min()
            .unwrap();
        assert!(runs_again >= pending.end_ms, "not before it is assigned");
    }
}

#[test]
fn a_crashed_member_stays_in_the_group_until_its_session_expires() {
    let t = streams_trace(
        "streams/streams-protocol-instance-crashes",
        "streams + standby",
    );
    let crashed = t.members.iter().position(|m| m.worker == 2).unwrap() as u32;
    let gone = spans_of(&t, crashed).last().unwrap().end_ms;
    // The session runs from its last heartbeat before the crash at 30 s.
    assert!(
        (30_000 + SESSION - H..=30_000 + SESSION).contains(&gone),
        "{gone}"
    );
    let last = t.target_assignments.last().unwrap();
    assert_eq!(last.causes.len(), 1);
    assert_eq!(last.causes[0].cause, EpochBumpCause::SessionTimeout);
    assert_eq!(last.causes[0].member, Some(crashed));
    assert_eq!(last.causes[0].at_ms, gone);
    assert!(last.members.iter().all(|m| m.member != crashed));
    // Standbys come from the group's config (streams.num.standby.replicas).
    assert!(t
        .target_assignments
        .iter()
        .all(|a| a.members.iter().any(|m| m.standby.len > 0)));
    // A survivor that holds a lost task as standby drops the standby first
    // (UNREVOKED_TASKS), then waits for its own process to release it
    // (UNRELEASED_TASKS) before it gets the active: one more heartbeat (4.1–4.3).
    let promoted = last
        .members
        .iter()
        .find_map(|m| {
            let spans = spans_of(&t, m.member);
            let i = spans
                .iter()
                .position(|s| s.state == S::UnrevokedTasks && s.start_ms >= last.computed_ms)?;
            Some(spans[i..i + 3].to_vec())
        })
        .expect("a standby promoted to active");
    assert_eq!(
        promoted.iter().map(|s| s.state).collect::<Vec<_>>(),
        [S::UnrevokedTasks, S::UnreleasedTasks, S::Stable]
    );
    assert_eq!(t.list(promoted[0].revoking), t.list(promoted[1].awaiting));
    assert_eq!(promoted[1].member_epoch, last.epoch);
    assert!(promoted[2].is_reconciled());
}
