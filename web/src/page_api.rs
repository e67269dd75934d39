//! The page's JS API for embedding and docs tooling (`window.wasmBindings`
//! in a Trunk build): `encodeLink`, `decodeLink`, `simulate`, `loadSimulator`.
//!
//! Only the page binary declares this module, so the simulator is not part
//! of the page's WebAssembly: `simulate` loads the simulator module (the one
//! the Web Worker runs, see [`rebalance_web::worker::sim_module`]) on first use and
//! returns a `Promise`. Integers stay exact: those beyond 2^53 travel as
//! `BigInt` (see [`rebalance_web::browser::js_value`]).
//!
//! `encodeLink` and `decodeLink` pack and unpack links; they do not parse
//! the scenario inside (the page's module holds no scenario parser, the
//! simulator's does): a link whose scenario is invalid decodes, and
//! `simulate` (or opening the link) says what is wrong with it.

use engine::link::{self, LinkPayload};
use rebalance_web::browser::js_value;
use rebalance_web::worker::sim_module;
use wasm_bindgen::prelude::*;
use web_sys::js_sys::Promise;

/// The link fragment (`s=…`, without `#`) of a scenario (object or JSON
/// text; throws when it is not JSON).
#[wasm_bindgen(js_name = encodeLink)]
pub fn encode_link(scenario: JsValue) -> Result<String, JsValue> {
    Ok(link::encode_json(&js_value::compact_json(&scenario)?))
}

/// The scenario a link or fragment carries (presets resolved); throws the
/// page's message for a link that is damaged, cut or names no preset.
#[wasm_bindgen(js_name = decodeLink)]
pub fn decode_link(fragment: &str) -> Result<JsValue, JsValue> {
    match link::decode_payload(fragment).map_err(|e| JsValue::from_str(&e.to_string()))? {
        LinkPayload::Json(text) => js_value::parse(&text),
        LinkPayload::Preset(id) => rebalance_web::presets::resolve(&id)
            .map_err(|message| JsValue::from_str(&message))
            .and_then(|p| js_value::parse(&p.scenario().to_json())),
        LinkPayload::Empty => Err(JsValue::from_str("This link holds no scenario.")),
    }
}

/// Simulates a scenario (object or JSON text). Returns a `Promise` of
/// `{variants: [{label, trace, metrics, fingerprint}]}`, where `fingerprint`
/// is the trace's `Trace::fingerprint` as 16 hex digits, as
/// `rebalance run --json` prints it; it rejects with the reason a scenario
/// is invalid.
#[wasm_bindgen]
pub fn simulate(scenario: JsValue) -> Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        let simulator = sim_module::load()
            .await
            .map_err(|e| JsValue::from_str(&e))?;
        sim_module::call(&simulator, "simulate", &scenario)
    })
}

/// The simulator module itself, loaded on the main thread: a `Promise` of
/// its bindings, whose functions are synchronous — `simulate`,
/// `simulateFingerprints`, `wasmMemoryBytes` (see `web/src/simulator_api.rs`;
/// `cargo xtask bench`'s build adds `workloadNames` and `runWorkload`,
/// `web/src/bench_api.rs`).
#[wasm_bindgen(js_name = loadSimulator)]
pub fn load_simulator() -> Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        sim_module::load().await.map_err(|e| JsValue::from_str(&e))
    })
}
