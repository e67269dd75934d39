//! Next to the timelines: the selected round's details and the story of
//! one column. Beside the columns on a wide screen (sticky, so it stays in
//! view), a sheet along the bottom of a narrow one. Stepping to a round
//! (→, ←, the buttons) moves the keyboard focus to its details.

use engine::run::RunResult;
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::browser::hooks::scroll_into_view_nearest;
use crate::components::round_details::RoundDetails;
use crate::components::story_list::{keep_current_in_view, story_list, StoryView};
use crate::shared::Shared;
use crate::state::playback::RoundRef;
use crate::state::story::{current, story};

/// Props of [`SidePanel`].
#[derive(Properties, PartialEq)]
pub struct SidePanelProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// The playhead.
    pub t_ms: u64,
    /// The selected round.
    pub selected: Option<RoundRef>,
    /// Counts round steps; each moves the focus to the details.
    pub steps_taken: u64,
    /// Move the playhead.
    pub on_seek: Callback<u64>,
    /// A round was chosen: (column, round, tapped).
    pub on_round: Callback<(usize, usize, bool)>,
    /// Close the round details.
    pub on_close: Callback<()>,
}

/// The side panel.
#[component]
pub fn SidePanel(props: &SidePanelProps) -> Html {
    let details_ref = use_node_ref();
    // The story follows the column of the selected round.
    let column = use_state_eq(|| 0usize);
    {
        let column = column.clone();
        use_effect_with(props.selected.map(|s| s.variant), move |v| {
            if let Some(v) = v {
                column.set(*v);
            }
        });
    }
    // Focus follows a step (not a hover): into the details, scrolled into view.
    {
        let details_ref = details_ref.clone();
        use_effect_with(props.steps_taken, move |n| {
            if *n > 0 {
                if let Some(el) = details_ref.cast::<HtmlElement>() {
                    let options = web_sys::FocusOptions::new();
                    options.set_prevent_scroll(true);
                    let _ = el.focus_with_options(&options);
                    scroll_into_view_nearest(&el);
                }
            }
        });
    }
    let column_n = (*column).min(props.result.variants.len().saturating_sub(1));
    let items = use_memo((props.result.clone(), column_n), |(r, c)| {
        r.variants
            .get(*c)
            .map(|v| story(&v.trace))
            .unwrap_or_default()
    });
    let now = current(&items, props.t_ms);
    let list_ref = use_node_ref();
    {
        let list_ref = list_ref.clone();
        use_effect_with((now, column_n), move |_| keep_current_in_view(&list_ref));
    }
    let on_column = {
        let column = column.clone();
        Callback::from(move |c: usize| column.set(c))
    };
    html! {
        <aside class={classes!("side-panel", props.selected.is_some().then_some("has-details"))} aria-label="Round details and story">
            if let Some(s) = props.selected {
                <RoundDetails result={props.result.clone()} index={s.variant} round={s.round}
                              on_close={props.on_close.clone()} node={details_ref} />
            }
            { story_list(
                StoryView { result: &props.result, items: &items, column: column_n, now, list_ref },
                &on_column, &props.on_seek, &props.on_round,
            ) }
        </aside>
    }
}
