//! The Kafka Streams simulator: the seed's claims, determinism and Kafka's
//! guarantees on seeded random scenarios (classic group protocol,
//! `StreamsPartitionAssignor`, the task assignors and state restoration).

#[path = "support/rng.rs"]
mod rng;

use engine::metrics::{FamilyMetrics, StreamsMetrics};
use engine::presets;
use engine::run::{run, RunResult, VariantRun};
use engine::scenario::{Scenario, Start};
use engine::trace::StepKind;
use engine::trace::{ItemState, Trace};
use rng::SplitMix64;

fn preset(id: &str) -> RunResult {
    run(&presets::find(id)
        .unwrap_or_else(|| panic!("no preset {id}"))
        .scenario())
}

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}"))
}

fn variant<'a>(r: &'a RunResult, label: &str) -> &'a VariantRun {
    r.variants
        .iter()
        .find(|v| v.label == label)
        .unwrap_or_else(|| panic!("no variant {label}"))
}

/// Per task, its intervals in `states` on worker lanes: (start, end, lane).
fn streams_metrics(v: &VariantRun) -> &StreamsMetrics {
    match &v.metrics.family {
        FamilyMetrics::Streams(m) => m,
        FamilyMetrics::Connect => panic!("{}: no Streams metrics", v.label),
    }
}

fn copies(t: &Trace, states: &[ItemState]) -> Vec<Vec<(u64, u64, u32)>> {
    let mut by_item = vec![Vec::new(); t.items.len()];
    for iv in t.intervals() {
        if let Some(w) = iv.worker {
            if states.contains(&iv.state) {
                by_item[iv.item as usize].push((iv.start_ms, iv.end_ms, w));
            }
        }
    }
    for v in &mut by_item {
        v.sort_unstable();
    }
    by_item
}

/// True when `[from, to)` is covered by the task's running pieces on `lane`.
fn runs_throughout(pieces: &[(u64, u64, u32)], lane: u32, from: u64, to: u64) -> bool {
    let mut reach = from;
    for &(s, e, l) in pieces {
        if l == lane && s <= reach && e > reach {
            reach = e;
        }
    }
    reach >= to
}

const ROLLING: &str = r#"{"version":1,"title":"rolling","seed":1,
  "streams":{"instances":4,"subtopologies":[{"partitions":12,"stateful":true,"changelog_records":100000,"changelog_records_per_sec":50}]},
  "compare":[{"label":"eager","kafka_version":"3.9","config":{"upgrade.from":"2.3"}},{"label":"cooperative + warmups"}],
  "events":[{"at_ms":30000,"type":"rolling_restart","downtime_ms":20000,"interval_ms":120000}]}"#;

/// For each restart of instance X: the tasks on the other instances that are
/// still on the same instance 60 s later, and whether they ran throughout.
fn unmoved_tasks_kept_running(v: &VariantRun) -> (usize, usize) {
    let t = &v.trace;
    let running = copies(t, &[ItemState::Running]);
    let (mut kept, mut paused) = (0, 0);
    for e in t.events.iter().filter(|e| e.label.contains("restarts")) {
        let Some(x) = e.worker else { continue };
        let (from, to) = (e.at_ms, e.at_ms + 60_000);
        for pieces in &running {
            for lane in 0..t.workers.len() as u32 {
                if lane == x {
                    continue;
                }
                let at = |ms: u64| {
                    pieces
                        .iter()
                        .any(|&(s, e, l)| l == lane && s <= ms && ms < e)
                };
                if at(from) && at(to) {
                    if runs_throughout(pieces, lane, from, to) {
                        kept += 1;
                    } else {
                        paused += 1;
                    }
                }
            }
        }
    }
    (kept, paused)
}

#[test]
fn rolling_restart_cooperative_with_warmups_keeps_processing_the_tasks_that_do_not_move() {
    let r = run(&scenario(ROLLING));
    let (kept, paused) = unmoved_tasks_kept_running(variant(&r, "cooperative + warmups"));
    assert!(kept > 0);
    assert_eq!(
        paused, 0,
        "cooperative paused {paused} tasks that stayed put"
    );
    let (_, eager_paused) = unmoved_tasks_kept_running(variant(&r, "eager"));
    assert!(eager_paused > 0, "eager stops tasks that stay put too");
}

#[test]
fn eager_stops_everything() {
    let r = preset("streams/stateful-scale-out");
    let eager = variant(&r, "eager");
    let t = &eager.trace;
    assert_eq!(eager.metrics.tasks_stopped, t.items.len() as u64);
    // Some instant after the join at which no task processes anywhere.
    let running = copies(t, &[ItemState::Running]);
    let join = t.events[0].at_ms;
    let stops: Vec<u64> = t
        .intervals()
        .filter(|iv| iv.state == ItemState::Stopping && iv.start_ms >= join)
        .map(|iv| iv.end_ms)
        .collect();
    let last_stop = *stops.iter().max().expect("eager stops tasks");
    let any_running = running
        .iter()
        .any(|p| p.iter().any(|&(s, e, _)| s <= last_stop && last_stop < e));
    assert!(
        !any_running,
        "something was still processing at {last_stop}"
    );
    let coop = variant(&r, "cooperative");
    assert!(coop.metrics.tasks_stopped < eager.metrics.tasks_stopped);
}

fn scale_out(seed: u64, assignor: &str) -> Scenario {
    scenario(&format!(
        r#"{{"version":1,"seed":{seed},
  "streams":{{"instances":3,"subtopologies":[{{"partitions":12,"stateful":true,"changelog_records":10000}}],
    "config":{{"acceptable.recovery.lag":9223372036854775807{assignor}}}}},
  "compare":[{{"label":"cooperative"}}],
  "events":[{{"at_ms":30000,"type":"instance_join"}}]}}"#
    ))
}

/// Tasks that instance-4 runs at the end, and tasks stopped in all.
fn scale_out_moves(s: &Scenario) -> (usize, u64) {
    let r = run(s);
    let v = &r.variants[0];
    let t = &v.trace;
    let lane = t.worker_index("instance-4").expect("instance-4 joined");
    let on_new = copies(t, &[ItemState::Running])
        .iter()
        .filter(|p| p.iter().any(|&(_, e, l)| l == lane && e >= t.end_ms))
        .count();
    (on_new, v.metrics.tasks_stopped)
}

#[test]
fn scaling_out_by_one_moves_only_enough_tasks_to_balance() {
    // The legacy StickyTaskAssignor moves exactly the new instance's share.
    for seed in 1..=10 {
        let s = scale_out(
            seed,
            r#","internal.task.assignor.class":"StickyTaskAssignor""#,
        );
        assert_eq!(scale_out_moves(&s), (3, 3), "seed {seed}");
    }
    // HighAvailabilityTaskAssignor ignores history when everyone is caught up:
    // it deals round-robin over clients in ProcessId order, so
    // the new instance still gets its share but 9 of the 12 tasks move.
    for seed in 1..=10 {
        assert_eq!(scale_out_moves(&scale_out(seed, "")), (3, 9), "seed {seed}");
    }
    // With the default acceptable.recovery.lag the newcomer is not caught up:
    // no active moves at once, warmups start instead
    // (`TaskMovement.assignActiveTaskMovements`).
    let r = preset("streams/stateful-scale-out");
    let warm = variant(&r, "cooperative + warmups");
    let m = streams_metrics(warm);
    assert!(m.warmups_started > 0 && m.probing_rebalances > 0, "{m:?}");
    assert!(
        warm.metrics
            .longest_task_outage
            .as_ref()
            .unwrap()
            .duration_ms
            < 5_000
    );
}

#[test]
fn a_moved_stateful_task_restores_for_lag_over_restore_rate() {
    let s = scenario(
        r#"{"version":1,"seed":1,
  "streams":{"instances":1,"subtopologies":[{"partitions":2,"stateful":true,"changelog_records":100000}],
    "config":{"acceptable.recovery.lag":9223372036854775807},
    "timings":{"restore_records_per_sec":10000}},
  "compare":[{"label":"cooperative"}],
  "events":[{"at_ms":30000,"type":"instance_join"}]}"#,
    );
    let r = run(&s);
    let t = &r.variants[0].trace;
    let lane = t.worker_index("instance-2").unwrap();
    let restores: Vec<u64> = t
        .intervals()
        .filter(|iv| iv.worker == Some(lane) && iv.state == ItemState::Restoring)
        .map(|iv| iv.end_ms - iv.start_ms)
        .collect();
    // 100,000 records of lag at 10,000 records/s.
    assert_eq!(restores, vec![10_000]);
    let m = streams_metrics(&r.variants[0]);
    assert!(m.records_restored >= 100_000);
}

#[test]
fn a_static_member_back_within_the_session_timeout_gets_its_tasks_without_a_rebalance() {
    let r = preset("streams/rolling-restart-static");
    let statics = variant(&r, "static");
    assert_eq!(statics.metrics.rebalance_rounds, 0);
    assert!(statics
        .trace
        .steps
        .iter()
        .any(|s| s.kind == StepKind::StaticRejoin));
    let dynamic = variant(&r, "cooperative, dynamic");
    assert!(dynamic.metrics.rebalance_rounds > 0);
}

#[test]
fn an_upgrade_from_2_4_needs_no_upgrade_from_and_one_bounce() {
    let s = scenario(
        r#"{"version":1,"seed":3,
  "streams":{"instances":3,"kafka_version":"2.4","subtopologies":[{"partitions":6,"stateful":true,"changelog_records":1000}]},
  "compare":[{"label":"one bounce"}],
  "events":[{"at_ms":30000,"type":"rolling_restart","downtime_ms":20000,"interval_ms":60000,"kafka_version":"3.8","reverse_order":true}]}"#,
    );
    let r = run(&s);
    let t = &r.variants[0].trace;
    assert!(t.rounds.iter().all(|r| r.protocol == "cooperative"));
    assert!(!t.steps.iter().any(|s| s.kind == StepKind::DoubleOwnership));
    let old = preset("streams/upgrade-from-2-3");
    let unsafe_run = variant(&old, "no upgrade.from");
    assert!(unsafe_run
        .trace
        .steps
        .iter()
        .any(|s| s.kind == StepKind::DoubleOwnership));
    let safe = variant(&old, "upgrade.from=2.3, two bounces");
    assert!(!safe
        .trace
        .steps
        .iter()
        .any(|s| s.kind == StepKind::DoubleOwnership));
    assert_eq!(
        safe.trace.rounds.last().map(|r| r.protocol.as_str()),
        Some("cooperative")
    );
}

#[test]
fn a_frozen_member_that_resumes_after_its_session_runs_as_a_zombie_and_says_so() {
    let s = scenario(
        r#"{"version":1,"seed":2,
  "streams":{"instances":3,"subtopologies":[{"partitions":6,"stateful":true,"changelog_records":1000}]},
  "compare":[{"label":"cooperative"}],
  "events":[{"at_ms":30000,"type":"gc_pause","instance":"instance-2","duration_ms":60000}]}"#,
    );
    let r = run(&s);
    let v = &r.variants[0];
    assert!(v.trace.spans.iter().any(|s| s.state == ItemState::Zombie));
    assert!(v.trace.steps.iter().any(|s| s.kind == StepKind::Zombie));
    assert!(v.metrics.duplicate_task_ms > 0);
}

#[test]
fn the_same_scenario_twice_gives_the_same_trace() {
    for json in [ROLLING] {
        let (a, b) = (run(&scenario(json)), run(&scenario(json)));
        for (x, y) in a.variants.iter().zip(&b.variants) {
            assert_eq!(x.trace.fingerprint(), y.trace.fingerprint());
            assert_eq!(x.metrics, y.metrics);
        }
    }
}

fn random_scenario(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let instances = 1 + rng.below(4);
    let threads = 1 + rng.below(2);
    let standbys = rng.below(2);
    let eos = if rng.below(3) == 0 {
        r#","processing.guarantee":"exactly_once_v2""#
    } else {
        ""
    };
    // Versions from 2.4 on (a 2.3 leader's double ownership is Kafka's own
    // hazard, flagged in the trace, not a simulator error).
    let version = ["2.4", "2.6", "2.8", "3.8"][rng.below(4) as usize];
    let mut events = Vec::new();
    let mut ever = instances;
    let mut t = 20_000u64;
    for _ in 0..1 + rng.below(4) {
        t += 5_000 + rng.below(90_000);
        let who = format!("instance-{}", 1 + rng.below(ever));
        let e = match rng.below(8) {
            7 => format!(
                r#""type":"rolling_restart","downtime_ms":{},"interval_ms":{},"kafka_version":"3.8","reverse_order":{}"#,
                1_000 + rng.below(30_000),
                10_000 + rng.below(60_000),
                rng.below(2) == 0
            ),
            0 => {
                ever += 1;
                r#""type":"instance_join""#.to_string()
            }
            1 => format!(r#""type":"instance_crash","instance":"{who}""#),
            2 => format!(
                r#""type":"instance_restart","instance":"{who}","downtime_ms":{},"crash":{}"#,
                1_000 + rng.below(60_000),
                rng.below(2) == 0
            ),
            3 => format!(
                r#""type":"gc_pause","instance":"{who}","duration_ms":{}"#,
                1_000 + rng.below(60_000)
            ),
            4 => format!(
                r#""type":"slow_processing","instance":"{who}","duration_ms":{}"#,
                1_000 + rng.below(90_000)
            ),
            5 => format!(
                r#""type":"rolling_restart","downtime_ms":{},"interval_ms":{}"#,
                1_000 + rng.below(30_000),
                10_000 + rng.below(60_000)
            ),
            _ => format!(r#""type":"instance_stop","instance":"{who}""#),
        };
        events.push(format!(r#"{{"at_ms":{t},{e}}}"#));
    }
    // Keep at least one instance: a late join.
    events.push(format!(
        r#"{{"at_ms":{},"type":"instance_join"}}"#,
        t + 10_000
    ));
    format!(
        r#"{{"version":1,"seed":{seed},
  "streams":{{"instances":{instances},"kafka_version":"{version}","subtopologies":[{{"partitions":{},"stateful":true,"changelog_records":{},"changelog_records_per_sec":20}},{{"partitions":{}}}],
    "config":{{"num.stream.threads":{threads},"num.standby.replicas":{standbys},"max.poll.interval.ms":60000,"probing.rebalance.interval.ms":60000{eos}}}}},
  "compare":[{{"label":"eager","config":{{"upgrade.from":"2.3"}}}},{{"label":"cooperative"}},{{"label":"static","config":{{"group.instance.id":"app"}}}}],
  "events":[{}]}}"#,
        1 + rng.below(8),
        rng.below(200_000),
        1 + rng.below(6),
        events.join(",")
    )
}

/// No task is active (starting, restoring, running, revoking) on two
/// instances at once; frozen and zombie copies of a removed member aside.
fn check_single_active(t: &Trace, at: &str) {
    let active = copies(
        t,
        &[
            ItemState::Starting,
            ItemState::Restoring,
            ItemState::Running,
            ItemState::Stopping,
        ],
    );
    for (item, pieces) in active.iter().enumerate() {
        for (i, a) in pieces.iter().enumerate() {
            for b in &pieces[i + 1..] {
                if b.0 >= a.1 {
                    break;
                }
                assert_eq!(
                    a.2, b.2,
                    "{at}: task {} active on two instances at {}",
                    t.items[item].label, b.0
                );
            }
        }
    }
}

#[test]
fn random_scenarios_keep_kafkas_guarantees() {
    let seeds: u64 = std::env::var("STREAMS_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    for seed in 1..=seeds {
        let json = random_scenario(seed);
        let s = scenario(&json);
        let r = run(&s);
        for v in &r.variants {
            let at = format!("seed {seed} / {}", v.label);
            check_single_active(&v.trace, &at);
            // Kafka's own livelock is a possible result, cut with a verdict
            // (seed 717, cooperative, of the first 800): with a 2.4 member in
            // the group, subscriptions are below v7, so a directory a thread
            // merely has state for reads as UNKNOWN_OFFSET_SUM (−3), a lower
            // "lag" than its running active's LATEST_OFFSET (−2)
            // (`SubscriptionInfo.taskOffsetSums`, `ClientState.prevTasksByLag`).
            // The thread that just revoked one of its client's two stateful
            // tasks locks that directory first and keeps it; the task it runs
            // goes to its idle sibling, held back, every round
            // (docs/model.md, "Threads as members").
            if let Some(cut) = v.trace.cut {
                assert_eq!(cut.reason, engine::budget::BudgetKind::Rounds, "{at}");
                assert!(
                    v.trace.rounds.iter().rev().take(100).all(|round| round
                        .explanation
                        .contains("held back until their owners revoke them")),
                    "{at}: only held-back follow-ups at the cut\n{json}"
                );
                continue;
            }
            // After convergence every task runs, once, on a caught-up instance.
            let t = &v.trace;
            let end = copies(
                t,
                &[ItemState::Running, ItemState::Restoring, ItemState::Warmup],
            );
            for (item, pieces) in end.iter().enumerate() {
                let at_end: Vec<_> = pieces.iter().filter(|p| p.1 >= t.end_ms).collect();
                let running: Vec<_> = t
                    .intervals()
                    .filter(|iv| {
                        iv.item == item as u32
                            && iv.state == ItemState::Running
                            && iv.end_ms >= t.end_ms
                            && iv.worker.is_some()
                    })
                    .collect();
                assert_eq!(
                    running.len(),
                    1,
                    "{at}: task {} at the end: {at_end:?}\n{json}",
                    t.items[item].label
                );
            }
            assert!(
                !t.intervals().any(|iv| iv.end_ms >= t.end_ms
                    && matches!(iv.state, ItemState::Restoring | ItemState::Warmup)),
                "{at}: restoring or warming up at the end\n{json}"
            );
        }
        let again = run(&s);
        for (x, y) in r.variants.iter().zip(&again.variants) {
            assert_eq!(x.trace.fingerprint(), y.trace.fingerprint(), "seed {seed}");
        }
    }
}

#[test]
#[ignore = "prints the random scenario for a failing seed: SEED=<n> cargo test --test sim_streams print_random -- --ignored --nocapture"]
fn print_random() {
    let seed: u64 = std::env::var("SEED").unwrap().parse().unwrap();
    println!("{}", random_scenario(seed));
}

fn crash_restart(guarantee: &str) -> StreamsMetrics {
    let s = scenario(&format!(
        r#"{{"version":1,"seed":1,
  "streams":{{"instances":2,"subtopologies":[{{"partitions":2,"stateful":true,"changelog_records":100000}}],
    "config":{{"processing.guarantee":"{guarantee}","group.instance.id":"app"}},
    "timings":{{"restore_records_per_sec":10000}}}},
  "compare":[{{"label":"static"}}],
  "events":[{{"at_ms":30000,"type":"instance_restart","instance":"instance-1","downtime_ms":5000,"crash":true}}]}}"#
    ));
    streams_metrics(&run(&s).variants[0]).clone()
}

#[test]
fn a_crash_under_exactly_once_loses_local_state_and_at_least_once_keeps_it() {
    // Static, back within the session timeout: the same task comes back.
    let alos = crash_restart("at_least_once");
    let eos = crash_restart("exactly_once_v2");
    // at_least_once restores nothing (the changelog did not grow), EOS the
    // whole 100,000-record changelog at 10,000 records/s.
    assert_eq!(alos.restoring_ms, 0, "{alos:?}");
    assert_eq!(eos.restoring_ms, 10_000, "{eos:?}");
    assert!(eos.records_restored >= alos.records_restored + 100_000);
}

/// The fuzzer's case: instance-1's only thread blocks past
/// `max.poll.interval.ms` (1 s) and leaves the group; the rebalance its
/// LeaveGroup starts closes after the rebalance timeout (also 1 s) before
/// instance-2's thread heard of it (heartbeats every 1,976 ms), so the
/// coordinator drops that member too and the group is empty
/// (`GroupCoordinator.onCompleteJoin` removes members that did not rejoin).
/// instance-2 learns of it from its next heartbeat (UNKNOWN_MEMBER_ID),
/// runs `0_0` as a zombie until then, loses it and rejoins. Before the fix
/// the emptied group was never told to anyone: instance-2 ran `0_0` as a
/// member it no longer was, and once instance-1 rejoined, both ran it to
/// the end of the run.
///
/// With heartbeats slower than the rebalance timeout, every rejoin drops the
/// other member again (Kafka's own livelock for such a config, and the trace
/// says why); with faster heartbeats the same pause settles.
#[test]
fn a_join_phase_that_empties_the_group_tells_the_member_it_dropped() {
    let json = |hb: u32| {
        format!(
            r#"{{"version":1,"title":"fuzz","streams":{{"instances":2,"subtopologies":[{{"partitions":1}}],
  "config":{{"max.poll.interval.ms":1000,"heartbeat.interval.ms":{hb},"session.timeout.ms":16957}}}},
  "compare":[{{"label":"eager","kafka_version":"3.9","config":{{"upgrade.from":"2.3"}}}},{{"label":"cooperative"}}],
  "events":[{{"at_ms":25616,"type":"slow_processing","instance":"instance-1","duration_ms":26749}}],"end_ms":119390}}"#
        )
    };
    for (hb, start) in [
        (1976, Start::Formed),
        (1976, Start::Empty),
        (300, Start::Formed),
        (300, Start::Empty),
    ] {
        let mut s = scenario(&json(hb));
        s.start = start;
        for v in &run(&s).variants {
            let at = format!("heartbeat {hb} ms, {start:?} / {}", v.label);
            let t = &v.trace;
            let running = copies(t, &[ItemState::Running]);
            for (i, a) in running[0].iter().enumerate() {
                for b in &running[0][i + 1..] {
                    assert!(b.0 >= a.1, "{at}: 0_0 runs twice: {a:?} / {b:?}");
                }
            }
            assert!(
                running[0].iter().any(|p| p.1 >= t.end_ms),
                "{at}: 0_0 runs at the end"
            );
            // Down for a round now and then, never since t = 0.
            assert!(
                streams_metrics(v).processing_downtime_ms < 5_000,
                "{at}: {:?}",
                v.metrics
            );
            if hb == 300 {
                // instance-2 hears of the rebalance in time: one round.
                assert!(
                    !t.steps.iter().any(|s| s.kind == StepKind::MemberDropped),
                    "{at}"
                );
                assert!(v.metrics.settled_ms.is_some(), "{at}: never settles");
                continue;
            }
            let dropped = t
                .steps
                .iter()
                .find(|s| s.kind == StepKind::MemberDropped && s.worker == Some(1))
                .unwrap_or_else(|| panic!("{at}: instance-2's member is not dropped"));
            assert!(
                dropped.explanation.contains("heartbeat.interval.ms"),
                "{at}: {}",
                dropped.explanation
            );
            let lost = t
                .steps
                .iter()
                .find(|s| s.kind == StepKind::PartitionsLost && s.worker == Some(1))
                .unwrap_or_else(|| panic!("{at}: instance-2 never learns it was dropped"));
            assert!(lost.at_ms > dropped.at_ms, "{at}");
            let zombie = copies(t, &[ItemState::Zombie]);
            assert!(
                zombie[0]
                    .iter()
                    .any(|&(s, e, l)| l == 1 && s <= dropped.at_ms && e >= lost.at_ms),
                "{at}: 0_0 is a zombie on instance-2 until it learns: {zombie:?}"
            );
            assert!(v.metrics.settled_ms.is_none(), "{at}: a livelock settles");
        }
    }
}
