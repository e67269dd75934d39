//! Next to the timelines: the selected round's details and the story of
//! one column. Beside the columns on a wide screen (sticky, so it stays in
//! view), a sheet along the bottom of a narrow one: limited in height,
//! scrolling on its own, foldable to its title, and the stepped column's
//! lanes scrolled into sight above it. Stepping to a round (→, ←, the
//! buttons) moves the keyboard focus to its details.

use engine::run::RunResult;
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::browser::hooks::{scroll_into_view_nearest, use_after_frame};
use crate::components::round_details::RoundDetails;
use crate::components::story_list::{keep_current_in_view, use_followed_line, StoryList};
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
    /// Whether playback runs (the story then moves its lines less often).
    pub playing: bool,
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

/// Where the details are a bottom sheet (web/style.css, "The sheet"),
/// scrolls column `variant`'s timeline into sight between the sticky
/// playback bar and the sheet (their room is the timeline's
/// `scroll-margin` in the stylesheet). Every lane crosses the stepped
/// round's marker, so any lane shows it. The sheet is told by its fixed
/// position (a fixed element has no offset parent), as the stylesheet
/// chooses it by the comparison's width, which no media query can ask.
fn keep_lanes_in_sight(details: &HtmlElement, variant: usize) {
    let sheet = details.offset_parent().is_none();
    let selector = format!("article.column[data-variant=\"{variant}\"] svg.timeline");
    if let (true, Ok(Some(timeline))) = (sheet, gloo::utils::document().query_selector(&selector)) {
        scroll_into_view_nearest(&timeline);
    }
}

/// The side panel. A new result reaches it in the task after the frame
/// that draws the result's timelines: an edit's frame then lays out and
/// paints the lanes only, and the story (hundreds of lines of text) follows
/// a frame later (issue #13; docs/performance.md, "Session 30"). The
/// playhead, a hover or a step shows at once (for that one frame a
/// selected round's details are those of the result shown).
#[component]
pub fn SidePanel(props: &SidePanelProps) -> Html {
    let result = use_after_frame(props.result.clone());
    let details_ref = use_node_ref();
    // The story is the column picked, unless a round of another column was
    // selected since (kept with the pick, so no effect is needed).
    let column = use_state_eq(|| (0usize, None::<RoundRef>));
    let (picked, picked_with) = *column;
    let column_n = match props.selected {
        Some(s) if Some(s) != picked_with => s.variant,
        _ => picked,
    }
    .min(result.variants.len().saturating_sub(1));
    let items = use_memo((result.clone(), column_n), |(r, c)| {
        r.variants
            .get(*c)
            .map(|v| story(&v.trace))
            .unwrap_or_default()
    });
    let now = use_followed_line(current(&items, props.t_ms), column_n, &items, props.playing);
    let list_ref = use_node_ref();
    let folded = use_state_eq(|| false);
    let stepped_variant = props.selected.map(|s| s.variant);
    // One effect (each costs the WebAssembly): the story keeps its current
    // line in view; after a step (not a hover) the focus moves into the
    // details, scrolled into view.
    let focused_step = use_mut_ref(|| 0u64);
    {
        let (list_ref, details_ref) = (list_ref.clone(), details_ref.clone());
        use_effect_with((now, column_n, props.steps_taken), move |(_, _, steps)| {
            keep_current_in_view(&list_ref);
            if *steps > std::mem::replace(&mut *focused_step.borrow_mut(), *steps) {
                if let Some(el) = details_ref.cast::<HtmlElement>() {
                    let options = web_sys::FocusOptions::new();
                    options.set_prevent_scroll(true);
                    let _ = el.focus_with_options(&options);
                    scroll_into_view_nearest(&el);
                    if let Some(v) = stepped_variant {
                        keep_lanes_in_sight(&el, v);
                    }
                }
            }
        });
    }
    // Kept across renders, so the story list skips the side panel's.
    let on_column = {
        let column = column.clone();
        use_callback(props.selected, move |c: usize, selected| {
            column.set((c, *selected))
        })
    };
    let on_fold = {
        let folded = folded.clone();
        Callback::from(move |_: ()| folded.set(!*folded))
    };
    html! {
        <aside class={classes!("side-panel", props.selected.is_some().then_some("has-details"),
                               (*folded && props.selected.is_some()).then_some("details-folded"))}
               aria-label="Round details and story">
            if let Some(s) = props.selected {
                <RoundDetails result={result.clone()} index={s.variant} round={s.round}
                              on_close={props.on_close.clone()} node={details_ref}
                              folded={*folded} {on_fold} />
            }
            <StoryList result={result.clone()} items={Shared(items.clone())} column={column_n}
                       {now} {list_ref} {on_column} on_seek={props.on_seek.clone()}
                       on_round={props.on_round.clone()} />
        </aside>
    }
}
