//! The comparison: playback controls, the running-tasks chart, the legend
//! and one column per compared protocol, all on one shared time axis.

use engine::report::metric_rows;
use engine::run::RunResult;
use yew::prelude::*;

use crate::browser::profile;
use crate::components::column::Column;
use crate::components::legend::Legend;
use crate::components::running_chart::RunningChart;
use crate::components::timeline::{group_members, LaneMode};
use crate::components::transport::Transport;
use crate::shared::Shared;
use crate::state::playback::{PlayAction, RoundRef};
use crate::state::summary::Members;
use crate::state::summary::{detail_height, group_size, needs_summary};

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
            let Some(r) = result
                .variants
                .get(variant)
                .and_then(|v| v.trace.rounds.get(round))
            else {
                return;
            };
            let rr = RoundRef {
                at_ms: r.started_ms,
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
    // Big runs: groups of workers, summarised, with drill-down (shared by
    // every column, so they keep showing the same workers).
    let big = use_memo(props.result.clone(), |r| {
        profile::timed("needs summary", || needs_summary(detail_height(r)))
    });
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
    let mode = match (*big, *drill) {
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
                { format!("{workers} workers: each lane is a group of up to {size}, showing how many tasks were in each state over time. Click a group to see its workers.") }
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
                    <span>{ format!("Showing {label} (group {} of {groups})", group + 1) }</span>
                    <button onclick={set_drill(Some(group + 1))} disabled={group + 1 >= groups} aria-label="Next group">{"›"}</button>
                </p>
            }
        }
    };
    html! {
        <section class={classes!("compare", props.stale.then_some("stale"))} aria-busy={props.stale.to_string()}>
            <Transport t_ms={props.t_ms} {end_ms} playing={props.playing} speed={props.speed}
                       can_step={props.can_step} on_action={props.on_play.clone()} on_help={props.on_help.clone()} />
            <RunningChart result={props.result.clone()} t_ms={props.t_ms} on_seek={on_seek.clone()} />
            <div class="legend-row">
                <Legend result={props.result.clone()} />
                <span class="sim-status" id="sim-status">{ &props.status }</span>
            </div>
            { mode_bar }
            <div class="columns" style={format!("--columns: {}", props.result.variants.len())}>
                { for props.result.variants.iter().enumerate().map(|(i, run)| html! {
                    <Column key={format!("{i}-{}", run.label)} result={props.result.clone()} index={i} rows={rows.clone()}
                            t_ms={props.t_ms}
                            selected={props.selected.filter(|s| s.variant == i).map(|s| s.round)}
                            on_seek={on_seek.clone()} on_round={on_round.clone()} on_scrub={on_scrub.clone()}
                            on_close_round={on_close_round.clone()}
                            mode={mode.clone()} on_drill={on_drill.clone()} />
                }) }
            </div>
        </section>
    }
}
