//! What every timeline draws over its lanes, detailed or summarised: the
//! time axis, scenario events (labelled) and rebalance rounds, or a
//! streams-protocol column's target assignment epochs (hover or tap for
//! details).

use engine::fixed::Fixed;
use engine::layout::{LayoutOptions, TimeAxis};
use engine::svg_export::esc;
use engine::trace::Trace;
use engine::wording::duration as format_duration;
use std::fmt::Write as _;
use yew::prelude::*;

use crate::components::target_epochs::epochs_markup;
use crate::state::inline_code::plain;
use crate::state::numbers::{thousands, with_separators};

/// A coordinate with one decimal, for SVG attributes (one shared function
/// instead of a `format!` at every attribute keeps the WebAssembly small).
pub fn f1(v: f64) -> String {
    format!("{v:.1}", v = Fixed(v),)
}

/// A whole coordinate, for SVG attributes.
pub fn f0(v: f64) -> String {
    format!("{v:.0}", v = Fixed(v),)
}

/// Markup (the timelines' SVG, the sweep view's plot and readouts), escaped
/// where it was written: labels and explanations come from the scenario,
/// which a link carries. It becomes the children of the element it is put
/// in: the browser parses it in one call, where Yew would make each element
/// and set each attribute in a call of its own, and a new string replaces
/// the old children whole (issue #13: a cold load's first timeline).
pub fn markup(text: String) -> Html {
    Html::from_html_unchecked(AttrValue::from(text))
}

/// SVG [`markup`] inside one bare `<g>`: Yew inserts and removes a raw
/// bundle's top-level nodes one call each, so a changed group of a hundred
/// markers is one removal and one insertion instead of two hundred calls.
pub fn svg_markup(text: String) -> Html {
    markup(format!("<g>{text}</g>"))
}

/// Event labels on two rows above the lanes, each placed where it does not
/// overlap the previous label on its row; a label that fits nowhere is left
/// to the marker's tooltip. Returns `(x, row, anchored at its end)`.
pub fn place_labels(xs: &[(f64, usize)], width: f64) -> Vec<Option<(f64, usize, bool)>> {
    const CHAR_W: f64 = 5.6;
    let mut row_end = [f64::MIN; 2];
    xs.iter()
        .map(|&(x, chars)| {
            let w = chars as f64 * CHAR_W;
            // Right-align labels that would run off the right edge.
            let (x0, x1, end_anchor) = if x + 4.0 + w > width {
                (x - 4.0 - w, x - 4.0, true)
            } else {
                (x + 4.0, x + 4.0 + w, false)
            };
            let row = row_end.iter().position(|&e| x0 > e + 6.0)?;
            row_end[row] = x1;
            Some((if end_anchor { x - 4.0 } else { x + 4.0 }, row, end_anchor))
        })
        .collect()
}

/// What a timeline draws over its lanes, one markup layer (see [`markup`])
/// with one pair of listeners for every round and target epoch marker in
/// it: `on_marker` gets the marker's index and whether it was tapped.
/// One string a column rather than a group per kind of marker: Yew handles
/// each group in calls of its own (issue #13: an edit redraws them all).
pub fn marker_layer(markup: String, on_marker: &Callback<(usize, bool)>) -> Html {
    let (on_hover, on_tap) = marker_listeners(on_marker);
    html! {
        <g class="over-lanes" onmouseover={on_hover} onclick={on_tap}>{ svg_markup(markup) }</g>
    }
}

/// Axis ticks, event markers, round markers (or a streams-protocol
/// column's target assignment epochs) and where a cut run stopped, of
/// `trace` in `axis`'s window, from the layout's top down to `bottom`, as
/// markup for [`marker_layer`].
pub fn markers_markup(trace: &Trace, axis: &TimeAxis, o: LayoutOptions, bottom: f64) -> String {
    let mut s = String::from(r#"<g class="ticks">"#);
    ticks_markup(&mut s, axis, o, bottom);
    s.push_str("</g>");
    if axis.shows(trace.end_ms) {
        let _ = write!(
            s,
            r#"<rect class="axis-end" x="{:.1}" y="{:.0}" width="1" height="{:.0}"/>"#,
            Fixed(axis.x(trace.end_ms)),
            Fixed(o.top),
            Fixed((bottom - o.top).max(0.0))
        );
    }
    s.push_str(r#"<g class="events">"#);
    events_markup(&mut s, trace, axis, o, bottom);
    s.push_str("</g>");
    if trace.rounds.is_empty() {
        s.push_str(&epochs_markup(trace, axis, o, bottom));
    } else {
        s.push_str(r#"<g class="rounds">"#);
        rounds_markup(&mut s, trace, axis, o, bottom);
        s.push_str("</g>");
    }
    cut_markup(&mut s, trace, axis, o, bottom);
    s
}

/// Vertical lines at `xs`, from `top` to `bottom`, as one path's `d`: the
/// lines of a kind of marker are one node, however many markers there are.
fn vertical_lines(xs: impl Iterator<Item = f64>, top: f64, bottom: f64) -> String {
    let mut d = String::new();
    for x in xs {
        let _ = write!(d, "M{:.1} {:.0}V{:.0}", Fixed(x), Fixed(top), Fixed(bottom));
    }
    d
}

/// The axis' labelled ticks: their lines as one path, a label each.
fn ticks_markup(s: &mut String, axis: &TimeAxis, o: LayoutOptions, bottom: f64) {
    let ticks = axis.labelled_ticks();
    let d = vertical_lines(ticks.iter().map(|(ms, _)| axis.x(*ms)), o.top, bottom);
    let _ = write!(s, r#"<path class="tick-lines" d="{d}"/>"#);
    for (ms, label) in ticks {
        let x = axis.x(ms);
        let _ = write!(
            s,
            r#"<text class="tick-label" x="{:.1}" y="{:.0}" text-anchor="{}">{}</text>"#,
            Fixed(x),
            Fixed(bottom + 14.0),
            axis.label_anchor(x, o.width),
            esc(&label),
        );
    }
}

/// The round markers, each a `g.round` with its round's index in
/// `data-round` (the layer's listeners read it): their ticks under the
/// axis as one path, then per round its line and a wide, invisible target
/// (the line itself is one pixel) with the round as its tooltip.
fn rounds_markup(s: &mut String, trace: &Trace, axis: &TimeAxis, o: LayoutOptions, bottom: f64) {
    let (top, bottom_px) = (Fixed(o.top), Fixed(bottom));
    let markers = round_markers(trace, axis);
    // Under the targets, so that hovering a tick still finds its round.
    s.push_str(r#"<path class="round-ticks" d=""#);
    for m in &markers {
        let _ = write!(s, "M{:.1} {bottom_px:.0}l-4 6h8z", Fixed(m.x));
    }
    s.push_str(r#""/>"#);
    for m in markers {
        let round = &trace.rounds[m.first];
        let x = Fixed(m.x);
        let title = if m.count == 1 {
            format!(
                "generation {} at {}: {}",
                thousands(round.generation.max(0) as u64),
                format_duration(round.started_ms),
                with_separators(&plain(&round.explanation))
            )
        } else {
            let last = &trace.rounds[m.first + m.count - 1];
            format!(
                "{} rounds from {} to {} (zoom in to tell them apart)",
                thousands(m.count as u64),
                format_duration(round.started_ms),
                format_duration(last.started_ms)
            )
        };
        let undelivered = if round.delivered { "" } else { " undelivered" };
        let _ = write!(
            s,
            r#"<g class="round{undelivered}" data-round="{}" data-generation="{}" data-at="{}""#,
            m.first, round.generation, round.started_ms
        );
        if m.count > 1 {
            let _ = write!(s, r#" data-count="{}""#, m.count);
        }
        let _ = write!(
            s,
            r#"><line class="round-marker" x1="{x:.1}" x2="{x:.1}" y1="{top:.0}" y2="{bottom_px:.0}"/><rect class="round-hit" x="{:.1}" y="{top:.0}" width="10" height="{:.0}"><title>{}</title></rect></g>"#,
            Fixed(m.x - 5.0),
            Fixed(bottom - o.top + 6.0),
            esc(&title)
        );
    }
}

/// The scenario's events: their dotted lines as one path, then per event
/// a flag with the event as its tooltip and, where it fits, a label.
fn events_markup(s: &mut String, trace: &Trace, axis: &TimeAxis, o: LayoutOptions, bottom: f64) {
    let shown: Vec<_> = trace
        .events
        .iter()
        .filter(|e| axis.shows(e.at_ms))
        .collect();
    let event_xs: Vec<(f64, usize)> = shown
        .iter()
        .map(|e| (axis.x(e.at_ms), e.label.chars().count()))
        .collect();
    let d = vertical_lines(event_xs.iter().map(|(x, _)| *x), o.top, bottom);
    let _ = write!(s, r#"<path class="event-lines" d="{d}"/>"#);
    let placed = place_labels(&event_xs, o.width);
    for (ev, place) in shown.into_iter().zip(placed) {
        let x = Fixed(axis.x(ev.at_ms));
        let skipped = if ev.applied { "" } else { " skipped" };
        let title = format!(
            "{} at {}{}",
            ev.label,
            format_duration(ev.at_ms),
            if ev.applied { "" } else { " (could not apply)" }
        );
        let _ = write!(
            s,
            r#"<g class="event-marker{skipped}" data-at="{}"><path class="event-flag" d="M{x:.1} {:.0}l-4.5 -8h9z"><title>{}</title></path>"#,
            ev.at_ms,
            Fixed(o.top - 1.0),
            esc(&title)
        );
        if let Some((lx, row, end)) = place {
            let _ = write!(
                s,
                r#"<text class="event-label" x="{:.1}" y="{:.0}" text-anchor="{}">{}</text>"#,
                Fixed(lx),
                Fixed(12.0 + 12.0 * row as f64),
                if end { "end" } else { "start" },
                esc(&ev.label)
            );
        }
        s.push_str("</g>");
    }
}

/// Round markers closer than this (px) are drawn as one, when a window
/// shows more than [`JOIN_ABOVE`] rounds.
const MIN_ROUND_GAP: f64 = 2.0;
/// Up to this many rounds on the axis, each has its own marker (a round and
/// its cooperative follow-up a few ms later stay two markers to hover).
const JOIN_ABOVE: usize = 300;

/// One drawn round marker: `count` consecutive rounds from `first`, at `x`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RoundMarker {
    first: usize,
    count: usize,
    x: f64,
}

/// The round markers on `axis`: a marker per round, except that, past
/// [`JOIN_ABOVE`] rounds, rounds starting within [`MIN_ROUND_GAP`] px of the
/// previous marker join it (a storm's thousands of rounds would otherwise be
/// thousands of overlapping markers, none of which could be told apart or
/// hovered on its own).
fn round_markers(trace: &Trace, axis: &TimeAxis) -> Vec<RoundMarker> {
    let shown = trace
        .rounds
        .iter()
        .filter(|r| axis.shows(r.started_ms))
        .count();
    let gap = if shown > JOIN_ABOVE {
        MIN_ROUND_GAP
    } else {
        0.0
    };
    let mut out: Vec<RoundMarker> = Vec::new();
    for (i, round) in trace.rounds.iter().enumerate() {
        if !axis.shows(round.started_ms) {
            continue;
        }
        let x = axis.x(round.started_ms);
        match out.last_mut() {
            Some(m) if m.first + m.count == i && (x - m.x).abs() < gap => m.count += 1,
            _ => out.push(RoundMarker {
                first: i,
                count: 1,
                x,
            }),
        }
    }
    out
}

/// The `mouseover` and `click` listeners of a [`marker_layer`]:
/// `on_marker` gets the index of the round or target epoch marker under
/// the pointer, and whether it was tapped or clicked (`true`) or hovered
/// (`false`; not while a button is held, a scrub passing by).
fn marker_listeners(
    on_marker: &Callback<(usize, bool)>,
) -> (Callback<MouseEvent>, Callback<MouseEvent>) {
    let on_hover = {
        let on_marker = on_marker.clone();
        Callback::from(move |e: MouseEvent| {
            if e.buttons() == 0 {
                if let Some(i) = marker_index(&e) {
                    on_marker.emit((i, false));
                }
            }
        })
    };
    let on_tap = {
        let on_marker = on_marker.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(i) = marker_index(&e) {
                on_marker.emit((i, true));
            }
        })
    };
    (on_hover, on_tap)
}

/// The index of the marker a mouse event happened on: a round's
/// `data-round` or a target epoch's `data-target` (a column has one kind
/// or the other).
fn marker_index(e: &MouseEvent) -> Option<usize> {
    use wasm_bindgen::JsCast;
    let target: web_sys::Element = e.target()?.dyn_into().ok()?;
    let marker = target.closest("g.round, g.target-epoch").ok()??;
    marker
        .get_attribute("data-round")
        .or_else(|| marker.get_attribute("data-target"))?
        .parse()
        .ok()
}

/// Where a cut run (a storm stopped at its budget) was stopped: a line and
/// "stopped here", the verdict as its tooltip.
fn cut_markup(s: &mut String, trace: &Trace, axis: &TimeAxis, o: LayoutOptions, bottom: f64) {
    let Some(cut) = trace.cut.filter(|c| axis.shows(c.at_ms)) else {
        return;
    };
    let x = axis.x(cut.at_ms);
    let _ = write!(
        s,
        r#"<g class="run-cut-marker" data-at="{}"><line class="run-cut-line" x1="{x:.1}" x2="{x:.1}" y1="{:.0}" y2="{:.0}"/><text class="run-cut-label" x="{:.1}" y="{:.0}" text-anchor="end">stopped here</text><title>{}</title></g>"#,
        cut.at_ms,
        Fixed(o.top),
        Fixed(bottom),
        Fixed(x - 4.0),
        Fixed(o.top + 11.0),
        esc(&cut.verdict()),
        x = Fixed(x),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace_with_rounds(starts: &[u64]) -> Trace {
        let mut trace = Trace {
            end_ms: 100_000,
            ..Trace::default()
        };
        for &at in starts {
            trace.rounds.push(engine::trace::RebalanceRound {
                started_ms: at,
                completed_ms: at,
                ..Default::default()
            });
        }
        trace
    }

    #[test]
    fn dense_round_markers_closer_than_two_pixels_join() {
        // 100 s over 1,000 px: 100 ms a pixel.
        let axis = TimeAxis {
            from_ms: 0,
            to_ms: 100_000,
            left: 0.0,
            right: 1_000.0,
        };
        let few = [1_000, 1_050, 1_150, 1_400, 50_000, 200_000];
        let markers = round_markers(&trace_with_rounds(&few), &axis);
        // Few rounds: one marker each (the last is off the axis).
        assert_eq!(markers.len(), 5);
        // A storm: 400 more rounds, 10 ms apart, after 60 s.
        let storm: Vec<u64> = few
            .iter()
            .copied()
            .take(5)
            .chain((0..400).map(|i| 60_000 + i * 10))
            .collect();
        let markers = round_markers(&trace_with_rounds(&storm), &axis);
        // 1,000 / 1,050 / 1,150 ms are within 2 px of the first; 1,400 ms is 4 px on.
        assert_eq!(
            markers
                .iter()
                .take(3)
                .map(|m| (m.first, m.count))
                .collect::<Vec<_>>(),
            vec![(0, 3), (3, 1), (4, 1)]
        );
        assert_eq!(markers[1].x, 14.0);
        // 4 s of the storm over 40 px: one marker per 2 px, every round in one.
        let storm_markers = &markers[3..];
        assert_eq!(storm_markers.len(), 20);
        assert_eq!(storm_markers.iter().map(|m| m.count).sum::<usize>(), 400);
    }

    /// Labels and explanations come from the scenario, which a link can
    /// carry: the markup must keep them text.
    #[test]
    fn markup_escapes_what_the_scenario_wrote() {
        let hostile = r#"<img src=x onerror="alert(1)"> & co"#;
        let mut trace = trace_with_rounds(&[10_000, 20_000]);
        trace.rounds[0].explanation = hostile.into();
        trace.rounds[0].delivered = true;
        trace.events.push(engine::trace::EventMarker {
            at_ms: 5_000,
            worker: None,
            label: hostile.into(),
            applied: false,
        });
        let axis = TimeAxis {
            from_ms: 0,
            to_ms: 100_000,
            left: 0.0,
            right: 1_000.0,
        };
        let o = LayoutOptions::default();
        let (mut rounds, mut events) = (String::new(), String::new());
        rounds_markup(&mut rounds, &trace, &axis, o, 200.0);
        events_markup(&mut events, &trace, &axis, o, 200.0);
        for text in [&rounds, &events] {
            assert!(!text.contains("<img"), "{text}");
            assert!(
                text.contains("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; co"),
                "{text}"
            );
        }
        // Every round on the axis is a marker its listeners can name.
        assert!(
            rounds.contains(
                r#"<g class="round" data-round="0" data-generation="0" data-at="10000">"#
            ),
            "{rounds}"
        );
        assert!(rounds.contains(r#"<g class="round undelivered" data-round="1""#));
        assert_eq!(
            rounds.matches("<g ").count(),
            rounds.matches("</g>").count()
        );
        assert!(
            events.contains(r#"<g class="event-marker skipped" data-at="5000">"#),
            "{events}"
        );
        // The lines of a kind of marker are one path: one line per marker.
        assert!(
            events.starts_with(r#"<path class="event-lines" d="M50.0 "#),
            "{events}"
        );
        assert_eq!(rounds.matches("<path ").count(), 1, "{rounds}");
        assert_eq!(rounds.matches("l-4 6h8z").count(), 2, "{rounds}");
        let mut ticks = String::new();
        ticks_markup(&mut ticks, &axis, o, 200.0);
        let labels = ticks.matches(r#"<text class="tick-label""#).count();
        assert!(labels >= 2, "{ticks}");
        assert_eq!(ticks.matches('M').count(), labels, "{ticks}");
        // Everything in one layer: balanced groups, and the cut-free trace has no cut marker.
        let all = markers_markup(&trace, &axis, o, 200.0);
        assert_eq!(
            all.matches("<g").count(),
            all.matches("</g>").count(),
            "{all}"
        );
        assert!(!all.contains("run-cut"), "{all}");
    }

    #[test]
    fn labels_never_overlap_on_a_row() {
        let xs: Vec<(f64, usize)> = (0..20).map(|i| (100.0 + i as f64 * 20.0, 12)).collect();
        let placed = place_labels(&xs, 960.0);
        assert!(placed[0].is_some());
        let mut rows: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        for p in placed.iter().flatten() {
            rows[p.1].push(p.0);
        }
        for row in rows {
            for w in row.windows(2) {
                assert!(w[1] - w[0] >= 12.0 * 5.6, "{w:?}");
            }
        }
    }
}
