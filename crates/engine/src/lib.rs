//! Rebalance Playground's engine: Kafka's group rebalancing, simulated.
//!
//! Pure Rust, no browser or I/O: the domain model, Kafka's assignors, the
//! discrete-event simulator, metrics, the scenario format and the link codec.
//! Everything here is deterministic: the same scenario gives the same trace,
//! natively and in WebAssembly.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod binary;
pub mod budget;
pub mod conformance;
pub mod connect;
pub mod cost;
pub mod fixed;
pub(crate) mod kafka_version;
pub mod layout;
pub mod link;
pub mod metrics;
pub(crate) mod multiply_hash;
pub mod presets;
pub mod report;
pub mod result_wire;
pub mod run;
pub mod scenario;
pub(crate) mod sim;
pub mod sort_by_key;
pub(crate) mod step_kind;
pub mod streams;
pub mod streams_group;
pub mod svg_export;
pub mod sweep;
pub(crate) mod target_assignment;
pub mod time_ticks;
pub mod trace;
pub mod trace_text;
pub mod wording;
pub mod workloads;

/// The randomized unit tests use the same SplitMix64 as the integration tests.
#[cfg(test)]
#[path = "../tests/support/rng.rs"]
mod test_rng;
