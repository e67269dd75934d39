//! The simulator module's JS API. Only the worker binary declares this
//! module, so these functions live in the simulator's WebAssembly (the one
//! the Web Worker runs), not in the page's. The page loads the same module
//! on the main thread when it needs them (`loadSimulator()` in the page's
//! API, and the page's fallback when no Web Worker can start).
//!
//! Every function is synchronous. Integers stay exact: those beyond 2^53
//! travel as `BigInt` (see [`rebalance_web::browser::js_value`]).

use rebalance_web::browser::js_value;
use rebalance_web::worker::sim_worker;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Simulates a scenario (object or JSON text); returns
/// `{variants: [{label, trace, metrics, fingerprint}]}`, where `fingerprint`
/// is the trace's `Trace::fingerprint` as 16 hex digits, as
/// `rebalance run --json` prints it.
#[wasm_bindgen]
pub fn simulate(scenario: JsValue) -> Result<JsValue, JsValue> {
    let scenario = js_value::scenario(&scenario)?;
    js_value::serialize(&engine::run::run(&scenario))
}

/// What the worker would post for a request (`{id, task}`, see
/// `web/src/worker/messages.rs`), as an array of its replies in order
/// (`{opened: …}`, `{simulated: …}`, …): the page's main-thread fallback
/// calls this and reads the answers exactly as it reads the worker's.
#[wasm_bindgen(js_name = answerForPage)]
pub fn answer_for_page(request: JsValue) -> Result<JsValue, JsValue> {
    sim_worker::replies_here(request)
}

/// [`answer_for_page`] for a small scenario, simulated at once on the
/// calling thread: `null` when the request is not a plain simulation of a
/// scenario this small, or when its run reaches a progress report (a storm,
/// a long run). The page simulates small edits this way, in the edit's own
/// task, and sends the rest to its worker.
#[wasm_bindgen(js_name = answerBriefly)]
pub fn answer_briefly(request: JsValue) -> Result<JsValue, JsValue> {
    sim_worker::replies_brief(request)
}

/// Simulates a scenario and returns only `[{label, fingerprint}]`: cheap to
/// hand to JS even for 100,000 tasks, and comparable with
/// `rebalance run --fingerprints`.
#[wasm_bindgen(js_name = simulateFingerprints)]
pub fn simulate_fingerprints(scenario: JsValue) -> Result<JsValue, JsValue> {
    let scenario = js_value::scenario(&scenario)?;
    let result = engine::run::run(&scenario);
    let out: Vec<serde_json::Value> = result
        .variants
        .iter()
        .map(|v| serde_json::json!({ "label": v.label, "fingerprint": v.fingerprint }))
        .collect();
    js_value::serialize(&out)
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
