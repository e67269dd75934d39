//! Builds the trace's state spans as the simulation runs.
//!
//! Items that change state together (a batch started by one assignment, a
//! worker's revocation, everything a crashed worker held) form a *batch*: one
//! list of items sharing a lane, a state and a start time. A whole-batch
//! transition closes one span and opens the next over the same pooled list,
//! so a batch that starts, runs, stops and waits unassigned costs one list in
//! the pool. Removing part of a batch closes its span for everybody and keeps
//! the rest going with a fresh list (per-item reads merge the pieces again).
//!
//! The unassigned lane is derived: an item that is configured and has no copy
//! on any worker at the end of an instant is unassigned. Work per change is
//! proportional to the items that change (plus the batches they split).

use std::collections::BTreeMap;

use crate::trace::{ConfiguredSpan, ItemList, ItemState, StateSpan};

/// The lane of unassigned items.
pub const UNASSIGNED_LANE: u32 = u32::MAX;

const TOMBSTONE: u32 = u32::MAX;
const NO_BATCH: u32 = u32::MAX;
const NOT_CONFIGURED: u64 = u64::MAX;

/// The shared pool of item indices that [`ItemList`]s point into.
#[derive(Clone, Debug, Default)]
pub struct ItemPool {
    items: Vec<u32>,
}

impl ItemPool {
    /// Appends a list.
    pub fn push(&mut self, items: &[u32]) -> ItemList {
        let start = self.items.len() as u32;
        self.items.extend_from_slice(items);
        ItemList {
            start,
            len: items.len() as u32,
        }
    }

    /// Appends a list from an iterator.
    pub fn extend(&mut self, items: impl IntoIterator<Item = u32>) -> ItemList {
        let start = self.items.len() as u32;
        self.items.extend(items);
        ItemList {
            start,
            len: self.items.len() as u32 - start,
        }
    }

    /// The items of a list.
    pub fn get(&self, list: ItemList) -> &[u32] {
        &self.items[list.start as usize..(list.start + list.len) as usize]
    }

    /// The whole pool.
    pub fn into_vec(self) -> Vec<u32> {
        self.items
    }

    fn end(&self) -> u32 {
        self.items.len() as u32
    }

    /// Entries in the pool.
    pub fn entries(&self) -> usize {
        self.items.len()
    }
}

/// A batch handle. Handles are reused after a batch ends; compare
/// [`Timeline::batch_token`] to detect a stale handle.
pub type BatchId = u32;

#[derive(Clone, Debug)]
struct Batch {
    lane: u32,
    state: ItemState,
    since: u64,
    items: Vec<u32>,
    live: u32,
    tasks: u32,
    /// Every item was configured when it joined and none was deconfigured
    /// since: releasing the batch needs no per-item check.
    clean: bool,
    /// The state of the last span emitted for this batch.
    last_state: Option<ItemState>,
    /// Some slots hold items that left without a tombstone (an unassigned
    /// batch consumed by `place`): compaction checks refs instead.
    lazy: bool,
    pooled: Option<ItemList>,
    token: u32,
    in_use: bool,
    lane_pos: u32,
    dirty: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CopyRef {
    batch: u32,
    pos: u32,
}

const NO_COPY: CopyRef = CopyRef {
    batch: NO_BATCH,
    pos: 0,
};

/// The span builder.
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    now: u64,
    batches: Vec<Batch>,
    free: Vec<u32>,
    /// Per item, its first copy (more copies live in `extra`). Kept apart
    /// from the colder per-item fields: 8 bytes per item, so the whole
    /// array of a 100,000-task cluster stays in a core's L2 cache.
    primary: Vec<CopyRef>,
    /// Per item, since when it is configured (cold: read when it changes).
    configured_since: Vec<u64>,
    /// Per item, configured or not (hot: read whenever a batch forms).
    configured_now: Vec<bool>,
    /// Per item, task or connector.
    is_task: Vec<bool>,
    extra: BTreeMap<u32, Vec<CopyRef>>,
    lanes: Vec<Vec<u32>>,
    unassigned_batches: Vec<u32>,
    dirty: Vec<u32>,
    maybe_unassigned: Vec<u32>,
    spans: Vec<StateSpan>,
    configured: Vec<ConfiguredSpan>,
}

impl Timeline {
    /// An empty timeline at time 0.
    pub fn new() -> Self {
        Self::default()
    }

    /// State spans closed so far.
    pub fn span_count(&self) -> usize {
        self.spans.len()
    }

    /// Moves to a later instant, settling the previous one first.
    pub fn advance(&mut self, t: u64, pool: &mut ItemPool) {
        if t > self.now {
            self.settle(pool);
            self.now = t;
        }
    }

    /// Makes room for item indices below `n`.
    pub fn ensure_items(&mut self, n: usize) {
        if self.primary.len() < n {
            self.primary.resize(n, NO_COPY);
            self.configured_since.resize(n, NOT_CONFIGURED);
            self.configured_now.resize(n, false);
            self.is_task.resize(n, false);
        }
    }

    /// Marks an item as a task (batches count their tasks and connectors).
    pub fn set_task(&mut self, item: u32) {
        self.is_task[item as usize] = true;
    }

    /// (connectors, tasks) in a batch.
    pub fn batch_kinds(&self, batch: BatchId) -> (usize, usize) {
        let b = &self.batches[batch as usize];
        ((b.live - b.tasks) as usize, b.tasks as usize)
    }

    /// Makes room for worker lanes below `n`.
    pub fn ensure_lanes(&mut self, n: usize) {
        if self.lanes.len() < n {
            self.lanes.resize_with(n, Vec::new);
        }
    }

    /// True while the item is configured.
    pub fn is_configured(&self, item: u32) -> bool {
        self.configured_now[item as usize]
    }

    /// The item becomes configured or stops being configured.
    pub fn set_configured(&mut self, item: u32, configured: bool, pool: &mut ItemPool) {
        let since = self.configured_since[item as usize];
        if configured == (since != NOT_CONFIGURED) {
            return;
        }
        if configured {
            self.configured_since[item as usize] = self.now;
            self.configured_now[item as usize] = true;
            self.maybe_unassigned.push(item);
        } else {
            self.emit_configured(item, since, self.now, pool);
            self.configured_since[item as usize] = NOT_CONFIGURED;
            self.configured_now[item as usize] = false;
            let batches: Vec<u32> = self.refs(item).map(|r| r.batch).collect();
            for b in batches {
                self.batches[b as usize].clean = false;
            }
            if let Some(r) = self.copy_ref(item, UNASSIGNED_LANE) {
                self.tombstone(item, r, pool);
            }
        }
    }

    /// Starts a batch: `items` enter `state` on `lane` now. Any unassigned
    /// copy of them ends. `pooled`, when given, is a pool list holding
    /// exactly `items` (shared with a round record).
    pub fn place(
        &mut self,
        lane: u32,
        state: ItemState,
        items: Vec<u32>,
        pooled: Option<ItemList>,
        pool: &mut ItemPool,
    ) -> BatchId {
        // One pass over the items: end their unassigned copies (they get a
        // copy right below, so nothing needs re-checking) and count what the
        // new batch holds.
        let (mut tasks, mut clean) = (0u32, true);
        for &item in &items {
            tasks += u32::from(self.is_task[item as usize]);
            clean &= self.configured_now[item as usize];
            let p = self.primary[item as usize];
            let unassigned = if p.batch < NO_BATCH - 1
                && self.batches[p.batch as usize].lane == UNASSIGNED_LANE
            {
                Some(p)
            } else if self.extra.is_empty() {
                None
            } else {
                self.copy_ref(item, UNASSIGNED_LANE)
            };
            if let Some(r) = unassigned {
                if self.extra.is_empty() && self.primary[item as usize] == r {
                    // Leave the slot in the unassigned batch: settle() drops it
                    // by checking refs, sparing a scattered write per item.
                    self.close_span(r.batch, pool);
                    self.primary[item as usize] = NO_COPY;
                    let task = self.is_task[item as usize];
                    let b = &mut self.batches[r.batch as usize];
                    b.live -= 1;
                    b.tasks -= u32::from(task);
                    b.pooled = None;
                    b.lazy = true;
                    if !b.dirty {
                        b.dirty = true;
                        self.dirty.push(r.batch);
                    }
                } else {
                    self.take_out(item, r, pool);
                }
            }
            debug_assert!(
                self.copy_ref(item, lane).is_none() || lane == UNASSIGNED_LANE,
                "item {item} placed twice on lane {lane}"
            );
        }
        let id = self.alloc(lane, state, items, pooled, tasks, clean);
        for pos in 0..self.batches[id as usize].items.len() {
            let item = self.batches[id as usize].items[pos];
            self.add_ref(
                item,
                CopyRef {
                    batch: id,
                    pos: pos as u32,
                },
            );
        }
        id
    }

    /// The whole batch enters `state` now.
    pub fn set_state(&mut self, batch: BatchId, state: ItemState, pool: &mut ItemPool) {
        if self.batches[batch as usize].state == state {
            return;
        }
        self.close_span(batch, pool);
        self.batches[batch as usize].state = state;
    }

    /// Moves `items` (each with a copy on `lane`) into `state`: whole batches
    /// change state in place, parts of batches move into one new batch.
    /// Returns the batches now holding them. Items without a copy on the
    /// lane are skipped.
    pub fn split_off(
        &mut self,
        lane: u32,
        items: &[u32],
        state: ItemState,
        pool: &mut ItemPool,
    ) -> Vec<BatchId> {
        let mut by_batch: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for &item in items {
            if let Some(r) = self.copy_ref(item, lane) {
                by_batch.entry(r.batch).or_default().push(item);
            }
        }
        let mut out = Vec::new();
        let mut moved = Vec::new();
        for (batch, its) in by_batch {
            if its.len() as u32 == self.batches[batch as usize].live {
                self.set_state(batch, state, pool);
                out.push(batch);
            } else {
                for item in its {
                    let r = self.copy_ref(item, lane).expect("copy present");
                    self.tombstone(item, r, pool);
                    moved.push(item);
                }
            }
        }
        if !moved.is_empty() {
            out.push(self.place(lane, state, moved, None, pool));
        }
        out
    }

    /// The batch leaves its lane now. Items that are still configured and
    /// have no other copy become unassigned (the batch turns into an
    /// unassigned batch, keeping its pooled list); the others just end.
    pub fn release(&mut self, batch: BatchId, pool: &mut ItemPool) {
        let lane = self.batches[batch as usize].lane;
        if lane == UNASSIGNED_LANE {
            return;
        }
        if !(self.batches[batch as usize].clean && self.extra.is_empty()) {
            let items: Vec<(u32, u32)> = self.live_items_with_pos(batch).collect();
            for (pos, item) in items {
                let configured = self.is_configured(item);
                if !configured || self.copy_count(item) > 1 {
                    self.tombstone(item, CopyRef { batch, pos }, pool);
                }
            }
        }
        if self.batches[batch as usize].live == 0 {
            return;
        }
        self.close_span(batch, pool);
        self.detach_lane(batch);
        let b = &mut self.batches[batch as usize];
        b.lane = UNASSIGNED_LANE;
        b.state = ItemState::Unassigned;
        b.lane_pos = self.unassigned_batches.len() as u32;
        self.unassigned_batches.push(batch);
    }

    /// Ends one item's copy on `lane` now (it becomes unassigned if it has no
    /// other copy and is configured).
    pub fn remove_copy(&mut self, item: u32, lane: u32, pool: &mut ItemPool) {
        if let Some(r) = self.copy_ref(item, lane) {
            self.tombstone(item, r, pool);
        }
    }

    /// The batches on a worker lane.
    pub fn lane_batches(&self, lane: u32) -> &[BatchId] {
        self.lanes.get(lane as usize).map_or(&[], |v| v.as_slice())
    }

    /// The token of a batch handle; it changes when the handle is reused.
    pub fn batch_token(&self, batch: BatchId) -> u32 {
        self.batches[batch as usize].token
    }

    /// True when `batch` still denotes the batch that had `token`.
    pub fn is_current(&self, batch: BatchId, token: u32) -> bool {
        self.batches
            .get(batch as usize)
            .is_some_and(|b| b.in_use && b.token == token)
    }

    /// A batch's state.
    pub fn batch_state(&self, batch: BatchId) -> ItemState {
        self.batches[batch as usize].state
    }

    /// A batch's lane.
    pub fn batch_lane(&self, batch: BatchId) -> u32 {
        self.batches[batch as usize].lane
    }

    /// A batch's items still in it.
    pub fn batch_items(&self, batch: BatchId) -> impl Iterator<Item = u32> + '_ {
        self.batches[batch as usize]
            .items
            .iter()
            .copied()
            .filter(|&i| i != TOMBSTONE)
    }

    /// Number of items in a batch.
    pub fn batch_len(&self, batch: BatchId) -> u32 {
        self.batches[batch as usize].live
    }

    /// The state of the item's copy on a lane.
    pub fn state_on(&self, item: u32, lane: u32) -> Option<ItemState> {
        self.copy_ref(item, lane)
            .map(|r| self.batches[r.batch as usize].state)
    }

    /// Every copy of an item as (lane, state), unassigned included.
    pub fn copies(&self, item: u32) -> Vec<(u32, ItemState)> {
        self.refs(item)
            .map(|r| {
                let b = &self.batches[r.batch as usize];
                (b.lane, b.state)
            })
            .collect()
    }

    /// Closes everything at `end` and returns the spans and configured spans.
    pub fn finish(
        mut self,
        end: u64,
        pool: &mut ItemPool,
    ) -> (Vec<StateSpan>, Vec<ConfiguredSpan>) {
        self.advance(end, pool);
        self.settle(pool);
        for id in 0..self.batches.len() as u32 {
            if self.batches[id as usize].in_use {
                self.close_span(id, pool);
            }
        }
        for item in 0..self.configured_since.len() as u32 {
            let since = self.configured_since[item as usize];
            if since != NOT_CONFIGURED {
                self.emit_configured(item, since, end, pool);
            }
        }
        (self.spans, self.configured)
    }

    /// Settles the current instant: compacts batches that lost items and
    /// gathers newly unassigned items into one unassigned batch.
    fn settle(&mut self, pool: &mut ItemPool) {
        let dirty = std::mem::take(&mut self.dirty);
        for batch in dirty {
            self.compact(batch);
        }
        let pending = std::mem::take(&mut self.maybe_unassigned);
        let mut unassigned: Vec<u32> = Vec::new();
        for item in pending {
            if self.is_configured(item) && self.primary[item as usize] == NO_COPY {
                // Mark with a placeholder so a duplicate entry is skipped.
                self.primary[item as usize] = CopyRef {
                    batch: NO_BATCH - 1,
                    pos: 0,
                };
                unassigned.push(item);
            }
        }
        if !unassigned.is_empty() {
            for &item in &unassigned {
                self.primary[item as usize] = NO_COPY;
            }
            self.place(
                UNASSIGNED_LANE,
                ItemState::Unassigned,
                unassigned,
                None,
                pool,
            );
        }
    }

    fn alloc(
        &mut self,
        lane: u32,
        state: ItemState,
        items: Vec<u32>,
        pooled: Option<ItemList>,
        tasks: u32,
        clean: bool,
    ) -> BatchId {
        let live = items.len() as u32;
        let lane_pos = if lane == UNASSIGNED_LANE {
            self.unassigned_batches.len() as u32
        } else {
            self.ensure_lanes(lane as usize + 1);
            self.lanes[lane as usize].len() as u32
        };
        let mut batch = Batch {
            lane,
            state,
            since: self.now,
            items,
            live,
            tasks,
            clean,
            last_state: None,
            lazy: false,
            pooled,
            token: 0,
            in_use: true,
            lane_pos,
            dirty: false,
        };
        // A reused slot bumps its token, so handles to the previous batch go stale.
        let id = match self.free.pop() {
            Some(id) => {
                let b = &mut self.batches[id as usize];
                batch.token = b.token.wrapping_add(1);
                *b = batch;
                id
            }
            None => {
                self.batches.push(batch);
                (self.batches.len() - 1) as u32
            }
        };
        if lane == UNASSIGNED_LANE {
            self.unassigned_batches.push(id);
        } else {
            self.lanes[lane as usize].push(id);
        }
        id
    }

    fn detach_lane(&mut self, batch: BatchId) {
        let (lane, pos) = {
            let b = &self.batches[batch as usize];
            (b.lane, b.lane_pos as usize)
        };
        let list = if lane == UNASSIGNED_LANE {
            &mut self.unassigned_batches
        } else {
            &mut self.lanes[lane as usize]
        };
        list.swap_remove(pos);
        if let Some(&moved) = list.get(pos) {
            self.batches[moved as usize].lane_pos = pos as u32;
        }
    }

    fn free_batch(&mut self, batch: BatchId) {
        self.detach_lane(batch);
        let b = &mut self.batches[batch as usize];
        b.in_use = false;
        b.items = Vec::new();
        b.pooled = None;
        self.free.push(batch);
    }

    fn live_items_with_pos(&self, batch: BatchId) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.batches[batch as usize]
            .items
            .iter()
            .enumerate()
            .filter(|(_, &i)| i != TOMBSTONE)
            .map(|(p, &i)| (p as u32, i))
    }

    /// Closes the batch's current span at `now` (if it lasted) and restarts it.
    #[inline]
    fn close_span(&mut self, batch: BatchId, pool: &mut ItemPool) {
        if self.batches[batch as usize].since >= self.now {
            return;
        }
        self.close_span_slow(batch, pool);
    }

    fn close_span_slow(&mut self, batch: BatchId, pool: &mut ItemPool) {
        let now = self.now;
        let (since, lane, state) = {
            let b = &self.batches[batch as usize];
            (b.since, b.lane, b.state)
        };
        if since < now && self.batches[batch as usize].live > 0 {
            let list = match self.batches[batch as usize].pooled {
                Some(l) => l,
                None => {
                    let l = self.materialize(batch, pool);
                    self.batches[batch as usize].pooled = Some(l);
                    l
                }
            };
            let worker = (lane != UNASSIGNED_LANE).then_some(lane);
            // Same items, same lane, right after a span of the same state (or
            // of a pause): a piece of the same stretch, not a new start/stop.
            let continues = self.batches[batch as usize]
                .last_state
                .is_some_and(|s| s == state || s == ItemState::Frozen);
            match self.spans.last_mut() {
                Some(last)
                    if last.worker == worker
                        && last.state == state
                        && last.start_ms == since
                        && last.end_ms == now
                        && last.continues == continues
                        && last.items.start + last.items.len == list.start =>
                {
                    last.items.len += list.len;
                }
                _ => self.spans.push(StateSpan {
                    worker,
                    state,
                    start_ms: since,
                    end_ms: now,
                    items: list,
                    continues,
                }),
            }
            self.batches[batch as usize].last_state = Some(state);
        }
        self.batches[batch as usize].since = now;
    }

    fn materialize(&self, batch: BatchId, pool: &mut ItemPool) -> ItemList {
        let start = pool.end();
        let b = &self.batches[batch as usize];
        for &i in &b.items {
            if i != TOMBSTONE {
                pool.items.push(i);
            }
        }
        ItemList {
            start,
            len: pool.end() - start,
        }
    }

    fn tombstone(&mut self, item: u32, r: CopyRef, pool: &mut ItemPool) {
        self.take_out(item, r, pool);
        if self.primary[item as usize] == NO_COPY {
            self.maybe_unassigned.push(item);
        }
    }

    /// Removes a copy without checking whether the item became unassigned.
    fn take_out(&mut self, item: u32, r: CopyRef, pool: &mut ItemPool) {
        self.close_span(r.batch, pool);
        self.drop_ref(item, r);
        let task = self.is_task[item as usize];
        let b = &mut self.batches[r.batch as usize];
        b.items[r.pos as usize] = TOMBSTONE;
        b.live -= 1;
        b.tasks -= u32::from(task);
        b.pooled = None;
        if !b.dirty {
            b.dirty = true;
            self.dirty.push(r.batch);
        }
    }

    fn compact(&mut self, batch: BatchId) {
        let b = &mut self.batches[batch as usize];
        b.dirty = false;
        if !b.in_use {
            return;
        }
        if b.live == 0 {
            self.free_batch(batch);
            return;
        }
        let lazy = std::mem::replace(&mut b.lazy, false);
        let items = std::mem::take(&mut b.items);
        let mut kept = Vec::with_capacity(b.live as usize);
        for (old, item) in items.into_iter().enumerate() {
            let here = CopyRef {
                batch,
                pos: old as u32,
            };
            if item == TOMBSTONE || (lazy && !self.refs(item).any(|r| r == here)) {
                continue;
            }
            let new = kept.len() as u32;
            kept.push(item);
            if new != old as u32 {
                self.repoint(
                    item,
                    CopyRef {
                        batch,
                        pos: old as u32,
                    },
                    CopyRef { batch, pos: new },
                );
            }
        }
        self.batches[batch as usize].items = kept;
    }

    fn refs(&self, item: u32) -> impl Iterator<Item = CopyRef> + '_ {
        let p = self.primary[item as usize];
        let first = (p.batch < NO_BATCH - 1).then_some(p);
        first
            .into_iter()
            .chain(self.extra.get(&item).into_iter().flatten().copied())
    }

    fn copy_count(&self, item: u32) -> usize {
        if self.extra.is_empty() {
            return usize::from(self.primary[item as usize].batch < NO_BATCH - 1);
        }
        self.refs(item).count()
    }

    fn copy_ref(&self, item: u32, lane: u32) -> Option<CopyRef> {
        let p = self.primary[item as usize];
        if p.batch < NO_BATCH - 1 && self.batches[p.batch as usize].lane == lane {
            return Some(p);
        }
        if self.extra.is_empty() {
            return None;
        }
        self.extra
            .get(&item)?
            .iter()
            .copied()
            .find(|r| self.batches[r.batch as usize].lane == lane)
    }

    fn add_ref(&mut self, item: u32, r: CopyRef) {
        let p = &mut self.primary[item as usize];
        if *p == NO_COPY {
            *p = r;
        } else {
            self.extra.entry(item).or_default().push(r);
        }
    }

    fn drop_ref(&mut self, item: u32, r: CopyRef) {
        if self.primary[item as usize] == r && self.extra.is_empty() {
            self.primary[item as usize] = NO_COPY;
        } else if self.primary[item as usize] == r {
            let promoted = self.extra.get_mut(&item).and_then(|v| {
                if v.is_empty() {
                    None
                } else {
                    Some(v.remove(0))
                }
            });
            if self.extra.get(&item).is_some_and(|v| v.is_empty()) {
                self.extra.remove(&item);
            }
            self.primary[item as usize] = promoted.unwrap_or(NO_COPY);
        } else if let Some(v) = self.extra.get_mut(&item) {
            v.retain(|x| *x != r);
            if v.is_empty() {
                self.extra.remove(&item);
            }
        }
    }

    fn repoint(&mut self, item: u32, from: CopyRef, to: CopyRef) {
        if self.primary[item as usize] == from || self.extra.is_empty() {
            self.primary[item as usize] = to;
        } else if let Some(v) = self.extra.get_mut(&item) {
            for r in v.iter_mut() {
                if *r == from {
                    *r = to;
                }
            }
        }
    }

    fn emit_configured(&mut self, item: u32, start: u64, end: u64, pool: &mut ItemPool) {
        if start >= end {
            return;
        }
        if let Some(last) = self.configured.last_mut() {
            if last.start_ms == start
                && last.end_ms == end
                && last.items.start + last.items.len == pool.end()
            {
                pool.items.push(item);
                last.items.len += 1;
                return;
            }
        }
        let list = pool.push(&[item]);
        self.configured.push(ConfiguredSpan {
            start_ms: start,
            end_ms: end,
            items: list,
        });
    }
}

#[cfg(test)]
mod tests;
