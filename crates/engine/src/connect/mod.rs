//! Kafka Connect's distributed-worker rebalancing (KIP-415, KIP-507): ids,
//! protocol negotiation and the two assignors.

pub mod assignment;
pub mod eager_assignor;
pub mod ids;
pub mod incremental_cooperative_assignor;
pub mod protocol;
