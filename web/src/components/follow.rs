//! Following one connector or task: its bars outlined on every lane it
//! visited, its moves between workers marked, and the tooltip naming the
//! bar under the pointer. Everything is read from the trace
//! (`Trace::item_intervals`), never from drawn shapes.

use engine::fixed::Fixed;
use engine::layout::{item_moves, state_name, Bar, TimeAxis, TimelineLayout};
use engine::trace::{StateInterval, Trace};
use engine::wording::duration as format_duration;
use yew::prelude::*;

use crate::components::markers::f1;

/// The followed item's outline and moves on one timeline, or `None` when
/// this trace has no item of that label.
pub fn follow_overlay(
    trace: &Trace,
    lay: &TimelineLayout,
    axis: &TimeAxis,
    label: &str,
) -> Option<Html> {
    let item = trace.item_index(label)?;
    let intervals = path(trace, item);
    let o = lay.options;
    let shown = intervals
        .iter()
        .filter(|iv| iv.end_ms >= axis.from_ms && iv.start_ms <= axis.to_ms)
        .filter_map(|iv| {
            let y = lay.row_y(iv.worker, item)?;
            let x = axis.x(iv.start_ms);
            let w = (axis.x(iv.end_ms) - x).max(1.0);
            Some(html! {
                <rect class={classes!("follow-bar", state_name(iv.state))} x={f1(x)} y={f1(y - 1.0)}
                      width={f1(w)} height={f1(o.row_height + 2.0)} />
            })
        });
    let moves = item_moves(&intervals)
        .into_iter()
        .filter(|m| axis.shows(m.at_ms))
        .filter_map(|m| {
            let (y0, y1) = (lay.row_y(Some(m.from), item)?, lay.row_y(Some(m.to), item)?);
            let x = axis.x(m.at_ms);
            let half = o.row_height / 2.0;
            Some(html! {
                <g class="follow-move" data-at={m.at_ms.to_string()}>
                    <line x1={f1(x)} x2={f1(x)} y1={f1(y0 + half)} y2={f1(y1 + half)} />
                    <circle cx={f1(x)} cy={f1(y1 + half)} r="3" />
                </g>
            })
        });
    Some(html! {
        <g class="follow" data-item={label.to_string()}>
            { for shown }
            { for moves }
        </g>
    })
}

/// One item's intervals in time order: `Trace::item_intervals` without
/// merging, and without a generic sort (an item has tens of intervals; an
/// insertion sort is small in the page's WebAssembly).
fn path(trace: &Trace, item: u32) -> Vec<StateInterval> {
    let mut out: Vec<StateInterval> = Vec::new();
    for iv in trace.intervals().filter(|iv| iv.item == item) {
        let at = out
            .iter()
            .rposition(|o| o.start_ms <= iv.start_ms)
            .map_or(0, |i| i + 1);
        out.insert(at, iv);
    }
    out
}

/// The tooltip of a bar at `(x, y)` CSS pixels in the timeline's wrapper.
pub fn tooltip(trace: &Trace, bar: &Bar, x: f64, y: f64, flip: bool) -> Html {
    let label = trace
        .items
        .get(bar.item as usize)
        .map_or("?", |i| i.label.as_str());
    let owner = bar
        .worker
        .and_then(|w| trace.workers.get(w as usize))
        .map_or("unassigned", String::as_str);
    // Keep it inside the column: left of the pointer past the middle (`flip`).
    let style = format!(
        "left: {x:.0}px; top: {:.0}px",
        Fixed(y + 14.0),
        x = Fixed(x)
    );
    html! {
        <div class={classes!("bar-tooltip", flip.then_some("flip"))} role="tooltip" {style}
             data-item={label.to_string()}>
            <b class="tip-item">{ label }</b>
            <span class={classes!("tip-state", state_name(bar.state))}>{ state_name(bar.state) }</span>
            <span>{"on "}<b class="tip-owner">{ owner }</b></span>
            <span>{ format!("from {} for {}", format_duration(bar.start_ms), format_duration(bar.end_ms - bar.start_ms)) }</span>
        </div>
    }
}
