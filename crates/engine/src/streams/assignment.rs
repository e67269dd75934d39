//! The task assignors' configuration, result and errors.

use std::collections::BTreeSet;
use std::fmt;

use super::ids::{ProcessId, StreamsTaskId};

/// Kafka Streams' `AssignmentConfigs`: the settings the task assignors read
/// (`StreamsConfig`, KIP-441).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssignmentConfigs {
    /// `acceptable.recovery.lag` (default 10000, minimum 0): a client whose
    /// lag for a task is at most this counts as caught up. `i64::MAX`
    /// (`Long.MAX_VALUE`) makes every client caught up, so no warmups.
    pub acceptable_recovery_lag: i64,
    /// `max.warmup.replicas` (default 2, minimum 1): the group-wide budget of
    /// warmup replicas per rebalance, shared by active and standby movements.
    pub max_warmup_replicas: u32,
    /// `num.standby.replicas` (default 0).
    pub num_standby_replicas: u32,
    /// `probing.rebalance.interval.ms` (default 600000, minimum 60000). The
    /// assignors do not read it; the caller schedules the probing rebalance
    /// this long after an assignment that asked for one.
    pub probing_rebalance_interval_ms: u64,
}

impl Default for AssignmentConfigs {
    /// Kafka's defaults (`StreamsConfig`).
    fn default() -> Self {
        Self {
            acceptable_recovery_lag: 10_000,
            max_warmup_replicas: 2,
            num_standby_replicas: 0,
            probing_rebalance_interval_ms: 600_000,
        }
    }
}

/// What one client got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientAssignment {
    /// The client.
    pub process_id: ProcessId,
    /// Active tasks, stateful and stateless.
    pub active: BTreeSet<StreamsTaskId>,
    /// Hot standby replicas: the `num.standby.replicas` copies.
    pub standby: BTreeSet<StreamsTaskId>,
    /// Warmup replicas: extra standby copies placed on a client that is not
    /// caught up yet, so that a later probing rebalance can move the task
    /// there (KIP-441). Kafka itself reports them as standbys.
    pub warmup: BTreeSet<StreamsTaskId>,
}

impl ClientAssignment {
    /// An empty assignment for `process_id`.
    pub fn new(process_id: ProcessId) -> Self {
        Self {
            process_id,
            active: BTreeSet::new(),
            standby: BTreeSet::new(),
            warmup: BTreeSet::new(),
        }
    }

    /// Kafka's view of the standby tasks: hot standbys and warmups together,
    /// as `ClientState.standbyTasks()` and the conformance vectors report them.
    pub fn standby_and_warmup(&self) -> BTreeSet<StreamsTaskId> {
        self.standby.union(&self.warmup).copied().collect()
    }

    /// Every task the client holds, in any role.
    pub fn assigned_task_count(&self) -> usize {
        self.active.len() + self.standby.len() + self.warmup.len()
    }
}

/// The result of one assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamsAssignment {
    /// One entry per client, in `ProcessId` order.
    pub clients: Vec<ClientAssignment>,
    /// True when some task could not be placed on its balanced target yet
    /// because the target is not caught up: Kafka then schedules a probing
    /// rebalance `probing.rebalance.interval.ms` later (`HighAvailabilityTaskAssignor.assign`).
    pub probing_rebalance_needed: bool,
}

impl StreamsAssignment {
    /// The assignment of `process_id`, if it was one of the clients.
    pub fn client(&self, process_id: ProcessId) -> Option<&ClientAssignment> {
        self.clients
            .binary_search_by(|c| c.process_id.cmp(&process_id))
            .ok()
            .map(|i| &self.clients[i])
    }

    /// The client running each active task, in task order.
    pub fn active_owners(&self) -> std::collections::BTreeMap<StreamsTaskId, ProcessId> {
        self.clients
            .iter()
            .flat_map(|c| c.active.iter().map(move |t| (*t, c.process_id)))
            .collect()
    }
}

/// Input a task assignor cannot work with. Kafka would fail the rebalance
/// with an exception in these cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AssignmentError {
    /// There are tasks but no clients to run them.
    NoClients,
    /// Two clients share a `ProcessId`.
    DuplicateProcessId(ProcessId),
    /// A client has no stream threads.
    ZeroCapacity(ProcessId),
    /// A task is marked stateful but is not one of the tasks to assign.
    UnknownStatefulTask(StreamsTaskId),
}

impl fmt::Display for AssignmentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoClients => f.write_str("there are tasks to assign but no clients"),
            Self::DuplicateProcessId(id) => write!(f, "two clients have process id {id}"),
            Self::ZeroCapacity(id) => write!(f, "client {id} has capacity 0 (no stream threads)"),
            Self::UnknownStatefulTask(task) => {
                write!(f, "stateful task {task} is not among the tasks to assign")
            }
        }
    }
}

impl std::error::Error for AssignmentError {}
