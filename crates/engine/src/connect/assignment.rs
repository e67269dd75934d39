//! The data an assignor reads and writes in one rebalance round: the
//! member metadata of `IncrementalCooperativeConnectProtocol`, the per-member
//! `ExtendedAssignment` (start, stop, delay) the leader sends back, and how
//! `WorkerCoordinator.onJoinComplete` applies it.

use super::ids::{ConnectorId, MemberId, TaskId};
use super::work_slots::{sort_items, WorkItem};

/// What one member reports in its JoinGroup metadata: the connectors and tasks
/// it runs, in its own holdings order (which decides what it gives up first:
/// Kafka revokes the head of the list). A worker's metadata lists them in
/// wire order ([`crate::connect::wire_order::wire_order`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberHoldings {
    /// The member id.
    pub member: MemberId,
    /// Connectors the member runs, in holdings order.
    pub connectors: Vec<ConnectorId>,
    /// Tasks the member runs, in holdings order.
    pub tasks: Vec<TaskId>,
}

impl MemberHoldings {
    /// An empty member (a fresh process).
    pub fn empty(member: impl Into<MemberId>) -> Self {
        Self {
            member: member.into(),
            ..Self::default()
        }
    }

    /// Number of connectors plus tasks held.
    pub fn total(&self) -> usize {
        self.connectors.len() + self.tasks.len()
    }
}

/// The configured work: every connector in the config snapshot with its task count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfiguredWork {
    /// (connector, task count), sorted by connector.
    pub connectors: Vec<(ConnectorId, u32)>,
}

impl ConfiguredWork {
    /// Builds the configuration; sorts by connector.
    pub fn new(mut connectors: Vec<(ConnectorId, u32)>) -> Self {
        crate::sort_by_key::sort_values(&mut connectors);
        connectors.dedup_by_key(|c| c.0);
        Self { connectors }
    }

    /// Every configured task, sorted.
    pub fn tasks(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.connectors.iter().flat_map(|&(connector, count)| {
            (0..count).map(move |index| TaskId { connector, index })
        })
    }

    /// Number of configured tasks.
    pub fn task_count(&self) -> usize {
        self.connectors.iter().map(|c| c.1 as usize).sum()
    }
}

/// The input of one round at the leader.
#[derive(Clone, Copy, Debug)]
pub struct RoundInput<'a> {
    /// The leader's config snapshot.
    pub configured: &'a ConfiguredWork,
    /// Every member of the round, in the order the assignor iterates them
    /// (Java `HashMap` order of the member ids in Kafka).
    pub members: &'a [MemberHoldings],
    /// The generation this round creates.
    pub generation: i32,
    /// The generation of the leader's last completed join.
    pub last_completed_generation: i32,
    /// The leader's clock, in ms. Must be > 0.
    pub now_ms: i64,
}

/// What one member is told in SyncGroup.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberDelta {
    /// Connectors to start (incremental), or the full connector assignment (eager).
    pub assigned_connectors: Vec<ConnectorId>,
    /// Tasks to start (incremental), or the full task assignment (eager).
    pub assigned_tasks: Vec<TaskId>,
    /// Connectors to stop.
    pub revoked_connectors: Vec<ConnectorId>,
    /// Tasks to stop.
    pub revoked_tasks: Vec<TaskId>,
}

impl MemberDelta {
    /// True when the member is told to do nothing.
    pub fn is_empty(&self) -> bool {
        self.assigned_connectors.is_empty()
            && self.assigned_tasks.is_empty()
            && self.revoked_connectors.is_empty()
            && self.revoked_tasks.is_empty()
    }

    /// True when anything is revoked.
    pub fn revokes(&self) -> bool {
        !self.revoked_connectors.is_empty() || !self.revoked_tasks.is_empty()
    }
}

/// The result of one round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundOutput {
    /// One delta per input member, in input order.
    pub deltas: Vec<MemberDelta>,
    /// The `delay` every member receives, in ms (always 0 under eager).
    pub delay_ms: i32,
}

/// Applies a delivered delta to a member's holdings the way Kafka's assignor
/// tests do (`IncrementalCooperativeAssignorTest.applyAssignments`, and the
/// conformance vectors recorded with it): drop revoked items keeping order,
/// then append the assigned ones that are not already held. A real worker
/// orders its snapshot differently (`WorkerCoordinator.onJoinComplete`, see
/// [`crate::connect::wire_order::snapshot_after`]).
pub fn apply_delta(holdings: &mut MemberHoldings, delta: &MemberDelta) {
    fn apply<T: WorkItem>(held: &mut Vec<T>, revoked: &[T], assigned: &[T]) {
        if !revoked.is_empty() {
            if revoked.len() > 16 {
                let mut sorted = revoked.to_vec();
                sort_items(&mut sorted);
                held.retain(|x| sorted.binary_search(x).is_err());
            } else {
                held.retain(|x| !revoked.contains(x));
            }
        }
        if assigned.is_empty() {
            return;
        }
        let mut present: Vec<T> = held.clone();
        sort_items(&mut present);
        for &item in assigned {
            if present.binary_search(&item).is_err() {
                held.push(item);
            }
        }
    }
    apply(
        &mut holdings.connectors,
        &delta.revoked_connectors,
        &delta.assigned_connectors,
    );
    apply(
        &mut holdings.tasks,
        &delta.revoked_tasks,
        &delta.assigned_tasks,
    );
}
