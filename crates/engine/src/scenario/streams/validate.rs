//! Validation of a Streams scenario against Kafka's config validators
//! (`StreamsConfig`) and the playground's limits; errors name the field and why.

use super::{instance_name, KafkaVersion, StreamsConfig, StreamsEvent, StreamsScenario};
use crate::scenario::{check_name, limits, ranges, ScenarioError};
use crate::streams::versions::{accepted_upgrade_from, streams_release, KNOWN_RELEASES};

/// `a … b` for a list of releases.
fn span(versions: &[KafkaVersion]) -> String {
    match (versions.first(), versions.last()) {
        (Some(a), Some(b)) if a != b => format!("{a} … {b}"),
        (Some(a), _) => a.to_string(),
        _ => "none".to_string(),
    }
}

/// A Kafka Streams version must be a release the playground models.
pub(crate) fn check_version(field: &str, version: KafkaVersion) -> Result<(), ScenarioError> {
    if KNOWN_RELEASES.contains(&version) {
        return Ok(());
    }
    Err(ScenarioError::invalid(
        field,
        format!(
            "is {version}, which is not a Kafka Streams release the playground models: allowed values are {}",
            span(KNOWN_RELEASES)
        ),
    ))
}

/// `upgrade.from` and `__state.updater.enabled__` against the instance's
/// release: from 4.0 `upgrade.from` 0.10.0 … 2.3 is refused
/// (`AssignorConfiguration.validateUpgradeFrom`, KAFKA-18839) and from 4.2
/// no longer a value at all (KAFKA-19703); the state updater flag exists
/// from 3.4 and is gone in 4.3. Before 4.0 any release is accepted as
/// `upgrade.from` (looser than Kafka's `ConfigDef`, which lists only older
/// releases).
fn check_release_keys(
    config: &super::ResolvedStreamsConfig,
    version: KafkaVersion,
    field: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    let release = streams_release(version);
    if let Some(u) = config.upgrade_from {
        check_version(&field("upgrade.from"), u)?;
        let accepted = accepted_upgrade_from(version);
        if release.cooperative_only && !accepted.contains(&u) {
            let why = if streams_release(u).cooperative {
                "it must name an earlier release"
            } else if release.upgrade_from_since_2_4 {
                "values up to 2.3 were removed in 4.2 (KAFKA-19703), and 4.0 dropped eager rebalancing (KAFKA-18839): an upgrade from 2.3 or older goes through a bridge release, 2.4 … 3.9"
            } else {
                "4.0 dropped eager rebalancing (KAFKA-18839), so it refuses upgrade from 2.3 or older: that upgrade goes through a bridge release, 2.4 … 3.9"
            };
            return Err(ScenarioError::invalid(
                field("upgrade.from"),
                format!(
                    "is {u}, which Kafka Streams {version} does not accept: allowed values are {}; {why}",
                    span(&accepted)
                ),
            ));
        }
    }
    if let Some(enabled) = config.state_updater_enabled {
        if version < KafkaVersion::new(3, 4) {
            return Err(ScenarioError::invalid(
                field("__state.updater.enabled__"),
                format!("exists from Kafka Streams 3.4 on; {version} always restores on the stream thread (allowed: unset)"),
            ));
        }
        if !enabled && version >= KafkaVersion::new(4, 3) {
            return Err(ScenarioError::invalid(
                field("__state.updater.enabled__"),
                format!("was removed in 4.3: Kafka Streams {version} always restores on the state updater (allowed: unset or true; false needs 3.4 … 4.2)"),
            ));
        }
    }
    Ok(())
}

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
    check_release_keys(&r, version, &field)?;
    STREAMS_HEARTBEAT_INTERVAL_MS.check(
        &field("streams.heartbeat.interval.ms"),
        r.streams_heartbeat_interval_ms,
        " ms",
    )?;
    STREAMS_SESSION_TIMEOUT_MS.check(
        &field("streams.session.timeout.ms"),
        r.streams_session_timeout_ms,
        " ms",
    )?;
    STREAMS_NUM_STANDBY_REPLICAS.check(
        &field("streams.num.standby.replicas"),
        u64::from(r.streams_num_standby_replicas),
        "",
    )?;
    PLAYGROUND_TIME_MS.check(
        &field("streams.initial.rebalance.delay.ms"),
        r.streams_initial_rebalance_delay_ms,
        " ms",
    )?;
    STREAMS_ASSIGNMENT_INTERVAL_MS.check(
        &field("streams.assignment.interval.ms"),
        r.streams_assignment_interval_ms,
        " ms",
    )?;
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
    check_version("streams.kafka_version", version)?;
    if app.process_ids.len() > MAX_INSTANCES as usize {
        return Err(ScenarioError::invalid(
            "streams.process_ids",
            format!(
                "lists more than {MAX_INSTANCES} ids, the most instances the playground simulates"
            ),
        ));
    }
    for (i, id) in app.process_ids.iter().enumerate() {
        if app.process_ids[..i].contains(id) {
            return Err(ScenarioError::invalid(
                format!("streams.process_ids[{i}]"),
                format!("repeats {id}: every instance needs its own ProcessId"),
            ));
        }
    }
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
        if let Some(own) = v.kafka_version {
            check_version(&format!("compare[{i}].kafka_version"), own)?;
        }
        validate_config(
            &app.config.merged(&v.config),
            v.kafka_version.unwrap_or(version),
            &format!("compare[{i}].config"),
        )?;
    }
    // An event's config, layered over each column's, on the version it names.
    let columns: Vec<(StreamsConfig, KafkaVersion)> = if s.compare.is_empty() {
        vec![(app.config.clone(), version)]
    } else {
        s.compare
            .iter()
            .map(|v| {
                (
                    app.config.merged(&v.config),
                    v.kafka_version.unwrap_or(version),
                )
            })
            .collect()
    };
    let check_event_config = |config: &StreamsConfig, own: Option<KafkaVersion>, at: &str| {
        if let Some(own) = own {
            check_version(&format!("{at}.kafka_version"), own)?;
        }
        for (base, column_version) in &columns {
            let merged = base.merged(config);
            let v = own.unwrap_or(*column_version);
            validate_config(&merged, v, &format!("{at}.config"))?;
            super::group_protocol::check_same_protocol(base, &merged, at)?;
        }
        Ok::<(), ScenarioError>(())
    };
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
                check_event_config(config, *kafka_version, &at)?;
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
                check_event_config(config, *kafka_version, &at)?;
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
                check_event_config(config, *kafka_version, &at)?;
            }
            StreamsEvent::GcPause {
                instance,
                duration_ms,
            } => {
                known(instance, instances_ever)?;
                day("duration_ms", *duration_ms)?;
            }
            StreamsEvent::SlowProcessing {
                instance,
                duration_ms,
                thread,
            } => {
                known(instance, instances_ever)?;
                day("duration_ms", *duration_ms)?;
                if let Some(n) = thread {
                    ranges::NUM_STREAM_THREADS.check(&format!("{at}.thread"), u64::from(*n), "")?;
                }
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
