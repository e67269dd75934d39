//! The keyboard help (`?`).

use yew::prelude::*;

use crate::browser::focus::use_dialog_focus;

/// Props of [`HelpOverlay`].
#[derive(Properties, PartialEq)]
pub struct HelpOverlayProps {
    /// Close it.
    pub on_close: Callback<()>,
}

/// Every shortcut, as `(keys, what it does)`; the keyboard handler in
/// [`crate::browser::keyboard`] implements exactly these.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "play or pause"),
    (
        "→",
        "next rebalance round (moves the playhead, shows its details)",
    ),
    ("←", "previous rebalance round"),
    ("Shift + → / ←", "move the playhead by 1 % of the run"),
    ("Home / End", "start or end of the run"),
    ("?", "this help"),
    (
        "Esc",
        "close this help or the round details; stop following a task",
    ),
];

/// Pointer gestures on the chart and the timelines, as `(gesture, what it does)`.
pub const GESTURES: &[(&str, &str)] = &[
    (
        "Drag across the chart",
        "zoom every timeline to that stretch",
    ),
    (
        "Click the chart, or the time axis above or below the lanes",
        "move the playhead (drag on the axis to scrub)",
    ),
    ("Wheel or pinch over a timeline", "zoom around the pointer"),
    ("Shift + wheel, or a sideways wheel", "pan"),
    ("Drag on the lanes", "pan"),
    (
        "Double-click a timeline, or “Whole run”",
        "show the whole run (“Focus” goes back to where things happen)",
    ),
    (
        "Hover a bar",
        "name the task, its state, worker, start and duration",
    ),
    (
        "Click a bar",
        "follow that task across every lane and column (click empty space to stop)",
    ),
    (
        "Hover or tap a dashed round marker",
        "what each member owned, was assigned and revoked",
    ),
];

/// A modal listing the shortcuts.
#[component]
pub fn HelpOverlay(props: &HelpOverlayProps) -> Html {
    let dialog = use_node_ref();
    use_dialog_focus(dialog.clone(), props.on_close.clone());
    let close = props.on_close.reform(|_: MouseEvent| ());
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    html! {
        <div class="overlay" onclick={close.clone()}>
            <div ref={dialog} class="dialog help" role="dialog" aria-modal="true" aria-labelledby="help-title" tabindex="-1" onclick={stop}>
                <header>
                    <h2 id="help-title">{"Keyboard shortcuts"}</h2>
                    <button class="icon" onclick={close} aria-label="Close help">{"×"}</button>
                </header>
                <table class="shortcuts">
                    <tbody>
                        { for SHORTCUTS.iter().map(|(keys, what)| html! {
                            <tr><th scope="row"><kbd>{ *keys }</kbd></th><td>{ *what }</td></tr>
                        }) }
                    </tbody>
                </table>
                <h3 class="gestures-title">{"Pointer"}</h3>
                <table class="shortcuts gestures">
                    <tbody>
                        { for GESTURES.iter().map(|(gesture, what)| html! {
                            <tr><th scope="row">{ *gesture }</th><td>{ *what }</td></tr>
                        }) }
                    </tbody>
                </table>
            </div>
        </div>
    }
}
