//! Running tasks over time, one line per compared protocol, over the whole
//! run: the "how much work stopped" picture at a glance, and the overview
//! of the zoom. The window the columns show is framed; dragging across the
//! chart (a brush) shows that stretch, a click moves the playhead.

use engine::fixed::Fixed;
use std::cell::Cell;
use std::fmt::Write as _;
use std::rc::Rc;

use engine::layout::TimeAxis;
use engine::run::RunResult;
use yew::prelude::*;

use crate::components::markers::{f0, f1};

use crate::browser::hooks::use_element_width;
use crate::shared::Shared;
use crate::state::numbers::thousands;
use crate::state::series::{self, Range, ResultSeries, Steps};
use crate::state::viewport::Window;

/// Props of [`RunningChart`].
#[derive(Properties, PartialEq)]
pub struct RunningChartProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// The shared playhead.
    pub t_ms: u64,
    /// Click to move the playhead.
    pub on_seek: Callback<u64>,
    /// The window the columns show.
    pub window: Window,
    /// Brush: show this window.
    pub on_view: Callback<Option<Window>>,
}

const HEIGHT: f64 = 118.0;
/// The chart's height in a narrow space (a phone, a docs-page embed): the
/// lanes come first there, the overview stays readable.
const COMPACT_HEIGHT: f64 = 76.0;
/// Narrower than this, the chart is compact.
const COMPACT_BELOW: f64 = 760.0;

/// The chart's height at a width (drawn at that height, never scaled: the
/// plot keeps the timelines' margins).
fn height_for(width: f64) -> f64 {
    if width < COMPACT_BELOW {
        COMPACT_HEIGHT
    } else {
        HEIGHT
    }
}
const TOP: f64 = 8.0;
const BOTTOM: f64 = 22.0;
const RIGHT: f64 = 8.0;

struct ChartData {
    series: Rc<ResultSeries>,
    /// Step paths, drawn once per result and width (not per playhead move).
    running_paths: Vec<String>,
    /// Per variant, the band between the least and the greatest running
    /// count of each pixel column, where changes are denser than pixels
    /// (the line is then the column's mean).
    running_bands: Vec<Option<String>>,
    configured_path: String,
    y_max: u32,
}

fn y_of(v: u32, y_max: u32, height: f64) -> f64 {
    TOP + (1.0 - f64::from(v) / f64::from(y_max.max(1))) * (height - TOP - BOTTOM)
}

fn step_path(steps: &Steps, axis: TimeAxis, y_max: u32, height: f64) -> String {
    let mut d = String::new();
    for (i, &(t, v)) in steps.points.iter().enumerate() {
        if i == 0 {
            let _ = write!(
                d,
                "M{:.1} {:.1}",
                Fixed(axis.x(t)),
                Fixed(y_of(v, y_max, height))
            );
        } else {
            let _ = write!(
                d,
                "H{:.1}V{:.1}",
                Fixed(axis.x(t)),
                Fixed(y_of(v, y_max, height))
            );
        }
    }
    let _ = write!(d, "H{:.1}", Fixed(axis.x(axis.to_ms)));
    d
}

/// Each pixel column's range of `ranges` (from the axis' left), as one
/// closed path: along the greatest values left to right, back along the
/// least.
fn band_path(ranges: &[Range], axis: TimeAxis, y_max: u32, height: f64) -> String {
    let px = (axis.right - axis.left) / ranges.len().max(1) as f64;
    let x = |c: usize| axis.left + c as f64 * px;
    let y = |v: u32| y_of(v, y_max, height);
    let mut d = String::new();
    for (c, r) in ranges.iter().enumerate() {
        if c == 0 {
            let _ = write!(d, "M{:.1} {:.1}", Fixed(x(0)), Fixed(y(r.max)));
        } else {
            let _ = write!(d, "V{:.1}", Fixed(y(r.max)));
        }
        let _ = write!(d, "H{:.1}", Fixed(x(c + 1)));
    }
    for (c, r) in ranges.iter().enumerate().rev() {
        let _ = write!(d, "V{:.1}H{:.1}", Fixed(y(r.min)), Fixed(x(c)));
    }
    d.push('Z');
    d
}

/// The running line of `steps`: exact while its changes are no denser
/// than the pixels, else each pixel column's mean, with a band from its
/// least to its greatest value.
fn running_series(
    steps: &Steps,
    axis: TimeAxis,
    y_max: u32,
    height: f64,
) -> (String, Option<String>) {
    let columns = (axis.right - axis.left).round().max(1.0) as usize;
    if steps.points.len() <= columns {
        return (step_path(steps, axis, y_max, height), None);
    }
    let ranges = steps.ranges(axis.from_ms, axis.to_ms, columns);
    let px = (axis.right - axis.left) / columns as f64;
    let mut line = String::new();
    for (c, r) in ranges.iter().enumerate() {
        let x = axis.left + c as f64 * px;
        let y = TOP + (1.0 - r.mean / f64::from(y_max.max(1))) * (height - TOP - BOTTOM);
        if c == 0 {
            let _ = write!(line, "M{x:.1} {y:.1}", x = Fixed(x), y = Fixed(y),);
        } else {
            let _ = write!(line, "V{y:.1}", y = Fixed(y),);
        }
        let _ = write!(line, "H{:.1}", Fixed(x + px));
    }
    (line, Some(band_path(&ranges, axis, y_max, height)))
}

/// The chart.
#[component]
pub fn RunningChart(props: &RunningChartProps) -> Html {
    let node = use_node_ref();
    let width = use_element_width(node.clone(), 900.0).round().max(240.0);
    let end_ms = props
        .result
        .variants
        .first()
        .map_or(1, |v| v.trace.end_ms.max(1));
    let left = if width < 520.0 { 70.0 } else { 86.0 };
    let height = height_for(width);
    // Horizontal geometry: the same margins as the timelines, the whole run.
    let axis = TimeAxis {
        left,
        right: width - RIGHT,
        from_ms: 0,
        to_ms: end_ms,
    };
    let data = use_memo((props.result.clone(), width as u64), move |(result, _)| {
        let series = series::of(&result.0);
        let (running, configured) = (&series.running, &series.configured);
        let y_max = running
            .iter()
            .map(Steps::max)
            .chain([configured.max()])
            .max()
            .unwrap_or(0)
            .max(1);
        let (running_paths, running_bands) = running
            .iter()
            .map(|s| running_series(s, axis, y_max, height))
            .unzip();
        ChartData {
            running_paths,
            running_bands,
            configured_path: step_path(configured, axis, y_max, height),
            y_max,
            series: series.clone(),
        }
    });
    let y_max = data.y_max;
    let y = |v: u32| y_of(v, y_max, height);
    let x = |ms: u64| axis.x(ms);
    let x_now = x(props.t_ms);
    let ticks = axis.labelled_ticks();
    let svg_ref = use_node_ref();
    // The brush: where the press started (SVG x), and where it is now.
    let press: Rc<Cell<Option<f64>>> = use_memo((), |_| Cell::new(None));
    let brush = use_state_eq(|| None::<(f64, f64)>);
    let svg_x = {
        let svg_ref = svg_ref.clone();
        move |e: &MouseEvent| -> Option<f64> {
            // Yew delegates events from its root: measure the SVG itself.
            let el = svg_ref.cast::<web_sys::Element>()?;
            let rect = el.get_bounding_client_rect();
            (rect.width() > 0.0)
                .then(|| (f64::from(e.client_x()) - rect.left()) * width / rect.width())
        }
    };
    let svg_x = Rc::new(svg_x);
    let on_down = {
        let (press, svg_x, svg_ref) = (press.clone(), svg_x.clone(), svg_ref.clone());
        Callback::from(move |e: PointerEvent| {
            // One finger brushes; a second one does not restart the brush.
            if e.button() != 0 || !e.is_primary() {
                return;
            }
            press.set(svg_x(&e));
            if let Some(el) = svg_ref.cast::<web_sys::Element>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
        })
    };
    let on_move = {
        let (press, svg_x, brush) = (press.clone(), svg_x.clone(), brush.clone());
        Callback::from(move |e: PointerEvent| {
            if let (Some(x0), Some(x)) = (press.get(), svg_x(&e)) {
                if (x - x0).abs() >= 4.0 {
                    brush.set(Some((x0.min(x), x0.max(x))));
                }
            }
        })
    };
    let on_up = {
        let (press, svg_x, brush, on_seek, on_view) = (
            press.clone(),
            svg_x.clone(),
            brush.clone(),
            props.on_seek.clone(),
            props.on_view.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            let Some(x0) = press.take() else { return };
            let Some(x) = svg_x(&e) else { return };
            brush.set(None);
            if (x - x0).abs() >= 4.0 {
                let (a, b) = (axis.time_at(x0.min(x)), axis.time_at(x0.max(x)));
                on_view.emit(Some(Window {
                    from_ms: a,
                    to_ms: b.max(a + 1),
                }));
            } else {
                on_seek.emit(axis.time_at(x));
            }
        })
    };
    let on_cancel = {
        let (press, brush) = (press.clone(), brush.clone());
        Callback::from(move |_: PointerEvent| {
            press.set(None);
            brush.set(None);
        })
    };
    let (wx0, wx1) = (x(props.window.from_ms), x(props.window.to_ms));
    let whole = props.window.from_ms == 0 && props.window.to_ms >= end_ms;

    html! {
        <figure class="running-chart" ref={node}>
            <figcaption>
                <span class="chart-title">{"Running tasks"}</span>
                { for props.result.variants.iter().enumerate().map(|(i, v)| html! {
                    <span class={classes!("series-key", format!("v{}", i % 4))}>
                        <svg width="22" height="8" aria-hidden="true"><line x1="0" y1="4" x2="22" y2="4" /></svg>
                        { &v.label }{": "}
                        <b class="now-value" data-variant={i.to_string()}>{ thousands(u64::from(data.series.running.get(i).map_or(0, |s| s.at(props.t_ms)))) }</b>
                    </span>
                }) }
                <span class="series-key configured">
                    <svg width="22" height="8" aria-hidden="true"><line x1="0" y1="4" x2="22" y2="4" /></svg>
                    {"configured: "}<b>{ thousands(u64::from(data.series.configured.at(props.t_ms))) }</b>
                </span>
            </figcaption>
            <svg ref={svg_ref} class="chart" width={f0(width)} height={f0(height)}
                 viewBox={format!("0 0 {width:.0} {height:.0}", height = Fixed(height), width = Fixed(width),)}
                 onpointerdown={on_down} onpointermove={on_move} onpointerup={on_up} onpointercancel={on_cancel}
                 data-left={f0(left)} data-right={f0(width - RIGHT)}
                 role="img" aria-label="Running tasks over the whole run, one line per compared protocol; drag across it to zoom the timelines to that stretch">
                <line class="grid" x1={f0(left)} x2={f0(width - RIGHT)} y1={f1(y(0))} y2={f1(y(0))} />
                <line class="grid" x1={f0(left)} x2={f0(width - RIGHT)} y1={f1(y(y_max))} y2={f1(y(y_max))} />
                <text class="y-label" x={f0(left - 6.0)} y={f1(y(y_max) + 4.0)} text-anchor="end">{ thousands(u64::from(y_max)) }</text>
                <text class="y-label" x={f0(left - 6.0)} y={f1(y(0) + 4.0)} text-anchor="end">{"0"}</text>
                { for ticks.into_iter().map(|(ms, label)| {
                    let tx = x(ms);
                    let anchor = if tx < left + 20.0 { "start" } else if tx > width - 30.0 { "end" } else { "middle" };
                    html! {
                        <text class="x-label" x={f1(tx)} y={f0(height - 6.0)} text-anchor={anchor}>{ label }</text>
                    }
                }) }
                <path class="series configured" d={data.configured_path.clone()} />
                { for data.running_bands.iter().enumerate().filter_map(|(i, d)| d.as_ref().map(|d| html! {
                    <path class={classes!("band", format!("v{}", i % 4))} data-variant={i.to_string()} d={d.clone()} />
                })) }
                { for data.running_paths.iter().enumerate().map(|(i, d)| html! {
                    <path class={classes!("series", format!("v{}", i % 4))} data-variant={i.to_string()} d={d.clone()} />
                }) }
                if !whole {
                    // The window the columns show.
                    <rect class="window-frame" x={f1(wx0)} y={format!("{TOP:.0}", TOP = Fixed(TOP),)}
                          width={f1((wx1 - wx0).max(1.0))} height={f0(height - TOP - BOTTOM)} />
                }
                if let Some((a, b)) = *brush {
                    <rect class="brush" x={f1(a)} y={format!("{TOP:.0}", TOP = Fixed(TOP),)}
                          width={f1(b - a)} height={f0(height - TOP - BOTTOM)} />
                }
                // Moved by a transform on a layer of its own, so a frame does
                // not rasterise the series under it again (as in the timeline).
                <line class="playhead-line" x1="0" x2="0" style={format!("transform:translateX({}px)", f1(x_now))}
                      y1={format!("{TOP:.0}", TOP = Fixed(TOP),)} y2={f0(height - BOTTOM)} />
            </svg>
        </figure>
    }
}
