//! The benchmark workloads in WebAssembly, for `cargo xtask bench` only:
//! built into the simulator's module with the `workloads` feature
//! (`trunk build --release --features workloads`), never into the site,
//! whose simulator they made 12.6 KB (gzip) larger (issue #13). The tests
//! that need a workload's scenario read it from `rebalance bench
//! --scenario <name>`.

use rebalance_web::browser::js_value;
use wasm_bindgen::prelude::*;

/// The names of the benchmark workloads (the same as `rebalance bench`).
#[wasm_bindgen(js_name = workloadNames)]
pub fn workload_names() -> Vec<String> {
    engine::workloads::WORKLOADS
        .iter()
        .map(|(name, _)| name.to_string())
        .collect()
}

/// Runs a named workload `runs` times after a warm-up, timed with
/// `performance.now()`, exactly as `rebalance bench` does natively
/// ([`engine::workloads::measure`]); returns `{name, median_ms, min_ms,
/// max_ms, runs, warmup_runs, checksum}`. Throws for an unknown name.
#[wasm_bindgen(js_name = runWorkload)]
pub fn run_workload(name: &str, runs: u32) -> Result<JsValue, JsValue> {
    let mut work = engine::workloads::prepare(name)
        .ok_or_else(|| JsValue::from_str(&format!("unknown workload `{name}`")))?;
    let measured = engine::workloads::measure(
        name,
        &mut work,
        runs as usize,
        &mut rebalance_web::browser::profile::now,
    );
    js_value::serialize(&measured)
}
