//! JSON values to and from JS values for the JS API, keeping every integer
//! exact: integers a JS number holds exactly (|n| ≤ 2^53 − 1) become
//! numbers, larger ones (`acceptable.recovery.lag` at `Long.MAX_VALUE`)
//! become `BigInt`s, and `BigInt`s given back become integers again.

use engine::fixed::Fixed;
use serde_json::{Map, Number, Value};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::js_sys::{Array, BigInt, Object, Reflect};

/// Any serialisable value as a plain JS value (via JSON, so integers stay exact).
pub fn serialize<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let json = serde_json::to_value(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    Ok(to_js(&json))
}

/// JSON text as a plain JS value (integers exact). The page hands a
/// scenario over as its own JSON text, so its module holds no second
/// serialiser for it (one that builds a `Value`).
pub fn parse(json: &str) -> Result<JsValue, JsValue> {
    let value: Value = serde_json::from_str(json).map_err(|e| JsValue::from_str(&e.to_string()))?;
    Ok(to_js(&value))
}

/// The JSON text of a JS value: a string is taken as JSON text already,
/// anything else is converted (BigInts back to exact integers).
pub fn json_text(value: &JsValue) -> Result<String, JsValue> {
    if let Some(s) = value.as_string() {
        return Ok(s);
    }
    let json = from_js(value).map_err(|e| JsValue::from_str(&e))?;
    Ok(json.to_string())
}

/// A JS value (an object, or JSON text) as compact JSON text; throws when
/// text is not JSON.
pub fn compact_json(value: &JsValue) -> Result<String, JsValue> {
    let value: Value = match value.as_string() {
        Some(text) => serde_json::from_str(&text).map_err(|e| JsValue::from_str(&e.to_string()))?,
        None => from_js(value).map_err(|e| JsValue::from_str(&e))?,
    };
    Ok(value.to_string())
}

/// A scenario from a JS value (an object or JSON text), or the reason it is
/// not one, as the JS API throws it.
pub fn scenario(value: &JsValue) -> Result<engine::scenario::Scenario, JsValue> {
    engine::scenario::Scenario::from_json(&json_text(value)?)
        .map_err(|e| JsValue::from_str(&e.to_string()))
}

/// Largest integer a JS number holds exactly.
const MAX_SAFE: u64 = (1 << 53) - 1;

/// A JSON value as a plain JS value.
pub fn to_js(value: &Value) -> JsValue {
    match value {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                if u <= MAX_SAFE {
                    JsValue::from_f64(u as f64)
                } else {
                    BigInt::from(u).into()
                }
            } else if let Some(i) = n.as_i64() {
                if i.unsigned_abs() <= MAX_SAFE {
                    JsValue::from_f64(i as f64)
                } else {
                    BigInt::from(i).into()
                }
            } else {
                JsValue::from_f64(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => JsValue::from_str(s),
        Value::Array(items) => items.iter().map(to_js).collect::<Array>().into(),
        Value::Object(map) => {
            let obj = Object::new();
            for (k, v) in map {
                let _ = Reflect::set(&obj, &JsValue::from_str(k), &to_js(v));
            }
            obj.into()
        }
    }
}

/// A JS value (plain data) as JSON; functions, symbols and cycles are errors.
pub fn from_js(value: &JsValue) -> Result<Value, String> {
    from_js_depth(value, 0)
}

fn from_js_depth(value: &JsValue, depth: usize) -> Result<Value, String> {
    if depth > 64 {
        return Err("the value nests too deeply (or refers to itself)".into());
    }
    if value.is_null() || value.is_undefined() {
        return Ok(Value::Null);
    }
    if let Some(b) = value.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(s) = value.as_string() {
        return Ok(Value::String(s));
    }
    if let Some(f) = value.as_f64() {
        if f.fract() == 0.0 && f.abs() <= MAX_SAFE as f64 {
            return Ok(Value::Number(Number::from(f as i64)));
        }
        // Only NaN and the infinities have no JSON number; `Fixed` writes
        // them as `{}` of an f64 does ("NaN", "inf", "-inf").
        return Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("{} is not a JSON number", Fixed(f)));
    }
    if value.is_bigint() {
        let text = value
            .dyn_ref::<BigInt>()
            .and_then(|b| b.to_string(10).ok())
            .and_then(|s| s.as_string())
            .unwrap_or_default();
        if let Ok(u) = text.parse::<u64>() {
            return Ok(Value::Number(u.into()));
        }
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        return Err(format!("{text}n is out of range for a 64-bit integer"));
    }
    if Array::is_array(value) {
        let array: &Array = value.unchecked_ref();
        return array
            .iter()
            .map(|v| from_js_depth(&v, depth + 1))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if value.is_object() && !value.is_function() {
        let mut map = Map::new();
        for entry in Object::entries(value.unchecked_ref()).iter() {
            let pair: Array = entry.unchecked_into();
            let key = pair.get(0).as_string().unwrap_or_default();
            map.insert(key, from_js_depth(&pair.get(1), depth + 1)?);
        }
        return Ok(Value::Object(map));
    }
    Err("expected plain data (objects, arrays, strings, numbers, booleans)".into())
}
