//! The deterministic discrete-event simulator (what it models and leaves out:
//! `docs/model.md`).
//!
//! Reusable parts: [`event_queue`] (the future-event list), [`group`] (the
//! broker's classic group coordinator, generic so the Kafka Streams simulator
//! can share it), [`timeline`] (state spans for the trace), [`herder_pool`]
//! and [`session_key`]. [`connect`] puts them together for Kafka Connect,
//! [`streams`] for Kafka Streams.

pub(crate) mod connect;
pub(crate) mod driver;
pub(crate) mod event_queue;
pub(crate) mod formation;
pub(crate) mod group;
pub(crate) mod herder_pool;
pub(crate) mod rebalance_cause;
pub(crate) mod reconciliation_recorder;
pub(crate) mod recorder;
pub(crate) mod restart;
pub(crate) mod session_key;
pub(crate) mod streams;
pub(crate) mod streams_group;
pub(crate) mod streams_script;
pub(crate) mod timeline;

/// Quiet time simulated after the last activity when the scenario sets no
/// `end_ms` (both families, see [`crate::run`]).
pub(crate) const SETTLE_MARGIN_MS: u64 = 30_000;
