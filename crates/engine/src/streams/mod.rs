//! Kafka Streams rebalancing (KIP-429, KIP-441): tasks, lags and task assignors.
//!
//! The leader of a Streams application groups its consumers by client
//! (`ProcessId`), computes each client's lag per stateful task
//! (`StreamsPartitionAssignor.populateClientStatesMap`) and calls a task assignor, which decides for every client its
//! active tasks, its standby replicas and whether a follow-up *probing
//! rebalance* is needed. This module provides, sans-IO and deterministic:
//!
//! * the identities [`StreamsTaskId`] and [`ProcessId`] with Kafka's orders;
//! * the assignor input [`ClientState`] and Kafka's lag arithmetic
//!   ([`task_lag`], [`LATEST_OFFSET`], [`NO_STATE_LAG`]);
//! * [`HighAvailabilityTaskAssignor`], the default since 2.6 (KIP-441),
//!   reproducing Kafka's output exactly, tie-breaks included;
//! * [`StickyTaskAssignor`], the pre-2.6 default (`LegacyStickyTaskAssignor` since 3.8);
//! * [`thread_assignment`]: how the leader hands a client's tasks to its
//!   stream threads (`StreamsPartitionAssignor.assignTasksToThreads`, per
//!   release), and [`partition_assignor::assign_group`]: the whole group,
//!   consumer by consumer (the cooperative filter, follow-ups, version
//!   probing);
//! * [`versions`]: what each release from 0.10 to 4.3 does and defaults to.
//!
//! Both implement [`TaskAssignor`] and return a [`StreamsAssignment`] that
//! keeps warmup replicas apart from hot standbys
//! ([`ClientAssignment::standby_and_warmup`] gives Kafka's combined view).
//!
//! ```
//! use std::collections::BTreeSet;
//! use engine::streams::*;
//!
//! let tasks: BTreeSet<StreamsTaskId> = (0..4).map(|p| StreamsTaskId::new(0, p)).collect();
//! let clients = vec![
//!     ClientState::new(ProcessId::from_position(1), 1)
//!         .with_lags(tasks.iter().map(|&t| (t, LATEST_OFFSET))),
//!     ClientState::new(ProcessId::from_position(2), 1),
//! ];
//! let configs = AssignmentConfigs { acceptable_recovery_lag: 0, ..AssignmentConfigs::default() };
//! let result = HighAvailabilityTaskAssignor::new()
//!     .assign(&clients, &tasks, &tasks, &configs)
//!     .unwrap();
//! // Client 1 keeps everything until client 2 has warmed up on its share.
//! assert_eq!(result.clients[0].active.len(), 4);
//! assert_eq!(result.clients[1].warmup.len(), 2);
//! assert!(result.probing_rebalance_needed);
//! ```

mod assignment;
mod client_state;
mod group_assignment;
mod high_availability;
mod ids;
pub(crate) mod java;
mod model;
pub mod partition_assignor;
mod priority_set;
mod sticky;
pub mod thread_assignment;
pub mod versions;

use std::collections::BTreeSet;

pub use assignment::{AssignmentConfigs, AssignmentError, ClientAssignment, StreamsAssignment};
pub use client_state::{task_lag, ClientState, LATEST_OFFSET, NO_STATE_LAG, UNKNOWN_OFFSET_SUM};
pub use high_availability::HighAvailabilityTaskAssignor;
pub use ids::{ParseIdError, ProcessId, StreamsTaskId};
pub use sticky::StickyTaskAssignor;

/// A Kafka Streams task assignor: Kafka's internal `TaskAssignor` interface.
pub trait TaskAssignor {
    /// Assigns `all_tasks` (of which `stateful_tasks` have state, so get
    /// lags, standbys and warmups) to `clients`, given in any order.
    ///
    /// Fails only on input Kafka could not assign either: no clients, a
    /// duplicate `ProcessId`, a client without threads, or a stateful task
    /// missing from `all_tasks`.
    fn assign(
        &self,
        clients: &[ClientState],
        all_tasks: &BTreeSet<StreamsTaskId>,
        stateful_tasks: &BTreeSet<StreamsTaskId>,
        configs: &AssignmentConfigs,
    ) -> Result<StreamsAssignment, AssignmentError>;
}
