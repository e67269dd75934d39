//! Kafka Connect's distributed-worker rebalancing (KIP-415, KIP-507): ids,
//! protocol negotiation, the two assignors and what each release does
//! (`versions`).

pub mod assignment;
pub mod backoff;
pub mod eager_assignor;
mod exact_math;
pub mod ids;
pub mod incremental_cooperative_assignor;
pub mod java_hash;
pub mod protocol;
pub mod versions;
pub mod wire_order;
mod work_slots;
