//! The Streams event script: what happens to the application's instances, and
//! when.

use serde::{Deserialize, Serialize};

use super::{is_default, is_false, is_one, one};
use super::{KafkaVersion, StreamsConfig};

/// A Streams event at a point in simulated time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsTimedEvent {
    /// When it happens, in ms from the start.
    pub at_ms: u64,
    /// What happens.
    #[serde(flatten)]
    pub event: StreamsEvent,
}

/// Something that happens to a Streams application. Instance names are
/// `instance-<n>`; instances that join later continue the numbering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum StreamsEvent {
    /// New instances start (scale out), without local state.
    InstanceJoin {
        /// How many (default 1).
        #[serde(default = "one", skip_serializing_if = "is_one")]
        count: u32,
        /// Their Kafka Streams version, if not the application's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kafka_version: Option<KafkaVersion>,
        /// Config keys that differ from the application's.
        #[serde(default, skip_serializing_if = "is_default")]
        config: StreamsConfig,
    },
    /// `KafkaStreams.close()`: tasks are committed and checkpointed, but the
    /// main consumer sends no LeaveGroup (`internal.leave.group.on.close=false`): the group notices after
    /// `session.timeout.ms` (scale in).
    InstanceStop {
        /// The instance.
        instance: String,
    },
    /// The process dies; under exactly-once its local state is lost.
    InstanceCrash {
        /// The instance.
        instance: String,
    },
    /// The instance goes away and comes back after `downtime_ms` with its
    /// state directory (a bounce or a redeploy, optionally an upgrade).
    InstanceRestart {
        /// The instance.
        instance: String,
        /// How long the process is down, counted from the moment it exits:
        /// after `close()` commits, or at the crash. The trace says when it
        /// comes back.
        downtime_ms: u64,
        /// Killed rather than closed.
        #[serde(default, skip_serializing_if = "is_false")]
        crash: bool,
        /// The version it comes back with.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kafka_version: Option<KafkaVersion>,
        /// Config keys it comes back with.
        #[serde(default, skip_serializing_if = "is_default")]
        config: StreamsConfig,
        /// Config keys they no longer set (the second bounce of an upgrade removes `upgrade.from`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        remove_config: Vec<String>,
    },
    /// Every instance running at `at_ms` restarted in name order, one every
    /// `interval_ms`, each down for `downtime_ms` (a Kubernetes rollout).
    RollingRestart {
        /// How long each process is down, counted from the moment it exits
        /// (after `close()` commits).
        downtime_ms: u64,
        /// Time between two instances' restarts.
        interval_ms: u64,
        /// Restart only the first this many (default: all).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u32>,
        /// Highest-numbered instance first, as a Kubernetes StatefulSet rolls its pods.
        #[serde(default, skip_serializing_if = "is_false")]
        reverse_order: bool,
        /// The version they come back with (a rolling upgrade).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kafka_version: Option<KafkaVersion>,
        /// Config keys they come back with.
        #[serde(default, skip_serializing_if = "is_default")]
        config: StreamsConfig,
        /// Config keys they no longer set (the second bounce of an upgrade removes `upgrade.from`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        remove_config: Vec<String>,
    },
    /// The JVM freezes (a long GC pause): no heartbeats, no processing.
    GcPause {
        /// The instance.
        instance: String,
        /// How long.
        duration_ms: u64,
    },
    /// A record handler blocks one of the instance's stream threads: it does
    /// not call `poll()` for `duration_ms` while its heartbeat thread runs on.
    SlowProcessing {
        /// The instance.
        instance: String,
        /// How long the thread is blocked.
        duration_ms: u64,
        /// Which stream thread, `StreamThread-<n>` (default 1). An instance
        /// without that many threads runs the event on none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        thread: Option<u32>,
    },
}

impl StreamsEvent {
    /// A short label for markers, e.g. `instance-2 crashes`.
    pub fn label(&self) -> String {
        match self {
            Self::InstanceJoin { count: 1, .. } => "an instance joins".to_string(),
            Self::InstanceJoin { count, .. } => format!("{count} instances join"),
            Self::InstanceStop { instance } => format!("{instance} stops"),
            Self::InstanceCrash { instance } => format!("{instance} crashes"),
            Self::InstanceRestart { instance, .. } => format!("{instance} restarts"),
            Self::RollingRestart { .. } => "rolling restart".to_string(),
            Self::GcPause { instance, .. } => format!("{instance} freezes (GC)"),
            Self::SlowProcessing {
                instance,
                thread: Some(n),
                ..
            } if *n != 1 => format!("{instance} StreamThread-{n} blocks in a handler"),
            Self::SlowProcessing { instance, .. } => format!("{instance} blocks in a handler"),
        }
    }

    /// The instance the event names, if any.
    pub fn instance(&self) -> Option<&str> {
        match self {
            Self::InstanceStop { instance }
            | Self::InstanceCrash { instance }
            | Self::InstanceRestart { instance, .. }
            | Self::GcPause { instance, .. }
            | Self::SlowProcessing { instance, .. } => Some(instance),
            Self::InstanceJoin { .. } | Self::RollingRestart { .. } => None,
        }
    }
}
