//! The keyboard help (`?`).

use yew::prelude::*;

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
    ("Esc", "close this help or the round details"),
];

/// A modal listing the shortcuts.
#[component]
pub fn HelpOverlay(props: &HelpOverlayProps) -> Html {
    let close = props.on_close.reform(|_: MouseEvent| ());
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    html! {
        <div class="overlay" onclick={close.clone()}>
            <div class="dialog help" role="dialog" aria-modal="true" aria-labelledby="help-title" onclick={stop}>
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
                <p class="hint">{"Drag on a timeline or the scrubber to move the playhead; hover or tap a dashed round marker to see what each member owned, was assigned and revoked."}</p>
            </div>
        </div>
    }
}
