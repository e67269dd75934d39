//! Kafka Connect behaviours around the assignor, checked on the simulator
//! (issue #14): a rebalance notice is satisfied by the next JoinGroup, a
//! worker's holdings keep the order `ConnectProtocol` puts on the wire,
//! members the broker dropped keep running until they learn of it, and a
//! restart says when the process comes back.

use engine::run::{run, RunResult, VariantRun};
use engine::scenario::Scenario;
use engine::trace::{ItemState, StepKind, Trace};

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn variant<'a>(r: &'a RunResult, label: &str) -> &'a VariantRun {
    r.variants
        .iter()
        .find(|v| v.label == label)
        .unwrap_or_else(|| panic!("no variant {label}"))
}

fn steps(t: &Trace, kind: StepKind) -> Vec<&engine::trace::ProtocolStep> {
    t.steps.iter().filter(|s| s.kind == kind).collect()
}

/// `AbstractCoordinator.rejoinNeeded`: a heartbeat answered
/// REBALANCE_IN_PROGRESS while the herder is blocked stopping revoked tasks
/// only marks that a rejoin is needed. The worker's follow-up JoinGroup joins
/// that very rebalance, and completing it clears the mark: no extra
/// generation follows that changes nothing.
#[test]
fn a_rebalance_notice_is_satisfied_by_the_next_join_group() {
    // worker-4 joins at 30 s: the first round revokes 2 tasks from each
    // worker, whose stop takes 4 s. worker-4 leaves at 33 s, while they are
    // still stopping: their heartbeats tell them of the new rebalance.
    let r = run(&scenario(
        r#"{"version":1,"seed":3,"connect":{"workers":3,
            "connectors":[{"name":"orders","tasks":12},{"name":"clicks","tasks":12}],
            "config":{"scheduled.rebalance.max.delay.ms":0},"timings":{"task_stop_ms":4000}},
            "compare":[{"label":"cooperative"}],
            "events":[{"at_ms":30000,"type":"worker_join"},
                      {"at_ms":33000,"type":"worker_stop","worker":"worker-4"}]}"#,
    ));
    let t = &variant(&r, "cooperative").trace;
    let rounds: Vec<_> = t.rounds.iter().filter(|r| r.started_ms >= 30_000).collect();
    assert_eq!(rounds.len(), 2, "{rounds:#?}");
    assert!(
        rounds[0].explanation.contains("Revokes 6 tasks"),
        "{}",
        rounds[0].explanation
    );
    assert!(
        rounds[1].explanation.contains("LeaveGroup"),
        "{}",
        rounds[1].explanation
    );
    assert!(
        !t.rounds
            .iter()
            .any(|r| r.explanation.contains("Nothing to change")),
        "a stale notice started an empty generation"
    );
    // The notice did reach the busy workers: the round that places the
    // revoked tasks is the one worker-4's LeaveGroup started.
    assert!(
        rounds[1].explanation.contains("Assigns 6 tasks"),
        "{}",
        rounds[1].explanation
    );
}
