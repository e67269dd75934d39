//! The result the site ships for a preset link's first request (computed
//! when the site was built: `rebalance presets --results`), as the page's
//! simulator client follows it ([`super::sim_client::SimClient::prefetch`]):
//! fetched by `index.html` while the page loads, shown as that request's
//! answer, then checked against the worker's own answer. The worker gets the
//! request only once the shipped result is drawn, so its cold first run does
//! not take a core from that frame (issue #13).

use engine::result_wire::{self as wire, Wire};
use engine::run::RunResult;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::{ArrayBuffer, Object, Promise, Reflect, Uint8Array};

use crate::worker::messages::{lists_from_js, Reply};

/// Where a request's shipped result stands.
#[derive(Default)]
pub(crate) enum Shipped {
    /// None asked for, or settled.
    #[default]
    None,
    /// Being fetched for this request; the worker does not have it yet.
    Fetching(u64),
    /// Shown as this request's answer, its frame not drawn yet; the worker
    /// does not have the request yet.
    Drawing { id: u64, wire: Wire },
    /// Shown, and the request posted: the worker's answer is to check it.
    Checking { id: u64, wire: Wire },
}

impl Shipped {
    /// True while the worker is kept from the request (fetching or drawing).
    pub(crate) fn holds_request(&self) -> bool {
        matches!(self, Shipped::Fetching(_) | Shipped::Drawing { .. })
    }

    /// True while it is being fetched for request `id`.
    pub(crate) fn fetching(&self, id: u64) -> bool {
        matches!(self, Shipped::Fetching(f) if *f == id)
    }

    /// True when the shipped result shown answers request `id`.
    pub(crate) fn shown_for(&self, id: Option<u64>) -> bool {
        matches!(self, Shipped::Drawing { id: shown, .. } | Shipped::Checking { id: shown, .. }
            if Some(*shown) == id)
    }

    /// Read from `file` for request `id`: the result to show (the state is
    /// then [`Shipped::Drawing`]), or why not (it is then settled).
    pub(crate) fn read(&mut self, id: u64, file: Option<Vec<u8>>) -> Result<RunResult, String> {
        let read = file
            .ok_or_else(|| "it could not be fetched".to_string())
            .and_then(wire::from_file)
            .and_then(|w| Ok((wire::decode(w.bytes.clone(), w.lists.clone())?, w)));
        match read {
            Ok((result, wire)) => {
                *self = Shipped::Drawing { id, wire };
                Ok(result)
            }
            Err(message) => {
                *self = Shipped::None;
                Err(message)
            }
        }
    }

    /// The shipped result's frame is drawn: true when that lets request
    /// `id` go to the worker now.
    pub(crate) fn drawn(&mut self, id: u64) -> bool {
        match std::mem::take(self) {
            Shipped::Drawing { id: shown, wire } if shown == id => {
                *self = Shipped::Checking { id, wire };
                true
            }
            other => {
                *self = other;
                false
            }
        }
    }

    /// Settles it with the simulator's answer to its request: true when that
    /// answer is the result already shown, byte for byte (nothing to do).
    pub(crate) fn settle(&mut self, reply: &Reply) -> bool {
        let id = match self {
            Shipped::None => return false,
            Shipped::Fetching(id) | Shipped::Drawing { id, .. } | Shipped::Checking { id, .. } => {
                *id
            }
        };
        if reply.id() != Some(id) {
            return false;
        }
        let (Shipped::Drawing { wire, .. } | Shipped::Checking { wire, .. }) = std::mem::take(self)
        else {
            return false;
        };
        let Reply::Simulated {
            result,
            lists,
            more,
            ..
        } = reply
        else {
            return false;
        };
        // A run shared with the worker's helper answers in pieces
        // (`split_run`): never a preset's (sim_worker's tests), so it is
        // not the shipped result; the simulator's is shown.
        let same = more.length() == 0
            && result.to_vec() == wire.bytes
            && lists_from_js(lists) == wire.lists;
        if !same {
            gloo::console::warn!(
                "The site's precomputed result for this preset differs from the simulator's; showing the simulator's."
            );
        }
        same
    }
}

/// The body `index.html`'s fetch read (a promise of its `ArrayBuffer`, or
/// of null when there is none).
pub(crate) async fn fetch_bytes(fetched: Promise) -> Option<Vec<u8>> {
    let buffer = JsFuture::from(fetched)
        .await
        .ok()?
        .dyn_into::<ArrayBuffer>()
        .ok()?;
    Some(Uint8Array::new(&buffer).to_vec())
}

/// Where `index.html` leaves the fetch of a preset link's shipped result
/// that it starts before this module loads (`{url, body}`, `body` a promise
/// of the `ArrayBuffer` or null).
const EARLY_RESULT_KEY: &str = "rebalanceEarlyResult";

/// Takes `index.html`'s fetch of `url` from `window`, if it started one.
pub(crate) fn take_early_result(url: &str) -> Option<Promise> {
    let early = take_from_window(EARLY_RESULT_KEY)?;
    if field(&early, "url")?.as_string()? != url {
        return None;
    }
    field(&early, "body")?.dyn_into::<Promise>().ok()
}

/// Takes the object `index.html` left on `window` under `key` (so it is
/// taken over once), if any.
pub(crate) fn take_from_window(key: &str) -> Option<JsValue> {
    let window: Object = web_sys::window()?.into();
    let key = JsValue::from_str(key);
    let object = Reflect::get(&window, &key)
        .ok()
        .filter(JsValue::is_object)?;
    let _ = Reflect::delete_property(&window, &key);
    Some(object)
}

/// A field of a JS object, read by hand (no serde in the page for it).
pub(crate) fn field(object: &JsValue, name: &str) -> Option<JsValue> {
    Reflect::get(object, &JsValue::from_str(name)).ok()
}
