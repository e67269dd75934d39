//! The Web Worker side of the simulator: it receives scenarios as JSON text,
//! runs the engine and posts the result back as JSON text. Running here keeps
//! the page responsive while a big scenario simulates.
//!
//! Messages (plain JS objects):
//! * worker → page `{kind: "ready"}` once it listens (messages sent before
//!   that would be lost, so the page waits for it);
//! * page → worker `{id, scenario}`;
//! * worker → page `{kind: "result", id, result, lists, elapsed_ms}`
//!   (`result` JSON text, `lists` one transferred `Uint32Array` per
//!   variant, see [`crate::worker::wire`]) or
//!   `{kind: "error", id, error}`.

use std::cell::Cell;

use engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{self, Array, Object, Reflect, Uint32Array};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::browser::profile;
use crate::worker::wire;

thread_local! {
    /// The request being simulated, so a panic can say which one failed.
    static CURRENT: Cell<f64> = const { Cell::new(-1.0) };
}

/// Starts serving requests; called once by the worker binary.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    install_panic_report(scope.clone());
    let replies = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let data = e.data();
        let id = Reflect::get(&data, &"id".into())
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(-1.0);
        let text = Reflect::get(&data, &"scenario".into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        CURRENT.with(|c| c.set(id));
        let (reply, transfer) = reply(id, &text);
        CURRENT.with(|c| c.set(-1.0));
        let _ = replies.post_message_with_transfer(&reply, &transfer);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker does.
    on_message.forget();
    let _ = scope.post_message(&message(&[("kind", "ready".into())]));
}

/// True when this module runs in a dedicated Web Worker (not on a page).
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

/// The answer to request `id`: `{kind: "result", id, result, lists,
/// elapsed_ms}` or `{kind: "error", id, error}`, and the buffers to
/// transfer with it.
pub fn reply(id: f64, text: &str) -> (JsValue, Array) {
    let started = profile::now();
    let transfer = Array::new();
    let reply = match simulate(text) {
        Ok(wire) => {
            // Each item-list pool as a Uint32Array whose buffer moves, not copies.
            let lists = Array::new();
            for list in &wire.lists {
                let typed = Uint32Array::from(list.as_slice());
                transfer.push(&typed.buffer());
                lists.push(&typed);
            }
            message(&[
                ("kind", "result".into()),
                ("id", id.into()),
                ("result", wire.json.into()),
                ("lists", lists.into()),
                ("elapsed_ms", (profile::now() - started).into()),
            ])
        }
        Err(error) => message(&[
            ("kind", "error".into()),
            ("id", id.into()),
            ("error", error.into()),
        ]),
    };
    (reply, transfer)
}

/// One request: validate like a link (the page already did, but the worker
/// trusts nobody), simulate, encode.
fn simulate(text: &str) -> Result<wire::Wire, String> {
    let scenario = Scenario::from_json(text).map_err(|e| e.to_string())?;
    wire::encode(engine::run::run(&scenario))
}

fn message(fields: &[(&str, JsValue)]) -> JsValue {
    let obj = Object::new();
    for (key, value) in fields {
        let _ = Reflect::set(&obj, &(*key).into(), value);
    }
    obj.into()
}

/// A panic in the engine is a bug; tell the page which request hit it, so
/// it can show a message instead of waiting forever.
fn install_panic_report(scope: DedicatedWorkerGlobalScope) {
    std::panic::set_hook(Box::new(move |info| {
        let id = CURRENT.with(Cell::get);
        let error = format!("The simulator stopped on this scenario (a bug in the engine): {info}");
        let _ = scope.post_message(&message(&[
            ("kind", "error".into()),
            ("id", id.into()),
            ("error", error.into()),
        ]));
    }));
}
