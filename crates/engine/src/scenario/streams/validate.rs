//! Validation of a Streams scenario against Kafka's config validators
//! (`StreamsConfig`) and the playground's limits; errors name the field and why.

use super::{instance_name, KafkaVersion, StreamsConfig, StreamsEvent, StreamsScenario};
use crate::scenario::{check_name, limits, ScenarioError};

/// Checks a config's values against Kafka's validators (`StreamsConfig`).
pub(crate) fn validate_config(
    config: &StreamsConfig,
    version: KafkaVersion,
    at: &str,
) -> Result<(), ScenarioError> {
    let r = config.resolve(version);
    let field = |key: &str| format!("{at}.{key}");
    if r.num_stream_threads == 0 || r.num_stream_threads > limits::MAX_STREAM_THREADS {
        return Err(ScenarioError::invalid(
            field("num.stream.threads"),
            format!("must be between 1 and {}", limits::MAX_STREAM_THREADS),
        ));
    }
    if r.max_warmup_replicas == 0 {
        return Err(ScenarioError::invalid(
            field("max.warmup.replicas"),
            "must be at least 1 (Kafka's minimum)",
        ));
    }
    if r.num_standby_replicas > 10 {
        return Err(ScenarioError::invalid(
            field("num.standby.replicas"),
            "must be at most 10 in the playground",
        ));
    }
    if r.probing_rebalance_interval_ms < 60_000
        || r.probing_rebalance_interval_ms > limits::MAX_TIME_MS
    {
        return Err(ScenarioError::invalid(
            field("probing.rebalance.interval.ms"),
            "must be between 60000 (Kafka's minimum) and one day",
        ));
    }
    for (key, v) in [
        ("session.timeout.ms", r.session_timeout_ms),
        ("heartbeat.interval.ms", r.heartbeat_interval_ms),
        ("max.poll.interval.ms", r.max_poll_interval_ms),
    ] {
        if v == 0 || v > limits::MAX_TIME_MS {
            return Err(ScenarioError::invalid(
                field(key),
                "must be between 1 ms and one day",
            ));
        }
    }
    if r.heartbeat_interval_ms >= r.session_timeout_ms {
        return Err(ScenarioError::invalid(
            field("heartbeat.interval.ms"),
            "must be lower than session.timeout.ms (Kafka requires it)",
        ));
    }
    for (key, v) in [
        ("state.cleanup.delay.ms", r.state_cleanup_delay_ms),
        (
            "group.initial.rebalance.delay.ms",
            r.group_initial_rebalance_delay_ms,
        ),
    ] {
        if v > limits::MAX_TIME_MS {
            return Err(ScenarioError::invalid(
                field(key),
                "must be at most one day",
            ));
        }
    }
    if let Some(id) = &r.group_instance_id {
        check_name(&field("group.instance.id"), id)?;
    }
    Ok(())
}

fn check_keys(keys: &[String], at: &str) -> Result<(), ScenarioError> {
    match keys.iter().find(|k| !StreamsConfig::is_known_key(k)) {
        Some(k) => Err(ScenarioError::invalid(
            format!("{at}.remove_config"),
            format!(
                "names `{}`, which is not a Streams config key",
                k.chars().take(80).collect::<String>()
            ),
        )),
        None if keys.len() > 32 => Err(ScenarioError::invalid(
            format!("{at}.remove_config"),
            "lists more than 32 keys",
        )),
        None => Ok(()),
    }
}

/// Checks the application and its events; errors name the field and why.
pub(crate) fn validate(s: &StreamsScenario) -> Result<(), ScenarioError> {
    use limits::*;
    let app = &s.app;
    let version = app.version();
    if app.instances > MAX_INSTANCES {
        return Err(ScenarioError::invalid(
            "streams.instances",
            format!(
                "{} instances is more than the playground simulates (at most {MAX_INSTANCES})",
                app.instances
            ),
        ));
    }
    if app.subtopologies.is_empty() {
        return Err(ScenarioError::invalid(
            "streams.subtopologies",
            "must list at least one subtopology",
        ));
    }
    // Before the subtopologies: each must restore-lag behind this rate, so a
    // zero rate would otherwise be reported against the first of them.
    if app.timings.restore_records_per_sec == 0 {
        return Err(ScenarioError::invalid(
            "streams.timings.restore_records_per_sec",
            "must be greater than 0",
        ));
    }
    let mut tasks: u64 = 0;
    let mut subtopologies: u64 = 0;
    for (i, st) in app.subtopologies.iter().enumerate() {
        let at = format!("streams.subtopologies[{i}]");
        if st.partitions == 0 {
            return Err(ScenarioError::invalid(
                format!("{at}.partitions"),
                "must be at least 1",
            ));
        }
        if st.count == Some(0) {
            return Err(ScenarioError::invalid(
                format!("{at}.count"),
                "must be at least 1",
            ));
        }
        subtopologies += u64::from(st.count.unwrap_or(1));
        tasks += u64::from(st.partitions) * u64::from(st.count.unwrap_or(1));
        if tasks > MAX_STREAMS_TASKS || subtopologies > u64::from(MAX_SUBTOPOLOGIES) {
            return Err(ScenarioError::invalid(
                format!("{at}.partitions"),
                format!("more than {MAX_STREAMS_TASKS} tasks or {MAX_SUBTOPOLOGIES} subtopologies in total"),
            ));
        }
        if st.changelog_records > MAX_CHANGELOG_RECORDS {
            return Err(ScenarioError::invalid(
                format!("{at}.changelog_records"),
                format!("must be at most {MAX_CHANGELOG_RECORDS}"),
            ));
        }
        if (st.changelog_records > 0 || st.changelog_records_per_sec > 0) && !st.stateful {
            return Err(ScenarioError::invalid(
                format!("{at}.changelog_records"),
                "needs `stateful: true` (a stateless task has no changelog)",
            ));
        }
        if u64::from(st.changelog_records_per_sec) >= u64::from(app.timings.restore_records_per_sec)
        {
            return Err(ScenarioError::invalid(
                format!("{at}.changelog_records_per_sec"),
                "must be lower than timings.restore_records_per_sec, or standbys never catch up",
            ));
        }
    }
    validate_config(&app.config, version, "streams.config")?;
    for (i, v) in s.compare.iter().enumerate() {
        validate_config(
            &app.config.merged(&v.config),
            version,
            &format!("compare[{i}].config"),
        )?;
    }
    let mut instances_ever = u64::from(app.instances);
    let mut expanded: usize = 0;
    for (i, e) in s.events.iter().enumerate() {
        let at = format!("events[{i}]");
        if e.at_ms > MAX_TIME_MS {
            return Err(ScenarioError::invalid(
                format!("{at}.at_ms"),
                "is later than one day",
            ));
        }
        expanded += 1;
        let day = |field: &str, ms: u64| {
            if ms > MAX_TIME_MS {
                Err(ScenarioError::invalid(
                    format!("{at}.{field}"),
                    "is longer than one day",
                ))
            } else {
                Ok(())
            }
        };
        let known = |w: &str, ever: u64| {
            let ok = w
                .strip_prefix("instance-")
                .and_then(|n| n.parse::<u64>().ok())
                .is_some_and(|n| n >= 1 && n <= ever && instance_name(n as u32) == w);
            if ok {
                Ok(())
            } else {
                Err(ScenarioError::invalid(
                    format!("{at}.instance"),
                    format!("names `{w}`, but the instances are instance-1 … instance-{ever}"),
                ))
            }
        };
        match &e.event {
            StreamsEvent::InstanceJoin {
                count,
                kafka_version,
                config,
            } => {
                if *count == 0 {
                    return Err(ScenarioError::invalid(
                        format!("{at}.count"),
                        "must be at least 1",
                    ));
                }
                instances_ever += u64::from(*count);
                validate_config(
                    &app.config.merged(config),
                    kafka_version.unwrap_or(version),
                    &format!("{at}.config"),
                )?;
            }
            StreamsEvent::InstanceStop { instance } | StreamsEvent::InstanceCrash { instance } => {
                known(instance, instances_ever)?
            }
            StreamsEvent::InstanceRestart {
                instance,
                downtime_ms,
                kafka_version,
                config,
                remove_config,
                ..
            } => {
                known(instance, instances_ever)?;
                check_keys(remove_config, &at)?;
                day("downtime_ms", *downtime_ms)?;
                validate_config(
                    &app.config.merged(config),
                    kafka_version.unwrap_or(version),
                    &format!("{at}.config"),
                )?;
            }
            StreamsEvent::RollingRestart {
                downtime_ms,
                interval_ms,
                limit,
                kafka_version,
                config,
                remove_config,
                ..
            } => {
                check_keys(remove_config, &at)?;
                day("downtime_ms", *downtime_ms)?;
                day("interval_ms", *interval_ms)?;
                let n = limit.map_or(instances_ever, |l| u64::from(l).min(instances_ever));
                if interval_ms.saturating_mul(n) > MAX_TIME_MS {
                    return Err(ScenarioError::invalid(
                        format!("{at}.interval_ms"),
                        "makes the rolling restart last longer than one day",
                    ));
                }
                expanded += n as usize;
                validate_config(
                    &app.config.merged(config),
                    kafka_version.unwrap_or(version),
                    &format!("{at}.config"),
                )?;
            }
            StreamsEvent::GcPause {
                instance,
                duration_ms,
            }
            | StreamsEvent::SlowProcessing {
                instance,
                duration_ms,
            } => {
                known(instance, instances_ever)?;
                day("duration_ms", *duration_ms)?;
            }
        }
        if instances_ever > u64::from(MAX_INSTANCES) {
            return Err(ScenarioError::invalid(
                at,
                format!("brings the number of instances over {MAX_INSTANCES}, the most the playground simulates"),
            ));
        }
        if expanded > MAX_EVENTS {
            return Err(ScenarioError::invalid(
                "events",
                format!("more than {MAX_EVENTS} events"),
            ));
        }
    }
    Ok(())
}
