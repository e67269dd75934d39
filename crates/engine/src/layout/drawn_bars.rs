//! Bars as they are drawn: one rectangle for each run of a row's bars in
//! one state that overlap or touch once their edges are written to a tenth
//! of a unit (issue #13).
//!
//! A bar is at least half a unit wide ([`Bar::width`]), so a span shorter
//! than that overlaps the next one of its row. The rebalance-storm preset's
//! 10,000 rounds, zoomed out, are about 130,000 such bars (3 MB of markup in
//! the page, rasterised again each time the lanes get a layer of their own,
//! which froze the page for 80 ms when playback started); merged they are a
//! few hundred. Merging only ever joins rectangles of one fill that overlap
//! or touch, so the pixels are those of the bars drawn one by one; bars that
//! do not overlap are kept exactly as they were.

use super::{Bar, TimeAxis, TimelineLayout};
use crate::multiply_hash::MultiplyHashMap;
use crate::trace::{ItemState, Trace};

/// One drawn rectangle: a bar, or a run of a row's bars in one state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawnBar {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// The state.
    pub state: ItemState,
    /// The lane's worker.
    pub worker: Option<u32>,
}

impl From<Bar> for DrawnBar {
    /// The bar as it is, unmerged.
    fn from(bar: Bar) -> Self {
        DrawnBar {
            x: bar.x,
            y: bar.y,
            width: bar.width,
            state: bar.state,
            worker: bar.worker,
        }
    }
}

/// A row (its lane's worker and its item) and a state: bars with the same
/// one share a fill and a row, so overlapping ones can merge.
type RowState = (Option<u32>, u32, ItemState);

/// The last rectangle of a [`RowState`]: its index in the drawn list and
/// its edges in tenths.
struct LastRect {
    index: usize,
    left: i64,
    right: i64,
}

/// `v` in tenths of a unit, as the drawings write it (`{:.1}`).
fn tenths(v: f64) -> i64 {
    (v * 10.0).round() as i64
}

impl TimelineLayout {
    /// The bars visible on `axis` ([`Self::bars_on`]) on the lanes `keep`
    /// accepts, with each row's bars of one state that overlap or touch
    /// merged into one rectangle. A merged rectangle takes its first bar's
    /// place in span order.
    pub fn drawn_bars_on(
        &self,
        trace: &Trace,
        axis: TimeAxis,
        keep: impl Fn(Option<u32>) -> bool,
    ) -> Vec<DrawnBar> {
        let mut drawn: Vec<DrawnBar> = Vec::new();
        let mut last: MultiplyHashMap<RowState, LastRect> = MultiplyHashMap::default();
        for bar in self.bars_on_lanes(trace, axis, &keep) {
            let left = tenths(bar.x);
            let right = left + tenths(bar.width);
            let key = (bar.worker, bar.item, bar.state);
            match last.get_mut(&key) {
                Some(rect) if left <= rect.right && right >= rect.left => {
                    rect.left = rect.left.min(left);
                    rect.right = rect.right.max(right);
                    let merged = &mut drawn[rect.index];
                    merged.x = rect.left as f64 / 10.0;
                    merged.width = (rect.right - rect.left) as f64 / 10.0;
                }
                _ => {
                    let index = drawn.len();
                    last.insert(key, LastRect { index, left, right });
                    drawn.push(bar.into());
                }
            }
        }
        drawn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::tests::preset;
    use crate::layout::LayoutOptions;

    /// The tenths of a unit a set of rectangles (worker, y, state, x,
    /// width) covers, row by row.
    fn covered(
        rects: impl Iterator<Item = (Option<u32>, f64, ItemState, f64, f64)>,
    ) -> Vec<(Option<u32>, u64, ItemState, i64)> {
        let mut cells: Vec<_> = rects
            .flat_map(|(w, y, s, x, width)| {
                let left = tenths(x);
                (left..left + tenths(width)).map(move |t| (w, y.to_bits(), s, t))
            })
            .collect();
        cells.sort();
        cells.dedup();
        cells
    }

    #[test]
    fn a_storm_zoomed_out_draws_hundreds_of_rectangles_covering_what_its_bars_cover() {
        let result = preset("connect/rebalance-storm");
        let trace = &result.variants[0].trace;
        let lay = TimelineLayout::new(trace, LayoutOptions::default());
        let bars: Vec<_> = lay.bars(trace).collect();
        let drawn = lay.drawn_bars_on(trace, lay.axis(), |_| true);
        assert!(bars.len() > 100_000, "{} bars", bars.len());
        assert!(drawn.len() < 2_000, "{} rectangles", drawn.len());
        assert_eq!(
            covered(bars.iter().map(|b| (b.worker, b.y, b.state, b.x, b.width))),
            covered(drawn.iter().map(|d| (d.worker, d.y, d.state, d.x, d.width)))
        );
    }

    #[test]
    fn every_preset_draws_the_pixels_of_its_bars_and_keeps_lone_bars_as_they_are() {
        for p in crate::presets::all()
            .iter()
            .filter(|p| p.id != "connect/rebalance-storm")
        {
            let result = crate::run::run(&p.scenario());
            for v in &result.variants {
                let lay = TimelineLayout::new(&v.trace, LayoutOptions::default());
                let bars: Vec<_> = lay.bars(&v.trace).collect();
                let drawn = lay.drawn_bars_on(&v.trace, lay.axis(), |_| true);
                assert_eq!(
                    covered(bars.iter().map(|b| (b.worker, b.y, b.state, b.x, b.width))),
                    covered(drawn.iter().map(|d| (d.worker, d.y, d.state, d.x, d.width))),
                    "{}",
                    p.id
                );
                // A bar that neither overlaps nor touches another of its
                // row and state is drawn exactly as it is.
                let edges = |x: f64, width: f64| (tenths(x), tenths(x) + tenths(width));
                for b in &bars {
                    let (l, r) = edges(b.x, b.width);
                    let alone = bars.iter().filter(|o| {
                        let (ol, or) = edges(o.x, o.width);
                        (o.worker, o.item, o.state) == (b.worker, b.item, b.state)
                            && ol <= r
                            && or >= l
                    });
                    if alone.count() == 1 {
                        let as_is = DrawnBar::from(*b);
                        assert!(drawn.contains(&as_is), "{}: {as_is:?}", p.id);
                    }
                }
            }
        }
    }

    #[test]
    fn only_the_kept_lanes_are_drawn() {
        let result = preset("connect/worker-joins");
        let trace = &result.variants[0].trace;
        let lay = TimelineLayout::new(trace, LayoutOptions::default());
        let drawn = lay.drawn_bars_on(trace, lay.axis(), |w| w == Some(0));
        assert!(!drawn.is_empty());
        assert!(drawn.iter().all(|d| d.worker == Some(0)));
    }
}
