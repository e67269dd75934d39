//! Embedding: when the page runs inside an iframe it tells the host page
//! its content height, so the host can size the iframe to fit:
//! `postMessage({type: "rebalance-playground:height", height}, "*")`.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{Object, Reflect};
use web_sys::{HtmlElement, ResizeObserver};
use yew::prelude::*;

/// The message type hosts listen for.
pub const HEIGHT_MESSAGE: &str = "rebalance-playground:height";

/// True when the page is framed by another page.
pub fn framed() -> bool {
    let window = gloo::utils::window();
    match window.parent() {
        Ok(Some(parent)) => {
            let me: &JsValue = window.as_ref();
            let parent: &JsValue = parent.as_ref();
            !Object::is(me, parent)
        }
        _ => false,
    }
}

fn post_height(height: f64) {
    let window = gloo::utils::window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    let msg = Object::new();
    let _ = Reflect::set(&msg, &"type".into(), &HEIGHT_MESSAGE.into());
    let _ = Reflect::set(&msg, &"height".into(), &height.ceil().into());
    // The height is not a secret; any host may size its iframe with it.
    let _ = parent.post_message(&msg, "*");
}

/// Reports the height of the element behind `node` whenever it changes,
/// while `enabled`.
#[hook]
pub fn use_height_reports(node: NodeRef, enabled: bool) {
    use_effect_with((node, enabled), |(node, enabled)| {
        let mut observer = None;
        let mut closure = None;
        if *enabled {
            if let Some(el) = node.cast::<HtmlElement>() {
                let target = el.clone();
                let last = std::cell::Cell::new(-1.0);
                let report = move || {
                    let h = f64::from(target.offset_height());
                    if h > 0.0 && (h - last.get()).abs() >= 1.0 {
                        last.set(h);
                        post_height(h);
                    }
                };
                report();
                let cb = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| report());
                if let Ok(ro) = ResizeObserver::new(cb.as_ref().unchecked_ref()) {
                    ro.observe(&el);
                    observer = Some(ro);
                }
                closure = Some(cb);
            }
        }
        move || {
            if let Some(ro) = observer {
                ro.disconnect();
            }
            drop(closure);
        }
    });
}
