//! One `HighAvailabilityTaskAssignor` round at the scale the playground must
//! handle: 200 Streams clients × 8 threads, 20,000 tasks (20 subtopologies ×
//! 1,000 partitions, half of them stateful), `num.standby.replicas=1`, in a
//! steady state that one new client without state joins: the named workload
//! `streams-ha-round-200i-20000t` of `engine::workloads` (what
//! `rebalance bench` and the page time).
//!
//! Kafka's Java assignor takes about 13 s for this round; the target here is
//! well under 200 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::workloads;

const NAME: &str = "streams-ha-round-200i-20000t";

fn bench(c: &mut Criterion) {
    let mut workload = workloads::prepare(NAME).expect("a named workload");
    // The checksum counts actives + standbys + warmups, plus 1 if a probing
    // rebalance is needed: 20,000 actives, one standby for each of the
    // 10,000 stateful tasks, max.warmup.replicas (2) warmups for the new
    // client, and a probing rebalance. A failed round counts 0; a setup that
    // fell back to a fresh start (no state anywhere) counts 30,000.
    assert_eq!(
        workload(),
        20_000 + 10_000 + 2 + 1,
        "{NAME}: not a join into the steady layout"
    );

    let mut group = c.benchmark_group("streams_assignor");
    group.sample_size(20);
    group.bench_function(NAME, |b| b.iter(&mut workload));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
