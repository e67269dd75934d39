//! Tick marks of a time axis and their labels, shared by the page's
//! timelines and chart and the static SVG export.
//!
//! One axis writes every label in one unit, chosen from the tick step, as
//! trace viewers do: `60 s · 90 s · 120 s`, or `1 min · 1 min 30 s · 2 min`
//! further into a run, never `90 s · 2 min · 150 s`. Steps are round numbers
//! of that unit, spaced so that the labels never touch.

/// Rough width of one axis-label character, in SVG user units (10 px text).
pub const AXIS_CHAR_W: f64 = 6.0;
/// Space between two axis labels (room for the last one, drawn ending at
/// the axis's right edge, to shift left).
const AXIS_LABEL_GAP: f64 = 30.0;

/// Below this time, a sub-minute step writes plain seconds (`570 s`); from
/// it on, minutes and seconds (`12 min 30 s`), which read better than `750 s`.
const PLAIN_SECONDS_BELOW_MS: u64 = 600_000;
/// Below this time, a whole-minute step writes plain minutes (`90 min`);
/// from it on, hours and minutes (`2 h 30 min`).
const PLAIN_MINUTES_BELOW_MS: u64 = 7_200_000;

const SECOND: u64 = 1_000;
const MINUTE: u64 = 60_000;
const HOUR: u64 = 3_600_000;

/// The unit one axis writes its tick labels in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisUnit {
    /// `250 ms`: an axis under a second.
    Millis,
    /// `90 s`, or `30.5 s` with `decimals` fixed digits for a sub-second step.
    Seconds {
        /// Digits after the point (0 to 3).
        decimals: u8,
    },
    /// `12 min 30 s` (`13 min` on a whole minute; with decimals, always the seconds).
    MinutesSeconds {
        /// Digits after the point of the seconds (0 to 3).
        decimals: u8,
    },
    /// `90 min`.
    Minutes,
    /// `2 h 30 min` (`3 h` on a whole hour).
    HoursMinutes,
    /// `3 h`.
    Hours,
}

/// Digits after the point that a step of `step_ms` needs in seconds.
fn decimals_for(step_ms: u64) -> u8 {
    match step_ms {
        s if s.is_multiple_of(1_000) => 0,
        s if s.is_multiple_of(100) => 1,
        s if s.is_multiple_of(10) => 2,
        _ => 3,
    }
}

/// `12` or `12.50` seconds, with a fixed number of decimals (integer maths:
/// no float rounding in a label).
fn seconds(ms: u64, decimals: u8) -> String {
    let whole = ms / SECOND;
    if decimals == 0 {
        return whole.to_string();
    }
    let digits = format!("{:03}", ms % SECOND);
    format!("{whole}.{}", &digits[..usize::from(decimals.min(3))])
}

impl AxisUnit {
    /// The unit for ticks every `step_ms` on an axis reaching `max_ms`.
    pub fn for_ticks(step_ms: u64, max_ms: u64) -> Self {
        let step_ms = step_ms.max(1);
        if step_ms < SECOND && max_ms < SECOND {
            Self::Millis
        } else if step_ms < MINUTE || !step_ms.is_multiple_of(MINUTE) {
            let decimals = decimals_for(step_ms);
            if max_ms < PLAIN_SECONDS_BELOW_MS {
                Self::Seconds { decimals }
            } else {
                Self::MinutesSeconds { decimals }
            }
        } else if step_ms.is_multiple_of(HOUR) {
            Self::Hours
        } else if max_ms < PLAIN_MINUTES_BELOW_MS {
            Self::Minutes
        } else {
            Self::HoursMinutes
        }
    }

    /// The label of a tick at `ms`.
    pub fn label(self, ms: u64) -> String {
        match self {
            Self::Millis => format!("{ms} ms"),
            Self::Seconds { decimals } => format!("{} s", seconds(ms, decimals)),
            Self::MinutesSeconds { decimals } => {
                let (min, rest) = (ms / MINUTE, ms % MINUTE);
                if rest == 0 && decimals == 0 {
                    format!("{min} min")
                } else {
                    format!("{min} min {} s", seconds(rest, decimals))
                }
            }
            Self::Minutes => format!("{} min", ms / MINUTE),
            Self::HoursMinutes => {
                let (h, min) = (ms / HOUR, ms % HOUR / MINUTE);
                if min == 0 {
                    format!("{h} h")
                } else {
                    format!("{h} h {min} min")
                }
            }
            Self::Hours => format!("{} h", ms / HOUR),
        }
    }
}

/// Round tick steps, smallest first: 1-2-5 below a second, then steps that
/// divide a minute, an hour or a day, then days. The timelines' axes and
/// the sweep plot's time axes (`sweep::plot_layout`) step by these.
pub(crate) const STEPS: [u64; 29] = [
    1,
    2,
    5,
    10,
    20,
    50,
    100,
    200,
    500,
    1_000,
    2_000,
    5_000,
    10_000,
    15_000,
    30_000,
    60_000,
    120_000,
    300_000,
    600_000,
    900_000,
    1_800_000,
    3_600_000,
    7_200_000,
    10_800_000,
    21_600_000,
    43_200_000,
    86_400_000,
    172_800_000,
    432_000_000,
];

/// The smallest round tick step whose labels fit: `span_ms` drawn over
/// `width` units, on an axis reaching `max_ms` (where labels are longest).
pub fn tick_step(span_ms: u64, width: f64, max_ms: u64) -> u64 {
    let width = width.max(1.0);
    STEPS
        .iter()
        .copied()
        .find(|&step| {
            let unit = AxisUnit::for_ticks(step, max_ms);
            // The widest label of this step: near the end of the axis, on
            // and off a whole unit (`41 min`, `40 min 30 s`).
            let top = max_ms / step * step + step;
            let label = [top, top - step, step]
                .iter()
                .map(|&t| unit.label(t).chars().count())
                .max()
                .unwrap_or(0);
            let px = step as f64 / span_ms.max(1) as f64 * width;
            px >= label as f64 * AXIS_CHAR_W + AXIS_LABEL_GAP
        })
        .unwrap_or(STEPS[STEPS.len() - 1])
}

/// Ticks every `step` ms over `[from_ms, to_ms]`, each with its label in the
/// axis's one unit.
pub fn labelled_ticks(from_ms: u64, to_ms: u64, step: u64) -> Vec<(u64, String)> {
    let step = step.max(1);
    let unit = AxisUnit::for_ticks(step, to_ms);
    let first = from_ms.div_ceil(step) * step;
    (0..)
        .map(|i| first + i * step)
        .take_while(|t| *t <= to_ms)
        .map(|t| (t, unit.label(t)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ticks of `[from, to]` drawn over `width` units.
    fn ticks(from: u64, to: u64, width: f64) -> Vec<(u64, String)> {
        labelled_ticks(from, to, tick_step(to - from, width, to))
    }

    fn labels(from: u64, to: u64, width: f64) -> Vec<String> {
        ticks(from, to, width).into_iter().map(|(_, l)| l).collect()
    }

    #[test]
    fn one_unit_per_axis() {
        // The "90 s · 2 min · 150 s" case: half-minute steps in the first minutes.
        assert_eq!(
            AxisUnit::for_ticks(30_000, 400_000),
            AxisUnit::Seconds { decimals: 0 }
        );
        let l: Vec<String> = labelled_ticks(60_000, 150_000, 30_000)
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        assert_eq!(l, ["60 s", "90 s", "120 s", "150 s"]);
        // Further into a run, minutes and seconds.
        let l: Vec<String> = labelled_ticks(2_400_000, 2_490_000, 30_000)
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        assert_eq!(l, ["40 min", "40 min 30 s", "41 min", "41 min 30 s"]);
        // Whole-minute steps: minutes, then hours and minutes past two hours.
        assert_eq!(
            AxisUnit::for_ticks(120_000, 480_000).label(360_000),
            "6 min"
        );
        assert_eq!(
            AxisUnit::for_ticks(1_800_000, 5_400_000).label(5_400_000),
            "90 min"
        );
        let hm = AxisUnit::for_ticks(1_800_000, 10_800_000);
        assert_eq!(
            (hm.label(7_200_000), hm.label(9_000_000)),
            ("2 h".to_string(), "2 h 30 min".to_string())
        );
        assert_eq!(
            AxisUnit::for_ticks(3_600_000, 10_800_000).label(7_200_000),
            "2 h"
        );
    }

    #[test]
    fn sub_second_steps_keep_fixed_decimals() {
        assert_eq!(AxisUnit::for_ticks(200, 900), AxisUnit::Millis);
        assert_eq!(AxisUnit::Millis.label(250), "250 ms");
        let l: Vec<String> = labelled_ticks(30_000, 31_000, 500)
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        assert_eq!(l, ["30.0 s", "30.5 s", "31.0 s"]);
        assert_eq!(AxisUnit::Seconds { decimals: 2 }.label(1_250), "1.25 s");
        assert_eq!(AxisUnit::Seconds { decimals: 3 }.label(1_005), "1.005 s");
        let ms = AxisUnit::for_ticks(500, 2_400_000);
        assert_eq!(ms, AxisUnit::MinutesSeconds { decimals: 1 });
        assert_eq!(ms.label(2_412_500), "40 min 12.5 s");
        assert_eq!(ms.label(2_400_000), "40 min 0.0 s");
    }

    #[test]
    fn every_label_of_an_axis_has_the_same_unit() {
        let unit_of = |l: &str| -> &'static str {
            match (
                l.contains(" h"),
                l.contains("min"),
                l.ends_with(" s"),
                l.ends_with("ms"),
            ) {
                (true, true, _, _) => "h min",
                (true, false, _, _) => "h",
                (false, true, true, _) => "min s",
                (false, true, false, _) => "min",
                (false, false, true, _) => "s",
                _ => "ms",
            }
        };
        for (from, to, width) in [
            (0, 400_000, 300.0),
            (0, 400_000, 1200.0),
            (20_000, 160_000, 600.0),
            (0, 2_700_000, 300.0),
            (0, 2_700_000, 1400.0),
            (2_000_000, 2_300_000, 500.0),
            (0, 5_400_000, 260.0),
            (0, 10_800_000, 900.0),
            (30_000, 30_900, 500.0),
        ] {
            let l = labels(from, to, width);
            assert!(l.len() >= 2, "{from}-{to} over {width}: {l:?}");
            // "min s" axes show whole minutes as "41 min": the same unit set.
            let units: Vec<&str> = l
                .iter()
                .map(|x| unit_of(x))
                .map(|u| {
                    if u == "min" && l.iter().any(|x| unit_of(x) == "min s") {
                        "min s"
                    } else {
                        u
                    }
                })
                .map(|u| {
                    if u == "h" && l.iter().any(|x| unit_of(x) == "h min") {
                        "h min"
                    } else {
                        u
                    }
                })
                .collect();
            assert!(
                units.windows(2).all(|w| w[0] == w[1]),
                "{from}-{to} over {width}: {l:?}"
            );
        }
    }

    #[test]
    fn tick_labels_never_overlap() {
        for (from, to, width) in [
            (0, 480_000, 300.0),
            (0, 480_000, 1200.0),
            (0, 2_700_000, 300.0),
            (0, 5_400_000, 260.0),
            (28_000, 42_000, 300.0),
            (30_000, 30_900, 500.0),
            (2_400_000, 2_460_000, 280.0),
            (7, 19, 400.0),
        ] {
            let t = ticks(from, to, width);
            assert!(t.len() >= 2, "{from}-{to} over {width}: {t:?}");
            let px = |ms: u64| (ms - from) as f64 / (to - from) as f64 * width;
            for pair in t.windows(2) {
                let gap = px(pair[1].0) - px(pair[0].0);
                let label = pair[0].1.chars().count().max(pair[1].1.chars().count()) as f64;
                assert!(
                    gap >= label * AXIS_CHAR_W + 8.0,
                    "{from}-{to} over {width}: {} and {} are {gap:.0} apart",
                    pair[0].1,
                    pair[1].1
                );
            }
            assert!(t.iter().all(|(ms, _)| (from..=to).contains(ms)));
        }
        // The "7 min8 min" case: an 8-minute run in a phone-width column.
        assert!(ticks(0, 480_000, 304.0)[1].0 >= 120_000);
    }
}
