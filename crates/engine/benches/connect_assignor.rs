//! One incremental cooperative round at the scale the playground must handle:
//! 1,000 workers × 100,000 tasks (100 connectors × 1,000 tasks).
//! Kafka's Java assignor takes about 360 ms for the join round; the target
//! here is well under 20 ms.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use engine::connect::assignment::{apply_delta, ConfiguredWork, MemberHoldings, RoundInput};
use engine::connect::ids::ConnectorNames;
use engine::connect::incremental_cooperative_assignor::IncrementalCooperativeAssignor;

const CONNECTORS: usize = 100;
const TASKS_PER_CONNECTOR: u32 = 1_000;
const WORKERS: usize = 1_000;
const MAX_DELAY_MS: i32 = 300_000;
const NOW_MS: i64 = 1_000_000_000;

fn configured() -> ConfiguredWork {
    let names: Vec<String> = (0..CONNECTORS)
        .map(|i| format!("connector-{i:03}"))
        .collect();
    let interned = ConnectorNames::new(names.iter().cloned());
    ConfiguredWork::new(
        names
            .iter()
            .filter_map(|n| interned.id(n))
            .map(|id| (id, TASKS_PER_CONNECTOR))
            .collect(),
    )
}

fn worker(i: usize) -> MemberHoldings {
    MemberHoldings::empty(format!(
        "connect-10.0.{}.{}:8083-{:08x}",
        i / 256,
        i % 256,
        i * 2_654_435_761 % (1 << 32)
    ))
}

/// Runs one round and applies every delta, as the members would.
fn round(
    assignor: &mut IncrementalCooperativeAssignor,
    configured: &ConfiguredWork,
    members: &mut [MemberHoldings],
    generation: i32,
) {
    let output = assignor.perform_assignment(&RoundInput {
        configured,
        members,
        generation,
        last_completed_generation: generation - 1,
        now_ms: NOW_MS,
    });
    for (member, delta) in members.iter_mut().zip(&output.deltas) {
        apply_delta(member, delta);
    }
}

fn bench(c: &mut Criterion) {
    let configured = configured();

    // 999 workers balanced, the round after that done: nothing pending.
    let mut assignor = IncrementalCooperativeAssignor::new(MAX_DELAY_MS, 1000);
    let mut members: Vec<MemberHoldings> = (0..WORKERS - 1).map(worker).collect();
    round(&mut assignor, &configured, &mut members, 1001);
    round(&mut assignor, &configured, &mut members, 1002);
    members.push(worker(WORKERS - 1));

    c.bench_function(
        "cooperative round: 1000 workers x 100k tasks, one worker joins",
        |b| {
            b.iter_batched(
                || assignor.clone(),
                |mut assignor| {
                    assignor.perform_assignment(&RoundInput {
                        configured: &configured,
                        members: &members,
                        generation: 1003,
                        last_completed_generation: 1002,
                        now_ms: NOW_MS,
                    })
                },
                BatchSize::LargeInput,
            )
        },
    );

    let empty: Vec<MemberHoldings> = (0..WORKERS).map(worker).collect();
    c.bench_function("first round: 1000 empty workers x 100k tasks", |b| {
        b.iter_batched(
            || IncrementalCooperativeAssignor::new(MAX_DELAY_MS, 1000),
            |mut assignor| {
                assignor.perform_assignment(&RoundInput {
                    configured: &configured,
                    members: &empty,
                    generation: 1001,
                    last_completed_generation: 1000,
                    now_ms: NOW_MS,
                })
            },
            BatchSize::LargeInput,
        )
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
