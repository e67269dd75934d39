//! The sweep's plot: [`engine::sweep::plot_layout`]'s panels drawn as SVG
//! with the CLI's look (`rebalance sweep --svg`): one panel per headline
//! metric, one line per compared variant, Kafka's default dashed, cut runs
//! hollow. Every point is a target: hovering shows its numbers (the
//! parent's readout), clicking opens its scenario.

use engine::sweep::plot_layout::{PlotLayout, VARIANT_COLOURS};
use engine::sweep::SweepResult;
use yew::prelude::*;

use crate::shared::Shared;

/// Props of [`SweepPlot`].
#[derive(Properties, PartialEq)]
pub struct SweepPlotProps {
    /// The points so far.
    pub result: Shared<SweepResult>,
    /// The geometry.
    pub layout: Shared<PlotLayout>,
    /// The point under the pointer (index into the result's points).
    pub hovered: Option<usize>,
    /// The pointer is over a point, or left the plot (`None`).
    pub on_hover: Callback<Option<usize>>,
    /// A point was clicked: its value.
    pub on_open: Callback<u64>,
}

/// The plot.
#[component]
pub fn SweepPlot(props: &SweepPlotProps) -> Html {
    let lay = &*props.layout;
    let result = &*props.result;
    let o = lay.options;
    let bottom = o.panel_height;
    let hovered_x = props
        .hovered
        .and_then(|i| result.points.get(i))
        .map(|p| p.value);
    let on_leave = {
        let on_hover = props.on_hover.clone();
        Callback::from(move |_: MouseEvent| on_hover.emit(None))
    };
    html! {
        <svg class="sweep-plot" id="sweep-plot" role="img"
             aria-label={format!("{} against {}", "Headline metrics", result.label)}
             viewBox={format!("0 0 {:.0} {:.0}", lay.width, lay.height)}
             width={format!("{:.0}", lay.width)} height={format!("{:.0}", lay.height)}
             onmouseleave={on_leave}>
            { for lay.panels.iter().map(|panel| html! {
                <g class="sweep-panel" data-metric={panel.metric.report_key()}
                   transform={format!("translate({:.1},{:.1})", panel.left, panel.top)}>
                    <text class="panel-title" x="0" y="-8">{ &panel.title }</text>
                    { for panel.y_ticks.iter().map(|t| html! {
                        <>
                            <line class="grid" x1="0" x2={format!("{:.1}", o.panel_width)}
                                  y1={format!("{:.1}", t.at)} y2={format!("{:.1}", t.at)} />
                            <text class="tick" x="-4" y={format!("{:.1}", t.at + 3.0)} text-anchor="end">{ &t.label }</text>
                        </>
                    }) }
                    <line class="axis" x1="0" x2={format!("{:.1}", o.panel_width)}
                          y1={format!("{bottom:.1}")} y2={format!("{bottom:.1}")} />
                    <line class="axis" x1="0" x2="0" y1="0" y2={format!("{bottom:.1}")} />
                    { for panel.x_ticks.iter().enumerate().map(|(i, t)| {
                        let anchor = if i == 0 && t.at < 20.0 { "start" }
                            else if t.at > o.panel_width - 20.0 { "end" } else { "middle" };
                        html! {
                            <>
                                <line class="axis" x1={format!("{:.1}", t.at)} x2={format!("{:.1}", t.at)}
                                      y1={format!("{bottom:.1}")} y2={format!("{:.1}", bottom + 4.0)} />
                                <text class="tick" x={format!("{:.1}", t.at)} y={format!("{:.1}", bottom + 15.0)}
                                      text-anchor={anchor}>{ &t.label }</text>
                            </>
                        }
                    }) }
                    if let Some(x) = lay.default_x {
                        <line class="kafka-default" x1={format!("{x:.1}")} x2={format!("{x:.1}")}
                              y1="0" y2={format!("{bottom:.1}")}>
                            <title>{ format!("Kafka's default: {}", default_text(result)) }</title>
                        </line>
                    }
                    if let Some(x) = hovered_x.and_then(|v| panel.lines.iter().flat_map(|l| &l.markers).find(|m| m.value == v)).map(|m| m.x) {
                        <line class="hover-line" x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1="0" y2={format!("{bottom:.1}")} />
                    }
                    { for panel.lines.iter().map(|line| {
                        let colour = VARIANT_COLOURS[line.variant % VARIANT_COLOURS.len()];
                        let label = result.variants.get(line.variant).cloned().unwrap_or_default();
                        html! {
                            <g class="sweep-line" data-variant={line.variant.to_string()}>
                                { for line.segments.iter().map(|seg| html! {
                                    <polyline fill="none" stroke={colour} stroke-width="1.75" stroke-linejoin="round"
                                              points={seg.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>().join(" ")} />
                                }) }
                                { for line.markers.iter().map(|m| {
                                    let (fill, r) = if m.cut { ("#ffffff", 3.5) } else { (colour, 2.5) };
                                    let point = m.point;
                                    let value = m.value;
                                    let on_enter = {
                                        let on_hover = props.on_hover.clone();
                                        Callback::from(move |_: MouseEvent| on_hover.emit(Some(point)))
                                    };
                                    let on_click = {
                                        let on_open = props.on_open.clone();
                                        Callback::from(move |_: MouseEvent| on_open.emit(value))
                                    };
                                    html! {
                                        <g class="sweep-point" data-point={point.to_string()} data-value={value.to_string()}
                                           data-metric-value={m.metric.to_string()}
                                           onmouseenter={on_enter} onclick={on_click}>
                                            <circle cx={format!("{:.1}", m.x)} cy={format!("{:.1}", m.y)} r={r.to_string()}
                                                    fill={fill} stroke={colour} stroke-width="1.25" />
                                            <circle class="hit" cx={format!("{:.1}", m.x)} cy={format!("{:.1}", m.y)} r="8">
                                                <title>{ format!("{label}: {} = {} → {}{}", result.spec.parameter.name(),
                                                                 result.unit.format(m.value), panel.metric.unit().format(m.metric),
                                                                 if m.cut { " (cut at the run budget)" } else { "" }) }</title>
                                            </circle>
                                        </g>
                                    }
                                }) }
                            </g>
                        }
                    }) }
                </g>
            }) }
        </svg>
    }
}

/// Kafka's default as people read it (empty when the parameter has none).
pub fn default_text(result: &SweepResult) -> String {
    result
        .kafka_default
        .map(|d| result.unit.format(d))
        .unwrap_or_default()
}
