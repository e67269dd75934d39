//! A Kafka Streams application as a scenario describes it: instances, a
//! topology by counts (subtopologies × partitions), Kafka's configs under
//! their own names, and the Streams event script.
//!
//! Split by job: `app` (the application, its subtopologies and timings, the
//! scenario and its compared variants), `config` (Kafka's `StreamsConfig`
//! keys under their property names, and their defaults per version),
//! `events` (the Streams event script), `group_protocol` (`group.protocol`
//! and its version rules) and `validate` (the checks that name the field and
//! why). Everything is re-exported here.

mod app;
mod config;
mod events;
mod group_protocol;
mod validate;

pub use crate::kafka_version::KafkaVersion;

pub use app::{
    instance_name, StreamsApp, StreamsScenario, StreamsTimings, StreamsVariant, SubtopologySpec,
};
pub use config::{ProcessingGuarantee, ResolvedStreamsConfig, StreamsConfig, TaskAssignorClass};
pub use events::{StreamsEvent, StreamsTimedEvent};
pub use group_protocol::{GroupProtocol, StreamsProtocolSupport};
pub(crate) use validate::validate;

// serde `default` / `skip_serializing_if` helpers shared by the files above.
fn one() -> u32 {
    1
}
fn is_one(v: &u32) -> bool {
    *v == 1
}
fn is_false(v: &bool) -> bool {
    !*v
}
fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}
fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
