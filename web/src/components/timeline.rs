//! One column's timeline: the static drawing under a live overlay
//! (playhead, the not-yet-played part veiled, the selected round, the
//! followed task). Every column shows the same window of the time axis.
//!
//! Pointer scheme (listed in the help overlay): on the lanes, drag pans,
//! the wheel zooms around the pointer (Shift or a sideways wheel pans),
//! double-click shows the whole run, two fingers pinch to zoom around their
//! centre (one finger drags sideways to pan; up and down scroll the page,
//! `touch-action: pan-y`), hover names the task under the
//! pointer and a click follows it (a click on empty space stops); on the
//! time axis (the strip of event labels above the lanes and the tick labels
//! below) a click or drag moves the playhead.
//!
//! Three ways to draw the lanes, chosen by [`LaneMode`]: every worker with a
//! row per connector and task (geometry from the engine's `TimelineLayout`,
//! shared with the CLI's SVG export), groups of workers summarised as tasks
//! by state over time, or one group drilled into.

use engine::fixed::{clamp, Fixed};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use engine::layout::{LayoutOptions, TimelineLayout};
use engine::run::RunResult;
use engine::trace::Trace;
use yew::prelude::*;

use crate::components::markers::{f0, f1};

use crate::browser::hooks::{use_element_width, use_visible_window, use_wheel};
use crate::browser::profile;
use crate::components::follow::{follow_overlay, tooltip};
use crate::components::summary_body::{lanes_bottom, SummaryBody};
use crate::components::timeline_body::TimelineBody;
use crate::components::timeline_pointer::{Hover, Pointer, Press};
use crate::components::timeline_width;
use crate::shared::Shared;
use crate::state::gesture::Touches;
use crate::state::story::describe;
use crate::state::summary::{sub_trace, summarize, Group, Lanes, Members};
use crate::state::target_view::selected_span;
use crate::state::viewport::Window;

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
    /// The window of the time axis shown.
    pub window: Window,
    /// End of the shared axis (the longest run).
    pub end_ms: u64,
    /// Lane heights shared by every column (lane for lane alignment), and
    /// each column's lane rows (found before the result is drawn).
    pub lanes: Shared<Lanes>,
    /// Show another window (`None`: the default focus).
    pub on_view: Callback<Option<Window>>,
    /// The connector or task followed across columns.
    pub followed: Option<Rc<str>>,
    /// Follow an item (by label), or stop.
    pub on_follow: Callback<Option<Rc<str>>>,
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
pub(super) enum Drawing {
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
    /// The lanes drawn and their trace, for hit-testing.
    pub(super) fn lanes<'a>(&'a self, whole: &'a Trace) -> Option<(&'a TimelineLayout, &'a Trace)> {
        match self {
            Drawing::Lanes { layout, lanes } => Some((layout, lanes.as_deref().unwrap_or(whole))),
            Drawing::Groups { .. } => None,
        }
    }

    /// The layout whose x axis and top the overlay uses, and the lanes' bottom.
    pub(super) fn frame(&self) -> (&TimelineLayout, f64, f64) {
        match self {
            Drawing::Lanes { layout, .. } => (layout, layout.lanes_bottom(), layout.height),
            Drawing::Groups { axis, groups } => {
                let bottom = lanes_bottom(axis.options.top, groups.len());
                (axis, bottom, bottom + 20.0)
            }
        }
    }
}

fn draw(trace: &Trace, mode: &LaneMode, width: f64, lanes: &Lanes, index: usize) -> Drawing {
    let options = options_for(width);
    match mode {
        LaneMode::Detail => Drawing::Lanes {
            layout: Shared::new(profile::timed("layout", || match lanes.rows.get(index) {
                Some(rows) => TimelineLayout::with_rows(trace, options, rows, &lanes.heights),
                None => TimelineLayout::with_lane_heights(trace, options, &lanes.heights),
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
    // 0 until measured, or the width a timeline of as many columns last had
    // (components::timeline_width): nothing is laid out at a guessed width.
    let columns = props.result.variants.len();
    let width = use_element_width(node.clone(), timeline_width::hint(columns)).round();
    timeline_width::note(columns, width);
    let drawing = {
        let (result, index, mode, lanes) = (
            props.result.clone(),
            props.index,
            props.mode.clone(),
            props.lanes.clone(),
        );
        use_memo(
            (result, index, width as u64, mode, lanes),
            move |(result, index, _, mode, lanes)| {
                (width > 0.0).then(|| {
                    let run = &result.variants[*index];
                    (draw(&run.trace, mode, width, lanes, *index), describe(run))
                })
            },
        )
    };
    let svg_ref = use_node_ref();
    // Tall lane drawings (a drilled group, a big detailed run) draw only
    // the lanes near the screen; the rest appear as they scroll into view.
    let tall = drawing
        .as_ref()
        .as_ref()
        .is_some_and(|(d, _)| matches!(d, Drawing::Lanes { .. }) && d.frame().2 > VIRTUALIZE_ABOVE);
    let visible_window = use_visible_window(svg_ref.clone(), tall);
    let dragging = use_mut_ref(|| Cell::new(false));
    // Where the pointer went down and what the press does, while it is down.
    let press: Rc<Cell<Option<(f64, Press)>>> = use_memo((), |_| Cell::new(None));
    let hover = use_state_eq(|| None::<Hover>);
    let touches = use_memo((), |_| RefCell::new(Touches::default()));
    let drawing_rc = drawing.clone();
    let axis = drawing.as_ref().as_ref().map(|(d, _)| {
        d.frame()
            .0
            .axis_over(props.window.from_ms, props.window.to_ms)
    });
    // The wheel zooms around the pointer; Shift or a sideways wheel pans.
    // (Registered once; it reads the latest render's pointer context.)
    let latest: Rc<RefCell<Option<Rc<Pointer>>>> = use_memo((), |_| RefCell::new(None));
    {
        let latest = latest.clone();
        use_wheel(
            svg_ref.clone(),
            axis.is_some(),
            Callback::from(move |e: web_sys::WheelEvent| {
                if let Some(p) = latest.borrow().as_ref() {
                    p.wheel(&e);
                }
            }),
        );
    }
    // The followed item's outline, redrawn only when it, the drawing or the
    // window changes (not on every playback frame).
    let follow = {
        let trace_rc = props.result.clone();
        let index = props.index;
        use_memo(
            (Shared::from(drawing.clone()), props.followed.clone(), axis),
            move |(drawing, followed, axis)| {
                let (label, axis) = (followed.as_ref()?, axis.as_ref()?);
                let (lay, lanes) = drawing
                    .as_ref()
                    .as_ref()?
                    .0
                    .lanes(&trace_rc.variants[index].trace)?;
                follow_overlay(lanes, lay, axis, label)
            },
        )
    };
    let Some((drawing, description)) = drawing.as_ref() else {
        return html! { <div class="timeline-wrap pending" ref={node}></div> };
    };
    let (lay, bottom, height) = drawing.frame();
    let axis = axis.unwrap_or_else(|| lay.axis());
    let window = visible_window;
    let o = lay.options;
    let trace = &props.result.variants[props.index].trace;
    let x_now = axis.x(props.t_ms);
    let x_end = axis.x(trace.end_ms);
    // The veil's clip: from the left edge to the run's end, on the drawing.
    let veil_w = clamp(x_end, 0.0, o.width);

    let pointer = Rc::new(Pointer {
        svg_ref: svg_ref.clone(),
        drawing: drawing_rc.clone(),
        result: props.result.clone(),
        index: props.index,
        axis: Some(axis),
        window: props.window,
        end_ms: props.end_ms,
        width: o.width,
        axis_band: (o.top - 2.0, bottom),
        followed: props.followed.clone(),
        press: press.clone(),
        dragging: dragging.clone(),
        touches: touches.clone(),
        hover: hover.setter(),
        on_seek: props.on_seek.clone(),
        on_scrub: props.on_scrub.clone(),
        on_view: props.on_view.clone(),
        on_follow: props.on_follow.clone(),
    });
    *latest.borrow_mut() = Some(pointer.clone());
    let handler = |f: fn(&Pointer, &PointerEvent)| {
        let p = pointer.clone();
        Callback::from(move |e: PointerEvent| f(&p, &e))
    };
    let (on_down, on_move, on_up, on_cancel, on_leave) = (
        handler(Pointer::down),
        handler(Pointer::moved),
        handler(Pointer::up),
        handler(Pointer::cancel),
        handler(Pointer::leave),
    );
    let on_dblclick = {
        let end_ms = props.end_ms;
        props
            .on_view
            .reform(move |_: MouseEvent| Some(Window::whole(end_ms)))
    };

    let selected = props
        .selected
        .and_then(|i| selected_span(trace, i).map(|r| (i, r)))
        .filter(|(_, (from, to))| *to >= axis.from_ms && *from <= axis.to_ms);
    let body = match drawing {
        Drawing::Lanes { layout, lanes } => html! {
            <TimelineBody result={props.result.clone()} index={props.index} lanes={lanes.clone()}
                          layout={layout.clone()} {axis} on_round={props.on_round.clone()} {window} />
        },
        Drawing::Groups {
            axis: frame,
            groups,
        } => html! {
            <SummaryBody result={props.result.clone()} index={props.index} groups={groups.clone()}
                         frame={frame.clone()} {axis} on_round={props.on_round.clone()} on_drill={props.on_drill.clone()} />
        },
    };
    let settles_later = props.result.variants[props.index]
        .metrics
        .settled_ms
        .filter(|&s| s > axis.to_ms && axis.to_ms < trace.end_ms)
        .and_then(|s| {
            // Right-aligned in the ruler, where an event's marker may sit: the
            // long wording, else the time alone, else nothing (a narrow column).
            let markers: Vec<f64> = trace
                .events
                .iter()
                .filter(|e| axis.shows(e.at_ms))
                .map(|e| axis.x(e.at_ms))
                .collect();
            let at = engine::wording::duration(s);
            [format!("settles at {at} ›"), format!("{at} ›")]
                .into_iter()
                .find(|text| {
                    let x0 = axis.right - 2.0 - text.chars().count() as f64 * 5.6;
                    markers.iter().all(|&x| x < x0 - 6.0)
                })
        });
    let label = format!("Timeline of {}. {}", trace.label, description);

    html! {
        <div class="timeline-wrap" ref={node}>
            <svg ref={svg_ref} class={classes!("timeline", props.followed.is_some().then_some("following"))}
                 xmlns="http://www.w3.org/2000/svg"
                 width={f0(o.width)} height={f0(height)}
                 viewBox={format!("0 0 {:.0} {height:.0}", Fixed(o.width), height = Fixed(height))}
                 data-from={axis.from_ms.to_string()} data-to={axis.to_ms.to_string()}
                 data-left={f1(axis.left)} data-right={f1(axis.right)}
                 role="img" aria-label={label}
                 onpointerdown={on_down} onpointermove={on_move} onpointerleave={on_leave}
                 onpointerup={on_up} onpointercancel={on_cancel} ondblclick={on_dblclick}>
                <desc>{ description.clone() }</desc>
                <rect class="time-ruler" x="0" y="0" width={f0(o.width)} height={f0(o.top - 2.0)} />
                { body }
                <g class="overlay">
                    // The veil and the playhead move by a CSS transform on
                    // layers of their own (`will-change` in the stylesheet):
                    // moving them repaints neither the drawing under them
                    // nor their own shapes, where changed geometry would
                    // have the lanes' paths rasterised again under both
                    // shapes' old and new bounds on every frame.
                    // The veil is as wide as the unplayed part can be and
                    // slides right, clipped at the run's end.
                    if x_now < x_end - 0.5 {
                        <svg class="veil-clip" x="0" y={f0(o.top)} width={f1(veil_w)} height={f0(bottom - o.top)}>
                            <rect class="veil" x="0" y="0" width={f1(veil_w + 1.0)} height={f0(bottom - o.top)}
                                  style={format!("transform:translateX({}px)", f1(clamp(x_now, -1.0, veil_w)))} />
                        </svg>
                    }
                    if let Some((i, r)) = selected {
                        <g class="selected-round" data-round={i.to_string()}>
                            <rect class="selected-band" x={f1(axis.x(r.0) - 1.5)} y={f0(o.top)}
                                  width={f1((axis.x(r.1) - axis.x(r.0)).max(0.0) + 3.0)}
                                  height={f0(bottom - o.top)} />
                        </g>
                    }
                    { (*follow).clone().unwrap_or_default() }
                    if let Some(text) = settles_later {
                        <text class="settles-later" x={f1(axis.right - 2.0)} y={f0(o.top - 5.0)} text-anchor="end">
                            { text }
                        </text>
                    }
                    <g class={classes!("playhead", (!axis.shows(props.t_ms)).then_some("outside"))} data-t={props.t_ms.to_string()}
                       style={format!("transform:translateX({}px)", f1(x_now))}>
                        <line x1="0" x2="0" y1={f0(o.top - 2.0)} y2={f0(bottom)} />
                        <circle cx="0" cy={f0(o.top - 2.0)} r="4" />
                    </g>
                </g>
            </svg>
            if let Some(h) = *hover {
                { tooltip(lanes_trace(drawing, trace), &h.bar, h.x, h.y, h.x * 2.0 > f64::from(width as u32)) }
            }
        </div>
    }
}

/// The trace whose items the drawn lanes show.
fn lanes_trace<'a>(drawing: &'a Drawing, whole: &'a Trace) -> &'a Trace {
    drawing.lanes(whole).map_or(whole, |(_, t)| t)
}
