//! The seed's claims about Kafka Connect rebalancing, checked on the
//! simulator: what moves when a worker joins, how one old worker pins the
//! group to eager, how long a dead worker's tasks wait, what a leader crash
//! changes, zombies after a GC pause, KIP-507 session keys, protocol
//! switches, and events that cannot apply.

use engine::run::{run, RunResult, VariantRun};
use engine::scenario::Scenario;
use engine::trace::StepKind;
use engine::trace::{ItemKind, ItemState, Trace};

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn variant<'a>(r: &'a RunResult, label: &str) -> &'a VariantRun {
    r.variants
        .iter()
        .find(|v| v.label == label)
        .unwrap_or_else(|| panic!("no variant {label}"))
}

/// Tasks running on a worker when the run ends.
fn running_tasks_on(t: &Trace, worker: &str) -> Vec<u32> {
    let w = t.worker_index(worker).expect("worker exists");
    let mut v: Vec<u32> = t
        .spans
        .iter()
        .filter(|s| s.worker == Some(w) && s.state == ItemState::Running && s.end_ms == t.end_ms)
        .flat_map(|s| t.list(s.items).iter().copied())
        .filter(|&i| t.items[i as usize].kind == ItemKind::Task)
        .collect();
    v.sort_unstable();
    v
}

/// Tasks that entered `stopping` after `from`.
fn stopped_tasks(t: &Trace, from: u64) -> Vec<u32> {
    let mut v: Vec<u32> = t
        .spans
        .iter()
        .filter(|s| s.worker.is_some() && s.state == ItemState::Stopping && s.start_ms >= from)
        .flat_map(|s| t.list(s.items).iter().copied())
        .filter(|&i| t.items[i as usize].kind == ItemKind::Task)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn steps(t: &Trace, kind: StepKind) -> Vec<&engine::trace::ProtocolStep> {
    t.steps.iter().filter(|s| s.kind == kind).collect()
}

const COMPARE: &str = r#""compare":[
    {"label":"eager","config":{"connect.protocol":"eager"}},
    {"label":"cooperative","config":{"connect.protocol":"sessioned"}},
    {"label":"cooperative, delay 0","config":{"connect.protocol":"sessioned","scheduled.rebalance.max.delay.ms":0}}]"#;

fn cluster(workers: u32, events: &str, extra: &str) -> Scenario {
    scenario(&format!(
        r#"{{"version":1,"seed":3,"connect":{{"workers":{workers},"connectors":[{{"name":"orders","tasks":6}},{{"name":"clicks","tasks":6}}]{extra}}},
            {COMPARE},"events":[{events}]}}"#
    ))
}

#[test]
fn a_joining_worker_stops_only_the_moving_tasks_under_cooperative_and_everything_under_eager() {
    let r = run(&cluster(3, r#"{"at_ms":30000,"type":"worker_join"}"#, ""));
    let eager = &variant(&r, "eager");
    let coop = &variant(&r, "cooperative");
    // Eager: every task stops (onJoinPrepare) and starts again.
    assert_eq!(eager.metrics.tasks_stopped, 12);
    assert_eq!(eager.metrics.tasks_started, 12);
    assert_eq!(stopped_tasks(&eager.trace, 30_000).len(), 12);
    // Cooperative: exactly the tasks that end up on the new worker stop, once.
    let moved = running_tasks_on(&coop.trace, "worker-4");
    assert_eq!(moved.len(), 3, "12 tasks over 4 workers");
    assert_eq!(stopped_tasks(&coop.trace, 30_000), moved);
    assert_eq!(coop.metrics.tasks_stopped, 3);
    assert_eq!(coop.metrics.tasks_started, 3);
    // Two rounds: the revoking one and the follow-up that places them.
    let rounds: Vec<_> = coop
        .trace
        .rounds
        .iter()
        .filter(|r| r.started_ms >= 30_000)
        .collect();
    assert_eq!(rounds.len(), 2, "{rounds:#?}");
    assert!(
        rounds[0].explanation.contains("worker-4 joins"),
        "{}",
        rounds[0].explanation
    );
    assert!(
        rounds[0].explanation.contains("Revokes 3 tasks"),
        "{}",
        rounds[0].explanation
    );
    assert!(
        rounds[1].explanation.contains("follow-up"),
        "{}",
        rounds[1].explanation
    );
    assert!(coop.metrics.task_ms_not_running < eager.metrics.task_ms_not_running);
    assert_eq!(coop.metrics.duplicate_task_ms, 0);
    assert_eq!(eager.metrics.duplicate_task_ms, 0);
}

#[test]
fn one_eager_worker_makes_the_whole_group_eager() {
    let s = cluster(
        3,
        r#"{"at_ms":30000,"type":"worker_join"}"#,
        r#","worker_overrides":[{"worker":"worker-2","config":{"connect.protocol":"eager"}}]"#,
    );
    let r = run(&s);
    let coop = variant(&r, "cooperative");
    assert!(!coop.trace.rounds.is_empty());
    assert!(
        coop.trace.rounds.iter().all(|r| r.protocol == "default"),
        "every round runs `default`"
    );
    assert_eq!(coop.metrics.tasks_stopped, 12, "the join stops the world");
    assert!(
        steps(&coop.trace, StepKind::SessionKey).is_empty(),
        "no session key under eager"
    );
    assert!(steps(&coop.trace, StepKind::GroupProtocol)[0]
        .explanation
        .contains("request validation is disabled"));
}

#[test]
fn one_compatible_worker_switches_session_keys_off() {
    let s = cluster(
        3,
        r#"{"at_ms":30000,"type":"task_count_change","connector":"orders","tasks":8}"#,
        r#","worker_overrides":[{"worker":"worker-3","config":{"connect.protocol":"compatible"}}]"#,
    );
    let r = run(&s);
    let t = &variant(&r, "cooperative").trace;
    assert!(!t.rounds.is_empty());
    assert!(t.rounds.iter().all(|r| r.protocol == "compatible"));
    assert!(steps(t, StepKind::SessionKey).is_empty());
    assert!(steps(t, StepKind::GroupProtocol)[0]
        .explanation
        .contains("internal request validation is disabled"));
    // The task-config forward (if a follower runs `orders`) is not verified.
    for f in steps(t, StepKind::RestForward) {
        assert!(
            f.explanation.contains("request validation is disabled"),
            "{}",
            f.explanation
        );
    }
    assert!(steps(t, StepKind::RestRejected).is_empty());
}

/// The longest outage of any task of `worker`'s that was running at `at`.
fn outage_of_tasks_on(t: &Trace, worker: &str, at: u64) -> u64 {
    let w = t.worker_index(worker).unwrap();
    let items: Vec<u32> = t
        .spans
        .iter()
        .filter(|s| {
            s.worker == Some(w)
                && s.state == ItemState::Running
                && s.start_ms < at
                && s.end_ms >= at
        })
        .flat_map(|s| t.list(s.items).iter().copied())
        .filter(|&i| t.items[i as usize].kind == ItemKind::Task)
        .collect();
    assert!(!items.is_empty(), "{worker} ran tasks at {at}");
    items
        .iter()
        .map(|&i| {
            // From `at` to the next running interval anywhere.
            t.item_intervals(i)
                .iter()
                .filter(|iv| iv.state == ItemState::Running && iv.start_ms > at)
                .map(|iv| iv.start_ms - at)
                .min()
                .expect("runs again")
        })
        .max()
        .unwrap()
}

/// [`outage_of_tasks_on`] in one variant of a run.
fn outage_in(r: &RunResult, label: &str, worker: &str, at: u64) -> u64 {
    outage_of_tasks_on(&variant(r, label).trace, worker, at)
}

#[test]
fn a_crashed_workers_tasks_wait_for_the_scheduled_delay_unless_it_is_zero() {
    let r = run(&cluster(
        3,
        r#"{"at_ms":30000,"type":"worker_crash","worker":"worker-3"}"#,
        "",
    ));
    let waited = outage_in(&r, "cooperative", "worker-3", 30_000);
    // session.timeout.ms (10 s, from the last heartbeat) + 5 min delay + restart.
    assert!(
        (300_000 + 7_000..300_000 + 15_000).contains(&waited),
        "waited {waited} ms"
    );
    let r2 = variant(&r, "cooperative")
        .trace
        .rounds
        .iter()
        .find(|r| r.delay_ms == 300_000)
        .expect("a delayed round");
    assert!(
        r2.explanation.contains("worker-3 was lost"),
        "{}",
        r2.explanation
    );
    assert!(
        r2.explanation
            .contains("scheduled.rebalance.max.delay.ms (5 min)"),
        "{}",
        r2.explanation
    );

    let waited0 = outage_in(&r, "cooperative, delay 0", "worker-3", 30_000);
    assert!(
        waited0 < 15_000,
        "with the delay at 0 they move at once: {waited0} ms"
    );
    assert!(outage_in(&r, "eager", "worker-3", 30_000) < 15_000);
}

#[test]
fn a_graceful_stop_waits_just_like_a_crash_under_cooperative() {
    let r = run(&cluster(
        3,
        r#"{"at_ms":30000,"type":"worker_stop","worker":"worker-3"}"#,
        "",
    ));
    let coop = variant(&r, "cooperative");
    let waited = outage_of_tasks_on(&coop.trace, "worker-3", 30_000);
    assert!(
        (300_000..320_000).contains(&waited),
        "LeaveGroup does not skip the delay: {waited} ms"
    );
    assert_eq!(steps(&coop.trace, StepKind::LeaveGroup).len(), 1);
}

#[test]
fn a_leader_crash_reassigns_at_once_because_the_new_leader_has_no_history() {
    let r = run(&cluster(
        3,
        r#"{"at_ms":30000,"type":"worker_crash","worker":"worker-1"}"#,
        "",
    ));
    let coop = variant(&r, "cooperative");
    // The formed group's session key, shown at t = 0, names its leader.
    assert_eq!(
        steps(&coop.trace, StepKind::SessionKey)[0].worker,
        Some(0),
        "worker-1 leads: it joined first"
    );
    assert!(
        coop.trace.rounds.iter().all(|r| r.started_ms > 30_000),
        "the formed group's rounds are not shown"
    );
    let waited = outage_of_tasks_on(&coop.trace, "worker-1", 30_000);
    assert!(waited < 15_000, "no 5-minute wait: {waited} ms");
    let round = coop
        .trace
        .rounds
        .iter()
        .find(|r| r.started_ms > 30_000)
        .unwrap();
    assert_ne!(round.leader, 0);
    assert_eq!(round.delay_ms, 0);
    assert!(
        round.explanation.contains("no assignment history"),
        "{}",
        round.explanation
    );
    assert!(!steps(&coop.trace, StepKind::LeaderChange).is_empty());
}

#[test]
fn a_gc_pause_past_the_session_timeout_leaves_a_zombie_whose_overlap_is_shown_and_counted() {
    let pause = r#"{"at_ms":30000,"type":"gc_pause","worker":"worker-2","duration_ms":25000}"#;
    let r = run(&cluster(3, pause, ""));
    for label in ["eager", "cooperative, delay 0"] {
        let v = variant(&r, label);
        let t = &v.trace;
        assert!(
            v.metrics.duplicate_task_ms > 0,
            "{label}: the zombie ran tasks another worker ran"
        );
        assert!(
            t.spans.iter().any(|s| s.state == ItemState::Zombie),
            "{label}: zombie spans shown"
        );
        assert!(
            t.spans.iter().any(|s| s.state == ItemState::Frozen),
            "{label}: the pause is shown"
        );
        assert_eq!(steps(t, StepKind::Zombie).len(), 1, "{label}");
        assert_eq!(steps(t, StepKind::UnknownMember).len(), 1, "{label}");
        // Eventually one copy of everything runs, and nothing twice.
        assert!(v.metrics.settled_ms.is_some(), "{label}: settles");
    }
    let zero = &variant(&r, "cooperative, delay 0").trace;
    assert!(
        zero.rounds
            .iter()
            .any(|r| r.explanation.contains("KAFKA-9841")),
        "every copy of the duplicated work is revoked"
    );
    // With the default delay nothing was reassigned yet: the zombie keeps its
    // tasks when it rejoins, and nothing ran twice.
    let coop = variant(&r, "cooperative");
    assert_eq!(coop.metrics.duplicate_task_ms, 0);
    // A pause shorter than the session timeout is harmless.
    let short = run(&cluster(
        3,
        r#"{"at_ms":30000,"type":"gc_pause","worker":"worker-2","duration_ms":2000}"#,
        "",
    ));
    for v in &short.variants {
        assert_eq!(v.metrics.duplicate_task_ms, 0, "{}", v.label);
        assert!(
            steps(&v.trace, StepKind::SessionTimeout).is_empty(),
            "{}",
            v.label
        );
    }
}

/// Starts empty: the rotation is measured from the first key's write, which
/// a formed start shows at t = 0 rather than when formation wrote it.
fn kip507(connector: &str, event_at: u64) -> Scenario {
    scenario(&format!(
        r#"{{"version":1,"seed":9,"start":"empty","connect":{{"workers":3,"connectors":[{{"name":"a","tasks":3}},{{"name":"b","tasks":3}},{{"name":"c","tasks":3}}],
            "config":{{"inter.worker.key.ttl.ms":60000}}}},
            "compare":[{{"label":"sessioned","config":{{}}}}],
            "events":[{{"at_ms":{event_at},"type":"task_count_change","connector":"{connector}","tasks":4}}],"end_ms":200000}}"#
    ))
}

#[test]
fn kip507_rotates_the_session_key_and_a_request_signed_with_the_stale_key_gets_403_then_succeeds() {
    // Find a connector that runs on a follower, and how long after the
    // config change its task configs are forwarded.
    let base = run(&kip507("a", 20_000));
    let t = &base.variants[0].trace;
    let keys = steps(t, StepKind::SessionKey);
    assert!(
        keys[0].explanation.contains("signs no group assignment"),
        "{}",
        keys[0].explanation
    );
    let rotation = keys
        .iter()
        .find(|s| s.explanation.contains("expired"))
        .expect("key rotated")
        .at_ms;
    assert_eq!(rotation, keys[0].at_ms + 60_000);
    let leader = t.rounds[0].leader;
    let on_follower = ["a", "b", "c"]
        .into_iter()
        .find(|c| {
            let item = t.item_index(c).unwrap();
            t.item_intervals(item)
                .iter()
                .any(|iv| iv.state == ItemState::Running && iv.worker != Some(leader))
        })
        .expect("some connector runs on a follower");
    let probe = run(&kip507(on_follower, 20_000));
    let forward = steps(&probe.variants[0].trace, StepKind::RestForward)[0].at_ms;
    let offset = forward - 20_000;
    // Now make the forward leave exactly when the leader rotates the key:
    // the follower has not read key #2 yet.
    let stale = run(&kip507(on_follower, rotation - offset));
    let t = &stale.variants[0].trace;
    let rejected = steps(t, StepKind::RestRejected);
    assert_eq!(rejected.len(), 1, "{:#?}", t.steps);
    assert!(
        rejected[0].explanation.starts_with("403 Forbidden"),
        "{}",
        rejected[0].explanation
    );
    assert!(
        rejected[0].explanation.contains("not read it yet"),
        "{}",
        rejected[0].explanation
    );
    assert!(rejected[0]
        .explanation
        .contains("group assignments are never signed"));
    let accepted = steps(t, StepKind::RestAccepted);
    assert_eq!(accepted.len(), 1);
    assert!(
        accepted[0].explanation.contains("session key #2"),
        "{}",
        accepted[0].explanation
    );
    assert!(accepted[0].at_ms > rejected[0].at_ms);
    assert_eq!(
        steps(t, StepKind::TaskConfigs).len(),
        1,
        "written once the retry is accepted"
    );
}

#[test]
fn a_rolling_upgrade_switches_the_group_protocol_when_the_last_old_worker_is_replaced() {
    let s = scenario(
        r#"{"version":1,"connect":{"workers":3,"connectors":[{"name":"x","tasks":6}],"config":{"connect.protocol":"eager"}},
            "compare":[{"label":"upgrade","config":{}}],
            "events":[{"at_ms":30000,"type":"rolling_restart","downtime_ms":5000,"interval_ms":20000,"config":{"connect.protocol":"sessioned"}}]}"#,
    );
    let t = &run(&s).variants[0].trace;
    let switch = steps(t, StepKind::GroupProtocol);
    assert_eq!(switch.len(), 2, "{switch:#?}");
    assert!(switch[1]
        .explanation
        .contains("switches from `default` to `sessioned`"));
    // The switch happens once the third (last) eager worker is gone.
    let last_restart = t
        .events
        .iter()
        .filter(|e| e.label.contains("rolling restart 3/3"))
        .map(|e| e.at_ms)
        .next()
        .unwrap();
    assert!(switch[1].at_ms > last_restart);
    assert!(t
        .rounds
        .iter()
        .filter(|r| r.completed_ms < last_restart)
        .all(|r| r.protocol == "default"));
    assert_eq!(t.rounds.last().unwrap().protocol, "sessioned");
    assert!(
        !steps(t, StepKind::SessionKey).is_empty(),
        "the new leader distributes a key"
    );
}

#[test]
fn a_cooperative_to_eager_downgrade_leaves_orphans_running_as_documented() {
    // worker-3 is redeployed with connect.protocol=eager: the group drops to
    // `default`. The first eager generation starts without a revoke-all, and
    // work missing from a worker's new full assignment keeps running
    // (`WorkerCoordinator.onJoinPrepare` follows the previous generation's
    // protocol): the trace shows it as zombie copies and explains why.
    let s = scenario(
        r#"{"version":1,"connect":{"workers":3,"connectors":[{"name":"x","tasks":6}]},
            "compare":[{"label":"downgrade","config":{}}],
            "events":[{"at_ms":30000,"type":"worker_restart","worker":"worker-3","downtime_ms":5000,"config":{"connect.protocol":"eager"}}]}"#,
    );
    let v = &run(&s).variants[0];
    let t = &v.trace;
    assert!(steps(t, StepKind::GroupProtocol).iter().any(|s| s
        .explanation
        .contains("drops from `sessioned` to `default`")));
    let orphans = steps(t, StepKind::DowngradeOrphans);
    assert!(!orphans.is_empty(), "{:#?}", t.steps);
    assert!(orphans[0].explanation.contains("code reading"));
    assert!(t.spans.iter().any(|s| s.state == ItemState::Zombie));
}

#[test]
fn events_that_cannot_apply_are_skipped_with_a_reason() {
    let s = cluster(
        3,
        r#"{"at_ms":30000,"type":"worker_crash","worker":"worker-2"},
           {"at_ms":40000,"type":"worker_stop","worker":"worker-2"},
           {"at_ms":45000,"type":"connector_remove","name":"nope"},
           {"at_ms":46000,"type":"task_count_change","connector":"nope","tasks":3}"#,
        "",
    );
    let r = run(&s);
    for v in &r.variants {
        let t = &v.trace;
        assert_eq!(t.events.len(), 4);
        assert!(t.events[0].applied);
        assert!(!t.events[1].applied && !t.events[2].applied && !t.events[3].applied);
        let skipped = steps(t, StepKind::EventSkipped);
        assert_eq!(skipped.len(), 3, "{skipped:#?}");
        assert!(skipped[0].explanation.contains("worker-2 is not running"));
    }
}

#[test]
fn adding_and_removing_connectors_and_changing_task_counts() {
    let s = cluster(
        3,
        r#"{"at_ms":30000,"type":"connector_add","name":"audit","tasks":4},
           {"at_ms":60000,"type":"task_count_change","connector":"orders","tasks":3},
           {"at_ms":90000,"type":"connector_remove","name":"clicks"}"#,
        "",
    );
    let r = run(&s);
    for v in &r.variants {
        let t = &v.trace;
        let at_end: Vec<&str> = t
            .spans
            .iter()
            .filter(|s| s.worker.is_some() && s.state == ItemState::Running && s.end_ms == t.end_ms)
            .flat_map(|s| {
                t.list(s.items)
                    .iter()
                    .map(|&i| t.items[i as usize].label.as_str())
            })
            .collect();
        let tasks = at_end
            .iter()
            .filter(|l| {
                l.rsplit_once('-')
                    .is_some_and(|(_, n)| n.parse::<u32>().is_ok())
            })
            .count();
        assert_eq!(
            tasks,
            4 + 3,
            "{}: audit's 4 tasks and orders' 3 run: {at_end:?}",
            v.label
        );
        assert!(
            at_end.contains(&"audit") && at_end.contains(&"orders") && !at_end.contains(&"clicks")
        );
        assert_eq!(
            steps(t, StepKind::TaskConfigs).len(),
            2,
            "{}: audit's first task configs and orders' new ones",
            v.label
        );
        assert!(v.metrics.settled_ms.is_some(), "{}", v.label);
    }
}

#[test]
fn member_ids_are_connect_client_ids_with_a_seeded_uuid() {
    let t = &run(&cluster(3, r#"{"at_ms":30000,"type":"worker_join"}"#, "")).variants[1].trace;
    assert_eq!(t.members.len(), 4);
    for m in &t.members {
        let prefix = format!("connect-{}-", t.workers[m.worker as usize]);
        assert!(m.member_id.starts_with(&prefix), "{}", m.member_id);
        assert_eq!(
            m.member_id.len(),
            prefix.len() + 36,
            "a uuid: {}",
            m.member_id
        );
    }
    // Round members are listed in ascending member-id order.
    let ids: Vec<&str> = t.rounds[0]
        .members
        .iter()
        .map(|m| t.members[m.member as usize].member_id.as_str())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted);
}
