//! A column's story (drawn by the side panel), one line per scenario event, JoinGroup/SyncGroup round
//! and protocol step, with the engine's explanation. The line under the
//! playhead is highlighted and kept in view; clicking a line moves the
//! playhead there (and shows a round's details).

use std::rc::Rc;

use engine::run::RunResult;
use engine::wording::duration as format_duration;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::components::engine_text::engine_text;
use crate::shared::Shared;
use crate::state::story::{shown_lines, StoryItem, StoryKind};

/// Keeps the current line of the story list behind `list_ref` in view,
/// scrolling the list only (never the page).
pub fn keep_current_in_view(list_ref: &NodeRef) {
    let Some(list) = list_ref.cast::<HtmlElement>() else {
        return;
    };
    let Ok(Some(item)) = list.query_selector("li.current") else {
        return;
    };
    let Ok(item) = item.dyn_into::<HtmlElement>() else {
        return;
    };
    let (top, h) = (item.offset_top(), item.offset_height());
    let (view, vh) = (list.scroll_top(), list.client_height());
    if top < view || top + h > view + vh {
        list.set_scroll_top((top - vh / 3).max(0));
    }
}

/// While the playhead moves faster than anyone reads (a storm plays
/// hundreds of lines a second), the story follows it at most this often;
/// each move of the lines drawn re-lays out their text.
const FOLLOW_EVERY_MS: f64 = 200.0;

/// ...and, while playing, moves the lines drawn ([`shown_lines`]) at most
/// this often: a move redraws and re-lays out all of them (8–13 ms of a
/// playback frame on a storm, the frames that came late; docs/performance.md,
/// "Session 24"), where a move within them only moves the current line's
/// class. Stepping and seeking move them at once.
const SHIFT_EVERY_MS: f64 = 1_000.0;

/// The line the story shows as current: `now`, at once when it has rested
/// or the story changed, else at most every [`FOLLOW_EVERY_MS`], or while
/// `playing` every [`SHIFT_EVERY_MS`] when the lines drawn would move (the
/// last move always lands).
#[hook]
pub fn use_followed_line(
    now: Option<usize>,
    column: usize,
    items: &Rc<Vec<StoryItem>>,
    playing: bool,
) -> Option<usize> {
    let story = (column, Rc::as_ptr(items) as usize);
    let shown = use_state_eq(|| (now, story));
    // When the current line and the lines drawn last moved.
    let last_move = use_mut_ref(|| (f64::NEG_INFINITY, f64::NEG_INFINITY));
    let pending = use_mut_ref(|| None::<gloo::timers::callback::Timeout>);
    {
        let shown = shown.clone();
        use_effect_with((now, story), move |&(now, story)| {
            let t = crate::browser::profile::now();
            let shifts = playing && shown_lines(now) != shown_lines(shown.0);
            let story_changed = shown.1 != story;
            let (moved, shifted) = *last_move.borrow();
            let wait = if shifts {
                (moved + FOLLOW_EVERY_MS).max(shifted + SHIFT_EVERY_MS)
            } else {
                moved + FOLLOW_EVERY_MS
            } - t;
            let land = move |t: f64| {
                let mut last = last_move.borrow_mut();
                *last = (t, if shifts { t } else { last.1 });
                shown.set((now, story));
            };
            if wait <= 0.0 || story_changed {
                pending.borrow_mut().take();
                land(t);
            } else {
                let timer = gloo::timers::callback::Timeout::new(wait.ceil() as u32, move || {
                    land(crate::browser::profile::now())
                });
                *pending.borrow_mut() = Some(timer);
            }
        });
    }
    if shown.1 == story {
        shown.0
    } else {
        now
    }
}

/// Props of [`StoryList`]: all compare cheaply (the result and the lines
/// by allocation, callbacks by identity), so the list skips the side
/// panel's renders on every playback frame and draws again only when its
/// current line, lines or column change.
#[derive(Properties, PartialEq)]
pub struct StoryListProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// The story's lines.
    pub items: Shared<Vec<StoryItem>>,
    /// Whose story.
    pub column: usize,
    /// The line shown as current ([`use_followed_line`]).
    pub now: Option<usize>,
    /// The list's node.
    pub list_ref: NodeRef,
    /// Another column's story was picked.
    pub on_column: Callback<usize>,
    /// A line was clicked: move the playhead to its time.
    pub on_seek: Callback<u64>,
    /// A round's line was clicked: (column, round, tapped).
    pub on_round: Callback<(usize, usize, bool)>,
}

/// The story list: column switcher and lines. A click on a line seeks or
/// opens its round. The lines drawn move in steps ([`shown_lines`]), so a
/// new current line mostly moves a class.
#[component]
pub fn StoryList(props: &StoryListProps) -> Html {
    let (on_column, on_seek, on_round) = (&props.on_column, &props.on_seek, &props.on_round);
    let (items, now, column) = (&props.items[..], props.now, props.column);
    let Some(trace) = props.result.variants.get(column).map(|r| &r.trace) else {
        return html! {};
    };
    let shown = shown_lines(now);
    let first = shown.start;
    let times: Vec<String> = items
        .iter()
        .skip(first)
        .take(shown.len())
        .map(|it| format_duration(it.at_ms))
        .collect();
    // Every time on one line, in a column as wide as the longest shown
    // ("12 min 5.250 s"), so the titles line up.
    let at_chars = times.iter().map(|t| t.chars().count()).max().unwrap_or(4);
    let lines = items
        .iter()
        .enumerate()
        .skip(first)
        .take(shown.len())
        .zip(times)
        .map(|((i, it), at_text)| {
            let at = it.at_ms;
            let kind = it.kind;
            let onclick = {
                let (on_seek, on_round) = (on_seek.clone(), on_round.clone());
                Callback::from(move |_: MouseEvent| match kind {
                    StoryKind::Round(r) => on_round.emit((column, r, true)),
                    _ => on_seek.emit(at),
                })
            };
            let class = match kind {
                StoryKind::Event => "event",
                StoryKind::Round(_) => "round",
                StoryKind::Step => "step",
            };
            let is_now = Some(i) == now;
            // Not keyed: a key per line (its place) cost playback of the
            // storm 5-10 frames a second, as the shown lines slide with the
            // playhead and Yew moved every one of them (issue #13).
            html! {
                <li class={classes!(class, is_now.then_some("current"))} data-at={at.to_string()}
                    aria-current={is_now.then_some("step")}>
                    <button class="story-line" {onclick}>
                        <span class="story-at">{ at_text }</span>
                        <span class="story-title">{ it.title(trace) }</span>
                        <span class="story-text">{ engine_text(it.text(trace)) }</span>
                    </button>
                </li>
            }
        });
    let variants = &props.result.variants;
    html! {
        <section class="story" aria-labelledby="story-title">
            <header>
                <h3 id="story-title">{"Story"}</h3>
                if variants.len() > 1 {
                    <div class="story-columns" role="group" aria-label="Whose story">
                        { for variants.iter().enumerate().map(|(i, v)| {
                            let pick = on_column.reform(move |_: MouseEvent| i);
                            html! {
                                <button class={classes!((i == column).then_some("active"))} aria-pressed={(i == column).to_string()}
                                        onclick={pick}>{ &v.label }</button>
                            }
                        }) }
                    </div>
                }
            </header>
            <ol class="story-list" ref={props.list_ref.clone()} data-column={column.to_string()} start={(first + 1).to_string()}
                style={format!("--at-chars: {at_chars}")}>
                { for lines }
            </ol>
        </section>
    }
}
