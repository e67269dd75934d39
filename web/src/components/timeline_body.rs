//! The static part of a detailed timeline: a lane per worker (and one for
//! unassigned work), a row per connector and task, bars coloured by state,
//! then the markers. It only changes with the result, the width or the
//! drill-down and the window shown, so the playhead can move sixty times a
//! second without redrawing thousands of shapes.
//!
//! Bars of one state on one lane are one `<path>`: the browser keeps a few
//! nodes per lane however many connectors and tasks a worker runs.

use engine::fixed::Fixed;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use engine::layout::{state_name, Lane, TimeAxis, TimelineLayout, LEGEND};
use engine::run::RunResult;
use engine::svg_export::esc;
use engine::trace::{ItemState, Trace, WorkerState};
use yew::prelude::*;

use crate::browser::profile;
use crate::components::markers::{marker_layer, markers_markup, svg_markup};
use crate::components::target_epochs::reconciliation_markup;
use crate::shared::Shared;
use crate::state::numbers::thousands;

/// Props of [`TimelineBody`].
#[derive(Properties, PartialEq)]
pub struct TimelineBodyProps {
    /// The whole result (rounds and events come from its trace).
    pub result: Shared<RunResult>,
    /// Which column.
    pub index: usize,
    /// The lanes to draw, when not the whole trace's (a drill-down).
    pub lanes: Option<Shared<Trace>>,
    /// Geometry of the lanes drawn.
    pub layout: Shared<TimelineLayout>,
    /// The window of the time axis shown.
    pub axis: TimeAxis,
    /// A round was hovered (`false`) or tapped/clicked (`true`).
    pub on_round: Callback<(usize, bool)>,
    /// Draw only lanes overlapping this vertical range (a tall timeline
    /// scrolled through); `None` draws every lane.
    #[prop_or_default]
    pub window: Option<(f64, f64)>,
}

/// Time ranges `[start, end)`.
type Ranges = Vec<(u64, u64)>;

/// Where a worker lane had no process (`down`) or a frozen one.
fn process_gaps(trace: &Trace, worker: u32) -> (Ranges, Ranges) {
    let mut spans: Vec<_> = trace
        .worker_spans
        .iter()
        .filter(|s| s.worker == worker)
        .collect();
    engine::sort_by_key::sort_by_u64_key(&mut spans, |s| s.start_ms);
    let mut down = Vec::new();
    let mut frozen = Vec::new();
    let mut covered = 0;
    for s in spans {
        if s.start_ms > covered {
            down.push((covered, s.start_ms));
        }
        covered = covered.max(s.end_ms);
        if s.state == WorkerState::Frozen {
            frozen.push((s.start_ms, s.end_ms));
        }
    }
    if covered < trace.end_ms {
        down.push((covered, trace.end_ms));
    }
    (down, frozen)
}

/// True when some of `[a, b)` is on the axis.
fn shows(axis: &TimeAxis, (a, b): (u64, u64)) -> bool {
    b >= axis.from_ms && a <= axis.to_ms
}

/// The lanes drawn (those `shown` keeps) as SVG markup: per lane its
/// background, the stretches without a process or with a frozen one, its
/// label, and a path per state. Labels come from the scenario: every text
/// is escaped.
fn lanes_markup(
    trace: &Trace,
    lay: &TimelineLayout,
    axis: &TimeAxis,
    paths: &HashMap<(Option<u32>, ItemState), String>,
    shown: impl Fn(&Lane) -> bool,
) -> String {
    let o = lay.options;
    let mut s = String::new();
    for (i, lane) in lay.lanes.iter().enumerate().filter(|(_, l)| shown(l)) {
        let label = esc(&lane.label);
        let (y, h) = (Fixed(lane.y), Fixed(lane.height));
        let odd = if i % 2 == 1 { " odd" } else { "" };
        let _ = write!(
            s,
            r#"<g class="lane" data-lane="{label}"><rect class="lane-bg{odd}" x="0" y="{y:.1}" width="{:.1}" height="{h:.1}"/>"#,
            Fixed(o.width)
        );
        let (down, frozen) = match lane.worker {
            Some(w) => process_gaps(trace, w),
            None => (Vec::new(), Vec::new()),
        };
        for (class, gaps) in [("lane-down", down), ("lane-frozen", frozen)] {
            for (a, b) in gaps.into_iter().filter(|g| shows(axis, *g)) {
                let x = axis.x(a);
                let _ = write!(
                    s,
                    r#"<rect class="{class}" x="{:.1}" y="{y:.1}" width="{:.1}" height="{h:.1}"/>"#,
                    Fixed(x),
                    Fixed((axis.x(b) - x).max(0.0))
                );
            }
        }
        let count = thousands((lane.rows.len() + lane.hidden) as u64);
        let title = match lane.worker {
            Some(_) => format!("{label}: {count} connectors and tasks ran here"),
            None => format!("{count} connectors and tasks waited unassigned"),
        };
        let _ = write!(
            s,
            r#"<text class="lane-label" x="4" y="{:.1}">{label}<title>{title}</title></text>"#,
            Fixed(lane.y + 13.0)
        );
        if lane.hidden > 0 {
            let _ = write!(
                s,
                r#"<text class="lane-more" x="4" y="{:.1}">+{} more</text>"#,
                Fixed(lane.y + lane.height - 4.0),
                thousands(lane.hidden as u64)
            );
        }
        for (state, _) in LEGEND {
            if let Some(d) = paths.get(&(lane.worker, state)) {
                let name = state_name(state);
                let _ = write!(
                    s,
                    r#"<path class="bars {name}" data-state="{name}" d="{d}"/>"#
                );
            }
        }
        s.push_str("</g>");
    }
    s
}

/// Lanes, bars, axis, round and event markers of one run.
#[component]
pub fn TimelineBody(props: &TimelineBodyProps) -> Html {
    let run = &props.result.variants[props.index];
    let trace: &Trace = props.lanes.as_deref().unwrap_or(&run.trace);
    let lay = &*props.layout;
    let axis = props.axis;
    let o = lay.options;

    let visible = |y: f64, h: f64| props.window.is_none_or(|(lo, hi)| y + h >= lo && y <= hi);
    // Lanes drawn whole: a lane near the screen gets all its bars.
    let shown: HashSet<Option<u32>> = lay
        .lanes
        .iter()
        .filter(|l| visible(l.y, l.height))
        .map(|l| l.worker)
        .collect();
    // One path per (lane, state).
    let paths = profile::timed("bar paths", || {
        let mut paths: HashMap<(Option<u32>, ItemState), String> = HashMap::new();
        for bar in lay.drawn_bars_on(trace, axis, |w| shown.contains(&w)) {
            let d = paths.entry((bar.worker, bar.state)).or_default();
            let _ = write!(
                d,
                "M{:.1} {:.1}h{:.1}v{}h-{:.1}z",
                Fixed(bar.x),
                Fixed(bar.y),
                Fixed(bar.width),
                Fixed(o.row_height),
                Fixed(bar.width)
            );
        }
        paths
    });

    let lanes = lanes_markup(trace, lay, &axis, &paths, |l| visible(l.y, l.height));
    // Over the lanes, one string: the bands, then the markers. Apart from
    // the lanes, which change alone while a tall timeline scrolls.
    let mut over = reconciliation_markup(&run.trace, lay, &axis);
    over.push_str(&markers_markup(&run.trace, &axis, o, lay.lanes_bottom()));
    html! {
        <g class="timeline-body" data-lanes={lay.lanes.len().to_string()}>
            // Markup the browser parses: one call into the page for every
            // lane, where Yew made an element and set each attribute in a
            // call of its own (issue #13: a cold load's first timeline).
            <g class="lanes">{ svg_markup(lanes) }</g>
            { marker_layer(over, &props.on_round) }
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worker's name comes from the scenario, which a link can carry: the
    /// markup keeps it text, in the label, its tooltip and `data-lane`.
    #[test]
    fn lane_markup_escapes_worker_names() {
        let result = engine::run::run(&engine::presets::default_preset().scenario());
        let mut trace = result.variants[0].trace.clone();
        trace.workers[0] = r#"<b onclick="x">w</b>"#.into();
        let lay = TimelineLayout::new(&trace, engine::layout::LayoutOptions::default());
        let markup = lanes_markup(&trace, &lay, &lay.axis(), &HashMap::new(), |_| true);
        assert!(!markup.contains("<b"), "{markup}");
        assert!(
            markup.contains(r#"data-lane="&lt;b onclick=&quot;x&quot;&gt;w&lt;/b&gt;""#),
            "{markup}"
        );
        assert_eq!(markup.matches("<g ").count(), lay.lanes.len());
        assert_eq!(markup.matches("</g>").count(), lay.lanes.len());
        // Only the lanes asked for.
        let first = lanes_markup(&trace, &lay, &lay.axis(), &HashMap::new(), |l| {
            l.y == lay.lanes[0].y
        });
        assert_eq!(first.matches("<g ").count(), 1);
    }

    #[test]
    fn gaps_cover_time_without_a_process() {
        let result = engine::run::run(&engine::presets::default_preset().scenario());
        let trace = &result.variants[0].trace;
        // worker-4 joins at 30 s: no process before.
        let w4 = trace.worker_index("worker-4").unwrap();
        let (down, _) = process_gaps(trace, w4);
        assert_eq!(down.first().map(|g| g.0), Some(0));
        assert!(down[0].1 >= 30_000);
    }
}
