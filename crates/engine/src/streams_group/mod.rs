//! The broker side of the streams rebalance protocol (KIP-1071,
//! `group.protocol=streams`): Kafka's group coordinator, not the Streams
//! client, decides the assignment of a streams group.
//!
//! * [`task_id`]: tasks and topologies as the broker sees them (string
//!   subtopology ids, ordered as Java `String`s);
//! * [`sticky_task_assignor`]: the broker's `StickyTaskAssignor`, per release;
//! * [`current_assignment_builder`]: per-member reconciliation toward the
//!   target (`CurrentAssignmentBuilder`, 4.1–4.3), which the simulator's
//!   group coordinator (`sim::streams_group`) calls on every heartbeat.
//!
//! Kafka's package: `org.apache.kafka.coordinator.group.streams`.

pub mod current_assignment_builder;
pub(crate) mod java_hash_map;
pub mod sticky_task_assignor;
pub mod task_id;

pub use sticky_task_assignor::{
    AssignmentMember, GroupAssignment, GroupSpec, MemberAssignment, StickyTaskAssignor,
    StickyTaskAssignorError, StickyTaskAssignorVersion,
};
pub use task_id::{Subtopology, TaskId, Topology, TopologyError};
