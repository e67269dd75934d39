//! A small JS API for docs tooling: `simulate`, `encodeLink`, `decodeLink`.
//! Integers stay exact: those beyond 2^53 travel as `BigInt` (see
//! [`crate::js_value`]).

use engine::link::{self, LinkTarget};
use engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::js_value;

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let json = serde_json::to_value(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    Ok(js_value::to_js(&json))
}

fn scenario_from_js(scenario: JsValue) -> Result<Scenario, JsValue> {
    let json = js_sys_json_stringify(&scenario)?;
    Scenario::from_json(&json).map_err(|e| JsValue::from_str(&e.to_string()))
}

fn js_sys_json_stringify(value: &JsValue) -> Result<String, JsValue> {
    if let Some(s) = value.as_string() {
        return Ok(s);
    }
    let json = js_value::from_js(value).map_err(|e| JsValue::from_str(&e))?;
    Ok(json.to_string())
}

/// Simulates a scenario (object or JSON string); returns
/// `{variants: [{label, trace, metrics, fingerprint}]}`, where `fingerprint`
/// is the trace's `Trace::fingerprint` as 16 hex digits, as
/// `rebalance run --json` prints it.
#[wasm_bindgen]
pub fn simulate(scenario: JsValue) -> Result<JsValue, JsValue> {
    let scenario = scenario_from_js(scenario)?;
    to_js(&engine::run::run(&scenario))
}

/// The link fragment (`s=…`, without `#`) of a scenario.
#[wasm_bindgen(js_name = encodeLink)]
pub fn encode_link(scenario: JsValue) -> Result<String, JsValue> {
    Ok(link::encode(&scenario_from_js(scenario)?))
}

/// The scenario a link or fragment carries (presets resolved); throws the page's message.
#[wasm_bindgen(js_name = decodeLink)]
pub fn decode_link(fragment: &str) -> Result<JsValue, JsValue> {
    match link::decode(fragment).map_err(|e| JsValue::from_str(&e.to_string()))? {
        LinkTarget::Scenario(s) => to_js(&*s),
        LinkTarget::Preset(id) => match engine::presets::find(&id) {
            Some(p) => to_js(&p.scenario()),
            None => Err(JsValue::from_str(&engine::presets::unknown_preset_message(
                &id,
            ))),
        },
        LinkTarget::Empty => Err(JsValue::from_str("This link holds no scenario.")),
    }
}

/// The names of the benchmark workloads (the same as `rebalance bench`).
#[wasm_bindgen(js_name = workloadNames)]
pub fn workload_names() -> Vec<String> {
    engine::workloads::WORKLOADS
        .iter()
        .map(|(name, _)| name.to_string())
        .collect()
}

/// Runs a named workload `runs` times after one warm-up run, timed with
/// `performance.now()`, exactly as `rebalance bench` does natively; returns
/// `{name, median_ms, min_ms, max_ms, runs}`. Throws for an unknown name.
#[wasm_bindgen(js_name = runWorkload)]
pub fn run_workload(name: &str, runs: u32) -> Result<JsValue, JsValue> {
    let mut work = engine::workloads::prepare(name)
        .ok_or_else(|| JsValue::from_str(&format!("unknown workload `{name}`")))?;
    let now = || web_sys::js_sys::Date::now();
    let performance = web_sys::window().and_then(|w| w.performance());
    let clock = || performance.as_ref().map_or_else(now, |p| p.now());
    let mut sink = work();
    let mut times: Vec<f64> = Vec::new();
    for _ in 0..runs.max(1) {
        let t = clock();
        sink = sink.wrapping_add(work());
        times.push(clock() - t);
    }
    times.sort_by(f64::total_cmp);
    to_js(&serde_json::json!({
        "name": name,
        "median_ms": times[times.len() / 2],
        "min_ms": times[0],
        "max_ms": times[times.len() - 1],
        "runs": times.len(),
        "checksum": format!("{sink:016x}"),
    }))
}

/// Bytes of WebAssembly linear memory in use by this module (it only grows).
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    wasm_bindgen::memory()
        .dyn_into::<web_sys::js_sys::WebAssembly::Memory>()
        .map(|m| {
            m.buffer()
                .dyn_into::<web_sys::js_sys::ArrayBuffer>()
                .map_or(0.0, |b| b.byte_length() as f64)
        })
        .unwrap_or(0.0)
}

/// The scenario JSON of a scenario-sized workload (for comparing its
/// fingerprints with `rebalance run`), or `undefined` for a round workload.
#[wasm_bindgen(js_name = workloadScenario)]
pub fn workload_scenario(name: &str) -> Option<String> {
    engine::workloads::scenario(name).map(|s| s.to_json())
}

/// Simulates a scenario and returns only `[{label, fingerprint}]`: cheap to
/// hand to JS even for 100,000 tasks, and comparable with
/// `rebalance run --fingerprints`.
#[wasm_bindgen(js_name = simulateFingerprints)]
pub fn simulate_fingerprints(scenario: JsValue) -> Result<JsValue, JsValue> {
    let scenario = scenario_from_js(scenario)?;
    let result = engine::run::run(&scenario);
    let out: Vec<serde_json::Value> = result
        .variants
        .iter()
        .map(|v| serde_json::json!({ "label": v.label, "fingerprint": v.fingerprint }))
        .collect();
    to_js(&out)
}
