//! Named benchmark workloads, shared by `rebalance bench` (native) and the
//! page's JS API (WebAssembly), so both measure exactly the same work.
//!
//! Each workload is prepared once (inputs built, untimed) and then run
//! repeatedly by [`measure`]; a run returns a checksum so the work cannot be
//! optimised away.

use crate::connect::assignment::{apply_delta, ConfiguredWork, MemberHoldings, RoundInput};
use crate::connect::ids::ConnectorNames;
use crate::connect::incremental_cooperative_assignor::IncrementalCooperativeAssignor;
use crate::scenario::Scenario;
use crate::streams::{
    AssignmentConfigs, ClientState, HighAvailabilityTaskAssignor, ProcessId, StreamsTaskId,
    TaskAssignor, LATEST_OFFSET,
};

/// A workload ready to run: call it once per timed run.
pub type PreparedWorkload = Box<dyn FnMut() -> u64>;

/// Every workload: (name, what it measures).
pub const WORKLOADS: &[(&str, &str)] = &[
    (
        "connect-cooperative-round-1000w-100000t",
        "one IncrementalCooperativeAssignor round: 999 balanced workers, one new worker joins (100 connectors x 1,000 tasks)",
    ),
    (
        "connect-first-round-1000w-100000t",
        "one IncrementalCooperativeAssignor round from nothing: 1,000 empty workers, 100,000 tasks",
    ),
    (
        "connect-scenario-1000w-100000t",
        "the whole scenario, eager and cooperative: 1,000 workers x 100,000 tasks, one worker joins, one crashes, rolling restart of 10%",
    ),
    (
        "connect-rolling-restart-100w-10000t",
        "the whole scenario, eager and cooperative: rolling restart of 100 workers running 10,000 tasks",
    ),
    (
        "streams-ha-round-200i-20000t",
        "one HighAvailabilityTaskAssignor round: 200 Streams instances x 8 threads, 20,000 tasks (half stateful), one standby, one new instance without state joins",
    ),
    (
        "streams-scaleout-1h",
        "a whole Streams scenario over one hour: 100 instances x 4 threads, 10,000 tasks (half stateful, one standby), 10 instances join; warmups and probing rebalances until the end",
    ),
];

/// The built-in sweeps as workloads, `sweep-<name>`: every point of
/// `sweeps/<name>` one after the other, as one Web Worker would run them.
/// Kept apart from [`WORKLOADS`] (and [`prepare`]) so the simulator's
/// WebAssembly module, which runs those, holds no sweep code until the
/// page runs sweeps; `rebalance bench` times both lists.
pub fn sweep_workloads() -> Vec<(String, String)> {
    crate::sweep::presets::all()
        .iter()
        .map(|p| {
            let name = p.id.strip_prefix("sweeps/").unwrap_or(p.id);
            (
                format!("sweep-{name}"),
                format!(
                    "the built-in sweep {}, every point one after the other",
                    p.id
                ),
            )
        })
        .collect()
}

/// Builds a sweep workload's inputs (the sweep file parsed, untimed);
/// `None` for an unknown name.
pub fn prepare_sweep(name: &str) -> Option<PreparedWorkload> {
    let rest = name.strip_prefix("sweep-")?;
    let preset = crate::sweep::presets::find(&format!("sweeps/{rest}"))?;
    Some(sweep_run(preset.file()))
}

/// Warm-up before timing: at least this many runs …
const WARMUP_MIN_RUNS: usize = 2;
/// … and at least this much work, …
const WARMUP_MIN_MS: f64 = 300.0;
/// … but never more than this many runs.
const WARMUP_MAX_RUNS: usize = 200;

/// A workload's timings, in milliseconds.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Measurement {
    /// The workload's name.
    pub name: String,
    /// Median of the timed runs.
    pub median_ms: f64,
    /// Fastest timed run.
    pub min_ms: f64,
    /// Slowest timed run.
    pub max_ms: f64,
    /// Timed runs.
    pub runs: usize,
    /// Untimed runs before them.
    pub warmup_runs: usize,
    /// The runs' checksums combined (so the work cannot be optimised away).
    pub checksum: String,
}

/// Times a prepared workload: a warm-up, then `runs` timed runs, reading
/// `clock` (milliseconds) around each. The same loop runs natively and in
/// WebAssembly so that both figures mean the same thing.
///
/// The warm-up is long enough for a WebAssembly engine to reach its
/// optimising compiler: V8 first runs code compiled by its baseline tier and
/// recompiles a function only once it is hot, so a single warm-up run would
/// time sub-millisecond workloads in the baseline tier (measured: 5–8 ms
/// instead of 1.3 ms for `connect-first-round-1000w-100000t` in Chromium).
pub fn measure(
    name: &str,
    work: &mut PreparedWorkload,
    runs: usize,
    clock: &mut dyn FnMut() -> f64,
) -> Measurement {
    let started = clock();
    let mut sink = 0u64;
    let mut warmup_runs = 0;
    while warmup_runs < WARMUP_MAX_RUNS
        && (warmup_runs < WARMUP_MIN_RUNS || clock() - started < WARMUP_MIN_MS)
    {
        sink = sink.wrapping_add(work());
        warmup_runs += 1;
    }
    let mut times: Vec<f64> = Vec::with_capacity(runs.max(1));
    for _ in 0..runs.max(1) {
        let t = clock();
        sink = sink.wrapping_add(work());
        times.push(clock() - t);
    }
    // `f64::total_cmp`'s order as a `u64` key (sign bit flipped for
    // positives, every bit for negatives): the engine's shared sort instead
    // of a copy of the standard sort for `f64`s. Equal keys are equal bits.
    crate::sort_by_key::sort_by_u64_key(&mut times, |t| {
        let bits = t.to_bits();
        if bits >> 63 == 1 {
            !bits
        } else {
            bits | (1 << 63)
        }
    });
    Measurement {
        name: name.to_string(),
        median_ms: times[times.len() / 2],
        min_ms: times[0],
        max_ms: times[times.len() - 1],
        runs: times.len(),
        warmup_runs,
        checksum: format!("{sink:016x}"),
    }
}

/// Builds a workload's inputs; `None` for an unknown name.
pub fn prepare(name: &str) -> Option<PreparedWorkload> {
    match name {
        "connect-cooperative-round-1000w-100000t" => Some(cooperative_join_round()),
        "connect-first-round-1000w-100000t" => Some(first_round()),
        "connect-scenario-1000w-100000t"
        | "connect-rolling-restart-100w-10000t"
        | "streams-scaleout-1h" => scenario(name).map(scenario_run),
        "streams-ha-round-200i-20000t" => Some(streams_ha_round()),
        _ => None,
    }
}

/// A built-in sweep, parsed untimed; a run builds and runs every point
/// (`sweep::run_sweep`, one after the other: the cost one Web Worker pays
/// for the whole sweep).
fn sweep_run(file: crate::sweep::SweepFile) -> PreparedWorkload {
    Box::new(move || {
        crate::sweep::run_sweep(&file.scenario, &file.sweep).map_or(0, |r| {
            r.points
                .iter()
                .flat_map(|p| &p.runs)
                .map(|run| u64::from_str_radix(&run.fingerprint, 16).unwrap_or(0))
                .fold(0, u64::wrapping_add)
        })
    })
}

const NOW_MS: i64 = 1_000_000_000;

fn configured_100k() -> ConfiguredWork {
    let names: Vec<String> = (0..100).map(|i| format!("connector-{i:03}")).collect();
    let interned = ConnectorNames::new(names.iter().cloned());
    ConfiguredWork::new(
        names
            .iter()
            .filter_map(|n| interned.id(n))
            .map(|id| (id, 1_000))
            .collect(),
    )
}

fn member(i: usize) -> MemberHoldings {
    MemberHoldings::empty(format!("connect-worker-{i:04}"))
}

fn checksum(output: &crate::connect::assignment::RoundOutput) -> u64 {
    output
        .deltas
        .iter()
        .map(|d| (d.assigned_tasks.len() + d.revoked_tasks.len()) as u64)
        .sum::<u64>()
        + output.delay_ms as u64
}

fn cooperative_join_round() -> PreparedWorkload {
    let configured = configured_100k();
    let mut assignor = IncrementalCooperativeAssignor::new(300_000, 1000);
    let mut members: Vec<MemberHoldings> = (0..999).map(member).collect();
    for generation in [1001, 1002] {
        let out = assignor.perform_assignment(&RoundInput {
            configured: &configured,
            members: &members,
            generation,
            last_completed_generation: generation - 1,
            now_ms: NOW_MS,
        });
        for (m, d) in members.iter_mut().zip(&out.deltas) {
            apply_delta(m, d);
        }
    }
    members.push(member(999));
    Box::new(move || {
        let mut a = assignor.clone();
        checksum(&a.perform_assignment(&RoundInput {
            configured: &configured,
            members: &members,
            generation: 1003,
            last_completed_generation: 1002,
            now_ms: NOW_MS,
        }))
    })
}

fn first_round() -> PreparedWorkload {
    let configured = configured_100k();
    let members: Vec<MemberHoldings> = (0..1000).map(member).collect();
    Box::new(move || {
        let mut a = IncrementalCooperativeAssignor::new(300_000, 1000);
        checksum(&a.perform_assignment(&RoundInput {
            configured: &configured,
            members: &members,
            generation: 1001,
            last_completed_generation: 1000,
            now_ms: NOW_MS,
        }))
    })
}

/// 1,000 workers, 100 connectors x 1,000 tasks; a join, a crash, and a
/// rolling restart of 100 workers (10%). Described by counts and rules.
pub fn large_scenario() -> Scenario {
    Scenario::from_json(
        r#"{"version":1,"title":"1,000 workers x 100,000 tasks",
            "connect":{"workers":1000,"connectors":[{"name":"sink","tasks":1000,"count":100}]},
            "events":[{"at_ms":60000,"type":"worker_join"},
                      {"at_ms":120000,"type":"worker_crash","worker":"worker-500"},
                      {"at_ms":180000,"type":"rolling_restart","downtime_ms":10000,"interval_ms":2000,"limit":100}],
            "end_ms":900000}"#,
    )
    .expect("the built-in large scenario is valid")
}

/// 100 workers running 100 connectors x 100 tasks, all restarted one by one.
pub fn rolling_restart_scenario() -> Scenario {
    Scenario::from_json(
        r#"{"version":1,"title":"Rolling restart, 100 workers x 10,000 tasks",
            "connect":{"workers":100,"connectors":[{"name":"sink","tasks":100,"count":100}]},
            "events":[{"at_ms":60000,"type":"rolling_restart","downtime_ms":10000,"interval_ms":15000}],
            "end_ms":2400000}"#,
    )
    .expect("the built-in rolling-restart scenario is valid")
}

/// A fixed but random-looking `ProcessId` (SplitMix64), as real Streams
/// clients have random UUIDs.
fn streams_process_id(i: u64) -> ProcessId {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let seed = (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ProcessId::new(mix(seed) as i64, mix(seed ^ 0x5555) as i64)
}

/// 200 clients × 8 threads in the steady layout of 20 subtopologies × 1,000
/// partitions (the first 10 stateful), one standby each, hot standbys a few
/// commits behind; one new client without state joins.
fn streams_ha_round() -> PreparedWorkload {
    let configs = AssignmentConfigs {
        num_standby_replicas: 1,
        ..AssignmentConfigs::default()
    };
    let all: std::collections::BTreeSet<StreamsTaskId> = (0..20)
        .flat_map(|s| (0..1_000).map(move |p| StreamsTaskId::new(s, p)))
        .collect();
    let stateful: std::collections::BTreeSet<StreamsTaskId> =
        all.iter().copied().filter(|t| t.subtopology < 10).collect();
    let assignor = HighAvailabilityTaskAssignor::new();
    let fresh: Vec<ClientState> = (0..200)
        .map(|i| ClientState::new(streams_process_id(i), 8))
        .collect();
    let mut clients: Vec<ClientState> = match assignor.assign(&fresh, &all, &stateful, &configs) {
        Ok(layout) => layout
            .clients
            .iter()
            .map(|c| {
                let lags = c
                    .active
                    .iter()
                    .filter(|t| stateful.contains(t))
                    .map(|&t| (t, LATEST_OFFSET))
                    .chain(c.standby.iter().map(|&t| (t, 120)));
                ClientState::new(c.process_id, 8)
                    .with_previous_active(c.active.iter().copied())
                    .with_previous_standby(c.standby.iter().copied())
                    .with_lags(lags)
            })
            .collect(),
        Err(_) => fresh,
    };
    clients.push(ClientState::new(streams_process_id(200), 8));
    Box::new(move || {
        assignor
            .assign(&clients, &all, &stateful, &configs)
            .map_or(0, |r| {
                r.clients
                    .iter()
                    .map(|c| (c.active.len() + c.standby.len() + c.warmup.len()) as u64)
                    .sum::<u64>()
                    + u64::from(r.probing_rebalance_needed)
            })
    })
}

/// 100 Streams instances × 4 threads running 10,000 tasks (10 stateful and
/// 10 stateless subtopologies × 500 partitions, one standby); 10 instances
/// join after a minute and HighAvailabilityTaskAssignor warms them up,
/// probing every 10 minutes, for an hour. Described by counts and rules.
pub fn streams_scaleout_scenario() -> Scenario {
    Scenario::from_json(
        r#"{"version":1,"title":"Streams scale-out over one hour, 100 instances x 10,000 tasks","seed":1,
            "streams":{"instances":100,"subtopologies":[
               {"partitions":500,"stateful":true,"changelog_records":200000,"changelog_records_per_sec":20,"count":10},
               {"partitions":500,"count":10}],
               "config":{"num.stream.threads":4,"num.standby.replicas":1}},
            "compare":[{"label":"cooperative + warmups"}],
            "events":[{"at_ms":60000,"type":"instance_join","count":10}],
            "end_ms":3600000}"#,
    )
    .expect("the built-in Streams scale-out scenario is valid")
}

/// The scenario a scenario-sized workload simulates; `None` for the others.
pub fn scenario(name: &str) -> Option<Scenario> {
    match name {
        "connect-scenario-1000w-100000t" => Some(large_scenario()),
        "connect-rolling-restart-100w-10000t" => Some(rolling_restart_scenario()),
        "streams-scaleout-1h" => Some(streams_scaleout_scenario()),
        _ => None,
    }
}

fn scenario_run(scenario: Scenario) -> PreparedWorkload {
    Box::new(move || {
        let result = crate::run::run(&scenario);
        result
            .variants
            .iter()
            .map(|v| v.trace.fingerprint())
            .fold(0, u64::wrapping_add)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_workload_prepares_and_unknown_names_do_not() {
        for (name, _) in WORKLOADS {
            assert!(prepare(name).is_some(), "{name}");
        }
        assert!(prepare("nope").is_none());
        let sweeps = sweep_workloads();
        assert_eq!(sweeps.len(), crate::sweep::presets::all().len());
        for (name, _) in &sweeps {
            assert!(prepare_sweep(name).is_some(), "{name}");
            assert!(
                prepare(name).is_none(),
                "{name} is not a simulator workload"
            );
        }
        assert!(prepare_sweep("sweep-nope").is_none());
        large_scenario().validate().unwrap();
        streams_scaleout_scenario().validate().unwrap();
        rolling_restart_scenario().validate().unwrap();
    }

    /// A work item that takes `ms_per_run` on a fake clock.
    fn fake(ms_per_run: f64) -> (PreparedWorkload, impl FnMut() -> f64) {
        let now = std::rc::Rc::new(std::cell::Cell::new(0.0));
        let in_work = now.clone();
        let work: PreparedWorkload = Box::new(move || {
            in_work.set(in_work.get() + ms_per_run);
            7
        });
        (work, move || now.get())
    }

    #[test]
    fn warm_up_lasts_long_enough_for_a_jit_but_not_forever() {
        // Sub-millisecond work: warm up until 300 ms, capped at 200 runs.
        let (mut work, mut clock) = fake(0.5);
        let m = measure("w", &mut work, 5, &mut clock);
        assert_eq!((m.warmup_runs, m.runs), (WARMUP_MAX_RUNS, 5));
        let (mut work, mut clock) = fake(2.0);
        let m = measure("w", &mut work, 5, &mut clock);
        assert_eq!(m.warmup_runs, 150, "300 ms of 2 ms runs");
        assert_eq!((m.median_ms, m.min_ms, m.max_ms), (2.0, 2.0, 2.0));
        // Slow work: the minimum of two runs.
        let (mut work, mut clock) = fake(700.0);
        let m = measure("w", &mut work, 1, &mut clock);
        assert_eq!((m.warmup_runs, m.runs), (WARMUP_MIN_RUNS, 1));
        assert_eq!(m.checksum, format!("{:016x}", 7 * 3));
    }
}
