//! `rebalance bench`: the named workloads, natively, after a warm-up
//! ([`engine::workloads::measure`], the loop the WebAssembly side runs too).

use std::process::ExitCode;
use std::time::Instant;

/// Prints the scenario JSON of a scenario-sized workload (the browser tests
/// simulate it in WebAssembly and compare fingerprints with `rebalance run`).
pub fn print_scenario(name: &str) -> ExitCode {
    match engine::workloads::scenario(name) {
        Some(scenario) => {
            println!("{}", scenario.to_json());
            ExitCode::SUCCESS
        }
        None => {
            let names: Vec<&str> = engine::workloads::WORKLOADS
                .iter()
                .map(|(name, _)| *name)
                .filter(|name| engine::workloads::scenario(name).is_some())
                .collect();
            eprintln!(
                "`{name}` is not a scenario-sized workload; these are: {}",
                names.join(", ")
            );
            ExitCode::FAILURE
        }
    }
}

/// Times the simulator's workloads, then (without `--json`) the built-in
/// sweeps. `--json` lists the simulator's workloads only: `cargo xtask
/// bench` runs each of those in WebAssembly too, and the simulator's
/// module holds no sweep code yet.
pub fn run(json: bool, filter: Option<&str>, runs: usize) -> ExitCode {
    let origin = Instant::now();
    let mut clock = || origin.elapsed().as_secs_f64() * 1000.0;
    let mut lines = Vec::new();
    let sweeps = engine::workloads::sweep_workloads();
    let names = engine::workloads::WORKLOADS
        .iter()
        .map(|(name, _)| (name.to_string(), false))
        .chain(
            sweeps
                .iter()
                .filter(|_| !json)
                .map(|(name, _)| (name.clone(), true)),
        );
    for (name, sweep) in names {
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let prepared = if sweep {
            engine::workloads::prepare_sweep(&name)
        } else {
            engine::workloads::prepare(&name)
        };
        let Some(mut work) = prepared else {
            continue;
        };
        let line = engine::workloads::measure(&name, &mut work, runs, &mut clock);
        if !json {
            println!(
                "{}  median {:.2} ms  min {:.2} ms  max {:.2} ms  runs {}",
                line.name, line.median_ms, line.min_ms, line.max_ms, line.runs
            );
        }
        lines.push(line);
    }
    if json {
        match serde_json::to_string_pretty(&lines) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
