//! Modal dialogs and focus (WAI-ARIA's dialog pattern): opening one moves
//! focus into it, Tab and Shift+Tab stay inside it, Esc closes it, and
//! closing it gives focus back to what had it before (the button that
//! opened it).

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// What Tab can reach inside a dialog.
const FOCUSABLE: &str =
    "button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), \
                         textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

fn focusable(dialog: &HtmlElement) -> Vec<HtmlElement> {
    let Ok(list) = dialog.query_selector_all(FOCUSABLE) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<HtmlElement>().ok())
        .collect()
}

fn active() -> Option<HtmlElement> {
    gloo::utils::document()
        .active_element()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
}

/// Makes the element behind `dialog` a modal dialog while it is mounted;
/// `on_close` runs on Esc.
#[hook]
pub fn use_dialog_focus(dialog: NodeRef, on_close: Callback<()>) {
    use_effect_with(dialog, move |dialog| {
        let opener = active();
        let el = dialog.cast::<HtmlElement>();
        let listener = el.map(|el| {
            if let Some(first) = focusable(&el).first() {
                let _ = first.focus();
            } else {
                let _ = el.focus();
            }
            let inside = el.clone();
            EventListener::new_with_options(
                &el,
                "keydown",
                EventListenerOptions::enable_prevent_default(),
                move |e| {
                    let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                        return;
                    };
                    match e.key().as_str() {
                        "Escape" => {
                            e.prevent_default();
                            e.stop_propagation();
                            on_close.emit(());
                        }
                        "Tab" => {
                            let items = focusable(&inside);
                            let (Some(first), Some(last)) = (items.first(), items.last()) else {
                                e.prevent_default();
                                return;
                            };
                            let now = active();
                            let at = |x: &HtmlElement| now.as_ref() == Some(x);
                            if e.shift_key()
                                && (at(first)
                                    || now.as_ref().is_none_or(|n| !inside.contains(Some(n))))
                            {
                                e.prevent_default();
                                let _ = last.focus();
                            } else if !e.shift_key() && at(last) {
                                e.prevent_default();
                                let _ = first.focus();
                            }
                        }
                        _ => {}
                    }
                },
            )
        });
        move || {
            drop(listener);
            // Back to the opener, if it is still on the page.
            if let Some(opener) = opener.filter(|o| o.is_connected()) {
                let _ = opener.focus();
            }
        }
    });
}
