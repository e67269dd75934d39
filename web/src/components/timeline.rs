//! One column's timeline: the static drawing under a live overlay
//! (playhead, the not-yet-played part veiled, the selected round).
//! Dragging anywhere on it scrubs the shared playhead.
//!
//! Three ways to draw the lanes, chosen by [`LaneMode`]: every worker with a
//! row per connector and task (geometry from the engine's `TimelineLayout`,
//! shared with the CLI's SVG export), groups of workers summarised as tasks
//! by state over time, or one group drilled into.

use std::cell::Cell;
use std::rc::Rc;

use engine::layout::{LayoutOptions, TimelineLayout};
use engine::run::RunResult;
use engine::trace::Trace;
use web_sys::Element;
use yew::prelude::*;

use crate::browser::hooks::{use_element_width, use_visible_window};
use crate::browser::profile;
use crate::components::summary_body::{lanes_bottom, SummaryBody};
use crate::components::timeline_body::TimelineBody;
use crate::shared::Shared;
use crate::state::summary::{sub_trace, summarize, Group, Members};

/// How a column draws its lanes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneMode {
    /// Every worker, a row per connector and task.
    Detail,
    /// Workers in groups of `size`, tasks by state over time.
    Summary {
        /// Workers per group.
        size: usize,
    },
    /// The workers of group `group` (of `size`) in detail.
    Drill {
        /// Workers per group.
        size: usize,
        /// Which group (the one after the last worker group is unassigned work).
        group: usize,
    },
}

/// Props of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// Which column.
    pub index: usize,
    /// How to draw the lanes.
    pub mode: LaneMode,
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
    /// A summary group was clicked.
    pub on_drill: Callback<usize>,
}

/// Lane drawings taller than this (px) draw only the lanes near the screen.
pub const VIRTUALIZE_ABOVE: f64 = 1_600.0;

/// Layout options for a width: narrower labels on a phone.
pub fn options_for(width: f64) -> LayoutOptions {
    LayoutOptions {
        width: width.max(240.0),
        label_width: if width < 520.0 { 78.0 } else { 86.0 },
        // Two rows of event labels above the lanes.
        top: 34.0,
        ..LayoutOptions::default()
    }
}

/// The members of group `group` of `size` in a trace with `workers` workers.
pub fn group_members(workers: usize, size: usize, group: usize) -> Members {
    let start = group * size;
    if start >= workers {
        Members::Unassigned
    } else {
        Members::Workers(start as u32..((group + 1) * size).min(workers) as u32)
    }
}

/// What the static part draws, computed once per result, width and mode.
enum Drawing {
    Lanes {
        layout: Shared<TimelineLayout>,
        lanes: Option<Shared<Trace>>,
    },
    Groups {
        axis: Shared<TimelineLayout>,
        groups: Shared<Vec<Group>>,
    },
}

impl Drawing {
    /// The layout whose x axis and top the overlay uses, and the lanes' bottom.
    fn frame(&self) -> (&TimelineLayout, f64, f64) {
        match self {
            Drawing::Lanes { layout, .. } => (layout, layout.lanes_bottom(), layout.height),
            Drawing::Groups { axis, groups } => {
                let bottom = lanes_bottom(axis.options.top, groups.len());
                (axis, bottom, bottom + 20.0)
            }
        }
    }
}

fn draw(trace: &Trace, mode: &LaneMode, width: f64) -> Drawing {
    let options = options_for(width);
    match mode {
        LaneMode::Detail => Drawing::Lanes {
            layout: Shared::new(profile::timed("layout", || {
                TimelineLayout::new(trace, options)
            })),
            lanes: None,
        },
        LaneMode::Drill { size, group } => {
            let sub = sub_trace(trace, &group_members(trace.workers.len(), *size, *group));
            // Keep a drilled group readable: fewer rows per lane when it has many workers.
            let lanes = sub.workers.len().max(1);
            let options = LayoutOptions {
                max_rows_per_lane: (480 / lanes).clamp(4, options.max_rows_per_lane),
                ..options
            };
            Drawing::Lanes {
                layout: Shared::new(TimelineLayout::new(&sub, options)),
                lanes: Some(Shared::new(sub)),
            }
        }
        LaneMode::Summary { size } => {
            // The axis only: a layout of a trace without lanes.
            let bare = Trace {
                end_ms: trace.end_ms,
                ..Trace::default()
            };
            Drawing::Groups {
                axis: Shared::new(TimelineLayout::new(&bare, options)),
                groups: Shared::new(profile::timed("summary", || summarize(trace, *size))),
            }
        }
    }
}

/// The timeline of one run, with the playhead.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let node = use_node_ref();
    // 0 until measured: nothing is laid out at a guessed width.
    let width = use_element_width(node.clone(), 0.0).round();
    let drawing = {
        let (result, index, mode) = (props.result.clone(), props.index, props.mode.clone());
        use_memo(
            (result, index, width as u64, mode),
            move |(result, index, _, mode)| {
                (width > 0.0).then(|| draw(&result.variants[*index].trace, mode, width))
            },
        )
    };
    let svg_ref = use_node_ref();
    // Tall lane drawings (a drilled group, a big detailed run) draw only
    // the lanes near the screen; the rest appear as they scroll into view.
    let tall = drawing
        .as_ref()
        .as_ref()
        .is_some_and(|d| matches!(d, Drawing::Lanes { .. }) && d.frame().2 > VIRTUALIZE_ABOVE);
    let visible_window = use_visible_window(svg_ref.clone(), tall);
    let dragging = use_mut_ref(|| Cell::new(false));
    // Where the pointer went down, while it is down.
    let press_x: Rc<Cell<Option<f64>>> = use_memo((), |_| Cell::new(None));
    let drawing_rc = drawing.clone();
    let Some(drawing) = drawing.as_ref() else {
        return html! { <div class="timeline-wrap pending" ref={node}></div> };
    };
    let (lay, bottom, height) = drawing.frame();
    let window = visible_window;
    let o = lay.options;
    let trace = &props.result.variants[props.index].trace;
    let x_now = lay.x(props.t_ms);
    let x_end = lay.x(trace.end_ms);

    // Scrubbing. (Yew delegates events from its root, so `current_target`
    // is not the SVG; measure through a node ref instead.)
    let time_at = {
        let (memo, svg_ref) = (drawing_rc.clone(), svg_ref.clone());
        move |e: &PointerEvent| -> Option<u64> {
            let el: Element = svg_ref.cast()?;
            let rect = el.get_bounding_client_rect();
            let (lay, _, _) = memo.as_ref().as_ref()?.frame();
            if rect.width() <= 0.0 {
                return None;
            }
            let x = (f64::from(e.client_x()) - rect.left()) * lay.options.width / rect.width();
            Some(lay.time_at(x))
        }
    };
    let time_at = Rc::new(time_at);
    // A press starts a drag only once the pointer moves a few pixels, so a
    // plain click stays a click (a round marker, a summary group) and
    // also moves the playhead.
    let on_down = {
        let (dragging, press_x) = (dragging.clone(), press_x.clone());
        Callback::from(move |e: PointerEvent| {
            if e.button() != 0 {
                return;
            }
            press_x.set(Some(f64::from(e.client_x())));
            dragging.borrow().set(false);
        })
    };
    let on_move = {
        let (time_at, dragging, press_x, on_seek, on_scrub, svg_ref) = (
            time_at.clone(),
            dragging.clone(),
            press_x.clone(),
            props.on_seek.clone(),
            props.on_scrub.clone(),
            svg_ref.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            let Some(x0) = press_x.get() else { return };
            if !dragging.borrow().get() {
                if (f64::from(e.client_x()) - x0).abs() < 3.0 {
                    return;
                }
                // Capture keeps the drag going outside the element.
                if let Some(el) = svg_ref.cast::<Element>() {
                    let _ = el.set_pointer_capture(e.pointer_id());
                }
                dragging.borrow().set(true);
                on_scrub.emit(true);
            }
            if let Some(t) = time_at(&e) {
                on_seek.emit(t);
            }
        })
    };
    let on_up = {
        let (time_at, dragging, press_x, on_seek, on_scrub) = (
            time_at.clone(),
            dragging.clone(),
            press_x.clone(),
            props.on_seek.clone(),
            props.on_scrub.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            let Some(_) = press_x.take() else { return };
            if dragging.borrow().replace(false) {
                on_scrub.emit(false);
            } else if let Some(t) = time_at(&e) {
                // A click: move the playhead there.
                on_seek.emit(t);
            }
        })
    };
    let on_cancel = {
        let (dragging, press_x, on_scrub) =
            (dragging.clone(), press_x.clone(), props.on_scrub.clone());
        Callback::from(move |_: PointerEvent| {
            press_x.set(None);
            if dragging.borrow().replace(false) {
                on_scrub.emit(false);
            }
        })
    };

    let selected = props
        .selected
        .and_then(|i| trace.rounds.get(i).map(|r| (i, r)));
    let body = match drawing {
        Drawing::Lanes { layout, lanes } => html! {
            <TimelineBody result={props.result.clone()} index={props.index} lanes={lanes.clone()}
                          layout={layout.clone()} on_round={props.on_round.clone()} {window} />
        },
        Drawing::Groups { axis, groups } => html! {
            <SummaryBody result={props.result.clone()} index={props.index} groups={groups.clone()}
                         axis={axis.clone()} on_round={props.on_round.clone()} on_drill={props.on_drill.clone()} />
        },
    };

    html! {
        <div class="timeline-wrap" ref={node}>
            <svg ref={svg_ref} class="timeline" xmlns="http://www.w3.org/2000/svg"
                 width={format!("{:.0}", o.width)} height={format!("{height:.0}")}
                 viewBox={format!("0 0 {:.0} {height:.0}", o.width)}
                 role="img" aria-label={format!("Timeline of {}: a lane per worker, bars per connector and task", trace.label)}
                 onpointerdown={on_down} onpointermove={on_move}
                 onpointerup={on_up} onpointercancel={on_cancel}>
                { body }
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
