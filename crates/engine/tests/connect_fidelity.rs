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

/// The zombie spans on `worker`'s lane, as (start, end).
fn zombie_spans(t: &Trace, worker: &str) -> Vec<(u64, u64)> {
    let w = t.worker_index(worker).expect("worker exists");
    t.spans
        .iter()
        .filter(|s| s.worker == Some(w) && s.state == ItemState::Zombie)
        .map(|s| (s.start_ms, s.end_ms))
        .collect()
}

/// A member the join phase dropped while it could not rejoin in time runs
/// its work on until its next heartbeat is answered UNKNOWN_MEMBER_ID: the
/// trace shows those copies as zombie copies and "tasks running twice"
/// counts their overlap with the new owners. Under eager, learning of it
/// stops everything (`onJoinPrepare`); under cooperative the worker keeps
/// its copies and rejoins reporting them.
#[test]
fn members_dropped_by_the_join_phase_run_zombie_copies_until_they_learn_of_it() {
    // rebalance.timeout.ms (1 s) is shorter than heartbeat.interval.ms
    // (3 s): when worker-2 leaves, the others learn of the rebalance only
    // after the join phase has closed without them.
    let r = run(&scenario(
        r#"{"version":1,"seed":3,"connect":{"workers":3,
            "connectors":[{"name":"orders","tasks":6},{"name":"clicks","tasks":6}],
            "config":{"rebalance.timeout.ms":1000}},
            "compare":[{"label":"eager","config":{"connect.protocol":"eager"}},
                       {"label":"cooperative"}],
            "events":[{"at_ms":30000,"type":"worker_restart","worker":"worker-2","downtime_ms":10000}]}"#,
    ));
    for label in ["eager", "cooperative"] {
        let v = variant(&r, label);
        let t = &v.trace;
        assert!(
            v.metrics.duplicate_task_ms > 0,
            "{label}: dropped members' copies ran next to their new owners"
        );
        let w1 = t.worker_index("worker-1").unwrap();
        let dropped = steps(t, StepKind::Dropped);
        let first = dropped
            .iter()
            .find(|s| s.worker == Some(w1))
            .expect("worker-1 is dropped");
        let zombie = steps(t, StepKind::Zombie)
            .into_iter()
            .find(|s| s.worker == Some(w1) && s.at_ms == first.at_ms)
            .unwrap_or_else(|| panic!("{label}: the drop is marked as a zombie"));
        assert!(
            zombie.explanation.contains("run on as zombie copies"),
            "{}",
            zombie.explanation
        );
        let spans = zombie_spans(t, "worker-1");
        assert!(
            spans.iter().any(|&(s, _)| s == first.at_ms),
            "{label}: worker-1's copies turn zombie when it is dropped: {spans:?}"
        );
        let learned: Vec<u64> = steps(t, StepKind::UnknownMember)
            .iter()
            .filter(|s| s.worker == Some(w1))
            .map(|s| s.at_ms)
            .collect();
        if label == "eager" {
            // It stops everything the moment it learns it was removed.
            for &(start, end) in &spans {
                let next = learned.iter().find(|&&l| l >= start).copied();
                assert_eq!(Some(end), next, "{label}: zombie span {start}–{end}");
            }
        }
    }
}

/// A worker frozen for less than `session.timeout.ms` but through a whole
/// join phase is dropped by the broker all the same; it resumes not knowing
/// it and runs its work as zombie copies, which overlap the new owners when
/// the leader reassigned the work at once (`scheduled.rebalance.max.delay.ms`
/// 0).
#[test]
fn a_worker_frozen_through_a_join_phase_resumes_as_a_zombie() {
    let r = run(&scenario(
        r#"{"version":1,"seed":3,"connect":{"workers":3,
            "connectors":[{"name":"orders","tasks":6},{"name":"clicks","tasks":6}],
            "config":{"rebalance.timeout.ms":2000,"scheduled.rebalance.max.delay.ms":0}},
            "compare":[{"label":"cooperative"}],
            "events":[{"at_ms":30000,"type":"gc_pause","worker":"worker-3","duration_ms":6000},
                      {"at_ms":31000,"type":"worker_join"}]}"#,
    ));
    let v = variant(&r, "cooperative");
    let t = &v.trace;
    let w3 = t.worker_index("worker-3").unwrap();
    assert!(
        steps(t, StepKind::SessionTimeout).is_empty(),
        "the pause is shorter than the session"
    );
    assert!(steps(t, StepKind::Dropped)
        .iter()
        .any(|s| s.worker == Some(w3) && s.at_ms < 36_000));
    let resumed = steps(t, StepKind::Zombie)
        .into_iter()
        .find(|s| s.worker == Some(w3))
        .expect("worker-3 resumes as a zombie");
    assert_eq!(resumed.at_ms, 36_000);
    assert!(
        resumed.explanation.contains("removed it meanwhile"),
        "{}",
        resumed.explanation
    );
    assert!(zombie_spans(t, "worker-3")
        .iter()
        .any(|&(s, _)| s == 36_000));
    assert!(v.metrics.duplicate_task_ms > 0);
}

/// The items of a round member's list, as labels.
fn labels(t: &Trace, list: engine::trace::ItemList) -> Vec<&str> {
    t.list(list)
        .iter()
        .map(|&i| t.items[i as usize].label.as_str())
        .collect()
}

/// A worker's holdings are what `ConnectProtocol` deserialized, never
/// sorted: `ConnectProtocol.Assignment.asMap` lays an assignment out by
/// connector — first the connectors the worker runs, in `java.util.HashSet`
/// iteration order of their names, then the other connectors by their first
/// task — and a cooperative worker's snapshot is the newly assigned work as
/// the wire delivered it followed by what it kept
/// (`WorkerCoordinator.onJoinComplete`). The leader reads the holdings in
/// that order and revokes the head of it.
///
/// `String.hashCode` puts `clicks` in bucket 9, `orders` in 10 and
/// `billing` in 15 of a 16-bucket table: the wire order is clicks, orders,
/// billing, where sorting would give billing, clicks, orders.
#[test]
fn holdings_keep_the_order_of_the_wire_format() {
    // worker-2 starts on eager, so the group runs eager until it comes back
    // on compatible: worker-1's last eager assignment is then read by the
    // cooperative assignor.
    let r = run(&scenario(
        r#"{"version":1,"seed":3,"connect":{"workers":2,
            "connectors":[{"name":"billing","tasks":3},{"name":"clicks","tasks":3},{"name":"orders","tasks":3}],
            "worker_overrides":[{"worker":"worker-2","config":{"connect.protocol":"eager"}}]},
            "compare":[{"label":"compatible","config":{"connect.protocol":"compatible"}}],
            "events":[{"at_ms":30000,"type":"worker_restart","worker":"worker-2","downtime_ms":5000,
                       "config":{"connect.protocol":"compatible"}}]}"#,
    ));
    let t = &variant(&r, "compatible").trace;
    let w1 = t.worker_index("worker-1").unwrap();
    let of = |round: usize| {
        t.rounds[round]
            .members
            .iter()
            .find(|m| m.worker == w1)
            .expect("worker-1 is a member")
    };
    // The first cooperative round (worker-2 has left): worker-1 reports its
    // eager assignment — EagerAssignor dealt it billing, orders and every
    // other task, in sorted order — grouped as the wire carries it.
    let first = t
        .rounds
        .iter()
        .position(|r| r.started_ms >= 30_000)
        .expect("a round after the restart");
    assert_eq!(t.rounds[first].protocol, "compatible");
    assert_eq!(
        labels(t, of(first).owned),
        [
            "orders",
            "billing",
            "orders-1",
            "billing-1",
            "clicks-0",
            "clicks-2"
        ]
    );
    // It is handed the rest and keeps it behind the new work: the next
    // round reads connectors in hash order, each followed by its tasks.
    let second = first + 1;
    assert_eq!(
        labels(t, of(second).owned),
        [
            "clicks",
            "orders",
            "billing",
            "clicks-1",
            "clicks-0",
            "clicks-2",
            "orders-0",
            "orders-2",
            "orders-1",
            "billing-0",
            "billing-2",
            "billing-1"
        ]
    );
    // worker-2 is back and empty: the leader revokes the head of the list.
    assert_eq!(
        labels(t, of(second).revoked),
        ["clicks", "clicks-1", "clicks-0", "clicks-2", "orders-0"]
    );
}
