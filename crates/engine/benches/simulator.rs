//! The whole simulator, end to end, at the sizes the page must re-simulate on
//! every edit: simulation, trace and metrics (what `run` returns).
//!
//! * `rolling_restart_100x10k`: 100 workers, 100 connectors × 100 tasks,
//!   every worker restarted one by one (30 s apart, 10 s down).
//! * `large_1000x100k`: 1,000 workers, 100 connectors × 1,000 tasks; one
//!   worker joins, one crashes, then 10% are restarted one by one (30 s
//!   apart, 10 s down). Measured per compared protocol and for `run`, which
//!   simulates both.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::metrics::Metrics;
use engine::run::run;
use engine::scenario::Scenario;
use engine::sim::connect::{ConnectSimulation, SETTLE_MARGIN_MS};
use engine::trace::Trace;

fn rolling_restart() -> Scenario {
    Scenario::from_json(
        r#"{"version":1,"seed":1,"connect":{"workers":100,"connectors":[{"name":"sink","tasks":100,"count":100}]},
            "events":[{"at_ms":60000,"type":"rolling_restart","downtime_ms":10000,"interval_ms":30000}]}"#,
    )
    .expect("valid scenario")
}

fn large() -> Scenario {
    Scenario::from_json(
        r#"{"version":1,"seed":1,"connect":{"workers":1000,"connectors":[{"name":"sink","tasks":1000,"count":100}]},
            "events":[{"at_ms":60000,"type":"worker_join"},
                      {"at_ms":120000,"type":"worker_crash","worker":"worker-500"},
                      {"at_ms":180000,"type":"rolling_restart","downtime_ms":10000,"interval_ms":30000,"limit":100}]}"#,
    )
    .expect("valid scenario")
}

/// One variant alone, as `run` does it: simulate until quiet, close the
/// trace, compute the metrics.
fn one_variant(s: &Scenario, index: usize) -> (Trace, Metrics) {
    let mut sim = ConnectSimulation::new(s, &s.compare[index]);
    let quiet = sim.run_until_quiet(u64::MAX);
    let trace = sim.finish(quiet + SETTLE_MARGIN_MS);
    let metrics = Metrics::from_trace(&trace);
    (trace, metrics)
}

fn simulator(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulator");
    group.sample_size(10);
    let s = rolling_restart();
    group.bench_function("rolling_restart_100x10k/run", |b| b.iter(|| run(&s)));
    let s = large();
    for (i, v) in s.compare.iter().enumerate() {
        group.bench_function(format!("large_1000x100k/{}", v.label), |b| {
            b.iter(|| one_variant(&s, i))
        });
    }
    group.bench_function("large_1000x100k/run", |b| b.iter(|| run(&s)));
    group.finish();
}

criterion_group!(benches, simulator);
criterion_main!(benches);
