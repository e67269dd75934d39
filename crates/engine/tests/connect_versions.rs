//! The Kafka-version selector for Connect (issue #14): each assignor fix
//! the simulator models behaves as the selected release has it, from the
//! release tags that contain it, and `connect.protocol` defaults to what the
//! release shipped. Rounds are replayed the way Kafka's own
//! `IncrementalCooperativeAssignorTest` of that release drives them.

#[path = "support/connect_harness.rs"]
mod connect_harness;

use connect_harness::{counts, Harness};
use engine::connect::incremental_cooperative_assignor::{LoadBalancing, LostHandling};
use engine::connect::versions::connect_release;
use engine::run::run;
use engine::scenario::KafkaVersion;
use engine::scenario::{ConnectConfig, Scenario};

const MAX_DELAY: i32 = 300_000;

fn v(text: &str) -> KafkaVersion {
    KafkaVersion::parse(text).expect("a version")
}

/// The harness `h` replaying release `version`.
fn on(h: Harness, version: &str) -> Harness {
    h.on_release(connect_release(v(version)).fixes)
}

/// `testTaskAssignmentWhenFirstAssignmentAttemptFails`: before KAFKA-9848 the
/// leader trusts its history, so the work of a round that never reached the
/// members counts as lost although nobody left, and waits for the full
/// `scheduled.rebalance.max.delay.ms`.
// See: https://issues.apache.org/jira/browse/KAFKA-9848
#[test]
fn kafka_9848_before_2_5_1_an_undelivered_assignment_waits_for_the_delay() {
    for (version, delay, held) in [
        ("2.5.0", MAX_DELAY, (vec![0, 0], vec![0, 0])),
        ("2.5.1", 0, (vec![1, 1], vec![4, 4])),
        ("2.6.0", 0, (vec![1, 1], vec![4, 4])),
    ] {
        let mut h = on(Harness::two_connectors(MAX_DELAY), version);
        h.join("worker1");
        h.join("worker2");
        h.failed_rebalance();
        assert_eq!(counts(&h.rebalance()), (held.0, held.1, delay), "{version}");
    }
}

/// `testTaskAssignmentWhenTasksDuplicatedInWorkerAssignment`: a zombie that
/// comes back running work another worker runs. KAFKA-9841 (shipped with
/// KAFKA-9848) revokes every copy; before, the leader does not notice and
/// both copies keep running.
// See: https://issues.apache.org/jira/browse/KAFKA-9841
#[test]
fn kafka_9841_before_2_5_1_duplicated_work_is_not_revoked() {
    for (version, revoked) in [("2.5.0", (0, 0)), ("2.5.1", (2, 8))] {
        let mut h = on(Harness::two_connectors(MAX_DELAY), version);
        h.join("worker1");
        h.rebalance();
        h.join_holding(
            "worker2",
            &["connector1"],
            &[
                "connector1-0",
                "connector1-1",
                "connector1-2",
                "connector1-3",
            ],
        );
        assert_eq!(h.rebalance().revoked, revoked, "{version}");
    }
}

/// `testLostAssignmentHandlingWithMoreThanOneCandidates`, as full rounds:
/// when the delay expires, KAFKA-10413 deals lost work round-robin over every
/// candidate; before it (2.6.1, 2.7.0) the first candidate takes it all.
// See: https://issues.apache.org/jira/browse/KAFKA-10413
#[test]
fn kafka_10413_before_2_6_2_and_in_2_7_0_lost_work_goes_to_the_first_candidate() {
    let connectors: Vec<(String, u32)> = (0..6).map(|i| (format!("connector{i}"), 2)).collect();
    let refs: Vec<(&str, u32)> = connectors.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    for (version, worker3, worker1) in [
        ("2.6.1", (2, 4), (0, 0)),
        ("2.7.0", (2, 4), (0, 0)),
        ("2.6.2", (1, 2), (1, 2)),
        ("2.7.1", (1, 2), (1, 2)),
        ("3.3.2", (1, 2), (1, 2)),
    ] {
        let mut h = on(Harness::new(MAX_DELAY, &refs, &[]), version);
        for w in ["worker0", "worker1", "worker2"] {
            h.join(w);
        }
        h.rebalance();
        h.leave("worker1");
        h.join("worker3");
        assert_eq!(h.rebalance().delay, MAX_DELAY, "{version}");
        h.sleep(150_000);
        h.join("worker1");
        assert_eq!(h.rebalance().delay, 150_000, "{version}");
        h.sleep(150_000);
        let (summary, deltas) = h.round(1, true);
        assert_eq!(summary.delay, 0, "{version}");
        let got = |w: &str| {
            deltas
                .iter()
                .find(|d| d.0 == w)
                .map(|d| (d.1.assigned_connectors.len(), d.1.assigned_tasks.len()))
        };
        assert_eq!(got("worker3"), Some(worker3), "{version}");
        assert_eq!(got("worker1"), Some(worker1), "{version}");
    }
}

/// The revocation half of KAFKA-10413, before KAFKA-12495 replaced it: two
/// workers join a worker running 3 connectors × 4 tasks. Before the fix the
/// leader revokes one floor average in total (1 connector, 4 tasks), and the
/// next round may not revoke again, so the group stays unbalanced; after it,
/// every worker is cut to the ceiling of the average and the follow-up round
/// balances.
// See: https://issues.apache.org/jira/browse/KAFKA-10413
#[test]
fn kafka_10413_before_2_6_2_simultaneous_joiners_leave_the_group_unbalanced() {
    for (version, first, settled) in [
        ("2.6.1", (1, 4), (vec![0, 1, 2], vec![2, 2, 8])),
        ("2.8.0", (2, 8), (vec![1, 1, 1], vec![4, 4, 4])),
    ] {
        let mut h = on(Harness::three_connectors(MAX_DELAY), version);
        h.join("worker1");
        h.rebalance();
        h.join("worker2");
        h.join("worker3");
        assert_eq!(h.rebalance().revoked, first, "{version}");
        for _ in 0..3 {
            h.rebalance();
        }
        let last = h.rebalance();
        assert_eq!(
            (last.connectors, last.tasks),
            settled,
            "{version}: what the group settles at"
        );
        h.assert_complete_and_unique();
    }
}

/// `testTaskAssignmentWhenSubsequentAssignmentAttemptFails` as Kafka 3.3's
/// test asserts it: the revocation computed in a round that never reached
/// the members is redone in the next round at once (`canRevoke`), where 3.4
/// (KAFKA-12495) treats it as a second revoking round in a row and backs off
/// 40 ms first.
// See: https://issues.apache.org/jira/browse/KAFKA-12495
#[test]
fn kafka_12495_before_3_4_0_a_repeated_revocation_is_not_backed_off() {
    for (version, delay) in [("3.3.2", 0), ("3.4.0", 40)] {
        let mut h = on(Harness::two_connectors(MAX_DELAY), version);
        h.join("worker1");
        h.join("worker2");
        h.rebalance();
        h.join("worker3");
        h.failed_rebalance();
        let third = h.rebalance();
        assert_eq!(third.delay, delay, "{version}");
        if delay == 0 {
            assert_eq!(
                counts(&third),
                (vec![0, 1, 1], vec![0, 3, 3], 0),
                "Kafka 3.3's assertions"
            );
            let fourth = h.rebalance();
            assert_eq!(counts(&fourth), (vec![0, 1, 1], vec![2, 3, 3], 0));
            h.assert_complete_and_unique();
        }
    }
}

/// Before KAFKA-12495 a leader never revokes in the round right after one
/// that revoked, and afterwards only to make room for an empty worker: a
/// worker that joins during the follow-up round gets a share of the revoked
/// tasks only, and the group stays unbalanced for good (the imbalance
/// KAFKA-12495 fixed). From 3.4 the same joins end balanced.
// See: https://issues.apache.org/jira/browse/KAFKA-12495
#[test]
fn kafka_12495_before_3_4_0_a_worker_joining_right_after_a_revocation_leaves_the_group_unbalanced()
{
    let joins = |version: &str| {
        let mut h = on(Harness::three_connectors(MAX_DELAY), version);
        h.join("worker1");
        h.rebalance();
        h.join("worker2");
        assert_eq!(h.rebalance().revoked, (1, 6), "{version}");
        h.join("worker3");
        h
    };
    let mut h = joins("3.3.2");
    let third = h.rebalance();
    assert_eq!(third.revoked, (0, 0));
    assert_eq!(
        h.assignor.last_round().map(|r| r.load_balancing.clone()),
        Some(LoadBalancing::HeldBack)
    );
    assert_eq!(counts(&third), (vec![0, 1, 2], vec![3, 3, 6], 0));
    for _ in 0..3 {
        let later = h.rebalance();
        assert_eq!(later.revoked, (0, 0));
        assert_eq!(counts(&later), (vec![0, 1, 2], vec![3, 3, 6], 0));
    }
    assert_eq!(
        h.assignor.last_round().map(|r| r.load_balancing.clone()),
        Some(LoadBalancing::NoEmptyWorker)
    );
    let mut h = joins("3.4.0");
    for _ in 0..6 {
        h.sleep(100_000);
        h.rebalance();
    }
    let settled = h.rebalance();
    assert_eq!(counts(&settled), (vec![1, 1, 1], vec![4, 4, 4], 0));
}

/// `testScheduledDelayIsDisabled`: with `scheduled.rebalance.max.delay.ms`
/// 0, KAFKA-15693 reassigns a departed worker's work at once. Before it the
/// leader only marks the deadline "now", and the work waits for the next
/// rebalance, whenever something else causes one.
// See: https://issues.apache.org/jira/browse/KAFKA-15693
#[test]
fn kafka_15693_before_3_5_2_and_in_3_6_0_zero_delay_leaves_lost_work_for_the_next_rebalance() {
    for (version, at_once) in [
        ("3.5.1", false),
        ("3.6.0", false),
        ("3.5.2", true),
        ("3.6.1", true),
        ("3.7.0", true),
    ] {
        let mut h = on(Harness::two_connectors(0), version);
        h.join("worker1");
        h.join("worker2");
        h.rebalance();
        h.leave("worker2");
        let second = h.rebalance();
        if at_once {
            assert_eq!(counts(&second), (vec![2], vec![8], 0), "{version}");
        } else {
            assert_eq!(counts(&second), (vec![1], vec![4], 0), "{version}");
            assert!(matches!(
                h.assignor.last_round().map(|r| r.lost_handling.clone()),
                Some(LostHandling::Postponed { .. })
            ));
            assert_eq!(counts(&h.rebalance()), (vec![2], vec![8], 0), "{version}");
        }
    }
}

/// KAFKA-9184: a round with nothing lost clears a pending delay. Before it
/// (2.3), a worker that left and came back as a zombie reporting its old
/// work leaves the delay in place: every member gets it again and again.
// See: https://issues.apache.org/jira/browse/KAFKA-9184
#[test]
fn kafka_9184_before_2_4_0_a_delay_outlives_the_loss() {
    for (version, delay) in [("2.3.1", MAX_DELAY), ("2.4.0", 0)] {
        let mut h = on(Harness::two_connectors(MAX_DELAY), version);
        h.join("worker1");
        h.join("worker2");
        h.rebalance();
        let held = h.member("worker2").clone();
        h.leave("worker2");
        assert_eq!(h.rebalance().delay, MAX_DELAY, "{version}");
        h.sleep(1_000);
        // The zombie rejoins under a new member id, reporting its old work.
        let connectors: Vec<String> = held
            .connectors
            .iter()
            .map(|&c| h.names.name(c).to_string())
            .collect();
        let tasks: Vec<String> = held.tasks.iter().map(|&t| h.names.task_label(t)).collect();
        let c: Vec<&str> = connectors.iter().map(String::as_str).collect();
        let t: Vec<&str> = tasks.iter().map(String::as_str).collect();
        h.join_holding("worker2-zombie", &c, &t);
        assert_eq!(h.rebalance().delay, delay, "{version}");
        if delay != 0 {
            assert_eq!(
                h.assignor.last_round().map(|r| r.lost_handling.clone()),
                Some(LostHandling::StaleDelayKept)
            );
            assert_eq!(h.rebalance().delay, delay, "{version}: again");
        }
    }
}

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// The version is a config key like any other: in a variant it selects the
/// release's behaviour and defaults (2.3 defaults to `compatible`, so its
/// group uses no session key); it is listed first among the editor's keys;
/// a scenario without it runs the newest release; versions the playground
/// does not model are refused, naming the field and the range.
#[test]
fn a_kafka_version_in_a_variant_selects_that_releases_defaults_and_rules() {
    let r = run(&scenario(
        r#"{"version":1,"seed":3,"connect":{"workers":3,"connectors":[{"name":"orders","tasks":6}]},
            "compare":[{"label":"2.3","config":{"kafka_version":"2.3"}},{"label":"newest"}],
            "events":[{"at_ms":30000,"type":"worker_join"}]}"#,
    ));
    let old = &r.variants[0].trace;
    let new = &r.variants[1].trace;
    assert!(old.rounds.iter().all(|r| r.protocol == "compatible"));
    assert!(new.rounds.iter().all(|r| r.protocol == "sessioned"));
    let keys = |t: &engine::trace::Trace| {
        t.steps
            .iter()
            .filter(|s| s.kind == engine::trace::StepKind::SessionKey)
            .count()
    };
    assert_eq!(keys(old), 0, "compatible distributes no session key");
    assert!(keys(new) > 0);

    let defaults = ConnectConfig::defaults();
    assert_eq!(defaults[0], ("kafka_version", "\"4.3\"".to_string()));

    // In a link it travels as the JSON key, and comes back the same.
    let with_patch = scenario(
        r#"{"version":1,"connect":{"workers":2,"connectors":[]},
            "compare":[{"label":"old","config":{"kafka_version":"2.6.2"}}]}"#,
    );
    assert!(with_patch.to_json().contains(r#""kafka_version":"2.6.2""#));
    match engine::link::decode(&format!("#{}", engine::link::encode(&with_patch))) {
        Ok(engine::link::LinkTarget::Scenario(s)) => assert_eq!(*s, with_patch),
        other => panic!("{other:?}"),
    }

    for (bad, field) in [
        (
            r#""compare":[{"label":"old","config":{"kafka_version":"2.2"}}]"#,
            "compare[0].config.kafka_version",
        ),
        (
            r#""compare":[{"label":"next","config":{"kafka_version":"4.4"}}]"#,
            "compare[0].config.kafka_version",
        ),
    ] {
        let json = format!(r#"{{"version":1,"connect":{{"workers":1,"connectors":[]}},{bad}}}"#);
        let err = Scenario::from_json(&json).unwrap_err().to_string();
        assert!(err.contains(field), "{err}");
        assert!(err.contains("2.3") && err.contains("4.3"), "{err}");
    }
}

/// On the simulator: the leader freezes past its session and comes back as
/// a zombie, reporting work the new leader (no history) already handed to
/// others. From 2.5.1 every copy is revoked and the group settles; on 2.5.0
/// the leader does not notice, both copies run to the end, and the run
/// never counts as healthy.
// See: https://issues.apache.org/jira/browse/KAFKA-9841
#[test]
fn kafka_9841_before_2_5_1_a_returning_zombie_and_the_new_owner_both_keep_running() {
    let r = run(&scenario(
        r#"{"version":1,"seed":3,"connect":{"workers":3,
            "connectors":[{"name":"orders","tasks":6},{"name":"clicks","tasks":6}]},
            "compare":[{"label":"2.5.0","config":{"kafka_version":"2.5.0"}},
                       {"label":"2.5.1","config":{"kafka_version":"2.5.1"}}],
            "events":[{"at_ms":30000,"type":"gc_pause","worker":"worker-1","duration_ms":25000}],
            "end_ms":120000}"#,
    ));
    let said = |label: &str, text: &str| {
        let v = r.variants.iter().find(|v| v.label == label).unwrap();
        v.trace.rounds.iter().any(|r| r.explanation.contains(text))
    };
    assert!(said("2.5.0", "predates KAFKA-9841"));
    assert!(said("2.5.1", "every copy is revoked (KAFKA-9841)"));
    let (old, new) = (&r.variants[0].metrics, &r.variants[1].metrics);
    assert!(old.duplicate_task_ms > 30_000, "{}", old.duplicate_task_ms);
    assert_eq!(old.settled_ms, None, "two copies running is not healthy");
    assert!(new.settled_ms.is_some());
    assert!(new.duplicate_task_ms < old.duplicate_task_ms);
}
