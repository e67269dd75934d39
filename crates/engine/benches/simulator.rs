//! The whole simulator, end to end, at the sizes the page must re-simulate on
//! every edit: simulation, trace and metrics (what `run` returns), on the
//! scenarios of the named workloads in `engine::workloads`.
//!
//! * `connect-rolling-restart-100w-10000t`: 100 workers, 100 connectors ×
//!   100 tasks, every worker restarted one by one.
//! * `connect-scenario-1000w-100000t`: 1,000 workers, 100 connectors × 1,000
//!   tasks; one worker joins, one crashes, then 10% are restarted one by one.
//!   Measured per compared protocol, and for `run`, which simulates both.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::metrics::Metrics;
use engine::scenario::{ConnectScenario, Family, Scenario};
use engine::sim::connect::ConnectSimulation;
use engine::trace::Trace;
use engine::workloads;

/// One variant alone, as `run` does it for a scenario with an end: simulate
/// to the end, close the trace, compute the metrics.
fn one_variant(s: &Scenario, connect: &ConnectScenario, index: usize) -> (Trace, Metrics) {
    let end = s.end_ms.expect("the workload's scenario has an end");
    let mut sim = ConnectSimulation::new(s, connect, &connect.compare[index]);
    sim.run_until(end);
    let trace = sim.finish(end);
    let metrics = Metrics::from_trace(&trace);
    (trace, metrics)
}

fn simulator(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulator");
    group.sample_size(10);
    let name = "connect-rolling-restart-100w-10000t";
    let mut workload = workloads::prepare(name).expect("a named workload");
    group.bench_function(format!("{name}/run"), |b| b.iter(&mut workload));

    let name = "connect-scenario-1000w-100000t";
    let s = workloads::large_scenario();
    let Family::Connect(connect) = &s.family else {
        panic!("{name} is a Connect scenario")
    };
    for (i, v) in connect.compare.iter().enumerate() {
        group.bench_function(format!("{name}/{}", v.label), |b| {
            b.iter(|| one_variant(&s, connect, i))
        });
    }
    let mut workload = workloads::prepare(name).expect("a named workload");
    group.bench_function(format!("{name}/run"), |b| b.iter(&mut workload));
    group.finish();
}

criterion_group!(benches, simulator);
criterion_main!(benches);
