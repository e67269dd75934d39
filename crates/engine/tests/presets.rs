//! Every preset, run under every protocol it compares: the invariants Kafka
//! guarantees, the effect each preset claims, determinism, links, and a
//! snapshot of the textual per-worker timeline so a change in behaviour shows
//! up in review (`cargo insta review`, or INSTA_UPDATE=always to accept).

use engine::link::{self, LinkTarget};
use engine::presets;
use engine::run::{run, RunResult, VariantRun};
use engine::trace::{ItemKind, ItemState, Trace};

/// Presets about zombies: the only ones allowed to run a task twice.
const ZOMBIE_PRESETS: &[&str] = &["connect/gc-pause-zombie"];

fn variant<'a>(result: &'a RunResult, label: &str) -> &'a VariantRun {
    result
        .variants
        .iter()
        .find(|v| v.label == label)
        .unwrap_or_else(|| panic!("no variant {label}"))
}

/// Items configured when the run ends.
fn configured_at_end(trace: &Trace) -> Vec<u32> {
    let mut items: Vec<u32> = trace
        .configured
        .iter()
        .filter(|c| c.end_ms >= trace.end_ms)
        .flat_map(|c| trace.list(c.items).iter().copied())
        .collect();
    items.sort_unstable();
    items.dedup();
    items
}

/// Items running on some worker when the run ends.
fn running_at_end(trace: &Trace) -> Vec<u32> {
    let mut items: Vec<u32> = trace
        .spans
        .iter()
        .filter(|s| s.worker.is_some() && s.state == ItemState::Running && s.end_ms >= trace.end_ms)
        .flat_map(|s| trace.list(s.items).iter().copied())
        .collect();
    items.sort_unstable();
    items.dedup();
    items
}

#[test]
fn every_preset_keeps_kafkas_guarantees_and_ends_with_everything_running() {
    for preset in presets::all() {
        let result = run(&preset.scenario());
        assert_eq!(
            result.variants.len(),
            preset.scenario().compare.len(),
            "{}",
            preset.id
        );
        for v in &result.variants {
            let at = format!("{} / {}", preset.id, v.label);
            if !ZOMBIE_PRESETS.contains(&preset.id) {
                assert_eq!(
                    v.metrics.duplicate_task_ms, 0,
                    "{at}: a task ran on two workers at once"
                );
            }
            let configured = configured_at_end(&v.trace);
            assert!(
                !configured.is_empty(),
                "{at}: nothing configured at the end"
            );
            let running = running_at_end(&v.trace);
            let missing: Vec<&str> = configured
                .iter()
                .filter(|i| running.binary_search(i).is_err())
                .map(|&i| v.trace.items[i as usize].label.as_str())
                .collect();
            assert!(
                missing.is_empty(),
                "{at}: not running at the end: {missing:?}"
            );
            assert!(v.metrics.settled_ms.is_some(), "{at}: never settled");
        }
    }
}

#[test]
fn the_same_preset_twice_gives_the_same_trace() {
    for preset in presets::all() {
        let a = run(&preset.scenario());
        let b = run(&preset.scenario());
        for (x, y) in a.variants.iter().zip(&b.variants) {
            assert_eq!(
                x.trace.fingerprint(),
                y.trace.fingerprint(),
                "{} / {}",
                preset.id,
                x.label
            );
            assert_eq!(x.metrics, y.metrics, "{} / {}", preset.id, x.label);
        }
    }
}

#[test]
fn every_preset_has_a_short_link_and_a_full_link_under_2000_characters() {
    for preset in presets::all() {
        let scenario = preset.scenario();
        assert_eq!(
            link::decode(&format!("#{}", link::preset_fragment(preset.id))).unwrap(),
            LinkTarget::Preset(preset.id.to_string())
        );
        let full = format!(
            "https://example.org/rebalance-playground/#{}",
            link::encode(&scenario)
        );
        assert!(
            full.len() < 2000,
            "{}: full link is {} characters",
            preset.id,
            full.len()
        );
        match link::decode(&full) {
            Ok(LinkTarget::Scenario(s)) => assert_eq!(*s, scenario, "{}", preset.id),
            other => panic!("{}: {other:?}", preset.id),
        }
    }
}

#[test]
fn per_worker_timelines_match_their_snapshots() {
    for preset in presets::all() {
        let text = engine::trace_text::render_result(&run(&preset.scenario()));
        insta::assert_snapshot!(preset.id.replace('/', "__"), text);
    }
}

fn tasks_stopped(result: &RunResult, label: &str) -> u64 {
    variant(result, label).metrics.tasks_stopped
}

fn task_count(trace: &Trace) -> u64 {
    trace
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::Task)
        .count() as u64
}

fn longest_outage_ms(result: &RunResult, label: &str) -> u64 {
    variant(result, label)
        .metrics
        .longest_task_outage
        .as_ref()
        .map_or(0, |o| o.duration_ms)
}

fn preset_result(id: &str) -> RunResult {
    run(&presets::find(id)
        .unwrap_or_else(|| panic!("no preset {id}"))
        .scenario())
}

#[test]
fn worker_joins_cooperative_stops_only_what_moves() {
    let r = preset_result("connect/worker-joins");
    let eager = variant(&r, "eager");
    assert_eq!(
        eager.metrics.tasks_stopped,
        task_count(&eager.trace),
        "eager stops every task"
    );
    assert!(tasks_stopped(&r, "cooperative") < tasks_stopped(&r, "eager"));
    assert!(
        tasks_stopped(&r, "cooperative") > 0,
        "the new worker must get some tasks"
    );
}

#[test]
fn add_connector_eager_restarts_everything_cooperative_only_starts_the_new_tasks() {
    let r = preset_result("connect/add-connector");
    assert!(
        tasks_stopped(&r, "eager") >= 24,
        "eager restarts all 24 running tasks"
    );
    assert!(tasks_stopped(&r, "cooperative") < tasks_stopped(&r, "eager"));
}

#[test]
fn worker_bounce_work_waits_for_the_deadline_not_for_the_return() {
    let r = preset_result("connect/worker-bounce");
    // The returning worker is back after 60 s, yet its old tasks wait for the
    // whole scheduled.rebalance.max.delay.ms from the moment the loss was seen.
    assert!(
        longest_outage_ms(&r, "cooperative") >= 300_000,
        "{}",
        longest_outage_ms(&r, "cooperative")
    );
    assert!(longest_outage_ms(&r, "eager") < 60_000);
}

#[test]
fn worker_dies_tasks_stay_down_for_the_delay_unless_it_is_zero() {
    let r = preset_result("connect/worker-dies");
    let five_min = longest_outage_ms(&r, "cooperative (5 min delay)");
    assert!((300_000..330_000).contains(&five_min), "{five_min}");
    let zero = longest_outage_ms(&r, "cooperative (delay 0)");
    assert!(zero < 30_000, "{zero}");
    assert!(longest_outage_ms(&r, "eager") < 30_000);
}

#[test]
fn two_workers_join_both_get_work_kafka_10413() {
    let r = preset_result("connect/two-workers-join");
    let trace = &variant(&r, "cooperative").trace;
    for name in ["worker-3", "worker-4"] {
        let w = trace.worker_index(name).unwrap();
        let runs_something = trace.spans.iter().any(|s| {
            s.worker == Some(w) && s.state == ItemState::Running && s.end_ms >= trace.end_ms
        });
        assert!(runs_something, "{name} got no work");
    }
}

#[test]
fn rolling_restart_shows_the_consecutive_revocation_backoff() {
    let r = preset_result("connect/rolling-restart");
    let trace = &variant(&r, "cooperative").trace;
    assert!(
        trace
            .rounds
            .iter()
            .any(|round| round.explanation.contains("KAFKA-12495")),
        "no round was postponed by the backoff"
    );
    assert!(tasks_stopped(&r, "cooperative") < tasks_stopped(&r, "eager"));
}

#[test]
fn mixed_version_upgrade_one_eager_worker_keeps_the_cluster_eager() {
    let r = preset_result("connect/mixed-version-upgrade");
    for (label, after) in [
        ("upgrade to sessioned", "sessioned"),
        ("upgrade to compatible", "compatible"),
    ] {
        let rounds = &variant(&r, label).trace.rounds;
        let before: Vec<&str> = rounds
            .iter()
            .filter(|r| r.completed_ms < 60_000)
            .map(|r| r.protocol.as_str())
            .collect();
        assert!(
            !before.is_empty() && before.iter().all(|p| *p == "default"),
            "{label}: {before:?}"
        );
        assert_eq!(
            rounds.last().map(|r| r.protocol.as_str()),
            Some(after),
            "{label}"
        );
    }
}
