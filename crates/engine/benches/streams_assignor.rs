//! One `HighAvailabilityTaskAssignor` round at the scale the playground must
//! handle: 200 Streams clients × 8 threads, 20,000 tasks (20 subtopologies ×
//! 1,000 partitions, half of them stateful), `num.standby.replicas=1`, in a
//! steady state that one new client without state joins.
//!
//! Kafka's Java assignor takes about 13 s for this round; the target here is
//! well under 200 ms.

use std::collections::BTreeSet;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use engine::streams::{
    AssignmentConfigs, ClientState, HighAvailabilityTaskAssignor, ProcessId, StreamsTaskId,
    TaskAssignor, LATEST_OFFSET,
};

const CLIENTS: u64 = 200;
const THREADS: u32 = 8;
const SUBTOPOLOGIES: u32 = 20;
const STATEFUL_SUBTOPOLOGIES: u32 = 10;
const PARTITIONS: u32 = 1_000;
/// Lag of a hot standby in the steady state: a few commits behind.
const STANDBY_LAG: i64 = 120;

fn configs() -> AssignmentConfigs {
    AssignmentConfigs {
        num_standby_replicas: 1,
        ..AssignmentConfigs::default()
    }
}

/// A random-looking but fixed `ProcessId` (SplitMix64), as real Streams
/// clients have random UUIDs.
fn process_id(i: u64) -> ProcessId {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let seed = (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ProcessId::new(mix(seed) as i64, mix(seed ^ 0x5555) as i64)
}

struct Scenario {
    clients: Vec<ClientState>,
    all: BTreeSet<StreamsTaskId>,
    stateful: BTreeSet<StreamsTaskId>,
}

/// The steady state of 200 clients, plus one new client without state.
fn join_scenario() -> Scenario {
    let all: BTreeSet<StreamsTaskId> = (0..SUBTOPOLOGIES)
        .flat_map(|s| (0..PARTITIONS).map(move |p| StreamsTaskId::new(s, p)))
        .collect();
    let stateful: BTreeSet<StreamsTaskId> = all
        .iter()
        .copied()
        .filter(|t| t.subtopology < STATEFUL_SUBTOPOLOGIES)
        .collect();
    let assignor = HighAvailabilityTaskAssignor::new();

    // A fresh start: nobody has state, so nothing moves and the result is
    // the steady layout.
    let fresh: Vec<ClientState> = (0..CLIENTS)
        .map(|i| ClientState::new(process_id(i), THREADS))
        .collect();
    let layout = assignor
        .assign(&fresh, &all, &stateful, &configs())
        .unwrap();
    let mut clients: Vec<ClientState> = layout
        .clients
        .iter()
        .map(|c| {
            let lags = c
                .active
                .iter()
                .filter(|t| stateful.contains(t))
                .map(|&t| (t, LATEST_OFFSET))
                .chain(c.standby.iter().map(|&t| (t, STANDBY_LAG)));
            ClientState::new(c.process_id, THREADS)
                .with_previous_active(c.active.iter().copied())
                .with_previous_standby(c.standby.iter().copied())
                .with_lags(lags)
        })
        .collect();
    let steady = assignor
        .assign(&clients, &all, &stateful, &configs())
        .unwrap();
    assert!(
        !steady.probing_rebalance_needed,
        "the layout must be stable"
    );

    clients.push(ClientState::new(process_id(CLIENTS), THREADS));
    Scenario {
        clients,
        all,
        stateful,
    }
}

fn bench(c: &mut Criterion) {
    let scenario = join_scenario();
    let assignor = HighAvailabilityTaskAssignor::new();
    let configs = configs();
    let result = assignor
        .assign(
            &scenario.clients,
            &scenario.all,
            &scenario.stateful,
            &configs,
        )
        .unwrap();
    assert!(result.probing_rebalance_needed);

    let mut group = c.benchmark_group("streams_high_availability");
    group.sample_size(20);
    group.bench_function("join_201_clients_x8_20k_tasks_sb1", |b| {
        b.iter(|| {
            assignor
                .assign(
                    black_box(&scenario.clients),
                    &scenario.all,
                    &scenario.stateful,
                    &configs,
                )
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
