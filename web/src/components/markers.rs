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

use crate::components::target_epochs::epoch_markers;
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

/// Axis ticks, event markers and round markers of `trace` that fall in
/// `axis`'s window, from the layout's top down to `bottom`.
pub fn markers(
    trace: &Trace,
    axis: &TimeAxis,
    o: LayoutOptions,
    bottom: f64,
    on_round: &Callback<(usize, bool)>,
) -> Html {
    let right = axis.x(trace.end_ms);
    let ticks = ticks_markup(axis, o, bottom);
    let rounds = rounds_markup(trace, axis, o, bottom);
    let events = events_markup(trace, axis, o, bottom);
    // One pair of listeners for every marker (a closure pair per round cost
    // thousands of listeners on a storm): the round is the marker's `data-round`.
    let (on_hover, on_tap) = marker_listeners(on_round, "g.round", "data-round");

    html! {
        <>
            <g class="ticks">{ svg_markup(ticks) }</g>
            if axis.shows(trace.end_ms) {
                <rect class="axis-end" x={f1(right)} y={f0(o.top)} width="1" height={f0((bottom - o.top).max(0.0))} />
            }
            <g class="events">{ svg_markup(events) }</g>
            <g class="rounds" onmouseover={on_hover} onclick={on_tap}>{ svg_markup(rounds) }</g>
            { epoch_markers(trace, axis, o, bottom, on_round) }
            { cut_marker(trace, axis, o, bottom) }
        </>
    }
}

/// The axis' labelled ticks as markup (see [`markup`]).
fn ticks_markup(axis: &TimeAxis, o: LayoutOptions, bottom: f64) -> String {
    let (top, bottom_px) = (Fixed(o.top), Fixed(bottom));
    let mut ticks = String::new();
    for (ms, label) in axis.labelled_ticks() {
        let x = axis.x(ms);
        let anchor = axis.label_anchor(x, o.width);
        let _ = write!(
            ticks,
            r#"<g class="tick"><line x1="{x:.1}" x2="{x:.1}" y1="{top:.0}" y2="{bottom_px:.0}"/><text x="{x:.1}" y="{:.0}" text-anchor="{anchor}">{}</text></g>"#,
            Fixed(bottom + 14.0),
            esc(&label),
            x = Fixed(x),
        );
    }

    ticks
}

/// The round markers as markup, each a `g.round` with its round's index
/// in `data-round` (the listeners on their parent read it).
fn rounds_markup(trace: &Trace, axis: &TimeAxis, o: LayoutOptions, bottom: f64) -> String {
    let (top, bottom_px) = (Fixed(o.top), Fixed(bottom));
    let mut rounds = String::new();
    for m in round_markers(trace, axis) {
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
            rounds,
            r#"<g class="round{undelivered}" data-round="{}" data-generation="{}" data-at="{}""#,
            m.first, round.generation, round.started_ms
        );
        if m.count > 1 {
            let _ = write!(rounds, r#" data-count="{}""#, m.count);
        }
        // The rect is a wide, invisible target: the marker itself is one pixel.
        let _ = write!(
            rounds,
            r#"><line class="round-marker" x1="{x:.1}" x2="{x:.1}" y1="{top:.0}" y2="{bottom_px:.0}"/><path class="round-tick" d="M{x:.1} {bottom_px:.0}l-4 6h8z"/><rect class="round-hit" x="{:.1}" y="{top:.0}" width="10" height="{:.0}"><title>{}</title></rect></g>"#,
            Fixed(m.x - 5.0),
            Fixed(bottom - o.top + 6.0),
            esc(&title)
        );
    }
    rounds
}

/// The scenario's events as markup: a line, a flag with the event as its
/// tooltip and, where it fits, a label.
fn events_markup(trace: &Trace, axis: &TimeAxis, o: LayoutOptions, bottom: f64) -> String {
    let (top, bottom_px) = (Fixed(o.top), Fixed(bottom));
    let shown: Vec<_> = trace
        .events
        .iter()
        .filter(|e| axis.shows(e.at_ms))
        .collect();
    let event_xs: Vec<(f64, usize)> = shown
        .iter()
        .map(|e| (axis.x(e.at_ms), e.label.chars().count()))
        .collect();
    let placed = place_labels(&event_xs, o.width);
    let mut events = String::new();
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
            events,
            r#"<g class="event-marker{skipped}" data-at="{}"><line class="event-line" x1="{x:.1}" x2="{x:.1}" y1="{top:.0}" y2="{bottom_px:.0}"/><path d="M{x:.1} {:.0}l-4.5 -8h9z"><title>{}</title></path>"#,
            ev.at_ms,
            Fixed(o.top - 1.0),
            esc(&title)
        );
        if let Some((lx, row, end)) = place {
            let _ = write!(
                events,
                r#"<text class="event-label" x="{:.1}" y="{:.0}" text-anchor="{}">{}</text>"#,
                Fixed(lx),
                Fixed(12.0 + 12.0 * row as f64),
                if end { "end" } else { "start" },
                esc(&ev.label)
            );
        }
        events.push_str("</g>");
    }

    events
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

/// The `mouseover` and `click` listeners of a group of markers drawn as
/// markup: `on_marker` gets the index in `attribute` of the marker
/// (`selector`) under the pointer, and whether it was tapped or clicked
/// (`true`) or hovered (`false`; not while a button is held, a scrub
/// passing by).
pub(crate) fn marker_listeners(
    on_marker: &Callback<(usize, bool)>,
    selector: &'static str,
    attribute: &'static str,
) -> (Callback<MouseEvent>, Callback<MouseEvent>) {
    let on_hover = {
        let on_marker = on_marker.clone();
        Callback::from(move |e: MouseEvent| {
            if e.buttons() == 0 {
                if let Some(i) = marker_index(&e, selector, attribute) {
                    on_marker.emit((i, false));
                }
            }
        })
    };
    let on_tap = {
        let on_marker = on_marker.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(i) = marker_index(&e, selector, attribute) {
                on_marker.emit((i, true));
            }
        })
    };
    (on_hover, on_tap)
}

/// The index in `attribute` of the marker (`selector`, e.g. `g.round`) a
/// mouse event happened on: markers drawn as markup share their parent's
/// listeners.
fn marker_index(e: &MouseEvent, selector: &str, attribute: &str) -> Option<usize> {
    use wasm_bindgen::JsCast;
    let target: web_sys::Element = e.target()?.dyn_into().ok()?;
    target
        .closest(selector)
        .ok()??
        .get_attribute(attribute)?
        .parse()
        .ok()
}

/// Where a cut run (a storm stopped at its budget) was stopped: a line and
/// "stopped here", the verdict as its tooltip.
fn cut_marker(trace: &Trace, lay: &TimeAxis, o: LayoutOptions, bottom: f64) -> Html {
    let Some(cut) = trace.cut.filter(|c| lay.shows(c.at_ms)) else {
        return Html::default();
    };
    let x = lay.x(cut.at_ms);
    html! {
        <g class="run-cut-marker" data-at={cut.at_ms.to_string()}>
            <line class="run-cut-line" x1={f1(x)} x2={f1(x)} y1={f0(o.top)} y2={f0(bottom)} />
            <text class="run-cut-label" x={f1(x - 4.0)} y={f0(o.top + 11.0)} text-anchor="end">{"stopped here"}</text>
            <title>{ cut.verdict() }</title>
        </g>
    }
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
        let rounds = rounds_markup(&trace, &axis, o, 200.0);
        let events = events_markup(&trace, &axis, o, 200.0);
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
            events.starts_with(r#"<g class="event-marker skipped" data-at="5000">"#),
            "{events}"
        );
        assert!(ticks_markup(&axis, o, 200.0).contains(r#"<g class="tick">"#));
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
