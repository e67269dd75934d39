//! A column's story, one line per scenario event, JoinGroup/SyncGroup round
//! and protocol step, with the engine's explanation. The line under the
//! playhead is highlighted and kept in view; clicking a line moves the
//! playhead there (and shows a round's details).

use engine::report::format_duration;
use engine::run::RunResult;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::shared::Shared;
use crate::state::story::{current, story, StoryKind};

/// Props of [`StoryList`].
#[derive(Properties, PartialEq)]
pub struct StoryListProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// Whose story.
    pub column: usize,
    /// Tell another column's story.
    pub on_column: Callback<usize>,
    /// The playhead.
    pub t_ms: u64,
    /// Move the playhead.
    pub on_seek: Callback<u64>,
    /// A round was chosen: (column, round, tapped).
    pub on_round: Callback<(usize, usize, bool)>,
}

/// Lines drawn around the current one (a 1,000-worker run has thousands).
const SHOWN: usize = 120;

/// The story list.
#[component]
pub fn StoryList(props: &StoryListProps) -> Html {
    let items = use_memo((props.result.clone(), props.column), |(r, c)| {
        r.variants
            .get(*c)
            .map(|v| story(&v.trace))
            .unwrap_or_default()
    });
    let now = current(&items, props.t_ms);
    let list_ref = use_node_ref();
    // Keep the current line in view inside the list (never scroll the page).
    {
        let list_ref = list_ref.clone();
        use_effect_with((now, props.column), move |_| {
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
        });
    }
    let first = now.unwrap_or(0).saturating_sub(SHOWN / 2);
    let column = props.column;
    let lines = items
        .iter()
        .enumerate()
        .skip(first)
        .take(SHOWN)
        .map(|(i, it)| {
            let at = it.at_ms;
            let kind = it.kind;
            let onclick = {
                let (on_seek, on_round) = (props.on_seek.clone(), props.on_round.clone());
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
                        <span class="story-at">{ format_duration(at) }</span>
                        <span class="story-title">{ &it.title }</span>
                        <span class="story-text">{ &it.text }</span>
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
                            let pick = props.on_column.reform(move |_: MouseEvent| i);
                            html! {
                                <button class={classes!((i == column).then_some("active"))} aria-pressed={(i == column).to_string()}
                                        onclick={pick}>{ &v.label }</button>
                            }
                        }) }
                    </div>
                }
            </header>
            <ol class="story-list" ref={list_ref} data-column={column.to_string()} start={(first + 1).to_string()}>
                { for lines }
            </ol>
        </section>
    }
}
