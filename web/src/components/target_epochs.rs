//! What a streams-protocol column (KIP-1071, no rounds) draws over its
//! lanes: a marker per target assignment epoch (hover or tap for details,
//! like a round marker) and, on each lane, a thin band per StreamThread
//! showing its reconciliation state over time (`CurrentAssignmentBuilder`:
//! revoking, waiting for a release, assigned). Composed by the timeline
//! bodies; read from the trace (`state::target_view`).

use engine::fixed::{clamp, Fixed};
use engine::layout::{LayoutOptions, TimeAxis, TimelineLayout};
use engine::trace::Trace;
use engine::wording::duration as format_duration;
use yew::prelude::*;

use crate::components::markers::{f0, f1};
use crate::state::target_view::{band_title, why, BandKind};

/// The target assignment markers of `trace` in `axis`'s window, from the
/// layout's top down to `bottom`; `on_target` gets `(index, tapped)`.
pub fn epoch_markers(
    trace: &Trace,
    axis: &TimeAxis,
    o: LayoutOptions,
    bottom: f64,
    on_target: &Callback<(usize, bool)>,
) -> Html {
    if !trace.rounds.is_empty() {
        return Html::default();
    }
    let marks = trace
        .target_assignments
        .iter()
        .enumerate()
        .filter(|(_, a)| axis.shows(a.computed_ms))
        .map(|(i, a)| {
            let x = axis.x(a.computed_ms);
            let hover = {
                let on_target = on_target.clone();
                Callback::from(move |e: MouseEvent| {
                    if e.buttons() == 0 {
                        on_target.emit((i, false));
                    }
                })
            };
            let tap = on_target.reform(move |_: MouseEvent| (i, true));
            html! {
                <g class="target-epoch" data-target={i.to_string()} data-epoch={a.epoch.to_string()}
                   data-at={a.computed_ms.to_string()}>
                    <line class="target-marker" x1={f1(x)} x2={f1(x)} y1={f0(o.top)} y2={f0(bottom)} />
                    <path class="target-tick" d={format!("M{x:.1} {bottom:.0}l-4 3 4 3 4-3z", bottom = Fixed(bottom), x = Fixed(x),)} />
                    <rect class="round-hit" x={f1(x - 5.0)} y={f0(o.top)}
                          width="10" height={f0(bottom - o.top + 6.0)}
                          onmouseenter={hover} onclick={tap}>
                        <title>{ format!("target assignment epoch {} at {}: {}", a.epoch, format_duration(a.computed_ms), why(trace, a)) }</title>
                    </rect>
                </g>
            }
        });
    html! { <g class="target-epochs">{ for marks }</g> }
}

/// Reconciliation bands along the bottom of each drawn lane: the lanes are
/// matched to `whole`'s workers by name (a drill-down renumbers them).
pub fn reconciliation_bands(whole: &Trace, lay: &TimelineLayout, axis: &TimeAxis) -> Html {
    if whole.member_reconciliation.is_empty() {
        return Html::default();
    }
    let pad = lay.options.lane_padding - 1.0;
    let lanes = lay.lanes.iter().filter_map(|lane| {
        lane.worker?;
        let w = whole.worker_index(&lane.label)?;
        let spans: Vec<_> = whole
            .member_reconciliation
            .iter()
            .filter(|s| s.worker == w && s.end_ms >= axis.from_ms && s.start_ms <= axis.to_ms)
            .collect();
        let threads = spans.iter().map(|s| s.thread + 1).max()?;
        let h = clamp(pad / f64::from(threads), 1.0, 3.0);
        let bottom = lane.y + lane.height - 1.0;
        let bands = spans.into_iter().map(|s| {
            let x0 = axis.x(s.start_ms.max(axis.from_ms));
            let x1 = axis.x(s.end_ms.min(axis.to_ms));
            let kind = BandKind::of(s);
            let y = bottom - h * f64::from(s.thread + 1);
            html! {
                <rect class={classes!("recon", kind.class())} data-state={s.state.kafka_name()}
                      x={f1(x0)} y={f1(y)} width={f1((x1 - x0).max(0.5))} height={f1(h)}>
                    <title>{ band_title(whole, s) }</title>
                </rect>
            }
        });
        Some(html! { <g class="recon-lane" data-lane={lane.label.clone()}>{ for bands }</g> })
    });
    html! { <g class="reconciliation">{ for lanes }</g> }
}
