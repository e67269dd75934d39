//! The static part of a column's timeline: lanes, bars, rounds and events.
//! It only changes with the result or the width, so the playhead can move
//! sixty times a second without redrawing thousands of shapes.
//!
//! Bars of one state on one lane are one `<path>`: the browser keeps a few
//! nodes per lane however many connectors and tasks a worker runs.

use std::collections::HashMap;
use std::fmt::Write as _;

use engine::layout::{axis_label, state_name, TimelineLayout, LEGEND};
use engine::run::RunResult;
use engine::trace::{ItemState, Trace, WorkerState};
use yew::prelude::*;

use crate::shared::Shared;

/// Props of [`TimelineBody`].
#[derive(Properties, PartialEq)]
pub struct TimelineBodyProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// Which column.
    pub index: usize,
    /// Its geometry.
    pub layout: Shared<TimelineLayout>,
    /// A round was hovered (`false`) or tapped/clicked (`true`).
    pub on_round: Callback<(usize, bool)>,
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
    spans.sort_by_key(|s| s.start_ms);
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

/// Event labels on two rows above the lanes, each placed where it does not
/// overlap the previous label on its row; a label that fits nowhere is left
/// to the marker's tooltip.
fn place_labels(xs: &[(f64, usize)], width: f64) -> Vec<Option<(f64, usize, bool)>> {
    const CHAR_W: f64 = 5.6;
    let mut row_end = [f64::MIN; 2];
    xs.iter()
        .map(|&(x, chars)| {
            let w = chars as f64 * CHAR_W;
            // Right-align labels that would run off the right edge.
            let (x0, x1, end_anchor) = if x + 4.0 + w > width {
                (x - 4.0 - w, x - 4.0, true)
            } else {
                (x + 4.0, x + 4.0 + w, false)
            };
            let row = row_end.iter().position(|&e| x0 > e + 6.0)?;
            row_end[row] = x1;
            Some((if end_anchor { x - 4.0 } else { x + 4.0 }, row, end_anchor))
        })
        .collect()
}

/// Lanes, bars, axis, round and event markers of one run.
#[component]
pub fn TimelineBody(props: &TimelineBodyProps) -> Html {
    let run = &props.result.variants[props.index];
    let trace = &run.trace;
    let lay = &*props.layout;
    let o = lay.options;
    let bottom = lay.lanes_bottom();
    let right = lay.x(trace.end_ms);

    // One path per (lane, state).
    let mut paths: HashMap<(Option<u32>, ItemState), String> = HashMap::new();
    for bar in lay.bars(trace) {
        let d = paths.entry((bar.worker, bar.state)).or_default();
        let _ = write!(
            d,
            "M{:.1} {:.1}h{:.1}v{}h-{:.1}z",
            bar.x, bar.y, bar.width, o.row_height, bar.width
        );
    }

    let lanes = lay.lanes.iter().enumerate().map(|(i, lane)| {
        let (down, frozen) = match lane.worker {
            Some(w) => process_gaps(trace, w),
            None => (Vec::new(), Vec::new()),
        };
        let gap = |class: &'static str, (a, b): (u64, u64)| {
            let x = lay.x(a);
            html! {
                <rect class={class} x={format!("{x:.1}")} y={format!("{:.1}", lane.y)}
                      width={format!("{:.1}", (lay.x(b) - x).max(0.0))} height={format!("{:.1}", lane.height)} />
            }
        };
        let label_title = match lane.worker {
            Some(_) => format!("{}: {} connectors and tasks ran here", lane.label, lane.rows.len() + lane.hidden),
            None => format!("{} connectors and tasks waited unassigned", lane.rows.len() + lane.hidden),
        };
        html! {
            <g class="lane" key={lane.label.clone()} data-lane={lane.label.clone()}>
                <rect class={classes!("lane-bg", (i % 2 == 1).then_some("odd"), lane.worker.is_none().then_some("unassigned-lane"))}
                      x="0" y={format!("{:.1}", lane.y)} width={format!("{:.1}", o.width)} height={format!("{:.1}", lane.height)} />
                { for down.into_iter().map(|g| gap("lane-down", g)) }
                { for frozen.into_iter().map(|g| gap("lane-frozen", g)) }
                <text class="lane-label" x="4" y={format!("{:.1}", lane.y + 13.0)}>
                    { &lane.label }<title>{ label_title }</title>
                </text>
                if lane.hidden > 0 {
                    <text class="lane-more" x="4" y={format!("{:.1}", lane.y + lane.height - 4.0)}>
                        { format!("+{} more", lane.hidden) }
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

    let ticks = lay.ticks().into_iter().map(|ms| {
        let x = lay.x(ms);
        let anchor = if ms == 0 {
            "start"
        } else if x > o.width - 30.0 {
            "end"
        } else {
            "middle"
        };
        html! {
            <g class="tick">
                <line x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1={format!("{:.0}", o.top)} y2={format!("{bottom:.0}")} />
                <text x={format!("{x:.1}")} y={format!("{:.0}", bottom + 14.0)} text-anchor={anchor}>{ axis_label(ms) }</text>
            </g>
        }
    });

    let rounds = trace.rounds.iter().enumerate().map(|(i, round)| {
        let x = lay.x(round.started_ms);
        let hover = props.on_round.reform(move |_: MouseEvent| (i, false));
        let tap = props.on_round.reform(move |_: MouseEvent| (i, true));
        html! {
            <g class={classes!("round", (!round.delivered).then_some("undelivered"))}
               data-round={i.to_string()} data-generation={round.generation.to_string()}
               data-at={round.started_ms.to_string()}>
                <line class="round-marker" x1={format!("{x:.1}")} x2={format!("{x:.1}")}
                      y1={format!("{:.0}", o.top)} y2={format!("{bottom:.0}")} />
                <path class="round-tick" d={format!("M{x:.1} {bottom:.0}l-4 6h8z")} />
                // A wide, invisible target: the marker itself is one pixel.
                <rect class="round-hit" x={format!("{:.1}", x - 5.0)} y={format!("{:.0}", o.top)}
                      width="10" height={format!("{:.0}", bottom - o.top + 6.0)}
                      onmouseenter={hover} onclick={tap}
                      onpointerdown={Callback::from(|e: PointerEvent| e.stop_propagation())}>
                    <title>{ format!("generation {} at {}: {}", round.generation, axis_time(round.started_ms), round.explanation) }</title>
                </rect>
            </g>
        }
    });

    let event_xs: Vec<(f64, usize)> = trace
        .events
        .iter()
        .map(|e| (lay.x(e.at_ms), e.label.chars().count()))
        .collect();
    let placed = place_labels(&event_xs, o.width);
    let events = trace.events.iter().zip(placed).map(|(ev, place)| {
        let x = lay.x(ev.at_ms);
        html! {
            <g class={classes!("event-marker", (!ev.applied).then_some("skipped"))} data-at={ev.at_ms.to_string()}>
                <line class="event-line" x1={format!("{x:.1}")} x2={format!("{x:.1}")}
                      y1={format!("{:.0}", o.top)} y2={format!("{bottom:.0}")} />
                <path d={format!("M{x:.1} {:.0}l-4.5 -8h9z", o.top - 1.0)}>
                    <title>{ format!("{} at {}{}", ev.label, axis_time(ev.at_ms), if ev.applied { "" } else { " (could not apply)" }) }</title>
                </path>
                if let Some((lx, row, end)) = place {
                    <text class="event-label" x={format!("{lx:.1}")} y={format!("{:.0}", 12.0 + 12.0 * row as f64)}
                          text-anchor={if end { "end" } else { "start" }}>{ &ev.label }</text>
                }
            </g>
        }
    });

    html! {
        <g class="timeline-body">
            { for lanes }
            <g class="ticks">{ for ticks }</g>
            <rect class="axis-end" x={format!("{right:.1}")} y={format!("{:.0}", o.top)} width="1" height={format!("{:.0}", bottom - o.top)} />
            <g class="events">{ for events }</g>
            <g class="rounds">{ for rounds }</g>
        </g>
    }
}

/// `12.3 s` style time for tooltips.
pub fn axis_time(ms: u64) -> String {
    engine::report::format_duration(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_never_overlap_on_a_row() {
        let xs: Vec<(f64, usize)> = (0..20).map(|i| (100.0 + i as f64 * 20.0, 12)).collect();
        let placed = place_labels(&xs, 960.0);
        assert!(placed[0].is_some());
        let mut rows: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        for p in placed.iter().flatten() {
            rows[p.1].push(p.0);
        }
        for row in rows {
            for w in row.windows(2) {
                assert!(w[1] - w[0] >= 12.0 * 5.6, "{w:?}");
            }
        }
    }

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
