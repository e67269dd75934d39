//! Metrics as people read them: labelled rows with formatted values, one
//! column per compared variant, and the difference to the first column. The
//! CLI table, the page's metric cards and the SVG export all use these rows,
//! so every front end says the same thing in the same words.

use serde::Serialize;

use crate::metrics::{FamilyMetrics, Metrics};
use crate::run::RunResult;
use crate::wording::duration;

/// One metric across the compared variants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MetricRow {
    /// Stable key, e.g. `tasks_stopped`.
    pub key: String,
    /// Label, e.g. `Tasks stopped`.
    pub label: String,
    /// What it measures, for a tooltip.
    pub help: String,
    /// The value per variant, formatted (`12.340 s`, `4`, `—`).
    pub values: Vec<String>,
    /// Per variant, how it compares with the first column (`4 vs 120`), or empty.
    pub versus_first: Vec<String>,
    /// Raw value per variant (ms or counts) for charts and tests; `None` when undefined.
    pub raw: Vec<Option<u64>>,
}

/// The rows for a run, in display order.
pub fn metric_rows(result: &RunResult) -> Vec<MetricRow> {
    let metrics: Vec<&Metrics> = result.variants.iter().map(|v| &v.metrics).collect();
    let targets = target_assignments(result);
    let mut rows = vec![
        row(
            "task_seconds_not_running",
            "Task downtime",
            "Task-seconds during which a configured task ran nowhere, from the first event on.",
            &metrics,
            |m| Some(m.task_ms_not_running),
            Unit::Duration,
        ),
        row("tasks_stopped", "Tasks stopped", "Task stops (revoked, shut down or killed), counting each stop.", &metrics, |m| Some(m.tasks_stopped), Unit::Count),
        row("tasks_started", "Tasks started", "Task starts, counting each start.", &metrics, |m| Some(m.tasks_started), Unit::Count),
        // The streams protocol has no rounds: "—", not a misleading 0.
        row_of(
            "rebalance_rounds",
            "Rebalance rounds",
            "JoinGroup/SyncGroup rounds completed, from the first event on.",
            metrics
                .iter()
                .zip(&targets)
                .map(|(m, t)| t.is_none().then_some(u64::from(m.rebalance_rounds)))
                .collect(),
            Unit::Count,
        ),
        row(
            "longest_task_outage",
            "Longest task outage",
            "The longest stretch during which one task ran nowhere.",
            &metrics,
            |m| m.longest_task_outage.as_ref().map(|o| o.duration_ms),
            Unit::Duration,
        ),
        row(
            "peak_imbalance",
            "Peak imbalance",
            "The largest difference in running tasks between two live workers.",
            &metrics,
            |m| Some(u64::from(m.peak_imbalance)),
            Unit::Count,
        ),
        row(
            "duplicate_task_seconds",
            "Tasks running twice",
            "Task-seconds during which a task ran on two workers at once (only zombies of frozen workers can cause it).",
            &metrics,
            |m| Some(m.duplicate_task_ms),
            Unit::Duration,
        ),
        row(
            "settled_at",
            "Settled at",
            "When every task was running on a balanced cluster for the rest of the run.",
            &metrics,
            |m| m.settled_ms,
            Unit::Time,
        ),
    ];
    if targets.iter().any(Option::is_some) {
        let at = rows
            .iter()
            .position(|r| r.key == "rebalance_rounds")
            .map_or(rows.len(), |i| i + 1);
        rows.insert(
            at,
            row_of(
                "target_assignments",
                "Target assignments",
                "Target assignments the streams group coordinator computed (GroupMetadataManager, KIP-1071), from the first event on: the streams protocol has no rebalance rounds.",
                targets,
                Unit::Count,
            ),
        );
    }
    // Kafka Streams rows, only for Streams runs.
    if metrics
        .iter()
        .any(|m| matches!(m.family, FamilyMetrics::Streams(_)))
    {
        type Pick = fn(&crate::metrics::StreamsMetrics) -> Option<u64>;
        let streams_rows: [(&str, &str, &str, Pick, Unit); 7] = [
            ("processing_downtime", "Processing downtime", "Task-seconds during which a task processed nowhere, restoration included (restoring is not processing).", |s| Some(s.processing_downtime_ms), Unit::Duration),
            ("restoring_seconds", "Restoring", "Task-seconds an active spent restoring its state before it could process.", |s| Some(s.restoring_ms), Unit::Duration),
            ("records_restored", "Records restored", "Changelog records replayed by actives, warmups and standbys.", |s| Some(s.records_restored), Unit::Count),
            ("warmups_started", "Warmups started", "Warmup replicas HighAvailabilityTaskAssignor started.", |s| Some(s.warmups_started), Unit::Count),
            ("warmups_promoted", "Warmups promoted", "Warmups that became the active on their instance.", |s| Some(s.warmups_promoted), Unit::Count),
            ("probing_rebalances", "Probing rebalances", "Rebalances triggered by probing.rebalance.interval.ms.", |s| Some(u64::from(s.probing_rebalances)), Unit::Count),
            ("caught_up_and_stable", "Caught up and stable at", "When every task was processing on a caught-up instance with no warmup left and no further rebalance.", |s| s.caught_up_and_stable_ms, Unit::Time),
        ];
        for (key, label, help, pick, unit) in streams_rows {
            rows.push(row(
                key,
                label,
                help,
                &metrics,
                |m| match &m.family {
                    FamilyMetrics::Streams(s) => pick(s),
                    FamilyMetrics::Connect => None,
                },
                unit,
            ));
        }
    }
    // One recovery row per scenario event (events are the same in every variant).
    let events = metrics.first().map_or(0, |m| m.recovery.len());
    for i in 0..events {
        let label = metrics[0].recovery[i].label.clone();
        rows.push(row(
            &format!("recovery_{i}"),
            &format!("Recovered after “{label}”"),
            "Time from the event until every task ran on a balanced cluster again.",
            &metrics,
            |m| m.recovery.get(i).and_then(|r| r.recovered_after_ms),
            Unit::Duration,
        ));
    }
    rows
}

#[derive(Clone, Copy)]
enum Unit {
    Count,
    Duration,
    Time,
}

/// Per variant, the target assignments computed from the first event on,
/// for a run of the streams protocol (`group.protocol=streams`); `None` for
/// a protocol with rounds.
fn target_assignments(result: &RunResult) -> Vec<Option<u64>> {
    result
        .variants
        .iter()
        .map(|v| {
            let t = &v.trace;
            (t.rounds.is_empty() && !t.target_assignments.is_empty()).then(|| {
                t.target_assignments
                    .iter()
                    .filter(|a| a.computed_ms >= v.metrics.measured_from_ms)
                    .count() as u64
            })
        })
        .collect()
}

fn row(
    key: &str,
    label: &str,
    help: &str,
    metrics: &[&Metrics],
    value: impl Fn(&Metrics) -> Option<u64>,
    unit: Unit,
) -> MetricRow {
    row_of(
        key,
        label,
        help,
        metrics.iter().map(|m| value(m)).collect(),
        unit,
    )
}

/// A row from one raw value per variant.
fn row_of(key: &str, label: &str, help: &str, raw: Vec<Option<u64>>, unit: Unit) -> MetricRow {
    let values: Vec<String> = raw
        .iter()
        .map(|v| v.map_or_else(|| "—".to_string(), |v| format_value(v, unit)))
        .collect();
    let versus_first = raw
        .iter()
        .enumerate()
        .map(|(i, v)| match (i, v, raw.first().copied().flatten()) {
            (0, ..) => String::new(),
            (_, Some(v), Some(first)) if *v != first => {
                format!(
                    "{} vs {}",
                    format_value(*v, unit),
                    format_value(first, unit)
                )
            }
            (_, Some(_), Some(_)) => "same".to_string(),
            _ => String::new(),
        })
        .collect();
    MetricRow {
        key: key.to_string(),
        label: label.to_string(),
        help: help.to_string(),
        values,
        versus_first,
        raw,
    }
}

/// Formats a count or a duration the way the page and the CLI show it.
fn format_value(v: u64, unit: Unit) -> String {
    match unit {
        Unit::Count => v.to_string(),
        Unit::Duration | Unit::Time => duration(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A preset's run and its metric rows.
    fn rows_of(preset: &str) -> (crate::run::RunResult, Vec<MetricRow>) {
        let result = crate::run::run(&crate::presets::find(preset).unwrap().scenario());
        let rows = metric_rows(&result);
        (result, rows)
    }

    #[test]
    fn rows_compare_with_the_first_column() {
        let (_, rows) = rows_of("connect/add-connector");
        let stopped = rows.iter().find(|r| r.key == "tasks_stopped").unwrap();
        assert_eq!(stopped.values.len(), 2);
        assert!(stopped.versus_first[0].is_empty());
        let (eager, coop) = (stopped.raw[0].unwrap(), stopped.raw[1].unwrap());
        assert!(coop < eager, "cooperative stopped {coop}, eager {eager}");
        assert_eq!(stopped.versus_first[1], format!("{coop} vs {eager}"));
        assert!(!rows.iter().any(|r| r.key == "target_assignments"));
    }

    #[test]
    fn a_protocol_without_rounds_counts_target_assignments_instead() {
        let (result, rows) = rows_of("streams/streams-protocol-instance-joins");
        let streams = result
            .variants
            .iter()
            .position(|v| !v.trace.target_assignments.is_empty())
            .expect("a streams-protocol column");
        let classic = 0;
        assert!(result.variants[classic].trace.target_assignments.is_empty());
        let rounds = rows.iter().find(|r| r.key == "rebalance_rounds").unwrap();
        assert!(rounds.raw[classic].unwrap() > 0);
        assert_eq!(rounds.raw[streams], None);
        assert_eq!(rounds.values[streams], "—");
        let targets = rows.iter().find(|r| r.key == "target_assignments").unwrap();
        assert_eq!(targets.raw[classic], None);
        let trace = &result.variants[streams].trace;
        let from = result.variants[streams].metrics.measured_from_ms;
        let expected = trace
            .target_assignments
            .iter()
            .filter(|a| a.computed_ms >= from)
            .count() as u64;
        assert!(expected > 0);
        assert_eq!(targets.raw[streams], Some(expected));
    }
}
