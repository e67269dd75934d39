//! Following one connector or task: its bars outlined on every lane it
//! visited, its moves between workers marked, and the tooltip naming the
//! bar under the pointer. Everything is read from the trace
//! (`Trace::item_intervals`), never from drawn shapes.

use engine::layout::{item_moves, state_name, Bar, TimeAxis, TimelineLayout};
use engine::report::format_duration;
use engine::trace::Trace;
use yew::prelude::*;

/// The followed item's outline and moves on one timeline, or `None` when
/// this trace has no item of that label.
pub fn follow_overlay(
    trace: &Trace,
    lay: &TimelineLayout,
    axis: &TimeAxis,
    label: &str,
) -> Option<Html> {
    let item = trace.item_index(label)?;
    let intervals = trace.item_intervals(item);
    let o = lay.options;
    let shown = intervals
        .iter()
        .filter(|iv| iv.end_ms >= axis.from_ms && iv.start_ms <= axis.to_ms)
        .filter_map(|iv| {
            let y = lay.row_y(iv.worker, item)?;
            let x = axis.x(iv.start_ms);
            let w = (axis.x(iv.end_ms) - x).max(1.0);
            Some(html! {
                <rect class={classes!("follow-bar", state_name(iv.state))} x={format!("{x:.1}")} y={format!("{:.1}", y - 1.0)}
                      width={format!("{w:.1}")} height={format!("{:.1}", o.row_height + 2.0)} />
            })
        });
    let moves = item_moves(&intervals).into_iter().filter(|m| axis.shows(m.at_ms)).filter_map(|m| {
        let (y0, y1) = (lay.row_y(Some(m.from), item)?, lay.row_y(Some(m.to), item)?);
        let x = axis.x(m.at_ms);
        let half = o.row_height / 2.0;
        Some(html! {
            <g class="follow-move" data-at={m.at_ms.to_string()}>
                <line x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1={format!("{:.1}", y0 + half)} y2={format!("{:.1}", y1 + half)} />
                <circle cx={format!("{x:.1}")} cy={format!("{:.1}", y1 + half)} r="3" />
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
    let style = format!("left: {x:.0}px; top: {:.0}px", y + 14.0);
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
