//! The playhead shared by every column: where it is, whether it plays,
//! which rebalance round is selected, which window of the time axis is
//! shown and which task is followed. A reducer of its own, so that sixty
//! playhead moves a second do not touch the scenario state.

use engine::fixed::clamp;
use std::rc::Rc;

use engine::run::RunResult;
use yew::Reducible;

use crate::state::target_view::{has_targets, stop_at};
use crate::state::viewport::Window;

/// At speed 1 a whole run plays in this many ms of wall time, whatever
/// its simulated length (a minute or an hour).
pub const PLAY_MS: f64 = 20_000.0;

/// Playback speeds offered, each with its text as `{}` of the `f64`
/// writes it: written out, so the page formats and parses no `f64` (either
/// would keep `core`'s float code in the module; see `engine::fixed`).
pub const SPEEDS: [(f64, &str); 5] = [
    (0.25, "0.25"),
    (0.5, "0.5"),
    (1.0, "1"),
    (2.0, "2"),
    (4.0, "4"),
];

/// The speed whose text is `text` (a `<select>`'s value), or 1.
pub fn speed_of(text: &str) -> f64 {
    SPEEDS
        .iter()
        .find(|(_, t)| *t == text)
        .map_or(1.0, |(s, _)| *s)
}

/// A rebalance round in one column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RoundRef {
    /// When the round started (the first JoinGroup or the member loss).
    pub at_ms: u64,
    /// Which column.
    pub variant: usize,
    /// Index into that trace's rounds, or for a streams-protocol trace
    /// (which has none) its target assignments.
    pub round: usize,
}

/// Every round of every column in time order, and every target assignment
/// of a streams-protocol column (which has no rounds): the stops of
/// "previous/next round".
pub fn round_stops(result: &RunResult) -> Vec<RoundRef> {
    let mut stops: Vec<RoundRef> = result
        .variants
        .iter()
        .enumerate()
        .flat_map(|(variant, run)| {
            let trace = &run.trace;
            let n = if has_targets(trace) {
                trace.target_assignments.len()
            } else {
                trace.rounds.len()
            };
            (0..n).filter_map(move |round| {
                stop_at(trace, round).map(|at_ms| RoundRef {
                    at_ms,
                    variant,
                    round,
                })
            })
        })
        .collect();
    // Collected column by column, round by round: sorting by time alone,
    // stably, gives the full (time, column, round) order.
    engine::sort_by_key::sort_by_u64_key(&mut stops, |s| s.at_ms);
    stops
}

/// The playhead.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    /// Simulated time under the playhead.
    pub t_ms: u64,
    /// Playing or paused.
    pub playing: bool,
    /// Speed multiplier (see [`PLAY_MS`]).
    pub speed: f64,
    /// End of the shared time axis.
    pub end_ms: u64,
    /// Round stops, in time order.
    pub rounds: Rc<Vec<RoundRef>>,
    /// The round whose details are shown.
    pub selected: Option<RoundRef>,
    /// The window the user zoomed or panned to; `None` shows [`Playback::focus`].
    pub zoom: Option<Window>,
    /// The default window of the current result (where things happen).
    pub focus: Window,
    /// The connector or task followed across columns (its label).
    pub followed: Option<Rc<str>>,
    /// Counts keyboard and button steps, so the details panel takes focus
    /// for a step and not for a hover.
    pub steps_taken: u64,
    /// Playhead and window from the link, applied to the first result.
    restore: Option<(Option<u64>, Option<Window>)>,
    /// Wall time of the last animation frame, while playing.
    last_frame: Option<f64>,
    /// Sub-millisecond remainder carried between frames, so slow speeds advance.
    carry: f64,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            t_ms: 0,
            playing: false,
            speed: 1.0,
            end_ms: 0,
            rounds: Rc::new(Vec::new()),
            selected: None,
            zoom: None,
            focus: Window::whole(0),
            followed: None,
            steps_taken: 0,
            restore: None,
            last_frame: None,
            carry: 0.0,
        }
    }
}

/// What can happen to the playhead.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayAction {
    /// A new result: its axis end and round stops; `restart` for a newly
    /// opened scenario (an edit keeps the playhead where it was).
    Load {
        /// End of the time axis.
        end_ms: u64,
        /// Round stops.
        rounds: Rc<Vec<RoundRef>>,
        /// Back to the start, paused, nothing selected.
        restart: bool,
        /// Where this result's story is (the default window).
        focus: Window,
    },
    /// Show this window of the time axis (a zoom, a pan, a brush);
    /// `None` goes back to the default focus.
    View(Option<Window>),
    /// Follow a connector or task (by label) across columns, or stop.
    Follow(Option<Rc<str>>),
    /// Move the playhead (scrubbing).
    Seek(u64),
    /// Play or pause.
    Toggle,
    /// Play (from the start when at the end).
    Play,
    /// Pause.
    Pause,
    /// An animation frame at this wall time (ms).
    Frame(f64),
    /// Change speed.
    Speed(f64),
    /// Step to the next (`+1`) or previous (`-1`) rebalance round and select it.
    Step(i32),
    /// Select a round (hover or tap) without moving the playhead.
    Select(Option<RoundRef>),
    /// Move by a share of the axis (`0.01` = 1 %), pausing.
    Nudge(f64),
    /// To the start or the end.
    Jump(bool),
}

impl Playback {
    /// A playhead that restores a link's `t` and `view` once the first
    /// result arrives.
    pub fn restoring(t_ms: Option<u64>, view: Option<Window>) -> Self {
        Self {
            restore: (t_ms.is_some() || view.is_some()).then_some((t_ms, view)),
            ..Self::default()
        }
    }

    /// The window every column shows.
    pub fn window(&self) -> Window {
        self.zoom.unwrap_or(self.focus)
    }

    /// The round "next" (`dir > 0`) or "previous" would go to, if any (the
    /// transport enables its buttons by this).
    pub fn step(&self, dir: i32) -> Option<RoundRef> {
        let rounds = &self.rounds;
        let at_selected = self
            .selected
            .filter(|s| s.at_ms == self.t_ms)
            .and_then(|s| rounds.iter().position(|r| *r == s));
        if dir > 0 {
            match at_selected {
                Some(i) => rounds.get(i + 1).copied(),
                None => rounds.iter().find(|r| r.at_ms >= self.t_ms).copied(),
            }
        } else {
            match at_selected {
                Some(i) => i.checked_sub(1).and_then(|i| rounds.get(i)).copied(),
                None => rounds.iter().rev().find(|r| r.at_ms < self.t_ms).copied(),
            }
        }
    }
}

impl Reducible for Playback {
    type Action = PlayAction;

    fn reduce(self: Rc<Self>, action: PlayAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            PlayAction::Load {
                end_ms,
                rounds,
                restart,
                focus,
            } => {
                next.end_ms = end_ms;
                next.rounds = rounds;
                next.focus = focus;
                if restart {
                    let (t, zoom) = next.restore.take().unwrap_or((None, None));
                    next.t_ms = t.unwrap_or(0).min(end_ms);
                    next.zoom = zoom.map(|w| w.clamp(end_ms));
                    next.playing = false;
                    next.selected = None;
                    next.followed = None;
                } else {
                    next.zoom = next.zoom.map(|w| w.clamp(end_ms));
                    next.t_ms = next.t_ms.min(end_ms);
                    // A selection survives an edit only if that round still exists.
                    next.selected = next
                        .selected
                        .and_then(|s| next.rounds.iter().find(|r| **r == s).copied());
                }
            }
            PlayAction::Seek(t) => next.t_ms = t.min(next.end_ms),
            PlayAction::Toggle if next.playing => next.playing = false,
            PlayAction::Toggle | PlayAction::Play => {
                if next.t_ms >= next.end_ms {
                    next.t_ms = 0;
                }
                next.playing = next.end_ms > 0;
                next.last_frame = None;
                next.carry = 0.0;
            }
            PlayAction::Pause => next.playing = false,
            PlayAction::Frame(now) => {
                if !next.playing {
                    return self;
                }
                if let Some(last) = next.last_frame {
                    // A background tab sends no frames; cap the catch-up.
                    let dt = clamp(now - last, 0.0, 100.0);
                    let advance = dt * next.end_ms as f64 / PLAY_MS * next.speed + next.carry;
                    let whole = advance.floor();
                    next.carry = advance - whole;
                    next.t_ms = (next.t_ms + whole as u64).min(next.end_ms);
                    if next.t_ms >= next.end_ms {
                        next.playing = false;
                    }
                }
                next.last_frame = Some(now);
            }
            PlayAction::Speed(s) => next.speed = s,
            PlayAction::Step(dir) => {
                if let Some(r) = self.step(dir) {
                    next.t_ms = r.at_ms.min(next.end_ms);
                    next.selected = Some(r);
                    next.steps_taken += 1;
                    // Keep the round on screen: pan a zoom that hides it.
                    let w = next.window();
                    if r.at_ms < w.from_ms || r.at_ms > w.to_ms {
                        let half = (w.span() / 2) as i64;
                        next.zoom =
                            Some(w.pan(r.at_ms as i64 - w.from_ms as i64 - half, next.end_ms));
                    }
                }
                next.playing = false;
            }
            PlayAction::Select(r) => next.selected = r,
            PlayAction::View(w) => {
                // The default window is spelled `None`, so the link stays clean.
                next.zoom = w.map(|w| w.clamp(next.end_ms)).filter(|w| *w != next.focus);
            }
            PlayAction::Follow(item) => next.followed = item,
            PlayAction::Nudge(share) => {
                let delta = (share.abs() * next.end_ms as f64).round().max(1.0) as u64;
                next.t_ms = if share < 0.0 {
                    next.t_ms.saturating_sub(delta)
                } else {
                    (next.t_ms + delta).min(next.end_ms)
                };
                next.playing = false;
            }
            PlayAction::Jump(to_end) => {
                next.t_ms = if to_end { next.end_ms } else { 0 };
                next.playing = false;
            }
        }
        if !next.playing {
            next.last_frame = None;
        }
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_texts_are_the_speeds_as_rust_writes_them() {
        for (s, text) in SPEEDS {
            assert_eq!(s.to_string(), text);
            assert_eq!(speed_of(text), s);
        }
        assert_eq!(speed_of("3"), 1.0);
    }

    fn loaded() -> Rc<Playback> {
        let result = engine::run::run(&engine::presets::default_preset().scenario());
        let end_ms = result.variants[0].trace.end_ms;
        Rc::new(Playback::default()).reduce(PlayAction::Load {
            end_ms,
            rounds: Rc::new(round_stops(&result)),
            restart: true,
            focus: crate::state::viewport::focus_window(&result),
        })
    }

    #[test]
    fn a_link_restores_playhead_and_window_once() {
        let result = engine::run::run(&engine::presets::default_preset().scenario());
        let end_ms = result.variants[0].trace.end_ms;
        let load = |restart| PlayAction::Load {
            end_ms,
            rounds: Rc::new(round_stops(&result)),
            restart,
            focus: Window::whole(end_ms),
        };
        let w = Window {
            from_ms: 1_000,
            to_ms: 9_000,
        };
        let p = Rc::new(Playback::restoring(Some(4_000), Some(w))).reduce(load(true));
        assert_eq!((p.t_ms, p.window()), (4_000, w));
        // A second opened scenario starts from scratch.
        let p = p.reduce(load(true));
        assert_eq!((p.t_ms, p.zoom), (0, None));
    }

    #[test]
    fn the_default_window_is_no_zoom_and_stepping_keeps_the_round_in_view() {
        let mut p = loaded();
        let focus = p.focus;
        p = p.reduce(PlayAction::View(Some(focus)));
        assert_eq!(p.zoom, None, "the focus window is the default, not a zoom");
        // Zoom far from the rounds, then step: the window pans to the round.
        let end = p.end_ms;
        p = p.reduce(PlayAction::View(Some(Window {
            from_ms: end - 2_000,
            to_ms: end,
        })));
        p = p.reduce(PlayAction::Jump(false));
        p = p.reduce(PlayAction::Step(1));
        let r = p.selected.expect("a round");
        let w = p.window();
        assert!(w.from_ms <= r.at_ms && r.at_ms <= w.to_ms, "{w:?} {r:?}");
        assert_eq!(w.span(), 2_000);
        assert_eq!(p.steps_taken, 1);
    }

    #[test]
    fn stepping_visits_every_round_in_time_order() {
        let mut p = loaded();
        let n = p.rounds.len();
        assert!(n >= 2, "the default preset rebalances in both columns");
        let mut seen = Vec::new();
        for _ in 0..n + 2 {
            p = p.reduce(PlayAction::Step(1));
            seen.extend(p.selected);
            assert_eq!(Some(p.t_ms), p.selected.map(|s| s.at_ms));
        }
        seen.dedup();
        assert_eq!(seen, *p.rounds);
        for _ in 0..n - 1 {
            p = p.reduce(PlayAction::Step(-1));
        }
        assert_eq!(p.selected, p.rounds.first().copied());
    }

    #[test]
    fn a_streams_protocol_column_steps_through_its_target_assignments() {
        let preset = engine::presets::find("streams/streams-protocol-instance-joins").unwrap();
        let result = engine::run::run(&preset.scenario());
        let stops = round_stops(&result);
        let column = result
            .variants
            .iter()
            .position(|v| v.label == "streams protocol")
            .unwrap();
        let targets = &result.variants[column].trace.target_assignments;
        let own: Vec<(u64, usize)> = stops
            .iter()
            .filter(|s| s.variant == column)
            .map(|s| (s.at_ms, s.round))
            .collect();
        let expected: Vec<(u64, usize)> = targets
            .iter()
            .enumerate()
            .map(|(i, a)| (a.computed_ms, i))
            .collect();
        assert_eq!(own, expected);
        let rounds: usize = result.variants.iter().map(|v| v.trace.rounds.len()).sum();
        assert_eq!(stops.len(), rounds + targets.len());
        let mut p = Rc::new(Playback::default()).reduce(PlayAction::Load {
            end_ms: result.variants[column].trace.end_ms,
            rounds: Rc::new(stops),
            restart: true,
            focus: Window::whole(result.variants[column].trace.end_ms),
        });
        let mut visited = Vec::new();
        for _ in 0..p.rounds.len() {
            p = p.reduce(PlayAction::Step(1));
            visited.extend(p.selected.filter(|s| s.variant == column).map(|s| s.round));
        }
        visited.dedup();
        assert_eq!(visited, (0..targets.len()).collect::<Vec<_>>());
    }

    #[test]
    fn playing_advances_and_stops_at_the_end() {
        let mut p = loaded().reduce(PlayAction::Play);
        assert!(p.playing);
        let mut now = 0.0;
        for _ in 0..2_000 {
            now += 16.0;
            p = p.reduce(PlayAction::Frame(now));
        }
        assert_eq!(p.t_ms, p.end_ms);
        assert!(!p.playing);
        // Play at the end starts over.
        let p = p.reduce(PlayAction::Toggle);
        assert_eq!(p.t_ms, 0);
        assert!(p.playing);
    }
}
