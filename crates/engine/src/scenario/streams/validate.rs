//! Validation of a Streams scenario against Kafka's config validators
//! (`StreamsConfig`) and the playground's limits; errors name the field and why.

use super::{instance_name, KafkaVersion, StreamsConfig, StreamsEvent, StreamsScenario};
use crate::scenario::{check_name, limits, ranges, ScenarioError};

/// Checks a config's values against Kafka's validators (`StreamsConfig`,
/// `ConsumerConfig`, the broker's session bounds) and the playground's
/// ranges where Kafka has none (`scenario::ranges`).
pub(crate) fn validate_config(
    config: &StreamsConfig,
    version: KafkaVersion,
    at: &str,
) -> Result<(), ScenarioError> {
    use ranges::*;
    let r = config.resolve(version);
    let field = |key: &str| format!("{at}.{key}");
    NUM_STREAM_THREADS.check(
        &field("num.stream.threads"),
        u64::from(r.num_stream_threads),
        "",
    )?;
    MAX_WARMUP_REPLICAS.check(
        &field("max.warmup.replicas"),
        u64::from(r.max_warmup_replicas),
        "",
    )?;
    NUM_STANDBY_REPLICAS.check(
        &field("num.standby.replicas"),
        u64::from(r.num_standby_replicas),
        "",
    )?;
    ACCEPTABLE_RECOVERY_LAG.check(
        &field("acceptable.recovery.lag"),
        r.acceptable_recovery_lag,
        "",
    )?;
    PROBING_REBALANCE_INTERVAL_MS.check(
        &field("probing.rebalance.interval.ms"),
        r.probing_rebalance_interval_ms,
        " ms",
    )?;
    SESSION_TIMEOUT_MS.check(&field("session.timeout.ms"), r.session_timeout_ms, " ms")?;
    ranges::check_heartbeat(
        &field("heartbeat.interval.ms"),
        r.heartbeat_interval_ms,
        r.session_timeout_ms,
    )?;
    MAX_POLL_INTERVAL_MS.check(
        &field("max.poll.interval.ms"),
        r.max_poll_interval_ms,
        " ms",
    )?;
    for (key, v) in [
        ("state.cleanup.delay.ms", r.state_cleanup_delay_ms),
        (
            "group.initial.rebalance.delay.ms",
            r.group_initial_rebalance_delay_ms,
        ),
    ] {
        PLAYGROUND_TIME_MS.check(&field(key), v, " ms")?;
    }
    if let Some(id) = &r.group_instance_id {
        check_name(&field("group.instance.id"), id)?;
    }
    super::group_protocol::check(&r, version, at)
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
    let timings = &app.timings;
    for (key, value) in [
        ("task_init_ms", timings.task_init_ms),
        ("task_commit_ms", timings.task_commit_ms),
        ("instance_start_ms", timings.instance_start_ms),
    ] {
        ranges::WORK_TIMING_MS.check(&format!("streams.timings.{key}"), u64::from(value), " ms")?;
    }
    ranges::COORDINATOR_RTT_MS.check(
        "streams.timings.coordinator_rtt_ms",
        u64::from(timings.coordinator_rtt_ms),
        " ms",
    )?;
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
        ranges::PLAYGROUND_TIME_MS.check(&format!("{at}.at_ms"), e.at_ms, " ms")?;
        expanded += 1;
        let day = |field: &str, ms: u64| {
            ranges::PLAYGROUND_TIME_MS.check(&format!("{at}.{field}"), ms, " ms")
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
