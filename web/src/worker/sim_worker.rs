//! The Web Worker side of the simulator: it receives scenarios as JSON text,
//! runs the engine and posts the result back in binary ([`super::wire`]). Running here keeps
//! the page responsive while a big scenario simulates. The messages are
//! [`super::messages`]'s.

use std::cell::Cell;

use engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{self, Array};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::messages::{result_to_js, Reply, Simulate};
use super::wire;
use crate::browser::profile;

thread_local! {
    /// The request being simulated, so a panic can say which one failed.
    static CURRENT: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Starts serving requests; called once by the worker binary.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    install_panic_report(scope.clone());
    let replies = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let (reply, transfer) = match Simulate::from_js(e.data()) {
            Ok(request) => {
                CURRENT.with(|c| c.set(Some(request.id)));
                let answer = reply(Some(request.id), &request.scenario);
                CURRENT.with(|c| c.set(None));
                answer
            }
            Err(e) => (
                Reply::Failed {
                    id: None,
                    message: format!("The simulator cannot read this request: {e}"),
                },
                Array::new(),
            ),
        };
        post(&replies, &reply, &transfer);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker does.
    on_message.forget();
    post(&scope, &Reply::Ready, &Array::new());
}

/// True when this module runs in a dedicated Web Worker (not on a page).
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

/// What the worker would post for a scenario (JSON text), as a JS value:
/// the page's main-thread fallback (`simulateForPage`) reads it exactly as
/// it reads the worker's replies. Nothing is transferred on the main thread.
pub fn reply_here(text: &str) -> Result<JsValue, JsValue> {
    let (reply, _transfer) = reply(None, text);
    reply.to_js().map_err(|e| JsValue::from_str(&e))
}

/// The answer to request `id`, and the buffers to transfer with it.
fn reply(id: Option<u64>, text: &str) -> (Reply, Array) {
    let started = profile::now();
    match simulate(text) {
        Ok(wire) => {
            let (result, lists, transfer) = result_to_js(&wire.bytes, &wire.lists);
            let reply = Reply::Simulated {
                id,
                result,
                lists,
                elapsed_ms: profile::now() - started,
            };
            (reply, transfer)
        }
        Err(message) => (Reply::Failed { id, message }, Array::new()),
    }
}

/// One request: validate like a link (the page already did, but the worker
/// trusts nobody), simulate, encode.
fn simulate(text: &str) -> Result<wire::Wire, String> {
    let scenario = Scenario::from_json(text).map_err(|e| e.to_string())?;
    Ok(wire::encode(engine::run::run(&scenario)))
}

/// Posts a reply, moving the buffers in `transfer`; a reply that cannot be
/// converted goes as a failure of the same request instead.
fn post(scope: &DedicatedWorkerGlobalScope, reply: &Reply, transfer: &Array) {
    match reply.to_js() {
        Ok(message) => {
            let _ = scope.post_message_with_transfer(&message, transfer);
        }
        Err(e) => {
            let failed = Reply::Failed {
                id: reply.id(),
                message: format!("The simulator could not send its answer: {e}"),
            };
            if let Ok(message) = failed.to_js() {
                let _ = scope.post_message(&message);
            }
        }
    }
}

/// A panic in the engine is a bug; tell the page which request hit it, so
/// it can show a message instead of waiting forever.
fn install_panic_report(scope: DedicatedWorkerGlobalScope) {
    std::panic::set_hook(Box::new(move |info| {
        let failed = Reply::Failed {
            id: CURRENT.with(Cell::get),
            message: format!(
                "The simulator stopped on this scenario (a bug in the engine): {info}"
            ),
        };
        post(&scope, &failed, &Array::new());
    }));
}
