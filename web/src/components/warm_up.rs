//! The comparison drawn once off screen, so the first edit finds its render
//! paths warm (issue #13). A page's first render only creates nodes; the
//! first edit is the first to reconcile them, and V8 compiles each
//! WebAssembly function on its first call: that edit's render took about
//! three times a warm one's, and was the page's last task over 50 ms.
//!
//! The warm-up mounts a [`CompareView`] of the result on screen into an
//! element outside the document (no style, layout or paint), then, in a
//! task of its own, gives it the same result with its columns in the
//! other order, which reconciles every column against another variant's
//! trace as an edit does, and then unmounts it. It runs once the editor is
//! open and the brief simulator ready (`<main data-warm>`). First edits
//! after a load, 40 a side: 45.8 → 38.9 ms median, and none of them a task
//! over 50 ms (two before; docs/performance.md, "Session 20").

use engine::run::RunResult;
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

use crate::components::compare_view::CompareView;
use crate::shared::Shared;

/// Where the warm-up stands (`<main data-warm>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WarmUpStatus {
    /// Not started: the editor is not open or the brief simulator not ready.
    Off,
    /// Drawing off screen.
    Running,
    /// Done: the render paths are warm.
    Done,
    /// Not done: the result is too large ([`WARM_UP_AT_MOST`]).
    Skipped,
}

impl WarmUpStatus {
    /// For `data-warm`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            WarmUpStatus::Off => "off",
            WarmUpStatus::Running => "running",
            WarmUpStatus::Done => "done",
            WarmUpStatus::Skipped => "skipped",
        }
    }
}

#[derive(Properties, PartialEq)]
struct OffScreenProps {
    /// The result on screen.
    result: Shared<RunResult>,
    /// Called once both renders are done.
    on_done: Callback<()>,
}

#[component]
fn OffScreenComparison(props: &OffScreenProps) -> Html {
    let turned = use_state(|| false);
    {
        let (turned, on_done) = (turned.clone(), props.on_done.clone());
        use_effect_with(*turned, move |done| {
            let done = *done;
            // The second render in the next task, so that neither makes a
            // long task of the two.
            Timeout::new(0, move || {
                if done {
                    on_done.emit(());
                } else {
                    turned.set(true);
                }
            })
            .forget();
        });
    }
    let result = if *turned {
        let mut other = (*props.result.0).clone();
        other.variants.reverse();
        Shared::new(other)
    } else {
        props.result.clone()
    };
    html! {
        <CompareView {result} stale={false} t_ms={0} playing={false} speed={1.0}
                     can_step={(false, false)} selected={None} on_play={Callback::noop()}
                     on_help={Callback::noop()} status={AttrValue::Static("")} zoom={None}
                     followed={None} steps_taken={0} />
    }
}

/// Results this small are warmed up: the ones the page simulates briefly
/// are far smaller (a few hundred spans); a storm's or a big cluster's
/// would make the warm-up itself a long task, and their edits go to the
/// worker anyway.
const WARM_UP_AT_MOST: usize = 10_000;

/// Draws `result`'s comparison off screen twice (see the module's doc),
/// then drops it; `on_status` hears [`WarmUpStatus::Running`], then
/// [`WarmUpStatus::Done`]. Nothing is drawn for a result with more than
/// [`WARM_UP_AT_MOST`] spans, rounds and steps ([`WarmUpStatus::Skipped`]).
pub(crate) fn warm_up(result: Shared<RunResult>, on_status: Callback<WarmUpStatus>) {
    let size: usize = result
        .variants
        .iter()
        .map(|v| v.trace.spans.len() + v.trace.rounds.len() + v.trace.steps.len())
        .sum();
    let root = gloo::utils::document().create_element("div");
    let Some(root) = root.ok().filter(|_| size <= WARM_UP_AT_MOST) else {
        return on_status.emit(WarmUpStatus::Skipped);
    };
    on_status.emit(WarmUpStatus::Running);
    let app = Rc::new(RefCell::new(None::<AppHandle<OffScreenComparison>>));
    let on_done = {
        let app = app.clone();
        Callback::from(move |()| {
            if let Some(app) = app.borrow_mut().take() {
                let on_status = on_status.clone();
                // Not from inside its own render.
                Timeout::new(0, move || {
                    app.destroy();
                    on_status.emit(WarmUpStatus::Done);
                })
                .forget();
            }
        })
    };
    let props = OffScreenProps { result, on_done };
    let handle = yew::Renderer::<OffScreenComparison>::with_root_and_props(root, props).render();
    *app.borrow_mut() = Some(handle);
}
