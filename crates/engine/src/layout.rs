//! Where things go on a timeline: lanes, rows and bars in SVG user units.
//!
//! Pure geometry from a [`Trace`], shared by the page and the static SVG
//! export so both draw the same picture. A lane per worker (plus one for
//! unassigned work), a row per connector or task that was ever on that lane,
//! and one bar per state span: long runs of one state are one shape. Drawn,
//! a row's bars of one state that overlap or touch are one rectangle
//! ([`TimelineLayout::drawn_bars_on`]).

use crate::fixed::clamp;
use crate::multiply_hash::MultiplyHashMap;

mod drawn_bars;
pub use drawn_bars::DrawnBar;

use crate::time_ticks::labelled_ticks;
pub use crate::time_ticks::{tick_step, AxisUnit, AXIS_CHAR_W};
use crate::trace::{ItemState, Trace};

/// Sizes, in SVG user units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayoutOptions {
    /// Total width.
    pub width: f64,
    /// Width of the lane labels on the left.
    pub label_width: f64,
    /// Space above the first lane (event markers).
    pub top: f64,
    /// Height of one row.
    pub row_height: f64,
    /// Gap between rows.
    pub row_gap: f64,
    /// Padding inside a lane.
    pub lane_padding: f64,
    /// Rows drawn per lane; the rest is counted in [`Lane::hidden`].
    pub max_rows_per_lane: usize,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        Self {
            width: 960.0,
            label_width: 96.0,
            top: 28.0,
            row_height: 6.0,
            row_gap: 1.0,
            lane_padding: 6.0,
            max_rows_per_lane: 120,
        }
    }
}

/// One lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// `worker-3` or `unassigned`.
    pub label: String,
    /// The worker, or `None` for unassigned work.
    pub worker: Option<u32>,
    /// Item indices in row order.
    pub rows: Vec<u32>,
    /// Items that were on the lane but are not drawn (beyond the row limit).
    pub hidden: usize,
    /// Top edge.
    pub y: f64,
    /// Height.
    pub height: f64,
}

/// One bar: a state span of one item on one lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width (at least half a unit, so short states stay visible).
    pub width: f64,
    /// The state.
    pub state: ItemState,
    /// Index into [`Trace::items`].
    pub item: u32,
    /// The lane's worker.
    pub worker: Option<u32>,
    /// Start of the span.
    pub start_ms: u64,
    /// End of the span.
    pub end_ms: u64,
}

/// The geometry of one trace.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineLayout {
    /// Lanes top to bottom: workers by index, then unassigned.
    pub lanes: Vec<Lane>,
    /// Total height, axis labels included.
    pub height: f64,
    /// The sizes used.
    pub options: LayoutOptions,
    end_ms: u64,
    row_y: MultiplyHashMap<(Option<u32>, u32), f64>,
}

impl TimelineLayout {
    /// Lays out a trace.
    pub fn new(trace: &Trace, options: LayoutOptions) -> Self {
        Self::with_lane_heights(trace, options, &[])
    }

    /// Lays out several traces of one comparison lane for lane: the same
    /// worker's lane has the same top and height in every layout (the
    /// tallest of its lanes), so the columns line up row by row.
    pub fn aligned(traces: &[&Trace], options: LayoutOptions) -> Vec<Self> {
        let heights = aligned_lane_heights(traces, &options);
        traces
            .iter()
            .map(|t| Self::with_lane_heights(t, options, &heights))
            .collect()
    }

    /// Lays out a trace with worker lane `i` at least `min_heights[i]` tall
    /// and the unassigned lane at least the last entry (a positive one shows
    /// that lane even when empty); see [`aligned_lane_heights`].
    pub fn with_lane_heights(trace: &Trace, options: LayoutOptions, min_heights: &[f64]) -> Self {
        Self::with_rows(trace, options, &lane_rows(trace), min_heights)
    }

    /// [`Self::with_lane_heights`] with the trace's [`lane_rows`] already
    /// known: they do not depend on the width, so a caller laying one trace
    /// out at several widths (or ahead of drawing it) finds them once.
    pub fn with_rows(
        trace: &Trace,
        options: LayoutOptions,
        rows: &[Vec<u32>],
        min_heights: &[f64],
    ) -> Self {
        let lanes_n = rows.len();
        let mut lanes = Vec::with_capacity(lanes_n);
        let mut y = options.top;
        for (i, all) in rows.iter().enumerate() {
            let items = &all[..all.len().min(options.max_rows_per_lane)];
            let min_height = if i == lanes_n - 1 {
                min_heights.last()
            } else {
                min_heights.get(i)
            }
            .copied()
            .unwrap_or(0.0);
            let hidden = all.len().saturating_sub(options.max_rows_per_lane);
            let height = lane_height(all.len(), &options).max(min_height);
            let worker = (i < lanes_n - 1).then_some(i as u32);
            if worker.is_none() && items.is_empty() && min_height <= 0.0 {
                continue;
            }
            lanes.push(Lane {
                label: worker.map_or_else(
                    || "unassigned".to_string(),
                    |w| trace.workers[w as usize].clone(),
                ),
                worker,
                rows: items.to_vec(),
                hidden,
                y,
                height,
            });
            y += height;
        }
        let mut row_y = MultiplyHashMap::default();
        for lane in &lanes {
            for (r, item) in lane.rows.iter().enumerate() {
                row_y.insert(
                    (lane.worker, *item),
                    lane.y
                        + options.lane_padding
                        + r as f64 * (options.row_height + options.row_gap),
                );
            }
        }
        Self {
            lanes,
            height: y + 20.0,
            options,
            end_ms: trace.end_ms.max(1),
            row_y,
        }
    }

    /// The x coordinate of a time.
    pub fn x(&self, ms: u64) -> f64 {
        self.axis().x(ms)
    }

    /// The time at an x coordinate (for pointer scrubbing).
    pub fn time_at(&self, x: f64) -> u64 {
        self.axis().time_at(x)
    }

    /// The whole run's time axis.
    pub fn axis(&self) -> TimeAxis {
        self.axis_over(0, self.end_ms)
    }

    /// The time axis showing `[from_ms, to_ms]` across the plot (a zoom).
    pub fn axis_over(&self, from_ms: u64, to_ms: u64) -> TimeAxis {
        let o = &self.options;
        TimeAxis {
            left: o.label_width,
            right: o.width - 8.0,
            from_ms: from_ms.min(self.end_ms),
            to_ms: to_ms.clamp(from_ms.min(self.end_ms) + 1, self.end_ms.max(from_ms + 1)),
        }
    }

    /// The lane under a y coordinate.
    pub fn lane_at(&self, y: f64) -> Option<&Lane> {
        let i = self.lanes.partition_point(|l| l.y + l.height <= y);
        self.lanes.get(i).filter(|l| l.y <= y)
    }

    /// The top of an item's row on a lane, when drawn there.
    pub fn row_y(&self, worker: Option<u32>, item: u32) -> Option<f64> {
        self.row_y.get(&(worker, item)).copied()
    }

    /// The bar under a point, read from the trace (no drawn shape needed):
    /// the lane from `y`, the row within it, then the span of that row's
    /// item covering the time at `x`. Bars narrower than `slop` pixels are
    /// found within that distance.
    pub fn hit(&self, trace: &Trace, axis: &TimeAxis, x: f64, y: f64, slop: f64) -> Option<Bar> {
        let lane = self.lane_at(y)?;
        let o = &self.options;
        let pitch = o.row_height + o.row_gap;
        let r = ((y - lane.y - o.lane_padding) / pitch).floor();
        if r < 0.0 {
            return None;
        }
        let item = *lane.rows.get(r as usize)?;
        let t = axis.time_at(x);
        let tolerance = (slop * axis.ms_per_px()).round() as u64;
        let covering = trace
            .spans
            .iter()
            .filter(|s| s.worker == lane.worker)
            .filter(|s| {
                s.start_ms <= t.saturating_add(tolerance) && t < s.end_ms.saturating_add(tolerance)
            })
            .filter(|s| trace.list(s.items).contains(&item))
            // The span that covers `t` itself first, else the nearest.
            .min_by_key(|s| {
                if s.start_ms <= t && t < s.end_ms {
                    0
                } else {
                    s.start_ms.abs_diff(t).min(s.end_ms.abs_diff(t)) + 1
                }
            })?;
        let row_y = self.row_y(lane.worker, item)?;
        let x0 = axis.x(covering.start_ms);
        Some(Bar {
            x: x0,
            y: row_y,
            width: (axis.x(covering.end_ms) - x0).max(0.5),
            state: covering.state,
            item,
            worker: lane.worker,
            start_ms: covering.start_ms,
            end_ms: covering.end_ms,
        })
    }

    /// The bottom of the lanes (where axis ticks end).
    pub fn lanes_bottom(&self) -> f64 {
        self.height - 20.0
    }

    /// Every bar, in span order (later spans paint over earlier ones).
    pub fn bars<'a>(&'a self, trace: &'a Trace) -> impl Iterator<Item = Bar> + 'a {
        self.bars_on(trace, self.axis())
    }

    /// The bars visible on `axis` (a zoom), cut at its edges.
    pub fn bars_on<'a>(
        &'a self,
        trace: &'a Trace,
        axis: TimeAxis,
    ) -> impl Iterator<Item = Bar> + 'a {
        self.bars_on_lanes(trace, axis, |_| true)
    }

    /// [`Self::bars_on`] of the lanes (workers, `None` for unassigned)
    /// `keep` accepts, asked once a span.
    pub(crate) fn bars_on_lanes<'a>(
        &'a self,
        trace: &'a Trace,
        axis: TimeAxis,
        keep: impl Fn(Option<u32>) -> bool + 'a,
    ) -> impl Iterator<Item = Bar> + 'a {
        let shown = move |s: &&crate::trace::StateSpan| {
            s.end_ms >= axis.from_ms && s.start_ms <= axis.to_ms && keep(s.worker)
        };
        trace.spans.iter().filter(shown).flat_map(move |span| {
            let x0 = axis.x(span.start_ms);
            let width = (axis.x(span.end_ms) - x0).max(0.5);
            trace.list(span.items).iter().filter_map(move |&item| {
                let y = *self.row_y.get(&(span.worker, item))?;
                Some(Bar {
                    x: x0,
                    y,
                    width,
                    state: span.state,
                    item,
                    worker: span.worker,
                    start_ms: span.start_ms,
                    end_ms: span.end_ms,
                })
            })
        })
    }

    /// Round-numbered axis ticks over the run whose labels never overlap,
    /// with their labels (see [`TimeAxis::labelled_ticks`]).
    pub fn labelled_ticks(&self) -> Vec<(u64, String)> {
        self.axis().labelled_ticks()
    }
}

/// The height of every lane across the traces of one comparison, taken
/// lane for lane (worker index, and the unassigned lane last): what
/// [`TimelineLayout::with_lane_heights`] needs to line the columns up.
/// Independent of the width, so computed once per result.
pub fn aligned_lane_heights(traces: &[&Trace], options: &LayoutOptions) -> Vec<f64> {
    let per_trace: Vec<Vec<f64>> = traces.iter().map(|t| lane_heights(t, options)).collect();
    aligned_heights(&per_trace)
}

/// The height of each lane of one trace laid out on its own (worker index,
/// then the unassigned lane, 0 when it is empty): the one pass over the
/// trace's spans that both [`aligned_heights`] and a layout's height
/// ([`detail_height`]) need, so a caller wanting both reads the trace once.
pub fn lane_heights(trace: &Trace, options: &LayoutOptions) -> Vec<f64> {
    heights_of(&lane_items(trace), options)
}

/// [`lane_heights`] of a trace whose lanes hold `lanes` (its [`lane_items`]
/// or [`lane_rows`]: only their lengths count).
pub fn heights_of(lanes: &[Vec<u32>], options: &LayoutOptions) -> Vec<f64> {
    let n = lanes.len();
    lanes
        .iter()
        .enumerate()
        .map(|(i, items)| {
            if i == n - 1 && items.is_empty() {
                0.0
            } else {
                lane_height(items.len(), options)
            }
        })
        .collect()
}

/// Lane for lane, the tallest of several traces' [`lane_heights`] (the
/// unassigned lane last): see [`aligned_lane_heights`].
pub fn aligned_heights(per_trace: &[Vec<f64>]) -> Vec<f64> {
    let lanes_n = per_trace.iter().map(|h| h.len()).max().unwrap_or(1);
    let mut heights = vec![0.0_f64; lanes_n];
    for trace in per_trace {
        let n = trace.len();
        for (i, &h) in trace.iter().enumerate() {
            let slot = if i == n - 1 { lanes_n - 1 } else { i };
            heights[slot] = heights[slot].max(h);
        }
    }
    heights
}

/// The height of [`TimelineLayout::new`]'s layout of a trace whose
/// [`lane_heights`] are `heights`, without laying it out.
pub fn detail_height(heights: &[f64], options: &LayoutOptions) -> f64 {
    options.top + heights.iter().sum::<f64>() + 20.0
}

/// Which items ever sat on each lane, sorted: workers by index, then
/// unassigned; a lane's rows top down in [`TimelineLayout::with_rows`].
pub fn lane_rows(trace: &Trace) -> Vec<Vec<u32>> {
    sorted_rows(lane_items(trace))
}

/// [`lane_items`] sorted into [`lane_rows`].
pub fn sorted_rows(mut rows: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    for items in &mut rows {
        // Distinct already: the stable sort orders them as any sort would.
        crate::sort_by_key::sort_by_u64_key(items, |&i| u64::from(i));
    }
    rows
}

/// Which items ever sat on each lane, each once, in the order first seen:
/// one pass over the spans' items with a last-seen stamp per item (a
/// 1,000-worker eager trace lists millions of entries, so collecting them
/// all per lane and sorting them to drop repeats cost more than the rest
/// of the layout). Workers by index, then the unassigned lane.
pub fn lane_items(trace: &Trace) -> Vec<Vec<u32>> {
    let lanes_n = trace.workers.len() + 1;
    let lane_of = |w: Option<u32>| w.map_or(lanes_n - 1, |w| w as usize);
    // The spans of each lane, so each lane's items are gathered in one go.
    let mut spans_of: Vec<Vec<u32>> = vec![Vec::new(); lanes_n];
    for (i, span) in trace.spans.iter().enumerate() {
        spans_of[lane_of(span.worker)].push(i as u32);
    }
    // `seen[item]` is 1 + the last lane that took it.
    let mut seen = vec![0_u32; trace.items.len()];
    spans_of
        .iter()
        .enumerate()
        .map(|(lane, spans)| {
            let stamp = lane as u32 + 1;
            let mut items = Vec::new();
            for &s in spans {
                for &item in trace.list(trace.spans[s as usize].items) {
                    let i = item as usize;
                    if i >= seen.len() {
                        seen.resize(i + 1, 0);
                    }
                    if seen[i] != stamp {
                        seen[i] = stamp;
                        items.push(item);
                    }
                }
            }
            items
        })
        .collect()
}

/// The height of a lane with `items` rows (beyond the limit, a "+N more" line).
fn lane_height(items: usize, options: &LayoutOptions) -> f64 {
    let hidden = items > options.max_rows_per_lane;
    let shown = items.clamp(1, options.max_rows_per_lane) as f64;
    shown * (options.row_height + options.row_gap)
        + 2.0 * options.lane_padding
        + if hidden { 12.0 } else { 0.0 }
}

/// A horizontal time axis: `[from_ms, to_ms]` drawn from `left` to `right`
/// (SVG user units). The whole run, or a zoomed window of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeAxis {
    /// x of `from_ms`.
    pub left: f64,
    /// x of `to_ms`.
    pub right: f64,
    /// First time shown.
    pub from_ms: u64,
    /// Last time shown (greater than `from_ms`).
    pub to_ms: u64,
}

impl TimeAxis {
    /// The x of a time, held to the axis (times outside sit on its edges).
    pub fn x(&self, ms: u64) -> f64 {
        let ms = ms.clamp(self.from_ms, self.to_ms);
        self.left + (ms - self.from_ms) as f64 / self.span() as f64 * (self.right - self.left)
    }

    /// The time at an x, held to the axis.
    pub fn time_at(&self, x: f64) -> u64 {
        let f = clamp(
            (x - self.left) / (self.right - self.left).max(1.0),
            0.0,
            1.0,
        );
        self.from_ms + (f * self.span() as f64).round() as u64
    }

    /// True when `ms` is on the axis.
    pub fn shows(&self, ms: u64) -> bool {
        (self.from_ms..=self.to_ms).contains(&ms)
    }

    /// Milliseconds shown.
    pub fn span(&self) -> u64 {
        self.to_ms.saturating_sub(self.from_ms).max(1)
    }

    /// Milliseconds per unit of x.
    pub fn ms_per_px(&self) -> f64 {
        self.span() as f64 / (self.right - self.left).max(1.0)
    }

    /// Round-numbered ticks over the axis, spaced so that their labels
    /// never touch, each with its label; every label in the one unit the
    /// step calls for (see [`crate::time_ticks`]).
    pub fn labelled_ticks(&self) -> Vec<(u64, String)> {
        let step = tick_step(self.span(), self.right - self.left, self.to_ms);
        labelled_ticks(self.from_ms, self.to_ms, step)
    }

    /// The `text-anchor` of a tick label at `x` in a drawing `width` wide:
    /// its start near the axis's left edge, its end near the drawing's
    /// right one, its middle elsewhere, so that no label runs off.
    pub fn label_anchor(&self, x: f64, width: f64) -> &'static str {
        if x < self.left + 20.0 {
            "start"
        } else if x > width - 30.0 {
            "end"
        } else {
            "middle"
        }
    }

    /// The ticks' times alone.
    pub fn ticks(&self) -> Vec<u64> {
        self.labelled_ticks().into_iter().map(|(t, _)| t).collect()
    }
}

/// The CSS class and legend name of a state.
pub fn state_name(state: ItemState) -> &'static str {
    match state {
        ItemState::Starting => "starting",
        ItemState::Running => "running",
        ItemState::Stopping => "stopping",
        ItemState::Unassigned => "unassigned",
        ItemState::Zombie => "zombie",
        ItemState::Frozen => "frozen",
        ItemState::Restoring => "restoring",
        ItemState::Warmup => "warmup",
        ItemState::Standby => "standby",
    }
}

/// The colour of a state (Okabe–Ito: told apart with common colour-vision
/// deficiencies). `web/style.css` uses the same values; a test keeps them equal.
pub fn state_colour(state: ItemState) -> &'static str {
    match state {
        ItemState::Running => "#009e73",
        ItemState::Starting => "#56b4e9",
        ItemState::Stopping => "#e69f00",
        ItemState::Unassigned => "#d55e00",
        ItemState::Zombie => "#cc79a7",
        ItemState::Frozen => "#999999",
        // Streams states: Okabe–Ito blue and yellow, and Paul Tol's indigo,
        // distinct from the six above under common colour-vision deficiencies.
        ItemState::Restoring => "#0072b2",
        ItemState::Warmup => "#f0e442",
        ItemState::Standby => "#332288",
    }
}

/// Legend entries in display order: (state, label).
pub const LEGEND: [(ItemState, &str); 9] = [
    (ItemState::Running, "running"),
    (ItemState::Starting, "starting"),
    (ItemState::Stopping, "stopping"),
    (ItemState::Unassigned, "unassigned"),
    (ItemState::Frozen, "frozen (GC pause)"),
    (ItemState::Zombie, "zombie copy"),
    (ItemState::Restoring, "restoring state"),
    (ItemState::Warmup, "warmup replica"),
    (ItemState::Standby, "standby replica"),
];

/// Colour of rebalance-round markers.
pub const ROUND_COLOUR: &str = "#6a3d9a";

/// An item leaving one worker for another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// When it appeared on the new worker.
    pub at_ms: u64,
    /// The worker it was last on.
    pub from: u32,
    /// The worker it went to.
    pub to: u32,
}

/// Where an item moved between workers, from its intervals in time order
/// ([`Trace::item_intervals`]); a stretch unassigned in between does not
/// hide the move.
pub fn item_moves(intervals: &[crate::trace::StateInterval]) -> Vec<Move> {
    let mut last: Option<u32> = None;
    let mut moves = Vec::new();
    for iv in intervals {
        let Some(w) = iv.worker else { continue };
        if let Some(from) = last.filter(|&f| f != w) {
            moves.push(Move {
                at_ms: iv.start_ms,
                from,
                to: w,
            });
        }
        last = Some(w);
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::ItemKind;

    /// A preset's run (also for [`drawn_bars`]' tests).
    pub(super) fn preset(id: &str) -> crate::run::RunResult {
        let p = crate::presets::all()
            .iter()
            .find(|p| p.id == id)
            .expect("preset");
        crate::run::run(&p.scenario())
    }

    #[test]
    fn a_zoomed_axis_labels_its_window_in_one_unit() {
        // Half-minute ticks two minutes into a run: seconds throughout.
        let axis = TimeAxis {
            left: 80.0,
            right: 1080.0,
            from_ms: 50_000,
            to_ms: 160_000,
        };
        let labels: Vec<String> = axis.labelled_ticks().into_iter().map(|(_, l)| l).collect();
        assert!(
            labels
                .iter()
                .all(|l| l.ends_with(" s") && !l.contains("min")),
            "{labels:?}"
        );
        assert_eq!(axis.ticks().len(), labels.len());
    }

    #[test]
    fn a_zoomed_axis_maps_its_window_to_the_plot() {
        let lay = TimelineLayout::new(
            &Trace {
                end_ms: 100_000,
                ..Trace::default()
            },
            LayoutOptions::default(),
        );
        let axis = lay.axis_over(20_000, 30_000);
        assert_eq!(axis.x(20_000), axis.left);
        assert_eq!(axis.x(30_000), axis.right);
        assert_eq!(axis.x(90_000), axis.right, "held to the edge");
        assert_eq!(axis.time_at((axis.left + axis.right) / 2.0), 25_000);
        assert_eq!(lay.axis(), lay.axis_over(0, 100_000));
    }

    #[test]
    fn aligned_layouts_put_each_worker_at_the_same_height() {
        let result = preset("connect/worker-dies");
        let traces: Vec<&Trace> = result.variants.iter().map(|v| &v.trace).collect();
        let layouts = TimelineLayout::aligned(&traces, LayoutOptions::default());
        let first = &layouts[0];
        for lay in &layouts[1..] {
            assert_eq!(lay.lanes.len(), first.lanes.len());
            for (a, b) in first.lanes.iter().zip(&lay.lanes) {
                assert_eq!((&a.label, a.y, a.height), (&b.label, b.y, b.height));
            }
        }
        // Unaligned, the same preset's lanes differ (else the test proves nothing).
        let own: Vec<TimelineLayout> = traces
            .iter()
            .map(|t| TimelineLayout::new(t, LayoutOptions::default()))
            .collect();
        assert!(own.windows(2).any(|w| w[0].height != w[1].height));
    }

    #[test]
    fn lane_rows_are_each_lanes_distinct_items_sorted() {
        for id in [
            "connect/rolling-restart",
            "connect/worker-dies",
            "streams/stateful-scale-out",
        ] {
            for v in &preset(id).variants {
                let t = &v.trace;
                // Every span's items per lane, sorted, repeats dropped.
                let mut expected: Vec<Vec<u32>> = vec![Vec::new(); t.workers.len() + 1];
                for span in &t.spans {
                    let lane = span.worker.map_or(t.workers.len(), |w| w as usize);
                    expected[lane].extend_from_slice(t.list(span.items));
                }
                for items in &mut expected {
                    items.sort_unstable();
                    items.dedup();
                }
                assert_eq!(lane_rows(t), expected, "{id} {}", v.label);
                assert!(expected.iter().any(|items| items.len() > 1));
            }
        }
    }

    #[test]
    fn detail_height_from_lane_heights_is_the_layouts_height() {
        let options = LayoutOptions {
            max_rows_per_lane: 3,
            ..LayoutOptions::default()
        };
        let mut checked = 0;
        for id in [
            "connect/worker-dies",
            "connect/add-connector",
            "streams/stateful-scale-out",
        ] {
            let result = preset(id);
            for v in &result.variants {
                let heights = lane_heights(&v.trace, &options);
                let laid = TimelineLayout::new(&v.trace, options);
                assert_eq!(
                    detail_height(&heights, &options),
                    laid.height,
                    "{id} {}",
                    v.label
                );
                // Lanes past three rows end in "+N more", so heights differ by lane.
                checked += usize::from(laid.lanes.iter().any(|l| l.hidden > 0));
            }
        }
        assert!(
            checked > 0,
            "no lane was cut short: the option proves nothing"
        );
    }

    #[test]
    fn hit_testing_finds_the_bar_under_the_pointer() {
        let result = preset("connect/worker-joins");
        let trace = &result.variants[0].trace;
        let lay = TimelineLayout::new(trace, LayoutOptions::default());
        let axis = lay.axis();
        // Every drawn bar wider than a pixel is found at its middle.
        let mut checked = 0;
        for bar in lay.bars(trace).filter(|b| b.width > 2.0) {
            let hit = lay
                .hit(trace, &axis, bar.x + bar.width / 2.0, bar.y + 2.0, 0.0)
                .expect("a bar");
            assert_eq!((hit.item, hit.worker), (bar.item, bar.worker));
            assert!(hit.start_ms <= bar.start_ms && bar.end_ms <= hit.end_ms.max(bar.end_ms));
            checked += 1;
        }
        assert!(checked > 10);
        // Above the lanes, and left of the first bar in the label column, nothing.
        assert_eq!(lay.hit(trace, &axis, 300.0, 2.0, 3.0), None);
        assert_eq!(lay.hit(trace, &axis, 300.0, lay.height + 5.0, 3.0), None);
    }

    #[test]
    fn moves_follow_an_item_from_worker_to_worker() {
        let result = preset("connect/worker-dies");
        let trace = &result.variants[0].trace;
        // Some task of the crashed worker moved to another worker.
        let crashed = trace.worker_index("worker-3").expect("worker-3");
        let moved = (0..trace.items.len() as u32)
            .filter(|&i| trace.items[i as usize].kind == ItemKind::Task)
            .map(|i| item_moves(&trace.item_intervals(i)))
            .find(|m| m.iter().any(|m| m.from == crashed))
            .expect("a task of worker-3 moved");
        assert!(moved.iter().all(|m| m.from != m.to && m.at_ms >= 30_000));
    }
}
