//! The range each numeric scenario value must lie in, and who sets it:
//! Kafka's own validators where Kafka has one (the `ConfigDef` ranges of
//! `DistributedConfig` and `StreamsConfig`, the `int` and `long` types
//! Kafka reads a value as, and the broker's session-timeout bounds), the
//! playground's [`limits`](super::limits) where Kafka has none. A refusal
//! names the key, the value and the range.
//!
//! A value Kafka accepts stays accepted even when it makes the group storm
//! (a 10 ms `rebalance.timeout.ms`): a storm is real behaviour, and the
//! simulator's run budget bounds what it costs.

use super::{limits, ScenarioError};

/// An inclusive range of accepted values and where it comes from.
pub(crate) struct Range {
    /// Smallest accepted value.
    pub(crate) min: u64,
    /// Largest accepted value.
    pub(crate) max: u64,
    /// Who accepts it: "Kafka", "the broker", "the playground".
    pub(crate) who: &'static str,
    /// Why, shown in brackets after the range (a Kafka config or class, a limit).
    pub(crate) why: &'static str,
}

impl Range {
    /// Refuses `value` at `field` outside the range, naming key, value and
    /// range; `unit` follows each number (" ms" or "").
    pub(crate) fn check(&self, field: &str, value: u64, unit: &str) -> Result<(), ScenarioError> {
        if (self.min..=self.max).contains(&value) {
            return Ok(());
        }
        Err(ScenarioError::invalid(
            field,
            format!(
                "is {value}{unit}; {} accepts {} to {}{unit} ({})",
                self.who, self.min, self.max, self.why
            ),
        ))
    }
}

/// Kafka reads the key as an `int` (`ConfigDef.Type.INT`).
const INT_MAX: u64 = i32::MAX as u64;
/// Kafka reads the key as a `long` (`ConfigDef.Type.LONG`).
const LONG_MAX: u64 = i64::MAX as u64;

/// The broker's `group.min.session.timeout.ms` default (6 s).
pub(crate) const GROUP_MIN_SESSION_TIMEOUT_MS: u64 = 6_000;
/// The broker's `group.max.session.timeout.ms` default (30 min).
pub(crate) const GROUP_MAX_SESSION_TIMEOUT_MS: u64 = 1_800_000;

/// `session.timeout.ms` of a Connect worker or a Streams consumer: the
/// broker refuses a JoinGroup outside its group bounds with
/// `INVALID_SESSION_TIMEOUT` (`GroupCoordinatorService.joinGroup`), so the
/// member could never join.
pub(crate) const SESSION_TIMEOUT_MS: Range = Range {
    min: GROUP_MIN_SESSION_TIMEOUT_MS,
    max: GROUP_MAX_SESSION_TIMEOUT_MS,
    who: "the broker",
    why: "group.min.session.timeout.ms, group.max.session.timeout.ms: it refuses a JoinGroup outside them",
};

/// Connect's `rebalance.timeout.ms` (an `int` without a validator in
/// `DistributedConfig`); the playground needs at least 1 ms.
pub(crate) const CONNECT_REBALANCE_TIMEOUT_MS: Range = Range {
    min: 1,
    max: INT_MAX,
    who: "the playground",
    why: "Kafka reads it as an int; the playground needs at least 1 ms",
};

/// `scheduled.rebalance.max.delay.ms` and `inter.worker.key.ttl.ms`:
/// `between(0, Integer.MAX_VALUE)` in `DistributedConfig`.
pub(crate) const CONNECT_DELAY_MS: Range = Range {
    min: 0,
    max: INT_MAX,
    who: "Kafka",
    why: "its range in DistributedConfig",
};

/// A duration Kafka does not bound (`task.shutdown.graceful.timeout.ms`,
/// `group.initial.rebalance.delay.ms`, `state.cleanup.delay.ms`), an
/// event's time or duration: at most the simulated time.
pub(crate) const PLAYGROUND_TIME_MS: Range = Range {
    min: 0,
    max: limits::MAX_TIME_MS,
    who: "the playground",
    why: "it simulates at most one day",
};

/// Streams' `max.poll.interval.ms`: `atLeast(1)` in `ConsumerConfig`;
/// the playground simulates at most one day.
pub(crate) const MAX_POLL_INTERVAL_MS: Range = Range {
    min: 1,
    max: limits::MAX_TIME_MS,
    who: "the playground",
    why: "Kafka's minimum is 1 ms; the playground simulates at most one day",
};

/// `probing.rebalance.interval.ms`: `atLeast(60 * 1000L)` in `StreamsConfig`;
/// the playground simulates at most one day.
pub(crate) const PROBING_REBALANCE_INTERVAL_MS: Range = Range {
    min: 60_000,
    max: limits::MAX_TIME_MS,
    who: "the playground",
    why: "Kafka's minimum is 60000 ms; the playground simulates at most one day",
};

/// `max.warmup.replicas`: `atLeast(1)`, an `int` (`StreamsConfig`).
pub(crate) const MAX_WARMUP_REPLICAS: Range = Range {
    min: 1,
    max: INT_MAX,
    who: "Kafka",
    why: "its range in StreamsConfig",
};

/// `acceptable.recovery.lag`: `atLeast(0)`, a `long` (`StreamsConfig`).
pub(crate) const ACCEPTABLE_RECOVERY_LAG: Range = Range {
    min: 0,
    max: LONG_MAX,
    who: "Kafka",
    why: "its range in StreamsConfig",
};

/// `num.stream.threads`: no bound in `StreamsConfig`.
pub(crate) const NUM_STREAM_THREADS: Range = Range {
    min: 1,
    max: limits::MAX_STREAM_THREADS as u64,
    who: "the playground",
    why: "the stream threads it simulates per instance",
};

/// `num.standby.replicas`: no bound in `StreamsConfig`.
pub(crate) const NUM_STANDBY_REPLICAS: Range = Range {
    min: 0,
    max: limits::MAX_STANDBY_REPLICAS as u64,
    who: "the playground",
    why: "Kafka sets no maximum",
};

/// A start, stop, initialisation or commit time in `timings` (the
/// simulator's model, not a Kafka config).
pub(crate) const WORK_TIMING_MS: Range = Range {
    min: 0,
    max: limits::MAX_WORK_TIMING_MS,
    who: "the playground",
    why: "10 minutes is its bound for starting, stopping or committing",
};

/// `timings.coordinator_rtt_ms`: one request round trip.
pub(crate) const COORDINATOR_RTT_MS: Range = Range {
    min: 0,
    max: limits::MAX_COORDINATOR_RTT_MS,
    who: "the playground",
    why: "a slower round trip would pass a consumer's default request.timeout.ms of 30000 ms",
};

/// `heartbeat.interval.ms` must be at least 1 ms and lower than
/// `session.timeout.ms` (`Heartbeat`'s constructor refuses it otherwise).
pub(crate) fn check_heartbeat(
    field: &str,
    heartbeat_ms: u64,
    session_timeout_ms: u64,
) -> Result<(), ScenarioError> {
    if heartbeat_ms >= 1 && heartbeat_ms < session_timeout_ms {
        return Ok(());
    }
    Err(ScenarioError::invalid(
        field,
        format!(
            "is {heartbeat_ms} ms; it must be at least 1 ms and lower than session.timeout.ms ({session_timeout_ms} ms), as Kafka requires"
        ),
    ))
}

/// Group config `streams.heartbeat.interval.ms`: within the broker's
/// `group.streams.min.heartbeat.interval.ms` … `group.streams.max.heartbeat.interval.ms`
/// (`GroupConfig` validation).
pub(crate) const STREAMS_HEARTBEAT_INTERVAL_MS: Range = Range {
    min: 5_000,
    max: 15_000,
    who: "the broker",
    why: "group.streams.min.heartbeat.interval.ms … group.streams.max.heartbeat.interval.ms",
};

/// Group config `streams.session.timeout.ms`: within the broker's
/// `group.streams.min.session.timeout.ms` … `group.streams.max.session.timeout.ms`.
pub(crate) const STREAMS_SESSION_TIMEOUT_MS: Range = Range {
    min: 45_000,
    max: 60_000,
    who: "the broker",
    why: "group.streams.min.session.timeout.ms … group.streams.max.session.timeout.ms",
};

/// Group config `streams.num.standby.replicas`: at most the broker's
/// `group.streams.max.standby.replicas` (2).
pub(crate) const STREAMS_NUM_STANDBY_REPLICAS: Range = Range {
    min: 0,
    max: 2,
    who: "the broker",
    why: "group.streams.max.standby.replicas",
};

/// Group config `streams.assignment.interval.ms` (KIP-1263).
pub(crate) const STREAMS_ASSIGNMENT_INTERVAL_MS: Range = Range {
    min: 0,
    max: 15_000,
    who: "the broker",
    why: "group.streams.assignment.interval.ms bounds",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_key_value_and_range() {
        let err = SESSION_TIMEOUT_MS
            .check("compare[1].config.session.timeout.ms", 1_000, " ms")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "The scenario's `compare[1].config.session.timeout.ms` is 1000 ms; the broker accepts \
             6000 to 1800000 ms (group.min.session.timeout.ms, group.max.session.timeout.ms: it \
             refuses a JoinGroup outside them)."
        );
        assert!(SESSION_TIMEOUT_MS.check("x", 6_000, " ms").is_ok());
        assert!(SESSION_TIMEOUT_MS.check("x", 1_800_000, " ms").is_ok());
        assert!(SESSION_TIMEOUT_MS.check("x", 1_800_001, " ms").is_err());
        let err = check_heartbeat("streams.config.heartbeat.interval.ms", 0, 45_000)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("is 0 ms") && err.contains("(45000 ms)"),
            "{err}"
        );
    }
}
