//! The assignor's working state for one run: processes, per-member task
//! counts, the two quotas and each process's lazily built member heap
//! (`StickyTaskAssignor.LocalState` and `ProcessState`).

use std::cmp::Ordering;

use super::iteration_order::IterationOrders;
use super::rules::{StandbyOwnerPick, StickyTaskAssignorVersion};
use super::{GroupSpec, StickyTaskAssignorError};
use crate::streams::java::JavaPriorityQueue;
use crate::streams_group::task_id::Topology;

/// Active or standby replica.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Active,
    Standby,
}

/// A quota of tasks per member that shrinks as members reach it
/// (`computeTasksPerMember`, `maybeUpdate{Active,Total}TasksPerMember`):
/// a member whose count becomes exactly the current quota is retired, with
/// its tasks, and the quota is recomputed over the rest. It never grows.
#[derive(Clone, Copy, Debug)]
pub(super) struct Quota {
    tasks: i64,
    members: i64,
    per_member: i64,
}

impl Quota {
    fn new(tasks: i64, members: i64) -> Self {
        Self {
            tasks,
            members,
            per_member: tasks_per_member(tasks, members),
        }
    }

    /// A member now has `count` tasks.
    pub(super) fn on_count(&mut self, count: u32) {
        let count = i64::from(count);
        if count == self.per_member {
            self.members -= 1;
            self.tasks -= count;
            self.per_member = tasks_per_member(self.tasks, self.members);
        }
    }

    pub(super) fn has_room(&self, count: u32) -> bool {
        i64::from(count) < self.per_member
    }
}

/// ceil(tasks / members), 0 without members (Java `int` arithmetic).
fn tasks_per_member(tasks: i64, members: i64) -> i64 {
    if members == 0 {
        return 0;
    }
    let floor = tasks / members;
    if tasks % members > 0 {
        floor + 1
    } else {
        floor
    }
}

/// The working state. Processes are numbered in the process map's
/// iteration order, members by their place in the group spec, tasks densely
/// ([`Topology`]).
pub(super) struct LocalState<'a> {
    pub(super) topology: &'a Topology,
    pick: StandbyOwnerPick,
    pub(super) num_standby_replicas: u32,
    member_process: Vec<usize>,
    member_tasks: Vec<u32>,
    process_members: Vec<Vec<usize>>,
    process_tasks: Vec<u32>,
    /// `held[process * tasks + task]`: the process holds the task (any role).
    held: Vec<bool>,
    /// `ProcessState.membersByLoad`: built at the first least-loaded pick in a
    /// process of 2+ members, dropped when a task goes to a named member.
    member_heaps: Vec<Option<JavaPriorityQueue<usize>>>,
    /// Per task: the member that had it as active (the last in members-map
    /// order, as `HashMap.put` overwrites).
    pub(super) prev_active_owner: Vec<Option<usize>>,
    /// Per task: the members that had it as standby, in candidate order.
    pub(super) prev_standby_owners: Vec<Vec<usize>>,
    pub(super) active_quota: Quota,
    pub(super) total_quota: Quota,
    pub(super) active: Vec<Vec<u32>>,
    pub(super) standby: Vec<Vec<u32>>,
}

impl<'a> LocalState<'a> {
    /// `StickyTaskAssignor#initialize`.
    pub(super) fn new(
        spec: &GroupSpec,
        topology: &'a Topology,
        version: StickyTaskAssignorVersion,
        orders: &IterationOrders,
    ) -> Result<Self, StickyTaskAssignorError> {
        let member_count = spec.members.len();
        let task_count = topology.task_count() as usize;
        let n = spec.num_standby_replicas;

        let mut member_process = vec![usize::MAX; member_count];
        let mut process_members = Vec::with_capacity(orders.processes.len());
        for (p, process) in orders.processes.iter().enumerate() {
            for &m in &process.members {
                member_process[m] = p;
            }
            process_members.push(process.members.clone());
        }
        if let Some(m) = member_process.iter().position(|&p| p == usize::MAX) {
            return Err(StickyTaskAssignorError::InconsistentOrder(
                spec.members[m].member_id.clone(),
            ));
        }

        let mut prev_active_owner = vec![None; task_count];
        // (member, is a previous standby, offset sum) per task.
        let mut candidates: Vec<Vec<(usize, bool, i64)>> = vec![Vec::new(); task_count];
        let ranks = version.ranks_standby_owners_by_offsets();
        for &m in &orders.members {
            let member = &spec.members[m];
            for task in &member.previous_active {
                if let Some(t) = topology.index_of(task) {
                    prev_active_owner[t as usize] = Some(m);
                }
            }
            for task in &member.previous_standby {
                if let Some(t) = topology.index_of(task) {
                    let offset = member.task_offsets.get(task).copied().unwrap_or(0);
                    candidates[t as usize].push((m, true, if ranks { offset } else { 0 }));
                }
            }
            if ranks {
                // KAFKA-20719: reported state on disk makes a weaker candidate.
                for (task, &offset) in &member.task_offsets {
                    if member.previous_standby.contains(task) {
                        continue;
                    }
                    if let Some(t) = topology.index_of(task) {
                        candidates[t as usize].push((m, false, offset));
                    }
                }
            }
        }
        let prev_standby_owners = candidates
            .into_iter()
            .map(|mut list| {
                if ranks {
                    // Stable: previous standbys first, then the larger offset sum.
                    crate::sort_by_key::sort_stable_by(&mut list, |a, b| {
                        b.1.cmp(&a.1).then(b.2.cmp(&a.2))
                    });
                }
                list.into_iter().map(|(m, _, _)| m).collect()
            })
            .collect();

        let active_tasks = i64::from(topology.task_count());
        let stateful: i64 = topology
            .subtopologies()
            .iter()
            .filter(|s| s.stateful)
            .map(|s| i64::from(s.partitions))
            .sum();
        let total_tasks = active_tasks + stateful * i64::from(n);
        let members = member_count as i64;
        let process_count = process_members.len();
        Ok(Self {
            topology,
            pick: version.standby_owner_pick(),
            num_standby_replicas: n,
            member_process,
            member_tasks: vec![0; member_count],
            process_members,
            process_tasks: vec![0; process_count],
            held: vec![false; process_count * task_count],
            member_heaps: (0..process_count).map(|_| None).collect(),
            prev_active_owner,
            prev_standby_owners,
            active_quota: Quota::new(active_tasks, members),
            total_quota: Quota::new(total_tasks, members),
            active: vec![Vec::new(); member_count],
            standby: vec![Vec::new(); member_count],
        })
    }

    pub(super) fn process_count(&self) -> usize {
        self.process_members.len()
    }

    pub(super) fn process_of(&self, member: usize) -> usize {
        self.member_process[member]
    }

    pub(super) fn member_tasks(&self, member: usize) -> u32 {
        self.member_tasks[member]
    }

    /// `ProcessState#load`: tasks so far per member (thread) of the process.
    pub(super) fn load(&self, process: usize) -> f64 {
        f64::from(self.process_tasks[process]) / self.process_members[process].len() as f64
    }

    /// The process heap's comparator: `Comparator.comparingDouble(ProcessState::load)`.
    pub(super) fn compare_load(&self, a: usize, b: usize) -> Ordering {
        self.load(a).total_cmp(&self.load(b))
    }

    pub(super) fn holds(&self, process: usize, task: u32) -> bool {
        self.held[process * self.topology.task_count() as usize + task as usize]
    }

    /// `ProcessState#addTask`: gives `task` to `member` and drops the
    /// process's member heap. Returns the member's new task count.
    pub(super) fn add_to_member(&mut self, member: usize, task: u32, role: Role) -> u32 {
        let process = self.member_process[member];
        self.member_heaps[process] = None;
        self.add_internal(process, member, task, role)
    }

    /// `ProcessState#addTaskToLeastLoadedMember`: gives `task` to the member
    /// with the fewest tasks, by the process's member heap (built now if
    /// missing; a single member needs none). Returns its new task count.
    pub(super) fn add_to_least_loaded_member(
        &mut self,
        process: usize,
        task: u32,
        role: Role,
    ) -> u32 {
        if let [only] = self.process_members[process][..] {
            return self.add_internal(process, only, task, role);
        }
        let counts = &self.member_tasks;
        let by_count = |a: usize, b: usize| counts[a].cmp(&counts[b]);
        let heap = self.member_heaps[process].get_or_insert_with(|| {
            let mut heap = JavaPriorityQueue::new();
            for &m in &self.process_members[process] {
                heap.offer(m, &mut { by_count });
            }
            heap
        });
        // Every process has at least one member, so the heap is never empty.
        let member = heap
            .poll(&mut { by_count })
            .unwrap_or(self.process_members[process][0]);
        let count = self.add_internal(process, member, task, role);
        let counts = &self.member_tasks;
        if let Some(heap) = self.member_heaps[process].as_mut() {
            heap.offer(member, &mut |a: usize, b: usize| counts[a].cmp(&counts[b]));
        }
        count
    }

    fn add_internal(&mut self, process: usize, member: usize, task: u32, role: Role) -> u32 {
        self.process_tasks[process] += 1;
        let tasks = self.topology.task_count() as usize;
        self.held[process * tasks + task as usize] = true;
        match role {
            Role::Active => self.active[member].push(task),
            Role::Standby => self.standby[member].push(task),
        }
        self.member_tasks[member] += 1;
        self.member_tasks[member]
    }

    /// `findPrevMemberWithLeastLoad` over the task's previous standby owners.
    /// `for_standby`: the pick is for a standby replica (some process already
    /// holds the task), where the version's rule applies; for an active task
    /// no process holds it yet and every version agrees.
    pub(super) fn pick_previous_standby_owner(
        &self,
        task: u32,
        for_standby: bool,
    ) -> Option<usize> {
        let candidates = &self.prev_standby_owners[task as usize];
        let first = *candidates.first()?;
        let held_by = |m: usize| for_standby && self.holds(self.member_process[m], task);
        let key = |m: usize| {
            (
                self.load(self.member_process[m]),
                f64::from(self.member_tasks[m]),
            )
        };
        let beats = |m: usize, best: usize| {
            let ((load, count), (best_load, best_count)) = (key(m), key(best));
            load < best_load && count < best_count
        };
        match self.pick {
            StandbyOwnerPick::Released => {
                let mut pick = first;
                for &m in &candidates[1..] {
                    if !held_by(m) && beats(m, pick) {
                        pick = m;
                    }
                }
                // The released code tests the *first* candidate's process.
                (!held_by(first)).then_some(pick)
            }
            StandbyOwnerPick::SkipHolders => {
                let mut pick = None;
                for &m in candidates {
                    if held_by(m) {
                        continue;
                    }
                    pick = match pick {
                        Some(best) if !beats(m, best) => Some(best),
                        _ => Some(m),
                    };
                }
                pick
            }
        }
    }
}
