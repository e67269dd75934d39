//! Issue #15: a rebalance storm is a result, not a hang. Small valid
//! scenarios that Kafka accepts and that never stop rebalancing finish
//! within the run budget (`engine::budget`) with a verdict, keep the trace up
//! to the cut, and mark their metrics as covering a cut run; every preset
//! stays far below the budget.

use engine::budget::{BudgetKind, MAX_ROUNDS, MAX_TRACE_ENTRIES};
use engine::presets;
use engine::run::{run, RunResult, VariantRun};
use engine::scenario::Scenario;
use engine::trace::{StepKind, Trace};

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).expect("a valid scenario")
}

/// State spans, steps and item-list entries: what the trace budget counts.
fn trace_entries(trace: &Trace) -> usize {
    trace.spans.len() + trace.steps.len() + trace.item_lists.len()
}

/// Checks everything a cut run promises and returns its cut.
fn assert_cut(v: &VariantRun) -> engine::trace::RunCut {
    let cut = v
        .trace
        .cut
        .unwrap_or_else(|| panic!("{}: expected a cut run", v.label));
    assert_eq!(cut.reason, BudgetKind::Rounds, "{}: {cut:?}", v.label);
    assert_eq!(
        v.trace.end_ms, cut.at_ms,
        "{}: the trace ends at the cut",
        v.label
    );
    // The budget counts every round, the formation's too; the formed start
    // keeps the formation's few rounds out of view (issue #11).
    assert_eq!(cut.rounds, MAX_ROUNDS as u64, "{}: {cut:?}", v.label);
    assert!(
        v.trace.rounds.len() + 5 >= MAX_ROUNDS,
        "{}: the rounds up to the cut are kept ({})",
        v.label,
        v.trace.rounds.len()
    );
    let stopped: Vec<_> = v
        .trace
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::SimulationStopped)
        .collect();
    assert_eq!(stopped.len(), 1, "{}: one simulation_stopped step", v.label);
    assert_eq!(stopped[0].at_ms, cut.at_ms);
    assert!(
        stopped[0]
            .explanation
            .starts_with("The group did not stabilise: 10,000 rebalance rounds in "),
        "{}",
        stopped[0].explanation
    );
    assert!(
        cut.verdict().ends_with("; stopped here"),
        "{}",
        cut.verdict()
    );
    assert_eq!(v.metrics.cut, Some(BudgetKind::Rounds), "{}", v.label);
    assert_eq!(
        v.metrics.settled_ms, None,
        "{}: a cut run never settled",
        v.label
    );
    // The trace budget is a separate promise from the time it took.
    let entries = trace_entries(&v.trace);
    assert!(
        entries < MAX_TRACE_ENTRIES,
        "{}: {entries} entries",
        v.label
    );
    assert!(
        cut.trace_entries as usize <= entries,
        "{}: counted before the last spans closed",
        v.label
    );
    cut
}

fn connect_storm(config: &str) -> RunResult {
    run(&scenario(&format!(
        r#"{{"version": 1, "title": "storm",
            "connect": {{"workers": 3, "connectors": [{{"name": "c", "tasks": 6}}],
                         "config": {config}}},
            "compare": [{{"label": "eager", "config": {{"connect.protocol": "eager"}}}},
                        {{"label": "cooperative"}}],
            "events": [{{"at_ms": 30000, "type": "worker_join"}}]}}"#
    )))
}

#[test]
fn connect_with_a_10_ms_rebalance_timeout_is_cut_with_a_verdict() {
    let result = connect_storm(r#"{"rebalance.timeout.ms": 10}"#);
    for v in &result.variants {
        let cut = assert_cut(v);
        assert!(
            cut.at_ms > 30_000,
            "{}: the storm starts with the join",
            v.label
        );
    }
}

#[test]
fn connect_with_a_10_ms_rebalance_timeout_and_a_1_ms_heartbeat_is_cut_with_a_verdict() {
    let result = connect_storm(r#"{"rebalance.timeout.ms": 10, "heartbeat.interval.ms": 1}"#);
    for v in &result.variants {
        assert_cut(v);
    }
}

#[test]
fn streams_with_a_1_s_max_poll_interval_and_one_join_is_cut_with_a_verdict() {
    let result = run(&scenario(
        r#"{"version": 1, "title": "storm",
            "streams": {"instances": 3, "subtopologies": [{"partitions": 6}],
                        "config": {"max.poll.interval.ms": 1000}},
            "compare": [{"label": "eager", "kafka_version": "3.9", "config": {"upgrade.from": "2.3"}},
                        {"label": "cooperative"}, {"label": "again"}],
            "events": [{"at_ms": 30000, "type": "instance_join"}]}"#,
    ));
    assert_eq!(result.variants.len(), 3);
    for v in &result.variants {
        assert_cut(v);
    }
}

#[test]
fn a_sane_column_next_to_a_storm_settles_and_shares_the_axis_up_to_the_cut() {
    let result = run(&scenario(
        r#"{"version": 1, "title": "storm and sane",
            "connect": {"workers": 3, "connectors": [{"name": "c", "tasks": 6}]},
            "compare": [{"label": "storm", "config": {"rebalance.timeout.ms": 10}},
                        {"label": "sane"}],
            "events": [{"at_ms": 30000, "type": "worker_join"}]}"#,
    ));
    let storm = assert_cut(&result.variants[0]);
    let sane = &result.variants[1];
    assert_eq!(sane.trace.cut, None);
    assert_eq!(sane.metrics.cut, None);
    assert!(sane.metrics.settled_ms.is_some());
    assert_eq!(
        sane.trace.end_ms, storm.at_ms,
        "the sane column runs on, quiet, to the storm's cut"
    );
}

#[test]
fn a_storm_with_an_end_stops_at_the_cut_or_at_the_end() {
    // Cut before the end: the trace ends at the cut.
    let result = run(&scenario(
        r#"{"version": 1, "title": "storm",
            "connect": {"workers": 3, "connectors": [{"name": "c", "tasks": 6}],
                        "config": {"rebalance.timeout.ms": 10}},
            "events": [{"at_ms": 30000, "type": "worker_join"}],
            "end_ms": 86400000}"#,
    ));
    assert_cut(&result.variants[0]);
    // An end before the budget runs out: an ordinary (unsettled) run.
    let short = run(&scenario(
        r#"{"version": 1, "title": "storm",
            "connect": {"workers": 3, "connectors": [{"name": "c", "tasks": 6}],
                        "config": {"rebalance.timeout.ms": 10}},
            "events": [{"at_ms": 30000, "type": "worker_join"}],
            "end_ms": 60000}"#,
    ));
    let v = &short.variants[0];
    assert_eq!((v.trace.cut, v.trace.end_ms), (None, 60_000));
    assert!(
        v.trace.rounds.len() > 10,
        "it storms: {}",
        v.trace.rounds.len()
    );
}

#[test]
fn every_preset_stays_far_below_the_budget() {
    for preset in presets::all() {
        for v in &run(&preset.scenario()).variants {
            let at = format!("{} / {}", preset.id, v.label);
            if v.trace.cut.is_some() {
                // A storm preset shows the verdict on purpose; tests/presets.rs
                // checks which column.
                continue;
            }
            assert!(
                v.trace.rounds.len() * 100 < MAX_ROUNDS,
                "{at}: {} rounds",
                v.trace.rounds.len()
            );
            let entries = trace_entries(&v.trace);
            assert!(entries * 100 < MAX_TRACE_ENTRIES, "{at}: {entries} entries");
        }
    }
}

/// The page's worker observes runs to post progress: observing must change
/// nothing, and the observer hears of every variant, in order, with
/// growing counts.
#[test]
fn observing_a_run_changes_nothing() {
    let storm = presets::resolve("connect/rebalance-storm")
        .expect("the storm preset")
        .scenario();
    let mut seen: Vec<engine::budget::RunProgress> = Vec::new();
    let observed = engine::run::run_observed(&storm, &mut |p| seen.push(p));
    assert_eq!(observed, run(&storm), "the same result");
    assert!(!seen.is_empty(), "a storm reports progress");
    assert!(seen.iter().all(|p| p.variants == 2));
    assert_eq!(seen.first().map(|p| p.variant), Some(0));
    for pair in seen.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        assert!(
            b.variant > a.variant || (b.events > a.events && b.simulated_ms >= a.simulated_ms),
            "{a:?} then {b:?}"
        );
        assert!(b.variant >= a.variant);
    }
    let storming = seen.iter().rfind(|p| p.variant == 0).expect("variant 0");
    assert!(storming.rounds > 1_000, "{storming:?}");
    assert!(storming.events % engine::budget::OBSERVE_EVERY == 0);
}

/// The page simulates a small scenario in the edit's own task and gives up
/// once a variant has processed 4,096 events (`BRIEF_EVENTS` in
/// web/src/worker/sim_worker.rs): a storm stops there with no result, and
/// every preset but the storm finishes before, as `run` would.
#[test]
fn a_steered_run_stops_where_its_observer_says() {
    let give_up = |p: engine::budget::RunProgress| {
        if p.events >= 4096 {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    for preset in presets::all() {
        let s = preset.scenario();
        let steered = engine::run::run_steered(&s, &mut give_up.clone());
        if preset.id == "connect/rebalance-storm" {
            assert_eq!(steered, None, "the storm reaches a progress report");
        } else {
            assert_eq!(steered.as_ref(), Some(&run(&s)), "{}", preset.id);
        }
    }
    let storm = presets::resolve("connect/rebalance-storm")
        .expect("the storm preset")
        .scenario();
    let mut reports = 0;
    let stopped = engine::run::run_steered(&storm, &mut |_| {
        reports += 1;
        if reports < 3 {
            std::ops::ControlFlow::Continue(())
        } else {
            std::ops::ControlFlow::Break(())
        }
    });
    assert_eq!(stopped, None);
    assert_eq!(reports, 3, "no report after the one that stopped it");
    let kept = engine::run::run_steered(&storm, &mut |_| std::ops::ControlFlow::Continue(()));
    assert_eq!(kept, Some(run(&storm)), "never stopped: run's result");
}

/// `instances` × `threads` StreamThreads on the streams protocol, two
/// stateful tasks per thread, `events`, to `end_ms`.
fn streams_group(instances: u32, threads: u32, events: &str, end_ms: u64) -> Scenario {
    scenario(&format!(
        r#"{{"version": 1, "title": "long", "seed": 7, "end_ms": {end_ms},
            "streams": {{"instances": {instances}, "kafka_version": "4.3",
                         "config": {{"num.stream.threads": {threads}}},
                         "subtopologies": [{{"partitions": {}, "stateful": true, "changelog_records": 10000}}]}},
            "compare": [{{"label": "streams protocol", "config": {{"group.protocol": "streams"}}}}],
            "events": [{events}]}}"#,
        2 * instances * threads
    ))
}

#[test]
fn a_long_stable_streams_protocol_run_is_not_a_storm() {
    // 160 members heartbeat every 5 s: 3 events a heartbeat, 2,000,000
    // events in under 6 hours, all of them after the group settled.
    let s = streams_group(
        10,
        8,
        r#"{"at_ms": 60000, "type": "instance_join", "count": 10}"#,
        8 * 3_600_000,
    );
    let v = &run(&s).variants[0];
    assert_eq!(v.trace.cut, None, "{:?}", v.trace.cut.map(|c| c.verdict()));
    assert_eq!(v.trace.end_ms, 8 * 3_600_000);
    let settled = v.metrics.settled_ms.expect("settles after the join");
    assert!(settled < 5 * 60_000, "settled at {settled}");
}

#[test]
fn a_stable_group_waiting_for_a_late_event_spends_no_storm_budget() {
    // 40 members heartbeat for 3 hours before the crash: about 260,000
    // steady events, none of them protocol work; the crash is still played.
    let s = streams_group(
        10,
        4,
        r#"{"at_ms": 10800000, "type": "instance_crash", "instance": "instance-4"}"#,
        10_800_000 + 600_000,
    );
    let mut work = 0;
    let result = engine::run::run_observed(&s, &mut |p| work = work.max(p.events));
    let v = &result.variants[0];
    assert_eq!(v.trace.cut, None);
    assert!(work < 50_000, "{work} events counted as protocol work");
    let fenced = v
        .trace
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::SessionTimeout && s.at_ms > 10_800_000)
        .count();
    assert_eq!(fenced, 4, "the crashed instance's 4 members are fenced");
}
