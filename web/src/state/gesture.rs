//! Touch gestures on the shared time axis, as pure maths the timeline's
//! pointer handlers feed: a two-finger pinch zooms around the pinch's centre
//! and pans with it (the time under the fingers stays under the fingers).
//! One finger is the timeline's ordinary press (a sideways drag pans, a tap
//! follows a task); the page's vertical scroll stays the browser's
//! (`touch-action: pan-y` on the timeline).

use crate::state::viewport::Window;
use engine::fixed::clamp;

/// Fingers closer than this (SVG units) count as this far apart, so that
/// two fingers landing on one spot do not zoom by a huge factor.
const MIN_SPREAD: f64 = 12.0;

/// A pinch under way: the window and the two fingers' x when it started.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pinch {
    /// The window at the start.
    pub start: Window,
    /// The fingers' x at the start (SVG units).
    pub fingers: (f64, f64),
}

impl Pinch {
    /// The window for the fingers now at `now`, on an axis drawn from `left`
    /// to `right` (SVG units) in a run ending at `end_ms`: spreading the
    /// fingers zooms in by their distance's ratio, moving them pans, and the
    /// time under the starting centre lands under the centre now.
    pub fn window(&self, now: (f64, f64), left: f64, right: f64, end_ms: u64) -> Window {
        let width = (right - left).max(1.0);
        let spread = |(a, b): (f64, f64)| (b - a).abs().max(MIN_SPREAD);
        let centre = |(a, b): (f64, f64)| (a + b) / 2.0;
        let (from, span) = (self.start.from_ms as f64, self.start.span() as f64);
        let anchor = from + (centre(self.fingers) - left) / width * span;
        let factor = spread(self.fingers) / spread(now);
        let span = clamp(
            span * factor,
            crate::state::viewport::MIN_SPAN_MS as f64,
            end_ms.max(1) as f64,
        );
        let new_from = (anchor - (centre(now) - left) / width * span).max(0.0);
        Window {
            from_ms: new_from.round() as u64,
            to_ms: (new_from + span).round() as u64,
        }
        .clamp(end_ms)
    }
}

/// The pointers down on one timeline and the pinch they make, if two are.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Touches {
    /// (pointer id, x) of each pointer down, in the order they went down.
    down: Vec<(i32, f64)>,
    /// The pinch and its two fingers' ids, from the second finger down
    /// until every finger is up (a finger left after a pinch does not pan).
    pinch: Option<(Pinch, (i32, i32))>,
}

impl Touches {
    /// A pointer went down at `x` while `window` was shown. True when this
    /// starts a pinch (the second finger): the press of the first is over.
    pub fn down(&mut self, id: i32, x: f64, window: Window) -> bool {
        self.down.retain(|(i, _)| *i != id);
        self.down.push((id, x));
        if let ([(a, xa), (b, xb)], None) = (self.down.as_slice(), self.pinch) {
            let pinch = Pinch {
                start: window,
                fingers: (*xa, *xb),
            };
            self.pinch = Some((pinch, (*a, *b)));
            return true;
        }
        false
    }

    /// A pointer moved to `x`: the window the pinch now shows, if the
    /// pointer is one of a pinch's two fingers and both are still down.
    pub fn moved(&mut self, id: i32, x: f64, left: f64, right: f64, end_ms: u64) -> Option<Window> {
        let slot = self.down.iter().position(|(i, _)| *i == id)?;
        self.down[slot].1 = x;
        let (pinch, (a, b)) = self.pinch?;
        if id != a && id != b {
            return None;
        }
        let at = |f: i32| self.down.iter().find(|(i, _)| *i == f).map(|(_, x)| *x);
        Some(pinch.window((at(a)?, at(b)?), left, right, end_ms))
    }

    /// A pointer went up or was cancelled. True when a pinch was under way
    /// (so its release is no tap).
    pub fn up(&mut self, id: i32) -> bool {
        let was_pinching = self.pinch.is_some();
        self.down.retain(|(i, _)| *i != id);
        if self.down.is_empty() {
            self.pinch = None;
        }
        was_pinching
    }

    /// True from a pinch's start until its last finger is up.
    pub fn pinching(&self) -> bool {
        self.pinch.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEFT: f64 = 100.0;
    const RIGHT: f64 = 1100.0;
    const END: u64 = 400_000;

    fn w(from_ms: u64, to_ms: u64) -> Window {
        Window { from_ms, to_ms }
    }

    /// The time under an SVG x.
    fn time_at(win: Window, x: f64) -> f64 {
        win.from_ms as f64 + (x - LEFT) / (RIGHT - LEFT) * win.span() as f64
    }

    #[test]
    fn spreading_zooms_in_around_the_centre() {
        let p = Pinch {
            start: w(20_000, 60_000),
            fingers: (500.0, 700.0),
        };
        // Twice the spread, same centre: half the span, the centre's time kept.
        let z = p.window((400.0, 800.0), LEFT, RIGHT, END);
        assert_eq!(z.span(), 20_000);
        assert!(
            (time_at(z, 600.0) - time_at(p.start, 600.0)).abs() < 1.0,
            "{z:?}"
        );
        // Pinching in (half the spread) zooms out around the same time.
        let out = p.window((550.0, 650.0), LEFT, RIGHT, END);
        assert_eq!(out.span(), 80_000);
        assert!(
            (time_at(out, 600.0) - time_at(p.start, 600.0)).abs() < 1.0,
            "{out:?}"
        );
    }

    #[test]
    fn moving_both_fingers_pans_with_them() {
        let p = Pinch {
            start: w(20_000, 60_000),
            fingers: (500.0, 700.0),
        };
        // 250 units to the left is a quarter of the axis: 10 s later.
        let moved = p.window((250.0, 450.0), LEFT, RIGHT, END);
        assert_eq!(moved, w(30_000, 70_000));
    }

    #[test]
    fn a_pinch_stays_inside_the_run_and_above_the_narrowest_window() {
        let p = Pinch {
            start: w(0, 4_000),
            fingers: (600.0, 610.0),
        };
        // Fingers flung apart: the narrowest window, not a zero one.
        let deep = p.window((100.0, 1100.0), LEFT, RIGHT, END);
        assert_eq!(deep.span(), crate::state::viewport::MIN_SPAN_MS);
        // Pinched shut far out: the whole run at most.
        let p = Pinch {
            start: w(100_000, 300_000),
            fingers: (200.0, 1000.0),
        };
        assert_eq!(
            p.window((590.0, 610.0), LEFT, RIGHT, END),
            Window::whole(END)
        );
        // Dragged past the start: held at 0 with its width.
        let p = Pinch {
            start: w(10_000, 50_000),
            fingers: (500.0, 700.0),
        };
        assert_eq!(p.window((900.0, 1100.0), LEFT, RIGHT, END), w(0, 40_000));
    }

    #[test]
    fn two_fingers_make_a_pinch_and_one_left_does_not_pan() {
        let mut t = Touches::default();
        assert!(!t.down(1, 500.0, w(20_000, 60_000)));
        // One finger: no pinch, its moves are the ordinary press's.
        assert_eq!(t.moved(1, 520.0, LEFT, RIGHT, END), None);
        assert!(t.down(2, 720.0, w(20_000, 60_000)));
        assert!(t.pinching());
        // The pinch starts where the fingers were when the second went down.
        let z = t.moved(2, 920.0, LEFT, RIGHT, END).expect("pinch");
        assert_eq!(z.span(), 20_000);
        assert!(t.up(1), "a pinch's finger up is no tap");
        assert!(t.pinching(), "the finger left does not pan");
        assert_eq!(t.moved(2, 700.0, LEFT, RIGHT, END), None);
        // Nor does a new finger beside it.
        assert!(!t.down(4, 300.0, z));
        assert_eq!(t.moved(4, 200.0, LEFT, RIGHT, END), None);
        assert!(t.up(4));
        assert!(t.up(2));
        assert!(!t.pinching());
        // Afterwards one finger is a plain press again.
        assert!(!t.pinching());
        assert!(!t.down(3, 400.0, z));
        assert!(!t.up(3));
    }

    #[test]
    fn a_third_finger_does_not_move_the_pinch() {
        let mut t = Touches::default();
        t.down(1, 500.0, w(20_000, 60_000));
        t.down(2, 700.0, w(20_000, 60_000));
        assert!(!t.down(3, 900.0, w(20_000, 60_000)));
        assert_eq!(t.moved(3, 100.0, LEFT, RIGHT, END), None);
        assert_eq!(t.moved(1, 500.0, LEFT, RIGHT, END), Some(w(20_000, 60_000)));
    }
}
