//! Where things go on a timeline: lanes, rows and bars in SVG user units.
//!
//! Pure geometry from a [`Trace`], shared by the page and the static SVG
//! export so both draw the same picture. A lane per worker (plus one for
//! unassigned work), a row per connector or task that was ever on that lane,
//! and one bar per state span: long runs of one state are one shape.

use std::collections::HashMap;

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
    row_y: HashMap<(Option<u32>, u32), f64>,
}

impl TimelineLayout {
    /// Lays out a trace.
    pub fn new(trace: &Trace, options: LayoutOptions) -> Self {
        let lanes_n = trace.workers.len() + 1;
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); lanes_n];
        let lane_of = |w: Option<u32>| w.map_or(lanes_n - 1, |w| w as usize);
        for span in &trace.spans {
            rows[lane_of(span.worker)].extend_from_slice(trace.list(span.items));
        }
        let mut lanes = Vec::with_capacity(lanes_n);
        let mut y = options.top;
        for (i, mut items) in rows.into_iter().enumerate() {
            // Equal items are alike: the stable sort gives the same order.
            crate::sort_by_key::sort_by_u64_key(&mut items, |&i| u64::from(i));
            items.dedup();
            let hidden = items.len().saturating_sub(options.max_rows_per_lane);
            items.truncate(options.max_rows_per_lane);
            let worker = (i < lanes_n - 1).then_some(i as u32);
            if worker.is_none() && items.is_empty() {
                continue;
            }
            let shown = items.len().max(1) as f64;
            let height = shown * (options.row_height + options.row_gap)
                + 2.0 * options.lane_padding
                + if hidden > 0 { 12.0 } else { 0.0 };
            lanes.push(Lane {
                label: worker.map_or_else(
                    || "unassigned".to_string(),
                    |w| trace.workers[w as usize].clone(),
                ),
                worker,
                rows: items,
                hidden,
                y,
                height,
            });
            y += height;
        }
        let mut row_y = HashMap::new();
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
        let o = &self.options;
        o.label_width
            + (ms.min(self.end_ms) as f64 / self.end_ms as f64) * (o.width - o.label_width - 8.0)
    }

    /// The time at an x coordinate (for pointer scrubbing).
    pub fn time_at(&self, x: f64) -> u64 {
        let o = &self.options;
        let f = ((x - o.label_width) / (o.width - o.label_width - 8.0)).clamp(0.0, 1.0);
        (f * self.end_ms as f64).round() as u64
    }

    /// The bottom of the lanes (where axis ticks end).
    pub fn lanes_bottom(&self) -> f64 {
        self.height - 20.0
    }

    /// Every bar, in span order (later spans paint over earlier ones).
    pub fn bars<'a>(&'a self, trace: &'a Trace) -> impl Iterator<Item = Bar> + 'a {
        trace.spans.iter().flat_map(move |span| {
            let x0 = self.x(span.start_ms);
            let width = (self.x(span.end_ms) - x0).max(0.5);
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

    /// About eight round-numbered axis ticks over the run.
    pub fn ticks(&self) -> Vec<u64> {
        const STEPS: [u64; 12] = [
            1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
            1_800_000, 3_600_000,
        ];
        let step = STEPS
            .iter()
            .copied()
            .find(|s| self.end_ms / s <= 8)
            .unwrap_or(7_200_000);
        (0..=self.end_ms / step).map(|i| i * step).collect()
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

/// `12 s`, `5 min`, `1 h 30 min` for axis labels.
pub fn axis_label(ms: u64) -> String {
    if ms >= 3_600_000 && ms.is_multiple_of(60_000) {
        let min = ms / 60_000;
        if min.is_multiple_of(60) {
            format!("{} h", min / 60)
        } else {
            format!("{} h {} min", min / 60, min % 60)
        }
    } else if ms >= 60_000 && ms.is_multiple_of(60_000) {
        format!("{} min", ms / 60_000)
    } else {
        format!("{} s", ms / 1000)
    }
}
