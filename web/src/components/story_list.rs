//! A column's story (drawn by the side panel), one line per scenario event, JoinGroup/SyncGroup round
//! and protocol step, with the engine's explanation. The line under the
//! playhead is highlighted and kept in view; clicking a line moves the
//! playhead there (and shows a round's details).

use engine::run::RunResult;
use engine::wording::duration as format_duration;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::components::engine_text::engine_text;
use crate::state::story::{StoryItem, StoryKind};

/// Lines drawn around the current one (a 1,000-worker run has thousands).
const SHOWN: usize = 120;

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

/// What a story list needs to draw.
pub struct StoryView<'a> {
    /// The whole result.
    pub result: &'a RunResult,
    /// The story's lines.
    pub items: &'a [StoryItem],
    /// Whose story.
    pub column: usize,
    /// The line of the playhead.
    pub now: Option<usize>,
    /// The list's node.
    pub list_ref: NodeRef,
}

/// The story list: column switcher and lines. `on_column` tells another
/// column's story; a click on a line seeks (`on_seek`) or opens its round
/// (`on_round`: column, round, tapped).
pub fn story_list(
    v: StoryView<'_>,
    on_column: &Callback<usize>,
    on_seek: &Callback<u64>,
    on_round: &Callback<(usize, usize, bool)>,
) -> Html {
    let (items, now, column) = (v.items, v.now, v.column);
    let Some(trace) = v.result.variants.get(column).map(|r| &r.trace) else {
        return html! {};
    };
    let first = now.unwrap_or(0).saturating_sub(SHOWN / 2);
    let times: Vec<String> = items
        .iter()
        .skip(first)
        .take(SHOWN)
        .map(|it| format_duration(it.at_ms))
        .collect();
    // Every time on one line, in a column as wide as the longest shown
    // ("12 min 5.250 s"), so the titles line up.
    let at_chars = times.iter().map(|t| t.chars().count()).max().unwrap_or(4);
    let lines = items
        .iter()
        .enumerate()
        .skip(first)
        .take(SHOWN)
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
    let variants = &v.result.variants;
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
            <ol class="story-list" ref={v.list_ref} data-column={column.to_string()} start={(first + 1).to_string()}
                style={format!("--at-chars: {at_chars}")}>
                { for lines }
            </ol>
        </section>
    }
}
