//! The sweep's plot, legend and readout as markup text: [`engine::sweep::plot_layout`]'s
//! panels drawn as SVG with the CLI's look (`rebalance sweep --svg`): one
//! panel per headline metric, one line per compared variant, Kafka's default
//! dashed, cut runs hollow. Written as text and inserted whole (a few hundred
//! elements, redrawn as points stream in): as Yew markup the same plot cost
//! the page's module several KB. Every point carries `data-point` and
//! `data-value`, so the view's listeners on the box around the plot
//! (hover, click, keys) find the point an event came from.

use engine::fixed::Fixed;
use std::fmt::Write as _;

use engine::svg_export::esc;
use engine::sweep::plot_layout::{PlotLayout, POINT_REACH, VARIANT_COLOURS};
use engine::sweep::SweepResult;

/// The plot's SVG; `hovered` (index into the result's points) gets a
/// vertical line in every panel.
pub fn plot_svg(result: &SweepResult, lay: &PlotLayout, hovered: Option<usize>) -> String {
    let o = lay.options;
    let b = o.panel_height;
    let hovered_x = hovered.and_then(|i| result.points.get(i)).map(|p| p.value);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="sweep-plot" id="sweep-plot" role="img" aria-label="Headline metrics against {}" viewBox="0 0 {w:.0} {h:.0}" width="{w:.0}" height="{h:.0}">"#,
        esc(&result.label),
        w = Fixed(lay.width),
        h = Fixed(lay.height),
    );
    let parameter = esc(&result.spec.parameter.name());
    for panel in &lay.panels {
        let _ = write!(
            s,
            r#"<g class="sweep-panel" data-metric="{}" transform="translate({:.1},{:.1})"><text class="panel-title" x="0" y="-8">{}</text>"#,
            panel.metric.report_key(),
            Fixed(panel.left),
            Fixed(panel.top),
            esc(&panel.title)
        );
        for t in &panel.y_ticks {
            let _ = write!(
                s,
                r#"<line class="grid" x1="0" x2="{:.1}" y1="{y:.1}" y2="{y:.1}"/><text class="tick" x="-4" y="{:.1}" text-anchor="end">{}</text>"#,
                Fixed(o.panel_width),
                Fixed(t.at + 3.0),
                esc(&t.label),
                y = Fixed(t.at),
            );
        }
        let _ = write!(
            s,
            r#"<line class="axis" x1="0" x2="{:.1}" y1="{b:.1}" y2="{b:.1}"/><line class="axis" x1="0" x2="0" y1="0" y2="{b:.1}"/>"#,
            Fixed(o.panel_width),
            b = Fixed(b)
        );
        for (i, t) in panel.x_ticks.iter().enumerate() {
            let anchor = if i == 0 && t.at < 20.0 {
                "start"
            } else if t.at > o.panel_width - 20.0 {
                "end"
            } else {
                "middle"
            };
            let _ = write!(
                s,
                r#"<line class="axis" x1="{x:.1}" x2="{x:.1}" y1="{b:.1}" y2="{:.1}"/><text class="tick" x="{x:.1}" y="{:.1}" text-anchor="{anchor}">{}</text>"#,
                Fixed(b + 4.0),
                Fixed(b + 15.0),
                esc(&t.label),
                x = Fixed(t.at),
                b = Fixed(b),
            );
        }
        let mut vertical = |class: &str, x: f64, title: &str| {
            let _ = write!(
                s,
                r#"<line class="{class}" x1="{x:.1}" x2="{x:.1}" y1="0" y2="{b:.1}">{title}</line>"#,
            );
        };
        if let Some(x) = lay.default_x {
            let title = format!(
                "<title>Kafka's default: {}</title>",
                esc(&default_text(result))
            );
            vertical("kafka-default", x, &title);
        }
        let hover = hovered_x.and_then(|v| {
            panel
                .lines
                .iter()
                .flat_map(|l| &l.markers)
                .find(|m| m.value == v)
        });
        if let Some(m) = hover {
            vertical("hover-line", m.x, "");
        }
        for line in &panel.lines {
            let colour = VARIANT_COLOURS[line.variant % VARIANT_COLOURS.len()];
            let label = result
                .variants
                .get(line.variant)
                .map(|l| esc(l))
                .unwrap_or_default();
            let _ = write!(
                s,
                r#"<g class="sweep-line" data-variant="{}">"#,
                line.variant
            );
            for seg in &line.segments {
                s.push_str(r#"<polyline fill="none" stroke=""#);
                s.push_str(colour);
                s.push_str(r#"" stroke-width="1.75" stroke-linejoin="round" points=""#);
                for (i, (x, y)) in seg.iter().enumerate() {
                    let _ = write!(
                        s,
                        "{}{x:.1},{y:.1}",
                        if i == 0 { "" } else { " " },
                        x = Fixed(*x),
                        y = Fixed(*y),
                    );
                }
                s.push_str(r#""/>"#);
            }
            for m in &line.markers {
                let (fill, r) = if m.cut {
                    ("#ffffff", 3.5)
                } else {
                    (colour, 2.5)
                };
                let _ = write!(
                    s,
                    r#"<g class="sweep-point" data-point="{}" data-value="{}" data-metric-value="{}"><circle cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{fill}" stroke="{colour}" stroke-width="1.25"/><circle class="hit" cx="{x:.1}" cy="{y:.1}" r="{POINT_REACH}"><title>{label}: {parameter} = {} → {}{}</title></circle></g>"#,
                    m.point,
                    m.value,
                    m.metric,
                    esc(&result.unit.format(m.value)),
                    esc(&panel.metric.unit().format(m.metric)),
                    if m.cut {
                        " (cut at the run budget)"
                    } else {
                        ""
                    },
                    x = Fixed(m.x),
                    y = Fixed(m.y),
                );
            }
            s.push_str("</g>");
        }
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    s
}

/// One entry per variant (the CLI's colours), Kafka's default and the cut mark.
pub fn legend_html(result: &SweepResult) -> String {
    let mut s = format!(
        r#"<p class="sweep-legend"><span class="sweep-axis">{} →</span>"#,
        esc(&result.label)
    );
    let mut entry = |swatch: &str, text: &str| {
        let _ = write!(
            s,
            r#"<span class="entry"><span class="swatch{swatch}"></span>{}</span>"#,
            esc(text)
        );
    };
    for (i, label) in result.variants.iter().enumerate() {
        let colour = VARIANT_COLOURS[i % VARIANT_COLOURS.len()];
        entry(&format!(r#"" style="background: {colour}"#), label);
    }
    if result.kafka_default.is_some() {
        entry(
            " default",
            &format!("Kafka's default ({})", default_text(result)),
        );
    }
    let cut = result
        .points
        .iter()
        .any(|p| p.runs.iter().any(|r| r.cut.is_some()));
    if cut {
        entry(" cut", "cut at the run budget (the group did not settle)");
    }
    s.push_str("</p>");
    s
}

/// The hovered point's numbers for every variant, or how to get them.
pub fn readout_html(result: &SweepResult, hovered: Option<usize>) -> String {
    let Some(point) = hovered.and_then(|i| result.points.get(i)) else {
        return r#"<p class="sweep-readout sweep-hint" id="sweep-readout">Hover a point for its numbers (or focus the plot and use the arrow keys); click it, or press Enter, to open that scenario in the comparison.</p>"#.to_string();
    };
    let mut s = format!(
        r#"<div class="sweep-readout table-scroll" id="sweep-readout"><table><caption>{} = {}</caption><thead><tr><th></th>"#,
        esc(&result.label),
        esc(&result.unit.format(point.value))
    );
    for m in &result.metrics {
        let _ = write!(s, "<th>{}</th>", esc(m.label()));
    }
    s.push_str("</tr></thead><tbody>");
    for run in &point.runs {
        let _ = write!(
            s,
            "<tr><th>{}{}</th>",
            esc(&run.label),
            if run.cut.is_some() { " (cut)" } else { "" }
        );
        for (m, v) in result.metrics.iter().zip(&run.metrics) {
            let text = v.map_or_else(|| "—".to_string(), |v| m.unit().format(v));
            let _ = write!(
                s,
                r#"<td data-metric="{}">{}</td>"#,
                m.report_key(),
                esc(&text)
            );
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>");
    s
}

/// Kafka's default as people read it (empty when the parameter has none).
pub fn default_text(result: &SweepResult) -> String {
    result
        .kafka_default
        .map(|d| result.unit.format(d))
        .unwrap_or_default()
}
