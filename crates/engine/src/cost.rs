//! What a scenario will cost to simulate, estimated before running it, so
//! the page can run small scenarios at once and ask before a huge one.
//!
//! The estimate is a formula over the scenario's size, not a trial run: it
//! is pure, instant and the same everywhere. The time per unit is
//! calibrated per family against native and in-page measurements
//! (`docs/performance.md`, "Cost estimate"):
//!
//! * Connect: (workers + tasks) × (forming the group + membership changes)
//!   per variant: forming the group weighs as much as [`FORMATION_WEIGHT`]
//!   changes, and every scripted change (a join, a crash, each worker a
//!   rolling restart restarts) costs a rebalance or two that walk every
//!   member and task; a variant never costs more than its budget
//!   (`crate::budget`) lets it.
//! * Streams: stream threads × tasks per rebalance round
//!   (`HighAvailabilityTaskAssignor` weighs every task against every
//!   client), × rounds: two per change, plus, with state, two per
//!   `probing.rebalance.interval.ms` of the run (probing rebalances go on
//!   while warmups catch up; without `end_ms` a run may last a day).

use crate::budget::MAX_ROUNDS;
use crate::scenario::{limits, Event, StreamsEvent};
use crate::scenario::{Family, Scenario};

/// How a scenario's estimated cost compares with an interactive edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostClass {
    /// Under [`INTERACTIVE_MS`] in the page: run on every edit.
    Interactive,
    /// Up to [`ASK_ABOVE_MS`]: run at once, with progress and Cancel.
    Slow,
    /// Above [`ASK_ABOVE_MS`]: ask before running.
    VeryLarge,
}

/// Page time (WebAssembly in a Web Worker) under which a run is interactive.
pub const INTERACTIVE_MS: f64 = 1_000.0;

/// Page time above which the page asks before it simulates.
pub const ASK_ABOVE_MS: f64 = 5_000.0;

/// Forming a Connect group (first assignment, every task started) costs as
/// much as this many later membership changes (measured: 1,000 workers ×
/// 100,000 tasks with one join take a third of the time the same cluster
/// takes with 102 changes).
const FORMATION_WEIGHT: u64 = 40;

/// Native time per work unit of a Connect variant, ns (calibrated on the
/// engine's workloads and the 2,000 × 200,000 worst case).
const CONNECT_NS_PER_UNIT: f64 = 25.0;

/// Native time per work unit of a Streams variant (a thread × a task in
/// one round), ns.
const STREAMS_NS_PER_UNIT: f64 = 16.0;

/// WebAssembly in the page over native (measured 0.7–1.4×; the slower end).
const PAGE_OVER_NATIVE: f64 = 1.4;

/// The most one Connect variant costs natively before its budget cuts it,
/// ms (measured: 2,000 workers × 200,000 tasks, cut by the event budget).
/// A Streams variant's rounds are capped at the round budget instead.
const MAX_CONNECT_VARIANT_MS: f64 = 17_000.0;

/// Memory of one variant per work unit, bytes, and at most (its trace budget).
const BYTES_PER_UNIT: f64 = 2.6;
const MAX_VARIANT_MB: f64 = 90.0;

/// The simulator's own memory before any run, MB.
const BASE_MB: f64 = 20.0;

/// A scenario's estimated cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostEstimate {
    /// Wall time in the page's Web Worker, ms.
    pub page_ms: f64,
    /// Wall time natively (`rebalance run`), ms.
    pub native_ms: f64,
    /// Peak memory, MB.
    pub megabytes: f64,
    /// How it compares with an interactive edit.
    pub class: CostClass,
}

impl CostEstimate {
    /// The question the page asks before a [`CostClass::VeryLarge`] run,
    /// e.g. "This scenario will take about 40 s and 380 MB to simulate."
    pub fn question(&self) -> String {
        format!(
            "This scenario will take about {} and {} MB to simulate.",
            seconds(self.page_ms),
            round_to_ten(self.megabytes)
        )
    }
}

/// `42_300.0` → "40 s", `1_500.0` → "2 s", `90_000.0` → "1 min 30 s".
fn seconds(ms: f64) -> String {
    let s = (ms / 1_000.0).round().max(1.0) as u64;
    let s = if s >= 20 { s.div_ceil(10) * 10 } else { s };
    if s < 60 {
        format!("{s} s")
    } else if s.is_multiple_of(60) {
        format!("{} min", s / 60)
    } else {
        format!("{} min {} s", s / 60, s % 60)
    }
}

fn round_to_ten(mb: f64) -> u64 {
    ((mb / 10.0).ceil() as u64).max(1) * 10
}

/// Estimates what simulating `scenario` (every compared variant) costs.
pub fn estimate(scenario: &Scenario) -> CostEstimate {
    let (units, variants, ns_per_unit) = match &scenario.family {
        Family::Connect(c) => {
            let workers = u64::from(c.cluster.workers);
            let tasks: u64 = c
                .initial_connectors()
                .iter()
                .map(|(_, t)| u64::from(*t))
                .sum();
            let changes: u64 = c
                .events
                .iter()
                .map(|e| match &e.event {
                    Event::RollingRestart { limit, .. } => {
                        limit.map_or(workers, |l| u64::from(l).min(workers))
                    }
                    _ => 1,
                })
                .sum();
            (
                (workers + tasks) * (FORMATION_WEIGHT + changes),
                c.compare.len(),
                CONNECT_NS_PER_UNIT,
            )
        }
        Family::Streams(s) => {
            let config = &s.app.config;
            let threads = u64::from(config.num_stream_threads.unwrap_or(1).max(1));
            let instances = u64::from(s.app.instances);
            let subtopologies = s.app.expanded_subtopologies();
            let tasks: u64 = subtopologies.iter().map(|t| u64::from(t.partitions)).sum();
            // Instances that join add threads; a join of many is one rebalance.
            let joining: u64 = s
                .events
                .iter()
                .map(|e| match &e.event {
                    StreamsEvent::InstanceJoin { count, .. } => u64::from(*count),
                    _ => 0,
                })
                .sum();
            let changes: u64 = s
                .events
                .iter()
                .map(|e| match &e.event {
                    StreamsEvent::RollingRestart { limit, .. } => {
                        limit.map_or(instances, |l| u64::from(l).min(instances))
                    }
                    _ => 1,
                })
                .sum();
            let stateful = subtopologies.iter().any(|t| t.stateful)
                || config.num_standby_replicas.unwrap_or(0) > 0;
            let probing = if stateful {
                let horizon = scenario.end_ms.unwrap_or(limits::MAX_TIME_MS);
                let interval = config
                    .probing_rebalance_interval_ms
                    .unwrap_or(600_000)
                    .max(1);
                2 * horizon.div_ceil(interval)
            } else {
                0
            };
            let rounds = (2 * (1 + changes) + probing).min(MAX_ROUNDS as u64);
            (
                (instances + joining) * threads * tasks * rounds,
                s.compare.len(),
                STREAMS_NS_PER_UNIT,
            )
        }
    };
    let variants = variants.max(1) as f64;
    let units = units as f64;
    let cap = match scenario.family {
        Family::Connect(_) => MAX_CONNECT_VARIANT_MS,
        Family::Streams(_) => f64::INFINITY,
    };
    let native_ms = variants * (units * ns_per_unit / 1e6).min(cap);
    let page_ms = native_ms * PAGE_OVER_NATIVE;
    let megabytes = BASE_MB + variants * (units * BYTES_PER_UNIT / 1e6).min(MAX_VARIANT_MB);
    let class = if page_ms < INTERACTIVE_MS {
        CostClass::Interactive
    } else if page_ms <= ASK_ABOVE_MS {
        CostClass::Slow
    } else {
        CostClass::VeryLarge
    };
    CostEstimate {
        page_ms,
        native_ms,
        megabytes,
        class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn connect(workers: u32, tasks: u32, variants: &[&str], events: &str) -> Scenario {
        let compare: Vec<String> = variants
            .iter()
            .enumerate()
            .map(|(i, p)| format!(r#"{{"label":"{p} {i}","config":{{"connect.protocol":"{p}"}}}}"#))
            .collect();
        let json = format!(
            r#"{{"version":1,"title":"t","connect":{{"workers":{workers},
               "connectors":[{{"name":"c","tasks":{},"count":{}}}]}},
               "compare":[{}],"events":[{events}]}}"#,
            tasks / 100,
            100,
            compare.join(",")
        );
        Scenario::from_json(&json).expect("valid test scenario")
    }

    #[test]
    fn every_preset_is_interactive() {
        for preset in crate::presets::all() {
            let cost = estimate(&preset.scenario());
            assert_eq!(
                cost.class,
                CostClass::Interactive,
                "{}: {cost:?}",
                preset.id
            );
        }
    }

    #[test]
    fn the_size_limits_with_four_variants_ask_first() {
        let rolling =
            r#"{"at_ms":60000,"type":"rolling_restart","downtime_ms":10000,"interval_ms":20000}"#;
        let four = ["eager", "sessioned", "compatible", "sessioned"];
        let huge = estimate(&connect(2_000, 200_000, &four, rolling));
        assert_eq!(huge.class, CostClass::VeryLarge);
        // Measured natively: about a minute and under 400 MB.
        assert!((30_000.0..=80_000.0).contains(&huge.native_ms), "{huge:?}");
        assert!((200.0..=450.0).contains(&huge.megabytes), "{huge:?}");
        assert!(huge
            .question()
            .starts_with("This scenario will take about "));
        // The same cluster without events forms once: slow, not asked about.
        let quiet = estimate(&connect(2_000, 200_000, &four[..2], ""));
        assert_ne!(quiet.class, CostClass::VeryLarge, "{quiet:?}");
    }

    #[test]
    fn stateful_streams_without_an_end_ask_first() {
        // Measured natively: 115 s for these two variants (200 instances ×
        // 4 threads × 20,000 tasks, probing rebalances for a day).
        let json = r#"{"version":1,"title":"s","streams":{"instances":200,
            "subtopologies":[{"partitions":1000,"stateful":true,"changelog_records":100000,"count":10},
                             {"partitions":1000,"count":10}],
            "config":{"num.stream.threads":4}},
            "compare":[{"label":"a"},{"label":"b"}],
            "events":[{"at_ms":60000,"type":"instance_join"}]}"#;
        let stateful = Scenario::from_json(json).expect("valid");
        let cost = estimate(&stateful);
        assert_eq!(cost.class, CostClass::VeryLarge, "{cost:?}");
        assert!((50_000.0..=250_000.0).contains(&cost.native_ms), "{cost:?}");
        // Stateless, the same size settles in two rounds: run at once.
        let stateless = Scenario::from_json(
            &json.replace(r#""stateful":true,"changelog_records":100000,"#, ""),
        )
        .expect("valid");
        let light = estimate(&stateless);
        assert_ne!(light.class, CostClass::VeryLarge, "{light:?}");
        assert!(light.native_ms * 20.0 < cost.native_ms);
    }

    #[test]
    fn the_engine_workloads_run_at_once() {
        // Measured natively 0.1–0.6 s each (docs/performance.md).
        for name in [
            "connect-scenario-1000w-100000t",
            "connect-rolling-restart-100w-10000t",
            "streams-scaleout-1h",
        ] {
            let scenario = crate::workloads::scenario(name).expect("a scenario workload");
            let cost = estimate(&scenario);
            assert_ne!(cost.class, CostClass::VeryLarge, "{name}: {cost:?}");
            assert!(cost.native_ms < 3_000.0, "{name}: {cost:?}");
        }
    }

    #[test]
    fn more_work_never_costs_less() {
        let join = r#"{"at_ms":1000,"type":"worker_join"}"#;
        let small = estimate(&connect(10, 1_000, &["eager"], join));
        let wider = estimate(&connect(100, 1_000, &["eager"], join));
        let more_tasks = estimate(&connect(10, 10_000, &["eager"], join));
        let two = estimate(&connect(10, 1_000, &["eager", "sessioned"], join));
        for bigger in [wider, more_tasks, two] {
            assert!(
                bigger.native_ms > small.native_ms,
                "{bigger:?} vs {small:?}"
            );
            assert!(bigger.megabytes > small.megabytes);
        }
    }

    #[test]
    fn times_read_as_a_person_says_them() {
        assert_eq!(seconds(400.0), "1 s");
        assert_eq!(seconds(7_400.0), "7 s");
        assert_eq!(seconds(42_300.0), "50 s");
        assert_eq!(seconds(90_000.0), "1 min 30 s");
        assert_eq!(seconds(120_000.0), "2 min");
        assert_eq!(round_to_ten(363.0), 370);
    }
}
