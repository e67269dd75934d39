//! Counts over time, derived from trace spans for charts and readouts.
//!
//! Presentation, not protocol logic: the engine decided every state; this
//! only adds up how many tasks were in one, as a step function.

use std::rc::Rc;

use engine::run::RunResult;
use engine::trace::{ItemKind, ItemState, Trace};

use super::newest::Newest;

/// A step function: `(t, value)` points, each value holding from its `t`
/// until the next point's. The first point is at 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Steps {
    /// Points in strictly increasing time.
    pub points: Vec<(u64, u32)>,
}

impl Steps {
    /// Builds the step function from `(t, delta)` changes.
    fn from_deltas(mut deltas: Vec<(u64, i64)>) -> Self {
        engine::sort_by_key::sort_by_u64_key(&mut deltas, |d| d.0);
        let mut points: Vec<(u64, u32)> = vec![(0, 0)];
        let mut value: i64 = 0;
        for (t, d) in deltas {
            value += d;
            let v = value.max(0) as u32;
            match points.last_mut() {
                Some(last) if last.0 == t => last.1 = v,
                _ => points.push((t, v)),
            }
        }
        // Drop points that do not change the value.
        points.dedup_by(|b, a| a.1 == b.1);
        Steps { points }
    }

    /// The value at `t`.
    pub fn at(&self, t: u64) -> u32 {
        match self.points.binary_search_by_key(&t, |p| p.0) {
            Ok(i) => self.points[i].1,
            Err(0) => 0,
            Err(i) => self.points[i - 1].1,
        }
    }

    /// The largest value.
    pub fn max(&self) -> u32 {
        self.points.iter().map(|p| p.1).max().unwrap_or(0)
    }

    /// The values taken in each of `columns` equal stretches of
    /// `from_ms..to_ms` (a chart's pixel columns): the least and the
    /// greatest, so a dip far shorter than a pixel still shows (as trace
    /// viewers draw dense counters), and the mean over the stretch, so
    /// many short dips read as the work they cost.
    pub fn ranges(&self, from_ms: u64, to_ms: u64, columns: usize) -> Vec<Range> {
        // u64 and f64 maths: u128 division would add to the page's
        // WebAssembly, and a run's milliseconds times its pixels fit.
        let span = to_ms.saturating_sub(from_ms);
        let mut out = Vec::with_capacity(columns);
        let (mut next, mut value) = (0, 0);
        let mut start = from_ms;
        for c in 0..columns {
            let end = from_ms + span.saturating_mul(c as u64 + 1) / columns as u64;
            // What holds at the stretch's start: the changes up to it.
            while let Some(&(_, v)) = self.points.get(next).filter(|p| p.0 <= start) {
                (value, next) = (v, next + 1);
            }
            let mut range = Range {
                min: value,
                max: value,
                mean: f64::from(value),
            };
            // The value's integral over the stretch, in value × ms.
            let (mut area, mut since) = (0.0, start);
            while let Some(&(t, v)) = self.points.get(next).filter(|p| p.0 < end) {
                area += f64::from(value) * (t - since) as f64;
                range.min = range.min.min(v);
                range.max = range.max.max(v);
                (value, next, since) = (v, next + 1, t);
            }
            area += f64::from(value) * end.saturating_sub(since) as f64;
            if end > start {
                range.mean = area / (end - start) as f64;
            }
            out.push(range);
            start = end;
        }
        out
    }
}

/// What a [`Steps`] takes over a stretch of time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// The least value.
    pub min: u32,
    /// The greatest value.
    pub max: u32,
    /// The mean over the stretch's time.
    pub mean: f64,
}

fn task_count(trace: &Trace, items: &[u32]) -> i64 {
    items
        .iter()
        .filter(|&&i| {
            trace
                .items
                .get(i as usize)
                .is_some_and(|it| it.kind == ItemKind::Task)
        })
        .count() as i64
}

/// Tasks in `state` (on any lane) over time.
pub fn tasks_in(trace: &Trace, state: ItemState) -> Steps {
    let mut deltas = Vec::new();
    for span in trace.spans.iter().filter(|s| s.state == state) {
        let n = task_count(trace, trace.list(span.items));
        if n > 0 && span.end_ms > span.start_ms {
            deltas.push((span.start_ms, n));
            deltas.push((span.end_ms, -n));
        }
    }
    Steps::from_deltas(deltas)
}

/// Running tasks over time (a zombie copy is not counted: it is a second
/// copy Kafka no longer tracks, shown in its own colour).
pub fn running_tasks(trace: &Trace) -> Steps {
    tasks_in(trace, ItemState::Running)
}

/// Configured tasks over time (what "all running" means).
pub fn configured_tasks(trace: &Trace) -> Steps {
    let mut deltas = Vec::new();
    for span in &trace.configured {
        let n = task_count(trace, trace.list(span.items));
        if n > 0 && span.end_ms > span.start_ms {
            deltas.push((span.start_ms, n));
            deltas.push((span.end_ms, -n));
        }
    }
    Steps::from_deltas(deltas)
}

/// The counts the columns' readouts and the running chart draw of one
/// result, per variant.
#[derive(Debug, PartialEq)]
pub struct ResultSeries {
    /// [`running_tasks`] of each variant.
    pub running: Vec<Steps>,
    /// Unassigned tasks of each variant.
    pub unassigned: Vec<Steps>,
    /// [`configured_tasks`] of the first variant (the same in every one).
    pub configured: Steps,
}

thread_local! {
    static NEWEST: Newest<ResultSeries> = const { Newest::new() };
}

/// `result`'s series, computed once per result ([`super::newest`]): the
/// columns and the chart both read them (a storm's spans took 20–25 ms of
/// its 60 ms first render).
pub fn of(result: &Rc<RunResult>) -> Rc<ResultSeries> {
    NEWEST.with(|newest| {
        newest.get(result, |result| ResultSeries {
            running: result
                .variants
                .iter()
                .map(|v| running_tasks(&v.trace))
                .collect(),
            unassigned: result
                .variants
                .iter()
                .map(|v| tasks_in(&v.trace, ItemState::Unassigned))
                .collect(),
            configured: result
                .variants
                .first()
                .map(|v| configured_tasks(&v.trace))
                .unwrap_or_default(),
        })
    })
}

/// The generation in force at `t`: the newest delivered round completed by
/// then, else the one the group formed in before t = 0 (the trace says which).
pub fn generation_at(trace: &Trace, t: u64) -> Option<i32> {
    trace
        .rounds
        .iter()
        .filter(|r| r.delivered && r.completed_ms <= t)
        .map(|r| r.generation)
        .next_back()
        .or(trace.formed_generation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_series_is_computed_once_and_per_result() {
        let scenario = engine::presets::default_preset().scenario();
        let result = Rc::new(engine::run::run(&scenario));
        let series = of(&result);
        assert!(Rc::ptr_eq(&series, &of(&result)), "cached");
        assert_eq!(series.running.len(), result.variants.len());
        assert_eq!(series.running[1], running_tasks(&result.variants[1].trace));
        assert_eq!(
            series.configured,
            configured_tasks(&result.variants[0].trace)
        );
        let other = Rc::new(engine::run::run(&scenario));
        assert!(
            !Rc::ptr_eq(&series, &of(&other)),
            "an equal result is another result"
        );
        assert_eq!(*series, *of(&other));
    }

    #[test]
    fn running_tasks_match_the_trace_at_every_change() {
        let result = engine::run::run(&engine::presets::default_preset().scenario());
        for run in &result.variants {
            let trace = &run.trace;
            let steps = running_tasks(trace);
            assert!(steps.max() > 0);
            for &(t, v) in &steps.points {
                let direct = trace
                    .intervals()
                    .filter(|iv| {
                        iv.state == ItemState::Running && iv.start_ms <= t && t < iv.end_ms
                    })
                    .filter(|iv| trace.items[iv.item as usize].kind == ItemKind::Task)
                    .count() as u32;
                assert_eq!(v, direct, "{} at {t}", run.label);
            }
            assert!(configured_tasks(trace).max() >= steps.max());
        }
    }

    #[test]
    fn a_formed_group_has_its_generation_from_t_0() {
        let result = engine::run::run(&engine::presets::default_preset().scenario());
        for run in &result.variants {
            let trace = &run.trace;
            let formed = trace.formed_generation;
            assert!(formed.is_some(), "{}: the preset starts formed", run.label);
            assert_eq!(generation_at(trace, 0), formed, "{}", run.label);
            let first = trace.rounds.iter().find(|r| r.delivered).expect("a round");
            assert_eq!(
                generation_at(trace, first.completed_ms),
                Some(first.generation),
                "{}",
                run.label
            );
        }
        let mut empty = engine::presets::default_preset().scenario();
        empty.start = engine::scenario::Start::Empty;
        let result = engine::run::run(&empty);
        assert_eq!(generation_at(&result.variants[0].trace, 0), None);
    }

    #[test]
    fn ranges_keep_every_dip_of_a_stretch() {
        // 16 tasks; a 30 ms dip to 12 at 1 s; all stop at 5 s, 4 run from 8 s.
        let s = Steps {
            points: vec![(0, 16), (1_000, 12), (1_030, 16), (5_000, 0), (8_000, 4)],
        };
        let min_max = |from, to, n| -> Vec<(u32, u32)> {
            s.ranges(from, to, n)
                .iter()
                .map(|r| (r.min, r.max))
                .collect()
        };
        let means =
            |from, to, n| -> Vec<f64> { s.ranges(from, to, n).iter().map(|r| r.mean).collect() };
        assert_eq!(
            min_max(0, 10_000, 10),
            vec![
                (16, 16),
                (12, 16),
                (16, 16),
                (16, 16),
                (16, 16),
                (0, 0),
                (0, 0),
                (0, 0),
                (4, 4),
                (4, 4)
            ],
            "a change at a stretch's start belongs to that stretch only"
        );
        assert_eq!(
            means(0, 10_000, 10)[..3],
            [16.0, (12.0 * 30.0 + 16.0 * 970.0) / 1_000.0, 16.0]
        );
        // Both changes of the dip inside one stretch: it still shows, and
        // the mean counts the 3 s at 0.
        assert_eq!(min_max(0, 10_000, 2), vec![(12, 16), (0, 4)]);
        assert_eq!(
            means(0, 10_000, 2),
            vec![
                (16.0 * 4_970.0 + 12.0 * 30.0) / 5_000.0,
                4.0 * 2_000.0 / 5_000.0
            ]
        );
        // A window: what held before it counts from its start.
        assert_eq!(min_max(1_005, 1_035, 3), vec![(12, 12), (12, 12), (12, 16)]);
        assert_eq!(means(1_005, 1_035, 3)[2], (12.0 * 5.0 + 16.0 * 5.0) / 10.0);
        assert!(s.ranges(0, 10_000, 0).is_empty());
        assert_eq!(
            Steps::default().ranges(0, 100, 2),
            vec![
                Range {
                    min: 0,
                    max: 0,
                    mean: 0.0
                };
                2
            ]
        );
    }

    #[test]
    fn steps_look_up_by_time() {
        let s = Steps::from_deltas(vec![(10, 3), (20, -1), (20, -2), (30, 5)]);
        assert_eq!(s.points, vec![(0, 0), (10, 3), (20, 0), (30, 5)]);
        assert_eq!(s.at(5), 0);
        assert_eq!(s.at(10), 3);
        assert_eq!(s.at(25), 0);
        assert_eq!(s.at(99), 5);
    }
}
