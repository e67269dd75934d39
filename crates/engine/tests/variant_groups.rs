//! A scenario's variants split into groups (`engine::run::VariantGroup`),
//! as the page's simulator splits a big scenario between two Web Workers:
//! each group settles its variants, every group takes the same end from all
//! of them, and the groups' runs in order are `run`'s result, field for
//! field, whatever the split, and however often a run is stopped and
//! resumed.

use std::ops::ControlFlow;

use engine::presets;
use engine::run::{run, RunResult, Settled, VariantGroup};
use engine::scenario::Scenario;

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).expect("a valid scenario")
}

fn go(_: engine::budget::RunProgress) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// The scenario run as two groups split before variant `at`, the way two
/// threads would: both settle, both take the end of all their `Settled`.
fn run_split(scenario: &Scenario, at: usize) -> RunResult {
    let mut head = VariantGroup::new(scenario, 0..at);
    let mut tail = VariantGroup::new(scenario, at..usize::MAX);
    let mut settled: Vec<Settled> = head.settle(&mut go).expect("not stopped");
    settled.extend(tail.settle(&mut go).expect("not stopped"));
    let end = head.end(&settled);
    assert_eq!(end, tail.end(&settled), "both groups take the same end");
    let mut variants = head.finish(end, &mut go).expect("not stopped");
    variants.extend(tail.finish(end, &mut go).expect("not stopped"));
    RunResult { variants }
}

fn variant_count(scenario: &Scenario) -> usize {
    scenario.variant_labels().len()
}

fn assert_every_split_is_the_run(id: &str, scenario: &Scenario) {
    let whole = run(scenario);
    let n = variant_count(scenario);
    assert!(n >= 2, "{id}: compares {n} variants");
    for at in 1..n {
        let split = run_split(scenario, at);
        assert_eq!(
            split.variants.len(),
            whole.variants.len(),
            "{id} split at {at}"
        );
        for (a, b) in split.variants.iter().zip(&whole.variants) {
            assert_eq!(
                a.fingerprint, b.fingerprint,
                "{id} split at {at}: {}",
                b.label
            );
            assert!(
                a == b,
                "{id} split at {at}: {} differs beyond its fingerprint",
                b.label
            );
        }
    }
}

#[test]
fn every_preset_split_anywhere_is_its_run() {
    for preset in presets::all() {
        assert_every_split_is_the_run(preset.id, &preset.scenario());
    }
}

#[test]
fn a_storm_split_from_its_sane_column_shares_the_axis_up_to_the_cut() {
    let s = scenario(
        r#"{"version": 1, "title": "storm and sane",
            "connect": {"workers": 3, "connectors": [{"name": "c", "tasks": 6}]},
            "compare": [{"label": "storm", "config": {"rebalance.timeout.ms": 10}},
                        {"label": "sane"}],
            "events": [{"at_ms": 30000, "type": "worker_join"}]}"#,
    );
    let mut storm = VariantGroup::new(&s, 0..1);
    let settled = storm.settle(&mut go).expect("not stopped");
    assert!(matches!(settled[..], [Settled::Cut(_)]), "{settled:?}");
    assert_every_split_is_the_run("storm and sane", &s);
}

#[test]
fn a_scenario_with_an_end_settles_nothing_and_ends_there() {
    let s = scenario(
        r#"{"version": 1, "title": "ends",
            "connect": {"workers": 3, "connectors": [{"name": "c", "tasks": 6}]},
            "events": [{"at_ms": 30000, "type": "worker_join"}],
            "end_ms": 45000}"#,
    );
    let mut group = VariantGroup::new(&s, 1..2);
    assert_eq!(group.settle(&mut go), Some(Vec::new()));
    assert_eq!(group.end(&[Settled::Quiet(900_000)]), 45_000);
    assert_every_split_is_the_run("ends", &s);
}

#[test]
fn the_end_is_the_slowest_quiet_plus_the_margin_or_the_latest_cut() {
    let s = scenario(
        r#"{"version": 1, "title": "end",
            "connect": {"workers": 3, "connectors": [{"name": "c", "tasks": 6}]},
            "events": [{"at_ms": 30000, "type": "worker_join"}]}"#,
    );
    let group = VariantGroup::new(&s, 0..1);
    // `run`'s settle margin: 30 s of quiet after the slowest variant.
    let margin = 30_000;
    // Not before the last scripted event.
    assert_eq!(group.end(&[Settled::Quiet(1_000)]), 30_000 + margin);
    assert_eq!(
        group.end(&[Settled::Quiet(50_000), Settled::Quiet(70_000)]),
        70_000 + margin
    );
    // A cut later than every quiet variant's settle point is the end.
    assert_eq!(
        group.end(&[Settled::Quiet(50_000), Settled::Cut(500_000)]),
        500_000
    );
    assert_eq!(
        group.end(&[Settled::Quiet(50_000), Settled::Cut(60_000)]),
        50_000 + margin
    );
}

#[test]
fn a_range_past_the_variants_is_an_empty_group() {
    let s = presets::all()[0].scenario();
    let n = variant_count(&s);
    assert!(VariantGroup::new(&s, n..usize::MAX).is_empty());
    assert_eq!(VariantGroup::new(&s, 1..1).len(), 0);
    #[allow(clippy::reversed_empty_ranges)] // what a careless caller could pass
    let reversed = 2..1;
    assert!(VariantGroup::new(&s, reversed).is_empty());
}

/// The scenario run in one group, formed lazily, stopped at every
/// `every`-th report of its observer and resumed, as the page's worker runs
/// a big scenario in slices: `run`'s result. Returns how many times it was
/// stopped.
fn run_in_slices(scenario: &Scenario, every: u32) -> (RunResult, u32) {
    let mut group = VariantGroup::forming(scenario, 0..usize::MAX);
    let (mut reports, mut stops) = (0u32, 0u32);
    let mut slice = |_: engine::budget::RunProgress| {
        reports += 1;
        if reports.is_multiple_of(every) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    while group.form(&mut slice).is_none() {
        stops += 1;
    }
    let settled = loop {
        match group.settle(&mut slice) {
            Some(settled) => break settled,
            None => stops += 1,
        }
    };
    let end = group.end(&settled);
    while group.run_to(end, &mut slice).is_none() {
        stops += 1;
    }
    (
        RunResult {
            variants: group.close(end),
        },
        stops,
    )
}

#[test]
fn a_run_stopped_and_resumed_in_slices_is_the_run() {
    // A storm (many events: the observer hears from it every 4,096), a
    // cluster big enough to report, and a Streams scenario with three columns.
    let big = scenario(
        r#"{"version": 1, "title": "big",
            "connect": {"workers": 60, "connectors": [{"name": "c", "tasks": 100, "count": 30}]},
            "events": [{"at_ms": 30000, "type": "worker_join"},
                       {"at_ms": 60000, "type": "worker_crash", "worker": "worker-3"}]}"#,
    );
    let storm = presets::resolve("connect/rebalance-storm")
        .expect("the storm preset")
        .scenario();
    for (name, s) in [("big", &big), ("storm", &storm)] {
        let whole = run(s);
        for every in [1, 2, 5] {
            let (sliced, stops) = run_in_slices(s, every);
            assert!(stops > 0, "{name}: never stopped with every = {every}");
            assert_eq!(sliced.variants.len(), whole.variants.len());
            for (a, b) in sliced.variants.iter().zip(&whole.variants) {
                assert!(a == b, "{name}, stopped every {every}: {} differs", b.label);
            }
        }
    }
    // Every preset, stopped after each variant is built and wherever else
    // its run reports.
    for preset in presets::all() {
        let s = preset.scenario();
        let (sliced, stops) = run_in_slices(&s, 1);
        assert!(sliced == run(&s), "{}", preset.id);
        assert!(
            stops >= variant_count(&s) as u32,
            "{}: {stops} stops",
            preset.id
        );
    }
    // A group that forms lazily settles as one formed at once.
    let mut lazy = VariantGroup::forming(&big, 0..usize::MAX);
    let mut eager = VariantGroup::new(&big, 0..usize::MAX);
    assert_eq!(lazy.settle(&mut go), eager.settle(&mut go));
}
