//! The headline metrics a sweep plots per point: figures of the engine's
//! [`Metrics`], read, never recomputed, under the keys and labels of
//! [`crate::report`].

use serde::{Deserialize, Serialize};

use crate::metrics::{FamilyMetrics, Metrics};
use crate::scenario::FamilyKind;

use super::parameter::ValueUnit;

/// One headline metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Headline {
    /// [`Metrics::task_ms_not_running`].
    TaskDowntime,
    /// [`Metrics::tasks_stopped`].
    TasksStopped,
    /// [`Metrics::longest_task_outage`]'s duration.
    LongestOutage,
    /// [`Metrics::rebalance_rounds`].
    RebalanceRounds,
    /// [`Metrics::settled_ms`].
    SettledAt,
    /// [`Metrics::duplicate_task_ms`].
    RunningTwice,
    /// Streams' `caught_up_and_stable_ms`: when warmups are done.
    CaughtUpAndStable,
}

impl Headline {
    /// The headline metrics of a family, in display order.
    pub fn for_family(family: FamilyKind) -> &'static [Headline] {
        use Headline::*;
        const SHARED: [Headline; 6] = [
            TaskDowntime,
            TasksStopped,
            LongestOutage,
            RebalanceRounds,
            SettledAt,
            RunningTwice,
        ];
        const STREAMS: [Headline; 7] = [
            TaskDowntime,
            TasksStopped,
            LongestOutage,
            RebalanceRounds,
            SettledAt,
            RunningTwice,
            CaughtUpAndStable,
        ];
        match family {
            FamilyKind::Connect => &SHARED,
            FamilyKind::Streams => &STREAMS,
        }
    }

    /// The key of the same row in [`crate::report::metric_rows`].
    pub fn report_key(self) -> &'static str {
        match self {
            Self::TaskDowntime => "task_seconds_not_running",
            Self::TasksStopped => "tasks_stopped",
            Self::LongestOutage => "longest_task_outage",
            Self::RebalanceRounds => "rebalance_rounds",
            Self::SettledAt => "settled_at",
            Self::RunningTwice => "duplicate_task_seconds",
            Self::CaughtUpAndStable => "caught_up_and_stable",
        }
    }

    /// The label of that row.
    pub fn label(self) -> &'static str {
        match self {
            Self::TaskDowntime => "Task downtime",
            Self::TasksStopped => "Tasks stopped",
            Self::LongestOutage => "Longest task outage",
            Self::RebalanceRounds => "Rebalance rounds",
            Self::SettledAt => "Settled at",
            Self::RunningTwice => "Tasks running twice",
            Self::CaughtUpAndStable => "Caught up and stable at",
        }
    }

    /// The CSV column: the value as a plain number, with its unit.
    pub fn csv_column(self) -> &'static str {
        match self {
            Self::TaskDowntime => "task_downtime_ms",
            Self::TasksStopped => "tasks_stopped",
            Self::LongestOutage => "longest_task_outage_ms",
            Self::RebalanceRounds => "rebalance_rounds",
            Self::SettledAt => "settled_at_ms",
            Self::RunningTwice => "running_twice_ms",
            Self::CaughtUpAndStable => "caught_up_and_stable_at_ms",
        }
    }

    /// What its numbers count.
    pub fn unit(self) -> ValueUnit {
        match self {
            Self::TasksStopped | Self::RebalanceRounds => ValueUnit::Count,
            _ => ValueUnit::Ms,
        }
    }

    /// The value in a run's metrics; `None` when it is undefined (no
    /// outage, never settled).
    pub fn value(self, m: &Metrics) -> Option<u64> {
        match self {
            Self::TaskDowntime => Some(m.task_ms_not_running),
            Self::TasksStopped => Some(m.tasks_stopped),
            Self::LongestOutage => m.longest_task_outage.as_ref().map(|o| o.duration_ms),
            Self::RebalanceRounds => Some(u64::from(m.rebalance_rounds)),
            Self::SettledAt => m.settled_ms,
            Self::RunningTwice => Some(m.duplicate_task_ms),
            Self::CaughtUpAndStable => match &m.family {
                FamilyMetrics::Streams(s) => s.caught_up_and_stable_ms,
                FamilyMetrics::Connect => None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same keys, labels and raw values as the report's rows, so the sweep
    /// and the compare view say the same thing.
    #[test]
    fn headlines_are_report_rows() {
        for id in ["connect/worker-bounce", "streams/stateful-scale-out"] {
            let scenario = crate::presets::find(id).unwrap().scenario();
            let result = crate::run::run(&scenario);
            let rows = crate::report::metric_rows(&result);
            for &h in Headline::for_family(scenario.family_kind()) {
                let row = rows
                    .iter()
                    .find(|r| r.key == h.report_key())
                    .unwrap_or_else(|| panic!("{id}: no row {}", h.report_key()));
                assert_eq!(row.label, h.label(), "{id}");
                let mine: Vec<Option<u64>> = result
                    .variants
                    .iter()
                    .map(|v| h.value(&v.metrics))
                    .collect();
                assert_eq!(row.raw, mine, "{id}: {}", h.report_key());
            }
        }
    }
}
