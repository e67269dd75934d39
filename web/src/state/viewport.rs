//! The visible stretch of the shared time axis: which window every column
//! shows, how zooming and panning move it, the default focus on where things
//! happen, and its spelling in the link's query string (`view=from-to`).

use engine::fixed::clamp;
use engine::run::RunResult;

/// The narrowest window a zoom goes to, in ms.
pub const MIN_SPAN_MS: u64 = 50;

/// A window `[from_ms, to_ms]` of the time axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// First time shown.
    pub from_ms: u64,
    /// Last time shown.
    pub to_ms: u64,
}

impl Window {
    /// The whole run.
    pub fn whole(end_ms: u64) -> Self {
        Self {
            from_ms: 0,
            to_ms: end_ms.max(1),
        }
    }

    /// Milliseconds shown.
    pub fn span(self) -> u64 {
        self.to_ms.saturating_sub(self.from_ms)
    }

    /// The window held inside `[0, end_ms]` and at least [`MIN_SPAN_MS`] wide
    /// (a window pushed past an edge keeps its width).
    pub fn clamp(self, end_ms: u64) -> Self {
        let end_ms = end_ms.max(1);
        let span = self.span().clamp(MIN_SPAN_MS.min(end_ms), end_ms);
        let from = self.from_ms.min(end_ms - span);
        Self {
            from_ms: from,
            to_ms: from + span,
        }
    }

    /// Zoomed by `factor` (below 1 zooms in) keeping the time `anchor_ms`
    /// under the same point of the axis (the pointer, for a wheel zoom).
    pub fn zoom(self, anchor_ms: f64, factor: f64, end_ms: u64) -> Self {
        let factor = if factor.is_finite() && factor > 0.0 {
            factor
        } else {
            1.0
        };
        let (from, to) = (self.from_ms as f64, self.to_ms as f64);
        let anchor = clamp(anchor_ms, from, to);
        let span = ((to - from) * factor).max(MIN_SPAN_MS as f64);
        let share = if to > from {
            (anchor - from) / (to - from)
        } else {
            0.5
        };
        let new_from = (anchor - share * span).max(0.0);
        Self {
            from_ms: new_from.round() as u64,
            to_ms: (new_from + span).round() as u64,
        }
        .clamp(end_ms)
    }

    /// Moved by `delta_ms` (negative: earlier), keeping its width.
    pub fn pan(self, delta_ms: i64, end_ms: u64) -> Self {
        let span = self.span();
        let from = (self.from_ms as i64 + delta_ms).max(0) as u64;
        Self {
            from_ms: from,
            to_ms: from + span,
        }
        .clamp(end_ms)
    }

    /// `30000-45000` (ms), for the query string.
    pub fn to_query(self) -> String {
        format!("{}-{}", self.from_ms, self.to_ms)
    }

    /// Reads [`Window::to_query`]'s form; `None` for anything else, or an
    /// empty window.
    pub fn parse(text: &str) -> Option<Self> {
        let (a, b) = text.split_once('-')?;
        let (from_ms, to_ms) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        (to_ms > from_ms).then_some(Self { from_ms, to_ms })
    }
}

/// Where the story is: from just before the first scenario event to just
/// after the first column has settled again (a column still recovering runs
/// off the right edge, marked there); the whole run when nothing happens.
///
/// "Settled" is the engine's `Metrics::settled_ms` (healthy for the rest of
/// the run), or, for Kafka Streams, caught up and stable if that is later.
pub fn focus_window(result: &RunResult) -> Window {
    let end_ms = result
        .variants
        .iter()
        .map(|v| v.trace.end_ms)
        .max()
        .unwrap_or(0);
    let whole = Window::whole(end_ms);
    let Some(first_event) = result
        .variants
        .iter()
        .filter_map(|v| v.trace.events.first().map(|e| e.at_ms))
        .min()
    else {
        return whole;
    };
    let settled = result
        .variants
        .iter()
        .filter_map(|v| {
            let streams = match &v.metrics.family {
                engine::metrics::FamilyMetrics::Streams(s) => s.caught_up_and_stable_ms,
                engine::metrics::FamilyMetrics::Connect => None,
            };
            v.metrics.settled_ms.max(streams)
        })
        .filter(|&t| t > first_event)
        .min()
        .unwrap_or(end_ms);
    // A burst of events settles after the last of them.
    let last_event = result
        .variants
        .iter()
        .filter_map(|v| v.trace.events.last().map(|e| e.at_ms))
        .max()
        .unwrap_or(first_event);
    let settled = settled.max(last_event);
    let span = settled.saturating_sub(first_event).max(2_000);
    let pad = (span / 6).max(500);
    let window = Window {
        from_ms: first_event.saturating_sub(pad),
        to_ms: (settled + pad).min(end_ms),
    };
    // Not worth a zoom when it shows most of the run anyway.
    if window.span() * 10 >= end_ms * 9 {
        whole
    } else {
        window.clamp(end_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(id: &str) -> RunResult {
        let p = engine::presets::all()
            .iter()
            .find(|p| p.id == id)
            .expect("preset");
        engine::run::run(&p.scenario())
    }

    #[test]
    fn zooming_keeps_the_anchor_in_place() {
        let w = Window {
            from_ms: 0,
            to_ms: 100_000,
        };
        let z = w.zoom(25_000.0, 0.5, 100_000);
        assert_eq!(
            z,
            Window {
                from_ms: 12_500,
                to_ms: 62_500
            }
        );
        // The anchor sits at the same share of the window.
        let share = |w: Window| (25_000 - w.from_ms) as f64 / w.span() as f64;
        assert!((share(z) - share(w)).abs() < 1e-9);
        // Zooming out past the run stops at the whole run.
        assert_eq!(z.zoom(25_000.0, 100.0, 100_000), Window::whole(100_000));
        // Zooming in stops at the narrowest window.
        let mut deep = w;
        for _ in 0..100 {
            deep = deep.zoom(50_000.0, 0.5, 100_000);
        }
        assert_eq!(deep.span(), MIN_SPAN_MS);
    }

    #[test]
    fn panning_keeps_the_width_and_stops_at_the_edges() {
        let w = Window {
            from_ms: 10_000,
            to_ms: 20_000,
        };
        assert_eq!(
            w.pan(5_000, 100_000),
            Window {
                from_ms: 15_000,
                to_ms: 25_000
            }
        );
        assert_eq!(
            w.pan(-50_000, 100_000),
            Window {
                from_ms: 0,
                to_ms: 10_000
            }
        );
        assert_eq!(
            w.pan(500_000, 100_000),
            Window {
                from_ms: 90_000,
                to_ms: 100_000
            }
        );
    }

    #[test]
    fn the_query_form_round_trips_and_refuses_nonsense() {
        let w = Window {
            from_ms: 28_316,
            to_ms: 41_783,
        };
        assert_eq!(Window::parse(&w.to_query()), Some(w));
        for bad in ["", "12", "5-5", "9-3", "a-b", "-3-4", "1-2-3"] {
            assert_eq!(Window::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn focus_frames_the_crash_and_the_first_recovery() {
        let result = preset("connect/worker-dies");
        let focus = focus_window(&result);
        // worker-3 crashes at 30 s; eager is healthy again at 40.6 s, the
        // delayed cooperative column only after 5 min.
        assert!(
            focus.from_ms < 30_000 && focus.from_ms > 20_000,
            "{focus:?}"
        );
        assert!(focus.to_ms > 40_600 && focus.to_ms < 60_000, "{focus:?}");
        // Eager's stop-the-world round (37 s to 39.6 s) is a fifth of the window, not a sliver.
        let eager = &result.variants[0].trace;
        let round = eager
            .rounds
            .iter()
            .find(|r| r.started_ms > 30_000)
            .expect("round");
        let share = (round.completed_ms - round.started_ms) as f64 / focus.span() as f64;
        assert!(share > 0.1, "{share}");
    }

    #[test]
    fn without_events_the_focus_is_the_whole_run() {
        let mut result = preset("connect/worker-dies");
        for v in &mut result.variants {
            v.trace.events.clear();
        }
        assert_eq!(focus_window(&result), Window::whole(400_000));
    }

    #[test]
    fn every_preset_focuses_inside_its_run() {
        for p in engine::presets::all() {
            let result = engine::run::run(&p.scenario());
            let end = result
                .variants
                .iter()
                .map(|v| v.trace.end_ms)
                .max()
                .unwrap();
            let f = focus_window(&result);
            assert!(f.from_ms < f.to_ms && f.to_ms <= end, "{}: {f:?}", p.id);
            if let Some(e) = result.variants[0].trace.events.first() {
                assert!(
                    f.from_ms <= e.at_ms,
                    "{}: focus starts after the first event",
                    p.id
                );
            }
        }
    }
}
