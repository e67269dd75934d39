//! Playback controls: previous/next rebalance round, play/pause, speed, a
//! scrubber over the shared time axis and the time under the playhead.

use engine::wording::duration as format_duration;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::state::playback::{speed_of, PlayAction, SPEEDS};

/// Props of [`Transport`].
#[derive(Properties, PartialEq)]
pub struct TransportProps {
    /// Time under the playhead.
    pub t_ms: u64,
    /// End of the axis.
    pub end_ms: u64,
    /// Playing?
    pub playing: bool,
    /// Speed multiplier.
    pub speed: f64,
    /// Rounds before and after the playhead exist (buttons enabled).
    pub can_step: (bool, bool),
    /// Playback actions.
    pub on_action: Callback<PlayAction>,
    /// Open the keyboard help.
    pub on_help: Callback<()>,
}

/// A 16×16 glyph drawn in the text colour (icon fonts vary too much).
fn icon(d: &'static str) -> Html {
    html! { <svg class="glyph" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d={d} /></svg> }
}

/// The transport bar.
#[component]
pub fn Transport(props: &TransportProps) -> Html {
    let act = |a: PlayAction| props.on_action.reform(move |_: MouseEvent| a.clone());
    let on_scrub = props.on_action.reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        PlayAction::Seek(
            // A range input of step 1 gives whole numbers.
            input.value().parse::<u64>().unwrap_or(0),
        )
    });
    let on_speed = props.on_action.reform(|e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        PlayAction::Speed(speed_of(&select.value()))
    });
    let help = props.on_help.reform(|_: MouseEvent| ());
    html! {
        <div class="transport" role="toolbar" aria-label="Playback">
            <button id="prev-round" onclick={act(PlayAction::Step(-1))} disabled={!props.can_step.0}
                    title="Previous rebalance round (←)" aria-label="Previous rebalance round">{ icon("M3 3h2v10H3zM13 3v10L6 8z") }</button>
            <button id="play" class="play" onclick={act(PlayAction::Toggle)}
                    title="Play or pause (space)" aria-label={if props.playing { "Pause" } else { "Play" }}
                    aria-pressed={props.playing.to_string()}>
                { if props.playing { icon("M4 3h3v10H4zM9 3h3v10H9z") } else { icon("M4.5 2.5v11l9-5.5z") } }
            </button>
            <button id="next-round" onclick={act(PlayAction::Step(1))} disabled={!props.can_step.1}
                    title="Next rebalance round (→)" aria-label="Next rebalance round">{ icon("M11 3h2v10h-2zM3 3v10l7-5z") }</button>
            <input id="scrubber" type="range" min="0" max={props.end_ms.to_string()} step="1"
                   value={props.t_ms.to_string()} oninput={on_scrub} aria-label="Playhead (simulated time)" />
            <output id="clock" class="clock" data-t={props.t_ms.to_string()}>
                { format_duration(props.t_ms) }<span class="of">{ format!(" / {}", format_duration(props.end_ms)) }</span>
            </output>
            <label class="speed">{"speed "}
                <select onchange={on_speed} aria-label="Playback speed">
                    { for SPEEDS.iter().map(|&(s, text)| html! {
                        <option value={text} selected={(s - props.speed).abs() < 1e-9}>{ format!("{text}×") }</option>
                    }) }
                </select>
            </label>
            <button class="help-button" onclick={help} title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">{"?"}</button>
        </div>
    }
}
