//! What a run cost, computed from its [`Trace`] alone.
//!
//! Definitions (all times in simulated ms):
//! * **Healthy**: every configured connector and task runs (state `running`)
//!   on a live worker, no zombie copy runs, and the live workers' running
//!   tasks are balanced by capacity: no task could move from one worker to
//!   another and lower the skew of tasks per thread, (n₁ − 1)/c₁ < (n₂ + 1)/c₂
//!   for every pair, as `HighAvailabilityTaskAssignor.balanceTasksOverThreads`
//!   leaves them (a Connect worker, and a Streams instance with one thread,
//!   has capacity 1: task counts differ by at most one, the balance
//!   `IncrementalCooperativeAssignor.performLoadBalancingRevocations` aims
//!   for). Connector counts differ by at most one. "Live" means a process
//!   that is up and not frozen.
//! * **Measurement window**: from the first scenario event, or from the
//!   first healthy moment if that comes earlier, to the end of the run — the
//!   cluster's initial start-up is not charged to the protocol.
//! * **Outage** of a task: a stretch inside the window while it is configured
//!   and no copy of it runs (starting, stopping, unassigned and frozen all
//!   count as not running; a zombie copy counts as running).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::trace::{BudgetKind, ItemKind, ItemState, StepKind, Trace, WorkerState};

mod load_balance;
use load_balance::{CapacityBalance, Counts};

/// Metrics of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Metrics {
    /// Start of the measurement window.
    pub measured_from_ms: u64,
    /// Task-milliseconds in the window during which a configured task ran nowhere.
    pub task_ms_not_running: u64,
    /// Tasks stopped in the window (revoked, shut down or killed), counting each stop.
    pub tasks_stopped: u64,
    /// Tasks started in the window, counting each start.
    pub tasks_started: u64,
    /// Rebalance rounds whose join phase completed in the window.
    pub rebalance_rounds: u32,
    /// For each scenario event: how long until the cluster was healthy again
    /// (0 when the event did not disturb it before the next event).
    pub recovery: Vec<EventRecovery>,
    /// The longest time one task ran nowhere.
    pub longest_task_outage: Option<TaskOutage>,
    /// The largest difference in running tasks between two live workers.
    pub peak_imbalance: u32,
    /// Task-milliseconds during which a task ran on two workers at once.
    /// Kafka prevents this except for zombies (a worker frozen past its
    /// session that resumes) and orphans of a cooperative→eager downgrade.
    pub duplicate_task_ms: u64,
    /// When the cluster became healthy for the rest of the run, if it did.
    pub settled_ms: Option<u64>,
    /// Set when these figures cover a run cut at its budget (a rebalance
    /// storm): they stop at the cut, and the run never settled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<BudgetKind>,
    /// What only one family measures: `"connect"` (nothing more) or
    /// `{"streams": …}` (restoration, warmups and probing rebalances).
    #[serde(default)]
    pub family: FamilyMetrics,
}

/// The family-specific part of a run's [`Metrics`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FamilyMetrics {
    /// A Kafka Connect run: the shared figures say it all.
    #[default]
    Connect,
    /// A Kafka Streams run.
    Streams(StreamsMetrics),
}

/// What a Kafka Streams run cost beyond the shared metrics. "Processing"
/// means an active copy in state `running`: restoring, starting, revoking
/// and frozen copies do not process.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct StreamsMetrics {
    /// Task-milliseconds in the measurement window during which a task was
    /// not processing anywhere, restoration included.
    pub processing_downtime_ms: u64,
    /// Task-milliseconds spent restoring an active before it could process.
    pub restoring_ms: u64,
    /// Changelog records replayed (actives, warmups and standbys catching up).
    pub records_restored: u64,
    /// Warmup replicas started.
    pub warmups_started: u64,
    /// Warmups promoted: a warmup copy followed on the same instance by the active.
    pub warmups_promoted: u64,
    /// Probing rebalances triggered.
    pub probing_rebalances: u32,
    /// When every task was last active and processing on a caught-up
    /// instance with no warmup left and no rebalance after, for the rest of
    /// the run; `None` if that never happened.
    pub caught_up_and_stable_ms: Option<u64>,
}

impl StreamsMetrics {
    /// Streams metrics from a trace and its shared metrics;
    /// `records_restored` is the simulator's count (the trace shows
    /// restoration as time, not records).
    pub fn from_trace(trace: &Trace, shared: &Metrics, records_restored: u64) -> StreamsMetrics {
        let from = shared.measured_from_ms;
        let mut restoring_ms = 0;
        let mut warmups_started = 0;
        let mut warmups_promoted = 0;
        let mut last_unstable = 0u64;
        // Per (item, lane): its pieces (start, end, state).
        type Pieces = Vec<(u64, u64, ItemState)>;
        let mut copies: BTreeMap<(u32, u32), Pieces> = BTreeMap::new();
        for iv in trace.intervals() {
            let Some(lane) = iv.worker else { continue };
            copies
                .entry((iv.item, lane))
                .or_default()
                .push((iv.start_ms, iv.end_ms, iv.state));
            if iv.state == ItemState::Restoring {
                let (a, b) = (iv.start_ms.max(from), iv.end_ms);
                restoring_ms += b.saturating_sub(a);
            }
            if iv.state != ItemState::Running && iv.state != ItemState::Standby {
                last_unstable = last_unstable.max(iv.end_ms.min(trace.end_ms));
                if iv.end_ms >= trace.end_ms {
                    last_unstable = u64::MAX;
                }
            }
        }
        for pieces in copies.values_mut() {
            crate::sort_by_key::sort_values(pieces);
            for (i, &(start, end, state)) in pieces.iter().enumerate() {
                if state != ItemState::Warmup {
                    continue;
                }
                let continues =
                    i > 0 && pieces[i - 1].1 == start && pieces[i - 1].2 == ItemState::Warmup;
                if !continues {
                    warmups_started += 1;
                }
                // A held-back promotion waits as a standby for one round.
                let mut at = end;
                for next in &pieces[i + 1..] {
                    if next.0 != at {
                        break;
                    }
                    match next.2 {
                        ItemState::Standby => at = next.1,
                        ItemState::Starting | ItemState::Running | ItemState::Restoring => {
                            warmups_promoted += 1;
                            break;
                        }
                        _ => break,
                    }
                }
            }
        }
        let last_round = trace
            .rounds
            .iter()
            .map(|r| r.completed_ms)
            .max()
            .unwrap_or(0);
        let stable_from = last_unstable.max(last_round);
        let caught_up_and_stable_ms =
            (stable_from != u64::MAX && shared.settled_ms.is_some() && stable_from <= trace.end_ms)
                .then_some(stable_from.max(shared.settled_ms.unwrap_or(0)));
        StreamsMetrics {
            processing_downtime_ms: shared.task_ms_not_running,
            restoring_ms,
            records_restored,
            warmups_started,
            warmups_promoted,
            probing_rebalances: trace
                .steps
                .iter()
                .filter(|s| s.kind == StepKind::ProbingRebalance)
                .count() as u32,
            caught_up_and_stable_ms,
        }
    }
}

/// Recovery from one scenario event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct EventRecovery {
    /// The event's time.
    pub at_ms: u64,
    /// The event, e.g. `worker-2 crashes`.
    pub label: String,
    /// Time from the event until the cluster was healthy again for good (until
    /// the next event or the end of the run); `None` when that never happened.
    pub recovered_after_ms: Option<u64>,
}

/// One task's longest outage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct TaskOutage {
    /// The task's label.
    pub task: String,
    /// Index into [`Trace::items`].
    pub item: u32,
    /// Start.
    pub start_ms: u64,
    /// End.
    pub end_ms: u64,
    /// `end_ms - start_ms`.
    pub duration_ms: u64,
}

impl Metrics {
    /// Computes the metrics of a trace.
    pub fn from_trace(trace: &Trace) -> Metrics {
        let is_task: Vec<bool> = trace
            .items
            .iter()
            .map(|i| i.kind == ItemKind::Task)
            .collect();
        let health = health_timeline(trace, &is_task);
        let first_event = trace.events.first().map(|e| e.at_ms);
        let first_healthy = health.healthy.first().map(|h| h.0);
        let measured_from = match (first_event, first_healthy) {
            (Some(e), Some(h)) => e.min(h),
            (Some(e), None) => e,
            (None, Some(h)) => h,
            (None, None) => 0,
        };
        let recovery = trace
            .events
            .iter()
            .map(|e| EventRecovery {
                at_ms: e.at_ms,
                label: e.label.clone(),
                recovered_after_ms: health.recovery_after(
                    e.at_ms,
                    next_event_after(trace, e.at_ms),
                    trace.end_ms,
                ),
            })
            .collect();
        let settled_ms = health
            .healthy
            .last()
            .filter(|h| h.1 >= trace.end_ms)
            .map(|h| h.0);
        let peak_imbalance = health
            .imbalance
            .iter()
            .enumerate()
            .filter(|&(i, &(t, _))| {
                let next = health.imbalance.get(i + 1).map_or(u64::MAX, |n| n.0);
                next > measured_from && t < trace.end_ms
            })
            .map(|(_, &(_, v))| v)
            .max()
            .unwrap_or(0);
        let per_item = per_item_metrics(trace, &is_task, measured_from);
        Metrics {
            measured_from_ms: measured_from,
            task_ms_not_running: per_item.not_running_ms,
            tasks_stopped: per_item.stopped,
            tasks_started: per_item.started,
            rebalance_rounds: trace
                .rounds
                .iter()
                .filter(|r| r.joined_ms >= measured_from)
                .count() as u32,
            recovery,
            longest_task_outage: per_item.longest.map(|(item, start, end)| TaskOutage {
                task: trace.items[item as usize].label.clone(),
                item,
                start_ms: start,
                end_ms: end,
                duration_ms: end - start,
            }),
            peak_imbalance,
            duplicate_task_ms: per_item.duplicate_ms,
            // A cut run's "rest of the run" is unknown: it did not settle.
            settled_ms: settled_ms.filter(|_| trace.cut.is_none()),
            cut: trace.cut.map(|c| c.reason),
            family: FamilyMetrics::Connect,
        }
    }
}

/// Healthy intervals and the imbalance over time.
struct Health {
    healthy: Vec<(u64, u64)>,
    imbalance: Vec<(u64, u32)>,
}

impl Health {
    /// The event at `at` disturbed the cluster if it was unhealthy at some
    /// moment in `[at, next)`; it recovered at the start of the first healthy
    /// stretch after that which lasts until the next event (or the end of
    /// the run). Undisturbed: 0. Never settled: `None`.
    fn recovery_after(&self, at: u64, next: u64, end: u64) -> Option<u64> {
        // The first unhealthy moment at or after `at`.
        let mut t = at;
        for &(s, e) in &self.healthy {
            if e <= t {
                continue;
            }
            if s > t {
                break;
            }
            t = e;
        }
        if t >= end || t >= next {
            return Some(0);
        }
        // Settled: healthy from then on until the next event (or the end).
        let horizon = next.min(end);
        self.healthy
            .iter()
            .find(|&&(s, e)| s > t && e >= horizon)
            .map(|&(s, _)| s - at)
    }
}

/// The time of the first event strictly after `at` (or `u64::MAX`).
fn next_event_after(trace: &Trace, at: u64) -> u64 {
    trace
        .events
        .iter()
        .map(|e| e.at_ms)
        .filter(|&t| t > at)
        .min()
        .unwrap_or(u64::MAX)
}

#[derive(Clone, Copy)]
enum Change {
    Configured {
        tasks: i64,
        connectors: i64,
    },
    Running {
        lane: u32,
        tasks: i64,
        connectors: i64,
    },
    Zombie(i64),
    Live {
        lane: u32,
        up: bool,
        /// Its capacity: Streams threads, 1 for a Connect worker.
        capacity: u32,
    },
}

fn kind_counts(trace: &Trace, is_task: &[bool], list: crate::trace::ItemList) -> (i64, i64) {
    let items = trace.list(list);
    let t = items.iter().filter(|&&i| is_task[i as usize]).count() as i64;
    (t, items.len() as i64 - t)
}

fn health_timeline(trace: &Trace, is_task: &[bool]) -> Health {
    let mut changes: Vec<(u64, Change, Change)> = Vec::new();
    let neg = |c: Change| match c {
        Change::Configured { tasks, connectors } => Change::Configured {
            tasks: -tasks,
            connectors: -connectors,
        },
        Change::Running {
            lane,
            tasks,
            connectors,
        } => Change::Running {
            lane,
            tasks: -tasks,
            connectors: -connectors,
        },
        Change::Zombie(n) => Change::Zombie(-n),
        Change::Live { lane, up, capacity } => Change::Live {
            lane,
            up: !up,
            capacity,
        },
    };
    let mut push = |start: u64, end: u64, c: Change| {
        changes.push((start, c, c));
        changes.push((end, neg(c), c));
    };
    for c in &trace.configured {
        let (tasks, connectors) = kind_counts(trace, is_task, c.items);
        push(
            c.start_ms,
            c.end_ms,
            Change::Configured { tasks, connectors },
        );
    }
    for s in &trace.spans {
        let Some(lane) = s.worker else { continue };
        match s.state {
            ItemState::Running => {
                let (tasks, connectors) = kind_counts(trace, is_task, s.items);
                push(
                    s.start_ms,
                    s.end_ms,
                    Change::Running {
                        lane,
                        tasks,
                        connectors,
                    },
                );
            }
            ItemState::Zombie => push(s.start_ms, s.end_ms, Change::Zombie(i64::from(s.items.len))),
            _ => {}
        }
    }
    // Two running copies of one item are no healthier than a zombie: they
    // only arise from a zombie's work that a release before KAFKA-9841
    // does not revoke.
    for (start, end) in trace.doubled_runs() {
        push(start, end, Change::Zombie(1));
    }
    for w in &trace.worker_spans {
        if w.state == WorkerState::Up {
            push(
                w.start_ms,
                w.end_ms,
                Change::Live {
                    lane: w.worker,
                    up: true,
                    capacity: w.threads.max(1),
                },
            );
        }
    }
    // Ends before starts at the same instant, so back-to-back pieces never
    // count twice; order is otherwise by insertion (stable sort).
    crate::sort_by_key::sort_stable_by_key(&mut changes, |&(t, c, _)| {
        let start = match c {
            Change::Configured { tasks, connectors }
            | Change::Running {
                tasks, connectors, ..
            } => tasks + connectors > 0,
            Change::Zombie(n) => n > 0,
            Change::Live { up, .. } => up,
        };
        (t, start)
    });
    let lanes = trace.workers.len();
    let mut tasks_on = vec![0i64; lanes];
    let mut conns_on = vec![0i64; lanes];
    let mut live = vec![false; lanes];
    let mut capacity = vec![1u32; lanes];
    let (mut task_counts, mut conn_counts) = (Counts::default(), Counts::default());
    let mut by_capacity = CapacityBalance::default();
    let (mut cfg_t, mut cfg_c, mut run_t, mut run_c, mut zombies, mut live_n) =
        (0i64, 0i64, 0i64, 0i64, 0i64, 0i64);
    let mut healthy: Vec<(u64, u64)> = Vec::new();
    let mut imbalance: Vec<(u64, u32)> = Vec::new();
    let mut open: Option<u64> = None;
    let mut i = 0;
    while i < changes.len() {
        let t = changes[i].0;
        while i < changes.len() && changes[i].0 == t {
            match changes[i].1 {
                Change::Configured { tasks, connectors } => {
                    cfg_t += tasks;
                    cfg_c += connectors;
                }
                Change::Running {
                    lane,
                    tasks,
                    connectors,
                } => {
                    let l = lane as usize;
                    if live[l] {
                        task_counts.remove(tasks_on[l]);
                        conn_counts.remove(conns_on[l]);
                        by_capacity.change(tasks_on[l], capacity[l], -1);
                    }
                    tasks_on[l] += tasks;
                    conns_on[l] += connectors;
                    if live[l] {
                        task_counts.add(tasks_on[l]);
                        conn_counts.add(conns_on[l]);
                        by_capacity.change(tasks_on[l], capacity[l], 1);
                    }
                    run_t += tasks;
                    run_c += connectors;
                }
                Change::Zombie(n) => zombies += n,
                Change::Live {
                    lane,
                    up,
                    capacity: threads,
                } => {
                    let l = lane as usize;
                    if up && !live[l] {
                        live[l] = true;
                        live_n += 1;
                        capacity[l] = threads;
                        task_counts.add(tasks_on[l]);
                        conn_counts.add(conns_on[l]);
                        by_capacity.change(tasks_on[l], capacity[l], 1);
                    } else if !up && live[l] {
                        live[l] = false;
                        live_n -= 1;
                        task_counts.remove(tasks_on[l]);
                        conn_counts.remove(conns_on[l]);
                        by_capacity.change(tasks_on[l], capacity[l], -1);
                    }
                }
            }
            i += 1;
        }
        if t >= trace.end_ms {
            break;
        }
        let spread = task_counts.spread();
        let balanced = by_capacity.balanced() && conn_counts.spread() <= 1;
        let ok = run_t == cfg_t
            && run_c == cfg_c
            && zombies == 0
            && (live_n > 0 || cfg_t + cfg_c == 0)
            && balanced;
        match (ok, open) {
            (true, None) => open = Some(t),
            (false, Some(s)) => {
                healthy.push((s, t));
                open = None;
            }
            _ => {}
        }
        if imbalance
            .last()
            .is_none_or(|&(_, v)| i64::from(v) != spread)
        {
            imbalance.push((t, spread.max(0) as u32));
        }
    }
    if let Some(s) = open {
        healthy.push((s, trace.end_ms));
    }
    Health { healthy, imbalance }
}

struct PerItem {
    not_running_ms: u64,
    longest: Option<(u32, u64, u64)>,
    duplicate_ms: u64,
    started: u64,
    stopped: u64,
}

/// A time as 32 bits (runs are at most a day long).
fn ms32(ms: u64) -> u32 {
    ms.min(u64::from(u32::MAX)) as u32
}

/// Everything the per-item pass tracks for one task, in one place so each
/// visit touches one cache line.
#[derive(Clone, Copy)]
struct Track {
    /// End of the running coverage seen so far. Times fit in 32 bits (a run
    /// lasts at most a day); 12 bytes per task keep 100,000 tasks in cache.
    covered: u32,
    /// The first configured window (most items have exactly one).
    window: (u32, u32),
    is_task: bool,
    /// Ran as a zombie at some point: its copies may overlap.
    suspect: bool,
}

/// Per-task outages, duplicate running and start/stop counts, in one pass
/// over the spans (plus a sort for the few tasks that ever ran as zombies).
fn per_item_metrics(trace: &Trace, is_task: &[bool], from: u64) -> PerItem {
    let n = trace.items.len();
    let mut track: Vec<Track> = is_task
        .iter()
        .map(|&t| Track {
            covered: 0,
            window: (0, 0),
            is_task: t,
            suspect: false,
        })
        .collect();
    let mut more_windows: BTreeMap<u32, Vec<(u64, u64)>> = BTreeMap::new();
    for c in &trace.configured {
        for &i in trace.list(c.items) {
            let w = &mut track[i as usize].window;
            if w.0 == w.1 {
                *w = (ms32(c.start_ms), ms32(c.end_ms));
            } else {
                more_windows
                    .entry(i)
                    .or_default()
                    .push((c.start_ms, c.end_ms));
            }
        }
    }
    // Process exits per lane: a running copy ending there was killed.
    let mut exits: BTreeSet<(u32, u64)> = BTreeSet::new();
    {
        let mut by_lane: BTreeMap<u32, Vec<(u64, u64)>> = BTreeMap::new();
        for w in &trace.worker_spans {
            by_lane
                .entry(w.worker)
                .or_default()
                .push((w.start_ms, w.end_ms));
        }
        for (lane, mut spans) in by_lane {
            crate::sort_by_key::sort_values(&mut spans);
            for (k, &(_, end)) in spans.iter().enumerate() {
                let continued = spans.get(k + 1).is_some_and(|&(s, _)| s == end);
                if !continued && end < trace.end_ms {
                    exits.insert((lane, end));
                }
            }
        }
    }
    for s in &trace.spans {
        if s.state == ItemState::Zombie {
            for &i in trace.list(s.items) {
                track[i as usize].suspect = true;
            }
        }
    }
    let mut out = PerItem {
        not_running_ms: 0,
        longest: None,
        duplicate_ms: 0,
        started: 0,
        stopped: 0,
    };
    let end = trace.end_ms;
    let mut suspect_runs: BTreeMap<u32, Vec<(u64, u64)>> = BTreeMap::new();
    // A stretch [a, b) without a running copy, clipped to the item's
    // configured windows and the measurement window.
    let gap = |out: &mut PerItem, item: u32, window: (u32, u32), a: u64, b: u64| {
        let first = (u64::from(window.0), u64::from(window.1));
        let extra = more_windows.get(&item).map(|v| v.as_slice()).unwrap_or(&[]);
        for &(ws, we) in std::iter::once(&first).chain(extra) {
            let s = a.max(ws).max(from);
            let e = b.min(we).min(end);
            if s < e {
                out.not_running_ms += e - s;
                if out.longest.is_none_or(|(_, ls, le)| e - s > le - ls) {
                    out.longest = Some((item, s, e));
                }
            }
        }
    };
    let tasks_in = |list: crate::trace::ItemList| {
        trace
            .list(list)
            .iter()
            .filter(|&&i| track[i as usize].is_task)
            .count() as u64
    };
    let mut running_spans: Vec<usize> = Vec::new();
    for (k, s) in trace.spans.iter().enumerate() {
        let Some(lane) = s.worker else { continue };
        // Starts and stops are counted per span: a span that continues an
        // earlier one (a split or a pause) is not a new start or stop.
        let counts = s.start_ms >= from && !s.continues;
        match s.state {
            ItemState::Starting if counts => out.started += tasks_in(s.items),
            ItemState::Stopping if counts => out.stopped += tasks_in(s.items),
            _ => {}
        }
        let killed = matches!(
            s.state,
            ItemState::Running | ItemState::Starting | ItemState::Zombie | ItemState::Frozen
        ) && s.end_ms >= from
            && exits.contains(&(lane, s.end_ms));
        if killed {
            out.stopped += tasks_in(s.items);
        }
        if s.state.is_running() {
            running_spans.push(k);
        }
    }
    // In start order: a task's copies can sit on different lanes, and a lane's
    // spans may be recorded after a later one elsewhere; in any other order a
    // later copy would open a gap back to the last one seen.
    crate::sort_by_key::sort_by_u64_key(&mut running_spans, |&k| trace.spans[k].start_ms);
    for k in running_spans {
        let s = &trace.spans[k];
        for &i in trace.list(s.items) {
            let t = &mut track[i as usize];
            if !t.is_task {
                continue;
            }
            if t.suspect {
                suspect_runs
                    .entry(i)
                    .or_default()
                    .push((s.start_ms, s.end_ms));
                continue;
            }
            let (start, end_ms) = (ms32(s.start_ms), ms32(s.end_ms));
            if start > t.covered {
                let (covered, window) = (t.covered, t.window);
                gap(&mut out, i, window, u64::from(covered), s.start_ms);
            } else if start < t.covered {
                // Two copies that are not zombies (e.g. before KAFKA-9841):
                // the overlap runs twice.
                let (a, b) = (
                    s.start_ms.max(from),
                    u64::from(t.covered.min(end_ms)).min(end),
                );
                if a < b {
                    out.duplicate_ms += b - a;
                }
            }
            let t = &mut track[i as usize];
            t.covered = t.covered.max(end_ms);
        }
    }
    for (item, mut runs) in suspect_runs {
        crate::sort_by_key::sort_values(&mut runs);
        let window = track[item as usize].window;
        let mut reach = 0u64;
        for &(s, e) in &runs {
            if s > reach {
                gap(&mut out, item, window, reach, s);
            }
            reach = reach.max(e);
        }
        track[item as usize].covered = ms32(reach);
        // Time covered by two or more copies, clipped to the window.
        let mut points: Vec<(u64, i32)> =
            runs.iter().flat_map(|&(s, e)| [(s, 1), (e, -1)]).collect();
        crate::sort_by_key::sort_values(&mut points);
        let (mut depth, mut last) = (0i32, 0u64);
        for (t, d) in points {
            if depth >= 2 {
                let (a, b) = (last.max(from), t.min(end));
                if a < b {
                    out.duplicate_ms += b - a;
                }
            }
            depth += d;
            last = t;
        }
    }
    for i in 0..n as u32 {
        let t = track[i as usize];
        if t.is_task && u64::from(t.covered) < end {
            gap(&mut out, i, t.window, u64::from(t.covered), end);
        }
    }
    out
}

#[cfg(test)]
#[path = "metrics_tests.rs"]
mod tests;
