//! The sweep module: the sweep view, loaded by the page the first time it
//! is opened (`web/src/browser/sweep_module.rs`), so the page's module
//! stays small. Built by Trunk like the simulator's worker module, as an
//! ES module (`data-bindgen-target="web"`: two no-modules scripts on one
//! page would both declare the global `wasm_bindgen`).

use std::cell::RefCell;
use std::rc::Rc;

use rebalance_web::{SweepRoot, SweepRootProps};
use wasm_bindgen::prelude::*;
use yew::AppHandle;

/// Renders nothing: see [`claim_tree_id`].
#[yew::component]
fn Nothing() -> yew::Html {
    yew::Html::default()
}

/// Yew brands the elements of each app with a tree id counted per module,
/// and the page's app (id 1) handles every event from the body down: with
/// the same id, the page would take the sweep view's clicks for its own
/// (Yew `BSubtree`). A first, empty app takes id 1 here, so the sweep
/// view's ids never meet the page's.
fn claim_tree_id() {
    thread_local! {
        static CLAIMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if !CLAIMED.with(|c| c.replace(true)) {
        if let Ok(host) = gloo::utils::document().create_element("div") {
            yew::Renderer::<Nothing>::with_root(host).render().destroy();
        }
    }
}

thread_local! {
    /// The mounted view and the link part it was opened with.
    static MOUNTED: RefCell<Option<(String, AppHandle<SweepRoot>)>> = const { RefCell::new(None) };
}

/// Shows the sweep view in `root` for `scenario` (its JSON, as the page
/// writes it for the simulator); `link` is the link's sweep part, unread
/// (see [`SweepRootProps`]).
/// Called again while shown, it passes the page's new scenario on; with
/// another `link`, the view starts over.
#[wasm_bindgen]
pub fn mount(
    root: web_sys::Element,
    scenario: &str,
    link: String,
    page_fragment: String,
    embed: bool,
    invalid: bool,
) -> Result<(), JsError> {
    let scenario = engine::scenario::Scenario::from_json(scenario).map_err(|e| {
        JsError::new(&format!(
            "the page sent a scenario that does not decode: {e}"
        ))
    })?;
    let props = SweepRootProps {
        scenario: Rc::new(scenario),
        invalid,
        embed,
        link: link.clone().into(),
        page_fragment: page_fragment.into(),
    };
    MOUNTED.with(|cell| {
        let mut mounted = cell.borrow_mut();
        match mounted.as_mut() {
            Some((shown, handle)) if *shown == link => handle.update(props),
            _ => {
                if let Some((_, handle)) = mounted.take() {
                    handle.destroy();
                }
                claim_tree_id();
                let handle = yew::Renderer::<SweepRoot>::with_root_and_props(root, props).render();
                *mounted = Some((link, handle));
            }
        }
    });
    Ok(())
}

/// Removes the sweep view (its runs stop with it).
#[wasm_bindgen]
pub fn unmount() {
    if let Some((_, handle)) = MOUNTED.with(|cell| cell.borrow_mut().take()) {
        handle.destroy();
    }
}

fn main() {}
