//! One run's per-worker timeline as SVG: a lane per worker (and one for
//! unassigned work), a row per connector or task that was ever there, and a bar
//! per interval of one state. Rebalance rounds and scenario events are markers.

use std::collections::BTreeMap;
use std::rc::Rc;

use engine::run::RunResult;
use engine::trace::{ItemState, Trace};
use yew::prelude::*;

const WIDTH: f64 = 960.0;
const LABEL_W: f64 = 96.0;
const TOP: f64 = 28.0;
const ROW_H: f64 = 6.0;
const ROW_GAP: f64 = 1.0;
const LANE_PAD: f64 = 6.0;
/// Rows drawn per lane before the rest is summarised (big clusters get a summary view later).
const MAX_ROWS_PER_LANE: usize = 120;

/// Props of [`Timeline`].
#[derive(Properties)]
pub struct TimelineProps {
    /// The whole result (shared, compared by pointer).
    pub result: Rc<RunResult>,
    /// Which variant.
    pub index: usize,
}

impl PartialEq for TimelineProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.result, &other.result) && self.index == other.index
    }
}

/// A lane: a worker, or the unassigned work.
struct Lane {
    label: String,
    worker: Option<u32>,
    /// Item indices in row order.
    rows: Vec<u32>,
    hidden: usize,
    y: f64,
}

impl Lane {
    fn height(&self) -> f64 {
        let rows = self.rows.len().max(1) as f64;
        rows * (ROW_H + ROW_GAP) + 2.0 * LANE_PAD + if self.hidden > 0 { 12.0 } else { 0.0 }
    }
}

/// Lanes in order: workers by index, then unassigned.
fn lanes(trace: &Trace) -> Vec<Lane> {
    let mut rows: BTreeMap<Option<u32>, Vec<u32>> = BTreeMap::new();
    for w in 0..trace.workers.len() as u32 {
        rows.insert(Some(w), Vec::new());
    }
    for iv in trace.intervals() {
        rows.entry(iv.worker).or_default().push(iv.item);
    }
    let mut lanes: Vec<Lane> = rows
        .into_iter()
        .map(|(worker, mut items)| {
            items.sort_unstable();
            items.dedup();
            let hidden = items.len().saturating_sub(MAX_ROWS_PER_LANE);
            items.truncate(MAX_ROWS_PER_LANE);
            Lane {
                label: worker.map_or_else(
                    || "unassigned".to_string(),
                    |w| trace.workers[w as usize].clone(),
                ),
                worker,
                rows: items,
                hidden,
                y: 0.0,
            }
        })
        .collect();
    // BTreeMap puts None first; the unassigned lane reads best at the bottom.
    let unassigned_first = lanes.first().is_some_and(|l| l.worker.is_none());
    lanes.rotate_left(usize::from(unassigned_first));
    let mut y = TOP;
    for lane in &mut lanes {
        lane.y = y;
        y += lane.height();
    }
    lanes
}

fn state_class(state: ItemState) -> &'static str {
    match state {
        ItemState::Starting => "starting",
        ItemState::Running => "running",
        ItemState::Stopping => "stopping",
        ItemState::Unassigned => "unassigned",
        ItemState::Zombie => "zombie",
        ItemState::Frozen => "frozen",
    }
}

/// The SVG timeline of one run.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let trace = &props.result.variants[props.index].trace;
    let lanes = lanes(trace);
    let height = lanes.last().map_or(TOP, |l| l.y + l.height()) + 20.0;
    let end = trace.end_ms.max(1) as f64;
    let x = |ms: u64| LABEL_W + (ms as f64 / end) * (WIDTH - LABEL_W - 8.0);

    // Row position of every (lane, item).
    let mut row_y: BTreeMap<(Option<u32>, u32), f64> = BTreeMap::new();
    for lane in &lanes {
        for (r, item) in lane.rows.iter().enumerate() {
            row_y.insert(
                (lane.worker, *item),
                lane.y + LANE_PAD + r as f64 * (ROW_H + ROW_GAP),
            );
        }
    }
    let bars = trace.intervals().filter_map(|iv| {
        let y = *row_y.get(&(iv.worker, iv.item))?;
        let (x0, x1) = (x(iv.start_ms), x(iv.end_ms));
        let title = format!(
            "{} {} on {} from {:.1} s to {:.1} s",
            trace.items[iv.item as usize].label,
            state_class(iv.state),
            iv.worker.map_or("nobody", |w| trace.workers[w as usize].as_str()),
            iv.start_ms as f64 / 1000.0,
            iv.end_ms as f64 / 1000.0
        );
        Some(html! {
            <rect class={classes!("bar", state_class(iv.state))} data-state={state_class(iv.state)}
                  x={format!("{x0:.1}")} y={format!("{y:.1}")} width={format!("{:.1}", (x1 - x0).max(0.5))} height={ROW_H.to_string()}>
                <title>{ title }</title>
            </rect>
        })
    });
    let ticks = axis_ticks(trace.end_ms);

    html! {
        <svg class="timeline" viewBox={format!("0 0 {WIDTH} {height:.0}")} role="img"
             aria-label={format!("Timeline of {}", props.result.variants[props.index].label)}>
            { for lanes.iter().enumerate().map(|(i, lane)| html! {
                <g class="lane">
                    <rect class={classes!("lane-bg", (i % 2 == 1).then_some("odd"))} x="0" y={format!("{:.1}", lane.y)}
                          width={WIDTH.to_string()} height={format!("{:.1}", lane.height())} />
                    <text class="lane-label" x="4" y={format!("{:.1}", lane.y + 14.0)}>{ &lane.label }</text>
                    if lane.hidden > 0 {
                        <text class="lane-more" x={LABEL_W.to_string()} y={format!("{:.1}", lane.y + lane.height() - 3.0)}>
                            { format!("+{} more connectors and tasks", lane.hidden) }
                        </text>
                    }
                </g>
            }) }
            { for ticks.iter().map(|&ms| html! {
                <g class="tick">
                    <line x1={format!("{:.1}", x(ms))} x2={format!("{:.1}", x(ms))} y1={(TOP - 4.0).to_string()} y2={format!("{:.0}", height - 16.0)} />
                    <text x={format!("{:.1}", x(ms))} y={format!("{:.0}", height - 4.0)}
                          text-anchor={if ms == 0 { "start" } else if x(ms) > WIDTH - 30.0 { "end" } else { "middle" }}>{ format_ms(ms) }</text>
                </g>
            }) }
            <g class="bars">{ for bars }</g>
            { for trace.rounds.iter().map(|round| html! {
                <line class="round-marker" data-generation={round.generation.to_string()}
                      x1={format!("{:.1}", x(round.completed_ms))} x2={format!("{:.1}", x(round.completed_ms))}
                      y1={(TOP - 6.0).to_string()} y2={format!("{:.0}", height - 16.0)}>
                    <title>{ format!("generation {}: {}", round.generation, round.explanation) }</title>
                </line>
            }) }
            { for trace.events.iter().map(|ev| html! {
                <g class="event-marker">
                    <path d={format!("M{:.1} {} l-4 -7 h8 z", x(ev.at_ms), TOP - 8.0)} />
                    <text x={format!("{:.1}", x(ev.at_ms) + 5.0)} y={(TOP - 12.0).to_string()}>{ &ev.label }</text>
                </g>
            }) }
        </svg>
    }
}

/// About six round-numbered ticks over `[0, end]`.
fn axis_ticks(end_ms: u64) -> Vec<u64> {
    let steps = [
        1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000,
        3_600_000,
    ];
    let step = steps
        .iter()
        .copied()
        .find(|s| end_ms / s <= 8)
        .unwrap_or(7_200_000);
    (0..=end_ms / step).map(|i| i * step).collect()
}

fn format_ms(ms: u64) -> String {
    if ms >= 60_000 && ms % 60_000 == 0 {
        format!("{} min", ms / 60_000)
    } else {
        format!("{} s", ms / 1000)
    }
}
