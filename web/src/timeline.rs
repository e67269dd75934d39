//! One column's timeline: the static drawing ([`TimelineBody`]) under a live
//! overlay (playhead, the not-yet-played part veiled, the selected round).
//! Dragging anywhere on it scrubs the shared playhead.
//!
//! Geometry comes from the engine's `TimelineLayout`, shared with the CLI's
//! SVG export, laid out at the element's real pixel width.

use std::cell::Cell;
use std::rc::Rc;

use engine::layout::{LayoutOptions, TimelineLayout};
use engine::run::RunResult;
use web_sys::Element;
use yew::prelude::*;

use crate::hooks::use_element_width;
use crate::shared::Shared;
use crate::timeline_body::TimelineBody;

/// Props of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// Which column.
    pub index: usize,
    /// The shared playhead.
    pub t_ms: u64,
    /// The selected round, if it is in this column.
    pub selected: Option<usize>,
    /// Move the playhead.
    pub on_seek: Callback<u64>,
    /// A round was hovered (`false`) or tapped (`true`).
    pub on_round: Callback<(usize, bool)>,
    /// Scrubbing started (`true`) or ended.
    pub on_scrub: Callback<bool>,
}

/// Layout options for a width: narrower labels on a phone.
pub fn options_for(width: f64) -> LayoutOptions {
    LayoutOptions {
        width: width.max(240.0),
        label_width: if width < 520.0 { 70.0 } else { 86.0 },
        // Two rows of event labels above the lanes.
        top: 34.0,
        ..LayoutOptions::default()
    }
}

/// The timeline of one run, with the playhead.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let node = use_node_ref();
    let width = use_element_width(node.clone(), 600.0).round();
    let layout = {
        let result = props.result.clone();
        let index = props.index;
        use_memo((result, index, width as u64), move |(result, index, _)| {
            Shared::new(TimelineLayout::new(
                &result.variants[*index].trace,
                options_for(width),
            ))
        })
    };
    let layout: Shared<TimelineLayout> = (*layout).clone();
    let lay = &*layout;
    let o = lay.options;
    let bottom = lay.lanes_bottom();
    let trace = &props.result.variants[props.index].trace;
    let x_now = lay.x(props.t_ms);
    let x_end = lay.x(trace.end_ms);

    // Scrubbing: pointer capture keeps the drag going outside the element.
    // (Yew delegates events from its root, so `current_target` is not the
    // SVG; measure through a node ref instead.)
    let svg_ref = use_node_ref();
    let dragging = use_mut_ref(|| Cell::new(false));
    let time_at = {
        let (layout, svg_ref) = (layout.clone(), svg_ref.clone());
        move |e: &PointerEvent| -> Option<u64> {
            let el: Element = svg_ref.cast()?;
            let rect = el.get_bounding_client_rect();
            if rect.width() <= 0.0 {
                return None;
            }
            let x = (f64::from(e.client_x()) - rect.left()) * layout.options.width / rect.width();
            Some(layout.time_at(x))
        }
    };
    let time_at = Rc::new(time_at);
    let on_down = {
        let (time_at, dragging, on_seek, on_scrub, svg_ref) = (
            time_at.clone(),
            dragging.clone(),
            props.on_seek.clone(),
            props.on_scrub.clone(),
            svg_ref.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            if e.button() != 0 {
                return;
            }
            if let Some(el) = svg_ref.cast::<Element>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
            dragging.borrow().set(true);
            on_scrub.emit(true);
            if let Some(t) = time_at(&e) {
                on_seek.emit(t);
            }
        })
    };
    let on_move = {
        let (time_at, dragging, on_seek) =
            (time_at.clone(), dragging.clone(), props.on_seek.clone());
        Callback::from(move |e: PointerEvent| {
            if dragging.borrow().get() {
                if let Some(t) = time_at(&e) {
                    on_seek.emit(t);
                }
            }
        })
    };
    let on_up = {
        let (dragging, on_scrub) = (dragging.clone(), props.on_scrub.clone());
        Callback::from(move |_: PointerEvent| {
            if dragging.borrow().replace(false) {
                on_scrub.emit(false);
            }
        })
    };

    let selected = props
        .selected
        .and_then(|i| trace.rounds.get(i).map(|r| (i, r)));

    html! {
        <div class="timeline-wrap" ref={node}>
            <svg ref={svg_ref} class="timeline" xmlns="http://www.w3.org/2000/svg"
                 width={format!("{:.0}", o.width)} height={format!("{:.0}", lay.height)}
                 viewBox={format!("0 0 {:.0} {:.0}", o.width, lay.height)}
                 role="img" aria-label={format!("Timeline of {}: a lane per worker, bars per connector and task", trace.label)}
                 onpointerdown={on_down} onpointermove={on_move}
                 onpointerup={on_up.clone()} onpointercancel={on_up}>
                <TimelineBody result={props.result.clone()} index={props.index}
                              layout={layout.clone()} on_round={props.on_round.clone()} />
                <g class="overlay">
                    if x_now < x_end - 0.5 {
                        <rect class="veil" x={format!("{x_now:.1}")} y={format!("{:.0}", o.top)}
                              width={format!("{:.1}", x_end - x_now)} height={format!("{:.0}", bottom - o.top)} />
                    }
                    if let Some((i, r)) = selected {
                        <g class="selected-round" data-round={i.to_string()}>
                            <rect class="selected-band" x={format!("{:.1}", lay.x(r.started_ms) - 1.5)} y={format!("{:.0}", o.top)}
                                  width={format!("{:.1}", (lay.x(r.completed_ms) - lay.x(r.started_ms)).max(0.0) + 3.0)}
                                  height={format!("{:.0}", bottom - o.top)} />
                        </g>
                    }
                    <g class="playhead" data-t={props.t_ms.to_string()}>
                        <line x1={format!("{x_now:.1}")} x2={format!("{x_now:.1}")} y1={format!("{:.0}", o.top - 2.0)} y2={format!("{bottom:.0}")} />
                        <circle cx={format!("{x_now:.1}")} cy={format!("{:.0}", o.top - 2.0)} r="4" />
                    </g>
                </g>
            </svg>
        </div>
    }
}
