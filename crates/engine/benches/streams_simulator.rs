//! The Kafka Streams simulator end to end: a one-hour scale-out with warmups
//! and probing rebalances (100 instances × 4 threads, 10,000 tasks, one
//! standby, 10 instances join), simulated, traced and measured as `run`
//! does it: the named workload `rebalance bench` runs. (The single
//! HighAvailabilityTaskAssignor round is in `benches/streams_assignor.rs`.)

use criterion::{criterion_group, criterion_main, Criterion};
use engine::workloads;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("streams_simulator");
    group.sample_size(10);
    let name = "streams-scaleout-1h";
    let mut workload = workloads::prepare(name).expect("a named workload");
    group.bench_function(name, |b| b.iter(&mut workload));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
