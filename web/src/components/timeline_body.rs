//! The static part of a detailed timeline: a lane per worker (and one for
//! unassigned work), a row per connector and task, bars coloured by state,
//! then the markers. It only changes with the result, the width or the
//! drill-down and the window shown, so the playhead can move sixty times a
//! second without redrawing thousands of shapes.
//!
//! Bars of one state on one lane are one `<path>`: the browser keeps a few
//! nodes per lane however many connectors and tasks a worker runs.

use engine::fixed::Fixed;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use engine::layout::{state_name, TimeAxis, TimelineLayout, LEGEND};
use engine::run::RunResult;
use engine::trace::{ItemState, Trace, WorkerState};
use yew::prelude::*;

use crate::components::markers::f1;

use crate::browser::profile;
use crate::components::markers::markers;
use crate::components::target_epochs::reconciliation_bands;
use crate::shared::Shared;
use crate::state::numbers::thousands;

/// Props of [`TimelineBody`].
#[derive(Properties, PartialEq)]
pub struct TimelineBodyProps {
    /// The whole result (rounds and events come from its trace).
    pub result: Shared<RunResult>,
    /// Which column.
    pub index: usize,
    /// The lanes to draw, when not the whole trace's (a drill-down).
    pub lanes: Option<Shared<Trace>>,
    /// Geometry of the lanes drawn.
    pub layout: Shared<TimelineLayout>,
    /// The window of the time axis shown.
    pub axis: TimeAxis,
    /// A round was hovered (`false`) or tapped/clicked (`true`).
    pub on_round: Callback<(usize, bool)>,
    /// Draw only lanes overlapping this vertical range (a tall timeline
    /// scrolled through); `None` draws every lane.
    #[prop_or_default]
    pub window: Option<(f64, f64)>,
}

/// Time ranges `[start, end)`.
type Ranges = Vec<(u64, u64)>;

/// Where a worker lane had no process (`down`) or a frozen one.
fn process_gaps(trace: &Trace, worker: u32) -> (Ranges, Ranges) {
    let mut spans: Vec<_> = trace
        .worker_spans
        .iter()
        .filter(|s| s.worker == worker)
        .collect();
    engine::sort_by_key::sort_by_u64_key(&mut spans, |s| s.start_ms);
    let mut down = Vec::new();
    let mut frozen = Vec::new();
    let mut covered = 0;
    for s in spans {
        if s.start_ms > covered {
            down.push((covered, s.start_ms));
        }
        covered = covered.max(s.end_ms);
        if s.state == WorkerState::Frozen {
            frozen.push((s.start_ms, s.end_ms));
        }
    }
    if covered < trace.end_ms {
        down.push((covered, trace.end_ms));
    }
    (down, frozen)
}

/// True when some of `[a, b)` is on the axis.
fn shows(axis: &TimeAxis, (a, b): (u64, u64)) -> bool {
    b >= axis.from_ms && a <= axis.to_ms
}

/// Lanes, bars, axis, round and event markers of one run.
#[component]
pub fn TimelineBody(props: &TimelineBodyProps) -> Html {
    let run = &props.result.variants[props.index];
    let trace: &Trace = props.lanes.as_deref().unwrap_or(&run.trace);
    let lay = &*props.layout;
    let axis = props.axis;
    let o = lay.options;

    let visible = |y: f64, h: f64| props.window.is_none_or(|(lo, hi)| y + h >= lo && y <= hi);
    // Lanes drawn whole: a lane near the screen gets all its bars.
    let shown: HashSet<Option<u32>> = lay
        .lanes
        .iter()
        .filter(|l| visible(l.y, l.height))
        .map(|l| l.worker)
        .collect();
    // One path per (lane, state).
    let paths = profile::timed("bar paths", || {
        let mut paths: HashMap<(Option<u32>, ItemState), String> = HashMap::new();
        for bar in lay
            .bars_on(trace, axis)
            .filter(|b| shown.contains(&b.worker))
        {
            let d = paths.entry((bar.worker, bar.state)).or_default();
            let _ = write!(
                d,
                "M{:.1} {:.1}h{:.1}v{}h-{:.1}z",
                Fixed(bar.x),
                Fixed(bar.y),
                Fixed(bar.width),
                Fixed(o.row_height),
                Fixed(bar.width)
            );
        }
        paths
    });

    let lanes = lay.lanes.iter().enumerate().filter(|(_, lane)| visible(lane.y, lane.height)).map(|(i, lane)| {
        let (down, frozen) = match lane.worker {
            Some(w) => process_gaps(trace, w),
            None => (Vec::new(), Vec::new()),
        };
        let gap = |class: &'static str, (a, b): (u64, u64)| {
            let x = axis.x(a);
            html! {
                <rect class={class} x={f1(x)} y={f1(lane.y)}
                      width={f1((axis.x(b) - x).max(0.0))} height={f1(lane.height)} />
            }
        };
        let label_title = match lane.worker {
            Some(_) => format!("{}: {} connectors and tasks ran here", lane.label, thousands((lane.rows.len() + lane.hidden) as u64)),
            None => format!("{} connectors and tasks waited unassigned", thousands((lane.rows.len() + lane.hidden) as u64)),
        };
        html! {
            <g class="lane" key={lane.label.clone()} data-lane={lane.label.clone()}>
                <rect class={classes!("lane-bg", (i % 2 == 1).then_some("odd"))}
                      x="0" y={f1(lane.y)} width={f1(o.width)} height={f1(lane.height)} />
                { for down.into_iter().filter(|g| shows(&axis, *g)).map(|g| gap("lane-down", g)) }
                { for frozen.into_iter().filter(|g| shows(&axis, *g)).map(|g| gap("lane-frozen", g)) }
                <text class="lane-label" x="4" y={f1(lane.y + 13.0)}>
                    { &lane.label }<title>{ label_title }</title>
                </text>
                if lane.hidden > 0 {
                    <text class="lane-more" x="4" y={f1(lane.y + lane.height - 4.0)}>
                        { format!("+{} more", thousands(lane.hidden as u64)) }
                    </text>
                }
                { for LEGEND.iter().filter_map(|(state, _)| {
                    paths.get(&(lane.worker, *state)).map(|d| html! {
                        <path class={classes!("bars", state_name(*state))} data-state={state_name(*state)} d={d.clone()} />
                    })
                }) }
            </g>
        }
    });

    html! {
        <g class="timeline-body" data-lanes={lay.lanes.len().to_string()}>
            // The keyed lanes get an element of their own: `{ for … }` is
            // spliced into its parent's children, and a list with unkeyed
            // siblings is matched by position from its end, so a worker
            // more or less rebuilt every lane (issue #13).
            <g class="lanes">{ for lanes }</g>
            { reconciliation_bands(&run.trace, lay, &axis) }
            { markers(&run.trace, &axis, o, lay.lanes_bottom(), &props.on_round) }
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_cover_time_without_a_process() {
        let result = engine::run::run(&engine::presets::default_preset().scenario());
        let trace = &result.variants[0].trace;
        // worker-4 joins at 30 s: no process before.
        let w4 = trace.worker_index("worker-4").unwrap();
        let (down, _) = process_gaps(trace, w4);
        assert_eq!(down.first().map(|g| g.0), Some(0));
        assert!(down[0].1 >= 30_000);
    }
}
