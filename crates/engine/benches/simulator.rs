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
use engine::run::{run, RunResult};
use engine::scenario::{Family, Scenario};
use engine::workloads;

/// The scenario with only its `index`-th compared variant: `run` on it
/// simulates that variant alone to the scenario's end, closes the trace and
/// computes the metrics.
fn only_variant(s: &Scenario, index: usize) -> Scenario {
    let mut one = s.clone();
    if let Family::Connect(connect) = &mut one.family {
        connect.compare = vec![connect.compare[index].clone()];
    }
    one
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
    assert!(s.end_ms.is_some(), "the workload's scenario has an end");
    for (i, v) in connect.compare.iter().enumerate() {
        let one = only_variant(&s, i);
        group.bench_function(format!("{name}/{}", v.label), |b| {
            b.iter(|| -> RunResult { run(&one) })
        });
    }
    let mut workload = workloads::prepare(name).expect("a named workload");
    group.bench_function(format!("{name}/run"), |b| b.iter(&mut workload));
    group.finish();
}

criterion_group!(benches, simulator);
criterion_main!(benches);
