//! Every preset, run under every protocol it compares: the invariants Kafka
//! guarantees, the effect each preset claims, determinism, links, and a
//! snapshot of the textual per-worker timeline so a change in behaviour shows
//! up in review (`cargo insta review`, or INSTA_UPDATE=always to accept).

use engine::link::{self, LinkTarget};
use engine::metrics::FamilyMetrics;
use engine::presets;
use engine::run::{run, RunResult, VariantRun};
use engine::scenario::Start;
use engine::trace::StepKind;
use engine::trace::{ItemKind, ItemState, Trace};

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

/// The columns that storm on purpose (`connect/rebalance-storm`): they are
/// cut at the run budget and never settle; every other column settles.
const STORM_COLUMNS: &[(&str, &str)] = &[("connect/rebalance-storm", "rebalance.timeout.ms=3s")];

/// The columns that show an old release's imbalance on purpose: everything
/// runs at the end, but the load never evens out, so they never settle.
const UNBALANCED_COLUMNS: &[(&str, &str)] = &[("connect/two-workers-join", "Kafka 2.6.1")];

/// A preset that does not start empty opens on a formed group: every
/// configured item runs from t = 0 until the first event, no round comes
/// before that event, the first round continues the formed group's
/// generations, and the initial members show as joined at 0.
#[test]
fn presets_open_on_a_formed_group_unless_they_are_about_formation() {
    for preset in presets::all() {
        let scenario = preset.scenario();
        if scenario.start == Start::Empty {
            continue;
        }
        for v in &run(&scenario).variants {
            let at = format!("{} / {}", preset.id, v.label);
            let t = &v.trace;
            let first_event = t.events.first().expect("an event").at_ms;
            let configured_at_0: Vec<u32> = t
                .configured
                .iter()
                .filter(|c| c.start_ms == 0)
                .flat_map(|c| t.list(c.items).iter().copied())
                .collect();
            assert!(!configured_at_0.is_empty(), "{at}");
            for &item in &configured_at_0 {
                let runs = t.item_intervals(item).iter().any(|iv| {
                    iv.worker.is_some()
                        && iv.state == ItemState::Running
                        && iv.start_ms == 0
                        && iv.end_ms >= first_event
                });
                assert!(
                    runs,
                    "{at}: {} does not run from 0 to the first event",
                    t.items[item as usize].label
                );
            }
            // Static members may come back without any round.
            if let Some(first) = t.rounds.first() {
                assert!(first.started_ms >= first_event, "{at}: {first:?}");
                assert!(
                    first.generation > 1,
                    "{at}: generation {}",
                    first.generation
                );
            }
            assert!(t.members.iter().any(|m| m.joined_ms == 0), "{at}");
            assert_eq!(v.metrics.measured_from_ms, 0, "{at}");
        }
    }
}

#[test]
fn every_preset_keeps_kafkas_guarantees_and_ends_with_everything_running() {
    for preset in presets::all() {
        let result = run(&preset.scenario());
        assert_eq!(
            result.variants.len(),
            preset.scenario().variant_labels().len(),
            "{}",
            preset.id
        );
        for v in &result.variants {
            let at = format!("{} / {}", preset.id, v.label);
            assert_eq!(
                v.metrics.duplicate_task_ms, 0,
                "{at}: a task ran on two workers at once"
            );
            let storms = STORM_COLUMNS.contains(&(preset.id, v.label.as_str()));
            assert_eq!(v.trace.cut.is_some(), storms, "{at}: cut {:?}", v.trace.cut);
            if storms {
                continue;
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
            let unbalanced = UNBALANCED_COLUMNS.contains(&(preset.id, v.label.as_str()));
            assert_eq!(
                v.metrics.settled_ms.is_some(),
                !unbalanced,
                "{at}: settled at {:?}",
                v.metrics.settled_ms
            );
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

/// Lines of a cut column's timeline kept in its snapshot: a storm's
/// 10,000 rounds would make a snapshot nobody can review.
const CUT_SNAPSHOT_LINES: usize = 80;

#[test]
fn per_worker_timelines_match_their_snapshots() {
    for preset in presets::all() {
        let result = run(&preset.scenario());
        let mut text = String::new();
        for v in &result.variants {
            let one = RunResult {
                variants: vec![v.clone()],
            };
            let rendered = engine::trace_text::render_result(&one);
            match v.trace.cut {
                None => text.push_str(&rendered),
                Some(cut) => {
                    for line in rendered.lines().take(CUT_SNAPSHOT_LINES) {
                        text.push_str(line);
                        text.push('\n');
                    }
                    text.push_str(&format!("… cut: {}\n\n", cut.verdict()));
                }
            }
        }
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

/// The variant's longest task outage. Every variant these tests ask about
/// has one; a missing outage would otherwise read as 0 and pass every `<`
/// bound, so it fails instead.
fn longest_outage_ms(run: &PresetRun, label: &str) -> u64 {
    variant(run, label)
        .metrics
        .longest_task_outage
        .as_ref()
        .unwrap_or_else(|| panic!("{} / {label}: no task outage recorded", run.id))
        .duration_ms
}

/// A preset's run together with its id, for failure messages.
struct PresetRun {
    id: &'static str,
    result: RunResult,
}

impl std::ops::Deref for PresetRun {
    type Target = RunResult;
    fn deref(&self) -> &RunResult {
        &self.result
    }
}

fn preset_result(id: &str) -> PresetRun {
    let preset = presets::find(id).unwrap_or_else(|| panic!("no preset {id}"));
    PresetRun {
        id: preset.id,
        result: run(&preset.scenario()),
    }
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
    let tasks_at_end = |label: &str, name: &str| {
        let trace = &variant(&r, label).trace;
        let w = trace.worker_index(name).unwrap();
        trace
            .spans
            .iter()
            .filter(|s| {
                s.worker == Some(w) && s.state == ItemState::Running && s.end_ms >= trace.end_ms
            })
            .flat_map(|s| trace.list(s.items).iter().copied())
            .filter(|&i| trace.items[i as usize].kind == ItemKind::Task)
            .count()
    };
    let shares = |label: &str| -> Vec<usize> {
        ["worker-1", "worker-2", "worker-3", "worker-4"]
            .iter()
            .map(|w| tasks_at_end(label, w))
            .collect()
    };
    assert_eq!(shares("cooperative"), [6, 6, 6, 6]);
    // Kafka 2.6.1 (before KAFKA-10413): one floor average revoked, from
    // worker-1 only, and no revocation in the next round (canRevoke).
    assert_eq!(shares("Kafka 2.6.1"), [6, 12, 3, 3]);
    let old = &variant(&r, "Kafka 2.6.1").trace;
    assert!(old.rounds[0]
        .explanation
        .contains("Revokes 6 tasks from worker-1 "));
    assert_eq!(variant(&r, "Kafka 2.6.1").metrics.settled_ms, None);
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
        let trace = &variant(&r, label).trace;
        let rounds = &trace.rounds;
        // The group formed on `default` (the step shown at t = 0), and its
        // first round after the upgrade event switches.
        let protocol: Vec<_> = trace
            .steps
            .iter()
            .filter(|s| s.kind == StepKind::GroupProtocol)
            .map(|s| (s.at_ms, &*s.explanation))
            .collect();
        assert_eq!(protocol.len(), 2, "{label}: {protocol:#?}");
        assert_eq!(protocol[0].0, 0, "{label}");
        assert!(
            protocol[0].1.contains("selects group protocol `default`"),
            "{label}: {}",
            protocol[0].1
        );
        assert!(protocol[1].0 > 60_000, "{label}");
        assert!(
            protocol[1]
                .1
                .contains(&format!("from `default` to `{after}`")),
            "{label}: {}",
            protocol[1].1
        );
        assert!(
            rounds.iter().all(|r| r.started_ms >= 60_000),
            "{label}: no round before the upgrade"
        );
        assert_eq!(
            rounds.last().map(|r| r.protocol.as_str()),
            Some(after),
            "{label}"
        );
    }
}

// --- Kafka Streams presets ---------------------------------------------------

/// The family part of the metrics is tagged in snake_case: a bare
/// `"connect"`, or the Streams figures under `{"streams": …}`.
#[test]
fn rebalance_storm_is_cut_with_a_verdict_and_the_default_timeout_settles_at_once() {
    let r = preset_result("connect/rebalance-storm");
    let storm = variant(&r, "rebalance.timeout.ms=3s");
    let cut = storm.trace.cut.expect("the storm is cut at its budget");
    assert_eq!(cut.reason, engine::budget::BudgetKind::Rounds);
    assert_eq!(storm.trace.end_ms, cut.at_ms);
    assert!(cut
        .verdict()
        .starts_with("the group did not stabilise: 10,000 rebalance rounds in "));
    assert_eq!(storm.metrics.cut, Some(engine::budget::BudgetKind::Rounds));
    assert_eq!(storm.metrics.settled_ms, None);
    assert!(
        has_step(&r, "rebalance.timeout.ms=3s", StepKind::SimulationStopped),
        "the trace says where it stopped"
    );
    // Members are dropped for not rejoining in time, round after round.
    let dropped = storm
        .trace
        .steps
        .iter()
        .filter(|s| {
            s.explanation
                .contains("did not rejoin within rebalance.timeout.ms")
        })
        .count();
    assert!(dropped > 1_000, "{dropped} members dropped");
    let sane = variant(&r, "rebalance.timeout.ms=60s");
    assert_eq!((sane.trace.cut, sane.metrics.cut), (None, None));
    assert_eq!(
        sane.metrics.rebalance_rounds, 1,
        "one eager round for the join"
    );
    assert_eq!(sane.metrics.tasks_stopped, task_count(&sane.trace));
    assert!(sane.metrics.settled_ms.is_some_and(|t| t < 60_000));
    assert!(storm.metrics.tasks_stopped > 1_000 * sane.metrics.tasks_stopped);
    // The sane column shares the storm's axis.
    assert_eq!(sane.trace.end_ms, storm.trace.end_ms);
}

#[test]
fn metrics_tag_their_family_in_snake_case() {
    for (id, tag) in [
        ("connect/worker-joins", r#""family":"connect""#),
        ("streams/scale-from-zero", r#""family":{"streams":{"#),
    ] {
        let result = run(&presets::find(id).expect("a preset").scenario());
        for v in &result.variants {
            let json = serde_json::to_string(&v.metrics).expect("metrics serialize");
            assert!(json.contains(tag), "{id} {}: {json}", v.label);
            let back: engine::metrics::Metrics =
                serde_json::from_str(&json).expect("metrics read back");
            assert_eq!(back, v.metrics, "{id} {}", v.label);
        }
    }
}

fn streams_metrics<'a>(result: &'a RunResult, label: &str) -> &'a engine::metrics::StreamsMetrics {
    match &variant(result, label).metrics.family {
        FamilyMetrics::Streams(m) => m,
        FamilyMetrics::Connect => panic!("{label}: no Streams metrics"),
    }
}

fn has_step(result: &RunResult, label: &str, kind: StepKind) -> bool {
    variant(result, label)
        .trace
        .steps
        .iter()
        .any(|s| s.kind == kind)
}

#[test]
fn streams_slow_handler_leaves_at_the_poll_timeout_and_eager_stops_everyone() {
    let r = preset_result("streams/slow-handler");
    for label in ["eager", "cooperative"] {
        assert!(has_step(&r, label, StepKind::PollTimeout), "{label}");
        // The blocked thread's tasks stall for max.poll.interval.ms (60 s)
        // before anyone else may take them.
        assert!(longest_outage_ms(&r, label) >= 60_000, "{label}");
    }
    assert!(tasks_stopped(&r, "cooperative") < tasks_stopped(&r, "eager"));
}

#[test]
fn streams_rolling_restart_static_members_return_without_a_rebalance() {
    let r = preset_result("streams/rolling-restart-static");
    let statics = variant(&r, "static");
    assert_eq!(statics.metrics.rebalance_rounds, 0);
    assert!(longest_outage_ms(&r, "static") < 45_000);
    // Dynamic: no LeaveGroup on close, so the new member's join phase waits
    // for the old member's 45 s session.
    for label in ["eager, dynamic", "cooperative, dynamic"] {
        assert!(longest_outage_ms(&r, label) >= 45_000, "{label}");
    }
    let down = |label: &str| variant(&r, label).metrics.task_ms_not_running;
    assert!(down("cooperative, dynamic") < down("eager, dynamic"));
    assert!(down("static") < down("cooperative, dynamic"));
}

#[test]
fn streams_upgrade_from_2_3_without_upgrade_from_risks_double_ownership() {
    let r = preset_result("streams/upgrade-from-2-3");
    assert!(has_step(&r, "no upgrade.from", StepKind::DoubleOwnership));
    assert!(!has_step(
        &r,
        "upgrade.from=2.3, two bounces",
        StepKind::DoubleOwnership
    ));
    for label in ["no upgrade.from", "upgrade.from=2.3, two bounces"] {
        let rounds = &variant(&r, label).trace.rounds;
        assert_eq!(
            rounds.last().map(|x| x.protocol.as_str()),
            Some("cooperative"),
            "{label}"
        );
        assert!(has_step(&r, label, StepKind::VersionProbing), "{label}");
    }
    // With upgrade.from the group stays eager until the second bounce.
    let safe = &variant(&r, "upgrade.from=2.3, two bounces").trace;
    assert!(safe
        .rounds
        .iter()
        .filter(|x| x.completed_ms < 240_000)
        .all(|x| x.protocol == "eager"));
}

#[test]
fn streams_stateful_scale_out_warmups_keep_processing() {
    let r = preset_result("streams/stateful-scale-out");
    assert_eq!(tasks_stopped(&r, "eager"), 12);
    // HATA deals round-robin, ignoring history: 9 of 12 move.
    assert_eq!(tasks_stopped(&r, "cooperative"), 9);
    let warm = streams_metrics(&r, "cooperative + warmups");
    assert!(warm.warmups_started > 0 && warm.warmups_promoted > 0);
    assert!(warm.probing_rebalances > 0);
    assert!(longest_outage_ms(&r, "cooperative + warmups") < 5_000);
    assert!(streams_metrics(&r, "cooperative").restoring_ms > 60_000);
}

#[test]
fn streams_warmup_convergence_migrates_max_warmup_replicas_per_probing_interval() {
    let r = preset_result("streams/warmup-convergence");
    let defaults = streams_metrics(&r, "defaults (2 per 10 min)");
    let four = streams_metrics(&r, "max.warmup.replicas=4");
    let fast = streams_metrics(&r, "probing every 1 min");
    // 6 tasks move to the two new instances, 2 per probing interval.
    assert_eq!(defaults.warmups_promoted, 6);
    assert_eq!(defaults.probing_rebalances, 3);
    assert!(four.probing_rebalances < defaults.probing_rebalances);
    let stable = |m: &engine::metrics::StreamsMetrics| m.caught_up_and_stable_ms.unwrap();
    assert!(stable(fast) < stable(four) && stable(four) < stable(defaults));
    assert!(stable(defaults) >= 3 * 600_000);
}

#[test]
fn streams_stateless_restart_waits_for_the_session_timeout() {
    let r = preset_result("streams/stateless-restart");
    let o45 = longest_outage_ms(&r, "session.timeout.ms=45000");
    let o10 = longest_outage_ms(&r, "session.timeout.ms=10000");
    assert!((45_000..50_000).contains(&o45), "{o45}");
    assert!((10_000..15_000).contains(&o10), "{o10}");
    assert!(longest_outage_ms(&r, "static") < 10_000);
    assert_eq!(variant(&r, "static").metrics.rebalance_rounds, 0);
    assert!(!has_step(
        &r,
        "session.timeout.ms=45000",
        StepKind::LeaveGroup
    ));
}

#[test]
fn streams_scale_from_zero_the_first_instance_takes_everything() {
    let r = preset_result("streams/scale-from-zero");
    for v in &r.variants {
        let t = &v.trace;
        let first = t.worker_index("instance-1").unwrap();
        let running_before_join = t
            .spans
            .iter()
            .filter(|s| {
                s.worker == Some(first)
                    && s.state == ItemState::Running
                    && s.end_ms >= 180_000
                    && s.start_ms < 180_000
            })
            .map(|s| s.items.len)
            .sum::<u32>();
        assert_eq!(running_before_join, 8, "{}", v.label);
    }
    let warm = streams_metrics(&r, "cooperative + warmups");
    assert!(warm.warmups_started > 0);
    assert!(longest_outage_ms(&r, "cooperative + warmups") < 5_000);
    assert!(longest_outage_ms(&r, "eager") > 10_000);
}
