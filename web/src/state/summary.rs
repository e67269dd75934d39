//! The summary of a big run: workers in groups, and per group how many
//! tasks were in each state over time (a stacked area per group). Above a
//! size where one row per task stops being readable (and drawable), the
//! timeline shows this instead, with drill-down into one group's workers.
//!
//! Presentation only: counts of what the trace recorded, grouped.

use std::ops::Range;
use std::rc::Rc;

use engine::layout::{self, LayoutOptions, LEGEND};
use engine::run::RunResult;
use engine::trace::{ItemKind, ItemState, StateSpan, Trace, WorkerSpan};

use super::newest::Newest;
use crate::shared::Shared;

/// States in legend order; a group's counts are indexed like this.
pub const STATES: usize = LEGEND.len();

/// Timelines taller than this (in the engine's layout) are summarised.
pub const DETAIL_MAX_HEIGHT: f64 = 4_000.0;

/// At most this many groups; each holds `ceil(workers / MAX_GROUPS)` workers.
pub const MAX_GROUPS: usize = 25;

fn state_index(state: ItemState) -> usize {
    LEGEND.iter().position(|(s, _)| *s == state).unwrap_or(0)
}

/// The height of the tallest detailed (one row per item) timeline of a
/// run, in the engine's default layout. It decides between detail and
/// summary and sizes the embed snippet; callers memoise it per result
/// (it reads every span of the trace once). See [`lane_heights`] for the
/// aligned lanes from the same pass.
pub fn detail_height(result: &RunResult) -> f64 {
    lane_heights(result).1
}

/// The aligned lane heights of a run's columns
/// ([`engine::layout::aligned_lane_heights`]) and the height of its tallest
/// detailed timeline ([`detail_height`]), from one pass over each trace
/// (laying the traces out only to learn their height cost a 1,000-worker
/// run tens of milliseconds more on the page's main thread).
pub fn lane_heights(result: &RunResult) -> (Vec<f64>, f64) {
    heights_from(&lane_items(result))
}

/// Each column's [`layout::lane_items`].
fn lane_items(result: &RunResult) -> Vec<Vec<Vec<u32>>> {
    result
        .variants
        .iter()
        .map(|v| layout::lane_items(&v.trace))
        .collect()
}

/// [`lane_heights`] from each column's lane items.
fn heights_from(lane_items: &[Vec<Vec<u32>>]) -> (Vec<f64>, f64) {
    let options = LayoutOptions::default();
    let per_trace: Vec<Vec<f64>> = lane_items
        .iter()
        .map(|lanes| layout::heights_of(lanes, &options))
        .collect();
    let tallest = per_trace
        .iter()
        .map(|h| layout::detail_height(h, &options))
        .fold(0.0, f64::max);
    (layout::aligned_heights(&per_trace), tallest)
}

/// [`lane_heights`] and [`needs_summary`] of a result, as the comparison
/// draws them.
#[derive(Debug, PartialEq)]
pub struct Lanes {
    /// Lane heights shared by every column.
    pub heights: Shared<Vec<f64>>,
    /// Too tall to draw row by row: groups of workers, summarised.
    pub summarised: bool,
    /// Each column's [`layout::lane_rows`], for drawing it row by row
    /// without finding them again at every width; none when summarised.
    pub rows: Vec<Vec<Vec<u32>>>,
}

thread_local! {
    static NEWEST: Newest<Lanes> = const { Newest::new() };
}

/// `result`'s [`Lanes`], computed once per result ([`super::newest`]; a
/// storm's took 9–16 ms of its first render, and its lane rows as much
/// again).
pub fn lanes_of(result: &Rc<RunResult>) -> Rc<Lanes> {
    NEWEST.with(|newest| {
        newest.get(result, |result| {
            let items = lane_items(result);
            let (heights, tallest) = heights_from(&items);
            let summarised = needs_summary(tallest);
            let rows = if summarised {
                Vec::new()
            } else {
                items.into_iter().map(layout::sorted_rows).collect()
            };
            Lanes {
                heights: Shared::new(heights),
                summarised,
                rows,
            }
        })
    })
}

/// True when the run's detailed timelines would be too tall to draw row by row.
pub fn needs_summary(detail_height: f64) -> bool {
    detail_height > DETAIL_MAX_HEIGHT
}

/// Which lanes a group covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Members {
    /// Workers `range` (indices into `Trace::workers`).
    Workers(Range<u32>),
    /// Work nobody runs.
    Unassigned,
}

/// One group's tasks by state over time.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// `worker-1 … worker-40` or `unassigned`.
    pub label: String,
    /// Its lanes.
    pub members: Members,
    /// Change points, increasing; `counts[i]` holds from `times[i]` on.
    pub times: Vec<u64>,
    /// Tasks per state (legend order) after each change point.
    pub counts: Vec<[u32; STATES]>,
    /// The largest total at any time.
    pub peak: u32,
}

/// Workers per group for `workers` workers.
pub fn group_size(workers: usize) -> usize {
    workers.div_ceil(MAX_GROUPS).max(1)
}

/// The groups of a trace: workers in `size`-sized groups, then unassigned
/// work (when there was any).
pub fn summarize(trace: &Trace, size: usize) -> Vec<Group> {
    let size = size.max(1);
    let n_workers = trace.workers.len();
    let n_groups = n_workers.div_ceil(size);
    let unassigned = n_groups;
    let is_task: Vec<bool> = trace
        .items
        .iter()
        .map(|i| i.kind == ItemKind::Task)
        .collect();
    // Per group: (time, state, delta) changes.
    let mut deltas: Vec<Vec<(u64, usize, i64)>> = vec![Vec::new(); n_groups + 1];
    for span in &trace.spans {
        if span.end_ms <= span.start_ms {
            continue;
        }
        let n = trace
            .list(span.items)
            .iter()
            .filter(|&&i| is_task.get(i as usize).copied().unwrap_or(false))
            .count() as i64;
        if n == 0 {
            continue;
        }
        let g = span
            .worker
            .map_or(unassigned, |w| (w as usize / size).min(n_groups));
        let s = state_index(span.state);
        deltas[g].push((span.start_ms, s, n));
        deltas[g].push((span.end_ms, s, -n));
    }
    let mut groups = Vec::with_capacity(n_groups + 1);
    for (g, mut d) in deltas.into_iter().enumerate() {
        let members = if g == unassigned {
            if d.is_empty() {
                continue;
            }
            Members::Unassigned
        } else {
            let start = (g * size) as u32;
            let end = ((g + 1) * size).min(n_workers) as u32;
            Members::Workers(start..end)
        };
        engine::sort_by_key::sort_by_u64_key(&mut d, |x| x.0);
        let mut times = vec![0];
        let mut counts = vec![[0u32; STATES]];
        let mut current = [0i64; STATES];
        for (t, s, delta) in d {
            current[s] += delta;
            let snapshot = current.map(|c| c.max(0) as u32);
            if *times.last().unwrap_or(&u64::MAX) == t {
                if let Some(last) = counts.last_mut() {
                    *last = snapshot;
                }
            } else {
                times.push(t);
                counts.push(snapshot);
            }
        }
        let peak = counts
            .iter()
            .map(|c| c.iter().sum::<u32>())
            .max()
            .unwrap_or(0);
        let label = match &members {
            Members::Unassigned => "unassigned".to_string(),
            Members::Workers(r) if r.len() == 1 => trace.workers[r.start as usize].clone(),
            Members::Workers(r) => format!(
                "{} … {}",
                trace.workers[r.start as usize],
                trace.workers[(r.end - 1) as usize]
            ),
        };
        groups.push(Group {
            label,
            members,
            times,
            counts,
            peak,
        });
    }
    groups
}

/// A trace holding only one group's lanes (renumbered from 0), for the
/// drill-down: the engine's layout then draws just those workers. Rounds,
/// events and steps are left out: markers come from the whole trace.
pub fn sub_trace(trace: &Trace, members: &Members) -> Trace {
    let keep = |w: Option<u32>| -> Option<Option<u32>> {
        match (members, w) {
            (Members::Workers(r), Some(w)) if r.contains(&w) => Some(Some(w - r.start)),
            (Members::Unassigned, None) => Some(None),
            _ => None,
        }
    };
    let workers = match members {
        Members::Workers(r) => trace.workers[r.start as usize..r.end as usize].to_vec(),
        Members::Unassigned => Vec::new(),
    };
    let spans: Vec<StateSpan> = trace
        .spans
        .iter()
        .filter_map(|s| keep(s.worker).map(|worker| StateSpan { worker, ..*s }))
        .collect();
    let worker_spans: Vec<WorkerSpan> = match members {
        Members::Workers(r) => trace
            .worker_spans
            .iter()
            .filter(|s| r.contains(&s.worker))
            .map(|s| WorkerSpan {
                worker: s.worker - r.start,
                ..*s
            })
            .collect(),
        Members::Unassigned => Vec::new(),
    };
    Trace {
        label: trace.label.clone(),
        end_ms: trace.end_ms,
        workers,
        items: trace.items.clone(),
        item_lists: trace.item_lists.clone(),
        spans,
        configured: trace.configured.clone(),
        worker_spans,
        ..Trace::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::layout::TimelineLayout;
    use engine::scenario::{ConnectorSpec, Family, Scenario};

    fn big() -> Scenario {
        let mut s = engine::presets::default_preset().scenario();
        let Family::Connect(c) = &mut s.family else {
            panic!("the default preset is a Connect scenario")
        };
        c.cluster.workers = 60;
        c.cluster.connectors = vec![ConnectorSpec {
            name: "c".into(),
            tasks: 50,
            count: Some(20),
        }];
        s
    }

    #[test]
    fn groups_count_every_task_state_at_every_time() {
        let result = engine::run::run(&big());
        let trace = &result.variants[0].trace;
        let first_only = RunResult {
            variants: vec![result.variants[0].clone()],
        };
        assert!(needs_summary(detail_height(&first_only)));
        let size = group_size(trace.workers.len());
        let groups = summarize(trace, size);
        assert!(groups.len() <= MAX_GROUPS + 1);
        // At any time, the groups' totals equal the tasks in a state anywhere.
        for t in [0, 10_000, 29_000, 31_000, trace.end_ms - 1] {
            let from_groups: u32 = groups
                .iter()
                .map(|g| {
                    let i = g.times.partition_point(|&x| x <= t).saturating_sub(1);
                    g.counts[i].iter().sum::<u32>()
                })
                .sum();
            let direct = trace
                .intervals()
                .filter(|iv| iv.start_ms <= t && t < iv.end_ms)
                .filter(|iv| trace.items[iv.item as usize].kind == ItemKind::Task)
                .count() as u32;
            assert_eq!(from_groups, direct, "at {t}");
        }
    }

    #[test]
    fn a_group_drills_down_to_its_own_lanes() {
        let result = engine::run::run(&big());
        let trace = &result.variants[0].trace;
        let sub = sub_trace(trace, &Members::Workers(3..6));
        assert_eq!(sub.workers, trace.workers[3..6].to_vec());
        assert!(sub.spans.iter().all(|s| s.worker.is_some_and(|w| w < 3)));
        let layout = TimelineLayout::new(&sub, LayoutOptions::default());
        assert_eq!(layout.lanes.len(), 3);
        let small = engine::run::run(&engine::presets::default_preset().scenario());
        assert!(!needs_summary(detail_height(&small)));
    }
}
