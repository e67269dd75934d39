//! What a streams-protocol column (KIP-1071, no rounds) draws over its
//! lanes: a marker per target assignment epoch (hover or tap for details,
//! like a round marker) and, on each lane, a thin band per StreamThread
//! showing its reconciliation state over time (`CurrentAssignmentBuilder`:
//! revoking, waiting for a release, assigned). Composed by the timeline
//! bodies; read from the trace (`state::target_view`).

use engine::fixed::{clamp, Fixed};
use engine::layout::{LayoutOptions, TimeAxis, TimelineLayout};
use engine::svg_export::esc;
use engine::trace::Trace;
use engine::wording::duration as format_duration;
use std::fmt::Write as _;

use crate::state::target_view::{band_title, why, BandKind};

/// The target assignment markers of `trace` in `axis`'s window, from the
/// layout's top down to `bottom`, as markup in a `g.target-epochs`: each a
/// `g.target-epoch` with its index in `data-target` (the marker layer's
/// listeners read it; [`marker_layer`](crate::components::markers::marker_layer)).
pub(crate) fn epochs_markup(
    trace: &Trace,
    axis: &TimeAxis,
    o: LayoutOptions,
    bottom: f64,
) -> String {
    let (top, bottom_px) = (Fixed(o.top), Fixed(bottom));
    let mut s = String::from(r#"<g class="target-epochs">"#);
    for (i, a) in trace
        .target_assignments
        .iter()
        .enumerate()
        .filter(|(_, a)| axis.shows(a.computed_ms))
    {
        let x_px = axis.x(a.computed_ms);
        let x = Fixed(x_px);
        let title = format!(
            "target assignment epoch {} at {}: {}",
            a.epoch,
            format_duration(a.computed_ms),
            why(trace, a)
        );
        let _ = write!(
            s,
            r#"<g class="target-epoch" data-target="{i}" data-epoch="{}" data-at="{}"><line class="target-marker" x1="{x:.1}" x2="{x:.1}" y1="{top:.0}" y2="{bottom_px:.0}"/><path class="target-tick" d="M{x:.1} {bottom_px:.0}l-4 3 4 3 4-3z"/><rect class="round-hit" x="{:.1}" y="{top:.0}" width="10" height="{:.0}"><title>{}</title></rect></g>"#,
            a.epoch,
            a.computed_ms,
            Fixed(x_px - 5.0),
            Fixed(bottom - o.top + 6.0),
            esc(&title)
        );
    }
    s.push_str("</g>");
    s
}

/// Reconciliation bands along the bottom of each drawn lane, as markup in
/// a `g.reconciliation` (none without any): the lanes are matched to
/// `whole`'s workers by name (a drill-down renumbers them).
pub(crate) fn reconciliation_markup(
    whole: &Trace,
    lay: &TimelineLayout,
    axis: &TimeAxis,
) -> String {
    if whole.member_reconciliation.is_empty() {
        return String::new();
    }
    format!(
        r#"<g class="reconciliation">{}</g>"#,
        bands_markup(whole, lay, axis)
    )
}

/// The reconciliation bands as markup (see
/// [`markup`](crate::components::markers::markup)): a `g.recon-lane` per
/// lane with a band per span.
fn bands_markup(whole: &Trace, lay: &TimelineLayout, axis: &TimeAxis) -> String {
    let pad = lay.options.lane_padding - 1.0;
    let mut out = String::new();
    for lane in &lay.lanes {
        if lane.worker.is_none() {
            continue;
        }
        let Some(w) = whole.worker_index(&lane.label) else {
            continue;
        };
        let spans: Vec<_> = whole
            .member_reconciliation
            .iter()
            .filter(|s| s.worker == w && s.end_ms >= axis.from_ms && s.start_ms <= axis.to_ms)
            .collect();
        let Some(threads) = spans.iter().map(|s| s.thread + 1).max() else {
            continue;
        };
        let h = clamp(pad / f64::from(threads), 1.0, 3.0);
        let bottom = lane.y + lane.height - 1.0;
        let _ = write!(
            out,
            r#"<g class="recon-lane" data-lane="{}">"#,
            esc(&lane.label)
        );
        for s in spans {
            let x0 = axis.x(s.start_ms.max(axis.from_ms));
            let x1 = axis.x(s.end_ms.min(axis.to_ms));
            let y = bottom - h * f64::from(s.thread + 1);
            let _ = write!(
                out,
                r#"<rect class="recon {}" data-state="{}" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"><title>{}</title></rect>"#,
                BandKind::of(s).class(),
                s.state.kafka_name(),
                Fixed(x0),
                Fixed(y),
                Fixed((x1 - x0).max(0.5)),
                Fixed(h),
                esc(&band_title(whole, s))
            );
        }
        out.push_str("</g>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streams_protocol_trace() -> Trace {
        let p = engine::presets::all()
            .iter()
            .find(|p| p.id == "streams/streams-protocol-instance-joins")
            .expect("preset");
        let result = engine::run::run(&p.scenario());
        let v = result
            .variants
            .iter()
            .find(|v| !v.trace.member_reconciliation.is_empty())
            .expect("a streams-protocol column");
        v.trace.clone()
    }

    /// Instance names come from the scenario, which a link can carry.
    #[test]
    fn markup_escapes_names_and_marks_every_epoch_and_band() {
        let mut trace = streams_protocol_trace();
        let w = trace.member_reconciliation[0].worker as usize;
        trace.workers[w] = r#"<i onclick="x">a&b</i>"#.into();
        let lay = TimelineLayout::new(&trace, LayoutOptions::default());
        let axis = lay.axis();
        let bands = bands_markup(&trace, &lay, &axis);
        assert!(!bands.contains("<i "), "{bands}");
        assert!(bands.contains(r#"data-lane="&lt;i onclick=&quot;x&quot;&gt;a&amp;b&lt;/i&gt;""#));
        let spans = trace
            .member_reconciliation
            .iter()
            .filter(|s| s.end_ms >= axis.from_ms && s.start_ms <= axis.to_ms)
            .count();
        assert!(spans > 0);
        assert_eq!(bands.matches("<rect class=\"recon ").count(), spans);
        let epochs = epochs_markup(&trace, &axis, lay.options, 200.0);
        let shown = trace
            .target_assignments
            .iter()
            .filter(|a| axis.shows(a.computed_ms))
            .count();
        assert!(shown > 0);
        assert_eq!(epochs.matches("<g class=\"target-epoch\"").count(), shown);
        assert!(epochs.contains(r#"data-target="0""#));
    }
}
