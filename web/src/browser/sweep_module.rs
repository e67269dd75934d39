//! The sweep module on the page: loaded the first time the sweep view
//! opens (an ES module, `web/src/sweep_main.rs`), then told what to show.
//! The page holds only the container; the view, its state and the sweep
//! pool live in that module.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::{Array, Function, Promise, Reflect};

/// The sweep module's script and WebAssembly, relative to the page.
const SCRIPT_URL: &str = "./rebalance-sweep.js";
const WASM_URL: &str = "./rebalance-sweep_bg.wasm";

/// What the page wants shown: the arguments of the module's `mount`.
#[derive(Clone)]
pub struct SweepMount {
    /// The container the view renders into.
    pub root: web_sys::Element,
    /// The scenario as JSON (the page already writes it for the simulator;
    /// the engine's binary encoder would add ~4 KB to the page's module).
    pub scenario: String,
    /// The link's sweep part, unread (empty: open for the scenario).
    pub link: String,
    /// The page's link of the scenario.
    pub page_fragment: String,
    /// Embedded.
    pub embed: bool,
    /// The scenario does not simulate as it stands.
    pub invalid: bool,
}

thread_local! {
    /// The one load (resolves to the module's namespace).
    static LOADING: RefCell<Option<Promise>> = const { RefCell::new(None) };
    /// What to show once loaded (None: nothing).
    static WANTED: RefCell<Option<SweepMount>> = const { RefCell::new(None) };
}

/// Shows the sweep view as `mount` says (loading the module first).
pub fn show(mount: SweepMount) {
    WANTED.with(|w| *w.borrow_mut() = Some(mount));
    apply();
}

/// Removes the sweep view.
pub fn hide() {
    let was_shown = WANTED.with(|w| w.borrow_mut().take()).is_some();
    if was_shown {
        apply();
    }
}

/// Brings the module in line with [`WANTED`] once it is loaded; a failure
/// goes to the console (the container stays empty).
fn apply() {
    let promise = LOADING.with(|cell| cell.borrow_mut().get_or_insert_with(start).clone());
    wasm_bindgen_futures::spawn_local(async move {
        let outcome = match JsFuture::from(promise).await {
            Ok(module) => call(&module),
            Err(e) => {
                LOADING.with(|cell| cell.borrow_mut().take());
                Err(e)
            }
        };
        if let Err(e) = outcome {
            gloo::console::error!(
                "The sweep view could not be loaded (it needs rebalance-sweep.js and \
                 rebalance-sweep_bg.wasm published beside this page):",
                e
            );
        }
    });
}

/// Calls the module's `mount` with what is wanted, or its `unmount`.
fn call(module: &JsValue) -> Result<(), JsValue> {
    let function = |name: &str| -> Result<Function, JsValue> {
        Reflect::get(module, &name.into())?
            .dyn_into()
            .map_err(|_| JsValue::from_str(&format!("the sweep module has no `{name}`")))
    };
    match WANTED.with(|w| w.borrow().clone()) {
        Some(m) => {
            let args = Array::new();
            args.push(&m.root);
            args.push(&m.scenario.into());
            args.push(&m.link.into());
            args.push(&m.page_fragment.into());
            args.push(&m.embed.into());
            args.push(&m.invalid.into());
            function("mount")?.apply(&JsValue::NULL, &args)?;
        }
        None => {
            function("unmount")?.call0(&JsValue::NULL)?;
        }
    }
    Ok(())
}

/// Imports the module's script, then initialises its WebAssembly
/// (resolves to the module's namespace).
fn start() -> Promise {
    let load = Function::new_with_args(
        "script, wasm",
        "const url = (f) => new URL(f, document.baseURI).href; \
         return import(url(script)).then((m) => m.default({ module_or_path: url(wasm) }).then(() => m));",
    );
    load.call2(&JsValue::NULL, &SCRIPT_URL.into(), &WASM_URL.into())
        .and_then(|p| p.dyn_into::<Promise>())
        .unwrap_or_else(|e| Promise::reject(&e))
}
