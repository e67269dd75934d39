//! Dense working form shared by the assignors: clients as indices in
//! `ProcessId` order, tasks as indices in `TaskId` order, and Kafka's mutable
//! "assigned" half of `ClientState`.

use std::collections::BTreeSet;

use super::assignment::{AssignmentError, ClientAssignment, StreamsAssignment};
use super::client_state::ClientState;
use super::ids::StreamsTaskId;
use super::java::spread;

/// Validated input with dense indices. Client index order is `ProcessId`
/// order and task index order is `TaskId` order, so comparing indices
/// compares ids.
pub(super) struct Indexed<'a> {
    /// Clients sorted by `ProcessId`.
    pub(super) clients: Vec<&'a ClientState>,
    /// Every task, sorted.
    pub(super) tasks: Vec<StreamsTaskId>,
    /// Per task index: is it stateful?
    pub(super) stateful: Vec<bool>,
}

impl<'a> Indexed<'a> {
    pub(super) fn new(
        clients: &'a [ClientState],
        all_tasks: &BTreeSet<StreamsTaskId>,
        stateful_tasks: &BTreeSet<StreamsTaskId>,
    ) -> Result<Self, AssignmentError> {
        if let Some(unknown) = stateful_tasks.difference(all_tasks).next() {
            return Err(AssignmentError::UnknownStatefulTask(*unknown));
        }
        if clients.is_empty() && !all_tasks.is_empty() {
            return Err(AssignmentError::NoClients);
        }
        let mut sorted: Vec<&ClientState> = clients.iter().collect();
        crate::sort_by_key::sort_stable_by_key(&mut sorted, |c| c.process_id);
        for pair in sorted.windows(2) {
            if pair[0].process_id == pair[1].process_id {
                return Err(AssignmentError::DuplicateProcessId(pair[0].process_id));
            }
        }
        if let Some(zero) = sorted.iter().find(|c| c.capacity == 0) {
            return Err(AssignmentError::ZeroCapacity(zero.process_id));
        }
        let tasks: Vec<StreamsTaskId> = all_tasks.iter().copied().collect();
        let stateful = tasks.iter().map(|t| stateful_tasks.contains(t)).collect();
        Ok(Self {
            clients: sorted,
            tasks,
            stateful,
        })
    }

    pub(super) fn client_count(&self) -> usize {
        self.clients.len()
    }

    /// The index of `task`, if it is one of the tasks to assign.
    pub(super) fn task_index(&self, task: StreamsTaskId) -> Option<u32> {
        self.tasks.binary_search(&task).ok().map(|i| i as u32)
    }

    /// Stateful task indices in `TaskId` order.
    pub(super) fn stateful_tasks(&self) -> Vec<u32> {
        (0..self.tasks.len() as u32)
            .filter(|&t| self.stateful[t as usize])
            .collect()
    }

    /// Stateless task indices in `TaskId` order.
    pub(super) fn stateless_tasks(&self) -> Vec<u32> {
        (0..self.tasks.len() as u32)
            .filter(|&t| !self.stateful[t as usize])
            .collect()
    }

    pub(super) fn capacities(&self) -> Vec<u32> {
        self.clients.iter().map(|c| c.capacity).collect()
    }

    /// Per client, `HashMap.hash(processId.hashCode())`.
    pub(super) fn spread_hashes(&self) -> Vec<u32> {
        self.clients
            .iter()
            .map(|c| spread(c.process_id.java_hash_code()))
            .collect()
    }
}

/// The tasks assigned so far: Kafka's `ClientState.assignedActiveTasks` and
/// `assignedStandbyTasks` (both `TreeSet`s, so iteration is `TaskId` order).
#[derive(Clone, Debug)]
pub(super) struct Placement {
    pub(super) capacity: Vec<u32>,
    pub(super) active: Vec<BTreeSet<u32>>,
    pub(super) standby: Vec<BTreeSet<u32>>,
}

impl Placement {
    pub(super) fn new(capacity: Vec<u32>) -> Self {
        let n = capacity.len();
        Self {
            capacity,
            active: vec![BTreeSet::new(); n],
            standby: vec![BTreeSet::new(); n],
        }
    }

    /// `assignedTaskCount()`: actives plus standbys (warmups included).
    pub(super) fn assigned_count(&self, client: u32) -> usize {
        self.active[client as usize].len() + self.standby[client as usize].len()
    }

    /// `assignedTaskLoad()`: assigned tasks per thread, as a Java double.
    pub(super) fn assigned_load(&self, client: u32) -> f64 {
        self.assigned_count(client) as f64 / f64::from(self.capacity[client as usize])
    }

    /// `activeTaskLoad()`: active tasks per thread, as a Java double.
    pub(super) fn active_load(&self, client: u32) -> f64 {
        self.active[client as usize].len() as f64 / f64::from(self.capacity[client as usize])
    }

    /// `hasAssignedTask(task)`: active or standby.
    pub(super) fn has_assigned(&self, client: u32, task: u32) -> bool {
        self.active[client as usize].contains(&task)
            || self.standby[client as usize].contains(&task)
    }

    pub(super) fn has_standby(&self, client: u32, task: u32) -> bool {
        self.standby[client as usize].contains(&task)
    }

    /// Builds the public result. `warmups[c]` are the standby copies of
    /// client `c` that are warmups rather than hot standbys.
    pub(super) fn into_assignment(
        self,
        input: &Indexed<'_>,
        warmups: &[BTreeSet<u32>],
        probing_rebalance_needed: bool,
    ) -> StreamsAssignment {
        let task = |t: &u32| input.tasks[*t as usize];
        let clients = input
            .clients
            .iter()
            .enumerate()
            .map(|(c, state)| {
                let mut assignment = ClientAssignment::new(state.process_id);
                assignment.active = self.active[c].iter().map(task).collect();
                for t in &self.standby[c] {
                    if warmups.get(c).is_some_and(|w| w.contains(t)) {
                        assignment.warmup.insert(task(t));
                    } else {
                        assignment.standby.insert(task(t));
                    }
                }
                assignment
            })
            .collect();
        StreamsAssignment {
            clients,
            probing_rebalance_needed,
        }
    }
}

/// An `f64` load with Java's `Double.compare` total order, for sorted
/// containers keyed by (load, client).
#[derive(Clone, Copy, Debug)]
pub(super) struct Load(pub(super) f64);

impl PartialEq for Load {
    fn eq(&self, other: &Self) -> bool {
        self.0.total_cmp(&other.0).is_eq()
    }
}

impl Eq for Load {}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
