//! The geometry of a sweep's plot, shared by the SVG export and (later)
//! the page's plot, as [`crate::layout`] is for the timelines: one small
//! panel per headline metric, the swept value across, one line per
//! compared variant, Kafka's default marked, cut runs drawn hollow.
//! Positions are in CSS pixels; no drawing here.

use crate::fixed::clamp;
use serde::Serialize;

use super::parameter::ValueUnit;
use super::points::ln;
use super::{Headline, Scale, SweepResult};
use crate::time_ticks;
use crate::wording::duration;

/// Sizes of the plot.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PlotOptions {
    /// Width of one panel's drawing area.
    pub panel_width: f64,
    /// Height of one panel's drawing area.
    pub panel_height: f64,
    /// Panels per row.
    pub columns: usize,
    /// Left of a drawing area: room for the y tick labels.
    pub axis_left: f64,
    /// Above a drawing area: room for the panel title.
    pub title_height: f64,
    /// Below a drawing area: room for the x tick labels.
    pub axis_bottom: f64,
    /// Space between panels.
    pub gap: f64,
    /// Right of the last column: room for what reaches past a drawing
    /// area's right edge, the last point ([`POINT_REACH`]).
    pub right: f64,
    /// Above the first row: the plot's title and legend.
    pub header: f64,
}

impl Default for PlotOptions {
    fn default() -> Self {
        Self {
            panel_width: 280.0,
            panel_height: 150.0,
            columns: 3,
            axis_left: 66.0,
            title_height: 22.0,
            axis_bottom: 26.0,
            gap: 20.0,
            right: POINT_REACH + 2.0,
            header: 76.0,
        }
    }
}

/// How far a point reaches past its position: the page's hover target
/// around it (the drawn marker, at most a cut run's ring of radius 3.5, is
/// inside it).
pub const POINT_REACH: f64 = 8.0;

/// One line colour per compared variant (at most four), colour-blind safe.
pub const VARIANT_COLOURS: [&str; 4] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];

/// A tick on an axis: where (pixels from the drawing area's origin) and
/// its label.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tick {
    /// Offset along the axis, in pixels.
    pub at: f64,
    /// E.g. `5 min`, `12`, `1.5M`.
    pub label: String,
}

/// One point of a line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Marker {
    /// Position in the panel's drawing area.
    pub x: f64,
    /// Position in the panel's drawing area.
    pub y: f64,
    /// Index into the sweep's points.
    pub point: usize,
    /// The swept value.
    pub value: u64,
    /// The metric's value.
    pub metric: u64,
    /// The run was cut at its budget: draw it hollow.
    pub cut: bool,
}

/// One variant's line in one panel; undefined values leave gaps.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    /// Index into the compared variants.
    pub variant: usize,
    /// Runs of consecutive defined points, each drawn as one polyline.
    pub segments: Vec<Vec<(f64, f64)>>,
    /// Every defined point.
    pub markers: Vec<Marker>,
}

/// One metric's panel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Panel {
    /// The metric.
    pub metric: Headline,
    /// Its label.
    pub title: String,
    /// Top-left of the drawing area in the whole plot.
    pub left: f64,
    /// Top-left of the drawing area in the whole plot.
    pub top: f64,
    /// Ticks along the bottom (x from the left edge).
    pub x_ticks: Vec<Tick>,
    /// Ticks along the left (y from the top edge).
    pub y_ticks: Vec<Tick>,
    /// One line per variant.
    pub lines: Vec<Line>,
}

/// The whole plot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlotLayout {
    /// The sizes used.
    pub options: PlotOptions,
    /// Total width.
    pub width: f64,
    /// Total height.
    pub height: f64,
    /// The panels, row by row.
    pub panels: Vec<Panel>,
    /// Kafka's default on the x axis (pixels from a drawing area's left),
    /// when it lies inside the swept range.
    pub default_x: Option<f64>,
}

/// The x axis: the swept range on a linear or log scale.
struct XScale {
    from: f64,
    to: f64,
    log: bool,
    width: f64,
}

impl XScale {
    fn x(&self, v: u64) -> f64 {
        let (a, b, v) = if self.log {
            (ln(self.from), ln(self.to), ln(v.max(1) as f64))
        } else {
            (self.from, self.to, v as f64)
        };
        if b <= a {
            return 0.0;
        }
        clamp((v - a) / (b - a), 0.0, 1.0) * self.width
    }
}

impl PlotLayout {
    /// Lays out `result` with `options`.
    pub fn new(result: &SweepResult, options: PlotOptions) -> Self {
        let (from, to) = (result.spec.from, result.spec.to);
        let xs = XScale {
            from: from as f64,
            to: to as f64,
            log: result.spec.scale == Scale::Log,
            width: options.panel_width,
        };
        let x_ticks: Vec<Tick> = axis_ticks(from, to, result.unit, xs.log)
            .into_iter()
            .map(|v| Tick {
                at: xs.x(v),
                label: tick_label(v, result.unit),
            })
            .collect();
        let cell_w = options.axis_left + options.panel_width + options.gap;
        let cell_h =
            options.title_height + options.panel_height + options.axis_bottom + options.gap;
        let columns = options.columns.max(1);
        let panels: Vec<Panel> = result
            .metrics
            .iter()
            .enumerate()
            .map(|(i, &metric)| {
                let (row, col) = (i / columns, i % columns);
                let mut panel = panel(result, metric, &xs, options);
                panel.left = col as f64 * cell_w + options.axis_left;
                panel.top = options.header + row as f64 * cell_h + options.title_height;
                panel.x_ticks = x_ticks.clone();
                panel
            })
            .collect();
        let rows = panels.len().div_ceil(columns).max(1);
        let used_columns = panels.len().clamp(1, columns);
        let default_x = result
            .kafka_default
            .filter(|d| (from..=to).contains(d))
            .map(|d| xs.x(d));
        Self {
            options,
            width: used_columns as f64 * cell_w - options.gap + options.right,
            height: options.header + rows as f64 * cell_h - options.gap,
            panels,
            default_x,
        }
    }
}

fn panel(result: &SweepResult, metric: Headline, xs: &XScale, o: PlotOptions) -> Panel {
    let series: Vec<Vec<Option<u64>>> = (0..result.variants.len())
        .map(|v| result.series(v, metric))
        .collect();
    let top_value = series
        .iter()
        .flatten()
        .flatten()
        .copied()
        .max()
        .unwrap_or(0);
    let y_values = value_ticks(top_value, metric.unit());
    let y_max = y_values.last().copied().unwrap_or(1).max(top_value).max(1) as f64;
    let y = |v: u64| o.panel_height - (v as f64 / y_max) * o.panel_height;
    let lines = series
        .iter()
        .enumerate()
        .map(|(variant, values)| {
            let mut segments: Vec<Vec<(f64, f64)>> = Vec::new();
            let mut markers = Vec::new();
            let mut open = false;
            for (point, v) in values.iter().enumerate() {
                let Some(v) = *v else {
                    open = false;
                    continue;
                };
                let p = &result.points[point];
                let xy = (xs.x(p.value), y(v));
                if open {
                    if let Some(s) = segments.last_mut() {
                        s.push(xy);
                    }
                } else {
                    segments.push(vec![xy]);
                    open = true;
                }
                markers.push(Marker {
                    x: xy.0,
                    y: xy.1,
                    point,
                    value: p.value,
                    metric: v,
                    cut: p.runs.get(variant).is_some_and(|r| r.cut.is_some()),
                });
            }
            Line {
                variant,
                segments,
                markers,
            }
        })
        .collect();
    Panel {
        metric,
        title: metric.label().to_string(),
        left: 0.0,
        top: 0.0,
        x_ticks: Vec::new(),
        y_ticks: y_values
            .into_iter()
            .map(|v| Tick {
                at: y(v),
                label: tick_label(v, metric.unit()),
            })
            .collect(),
        lines,
    }
}

/// Round values for an axis from `from` to `to`: about five, at steps
/// people count in (1-2-5, or seconds, minutes and hours for times); on a
/// log axis the powers of ten inside the range (with 2× and 5× when there
/// are few).
pub fn axis_ticks(from: u64, to: u64, unit: ValueUnit, log: bool) -> Vec<u64> {
    if to <= from {
        return vec![from];
    }
    if log {
        let mut ticks = Vec::new();
        let mut decade = 1u64;
        loop {
            for m in [1, 2, 5] {
                if let Some(v) = decade.checked_mul(m) {
                    if (from..=to).contains(&v) {
                        ticks.push(v);
                    }
                }
            }
            match decade.checked_mul(10) {
                Some(d) if d <= to => decade = d,
                _ => break,
            }
        }
        let decades: Vec<u64> = ticks
            .iter()
            .copied()
            .filter(|v| {
                v.to_string()
                    .trim_start_matches('1')
                    .bytes()
                    .all(|b| b == b'0')
            })
            .collect();
        return if decades.len() >= 3 { decades } else { ticks };
    }
    let step = nice_step((to - from) / 4, unit);
    let first = from.div_ceil(step) * step;
    (0..)
        .map(|i| first + i * step)
        .take_while(|&v| v <= to)
        .collect()
}

/// Round values for a value axis from 0 up to the first round value at or
/// above `max`.
pub fn value_ticks(max: u64, unit: ValueUnit) -> Vec<u64> {
    let step = nice_step(max.max(1) / 4, unit);
    let last = max.max(1).div_ceil(step) * step;
    (0..).map(|i| i * step).take_while(|&v| v <= last).collect()
}

/// The smallest round step at least `raw`.
fn nice_step(raw: u64, unit: ValueUnit) -> u64 {
    let raw = raw.max(1);
    if unit == ValueUnit::Ms {
        // The timelines' steps: past an hour whole hours and days (a
        // decade step of 2,000,000 ms would label the axis in 33 min 20 s).
        if let Some(&s) = time_ticks::STEPS.iter().find(|&&s| s >= raw) {
            return s;
        }
    }
    let mut decade = 1u64;
    loop {
        for m in [1, 2, 5] {
            if let Some(s) = decade.checked_mul(m) {
                if s >= raw {
                    return s;
                }
            }
        }
        match decade.checked_mul(10) {
            Some(d) => decade = d,
            None => return raw,
        }
    }
}

/// A tick's label: a duration for times, a short number (`1.5k`, `10M`)
/// for counts and records.
pub fn tick_label(v: u64, unit: ValueUnit) -> String {
    match unit {
        _ if v == 0 => "0".to_string(),
        ValueUnit::Ms => duration(v),
        _ => short_number(v),
    }
}

/// `950`, `1.5k`, `20k`, `1M`, `2.5G`.
fn short_number(v: u64) -> String {
    for (size, suffix) in [
        (1_000_000_000_000u64, "T"),
        (1_000_000_000, "G"),
        (1_000_000, "M"),
        (1_000, "k"),
    ] {
        if v >= size {
            let tenths = v / (size / 10);
            return if tenths.is_multiple_of(10) {
                format!("{}{suffix}", tenths / 10)
            } else {
                format!("{}.{}{suffix}", tenths / 10, tenths % 10)
            };
        }
    }
    v.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(
            axis_ticks(0, 600_000, ValueUnit::Ms, false),
            vec![0, 300_000, 600_000]
        );
        assert_eq!(axis_ticks(0, 95, ValueUnit::Count, false), vec![0, 50]);
        assert_eq!(value_ticks(95, ValueUnit::Count), vec![0, 50, 100]);
        assert_eq!(value_ticks(0, ValueUnit::Count), vec![0, 1]);
        assert_eq!(
            value_ticks(27_000_000, ValueUnit::Ms),
            vec![0, 7_200_000, 14_400_000, 21_600_000, 28_800_000],
            "hours, not 33 min 20 s"
        );
        assert_eq!(tick_label(7_200_000, ValueUnit::Ms), "2 h");
        // Past 2 h the timelines' steps, which divide a day: 6 h, not 5 h.
        assert_eq!(
            value_ticks(80_000_000, ValueUnit::Ms),
            vec![0, 21_600_000, 43_200_000, 64_800_000, 86_400_000]
        );
        assert_eq!(
            axis_ticks(0, 20 * 86_400_000, ValueUnit::Ms, false),
            vec![0, 432_000_000, 864_000_000, 1_296_000_000, 1_728_000_000]
        );
        assert_eq!(
            axis_ticks(10_000, 10_000_000, ValueUnit::Records, true),
            vec![10_000, 100_000, 1_000_000, 10_000_000]
        );
        assert_eq!(
            axis_ticks(1, 40, ValueUnit::Count, true),
            vec![1, 2, 5, 10, 20]
        );
        assert_eq!(axis_ticks(3, 3, ValueUnit::Count, false), vec![3]);
        assert_eq!(short_number(1_500), "1.5k");
        assert_eq!(short_number(10_000_000), "10M");
        assert_eq!(short_number(999), "999");
    }

    #[test]
    fn every_panel_and_its_points_lie_inside_the_plot() {
        for preset in crate::sweep::presets::all() {
            let file = preset.file();
            let result = crate::sweep::plan(&file.scenario, &file.sweep)
                .expect("a built-in sweep plans")
                .result;
            for columns in [1, 2, 3] {
                let options = PlotOptions {
                    columns,
                    ..PlotOptions::default()
                };
                let lay = PlotLayout::new(&result, options);
                for p in &lay.panels {
                    let at = format!("{} {:?} in {columns} columns", preset.id, p.metric);
                    assert!(p.left - options.axis_left >= 0.0, "{at}: y labels");
                    assert!(
                        p.left + options.panel_width + POINT_REACH <= lay.width,
                        "{at}: the last point reaches {} past {}",
                        p.left + options.panel_width + POINT_REACH,
                        lay.width
                    );
                    assert!(
                        p.top + options.panel_height + options.axis_bottom <= lay.height,
                        "{at}: x labels"
                    );
                }
            }
        }
    }
}
