//! The trace as a run records it, shared by both simulators: the span
//! timeline and its item pool, the member table, worker spans, rounds, steps
//! and event markers; [`TraceRecorder::finish`] closes them into a [`Trace`].

use super::formation::{present_from, Origin};
use super::reconciliation_recorder::ReconciliationRecorder;
use super::timeline::{ItemPool, Timeline};
use crate::trace::{
    EventMarker, ItemKind, MemberInfo, ProtocolStep, RebalanceRound, StepKind, Trace, WorkItem,
    WorkerSpan, WorkerState,
};

/// Everything a run has recorded so far.
#[derive(Debug, Default)]
pub(crate) struct TraceRecorder {
    /// Item states per lane, as state spans.
    pub(crate) timeline: Timeline,
    /// The item lists the spans point into.
    pub(crate) pool: ItemPool,
    /// Every group membership, by member number.
    pub(crate) members: Vec<MemberInfo>,
    /// Completed (or abandoned) rounds.
    pub(crate) rounds: Vec<RebalanceRound>,
    /// The scenario's events as they happened.
    pub(crate) markers: Vec<EventMarker>,
    /// The streams protocol's target assignments and member reconciliation.
    pub(crate) reconciliation: ReconciliationRecorder,
    steps: Vec<ProtocolStep>,
    worker_spans: Vec<WorkerSpan>,
    /// Per lane, the process state since when, while a process is up.
    open_worker_spans: Vec<Option<(WorkerState, u64)>>,
    /// Per lane, the stream threads of its process (Kafka Streams; 0 for Connect).
    lane_threads: Vec<u32>,
    /// Where the visible run begins, when the group formed out of view.
    origin: Option<Origin>,
}

impl TraceRecorder {
    /// A Streams run's `n` tasks, each configured from the start (its
    /// topology fixes them; nothing creates or deletes one).
    pub(crate) fn streams_tasks(n: usize) -> Self {
        let mut recorder = Self::new();
        recorder.timeline.ensure_items(n);
        for item in 0..n as u32 {
            recorder.timeline.set_task(item);
            recorder
                .timeline
                .set_configured(item, true, &mut recorder.pool);
        }
        recorder
    }

    /// A scenario event as it happened at `at_ms`, with the simulator's note
    /// (why it applied differently) after its label.
    pub(crate) fn mark_event(
        &mut self,
        at_ms: u64,
        lane: Option<u32>,
        label: String,
        note: Option<&str>,
    ) {
        let label = match note {
            Some(n) => format!("{label} ({n})"),
            None => label,
        };
        self.markers.push(EventMarker {
            at_ms,
            worker: lane,
            label,
            applied: true,
        });
    }

    /// Nothing recorded yet.
    pub(crate) fn new() -> Self {
        Self {
            timeline: Timeline::new(),
            ..Self::default()
        }
    }

    /// The visible run begins at `now_ms`: [`Self::finish`] drops what was
    /// recorded before and shows `now_ms` as t = 0.
    pub(crate) fn begin_visible_run(&mut self, now_ms: u64) {
        self.origin = Some(Origin {
            at_ms: now_ms,
            rounds: self.rounds.len(),
            steps: self.steps.len(),
            markers: self.markers.len(),
        });
    }

    /// The simulated time the trace shows as t = 0.
    pub(crate) fn origin_ms(&self) -> u64 {
        self.origin.map_or(0, |o| o.at_ms)
    }

    /// Moves the timeline to `now_ms`.
    pub(crate) fn advance(&mut self, now_ms: u64) {
        self.timeline.advance(now_ms, &mut self.pool);
    }

    /// Makes room for lanes `0..lanes`.
    pub(crate) fn ensure_lanes(&mut self, lanes: usize) {
        if self.open_worker_spans.len() < lanes {
            self.open_worker_spans.resize(lanes, None);
            self.lane_threads.resize(lanes, 0);
        }
        self.timeline.ensure_lanes(lanes);
    }

    /// Entries recorded so far that count against the trace-size budget
    /// (`crate::budget::MAX_TRACE_ENTRIES`): state spans, steps and
    /// item-list entries.
    pub(crate) fn trace_entries(&self) -> usize {
        self.timeline.span_count() + self.steps.len() + self.pool.entries()
    }

    /// Records a protocol or lifecycle step.
    pub(crate) fn note(
        &mut self,
        at_ms: u64,
        worker: Option<u32>,
        kind: StepKind,
        explanation: String,
    ) {
        self.steps.push(ProtocolStep {
            at_ms,
            worker,
            kind,
            explanation: explanation.into(),
        });
    }

    /// Kafka Streams: the lane's process runs `threads` stream threads (its
    /// worker spans say so from the next one on).
    pub(crate) fn set_threads(&mut self, lane: u32, threads: u32) {
        self.lane_threads[lane as usize] = threads;
    }

    /// A lane's process is `state` from `now_ms` on (closing what it was).
    pub(crate) fn open_worker_span(&mut self, lane: u32, state: WorkerState, now_ms: u64) {
        self.close_worker_span(lane, now_ms);
        self.open_worker_spans[lane as usize] = Some((state, now_ms));
    }

    /// Closes a lane's open process span at `end_ms` (an empty one is dropped).
    pub(crate) fn close_worker_span(&mut self, lane: u32, end_ms: u64) {
        if let Some((state, start_ms)) = self.open_worker_spans[lane as usize].take() {
            if end_ms > start_ms {
                self.worker_spans.push(WorkerSpan {
                    worker: lane,
                    state,
                    start_ms,
                    end_ms,
                    threads: self.lane_threads[lane as usize],
                });
            }
        }
    }

    /// Closes everything at `end_ms` (not before `now_ms`) and returns the
    /// trace as seen from the visible t = 0 ([`Self::begin_visible_run`]).
    /// [`Self::finish`] for a Streams run: its instances and its tasks, by label.
    pub(crate) fn finish_streams<T: ToString>(
        self,
        label: String,
        now_ms: u64,
        end_ms: u64,
        instances: Vec<String>,
        tasks: &[T],
    ) -> Trace {
        let items = tasks
            .iter()
            .map(|t| WorkItem {
                label: t.to_string(),
                kind: ItemKind::Task,
            })
            .collect();
        self.finish(label, now_ms, end_ms, instances, items)
    }

    pub(crate) fn finish(
        mut self,
        label: String,
        now_ms: u64,
        end_ms: u64,
        workers: Vec<String>,
        items: Vec<WorkItem>,
    ) -> Trace {
        let end_ms = end_ms.max(now_ms);
        self.advance(end_ms);
        for lane in 0..self.open_worker_spans.len() as u32 {
            self.close_worker_span(lane, end_ms);
        }
        let (spans, configured) = self.timeline.finish(end_ms, &mut self.pool);
        let (target_assignments, member_reconciliation) =
            self.reconciliation.finish(&mut self.pool, end_ms);
        let mut trace = Trace {
            label,
            end_ms,
            workers,
            members: self.members,
            items,
            item_lists: self.pool.into_vec(),
            spans,
            configured,
            worker_spans: self.worker_spans,
            rounds: self.rounds,
            steps: self.steps,
            events: self.markers,
            target_assignments,
            member_reconciliation,
            cut: None,
            formed_generation: None,
        };
        if let Some(origin) = &self.origin {
            present_from(&mut trace, origin);
        }
        trace
    }
}
