//! One incremental cooperative round at the scale the playground must handle:
//! 1,000 workers × 100,000 tasks (100 connectors × 1,000 tasks), as the named
//! workloads of `engine::workloads` (what `rebalance bench` and the page time).
//! Kafka's Java assignor takes about 360 ms for the join round; the target
//! here is well under 20 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::workloads;

/// (workload, its checksum: tasks assigned plus tasks revoked in the round).
const ROUNDS: &[(&str, u64)] = &[
    // 999 balanced workers and one new one: the round revokes the 100 tasks
    // the newcomer will get (100,000 / 1,000) and assigns nothing yet.
    ("connect-cooperative-round-1000w-100000t", 100),
    // From nothing: every task assigned once, nothing revoked.
    ("connect-first-round-1000w-100000t", 100_000),
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect_assignor");
    for &(name, checksum) in ROUNDS {
        let mut workload = workloads::prepare(name).expect("a named workload");
        assert_eq!(
            workload(),
            checksum,
            "{name}: not the round it claims to be"
        );
        group.bench_function(name, |b| b.iter(&mut workload));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
