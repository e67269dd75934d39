//! The simulator's Web Workers as [`super::sim_client`] drives them: one
//! started here, or the one `index.html` started before the page's module
//! loaded ([`take_early_worker`]), each wired to the client's handlers and
//! terminated when dropped ([`Spawned`]).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker};

use crate::worker::shipped::{field, take_from_window};

/// Where Trunk puts the worker's loader shim, relative to the page (so the
/// site works from any sub-path).
const WORKER_URL: &str = "./rebalance-worker_loader.js";

/// A live worker and the closures it calls; dropping it terminates the worker.
pub(crate) struct Spawned {
    /// Tells the client's workers apart in their handlers.
    pub(crate) serial: u32,
    pub(crate) worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Starts a worker (`None` where none can start: no `Worker`, a strict
/// CSP …) and routes it as [`attach`] does.
pub(crate) fn spawn(
    serial: u32,
    on_message: impl FnMut(JsValue) + 'static,
    on_error: impl FnMut(String) + 'static,
) -> Option<Spawned> {
    Some(attach(
        Worker::new(WORKER_URL).ok()?,
        serial,
        on_message,
        on_error,
    ))
}

/// Routes a worker's messages (their data) and errors (their message) to
/// the handlers.
pub(crate) fn attach(
    worker: Worker,
    serial: u32,
    mut on_message: impl FnMut(JsValue) + 'static,
    mut on_error: impl FnMut(String) + 'static,
) -> Spawned {
    let on_message =
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| on_message(e.data()));
    // A script that fails to load fires a plain `Event`; an exception
    // inside the worker fires an `ErrorEvent` with a message.
    let on_error = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
        // Handled here: keep the browser from logging it as an uncaught error.
        e.prevent_default();
        let message = e
            .dyn_ref::<ErrorEvent>()
            .map(ErrorEvent::message)
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "the worker script could not be loaded".to_string());
        on_error(message);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Spawned {
        serial,
        worker,
        _on_message: on_message,
        _on_error: on_error,
    }
}

/// Where `index.html` leaves the worker it starts before this module loads
/// (`{worker, ready, error}`): starting it there lets the worker's
/// WebAssembly compile while the page's does.
const EARLY_WORKER_KEY: &str = "rebalanceEarlyWorker";

/// The worker `index.html` started, as it stands now.
pub(crate) struct EarlyWorker {
    pub(crate) worker: Worker,
    /// It has already said "ready".
    pub(crate) ready: bool,
    /// It has already failed.
    pub(crate) error: Option<String>,
}

/// Takes the early worker from `window` (so it is adopted once), if any.
/// Read field by field rather than through serde: a derived deserialiser
/// costs the page's module bytes for three fields.
pub(crate) fn take_early_worker() -> Option<EarlyWorker> {
    let early = take_from_window(EARLY_WORKER_KEY)?;
    let field = |name: &str| field(&early, name);
    Some(EarlyWorker {
        worker: field("worker")?.dyn_into::<Worker>().ok()?,
        ready: field("ready").and_then(|v| v.as_bool()).unwrap_or(false),
        error: field("error").and_then(|v| v.as_string()),
    })
}
