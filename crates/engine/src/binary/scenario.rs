//! The binary form of a [`Scenario`]: how the simulator hands a scenario it
//! parsed (from a link or a file) to the page, and how the page's module
//! holds the built-in presets, without the page holding the scenario's
//! serde deserialisers and JSON parser. The JSON form (`Scenario::from_json`)
//! stays the only one people and links see.
//!
//! A decoded scenario is not validated here: callers that got the bytes
//! from anywhere but [`to_bytes`](super::to_bytes) of a validated scenario
//! must call `Scenario::validate`.

use super::{binary_enum, binary_struct, Binary, BinaryError, Reader};
use crate::connect::protocol::ConnectProtocol;
use crate::kafka_version::KafkaVersion;
use crate::scenario::{
    ConnectCluster, ConnectConfig, ConnectScenario, ConnectVariant, ConnectorSpec, Event, Family,
    GroupProtocol, ProcessingGuarantee, Reference, Scenario, Start, StreamsApp, StreamsConfig,
    StreamsEvent, StreamsScenario, StreamsTimedEvent, StreamsTimings, StreamsVariant,
    SubtopologySpec, TaskAssignorClass, TimedEvent, Timings, WorkerOverride,
};
use crate::streams::ProcessId;

binary_struct!(Scenario {
    version,
    title,
    description,
    seed,
    start,
    end_ms,
    references,
    family,
});
binary_enum!(Start {
    Formed = 0,
    Empty = 1
});
binary_struct!(Reference { label, url });
binary_enum!(Family {
    Connect(connect) = 0,
    Streams(streams) = 1,
});

binary_struct!(ConnectScenario {
    cluster,
    compare,
    events
});
binary_struct!(ConnectCluster {
    workers,
    connectors,
    config,
    worker_overrides,
    timings,
});
binary_struct!(ConnectorSpec { name, tasks, count });
binary_struct!(WorkerOverride { worker, config });
binary_struct!(Timings {
    connector_start_ms,
    connector_stop_ms,
    task_start_ms,
    task_stop_ms,
    coordinator_rtt_ms,
});
binary_struct!(ConnectVariant { label, config });
binary_struct!(ConnectConfig {
    kafka_version,
    connect_protocol,
    scheduled_rebalance_max_delay_ms,
    session_timeout_ms,
    heartbeat_interval_ms,
    rebalance_timeout_ms,
    task_shutdown_graceful_timeout_ms,
    inter_worker_key_ttl_ms,
    group_initial_rebalance_delay_ms,
});
binary_enum!(ConnectProtocol {
    Eager = 0,
    Compatible = 1,
    Sessioned = 2,
});
binary_struct!(TimedEvent { at_ms, event });
binary_enum!(Event {
    WorkerJoin { count, config } = 0,
    WorkerStop { worker } = 1,
    WorkerCrash { worker } = 2,
    WorkerRestart {
        worker,
        downtime_ms,
        crash,
        config
    } = 3,
    RollingRestart {
        downtime_ms,
        interval_ms,
        limit,
        config
    } = 4,
    GcPause {
        worker,
        duration_ms
    } = 5,
    ConnectorAdd { name, tasks } = 6,
    ConnectorRemove { name } = 7,
    TaskCountChange { connector, tasks } = 8,
});

binary_struct!(StreamsScenario {
    app,
    compare,
    events
});
binary_struct!(StreamsVariant {
    label,
    kafka_version,
    config
});
binary_struct!(StreamsApp {
    instances,
    kafka_version,
    process_ids,
    subtopologies,
    cold_start,
    config,
    timings,
});
binary_struct!(SubtopologySpec {
    partitions,
    stateful,
    changelog_records,
    changelog_records_per_sec,
    count,
});
binary_struct!(StreamsTimings {
    restore_records_per_sec,
    task_init_ms,
    task_commit_ms,
    instance_start_ms,
    coordinator_rtt_ms,
});
binary_struct!(StreamsConfig {
    num_stream_threads,
    processing_guarantee,
    acceptable_recovery_lag,
    max_warmup_replicas,
    num_standby_replicas,
    probing_rebalance_interval_ms,
    session_timeout_ms,
    heartbeat_interval_ms,
    max_poll_interval_ms,
    group_instance_id,
    upgrade_from,
    internal_task_assignor_class,
    state_cleanup_delay_ms,
    group_initial_rebalance_delay_ms,
    group_protocol,
    state_updater_enabled,
    streams_heartbeat_interval_ms,
    streams_session_timeout_ms,
    streams_num_standby_replicas,
    streams_initial_rebalance_delay_ms,
    streams_assignment_interval_ms,
});
binary_enum!(GroupProtocol {
    Classic = 0,
    Streams = 1,
});
binary_enum!(ProcessingGuarantee {
    AtLeastOnce = 0,
    ExactlyOnceV2 = 1,
});
binary_enum!(TaskAssignorClass {
    HighAvailabilityTaskAssignor = 0,
    StickyTaskAssignor = 1,
});
binary_struct!(StreamsTimedEvent { at_ms, event });
binary_enum!(StreamsEvent {
    InstanceJoin {
        count,
        kafka_version,
        config
    } = 0,
    InstanceStop { instance } = 1,
    InstanceCrash { instance } = 2,
    InstanceRestart {
        instance,
        downtime_ms,
        crash,
        kafka_version,
        config,
        remove_config,
    } = 3,
    RollingRestart {
        downtime_ms,
        interval_ms,
        limit,
        reverse_order,
        kafka_version,
        config,
        remove_config,
    } = 4,
    GcPause {
        instance,
        duration_ms
    } = 5,
    SlowProcessing {
        instance,
        duration_ms,
        thread
    } = 6,
});

impl Binary for KafkaVersion {
    fn write(&self, out: &mut Vec<u8>) {
        self.major.write(out);
        self.minor.write(out);
        self.patch.write(out);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        Ok(KafkaVersion::release(
            u16::read(input)?,
            u16::read(input)?,
            u16::read(input)?,
        ))
    }
}

impl Binary for ProcessId {
    fn write(&self, out: &mut Vec<u8>) {
        self.most_significant_bits().write(out);
        self.least_significant_bits().write(out);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        Ok(ProcessId::new(i64::read(input)?, i64::read(input)?))
    }
}

#[cfg(test)]
mod tests {
    use crate::binary::{from_bytes, to_bytes};
    use crate::scenario::Scenario;

    #[test]
    fn every_preset_round_trips() {
        for preset in crate::presets::all() {
            let s = preset.scenario();
            assert_eq!(
                from_bytes::<Scenario>(&to_bytes(&s)),
                Ok(s),
                "{}",
                preset.id
            );
        }
    }

    #[test]
    fn every_prefix_is_an_error() {
        let bytes = to_bytes(&crate::presets::default_preset().scenario());
        for n in 0..bytes.len() {
            assert!(from_bytes::<Scenario>(&bytes[..n]).is_err(), "cut at {n}");
        }
    }
}
