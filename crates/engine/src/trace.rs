//! The trace: everything one simulated run produced, in the shape the views
//! and metrics read. Engine state flows one way: scenario → simulator → trace
//! → metrics → view.
//!
//! Compactness: a 100,000-task cluster under eager rebalancing stops and
//! starts every task in every round, so per-item interval records would run
//! to tens of millions. The trace therefore stores [`StateSpan`]s: one state
//! of a *set* of items on one lane over one time range, the set being a slice
//! ([`ItemList`]) of the shared [`Trace::item_lists`] pool. Consecutive spans
//! of the same batch (starting → running → stopping → unassigned) share one
//! slice. [`Trace::intervals`] expands spans into the per-item
//! [`StateInterval`]s a view usually wants.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

pub use crate::budget::{BudgetKind, RunCut};
pub use crate::step_kind::StepKind;
pub use crate::target_assignment::{
    EpochBump, EpochBumpCause, MemberReconciliationState, ReconciliationSpan,
    TargetAssignmentEpoch, TargetMember, TargetTrigger,
};

/// One simulated run of one compared variant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// The variant's label, e.g. `cooperative`.
    pub label: String,
    /// Simulated time at which the run stopped.
    pub end_ms: u64,
    /// Worker lanes, by index (`worker-1` …). Joined workers are appended.
    pub workers: Vec<String>,
    /// Every group membership, by index: a process gets a new member id on
    /// each (re)join as a new member (Connect has no static membership).
    pub members: Vec<MemberInfo>,
    /// Every connector and task that was ever configured, by index.
    pub items: Vec<WorkItem>,
    /// The pool of item indices that [`ItemList`]s point into.
    pub item_lists: Vec<u32>,
    /// State spans in the order they closed; `worker: None` is the unassigned lane.
    pub spans: Vec<StateSpan>,
    /// When each item was configured (present in the config topic).
    pub configured: Vec<ConfiguredSpan>,
    /// When each worker lane had a live process, and when it was frozen.
    pub worker_spans: Vec<WorkerSpan>,
    /// Completed (or failed) rebalance rounds, in time order.
    pub rounds: Vec<RebalanceRound>,
    /// Other protocol and lifecycle steps, in time order, each explained.
    pub steps: Vec<ProtocolStep>,
    /// The scenario's events as they happened (rolling restarts expanded).
    pub events: Vec<EventMarker>,
    /// The streams protocol (KIP-1071), which has no rounds: the target
    /// assignments the broker computed, in time order. Empty for the classic
    /// protocol.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_assignments: Vec<TargetAssignmentEpoch>,
    /// The streams protocol: each member's reconciliation toward its target
    /// (`CurrentAssignmentBuilder`), in the order the spans closed. Empty for
    /// the classic protocol.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub member_reconciliation: Vec<ReconciliationSpan>,
    /// Set when the run hit its budget (`crate::budget`) and stopped at
    /// `end_ms` without settling: a rebalance storm. The trace up to there
    /// is complete; scenario events after it never happened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<RunCut>,
    /// The generation the group is in at t = 0 when it formed out of view
    /// (the default formed start, `sim::formation`): the rounds that made it
    /// are not in `rounds`. `None` when the trace shows the formation itself.
    /// Derived from the same run as the rest, so not part of the fingerprint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formed_generation: Option<i32>,
}

/// A connector instance or a task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkItem {
    /// `my-connector` or `my-connector-3`.
    pub label: String,
    /// Connector or task.
    pub kind: ItemKind,
}

/// What a [`WorkItem`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// A connector instance (task index −1 in Kafka's assignment format).
    Connector,
    /// A task.
    Task,
}

/// The state of one item on one worker (or unassigned) over an interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemState {
    /// Assigned and starting up.
    Starting,
    /// Doing its work.
    Running,
    /// Being stopped (revoked, or its worker is shutting down).
    Stopping,
    /// Configured but nobody runs it.
    Unassigned,
    /// Running on a worker that was removed from the group without knowing
    /// it (a frozen worker that resumed after its session expired, a member
    /// the join phase dropped while it was busy or frozen), or left
    /// running by the cooperative→eager downgrade (`WorkerCoordinator.onJoinPrepare`
    /// follows the previous generation's protocol): a copy Kafka no longer tracks.
    Zombie,
    /// Held by a worker whose process is paused (a long GC), or (Kafka
    /// Streams) by a stream thread that is not processing: blocked in a
    /// handler, or, before the state updater (3.8), restoring another task.
    Frozen,
    /// Kafka Streams: an active task replaying its changelog before it can
    /// process (`StoreChangelogReader`). Not processing.
    Restoring,
    /// Kafka Streams: a warmup replica (`HighAvailabilityTaskAssignor`,
    /// KIP-441) restoring in the background while the active runs elsewhere.
    Warmup,
    /// Kafka Streams: a standby replica following the changelog.
    Standby,
}

impl ItemState {
    /// True when the item does its work in this state (a zombie copy does).
    pub fn is_running(self) -> bool {
        matches!(self, ItemState::Running | ItemState::Zombie)
    }
}

/// A slice of [`Trace::item_lists`]: `item_lists[start .. start + len]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ItemList {
    /// Offset into the pool.
    pub start: u32,
    /// Number of items.
    pub len: u32,
}

impl ItemList {
    /// The empty list.
    pub const EMPTY: ItemList = ItemList { start: 0, len: 0 };

    /// True when the list holds no item.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// One state of a set of items on one lane over `[start_ms, end_ms)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateSpan {
    /// Index into [`Trace::workers`]; `None` for the unassigned lane.
    pub worker: Option<u32>,
    /// The state.
    pub state: ItemState,
    /// Start, inclusive.
    pub start_ms: u64,
    /// End, exclusive.
    pub end_ms: u64,
    /// The items, indices into [`Trace::items`].
    pub items: ItemList,
    /// True when these items were in this state (or paused) on this lane
    /// right before: a piece of a longer stretch, split where other items of
    /// their batch changed. Not a new start or stop.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub continues: bool,
}

/// `[start_ms, end_ms)` of one state of one item on one worker: a span expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateInterval {
    /// Index into [`Trace::items`].
    pub item: u32,
    /// Index into [`Trace::workers`]; `None` for the unassigned lane.
    pub worker: Option<u32>,
    /// The state.
    pub state: ItemState,
    /// Start, inclusive.
    pub start_ms: u64,
    /// End, exclusive.
    pub end_ms: u64,
}

/// Items that were configured over `[start_ms, end_ms)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfiguredSpan {
    /// Start, inclusive.
    pub start_ms: u64,
    /// End, exclusive.
    pub end_ms: u64,
    /// The items.
    pub items: ItemList,
}

/// What a worker process was doing over an interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerState {
    /// The process runs.
    Up,
    /// The process is paused (a long GC): no heartbeats, no work.
    Frozen,
}

/// A worker lane's process state over `[start_ms, end_ms)`; no span means no process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerSpan {
    /// Index into [`Trace::workers`].
    pub worker: u32,
    /// Up or frozen.
    pub state: WorkerState,
    /// Start, inclusive.
    pub start_ms: u64,
    /// End, exclusive.
    pub end_ms: u64,
    /// Kafka Streams: the process's stream threads (`num.stream.threads`),
    /// each its own group member and a unit of the assignor's capacity.
    /// 0 for a Connect worker (one member).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub threads: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// One group membership of one worker process.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberInfo {
    /// Worker index.
    pub worker: u32,
    /// The member id the broker handed out.
    pub member_id: String,
    /// When the broker accepted the first JoinGroup with this id (0 for a
    /// member of a group that formed before t = 0).
    pub joined_ms: u64,
}

/// A round's or step's one-line explanation. Shared rather than owned:
/// a storm repeats a handful of texts over thousands of rounds, and the
/// page's copy of a result then holds each text once (`result_wire`).
pub type Explanation = std::sync::Arc<str>;

/// One JoinGroup/SyncGroup round.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RebalanceRound {
    /// The generation the round created.
    pub generation: i32,
    /// When the broker started the rebalance (first JoinGroup or member loss).
    pub started_ms: u64,
    /// When the join phase completed and the leader computed the assignment.
    pub joined_ms: u64,
    /// When SyncGroup answered (or when the round was abandoned).
    pub completed_ms: u64,
    /// False when the assignment was never delivered (the group restarted the
    /// rebalance before SyncGroup completed).
    pub delivered: bool,
    /// The group protocol chosen by the vote (`default`, `compatible`, `sessioned`).
    pub protocol: String,
    /// The leader's worker index.
    pub leader: u32,
    /// Every member of the round, in the order the assignor iterated them
    /// (ascending member id).
    pub members: Vec<RoundMember>,
    /// The `delay` in the assignments, ms.
    pub delay_ms: i32,
    /// Why the round happened and what it decided, in one line.
    pub explanation: Explanation,
}

/// One member's view of a round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundMember {
    /// Worker index.
    pub worker: u32,
    /// Index into [`Trace::members`].
    pub member: u32,
    /// Items it reported owning in JoinGroup (empty under eager: V0 metadata has none).
    pub owned: ItemList,
    /// Items SyncGroup told it to start (eager: its whole assignment).
    pub assigned: ItemList,
    /// Items SyncGroup told it to stop.
    pub revoked: ItemList,
}

/// A protocol or lifecycle step other than a round (heartbeat expiry,
/// LeaveGroup, session-key rotation, a signed REST call, a skipped event …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtocolStep {
    /// When.
    pub at_ms: u64,
    /// Worker index, when it concerns one worker.
    pub worker: Option<u32>,
    /// What happened; written (and fingerprinted) as its snake_case name,
    /// e.g. `leave_group`, `session_timeout`, `session_key`.
    pub kind: StepKind,
    /// One-line human explanation.
    pub explanation: Explanation,
}

/// A scenario event as it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventMarker {
    /// When.
    pub at_ms: u64,
    /// Worker index, when it concerns one worker.
    pub worker: Option<u32>,
    /// E.g. `worker-2 crashes`.
    pub label: String,
    /// False when the event could not apply (a step says why).
    pub applied: bool,
}

impl Trace {
    /// Stretches in which an item that once ran as a zombie copy is `running`
    /// on two lanes at once (few items ever do, so only those are followed).
    pub(crate) fn doubled_runs(&self) -> Vec<(u64, u64)> {
        let mut suspect: BTreeSet<u32> = BTreeSet::new();
        for s in &self.spans {
            if s.state == ItemState::Zombie {
                suspect.extend(self.list(s.items).iter().copied());
            }
        }
        if suspect.is_empty() {
            return Vec::new();
        }
        let mut runs: BTreeMap<u32, Vec<(u64, i32)>> = BTreeMap::new();
        for s in &self.spans {
            if s.worker.is_none() || s.state != ItemState::Running || s.start_ms >= s.end_ms {
                continue;
            }
            for &i in self.list(s.items) {
                if suspect.contains(&i) {
                    let points = runs.entry(i).or_default();
                    points.push((s.start_ms, 1));
                    points.push((s.end_ms, -1));
                }
            }
        }
        let mut doubled = Vec::new();
        for (_, mut points) in runs {
            // Ends before starts at one instant: back-to-back copies are one run.
            crate::sort_by_key::sort_values(&mut points);
            let (mut depth, mut since) = (0, 0);
            for (t, d) in points {
                let before = depth;
                depth += d;
                if before < 2 && depth >= 2 {
                    since = t;
                } else if before >= 2 && depth < 2 && since < t {
                    doubled.push((since, t));
                }
            }
        }
        doubled
    }

    /// The items of a list.
    pub fn list(&self, list: ItemList) -> &[u32] {
        let start = list.start as usize;
        self.item_lists
            .get(start..start + list.len as usize)
            .unwrap_or(&[])
    }

    /// Every span expanded into per-item intervals, in span order.
    pub fn intervals(&self) -> impl Iterator<Item = StateInterval> + '_ {
        self.spans.iter().flat_map(move |span| {
            self.list(span.items)
                .iter()
                .map(move |&item| StateInterval {
                    item,
                    worker: span.worker,
                    state: span.state,
                    start_ms: span.start_ms,
                    end_ms: span.end_ms,
                })
        })
    }

    /// One item's intervals sorted by start then lane, with adjacent pieces of
    /// the same state on the same lane merged (a span may be split where other
    /// items of its batch changed state).
    pub fn item_intervals(&self, item: u32) -> Vec<StateInterval> {
        let mut out: Vec<StateInterval> = self.intervals().filter(|iv| iv.item == item).collect();
        crate::sort_by_key::sort_stable_by_key(&mut out, |iv| {
            (iv.start_ms, iv.worker, iv.state, iv.end_ms)
        });
        let mut merged: Vec<StateInterval> = Vec::with_capacity(out.len());
        for iv in out {
            let joined = merged
                .iter_mut()
                .rev()
                .find(|m| m.worker == iv.worker && m.state == iv.state && m.end_ms == iv.start_ms);
            match joined {
                Some(m) => m.end_ms = iv.end_ms,
                None => merged.push(iv),
            }
        }
        merged
    }

    /// The index of a worker lane by name.
    pub fn worker_index(&self, name: &str) -> Option<u32> {
        self.workers
            .iter()
            .position(|w| w == name)
            .map(|i| i as u32)
    }

    /// The index of an item by label.
    pub fn item_index(&self, label: &str) -> Option<u32> {
        self.items
            .iter()
            .position(|i| i.label == label)
            .map(|i| i as u32)
    }

    /// A stable 64-bit fingerprint: FNV-1a over a canonical binary encoding
    /// of every field, in order. Same scenario, same fingerprint, on every
    /// platform (no pointer values, no hash-map order, no floats).
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv1a::new();
        h.str(&self.label);
        h.u64(self.end_ms);
        h.len(self.workers.len());
        for w in &self.workers {
            h.str(w);
        }
        h.len(self.members.len());
        for m in &self.members {
            h.u32(m.worker);
            h.str(&m.member_id);
            h.u64(m.joined_ms);
        }
        h.len(self.items.len());
        for i in &self.items {
            h.str(&i.label);
            h.u32(i.kind as u32);
        }
        h.len(self.item_lists.len());
        for &i in &self.item_lists {
            h.u32(i);
        }
        h.len(self.spans.len());
        for s in &self.spans {
            h.opt_u32(s.worker);
            h.u32(s.state as u32);
            h.u64(s.start_ms);
            h.u64(s.end_ms);
            h.list(s.items);
            h.u32(u32::from(s.continues));
        }
        h.len(self.configured.len());
        for c in &self.configured {
            h.u64(c.start_ms);
            h.u64(c.end_ms);
            h.list(c.items);
        }
        h.len(self.worker_spans.len());
        for w in &self.worker_spans {
            h.u32(w.worker);
            h.u32(w.state as u32);
            h.u64(w.start_ms);
            h.u64(w.end_ms);
            // Hashed only when set, so Connect traces keep their fingerprints.
            if w.threads != 0 {
                h.u32(w.threads);
            }
        }
        h.len(self.rounds.len());
        for r in &self.rounds {
            h.u32(r.generation as u32);
            h.u64(r.started_ms);
            h.u64(r.joined_ms);
            h.u64(r.completed_ms);
            h.u32(u32::from(r.delivered));
            h.str(&r.protocol);
            h.u32(r.leader);
            h.len(r.members.len());
            for m in &r.members {
                h.u32(m.worker);
                h.u32(m.member);
                h.list(m.owned);
                h.list(m.assigned);
                h.list(m.revoked);
            }
            h.u32(r.delay_ms as u32);
            h.str(&r.explanation);
        }
        h.len(self.steps.len());
        for s in &self.steps {
            h.u64(s.at_ms);
            h.opt_u32(s.worker);
            h.str(s.kind.as_str());
            h.str(&s.explanation);
        }
        h.len(self.events.len());
        for e in &self.events {
            h.u64(e.at_ms);
            h.opt_u32(e.worker);
            h.str(&e.label);
            h.u32(u32::from(e.applied));
        }
        // Hashed only when present, so classic traces keep their fingerprints.
        if !self.target_assignments.is_empty() || !self.member_reconciliation.is_empty() {
            self.hash_streams_group_view(&mut h);
        }
        // Only a cut run hashes its cut, so every uncut trace keeps the
        // fingerprint it had before runs had a budget.
        if let Some(cut) = &self.cut {
            h.u32(cut.reason as u32);
            h.u64(cut.at_ms);
            h.u64(cut.rounds);
            h.u64(cut.events);
            h.u64(cut.trace_entries);
        }
        h.finish()
    }
}

impl Trace {
    fn hash_streams_group_view(&self, h: &mut Fnv1a) {
        h.len(self.target_assignments.len());
        for t in &self.target_assignments {
            h.u32(t.epoch as u32);
            h.u64(t.computed_ms);
            h.u32(t.trigger as u32);
            h.opt_u32(t.trigger_member);
            h.len(t.causes.len());
            for c in &t.causes {
                h.u64(c.at_ms);
                h.u32(c.group_epoch as u32);
                h.u32(c.cause as u32);
                h.opt_u32(c.member);
            }
            h.len(t.members.len());
            for m in &t.members {
                h.u32(m.member);
                h.u32(m.worker);
                h.u32(m.thread);
                h.list(m.active);
                h.list(m.standby);
            }
            h.u32(t.moved);
        }
        h.len(self.member_reconciliation.len());
        for r in &self.member_reconciliation {
            h.u32(r.worker);
            h.u32(r.member);
            h.u32(r.thread);
            h.u32(r.state as u32);
            h.u64(r.start_ms);
            h.u64(r.end_ms);
            h.u32(r.member_epoch as u32);
            h.u32(r.target_epoch as u32);
            h.list(r.revoking);
            h.list(r.awaiting);
        }
    }
}

/// FNV-1a, 64 bit, over little-endian fixed-width encodings.
struct Fnv1a(u64);

impl Fnv1a {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn new() -> Self {
        Self(Self::OFFSET)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    fn len(&mut self, n: usize) {
        self.u64(n as u64);
    }

    fn opt_u32(&mut self, v: Option<u32>) {
        match v {
            None => self.u32(u32::MAX),
            Some(v) => {
                self.u32(0);
                self.u32(v);
            }
        }
    }

    fn list(&mut self, l: ItemList) {
        self.u32(l.start);
        self.u32(l.len);
    }

    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.bytes(s.as_bytes());
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Trace {
        Trace {
            label: "t".into(),
            end_ms: 100,
            workers: vec!["worker-1".into()],
            items: vec![
                WorkItem {
                    label: "c".into(),
                    kind: ItemKind::Connector,
                },
                WorkItem {
                    label: "c-0".into(),
                    kind: ItemKind::Task,
                },
            ],
            item_lists: vec![0, 1],
            spans: vec![
                StateSpan {
                    worker: Some(0),
                    state: ItemState::Running,
                    start_ms: 0,
                    end_ms: 40,
                    items: ItemList { start: 0, len: 2 },
                    continues: false,
                },
                StateSpan {
                    worker: Some(0),
                    state: ItemState::Running,
                    start_ms: 40,
                    end_ms: 100,
                    items: ItemList { start: 1, len: 1 },
                    continues: true,
                },
            ],
            ..Trace::default()
        }
    }

    #[test]
    fn intervals_expand_and_merge() {
        let t = tiny();
        assert_eq!(t.intervals().count(), 3);
        let ivs = t.item_intervals(1);
        assert_eq!(ivs.len(), 1);
        assert_eq!((ivs[0].start_ms, ivs[0].end_ms), (0, 100));
    }

    #[test]
    fn fingerprint_is_stable_and_sensitive() {
        let t = tiny();
        assert_eq!(t.fingerprint(), tiny().fingerprint());
        let mut u = tiny();
        u.spans[1].end_ms = 99;
        assert_ne!(t.fingerprint(), u.fingerprint());
    }
}
