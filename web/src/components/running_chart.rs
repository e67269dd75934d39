//! Running tasks over time, one line per compared protocol, on the shared
//! time axis: the "how much work stopped" picture at a glance.

use std::fmt::Write as _;

use engine::layout::axis_label;
use engine::run::RunResult;
use yew::prelude::*;

use crate::browser::hooks::use_element_width;
use crate::shared::Shared;
use crate::state::series::{configured_tasks, running_tasks, Steps};

/// Props of [`RunningChart`].
#[derive(Properties, PartialEq)]
pub struct RunningChartProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// The shared playhead.
    pub t_ms: u64,
    /// Click to move the playhead.
    pub on_seek: Callback<u64>,
}

const HEIGHT: f64 = 118.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 22.0;
const RIGHT: f64 = 8.0;

struct ChartData {
    running: Vec<Steps>,
    configured: Steps,
    /// Step paths, drawn once per result and width (not per playhead move).
    running_paths: Vec<String>,
    configured_path: String,
    y_max: u32,
}

/// Horizontal geometry: the same margins as the timelines.
#[derive(Clone, Copy)]
struct Axis {
    width: f64,
    left: f64,
    end_ms: u64,
}

impl Axis {
    fn x(self, ms: u64) -> f64 {
        self.left
            + (ms.min(self.end_ms) as f64 / self.end_ms as f64) * (self.width - self.left - RIGHT)
    }
}

fn y_of(v: u32, y_max: u32) -> f64 {
    TOP + (1.0 - f64::from(v) / f64::from(y_max.max(1))) * (HEIGHT - TOP - BOTTOM)
}

fn step_path(steps: &Steps, axis: Axis, y_max: u32) -> String {
    let mut d = String::new();
    for (i, &(t, v)) in steps.points.iter().enumerate() {
        if i == 0 {
            let _ = write!(d, "M{:.1} {:.1}", axis.x(t), y_of(v, y_max));
        } else {
            let _ = write!(d, "H{:.1}V{:.1}", axis.x(t), y_of(v, y_max));
        }
    }
    let _ = write!(d, "H{:.1}", axis.x(axis.end_ms));
    d
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
    let axis = Axis {
        width,
        left,
        end_ms,
    };
    let data = use_memo((props.result.clone(), width as u64), move |(result, _)| {
        let running: Vec<Steps> = result
            .variants
            .iter()
            .map(|v| running_tasks(&v.trace))
            .collect();
        let configured = result
            .variants
            .first()
            .map(|v| configured_tasks(&v.trace))
            .unwrap_or_default();
        let y_max = running
            .iter()
            .map(Steps::max)
            .chain([configured.max()])
            .max()
            .unwrap_or(0)
            .max(1);
        ChartData {
            running_paths: running.iter().map(|s| step_path(s, axis, y_max)).collect(),
            configured_path: step_path(&configured, axis, y_max),
            running,
            configured,
            y_max,
        }
    });
    let y_max = data.y_max;
    let y = |v: u32| y_of(v, y_max);
    let x = |ms: u64| axis.x(ms);
    let x_now = x(props.t_ms);
    let ticks: Vec<u64> = {
        const STEPS: [u64; 12] = [
            1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
            1_800_000, 3_600_000,
        ];
        let step = STEPS
            .iter()
            .copied()
            .find(|s| end_ms / s <= 8)
            .unwrap_or(7_200_000);
        (0..=end_ms / step).map(|i| i * step).collect()
    };
    let svg_ref = use_node_ref();
    let on_click = {
        let (on_seek, svg_ref) = (props.on_seek.clone(), svg_ref.clone());
        Callback::from(move |e: MouseEvent| {
            // Yew delegates events from its root: measure the SVG itself.
            let Some(el) = svg_ref.cast::<web_sys::Element>() else {
                return;
            };
            let rect = el.get_bounding_client_rect();
            if rect.width() <= 0.0 {
                return;
            }
            let px = (f64::from(e.client_x()) - rect.left()) * width / rect.width();
            let f = ((px - left) / (width - left - RIGHT)).clamp(0.0, 1.0);
            on_seek.emit((f * end_ms as f64).round() as u64);
        })
    };

    html! {
        <figure class="running-chart" ref={node}>
            <figcaption>
                <span class="chart-title">{"Running tasks"}</span>
                { for props.result.variants.iter().enumerate().map(|(i, v)| html! {
                    <span class={classes!("series-key", format!("v{}", i % 4))}>
                        <svg width="22" height="8" aria-hidden="true"><line x1="0" y1="4" x2="22" y2="4" /></svg>
                        { &v.label }{": "}
                        <b class="now-value" data-variant={i.to_string()}>{ data.running.get(i).map_or(0, |s| s.at(props.t_ms)) }</b>
                    </span>
                }) }
                <span class="series-key configured">
                    <svg width="22" height="8" aria-hidden="true"><line x1="0" y1="4" x2="22" y2="4" /></svg>
                    {"configured: "}<b>{ data.configured.at(props.t_ms) }</b>
                </span>
            </figcaption>
            <svg ref={svg_ref} class="chart" width={format!("{width:.0}")} height={format!("{HEIGHT:.0}")}
                 viewBox={format!("0 0 {width:.0} {HEIGHT:.0}")} onclick={on_click}
                 role="img" aria-label="Running tasks over time, one line per compared protocol">
                <line class="grid" x1={format!("{left:.0}")} x2={format!("{:.0}", width - RIGHT)} y1={format!("{:.1}", y(0))} y2={format!("{:.1}", y(0))} />
                <line class="grid" x1={format!("{left:.0}")} x2={format!("{:.0}", width - RIGHT)} y1={format!("{:.1}", y(y_max))} y2={format!("{:.1}", y(y_max))} />
                <text class="y-label" x={format!("{:.0}", left - 6.0)} y={format!("{:.1}", y(y_max) + 4.0)} text-anchor="end">{ y_max }</text>
                <text class="y-label" x={format!("{:.0}", left - 6.0)} y={format!("{:.1}", y(0) + 4.0)} text-anchor="end">{"0"}</text>
                { for ticks.iter().map(|&ms| {
                    let tx = x(ms);
                    let anchor = if ms == 0 { "start" } else if tx > width - 30.0 { "end" } else { "middle" };
                    html! {
                        <text class="x-label" x={format!("{tx:.1}")} y={format!("{:.0}", HEIGHT - 6.0)} text-anchor={anchor}>{ axis_label(ms) }</text>
                    }
                }) }
                <path class="series configured" d={data.configured_path.clone()} />
                { for data.running_paths.iter().enumerate().map(|(i, d)| html! {
                    <path class={classes!("series", format!("v{}", i % 4))} data-variant={i.to_string()} d={d.clone()} />
                }) }
                <line class="playhead-line" x1={format!("{x_now:.1}")} x2={format!("{x_now:.1}")}
                      y1={format!("{TOP:.0}")} y2={format!("{:.0}", HEIGHT - BOTTOM)} />
            </svg>
        </figure>
    }
}
