//! One compared protocol: its label, what is happening under the playhead,
//! its headline figures, its timeline, and every metric one click away.
//! The parts sit on the rows of the columns' shared grid, so every column's
//! timeline starts at the same height.

use std::rc::Rc;

use engine::report::MetricRow;
use engine::run::RunResult;
use yew::prelude::*;

use crate::browser::hooks::use_unfolded;
use crate::components::engine_text::engine_text;
use crate::components::metric_cards::{MetricCards, HEADLINE};
use crate::components::timeline::{LaneMode, Timeline};
use crate::shared::Shared;
use crate::state::numbers::thousands;
use crate::state::series::{self, generation_at};
use crate::state::summary::Lanes;
use crate::state::target_view::{has_targets, target_epoch_at};
use crate::state::viewport::Window;

/// Props of [`Column`].
#[derive(Properties, PartialEq)]
pub struct ColumnProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// Which column.
    pub index: usize,
    /// Metric rows of the whole result.
    pub rows: Shared<Vec<MetricRow>>,
    /// The shared playhead.
    pub t_ms: u64,
    /// The selected round, when it is in this column.
    pub selected: Option<usize>,
    /// Move the playhead.
    pub on_seek: Callback<u64>,
    /// A round was hovered or tapped: (column, round, tapped).
    pub on_round: Callback<(usize, usize, bool)>,
    /// Scrubbing started or ended.
    pub on_scrub: Callback<bool>,
    /// How the timeline draws its lanes.
    pub mode: LaneMode,
    /// A summary group was clicked.
    pub on_drill: Callback<usize>,
    /// The window of the time axis shown.
    pub window: Window,
    /// End of the shared axis.
    pub end_ms: u64,
    /// Lane heights shared by every column, and each column's lane rows.
    pub lanes: Shared<Lanes>,
    /// Show another window.
    pub on_view: Callback<Option<Window>>,
    /// The followed connector or task.
    pub followed: Option<Rc<str>>,
    /// Follow one, or stop.
    pub on_follow: Callback<Option<Rc<str>>>,
}

/// A column.
#[component]
pub fn Column(props: &ColumnProps) -> Html {
    // Kept per result here: state::series caches only the newest result,
    // which is not the one shown while a newer one is about to be drawn.
    let series = use_memo(props.result.clone(), |result| series::of(&result.0));
    let (running, unassigned) = (
        &series.running[props.index],
        &series.unassigned[props.index],
    );
    // Stable across renders, so the static timeline does not redraw.
    let on_round = use_callback(
        (props.on_round.clone(), props.index),
        |(round, tapped): (usize, bool), (cb, i)| cb.emit((*i, round, tapped)),
    );
    let (unfolded, on_toggle) = use_unfolded();
    let run = &props.result.variants[props.index];
    let first_label = props
        .result
        .variants
        .first()
        .map(|v| v.label.clone())
        .unwrap_or_default();
    let t = props.t_ms;
    let generation = generation_at(&run.trace, t)
        .map_or_else(|| "–".to_string(), |g| thousands(g.max(0) as u64));
    let target_epoch =
        target_epoch_at(&run.trace, t).map_or_else(|| "–".to_string(), |e| e.to_string());
    html! {
        <article class="column" data-variant={props.index.to_string()} data-label={run.label.clone()}
                 data-fingerprint={run.fingerprint.clone()} data-rounds={run.trace.rounds.len().to_string()}
                 data-targets={run.trace.target_assignments.len().to_string()}
                 data-end={run.trace.end_ms.to_string()}
                 data-cut={run.trace.cut.map(|c| c.at_ms.to_string())}>
            <header class="column-head">
                <h2><span class={classes!("key", format!("v{}", props.index % 4))}></span>{ &run.label }</h2>
                <p class="now" aria-label="Under the playhead">
                    <span>{"running "}<b class="now-running">{ thousands(u64::from(running.at(t))) }</b></span>
                    <span>{"unassigned "}<b>{ thousands(u64::from(unassigned.at(t))) }</b></span>
                    if has_targets(&run.trace) {
                        <span class="now-target">{"target epoch "}<b class="now-target-epoch">{ target_epoch }</b></span>
                        <span title="target assignments the broker computed">{"targets "}<b class="target-count">{ thousands(run.trace.target_assignments.len() as u64) }</b></span>
                    } else {
                        <span>{"generation "}<b class="now-generation">{ generation }</b></span>
                    }
                </p>
                if let Some(cut) = &run.trace.cut {
                    <p class="run-cut" role="note" data-cut={cut.at_ms.to_string()}>
                        <b>{"Stopped: "}</b>{ engine_text(&cut.verdict()) }{"."}
                        <span class="run-cut-metrics">{" The figures and the timeline cover the run up to the cut."}</span>
                    </p>
                }
            </header>
            <MetricCards rows={props.rows.clone()} index={props.index} first_label={first_label.clone()}
                         keys={Some(&HEADLINE[..])} />
            <Timeline result={props.result.clone()} index={props.index} t_ms={t}
                      selected={props.selected} on_seek={props.on_seek.clone()}
                      on_round={on_round} on_scrub={props.on_scrub.clone()}
                      mode={props.mode.clone()} on_drill={props.on_drill.clone()}
                      window={props.window} end_ms={props.end_ms} lanes={props.lanes.clone()}
                      on_view={props.on_view.clone()} followed={props.followed.clone()} on_follow={props.on_follow.clone()} />
            // Built once unfolded: it was a sixth of a comparison's elements,
            // redrawn by every result while nobody looked (issue #13).
            <details class="all-metrics" ontoggle={on_toggle}>
                <summary>{ format!("All metrics of {}", run.label) }</summary>
                if unfolded {
                    <MetricCards rows={props.rows.clone()} index={props.index} {first_label} keys={None::<&'static [(&'static str, &'static str)]>} />
                }
            </details>
        </article>
    }
}
