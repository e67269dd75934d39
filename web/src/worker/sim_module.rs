//! The simulator module on the main thread.
//!
//! The simulator is its own WebAssembly module (the worker binary, built by
//! Trunk as a no-modules script), so the page's module stays small. The
//! page loads it here, once, when it has to simulate without a Web Worker
//! (opened where workers cannot start) or when the JS API asks for it. Its
//! script declares a global `wasm_bindgen` init function whose properties
//! are the module's exports (`web/src/simulator_api.rs`).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::{Function, Object, Promise, Reflect};
use web_sys::HtmlScriptElement;

/// The simulator's script and module, relative to the page (the same files
/// the worker loads).
const SCRIPT_URL: &str = "./rebalance-worker.js";
const WASM_URL: &str = "./rebalance-worker_bg.wasm";

thread_local! {
    /// The one load, shared by every caller (resolves to the bindings).
    static LOADING: RefCell<Option<Promise>> = const { RefCell::new(None) };
}

/// The simulator module's bindings, loading it on first use.
pub async fn load() -> Result<JsValue, String> {
    let promise = LOADING.with(|cell| cell.borrow_mut().get_or_insert_with(start).clone());
    match JsFuture::from(promise).await {
        Ok(bindings) => Ok(bindings),
        Err(e) => {
            // Let a later call try again (say, after a network hiccup).
            LOADING.with(|cell| cell.borrow_mut().take());
            let reason = e
                .as_string()
                .or_else(|| {
                    e.dyn_ref::<web_sys::js_sys::Error>()
                        .map(|e| e.message().into())
                })
                .unwrap_or_else(|| "unknown error".to_string());
            Err(format!(
                "The simulator could not be loaded: {reason}. It needs rebalance-worker.js \
                 and rebalance-worker_bg.wasm published beside this page; reload once they are, \
                 or edit the scenario to try again."
            ))
        }
    }
}

/// Calls the exported function `name` of the loaded bindings with one argument.
pub fn call(bindings: &JsValue, name: &str, arg: &JsValue) -> Result<JsValue, JsValue> {
    Reflect::get(bindings, &JsValue::from_str(name))?
        .dyn_into::<Function>()
        .map_err(|_| JsValue::from_str(&format!("the simulator module has no `{name}`")))?
        .call1(&JsValue::NULL, arg)
}

/// Adds the simulator's script to the page, then initialises its module.
fn start() -> Promise {
    wasm_bindgen_futures::future_to_promise(async {
        JsFuture::from(add_script()).await?;
        // A no-modules script's `let wasm_bindgen` is a global binding but
        // not a property of `window`, so only code in the global scope can
        // name it.
        let bindings = Function::new_no_args("return wasm_bindgen").call0(&JsValue::NULL)?;
        let init: Function = bindings
            .clone()
            .dyn_into()
            .map_err(|_| JsValue::from_str("the simulator script defined no module"))?;
        let options = Object::new();
        Reflect::set(&options, &"module_or_path".into(), &WASM_URL.into())?;
        let ready: Promise = init.call1(&JsValue::NULL, &options)?.dyn_into()?;
        JsFuture::from(ready).await?;
        Ok(bindings)
    })
}

/// A `<script>` for the simulator's script; resolves once it has run.
fn add_script() -> Promise {
    Promise::new(&mut |resolve: Function, reject: Function| {
        let added = (|| -> Result<(), JsValue> {
            let document = web_sys::window()
                .and_then(|w| w.document())
                .ok_or("there is no document")?;
            let script: HtmlScriptElement = document.create_element("script")?.unchecked_into();
            script.set_src(SCRIPT_URL);
            let on_error = {
                let reject = reject.clone();
                Closure::once_into_js(move || {
                    let _ =
                        reject.call1(&JsValue::NULL, &format!("{SCRIPT_URL} did not load").into());
                })
            };
            script.set_onload(Some(resolve.unchecked_ref()));
            script.set_onerror(Some(on_error.unchecked_ref()));
            document
                .head()
                .ok_or("the page has no <head>")?
                .append_child(&script)?;
            Ok(())
        })();
        if let Err(e) = added {
            let _ = reject.call1(&JsValue::NULL, &e);
        }
    })
}
