//! The static part of a summarised timeline: one lane per group of workers
//! (and one for unassigned work) showing how many tasks were in each state
//! over time, stacked. Clicking a group drills down into its workers.

use engine::fixed::Fixed;
use std::fmt::Write as _;

use engine::layout::{state_name, TimeAxis, TimelineLayout, LEGEND};
use engine::run::RunResult;
use yew::prelude::*;

use crate::components::markers::f1;

use crate::components::markers::{marker_layer, markers_markup};
use crate::shared::Shared;
use crate::state::numbers::thousands;
use crate::state::summary::{Group, STATES};

/// Height of one group lane, and the gap below it.
pub const GROUP_LANE: f64 = 30.0;
const GAP: f64 = 3.0;

/// The y of group lane `i` below `top`.
pub fn lane_y(top: f64, i: usize) -> f64 {
    top + i as f64 * (GROUP_LANE + GAP)
}

/// The bottom of `n` group lanes.
pub fn lanes_bottom(top: f64, n: usize) -> f64 {
    lane_y(top, n) - GAP
}

/// Props of [`SummaryBody`].
#[derive(Properties, PartialEq)]
pub struct SummaryBodyProps {
    /// The whole result (rounds and events from its trace).
    pub result: Shared<RunResult>,
    /// Which column.
    pub index: usize,
    /// The groups.
    pub groups: Shared<Vec<Group>>,
    /// The frame: sizes and the whole run's axis.
    pub frame: Shared<TimelineLayout>,
    /// The window of the time axis shown.
    pub axis: TimeAxis,
    /// A round was hovered or tapped.
    pub on_round: Callback<(usize, bool)>,
    /// A group was clicked.
    pub on_drill: Callback<usize>,
}

/// `worker-1 … worker-40` shortened to `worker-1…40` where the names share a prefix.
fn short_label(label: &str) -> String {
    match label.split_once(" … ") {
        Some((a, b)) => {
            let common = a
                .char_indices()
                .zip(b.chars())
                .take_while(|((_, x), y)| x == y && !x.is_ascii_digit())
                .last()
                .map_or(0, |((i, c), _)| i + c.len_utf8());
            format!("{a}…{}", &b[common..])
        }
        None => label.to_string(),
    }
}

/// One stacked area per state of one group, as paths (`d`) in legend order.
fn stacked_paths(g: &Group, axis: &TimeAxis, y0: f64) -> Vec<(usize, String)> {
    let scale = (GROUP_LANE - 3.0) / f64::from(g.peak.max(1));
    let bottom = y0 + GROUP_LANE;
    let n = g.times.len();
    // Cumulative totals below and including each state, per change point.
    let cum: Vec<[u32; STATES]> = g
        .counts
        .iter()
        .map(|c| {
            let mut acc = 0;
            let mut out = [0; STATES];
            for (s, v) in c.iter().enumerate() {
                acc += v;
                out[s] = acc;
            }
            out
        })
        .collect();
    let xs: Vec<f64> = g
        .times
        .iter()
        .map(|&t| axis.x(t))
        .chain([axis.x(u64::MAX)])
        .collect();
    let mut out = Vec::new();
    for s in 0..STATES {
        if g.counts.iter().all(|c| c[s] == 0) {
            continue;
        }
        let y = |v: u32| bottom - f64::from(v) * scale;
        let mut d = String::new();
        // Upper edge left to right, then the lower edge back.
        let _ = write!(d, "M{:.1} {:.1}", Fixed(xs[0]), Fixed(y(cum[0][s])));
        for i in 0..n {
            let _ = write!(d, "V{:.1}H{:.1}", Fixed(y(cum[i][s])), Fixed(xs[i + 1]));
        }
        for i in (0..n).rev() {
            let lower = if s == 0 { 0 } else { cum[i][s - 1] };
            let _ = write!(d, "V{:.1}H{:.1}", Fixed(y(lower)), Fixed(xs[i]));
        }
        d.push('z');
        out.push((s, d));
    }
    out
}

/// The summarised lanes and the markers.
#[component]
pub fn SummaryBody(props: &SummaryBodyProps) -> Html {
    let run = &props.result.variants[props.index];
    let axis = &props.axis;
    let o = props.frame.options;
    let bottom = lanes_bottom(o.top, props.groups.len());
    let lanes = props.groups.iter().enumerate().map(|(i, g)| {
        let y0 = lane_y(o.top, i);
        let onclick = props.on_drill.reform(move |_: MouseEvent| i);
        let paths = stacked_paths(g, axis, y0);
        let short = short_label(&g.label);
        let (first, last) = match short.split_once('…') {
            Some((a, b)) => (a.to_string(), Some(b.to_string())),
            None => (short.clone(), None),
        };
        html! {
            <g class="group" key={g.label.clone()} data-group={i.to_string()} data-lane={g.label.clone()} {onclick}>
                <title>{ format!("{}: up to {} tasks. Click to see these workers one by one.", g.label, thousands(u64::from(g.peak))) }</title>
                <rect class={classes!("lane-bg", (i % 2 == 1).then_some("odd"))} x="0" y={f1(y0)}
                      width={f1(o.width)} height={format!("{GROUP_LANE:.0}", GROUP_LANE = Fixed(GROUP_LANE),)} />
                <text class="lane-label" x="4" y={f1(y0 + 12.0)}>{ first.to_string() }</text>
                if let Some(last) = last {
                    <text class="lane-more" x="4" y={f1(y0 + 24.0)}>{ format!("… {last}") }</text>
                }
                { for paths.into_iter().map(|(s, d)| {
                    let state = state_name(LEGEND[s].0);
                    html! { <path class={classes!("bars", state)} data-state={state} {d} /> }
                }) }
            </g>
        }
    });
    html! {
        <g class="timeline-body summary">
            // Keyed, in an element of their own (see `TimelineBody`).
            <g class="lanes">{ for lanes }</g>
            { marker_layer(markers_markup(&run.trace, axis, o, bottom), &props.on_round) }
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_shorten_shared_prefixes() {
        assert_eq!(short_label("worker-1 … worker-40"), "worker-1…40");
        assert_eq!(short_label("worker-7"), "worker-7");
        assert_eq!(short_label("unassigned"), "unassigned");
    }
}
