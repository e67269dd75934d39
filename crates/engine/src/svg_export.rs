//! A static, self-contained SVG of a run's side-by-side timelines, for docs
//! pages and postmortems: the same layout, colours and legend as the page,
//! with inline styles so it renders anywhere an `<img>` does.

use crate::fixed::Fixed;
use std::fmt::Write as _;

use crate::layout::{self, LayoutOptions, TimelineLayout, LEGEND, ROUND_COLOUR};
use crate::report::metric_rows;
use crate::run::RunResult;
use crate::scenario::Scenario;

const COLUMN_GAP: f64 = 24.0;
const HEADER: f64 = 64.0;
/// Metric rows shown under each column title.
const METRICS_SHOWN: [&str; 4] = [
    "task_seconds_not_running",
    "tasks_stopped",
    "rebalance_rounds",
    "longest_task_outage",
];

/// Renders the scenario's compared runs as one SVG document.
pub fn render(scenario: &Scenario, result: &RunResult) -> String {
    let options = LayoutOptions::default();
    let layouts: Vec<TimelineLayout> = result
        .variants
        .iter()
        .map(|v| TimelineLayout::new(&v.trace, options))
        .collect();
    let column_w = options.width;
    let width = layouts.len().max(1) as f64 * (column_w + COLUMN_GAP) - COLUMN_GAP;
    let metrics_h = 16.0 * METRICS_SHOWN.len() as f64 + 8.0;
    let body_h = layouts.iter().map(|l| l.height).fold(0.0, f64::max);
    let height = HEADER + metrics_h + body_h + 8.0;
    let rows = metric_rows(result);

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
        esc(&scenario.title)
    );
    let _ = write!(
        s,
        r##"<text x="0" y="18" font-size="16" font-weight="600" fill="#1b1f24">{}</text>"##,
        esc(&scenario.title)
    );
    // Legend.
    let mut x = 0.0;
    for (state, label) in LEGEND {
        let _ = write!(
            s,
            r##"<rect x="{x:.0}" y="32" width="14" height="10" rx="2" fill="{}"/><text x="{:.0}" y="41" fill="#5b6470">{}</text>"##,
            layout::state_colour(state),
            Fixed(x + 18.0),
            esc(label),
            x = Fixed(x)
        );
        x += 28.0 + 6.5 * label.len() as f64;
    }
    let _ = write!(
        s,
        r##"<line x1="{x:.0}" x2="{x:.0}" y1="30" y2="44" stroke="{ROUND_COLOUR}" stroke-dasharray="3 2"/><text x="{:.0}" y="41" fill="#5b6470">rebalance round</text>"##,
        Fixed(x + 6.0),
        x = Fixed(x)
    );

    for (i, (run, lay)) in result.variants.iter().zip(&layouts).enumerate() {
        let ox = i as f64 * (column_w + COLUMN_GAP);
        let _ = write!(
            s,
            r#"<g transform="translate({ox:.0},{HEADER:.0})">"#,
            HEADER = Fixed(HEADER),
            ox = Fixed(ox),
        );
        let _ = write!(
            s,
            r##"<text x="0" y="0" font-size="14" font-weight="600" fill="#1b1f24">{}</text>"##,
            esc(&run.label)
        );
        for (r, key) in METRICS_SHOWN.iter().enumerate() {
            if let Some(row) = rows.iter().find(|row| row.key == *key) {
                let _ = write!(
                    s,
                    r##"<text x="0" y="{:.0}" fill="#5b6470">{}: <tspan fill="#1b1f24" font-weight="600">{}</tspan></text>"##,
                    Fixed(18.0 + 16.0 * r as f64),
                    esc(&row.label),
                    esc(&row.values[i])
                );
            }
        }
        let _ = write!(
            s,
            r#"<g transform="translate(0,{metrics_h:.0})">"#,
            metrics_h = Fixed(metrics_h),
        );
        render_timeline(&mut s, &run.trace, lay);
        s.push_str("</g></g>");
    }
    s.push_str("</svg>\n");
    s
}

fn render_timeline(s: &mut String, trace: &crate::trace::Trace, lay: &TimelineLayout) {
    let o = lay.options;
    for (i, lane) in lay.lanes.iter().enumerate() {
        let fill = if i % 2 == 1 { "#f0f2f5" } else { "#fafbfc" };
        let _ = write!(
            s,
            r##"<rect x="0" y="{:.1}" width="{:.0}" height="{:.1}" fill="{fill}"/><text x="4" y="{:.1}" font-weight="600" fill="#1b1f24">{}</text>"##,
            Fixed(lane.y),
            Fixed(o.width),
            Fixed(lane.height),
            Fixed(lane.y + 14.0),
            esc(&lane.label)
        );
        if lane.hidden > 0 {
            let _ = write!(
                s,
                r##"<text x="{:.0}" y="{:.1}" font-size="10" fill="#5b6470">+{} more connectors and tasks</text>"##,
                Fixed(o.label_width),
                Fixed(lane.y + lane.height - 3.0),
                lane.hidden
            );
        }
    }
    let bottom = lay.lanes_bottom();
    let axis = lay.axis();
    for (ms, label) in lay.labelled_ticks() {
        let x = lay.x(ms);
        let anchor = axis.label_anchor(x, o.width);
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" x2="{x:.1}" y1="{:.0}" y2="{bottom:.0}" stroke="#d0d6de" stroke-width="0.5"/><text x="{x:.1}" y="{:.0}" font-size="10" fill="#5b6470" text-anchor="{anchor}">{}</text>"##,
            Fixed(o.top - 4.0),
            Fixed(bottom + 14.0),
            label,
            bottom = Fixed(bottom),
            x = Fixed(x)
        );
    }
    for bar in lay.drawn_bars_on(trace, lay.axis(), |_| true) {
        let _ = write!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{}" fill="{}"/>"#,
            Fixed(bar.x),
            Fixed(bar.y),
            Fixed(bar.width),
            // Whole pixels (6): written as `{}` of the f64 writes them.
            Fixed(o.row_height),
            layout::state_colour(bar.state)
        );
    }
    for round in &trace.rounds {
        let x = lay.x(round.completed_ms);
        let _ = write!(
            s,
            r#"<line x1="{x:.1}" x2="{x:.1}" y1="{:.0}" y2="{bottom:.0}" stroke="{ROUND_COLOUR}" stroke-dasharray="3 2"><title>generation {}: {}</title></line>"#,
            Fixed(o.top - 6.0),
            round.generation,
            esc(&round.explanation),
            bottom = Fixed(bottom),
            x = Fixed(x)
        );
    }
    for ev in &trace.events {
        let x = lay.x(ev.at_ms);
        let _ = write!(
            s,
            r##"<path d="M{x:.1} {:.0} l-4 -7 h8 z" fill="#1b1f24"/><text x="{:.1}" y="{:.0}" font-size="10" fill="#1b1f24">{}</text>"##,
            Fixed(o.top - 8.0),
            Fixed(x + 5.0),
            Fixed(o.top - 12.0),
            esc(&ev.label),
            x = Fixed(x)
        );
    }
}

/// Escapes text for XML: an element's text or a quoted attribute (also the
/// page's sweep plot, written as markup text).
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_every_column_with_bars_and_escapes_text() {
        let mut scenario = crate::presets::default_preset().scenario();
        scenario.title = "a <b> & \"c\"".into();
        let result = crate::run::run(&scenario);
        let svg = render(&scenario, &result);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("a &lt;b&gt; &amp; &quot;c&quot;"));
        for v in &result.variants {
            assert!(svg.contains(&format!(">{}</text>", esc(&v.label))));
        }
        assert!(
            svg.matches(layout::state_colour(crate::trace::ItemState::Running))
                .count()
                > 10
        );
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn page_stylesheet_uses_the_same_colours() {
        let css = include_str!("../../../web/style.css");
        for (state, _) in LEGEND {
            let decl = format!(
                "--{}: {};",
                layout::state_name(state),
                layout::state_colour(state)
            );
            assert!(css.contains(&decl), "web/style.css lacks `{decl}`");
        }
        assert!(css.contains(&format!("--round: {ROUND_COLOUR};")));
    }
}
