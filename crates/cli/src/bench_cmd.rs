//! `rebalance bench`: the named workloads, natively, after a warm-up.

use std::process::ExitCode;
use std::time::Instant;

use serde::Serialize;

/// One workload's timings.
#[derive(Serialize)]
struct BenchLine {
    name: String,
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
    runs: usize,
}

pub fn run(json: bool, filter: Option<&str>, runs: usize) -> ExitCode {
    let mut lines = Vec::new();
    for (name, _) in engine::workloads::WORKLOADS {
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let Some(mut work) = engine::workloads::prepare(name) else {
            continue;
        };
        let mut sink = work(); // warm-up
        let mut times: Vec<f64> = Vec::with_capacity(runs);
        for _ in 0..runs.max(1) {
            let t = Instant::now();
            sink = sink.wrapping_add(work());
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        std::hint::black_box(sink);
        times.sort_by(f64::total_cmp);
        let line = BenchLine {
            name: name.to_string(),
            median_ms: times[times.len() / 2],
            min_ms: times[0],
            max_ms: times[times.len() - 1],
            runs: times.len(),
        };
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
