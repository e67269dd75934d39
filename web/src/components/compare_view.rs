//! The comparison: playback controls, the running-tasks chart (the
//! overview, with the zoom brush), the zoom bar, the legend, one column per
//! compared protocol on one shared time window, and the side panel (round
//! details and the story) next to them.

use std::rc::Rc;

use engine::report::metric_rows;
use engine::run::RunResult;
use yew::prelude::*;

use crate::browser::hooks::use_mounted;
use crate::browser::profile;
use crate::components::column::Column;
use crate::components::legend::Legend;
use crate::components::running_chart::RunningChart;
use crate::components::side_panel::SidePanel;
use crate::components::timeline::{group_members, LaneMode};
use crate::components::transport::Transport;
use crate::components::view_bar::view_bar;
use crate::shared::Shared;
use crate::state::numbers::thousands;
use crate::state::playback::{PlayAction, RoundRef};
use crate::state::summary::Members;
use crate::state::summary::{group_size, lanes_of};
use crate::state::target_view::stop_at;
use crate::state::viewport::{focus_window, Window};

/// Props of [`CompareView`].
#[derive(Properties, PartialEq)]
pub struct CompareViewProps {
    /// The result shown.
    pub result: Shared<RunResult>,
    /// A newer simulation is on its way (the columns are dimmed).
    pub stale: bool,
    /// Playhead.
    pub t_ms: u64,
    /// Playing?
    pub playing: bool,
    /// Speed.
    pub speed: f64,
    /// Rounds exist before / after the playhead.
    pub can_step: (bool, bool),
    /// The selected round.
    pub selected: Option<RoundRef>,
    /// Playback actions.
    pub on_play: Callback<PlayAction>,
    /// Open the keyboard help.
    pub on_help: Callback<()>,
    /// How the result was simulated, for the status line.
    pub status: AttrValue,
    /// The window zoomed or panned to; `None` shows the default focus.
    pub zoom: Option<Window>,
    /// The followed connector or task.
    pub followed: Option<Rc<str>>,
    /// Counts round steps (the details panel takes focus on each).
    pub steps_taken: u64,
}

/// The comparison view.
#[component]
pub fn CompareView(props: &CompareViewProps) -> Html {
    let rows = use_memo(props.result.clone(), |r| {
        Shared::new(profile::timed("metric rows", || metric_rows(r)))
    });
    let rows: Shared<_> = (*rows).clone();
    let end_ms = props
        .result
        .variants
        .iter()
        .map(|v| v.trace.end_ms)
        .max()
        .unwrap_or(0);
    let on_seek = use_callback(props.on_play.clone(), |t: u64, on_play| {
        on_play.emit(PlayAction::Seek(t))
    });
    let on_scrub = use_callback(props.on_play.clone(), |start: bool, on_play| {
        if start {
            on_play.emit(PlayAction::Pause);
        }
    });
    let on_round = use_callback(
        (props.on_play.clone(), props.result.clone()),
        |(variant, round, tapped): (usize, usize, bool), (on_play, result)| {
            let Some(at_ms) = result
                .variants
                .get(variant)
                .and_then(|v| stop_at(&v.trace, round))
            else {
                return;
            };
            let rr = RoundRef {
                at_ms,
                variant,
                round,
            };
            on_play.emit(PlayAction::Select(Some(rr)));
            if tapped {
                on_play.emit(PlayAction::Pause);
                on_play.emit(PlayAction::Seek(rr.at_ms));
            }
        },
    );
    let on_close_round = use_callback(props.on_play.clone(), |_: (), on_play| {
        on_play.emit(PlayAction::Select(None))
    });
    // The default window, from this result (not from the playhead's state,
    // which learns it only after this render: drawing with a stale focus
    // would draw every timeline twice per result).
    let focus = *use_memo(props.result.clone(), |r| focus_window(r));
    let window = props.zoom.unwrap_or(focus);
    let on_view = use_callback(props.on_play.clone(), |w: Option<Window>, on_play| {
        on_play.emit(PlayAction::View(w))
    });
    let on_follow = use_callback(props.on_play.clone(), |item: Option<Rc<str>>, on_play| {
        on_play.emit(PlayAction::Follow(item))
    });
    // Lane heights shared by every column, so the same worker's lane sits
    // at the same height in each, and whether the run is too big to draw in
    // detail (then groups of workers, summarised, with drill-down, shared
    // by every column so they keep showing the same workers): one pass over
    // each trace for both.
    let mounted = use_mounted();
    // Kept per result here: state::summary caches only the newest result
    // (computed in the task before it is drawn, worker::sim_client).
    let lanes = use_memo(props.result.clone(), |r| Shared(lanes_of(&r.0)));
    let (lanes, big) = ((*lanes).clone(), lanes.summarised);
    let drill = use_state_eq(|| None::<usize>);
    let workers = props
        .result
        .variants
        .iter()
        .map(|v| v.trace.workers.len())
        .max()
        .unwrap_or(0);
    let size = group_size(workers);
    let groups = workers.div_ceil(size) + 1;
    let mode = match (big, *drill) {
        (false, _) => LaneMode::Detail,
        (true, Some(group)) if group < groups => LaneMode::Drill { size, group },
        (true, _) => LaneMode::Summary { size },
    };
    let on_drill = {
        let drill = drill.clone();
        use_callback((), move |g: usize, _| drill.set(Some(g)))
    };
    let set_drill = |g: Option<usize>| {
        let drill = drill.clone();
        Callback::from(move |_: MouseEvent| drill.set(g))
    };
    let mode_bar = match &mode {
        LaneMode::Detail => html! {},
        LaneMode::Summary { size } => html! {
            <p class="mode-bar" id="mode-bar" data-mode="summary">
                { format!("{} workers: each lane is a group of up to {}, showing how many tasks were in each state over time. Click a group to see its workers.", thousands(workers as u64), thousands(*size as u64)) }
            </p>
        },
        LaneMode::Drill { size, group } => {
            let label = match group_members(workers, *size, *group) {
                Members::Workers(r) => format!("worker-{} … worker-{}", r.start + 1, r.end),
                Members::Unassigned => "unassigned work".to_string(),
            };
            html! {
                <p class="mode-bar" id="mode-bar" data-mode="drill">
                    <button id="all-groups" onclick={set_drill(None)}>{"← All groups"}</button>
                    <button onclick={set_drill(group.checked_sub(1))} disabled={*group == 0} aria-label="Previous group">{"‹"}</button>
                    <span>{ format!("Showing {label} (group {} of {})", group + 1, thousands(groups as u64)) }</span>
                    <button onclick={set_drill(Some(group + 1))} disabled={group + 1 >= groups} aria-label="Next group">{"›"}</button>
                </p>
            }
        }
    };
    html! {
        <section class={classes!("compare", props.stale.then_some("stale"), props.playing.then_some("playing"))} aria-busy={props.stale.to_string()}
                 data-window={window.to_query()}>
            <Transport t_ms={props.t_ms} {end_ms} playing={props.playing} speed={props.speed}
                       can_step={props.can_step} on_action={props.on_play.clone()} on_help={props.on_help.clone()} />
            <RunningChart result={props.result.clone()} t_ms={props.t_ms} on_seek={on_seek.clone()}
                          window={window} on_view={on_view.clone()} />
            { view_bar(window, focus, end_ms, &on_view) }
            <div class="legend-row">
                <Legend result={props.result.clone()} />
                <span class="sim-status" id="sim-status" title={props.status.clone()}>{ &props.status }</span>
            </div>
            { mode_bar }
            <div class="compare-body">
                <div class="columns" style={format!("--columns: {}", props.result.variants.len())}>
                    { for props.result.variants.iter().enumerate().map(|(i, run)| html! {
                        <Column key={format!("{i}-{}", run.label)} result={props.result.clone()} index={i} rows={rows.clone()}
                                t_ms={props.t_ms}
                                selected={props.selected.filter(|s| s.variant == i).map(|s| s.round)}
                                on_seek={on_seek.clone()} on_round={on_round.clone()} on_scrub={on_scrub.clone()}
                                mode={mode.clone()} on_drill={on_drill.clone()}
                                window={window} {end_ms} lanes={lanes.clone()}
                                on_view={on_view.clone()} followed={props.followed.clone()} on_follow={on_follow.clone()} />
                    }) }
                </div>
                // The story and the round details come in the task after the
                // columns' first render (a cold load's first result was one
                // 50-70 ms main-thread task; issue #13).
                if mounted {
                    <SidePanel result={props.result.clone()} t_ms={props.t_ms} playing={props.playing} selected={props.selected}
                               steps_taken={props.steps_taken} on_seek={on_seek.clone()} on_round={on_round.clone()}
                               on_close={on_close_round} />
                } else {
                    <aside class="side-panel"></aside>
                }
            </div>
        </section>
    }
}
