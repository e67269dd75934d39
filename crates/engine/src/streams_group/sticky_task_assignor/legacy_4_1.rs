//! Kafka 4.1's broker `StickyTaskAssignor` (the early-access release of
//! KIP-1071): its policy, with deterministic ties.
//!
//! 4.1 shipped an earlier port of Streams' legacy sticky assignor:
//!
//! * one quota, ceil(active tasks / members), shrinking when a member's
//!   *process* reaches it (the code compares the process's active count);
//! * actives: previous active owner under quota, then a previous standby
//!   owner under quota, then the least-loaded process (tasks per thread) and
//!   its member with the fewest tasks, no quota check;
//! * a "task pairs" heuristic: prefer a process where the task forms a pair
//!   with its tasks that no process has yet;
//! * standbys: the previous active owner, then a previous standby owner, each
//!   only if its process has spare capacity (fewer tasks than threads) or is
//!   the least loaded, then the least-loaded process lacking the task.
//!
//! **Ties are not reproducible.** Kafka 4.1 walks `HashSet`s of freshly built
//! `Member` objects that have no `equals`/`hashCode`, so among equal loads
//! `Stream#min` returns whichever the identity hash codes put first: two calls
//! with the same input can return different placements. This model walks
//! tasks in (subtopology, partition) order and candidates in members-map order
//! and takes the first of equals. Its placements follow 4.1's policy and
//! invariants (every active task exactly once, no task twice on one process,
//! standbys only for stateful tasks), not Kafka's exact choice among ties.
//! There are no 4.1 conformance vectors for that reason.

use std::collections::HashSet;

use super::iteration_order::IterationOrders;
use super::rules::ProcessMapFill;
use super::{check_unique, GroupAssignment, GroupSpec, MemberAssignment, StickyTaskAssignorError};
use crate::streams_group::task_id::Topology;

/// Kafka 4.1's `StickyTaskAssignor`, with deterministic ties (module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StickyTaskAssignor41;

impl StickyTaskAssignor41 {
    /// Assigns `spec`'s members the tasks of `topology`.
    pub fn assign(
        &self,
        spec: &GroupSpec,
        topology: &Topology,
    ) -> Result<GroupAssignment, StickyTaskAssignorError> {
        check_unique(spec)?;
        let member_ids: Vec<&str> = spec.members.iter().map(|m| m.member_id.as_str()).collect();
        let process_ids: Vec<&str> = spec.members.iter().map(|m| m.process_id.as_str()).collect();
        let orders =
            IterationOrders::derive(&member_ids, &process_ids, ProcessMapFill::PutIfAbsent);
        let mut run = Run::new(spec, topology, &orders);
        run.assign_active()?;
        run.assign_standby(spec.num_standby_replicas);
        let to_tasks = |tasks: &[u32]| tasks.iter().map(|&t| topology.task_at(t)).collect();
        Ok(GroupAssignment {
            members: spec
                .members
                .iter()
                .enumerate()
                .map(|(m, member)| MemberAssignment {
                    member_id: member.member_id.clone(),
                    active: to_tasks(&run.active[m]),
                    standby: to_tasks(&run.standby[m]),
                })
                .collect(),
        })
    }
}

struct Run<'a> {
    topology: &'a Topology,
    /// Members in members-map order.
    member_order: Vec<usize>,
    member_process: Vec<usize>,
    member_tasks: Vec<u32>,
    process_members: Vec<Vec<usize>>,
    process_tasks: Vec<u32>,
    process_actives: Vec<u32>,
    held: Vec<HashSet<u32>>,
    prev_active_owner: Vec<Option<usize>>,
    prev_standby_owners: Vec<Vec<usize>>,
    /// `TaskPairs`: pairs of tasks already placed on one process.
    pairs: HashSet<(u32, u32)>,
    max_pairs: u64,
    quota_tasks: i64,
    quota_members: i64,
    quota: i64,
    active: Vec<Vec<u32>>,
    standby: Vec<Vec<u32>>,
}

fn ceil_div(tasks: i64, members: i64) -> i64 {
    if members == 0 {
        0
    } else {
        tasks / members + i64::from(tasks % members > 0)
    }
}

impl<'a> Run<'a> {
    fn new(spec: &GroupSpec, topology: &'a Topology, orders: &IterationOrders) -> Self {
        let n = spec.members.len();
        let tasks = topology.task_count() as usize;
        let mut member_process = vec![0; n];
        let mut process_members = Vec::new();
        for (p, process) in orders.processes.iter().enumerate() {
            for &m in &process.members {
                member_process[m] = p;
            }
            process_members.push(process.members.clone());
        }
        let mut prev_active_owner = vec![None; tasks];
        let mut prev_standby_owners = vec![Vec::new(); tasks];
        for &m in &orders.members {
            for task in &spec.members[m].previous_active {
                if let Some(t) = topology.index_of(task) {
                    prev_active_owner[t as usize] = Some(m);
                }
            }
            for task in &spec.members[m].previous_standby {
                if let Some(t) = topology.index_of(task) {
                    prev_standby_owners[t as usize].push(m);
                }
            }
        }
        let t = topology.task_count() as u64;
        let processes = process_members.len();
        Self {
            topology,
            member_order: orders.members.clone(),
            member_process,
            member_tasks: vec![0; n],
            process_members,
            process_tasks: vec![0; processes],
            process_actives: vec![0; processes],
            held: vec![HashSet::new(); processes],
            prev_active_owner,
            prev_standby_owners,
            pairs: HashSet::new(),
            max_pairs: t * t.saturating_sub(1) / 2,
            quota_tasks: t as i64,
            quota_members: n as i64,
            quota: ceil_div(t as i64, n as i64),
            active: vec![Vec::new(); n],
            standby: vec![Vec::new(); n],
        }
    }

    fn load(&self, p: usize) -> f64 {
        f64::from(self.process_tasks[p]) / self.process_members[p].len() as f64
    }

    fn under_quota(&self, m: usize) -> bool {
        i64::from(self.member_tasks[m]) < self.quota
    }

    /// `TaskPairs#hasNewPair`.
    fn has_new_pair(&self, task: u32, p: usize) -> bool {
        if self.pairs.len() as u64 == self.max_pairs {
            return false;
        }
        let held = &self.held[p];
        held.is_empty()
            || held
                .iter()
                .any(|&o| !self.pairs.contains(&(o.min(task), o.max(task))))
    }

    /// `findMemberWithLeastLoad`: among `candidates` (members, in order),
    /// prefer processes with a new task pair; take the least-loaded process
    /// (first of equals); then, if `same_member`, a previous standby owner of
    /// `task` in it, else its member with the fewest tasks.
    fn least_loaded(&self, candidates: &[usize], task: u32, same_member: bool) -> Option<usize> {
        let with_pair: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&m| self.has_new_pair(task, self.member_process[m]))
            .collect();
        let pool = if with_pair.is_empty() {
            candidates
        } else {
            &with_pair
        };
        let mut best: Option<usize> = None;
        for &m in pool {
            let p = self.member_process[m];
            if best.is_none_or(|b| self.load(p) < self.load(b)) {
                best = Some(p);
            }
        }
        let process = best?;
        if same_member {
            if let Some(&m) = self.prev_standby_owners[task as usize]
                .iter()
                .find(|&&m| self.member_process[m] == process)
            {
                return Some(m);
            }
        }
        let mut fewest: Option<usize> = None;
        for &m in &self.process_members[process] {
            if fewest.is_none_or(|f| self.member_tasks[m] < self.member_tasks[f]) {
                fewest = Some(m);
            }
        }
        fewest
    }

    /// `ProcessState#addTask` plus `updateHelpers`.
    fn add(&mut self, m: usize, task: u32, active: bool) {
        let p = self.member_process[m];
        for &o in &self.held[p] {
            if o != task {
                self.pairs.insert((o.min(task), o.max(task)));
            }
        }
        self.held[p].insert(task);
        self.process_tasks[p] += 1;
        self.member_tasks[m] += 1;
        if active {
            self.active[m].push(task);
            self.process_actives[p] += 1;
            // Kafka compares the *process's* active count with the quota.
            if i64::from(self.process_actives[p]) == self.quota {
                self.quota_members -= 1;
                self.quota_tasks -= self.quota;
                self.quota = ceil_div(self.quota_tasks, self.quota_members);
            }
        } else {
            self.standby[m].push(task);
        }
    }

    fn assign_active(&mut self) -> Result<(), StickyTaskAssignorError> {
        let mut remaining: Vec<u32> = (0..self.topology.task_count()).collect();
        remaining.retain(|&task| match self.prev_active_owner[task as usize] {
            Some(m) if self.under_quota(m) => {
                self.add(m, task, true);
                false
            }
            _ => true,
        });
        remaining.retain(|&task| {
            let owners = self.prev_standby_owners[task as usize].clone();
            match self.least_loaded(&owners, task, true) {
                Some(m) if self.under_quota(m) => {
                    self.add(m, task, true);
                    false
                }
                _ => true,
            }
        });
        let everyone = self.member_order.clone();
        for task in remaining {
            let m = self.least_loaded(&everyone, task, false).ok_or_else(|| {
                StickyTaskAssignorError::NoMembers {
                    task: self.topology.task_at(task),
                }
            })?;
            self.add(m, task, true);
        }
        Ok(())
    }

    /// `isLoadBalanced`: spare capacity, or no process less loaded.
    fn load_balanced(&self, p: usize) -> bool {
        let load = self.load(p);
        (self.process_tasks[p] as usize) < self.process_members[p].len()
            || (0..self.process_members.len()).all(|o| self.load(o) >= load)
    }

    fn assign_standby(&mut self, replicas: u32) {
        for task in (0..self.topology.task_count()).filter(|&t| self.topology.is_stateful(t)) {
            for _ in 0..replicas {
                let available: Vec<bool> = self.held.iter().map(|h| !h.contains(&task)).collect();
                if !available.contains(&true) {
                    break; // "There is not enough available capacity"
                }
                let mut pick = self.prev_active_owner[task as usize].filter(|&m| {
                    let p = self.member_process[m];
                    available[p] && self.load_balanced(p) && self.has_new_pair(task, p)
                });
                if pick.is_none() {
                    let member_process = &self.member_process;
                    self.prev_standby_owners[task as usize]
                        .retain(|&m| available[member_process[m]]);
                    let owners = self.prev_standby_owners[task as usize].clone();
                    pick = self
                        .least_loaded(&owners, task, true)
                        .filter(|&m| self.load_balanced(self.member_process[m]));
                }
                if pick.is_none() {
                    let members: Vec<usize> = self
                        .member_order
                        .iter()
                        .copied()
                        .filter(|&m| available[self.member_process[m]])
                        .collect();
                    pick = self.least_loaded(&members, task, false);
                }
                match pick {
                    Some(m) => self.add(m, task, false),
                    None => break,
                }
            }
        }
    }
}
