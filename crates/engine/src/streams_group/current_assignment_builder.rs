//! Per-member reconciliation of a streams group, broker side
//! (`CurrentAssignmentBuilder#build`, Kafka 4.1–4.3), and the group's
//! per-process task ownership it reads (`StreamsGroup#maybeUpdateTaskProcessId`).
//!
//! There is no group-wide barrier: on each of its heartbeats a member moves
//! toward its target on its own. Tasks it must give up are revoked first (the
//! member stays at its epoch in `UNREVOKED_TASKS` and gets nothing new until
//! its heartbeat no longer reports them); a task it should get is withheld as
//! long as it is *unreleased*: for an active task, while any process still
//! holds it as active, or the member's own process holds it as standby or
//! warm-up; for a standby or warm-up, while the member's own process holds it
//! in any role. Ownership counts assigned tasks and pending revocations, and
//! changes only after a heartbeat's records are applied, so a member that
//! swaps a standby for the active of the same task needs one more heartbeat
//! (4.1–4.3; 4.4 promotes in place, which is not modelled here).
//!
//! Not modelled: the per-task assignment epochs of 4.2+ (`TasksTupleWithEpochs`,
//! used only to validate offset commits) and the `UNKNOWN` state.

use std::collections::BTreeSet;

use super::task_id::TaskId;

/// Active, standby and warm-up tasks (`TasksTuple`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TasksTuple {
    /// Active tasks.
    pub active: BTreeSet<TaskId>,
    /// Standby tasks.
    pub standby: BTreeSet<TaskId>,
    /// Warm-up tasks (never assigned by Kafka's assignors up to 4.4).
    pub warmup: BTreeSet<TaskId>,
}

impl TasksTuple {
    /// No task in any role.
    pub fn is_empty(&self) -> bool {
        self.active.is_empty() && self.standby.is_empty() && self.warmup.is_empty()
    }

    /// Some task of `other` is in `self` in the same role (`containsAny`).
    pub fn contains_any(&self, other: &TasksTuple) -> bool {
        !self.active.is_disjoint(&other.active)
            || !self.standby.is_disjoint(&other.standby)
            || !self.warmup.is_disjoint(&other.warmup)
    }
}

/// The broker's reconciliation state of a member (`MemberState`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemberState {
    /// Reconciled to its epoch's target, or nothing to do.
    #[default]
    Stable,
    /// Asked to revoke tasks; waits for a heartbeat that no longer reports them.
    UnrevokedTasks,
    /// At the target epoch, but some target tasks are still held elsewhere.
    UnreleasedTasks,
}

/// What the broker keeps of a member's reconciliation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberReconciliation {
    /// `memberEpoch`: the target epoch it has reconciled to (0 when joining).
    pub member_epoch: i32,
    /// Its state.
    pub state: MemberState,
    /// The tasks it is assigned now (what its heartbeat responses carry).
    pub assigned: TasksTuple,
    /// Tasks it was asked to revoke and still reports owning.
    pub pending_revocation: TasksTuple,
}

/// Who holds each task, by process id: every member's assigned tasks plus
/// its pending revocations (`StreamsGroup` `currentActiveTaskToProcessId`,
/// `currentStandbyTaskToProcessIds`, `currentWarmupTaskToProcessIds`).
///
/// Built once per heartbeat and then only read, so each role is a list of
/// `(task, process)` sorted by task (searched by bisection) rather than a map:
/// one copy of the sort instead of a B-tree per key and value type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskOwnership {
    /// One process per task: the last member listing it, as `put` leaves it.
    active: Vec<(TaskId, String)>,
    /// Every `(task, process)` listed, by task.
    standby: Vec<(TaskId, String)>,
    /// Every `(task, process)` listed, by task.
    warmup: Vec<(TaskId, String)>,
}

impl TaskOwnership {
    /// The ownership of a group whose members are `(process id, reconciliation)`.
    pub fn of<'a>(members: impl IntoIterator<Item = (&'a str, &'a MemberReconciliation)>) -> Self {
        let mut ownership = Self::default();
        for (process, member) in members {
            for tuple in [&member.assigned, &member.pending_revocation] {
                let roles = [
                    (&tuple.active, &mut ownership.active),
                    (&tuple.standby, &mut ownership.standby),
                    (&tuple.warmup, &mut ownership.warmup),
                ];
                for (tasks, pairs) in roles {
                    pairs.extend(tasks.iter().map(|t| (t.clone(), process.to_owned())));
                }
            }
        }
        for pairs in [
            &mut ownership.active,
            &mut ownership.standby,
            &mut ownership.warmup,
        ] {
            sort_by_task(pairs);
        }
        ownership.active = last_per_task(std::mem::take(&mut ownership.active));
        ownership
    }

    /// The process holding `task` as active, if any.
    pub fn active_process(&self, task: &TaskId) -> Option<&str> {
        holders(&self.active, task)
            .first()
            .map(|(_, process)| process.as_str())
    }

    fn holds_standby(&self, task: &TaskId, process: &str) -> bool {
        holders(&self.standby, task)
            .iter()
            .any(|(_, p)| p == process)
    }

    fn holds_warmup(&self, task: &TaskId, process: &str) -> bool {
        holders(&self.warmup, task)
            .iter()
            .any(|(_, p)| p == process)
    }
}

/// Sorts `(task, name)` pairs by task, stably: a task's names stay in
/// listing order. One comparator for every such list (one copy of the sort's
/// wrapper).
fn sort_by_task(pairs: &mut [(TaskId, String)]) {
    crate::sort_by_key::sort_stable_by(pairs, |a, b| a.0.cmp(&b.0));
}

/// `(task, name)` pairs as a list sorted by task with the last name listed
/// for each task: what collecting them into a map keyed by task leaves,
/// for a map built once and then only read ([`named_for`]).
pub(crate) fn last_name_per_task(mut pairs: Vec<(TaskId, String)>) -> Vec<(TaskId, String)> {
    sort_by_task(&mut pairs);
    last_per_task(pairs)
}

/// The name listed for `task` in a list from [`last_name_per_task`].
pub(crate) fn named_for<'a>(pairs: &'a [(TaskId, String)], task: &TaskId) -> Option<&'a str> {
    holders(pairs, task).first().map(|(_, name)| name.as_str())
}

/// The pairs of `task` in a list sorted by task.
fn holders<'a>(pairs: &'a [(TaskId, String)], task: &TaskId) -> &'a [(TaskId, String)] {
    let start = pairs.partition_point(|(t, _)| t < task);
    let len = pairs[start..].iter().take_while(|(t, _)| t == task).count();
    &pairs[start..start + len]
}

/// The last pair of each task in a list sorted (stably) by task.
fn last_per_task(pairs: Vec<(TaskId, String)>) -> Vec<(TaskId, String)> {
    let mut out: Vec<(TaskId, String)> = Vec::with_capacity(pairs.len());
    for pair in pairs {
        match out.last_mut() {
            Some(last) if last.0 == pair.0 => *last = pair,
            _ => out.push(pair),
        }
    }
    out
}

/// One heartbeat's reconciliation of a member (`CurrentAssignmentBuilder#build`).
///
/// `owned` is what the heartbeat reported (`None`: not sent, as when nothing
/// changed); `ownership` is the group's before this heartbeat's records apply.
pub fn reconcile(
    member: &MemberReconciliation,
    process_id: &str,
    target_epoch: i32,
    target: &TasksTuple,
    owned: Option<&TasksTuple>,
    ownership: &TaskOwnership,
) -> MemberReconciliation {
    let next = |epoch: i32| {
        Next {
            process_id,
            target_epoch,
            target,
            owned,
            ownership,
        }
        .compute(epoch, &member.assigned)
    };
    match member.state {
        MemberState::Stable if member.member_epoch == target_epoch => member.clone(),
        MemberState::Stable | MemberState::UnreleasedTasks => next(member.member_epoch),
        MemberState::UnrevokedTasks => match owned {
            Some(owned) if !owned.contains_any(&member.pending_revocation) => {
                next(member.member_epoch + 1)
            }
            _ => member.clone(),
        },
    }
}

struct Next<'a> {
    process_id: &'a str,
    target_epoch: i32,
    target: &'a TasksTuple,
    owned: Option<&'a TasksTuple>,
    ownership: &'a TaskOwnership,
}

impl Next<'_> {
    /// `computeNextAssignment` and `buildNewMember`.
    fn compute(&self, epoch: i32, current: &TasksTuple) -> MemberReconciliation {
        let me = self.process_id;
        let own = self.ownership;
        // A standby or warm-up is unreleased while this process holds the task at all.
        let held_here = |task: &TaskId| {
            own.active_process(task) == Some(me)
                || own.holds_standby(task, me)
                || own.holds_warmup(task, me)
        };
        let active = Diff::of(&current.active, &self.target.active, |task| {
            own.active_process(task).is_some()
                || own.holds_standby(task, me)
                || own.holds_warmup(task, me)
        });
        let standby = Diff::of(&current.standby, &self.target.standby, held_here);
        let warmup = Diff::of(&current.warmup, &self.target.warmup, held_here);
        let unreleased = active.unreleased || standby.unreleased || warmup.unreleased;
        let keep = TasksTuple {
            active: active.keep,
            standby: standby.keep,
            warmup: warmup.keep,
        };
        let revoke = TasksTuple {
            active: active.revoke,
            standby: standby.revoke,
            warmup: warmup.revoke,
        };
        let add = TasksTuple {
            active: active.add,
            standby: standby.add,
            warmup: warmup.add,
        };

        let must_revoke =
            !revoke.is_empty() && self.owned.is_none_or(|owned| owned.contains_any(&revoke));
        if must_revoke {
            return MemberReconciliation {
                member_epoch: epoch,
                state: MemberState::UnrevokedTasks,
                assigned: keep,
                pending_revocation: revoke,
            };
        }
        let state = if unreleased {
            MemberState::UnreleasedTasks
        } else {
            MemberState::Stable
        };
        let mut assigned = keep;
        assigned.active.extend(add.active);
        assigned.standby.extend(add.standby);
        assigned.warmup.extend(add.warmup);
        MemberReconciliation {
            member_epoch: self.target_epoch,
            state,
            assigned,
            pending_revocation: TasksTuple::default(),
        }
    }
}

/// One role's difference between the current and the target tasks
/// (`computeAssignmentDifference`).
struct Diff {
    /// current ∩ target
    keep: BTreeSet<TaskId>,
    /// current − target
    revoke: BTreeSet<TaskId>,
    /// target − current, unless unreleased
    add: BTreeSet<TaskId>,
    /// Some target task was withheld as unreleased.
    unreleased: bool,
}

impl Diff {
    fn of(
        current: &BTreeSet<TaskId>,
        target: &BTreeSet<TaskId>,
        is_unreleased: impl Fn(&TaskId) -> bool,
    ) -> Self {
        let mut add = BTreeSet::new();
        let mut unreleased = false;
        for task in target.difference(current) {
            if is_unreleased(task) {
                unreleased = true;
            } else {
                add.insert(task.clone());
            }
        }
        Self {
            keep: current.intersection(target).cloned().collect(),
            revoke: current.difference(target).cloned().collect(),
            add,
            unreleased,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(list: &[u32]) -> BTreeSet<TaskId> {
        list.iter().map(|&p| TaskId::new("0", p)).collect()
    }

    fn active(list: &[u32]) -> TasksTuple {
        TasksTuple {
            active: t(list),
            ..TasksTuple::default()
        }
    }

    fn stable(epoch: i32, tasks: TasksTuple) -> MemberReconciliation {
        MemberReconciliation {
            member_epoch: epoch,
            state: MemberState::Stable,
            assigned: tasks,
            pending_revocation: TasksTuple::default(),
        }
    }

    /// A task moves from A (process pA) to B (pB) without a group barrier:
    /// B waits in UNRELEASED_TASKS, A revokes, acknowledges, and B gets the
    /// task at its next heartbeat after that.
    #[test]
    fn a_task_moves_in_two_steps() {
        let target_epoch = 3;
        let (target_a, target_b) = (active(&[0]), active(&[1]));
        let mut a = stable(2, active(&[0, 1]));
        let mut b = MemberReconciliation::default();
        let group = |a: &MemberReconciliation, b: &MemberReconciliation| {
            TaskOwnership::of([("pA", a), ("pB", b)])
        };

        // B's heartbeat computed the target: 0_1 is still A's.
        b = reconcile(
            &b,
            "pB",
            target_epoch,
            &target_b,
            Some(&TasksTuple::default()),
            &group(&a, &b),
        );
        assert_eq!((b.state, b.member_epoch), (MemberState::UnreleasedTasks, 3));
        assert!(b.assigned.is_empty());

        // A's next heartbeat: revoke 0_1, keep its epoch, get nothing new.
        a = reconcile(&a, "pA", target_epoch, &target_a, None, &group(&a, &b));
        assert_eq!((a.state, a.member_epoch), (MemberState::UnrevokedTasks, 2));
        assert_eq!(a.assigned, active(&[0]));
        assert_eq!(a.pending_revocation, active(&[1]));

        // B again before A acknowledged: still unreleased (pending revocation counts).
        b = reconcile(&b, "pB", target_epoch, &target_b, None, &group(&a, &b));
        assert_eq!(b.state, MemberState::UnreleasedTasks);

        // A heartbeats without reporting owned tasks: nothing changes.
        assert_eq!(
            reconcile(&a, "pA", target_epoch, &target_a, None, &group(&a, &b)),
            a
        );
        // A still reporting 0_1: nothing changes either.
        let still = active(&[0, 1]);
        assert_eq!(
            reconcile(
                &a,
                "pA",
                target_epoch,
                &target_a,
                Some(&still),
                &group(&a, &b)
            ),
            a
        );
        // A's acknowledgement: it owns only 0_0 now.
        a = reconcile(
            &a,
            "pA",
            target_epoch,
            &target_a,
            Some(&active(&[0])),
            &group(&a, &b),
        );
        assert_eq!(a, stable(3, active(&[0])));

        // B's next heartbeat: 0_1 is free.
        b = reconcile(&b, "pB", target_epoch, &target_b, None, &group(&a, &b));
        assert_eq!(b, stable(3, active(&[1])));
    }

    /// 4.1–4.3: promoting one's own standby takes a revocation of the standby,
    /// an acknowledgement that still sees the standby (ownership updates
    /// after), and one more heartbeat.
    #[test]
    fn own_standby_to_active_costs_an_extra_heartbeat() {
        let mut m = stable(
            4,
            TasksTuple {
                standby: t(&[0]),
                ..TasksTuple::default()
            },
        );
        let target = active(&[0]);
        let own = |m: &MemberReconciliation| TaskOwnership::of([("pM", m)]);

        m = reconcile(&m, "pM", 5, &target, None, &own(&m));
        assert_eq!((m.state, m.member_epoch), (MemberState::UnrevokedTasks, 4));
        assert_eq!(m.pending_revocation.standby, t(&[0]));

        // The acknowledgement is evaluated against the ownership before it applies.
        let before = own(&m);
        m = reconcile(&m, "pM", 5, &target, Some(&TasksTuple::default()), &before);
        assert_eq!((m.state, m.member_epoch), (MemberState::UnreleasedTasks, 5));
        assert!(m.assigned.is_empty());

        m = reconcile(&m, "pM", 5, &target, None, &own(&m));
        assert_eq!(m, stable(5, active(&[0])));
    }

    #[test]
    fn free_tasks_are_assigned_at_once_and_another_threads_active_blocks() {
        let target = active(&[0, 1]);
        let other_thread = stable(5, active(&[1]));
        let m = MemberReconciliation::default();
        let group = TaskOwnership::of([("pM", &m), ("pM", &other_thread)]);
        let m = reconcile(&m, "pM", 5, &target, Some(&TasksTuple::default()), &group);
        // 0_0 is free; 0_1 is active on another thread of the same process.
        assert_eq!(m.state, MemberState::UnreleasedTasks);
        assert_eq!(m.assigned, active(&[0]));
        assert_eq!(m.member_epoch, 5);
    }

    #[test]
    fn other_processes_standbys_never_block_an_active() {
        let target = active(&[0]);
        let standby_elsewhere = stable(
            5,
            TasksTuple {
                standby: t(&[0]),
                ..TasksTuple::default()
            },
        );
        let m = MemberReconciliation::default();
        let group = TaskOwnership::of([("pM", &m), ("pX", &standby_elsewhere)]);
        let m = reconcile(&m, "pM", 5, &target, None, &group);
        assert_eq!(m, stable(5, active(&[0])));
    }

    #[test]
    fn a_revocation_already_done_by_the_client_is_skipped() {
        // The member's heartbeat reports it no longer owns 0_1.
        let m = stable(2, active(&[0, 1]));
        let group = TaskOwnership::of([("pM", &m)]);
        let m = reconcile(&m, "pM", 3, &active(&[0]), Some(&active(&[0])), &group);
        assert_eq!(m, stable(3, active(&[0])));
    }

    /// The ownership reads as the maps it replaced: the last member listing an
    /// active wins (`put`), standbys and warm-ups count every process.
    #[test]
    fn ownership_lists_read_as_the_maps_did() {
        let first = stable(1, active(&[0, 2]));
        let second = MemberReconciliation {
            pending_revocation: active(&[2]),
            assigned: TasksTuple {
                standby: t(&[0, 1]),
                warmup: t(&[3]),
                ..TasksTuple::default()
            },
            ..MemberReconciliation::default()
        };
        let third = stable(
            1,
            TasksTuple {
                standby: t(&[1]),
                ..TasksTuple::default()
            },
        );
        let own = TaskOwnership::of([("pA", &first), ("pB", &second), ("pC", &third)]);
        let task = |p| TaskId::new("0", p);
        assert_eq!(own.active_process(&task(0)), Some("pA"));
        assert_eq!(own.active_process(&task(2)), Some("pB"));
        assert_eq!(own.active_process(&task(1)), None);
        assert!(own.holds_standby(&task(1), "pB") && own.holds_standby(&task(1), "pC"));
        assert!(!own.holds_standby(&task(1), "pA") && !own.holds_standby(&task(2), "pB"));
        assert!(own.holds_warmup(&task(3), "pB") && !own.holds_warmup(&task(0), "pB"));
    }

    #[test]
    fn a_stable_member_at_the_target_epoch_is_left_alone() {
        let m = stable(3, active(&[0]));
        let group = TaskOwnership::of([("pM", &m)]);
        assert_eq!(reconcile(&m, "pM", 3, &active(&[1]), None, &group), m);
    }
}
