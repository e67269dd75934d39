//! The legacy `StickyTaskAssignor` (renamed `LegacyStickyTaskAssignor` in
//! 3.8): Kafka Streams' task assignor before 2.6, still selectable through
//! `internal.task.assignor.class`.
//!
//! It keeps every previous active task on its owner while the owner is
//! below its quota, then places the rest on previous standby holders, then on
//! the least loaded clients, avoiding task pairs already co-located. It never
//! asks for a probing rebalance and places no warmups.
//!
//! **Iteration order.** Kafka walks several `HashMap`s and `HashSet`s here
//! (previous owners by `TaskId`, candidate clients, unassigned tasks), so its
//! tie-breaking depends on Java hash codes and even on the JDK version
//! (`new HashSet<>(collection)` sizes its table differently before and after
//! JDK 19). This port walks those collections in sorted
//! order (`TaskId`, then `ProcessId`) instead, which is deterministic and
//! satisfies every expectation of Kafka's `LegacyStickyTaskAssignorTest`. Where Kafka's own result depends on hash order, the two can
//! differ in which of several equally good clients gets a task.

use std::collections::BTreeSet;

use crate::multiply_hash::MultiplyHashSet;

use super::assignment::{AssignmentConfigs, AssignmentError, StreamsAssignment};
use super::client_state::ClientState;
use super::ids::StreamsTaskId;
use super::model::{Indexed, Placement};
use super::TaskAssignor;

/// Kafka Streams' legacy `StickyTaskAssignor`.
#[derive(Clone, Copy, Debug, Default)]
pub struct StickyTaskAssignor {
    must_preserve_active_task_assignment: bool,
}

impl StickyTaskAssignor {
    /// The assignor as `internal.task.assignor.class` selects it.
    pub fn new() -> Self {
        Self::default()
    }

    /// The variant `FallbackPriorTaskAssignor` uses
    /// (`mustPreserveActiveTaskAssignment = true`): every previous active
    /// task returns to its owner, even beyond the owner's quota.
    pub fn preserving_active_tasks() -> Self {
        Self {
            must_preserve_active_task_assignment: true,
        }
    }
}

impl TaskAssignor for StickyTaskAssignor {
    fn assign(
        &self,
        clients: &[ClientState],
        all_tasks: &BTreeSet<StreamsTaskId>,
        stateful_tasks: &BTreeSet<StreamsTaskId>,
        configs: &AssignmentConfigs,
    ) -> Result<StreamsAssignment, AssignmentError> {
        let input = Indexed::new(clients, all_tasks, stateful_tasks)?;
        let mut run = Sticky::new(&input, self.must_preserve_active_task_assignment);
        run.assign_active();
        run.assign_standby(configs.num_standby_replicas);
        Ok(run.placement.into_assignment(&input, &[], false))
    }
}

struct Sticky {
    placement: Placement,
    client_count: u32,
    task_count: usize,
    stateful: Vec<u32>,
    must_preserve_active_task_assignment: bool,
    /// `previousActiveTaskAssignment`: task → previous owner. A task two
    /// clients claim goes to the later one, as repeated `HashMap.put`s do.
    previous_active: Vec<Option<u32>>,
    /// `previousStandbyTaskAssignment`: task → previous standby holders.
    previous_standby: Vec<Vec<u32>>,
    task_pairs: TaskPairs,
}

impl Sticky {
    fn new(input: &Indexed<'_>, must_preserve_active_task_assignment: bool) -> Self {
        let task_count = input.tasks.len();
        let mut previous_active = vec![None; task_count];
        let mut previous_standby = vec![Vec::new(); task_count];
        for (c, state) in input.clients.iter().enumerate() {
            for task in &state.previous_active {
                if let Some(t) = input.task_index(*task) {
                    previous_active[t as usize] = Some(c as u32);
                }
            }
            for task in &state.previous_standby {
                if let Some(t) = input.task_index(*task) {
                    previous_standby[t as usize].push(c as u32);
                }
            }
        }
        let task_count_u64 = task_count as u64;
        Self {
            placement: Placement::new(input.capacities()),
            client_count: input.client_count() as u32,
            task_count,
            stateful: input.stateful_tasks(),
            must_preserve_active_task_assignment,
            previous_active,
            previous_standby,
            task_pairs: TaskPairs {
                pairs: MultiplyHashSet::default(),
                max_pairs: task_count_u64 * task_count_u64.saturating_sub(1) / 2,
            },
        }
    }

    /// `assignActive`.
    fn assign_active(&mut self) {
        let total_capacity: u64 = self.placement.capacity.iter().map(|&c| u64::from(c)).sum();
        if total_capacity == 0 {
            return;
        }
        let tasks_per_thread = self.task_count as u64 / total_capacity;
        let mut assigned = vec![false; self.task_count];

        // First, give every previous active task back to its previous owner.
        for t in 0..self.task_count as u32 {
            let Some(owner) = self.previous_active[t as usize] else {
                continue;
            };
            if self.must_preserve_active_task_assignment
                || self.has_unfulfilled_quota(owner, tasks_per_thread)
            {
                self.assign_task(t, owner, true);
                assigned[t as usize] = true;
            }
        }

        // Then try clients that previously had the task as a standby.
        for t in 0..self.task_count as u32 {
            if assigned[t as usize] {
                continue;
            }
            let holders = self.previous_standby[t as usize].clone();
            if let Some(&client) = holders
                .iter()
                .find(|&&c| self.has_unfulfilled_quota(c, tasks_per_thread))
            {
                self.assign_task(t, client, true);
                assigned[t as usize] = true;
            }
        }

        // Finally, everything else in task order.
        let everyone: Vec<u32> = (0..self.client_count).collect();
        for t in 0..self.task_count as u32 {
            if !assigned[t as usize] {
                self.allocate_task_with_client_candidates(t, &everyone, true);
            }
        }
    }

    /// `assignStandby`: each replica of each stateful task to the best client
    /// that does not hold the task yet.
    fn assign_standby(&mut self, replicas: u32) {
        for i in 0..self.stateful.len() {
            let task = self.stateful[i];
            for _ in 0..replicas {
                let candidates: Vec<u32> = (0..self.client_count)
                    .filter(|&c| !self.placement.has_assigned(c, task))
                    .collect();
                if candidates.is_empty() {
                    // Kafka logs "Unable to assign … standby tasks" here.
                    break;
                }
                self.allocate_task_with_client_candidates(task, &candidates, false);
            }
        }
    }

    fn has_unfulfilled_quota(&self, client: u32, tasks_per_thread: u64) -> bool {
        (self.placement.active[client as usize].len() as u64)
            < u64::from(self.placement.capacity[client as usize]) * tasks_per_thread
    }

    fn assigned_tasks(&self, client: u32) -> impl Iterator<Item = u32> + '_ {
        self.placement.active[client as usize]
            .iter()
            .chain(&self.placement.standby[client as usize])
            .copied()
    }

    fn assign_task(&mut self, task: u32, client: u32, active: bool) {
        let others: Vec<u32> = self.assigned_tasks(client).collect();
        self.task_pairs.add_pairs(task, &others);
        if active {
            self.placement.active[client as usize].insert(task);
        } else {
            self.placement.standby[client as usize].insert(task);
        }
    }

    fn allocate_task_with_client_candidates(&mut self, task: u32, within: &[u32], active: bool) {
        if let Some(client) = self.find_client(task, within) {
            self.assign_task(task, client, active);
        }
    }

    /// `findClient`: the previous owner (or standby holder) unless it is
    /// full while others have room, else the least loaded candidate.
    fn find_client(&self, task: u32, within: &[u32]) -> Option<u32> {
        if within.len() == 1 {
            return Some(within[0]);
        }
        let Some(previous) = self.find_client_with_previous_assigned_task(task, within) else {
            return self.least_loaded(task, within);
        };
        if self.should_balance_load(previous) {
            let standby = self.find_least_loaded_client_with_previous_standby_task(task, within);
            return match standby {
                Some(standby) if !self.should_balance_load(standby) => Some(standby),
                _ => self.least_loaded(task, within),
            };
        }
        Some(previous)
    }

    fn should_balance_load(&self, client: u32) -> bool {
        self.reached_capacity(client) && self.has_clients_with_more_available_capacity(client)
    }

    fn reached_capacity(&self, client: u32) -> bool {
        self.placement.assigned_count(client) >= self.placement.capacity[client as usize] as usize
    }

    fn has_clients_with_more_available_capacity(&self, client: u32) -> bool {
        (0..self.client_count).any(|other| self.has_more_available_capacity_than(other, client))
    }

    /// `ClientState.hasMoreAvailableCapacityThan`: lower load, ties to the
    /// larger capacity.
    fn has_more_available_capacity_than(&self, client: u32, other: u32) -> bool {
        let this_load = self.placement.assigned_load(client);
        let other_load = self.placement.assigned_load(other);
        if this_load < other_load {
            true
        } else if this_load > other_load {
            false
        } else {
            self.placement.capacity[client as usize] > self.placement.capacity[other as usize]
        }
    }

    fn find_client_with_previous_assigned_task(&self, task: u32, within: &[u32]) -> Option<u32> {
        match self.previous_active[task as usize] {
            Some(previous) if within.contains(&previous) => Some(previous),
            _ => self.find_least_loaded_client_with_previous_standby_task(task, within),
        }
    }

    fn find_least_loaded_client_with_previous_standby_task(
        &self,
        task: u32,
        within: &[u32],
    ) -> Option<u32> {
        let holders = &self.previous_standby[task as usize];
        if holders.is_empty() {
            return None;
        }
        let constrained: Vec<u32> = holders
            .iter()
            .copied()
            .filter(|c| within.contains(c))
            .collect();
        self.least_loaded(task, &constrained)
    }

    fn least_loaded(&self, task: u32, clients: &[u32]) -> Option<u32> {
        self.find_least_loaded(task, clients, true)
            .or_else(|| self.find_least_loaded(task, clients, false))
    }

    /// `findLeastLoaded`: an empty client wins at once; otherwise the one
    /// with the most available capacity, preferring (when `check_task_pairs`)
    /// clients where the task would form a pair not seen before.
    fn find_least_loaded(&self, task: u32, clients: &[u32], check_task_pairs: bool) -> Option<u32> {
        let mut least_loaded: Option<u32> = None;
        for &client in clients {
            if self.placement.assigned_count(client) == 0 {
                return Some(client);
            }
            let better =
                least_loaded.is_none_or(|l| self.has_more_available_capacity_than(client, l));
            if better
                && (!check_task_pairs
                    || self
                        .task_pairs
                        .has_new_pair(task, self.assigned_tasks(client)))
            {
                least_loaded = Some(client);
            }
        }
        least_loaded
    }
}

/// `TaskPairs`: which tasks have already been placed on the same client.
/// There can be millions of pairs, so they are packed into `u64`s in a set
/// with a cheap deterministic hash.
struct TaskPairs {
    pairs: MultiplyHashSet<u64>,
    max_pairs: u64,
}

impl TaskPairs {
    fn pair(a: u32, b: u32) -> u64 {
        (u64::from(a.min(b)) << 32) | u64::from(a.max(b))
    }

    fn has_new_pair(&self, task: u32, assigned: impl Iterator<Item = u32>) -> bool {
        if self.pairs.len() as u64 == self.max_pairs {
            return false;
        }
        let mut assigned = assigned;
        assigned.any(|other| !self.pairs.contains(&Self::pair(task, other)))
    }

    fn add_pairs(&mut self, task: u32, assigned: &[u32]) {
        for &other in assigned {
            self.pairs.insert(Self::pair(other, task));
        }
    }
}
