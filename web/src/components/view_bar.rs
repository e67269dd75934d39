//! The zoom bar: which stretch of the run every column shows, with the
//! default focus and the whole run one click away, and zoom buttons for
//! those without a wheel.

use engine::report::format_duration;
use yew::prelude::*;

use crate::state::viewport::Window;

/// Props of [`ViewBar`].
#[derive(Properties, PartialEq)]
pub struct ViewBarProps {
    /// The window shown.
    pub window: Window,
    /// The default window.
    pub focus: Window,
    /// End of the shared axis.
    pub end_ms: u64,
    /// Show another window (`None`: the focus).
    pub on_view: Callback<Option<Window>>,
}

/// The zoom bar.
#[component]
pub fn ViewBar(props: &ViewBarProps) -> Html {
    let (w, end) = (props.window, props.end_ms);
    let whole = Window::whole(end);
    let zoom = |factor: f64| {
        props.on_view.reform(move |_: MouseEvent| {
            Some(w.zoom((w.from_ms + w.to_ms) as f64 / 2.0, factor, end))
        })
    };
    let show = |target: Option<Window>| props.on_view.reform(move |_: MouseEvent| target);
    let is_whole = w == whole;
    html! {
        <div class="view-bar" role="group" aria-label="Time window">
            <span class="view-range" id="view-range">
                { if is_whole { "Whole run: ".to_string() } else { "Showing ".to_string() } }
                <b>{ format!("{} – {}", format_duration(w.from_ms), format_duration(w.to_ms)) }</b>
                { format!(" of {}", format_duration(end)) }
            </span>
            <button id="zoom-out" onclick={zoom(2.0)} disabled={is_whole} aria-label="Zoom out" title="Zoom out (or the wheel over a timeline)">{"−"}</button>
            <button id="zoom-in" onclick={zoom(0.5)} aria-label="Zoom in" title="Zoom in (or the wheel over a timeline)">{"+"}</button>
            <button id="zoom-focus" class={classes!((w == props.focus).then_some("active"))} onclick={show(None)}
                    aria-pressed={(w == props.focus).to_string()} title="From just before the first event to the first recovery">{"Focus"}</button>
            <button id="zoom-whole" class={classes!(is_whole.then_some("active"))} onclick={show(Some(whole))}
                    aria-pressed={is_whole.to_string()} title="Show the whole run (or double-click a timeline)">{"Whole run"}</button>
            <span class="view-hint">{"drag the chart to zoom · drag lanes to pan · wheel zooms"}</span>
        </div>
    }
}
