//! The zoom bar: which stretch of the run every column shows, with the
//! default focus and the whole run one click away, and zoom buttons for
//! those without a wheel.

use engine::wording::duration as format_duration;
use yew::prelude::*;

use crate::state::viewport::Window;

/// The zoom bar for `window` of a run ending at `end`, with `focus` the
/// default window. (A function, not a component: it has no state, and each
/// component costs the page's WebAssembly a few kilobytes.)
pub fn view_bar(
    window: Window,
    focus: Window,
    end: u64,
    on_view: &Callback<Option<Window>>,
) -> Html {
    let w = window;
    let whole = Window::whole(end);
    let zoom = |factor: f64| {
        on_view.reform(move |_: MouseEvent| {
            Some(w.zoom((w.from_ms + w.to_ms) as f64 / 2.0, factor, end))
        })
    };
    let show = |target: Option<Window>| on_view.reform(move |_: MouseEvent| target);
    let is_whole = w == whole;
    html! {
        <div class="view-bar" role="group" aria-label="Time window">
            <span class="view-range" id="view-range">
                <span class="view-lead">{ if is_whole { "Whole run: " } else { "Showing " } }</span>
                <b>{ format!("{} – {}", format_duration(w.from_ms), format_duration(w.to_ms)) }</b>
                <span class="view-of">{ format!(" of {}", format_duration(end)) }</span>
            </span>
            <button id="zoom-out" onclick={zoom(2.0)} disabled={is_whole} aria-label="Zoom out" title="Zoom out (or the wheel over a timeline)">{"−"}</button>
            <button id="zoom-in" onclick={zoom(0.5)} aria-label="Zoom in" title="Zoom in (or the wheel over a timeline)">{"+"}</button>
            <button id="zoom-focus" class={classes!((w == focus).then_some("active"))} onclick={show(None)}
                    aria-pressed={(w == focus).to_string()} title="From just before the first event to the first recovery">{"Focus"}</button>
            <button id="zoom-whole" class={classes!(is_whole.then_some("active"))} onclick={show(Some(whole))}
                    aria-pressed={is_whole.to_string()} title="Show the whole run (or double-click a timeline)">{"Whole run"}</button>
            <span class="view-hint">{"drag the chart to zoom · drag lanes to pan · wheel zooms"}</span>
        </div>
    }
}
