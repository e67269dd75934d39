//! Fuzzing runs (issue #15): proptest generates small scenarios of both
//! families — hostile timings included (rebalance and poll timeouts of a
//! few milliseconds, 1 ms heartbeats, tasks slower to stop than the
//! rebalance timeout) — and checks that every run either is refused by
//! validation or finishes within its budget (`engine::budget`) without
//! panicking, and that Kafka's invariants hold:
//!
//! * no task runs (state `running`) on two lanes at once — a copy Kafka no
//!   longer tracks (a resumed frozen member, an orphan of a cooperative→eager
//!   downgrade) is marked `zombie` in the trace (its state, or a `zombie` /
//!   `downgrade_orphans` step, as `tests/sim_properties.rs` reads them) and
//!   is not a second owner;
//! * a settled, uncut run ends with every configured task running.
//!
//! A Connect member the join phase dropped (it did not rejoin within
//! `rebalance.timeout.ms`, busy or frozen) runs on without knowing it: the
//! trace marks its copies `zombie` and says so in a `zombie` step, so the
//! single-runner invariant is checked for every Connect case.
//!
//! The same holds for Streams: a thread removed from the group while it
//! could not tell (a session that expired in a GC pause, a join phase it
//! missed — including one that closed with nobody rejoined and emptied the
//! group) runs its tasks as `zombie` copies until its next heartbeat or
//! poll, so the single-runner invariant is checked for every Streams case,
//! hostile `max.poll.interval.ms` included.
//!
//! The normal test run tries a bounded number of cases (a few seconds in a
//! debug build). For more, set `PROPTEST_CASES`, best with `--release`:
//!
//! ```text
//! PROPTEST_CASES=2000 cargo test --release -p rebalance-engine --test run_fuzz
//! ```
//!
//! The seed is fixed so every run tries the same cases; set
//! `PROPTEST_RNG_SEED=<n>` to try other ones.

#[path = "support/membership.rs"]
mod membership;
use engine::budget::{MAX_ROUNDS, MAX_TRACE_ENTRIES};
use engine::run::run;
use engine::scenario::Scenario;
use engine::trace::{ItemKind, ItemState, StepKind, Trace};
use membership::member_again_ms;
use proptest::prelude::*;

/// Cases per family in a normal run, unless `PROPTEST_CASES` says otherwise
/// (a storm cut at 10,000 rounds takes about a second in a debug build).
const DEFAULT_CASES: u32 = 4;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    ProptestConfig {
        cases,
        rng_seed: seed(),
        ..ProptestConfig::default()
    }
}

/// A fixed seed, so that `cargo xtask test` (and CI) runs the same cases
/// every time; `PROPTEST_RNG_SEED=<n>` explores others.
fn seed() -> proptest::test_runner::RngSeed {
    let n = std::env::var("PROPTEST_RNG_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x5eed_2026);
    proptest::test_runner::RngSeed::Fixed(n)
}

/// A timeout in ms, hostile (a few ms) as often as ordinary.
fn timeout_ms() -> impl Strategy<Value = u32> {
    prop_oneof![1u32..=50, 50u32..=5_000, 5_000u32..=120_000]
}

/// A Connect scenario: 1–4 workers, 1–3 connectors, 0–3 events, hostile
/// timings, optionally an end.
fn connect_scenario() -> impl Strategy<Value = String> {
    (
        1u32..=4,
        prop::collection::vec(1u32..=6, 1..=3),
        (timeout_ms(), 1u32..=3_000, 6_000u32..=30_000, any::<bool>()),
        (0u32..=8_000, 0u32..=3_000),
        prop::collection::vec((1u64..60_000, 0u8..5, 1u64..40_000), 0..=3),
        prop::option::of(1_000u64..=600_000),
    )
        .prop_map(
            |(workers, tasks, (rebalance, heartbeat, session, eager), (stop, start), events, end)| {
                let connectors: Vec<String> = tasks
                    .iter()
                    .enumerate()
                    .map(|(i, t)| format!(r#"{{"name":"c{i}","tasks":{t}}}"#))
                    .collect();
                let mut at = 5_000u64;
                let events: Vec<String> = events
                    .iter()
                    .map(|&(gap, kind, ms)| {
                        at += gap;
                        let w = format!("worker-{}", 1 + (gap as u32 % workers));
                        match kind {
                            0 => format!(r#"{{"at_ms":{at},"type":"worker_join"}}"#),
                            1 => format!(r#"{{"at_ms":{at},"type":"worker_crash","worker":"{w}"}}"#),
                            2 => format!(
                                r#"{{"at_ms":{at},"type":"worker_restart","worker":"{w}","downtime_ms":{ms}}}"#
                            ),
                            3 => format!(
                                r#"{{"at_ms":{at},"type":"gc_pause","worker":"{w}","duration_ms":{ms}}}"#
                            ),
                            _ => format!(r#"{{"at_ms":{at},"type":"connector_add","name":"new","tasks":3}}"#),
                        }
                    })
                    .collect();
                let protocol = if eager { "eager" } else { "sessioned" };
                let end = end.map_or(String::new(), |e| format!(r#","end_ms":{e}"#));
                format!(
                    r#"{{"version":1,"title":"fuzz","connect":{{"workers":{workers},"connectors":[{}],
                    "config":{{"connect.protocol":"{protocol}","rebalance.timeout.ms":{rebalance},
                    "heartbeat.interval.ms":{heartbeat},"session.timeout.ms":{session}}},
                    "timings":{{"task_stop_ms":{stop},"task_start_ms":{start}}}}},
                    "events":[{}]{end}}}"#,
                    connectors.join(","),
                    events.join(",")
                )
            },
        )
}

/// Releases before the newest with a rule of their own (`connect::versions`).
const OLDER_CONNECT_RELEASES: &[&str] = &["2.3", "2.5.0", "2.6.1", "2.7.0", "3.3.2", "3.6.0"];

/// The same Connect scenarios on an older release: each worker's assignor
/// lacks some fixes (a stale delay, no duplicate revocation, …).
fn older_connect_scenario() -> impl Strategy<Value = String> {
    (
        connect_scenario(),
        prop::sample::select(OLDER_CONNECT_RELEASES),
    )
        .prop_map(|(json, v)| {
            json.replacen(
                r#""config":{"#,
                &format!(r#""config":{{"kafka_version":"{v}","#),
                1,
            )
        })
}

/// A Streams scenario: 1–4 instances, 1–2 subtopologies, 0–3 events,
/// hostile poll and session timings, optionally an end.
fn streams_scenario() -> impl Strategy<Value = String> {
    (
        1u32..=4,
        prop::collection::vec((1u32..=6, any::<bool>()), 1..=2),
        (timeout_ms(), 1u32..=3_000, 6_000u32..=30_000),
        prop::collection::vec((1u64..60_000, 0u8..4, 1u64..40_000), 0..=3),
        prop::option::of(1_000u64..=600_000),
    )
        .prop_map(|(instances, subs, (poll, heartbeat, session), events, end)| {
            let subs: Vec<String> = subs
                .iter()
                .map(|&(partitions, stateful)| {
                    if stateful {
                        format!(
                            r#"{{"partitions":{partitions},"stateful":true,"changelog_records":2000,"changelog_records_per_sec":100}}"#
                        )
                    } else {
                        format!(r#"{{"partitions":{partitions}}}"#)
                    }
                })
                .collect();
            let mut at = 5_000u64;
            let events: Vec<String> = events
                .iter()
                .map(|&(gap, kind, ms)| {
                    at += gap;
                    let i = format!("instance-{}", 1 + (gap as u32 % instances));
                    match kind {
                        0 => format!(r#"{{"at_ms":{at},"type":"instance_join"}}"#),
                        1 => format!(r#"{{"at_ms":{at},"type":"instance_crash","instance":"{i}"}}"#),
                        2 => format!(
                            r#"{{"at_ms":{at},"type":"instance_restart","instance":"{i}","downtime_ms":{ms}}}"#
                        ),
                        _ => format!(
                            r#"{{"at_ms":{at},"type":"slow_processing","instance":"{i}","duration_ms":{ms}}}"#
                        ),
                    }
                })
                .collect();
            let end = end.map_or(String::new(), |e| format!(r#","end_ms":{e}"#));
            format!(
                r#"{{"version":1,"title":"fuzz","streams":{{"instances":{instances},"subtopologies":[{}],
                "config":{{"max.poll.interval.ms":{poll},"heartbeat.interval.ms":{heartbeat},"session.timeout.ms":{session}}}}},
                "compare":[{{"label":"eager","kafka_version":"3.9","config":{{"upgrade.from":"2.3"}}}},{{"label":"cooperative"}}],
                "events":[{}]{end}}}"#,
                subs.join(","),
                events.join(",")
            )
        })
}

/// When each lane ran copies Kafka no longer tracks: a member removed
/// without knowing it (a `zombie` step: resumed after its session expired,
/// or dropped by the join phase) until the first delivered round it is a
/// member of again, and orphans of a cooperative→eager downgrade until the
/// end — the windows `tests/sim_properties.rs` recognises.
fn zombie_windows(t: &Trace) -> Vec<(u32, u64, u64)> {
    t.steps
        .iter()
        .filter_map(|s| {
            let w = s.worker?;
            let until = match s.kind {
                StepKind::DowngradeOrphans => t.end_ms,
                StepKind::Zombie => member_again_ms(t, w, s.at_ms),
                _ => return None,
            };
            Some((w, s.at_ms, until))
        })
        .collect()
}

/// No item is `running` on two lanes at once, zombie copies aside (their
/// own state, or a lane inside a zombie window).
fn check_single_runner(t: &Trace, at: &str) -> Result<(), TestCaseError> {
    let zombies = zombie_windows(t);
    let untracked = |lane: u32, from: u64| {
        zombies
            .iter()
            .any(|&(w, start, until)| w == lane && start <= from && from <= until)
    };
    let mut running: Vec<(u32, u64, u64, u32)> = t
        .intervals()
        .filter(|iv| iv.state == ItemState::Running && iv.start_ms < iv.end_ms)
        .filter_map(|iv| Some((iv.item, iv.start_ms, iv.end_ms, iv.worker?)))
        .collect();
    running.sort_unstable();
    for pair in running.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let overlap = a.0 == b.0 && b.1 < a.2 && a.3 != b.3;
        prop_assert!(
            !overlap || untracked(a.3, b.1) || untracked(b.3, b.1),
            "{at}: {} runs on {} and {} at once ({a:?} / {b:?})",
            t.items[a.0 as usize].label,
            t.workers[a.3 as usize],
            t.workers[b.3 as usize]
        );
    }
    Ok(())
}

/// Every task configured at the end runs somewhere at the end.
fn check_everything_runs_at_the_end(t: &Trace, at: &str) -> Result<(), TestCaseError> {
    let mut configured: Vec<u32> = t
        .configured
        .iter()
        .filter(|c| c.end_ms >= t.end_ms)
        .flat_map(|c| t.list(c.items).iter().copied())
        .filter(|&i| t.items[i as usize].kind == ItemKind::Task)
        .collect();
    configured.sort_unstable();
    configured.dedup();
    let mut running: Vec<u32> = t
        .spans
        .iter()
        .filter(|s| s.worker.is_some() && s.end_ms >= t.end_ms && s.state.is_running())
        .flat_map(|s| t.list(s.items).iter().copied())
        .collect();
    running.sort_unstable();
    running.dedup();
    let missing: Vec<&str> = configured
        .iter()
        .filter(|i| running.binary_search(i).is_err())
        .map(|&i| t.items[i as usize].label.as_str())
        .collect();
    prop_assert!(
        missing.is_empty(),
        "{at}: not running at the end: {missing:?}"
    );
    Ok(())
}

/// Runs a generated scenario (if validation accepts it) and checks it;
/// `strict` adds the single-runner invariant.
fn check(json: &str, strict: bool) -> Result<(), TestCaseError> {
    let Ok(scenario) = Scenario::from_json(json) else {
        // Refused: an allowed outcome (the scenario module names why).
        return Ok(());
    };
    for v in &run(&scenario).variants {
        let at = format!("{} in {}", v.label, json.replace('\n', " "));
        let t = &v.trace;
        let entries = t.spans.len() + t.steps.len() + t.item_lists.len();
        // The budget holds (a cut adds its last spans and one step).
        prop_assert!(
            t.rounds.len() <= MAX_ROUNDS + 2,
            "{at}: {} rounds",
            t.rounds.len()
        );
        prop_assert!(
            entries <= MAX_TRACE_ENTRIES + 10_000,
            "{at}: {entries} entries"
        );
        prop_assert_eq!(v.metrics.cut, t.cut.map(|c| c.reason), "{}", at);
        if let Some(cut) = t.cut {
            prop_assert_eq!(t.end_ms, cut.at_ms, "{}", at);
            prop_assert!(
                v.metrics.settled_ms.is_none(),
                "{at}: a cut run never settled"
            );
        }
        if strict {
            check_single_runner(t, &at)?;
        }
        if t.cut.is_none() && v.metrics.settled_ms.is_some() {
            check_everything_runs_at_the_end(t, &at)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn connect_runs_finish_within_their_budget_and_keep_kafkas_invariants(json in connect_scenario()) {
        check(&json, true)?;
    }

    /// Old releases run everything to the end and within budget too; the
    /// invariants are the newest release's (before KAFKA-9841 two copies of
    /// duplicated work do run at once), so only the budget is checked.
    #[test]
    fn connect_runs_on_older_releases_finish_within_their_budget(json in older_connect_scenario()) {
        prop_assert!(json.contains("kafka_version"));
        check(&json, false)?;
    }

    #[test]
    fn streams_runs_finish_within_their_budget_and_keep_kafkas_invariants(json in streams_scenario()) {
        check(&json, true)?;
    }
}

/// A case the fuzzer found: worker-1 resumes from a GC pause longer than its
/// session as a zombie and overlaps its successor for 60 ms.
#[test]
fn a_resumed_zombie_is_not_a_second_owner() {
    let json = r#"{"version":1,"title":"fuzz","connect":{"workers":2,"connectors":[{"name":"c0","tasks":1}],
        "config":{"connect.protocol":"sessioned","rebalance.timeout.ms":1000,"heartbeat.interval.ms":1,"session.timeout.ms":6271},
        "timings":{"task_stop_ms":0,"task_start_ms":0}},
        "events":[{"at_ms":6950,"type":"gc_pause","worker":"worker-1","duration_ms":17831},
                  {"at_ms":20153,"type":"gc_pause","worker":"worker-2","duration_ms":5668}]}"#;
    if let Err(e) = check(json, true) {
        panic!("{e}");
    }
}
