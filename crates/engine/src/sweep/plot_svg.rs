//! A sweep's plot as a static, self-contained SVG (`rebalance sweep --svg`),
//! in the style of [`crate::svg_export`]: the same fonts, text colours and
//! grid lines, inline styles so it renders anywhere an `<img>` does. Each
//! point has a `<title>` with its exact numbers, shown on hover.

use crate::fixed::Fixed;
use std::fmt::Write as _;

use super::plot_layout::{PlotLayout, PlotOptions, VARIANT_COLOURS};
use super::SweepResult;
use crate::svg_export::esc;

const TEXT: &str = "#1b1f24";
const MUTED: &str = "#5b6470";
const GRID: &str = "#d0d6de";
const DEFAULT_LINE: &str = "#1b1f24";

/// Renders `result` as one SVG document titled `title` (the sweep's
/// question, or the scenario's title).
pub fn render(title: &str, result: &SweepResult) -> String {
    let lay = PlotLayout::new(result, PlotOptions::default());
    let o = lay.options;
    let (width, height) = (lay.width, lay.height);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="11">"#,
        height = Fixed(height),
        width = Fixed(width),
    );
    let _ = write!(
        s,
        r##"<title>{}</title><rect width="100%" height="100%" fill="#ffffff"/>"##,
        esc(title)
    );
    let _ = write!(
        s,
        r##"<text x="0" y="18" font-size="16" font-weight="600" fill="{TEXT}">{}</text>"##,
        esc(title)
    );
    let _ = write!(
        s,
        r##"<text x="0" y="36" fill="{MUTED}">{}</text>"##,
        esc(&subtitle(result))
    );
    legend(&mut s, result, lay.default_x.is_some());
    for panel in &lay.panels {
        let _ = write!(
            s,
            r#"<g transform="translate({:.1},{:.1})">"#,
            Fixed(panel.left),
            Fixed(panel.top)
        );
        let _ = write!(
            s,
            r##"<text x="0" y="-8" font-size="12" font-weight="600" fill="{TEXT}">{}</text>"##,
            esc(&panel.title)
        );
        for t in &panel.y_ticks {
            let _ = write!(
                s,
                r##"<line x1="0" x2="{:.1}" y1="{:.1}" y2="{:.1}" stroke="{GRID}" stroke-width="0.5"/><text x="-4" y="{:.1}" font-size="10" fill="{MUTED}" text-anchor="end">{}</text>"##,
                Fixed(o.panel_width),
                Fixed(t.at),
                Fixed(t.at),
                Fixed(t.at + 3.0),
                esc(&t.label)
            );
        }
        let bottom = o.panel_height;
        let _ = write!(
            s,
            r##"<line x1="0" x2="{:.1}" y1="{bottom:.1}" y2="{bottom:.1}" stroke="{MUTED}" stroke-width="0.75"/><line x1="0" x2="0" y1="0" y2="{bottom:.1}" stroke="{MUTED}" stroke-width="0.75"/>"##,
            Fixed(o.panel_width),
            bottom = Fixed(bottom)
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
                r##"<line x1="{x:.1}" x2="{x:.1}" y1="{bottom:.1}" y2="{:.1}" stroke="{MUTED}" stroke-width="0.75"/><text x="{x:.1}" y="{:.1}" font-size="10" fill="{MUTED}" text-anchor="{anchor}">{}</text>"##,
                Fixed(bottom + 4.0),
                Fixed(bottom + 15.0),
                esc(&t.label),
                x = Fixed(t.at),
                bottom = Fixed(bottom),
            );
        }
        if let Some(x) = lay.default_x {
            let _ = write!(
                s,
                r##"<line x1="{x:.1}" x2="{x:.1}" y1="0" y2="{bottom:.1}" stroke="{DEFAULT_LINE}" stroke-dasharray="4 3" stroke-width="1"><title>Kafka's default: {}</title></line>"##,
                esc(&default_text(result)),
                bottom = Fixed(bottom),
                x = Fixed(x)
            );
        }
        for line in &panel.lines {
            let colour = VARIANT_COLOURS[line.variant % VARIANT_COLOURS.len()];
            for seg in &line.segments {
                let pts: Vec<String> = seg
                    .iter()
                    .map(|(x, y)| format!("{x:.1},{y:.1}", x = Fixed(*x), y = Fixed(*y),))
                    .collect();
                let _ = write!(
                    s,
                    r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.75" stroke-linejoin="round"/>"#,
                    pts.join(" ")
                );
            }
            let label = &result.variants[line.variant];
            for m in &line.markers {
                let fill = if m.cut { "#ffffff" } else { colour };
                let r = if m.cut { 3.5 } else { 2.5 };
                let cut = if m.cut {
                    " (cut at the run budget)"
                } else {
                    ""
                };
                let _ = write!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="{fill}" stroke="{colour}" stroke-width="1.25"><title>{}: {} = {} → {}{}</title></circle>"#,
                    Fixed(m.x),
                    Fixed(m.y),
                    esc(label),
                    esc(&result.spec.parameter.name()),
                    esc(&result.unit.format(m.value)),
                    esc(&panel.metric.unit().format(m.metric)),
                    cut
                );
            }
        }
        s.push_str("</g>");
    }
    s.push_str("</svg>\n");
    s
}

/// `scheduled.rebalance.max.delay.ms (cooperative): 0 ms to 10 min, 21 points, linear`.
fn subtitle(result: &SweepResult) -> String {
    let spec = &result.spec;
    format!(
        "{}: {} to {}, {} points, {}",
        result.label,
        result.unit.format(spec.from),
        result.unit.format(spec.to),
        result.points.len(),
        spec.scale.as_str()
    )
}

fn default_text(result: &SweepResult) -> String {
    result
        .kafka_default
        .map(|d| result.unit.format(d))
        .unwrap_or_default()
}

/// Variant colours, Kafka's default and the cut marker, on one line.
fn legend(s: &mut String, result: &SweepResult, has_default: bool) {
    let mut x = 0.0;
    let y = 56.0;
    for (i, label) in result.variants.iter().enumerate() {
        let colour = VARIANT_COLOURS[i % VARIANT_COLOURS.len()];
        let _ = write!(
            s,
            r##"<line x1="{x:.0}" x2="{:.0}" y1="{:.0}" y2="{:.0}" stroke="{colour}" stroke-width="2.5"/><text x="{:.0}" y="{y:.0}" fill="{TEXT}">{}</text>"##,
            Fixed(x + 16.0),
            Fixed(y - 4.0),
            Fixed(y - 4.0),
            Fixed(x + 20.0),
            esc(label),
            x = Fixed(x),
            y = Fixed(y)
        );
        x += 34.0 + 6.5 * label.chars().count() as f64;
    }
    if has_default {
        let _ = write!(
            s,
            r##"<line x1="{x:.0}" x2="{x:.0}" y1="{:.0}" y2="{:.0}" stroke="{DEFAULT_LINE}" stroke-dasharray="4 3"/><text x="{:.0}" y="{y:.0}" fill="{MUTED}">Kafka's default ({})</text>"##,
            Fixed(y - 11.0),
            Fixed(y + 2.0),
            Fixed(x + 6.0),
            esc(&default_text(result)),
            x = Fixed(x),
            y = Fixed(y)
        );
        x += 150.0;
    }
    if result
        .points
        .iter()
        .any(|p| p.runs.iter().any(|r| r.cut.is_some()))
    {
        let _ = write!(
            s,
            r##"<circle cx="{:.0}" cy="{:.0}" r="3.5" fill="#ffffff" stroke="{MUTED}" stroke-width="1.25"/><text x="{:.0}" y="{y:.0}" fill="{MUTED}">cut at the run budget (the group did not settle)</text>"##,
            Fixed(x + 4.0),
            Fixed(y - 4.0),
            Fixed(x + 12.0),
            y = Fixed(y)
        );
    }
}
