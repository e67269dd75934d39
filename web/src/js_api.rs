//! A small JS API for docs tooling: `simulate`, `encodeLink`, `decodeLink`.
//! Integers stay exact: those beyond 2^53 travel as `BigInt` (see
//! [`crate::js_value`]).

use engine::link::{self, LinkTarget};
use engine::scenario::Scenario;
use wasm_bindgen::prelude::*;

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
/// is the trace's `Trace::fingerprint` as 16 hex digits (a u64 does not fit
/// a JS number).
#[wasm_bindgen]
pub fn simulate(scenario: JsValue) -> Result<JsValue, JsValue> {
    let scenario = scenario_from_js(scenario)?;
    let result = engine::run::run(&scenario);
    let mut json = serde_json::to_value(&result).map_err(|e| JsValue::from_str(&e.to_string()))?;
    if let Some(variants) = json.get_mut("variants").and_then(|v| v.as_array_mut()) {
        for (v, run) in variants.iter_mut().zip(&result.variants) {
            if let Some(obj) = v.as_object_mut() {
                obj.insert(
                    "fingerprint".to_string(),
                    format!("{:016x}", run.trace.fingerprint()).into(),
                );
            }
        }
    }
    to_js(&json)
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
