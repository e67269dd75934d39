//! Metrics of hand-built traces: one task on two lanes.

use super::*;
use crate::trace::{ConfiguredSpan, ItemList, RebalanceRound, StateSpan, WorkItem, WorkerSpan};

/// A span of the one task on `worker`.
fn span(worker: u32, state: ItemState, start_ms: u64, end_ms: u64) -> StateSpan {
    StateSpan {
        worker: Some(worker),
        state,
        start_ms,
        end_ms,
        items: ItemList { start: 0, len: 1 },
        continues: false,
    }
}

/// A 100 s trace of one task, configured throughout, on two lanes that are
/// up throughout.
fn one_task_on_two_lanes(lanes: [&str; 2], task: &str, spans: Vec<StateSpan>) -> Trace {
    Trace {
        label: "t".into(),
        end_ms: 100_000,
        workers: lanes.iter().map(|&l| l.into()).collect(),
        items: vec![WorkItem {
            label: task.into(),
            kind: ItemKind::Task,
        }],
        item_lists: vec![0],
        spans,
        configured: vec![ConfiguredSpan {
            start_ms: 0,
            end_ms: 100_000,
            items: ItemList { start: 0, len: 1 },
        }],
        worker_spans: (0..2)
            .map(|worker| WorkerSpan {
                worker,
                state: WorkerState::Up,
                start_ms: 0,
                end_ms: 100_000,
                threads: 0,
            })
            .collect(),
        ..Trace::default()
    }
}

/// Two copies of one task that are not zombies, the later one recorded
/// first (another lane): no downtime from t = 0, and the overlap counts
/// as running twice.
#[test]
fn copies_on_two_lanes_count_in_start_order() {
    let trace = one_task_on_two_lanes(
        ["worker-1", "worker-2"],
        "c-0",
        vec![
            span(1, ItemState::Running, 30_000, 100_000),
            span(0, ItemState::Running, 0, 40_000),
        ],
    );
    let m = Metrics::from_trace(&trace);
    assert_eq!(m.task_ms_not_running, 0);
    assert_eq!(m.duplicate_task_ms, 10_000);
}

/// One task: running on instance-1, warmed up on instance-2, which
/// holds it as a standby for the held-back round and then takes over.
#[test]
fn a_warmup_promoted_through_a_held_back_round_counts_once() {
    let trace = Trace {
        rounds: vec![RebalanceRound {
            completed_ms: 52_000,
            ..RebalanceRound::default()
        }],
        ..one_task_on_two_lanes(
            ["instance-1", "instance-2"],
            "0_0",
            vec![
                span(0, ItemState::Running, 0, 50_000),
                span(1, ItemState::Warmup, 10_000, 50_000),
                span(0, ItemState::Stopping, 50_000, 50_100),
                span(1, ItemState::Standby, 50_000, 52_000),
                span(1, ItemState::Starting, 52_000, 52_200),
                span(1, ItemState::Restoring, 52_200, 53_200),
                span(1, ItemState::Running, 53_200, 100_000),
            ],
        )
    };
    let shared = Metrics::from_trace(&trace);
    let m = StreamsMetrics::from_trace(&trace, &shared, 42);
    assert_eq!(m.warmups_started, 1);
    assert_eq!(m.warmups_promoted, 1);
    assert_eq!(m.restoring_ms, 1_000);
    assert_eq!(m.records_restored, 42);
    // Not processing from the revocation until the restore is done.
    assert_eq!(m.processing_downtime_ms, 53_200 - 50_000);
    assert_eq!(m.caught_up_and_stable_ms, Some(53_200));
}
