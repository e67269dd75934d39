//! A restart says when the process comes back (issue #14), the same way in
//! both families: its downtime counts from the moment the old process exits
//! — after its graceful stop (Connect: stop the work, then LeaveGroup;
//! Streams: `close()` commits), or at the crash — and the trace names the
//! time, which is when the new process starts.

use engine::run::run;
use engine::scenario::Scenario;
use engine::trace::{StepKind, Trace};

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// When `worker`'s second process starts: the first of its spans that
/// continues no earlier span (a pause or a state change opens spans too).
fn second_start(t: &Trace, worker: &str) -> u64 {
    let w = t.worker_index(worker).expect("worker exists");
    let spans: Vec<(u64, u64)> = t
        .worker_spans
        .iter()
        .filter(|s| s.worker == w)
        .map(|s| (s.start_ms, s.end_ms))
        .collect();
    spans
        .iter()
        .find(|&&(start, _)| start > 0 && !spans.iter().any(|&(_, end)| end == start))
        .map(|s| s.0)
        .expect("a second process")
}

fn step(t: &Trace, kind: StepKind) -> &engine::trace::ProtocolStep {
    t.steps
        .iter()
        .find(|s| s.kind == kind)
        .unwrap_or_else(|| panic!("no {kind} step"))
}

#[test]
fn a_connect_restart_comes_back_its_downtime_after_the_process_exits() {
    // A graceful restart: worker-2 stops its connector and tasks (700 ms at
    // the default timings), exits at 30.7 s, and is back 10 s later.
    let r = run(&scenario(
        r#"{"version":1,"connect":{"workers":3,"connectors":[{"name":"orders","tasks":6},{"name":"clicks","tasks":6}]},
            "compare":[{"label":"cooperative"}],
            "events":[{"at_ms":30000,"type":"worker_restart","worker":"worker-2","downtime_ms":10000},
                      {"at_ms":60000,"type":"worker_restart","worker":"worker-3","downtime_ms":5000,"crash":true}]}"#,
    ));
    let t = &r.variants[0].trace;
    for kind in [StepKind::GracefulStop, StepKind::LeaveGroup] {
        let s = step(t, kind);
        assert!(
            s.explanation
                .contains("it comes back at t = 0:40.700, 10 s after it exits"),
            "{kind}: {}",
            s.explanation
        );
    }
    assert_eq!(second_start(t, "worker-2"), 40_700);
    let crash = step(t, StepKind::Crash);
    assert!(
        crash
            .explanation
            .contains("it comes back at t = 1:05, 5 s after it exits"),
        "{}",
        crash.explanation
    );
    assert_eq!(second_start(t, "worker-3"), 65_000);
}

#[test]
fn a_streams_restart_comes_back_its_downtime_after_the_process_exits() {
    // close() commits for timings.task_commit_ms before the process exits.
    let r = run(&scenario(
        r#"{"version":1,"streams":{"instances":2,"subtopologies":[{"partitions":4}],
            "timings":{"task_commit_ms":300}},
            "compare":[{"label":"cooperative"}],
            "events":[{"at_ms":30000,"type":"instance_restart","instance":"instance-2","downtime_ms":10000}]}"#,
    ));
    let t = &r.variants[0].trace;
    let close = step(t, StepKind::Close);
    assert!(
        close
            .explanation
            .contains("it comes back at t = 0:40.300, 10 s after it exits"),
        "{}",
        close.explanation
    );
    assert_eq!(second_start(t, "instance-2"), 40_300);
}
