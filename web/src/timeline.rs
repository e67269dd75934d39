//! One run's per-worker timeline as SVG, drawn from the engine's shared
//! layout (the same geometry as the static SVG export). Rebalance rounds and
//! scenario events are markers.

use std::rc::Rc;

use engine::layout::{axis_label, state_name, LayoutOptions, TimelineLayout};
use engine::run::RunResult;
use yew::prelude::*;

/// Props of [`Timeline`].
#[derive(Properties)]
pub struct TimelineProps {
    /// The whole result (shared, compared by pointer).
    pub result: Rc<RunResult>,
    /// Which variant.
    pub index: usize,
}

impl PartialEq for TimelineProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.result, &other.result) && self.index == other.index
    }
}

/// The SVG timeline of one run.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let run = &props.result.variants[props.index];
    let trace = &run.trace;
    let lay = TimelineLayout::new(trace, LayoutOptions::default());
    let o = lay.options;
    let bottom = lay.lanes_bottom();
    let bars = lay.bars(trace).map(|bar| {
        let state = state_name(bar.state);
        let title = format!(
            "{} {} on {} from {:.1} s to {:.1} s",
            trace.items[bar.item as usize].label,
            state,
            bar.worker
                .map_or("nobody", |w| trace.workers[w as usize].as_str()),
            bar.start_ms as f64 / 1000.0,
            bar.end_ms as f64 / 1000.0
        );
        html! {
            <rect class={classes!("bar", state)} data-state={state}
                  x={format!("{:.1}", bar.x)} y={format!("{:.1}", bar.y)}
                  width={format!("{:.1}", bar.width)} height={o.row_height.to_string()}>
                <title>{ title }</title>
            </rect>
        }
    });

    html! {
        <svg class="timeline" viewBox={format!("0 0 {} {:.0}", o.width, lay.height)} role="img"
             aria-label={format!("Timeline of {}", run.label)}>
            { for lay.lanes.iter().enumerate().map(|(i, lane)| html! {
                <g class="lane">
                    <rect class={classes!("lane-bg", (i % 2 == 1).then_some("odd"))} x="0" y={format!("{:.1}", lane.y)}
                          width={o.width.to_string()} height={format!("{:.1}", lane.height)} />
                    <text class="lane-label" x="4" y={format!("{:.1}", lane.y + 14.0)}>{ &lane.label }</text>
                    if lane.hidden > 0 {
                        <text class="lane-more" x={o.label_width.to_string()} y={format!("{:.1}", lane.y + lane.height - 3.0)}>
                            { format!("+{} more connectors and tasks", lane.hidden) }
                        </text>
                    }
                </g>
            }) }
            { for lay.ticks().into_iter().map(|ms| {
                let x = lay.x(ms);
                let anchor = if ms == 0 { "start" } else if x > o.width - 30.0 { "end" } else { "middle" };
                html! {
                    <g class="tick">
                        <line x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1={(o.top - 4.0).to_string()} y2={format!("{bottom:.0}")} />
                        <text x={format!("{x:.1}")} y={format!("{:.0}", bottom + 14.0)} text-anchor={anchor}>{ axis_label(ms) }</text>
                    </g>
                }
            }) }
            <g class="bars">{ for bars }</g>
            { for trace.rounds.iter().map(|round| {
                let x = lay.x(round.completed_ms);
                html! {
                    <line class="round-marker" data-generation={round.generation.to_string()}
                          x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1={(o.top - 6.0).to_string()} y2={format!("{bottom:.0}")}>
                        <title>{ format!("generation {}: {}", round.generation, round.explanation) }</title>
                    </line>
                }
            }) }
            { for trace.events.iter().map(|ev| {
                let x = lay.x(ev.at_ms);
                html! {
                    <g class="event-marker">
                        <path d={format!("M{x:.1} {} l-4 -7 h8 z", o.top - 8.0)} />
                        <text x={format!("{:.1}", x + 5.0)} y={(o.top - 12.0).to_string()}>{ &ev.label }</text>
                    </g>
                }
            }) }
        </svg>
    }
}
