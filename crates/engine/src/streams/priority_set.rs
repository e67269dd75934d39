//! Kafka's `ConstrainedPrioritySet` over clients, exact and fast.
//!
//! Kafka keeps clients in a `java.util.PriorityQueue` ordered by
//! (assigned-task load, `ProcessId`), with a comparator that reads the
//! *current* load. `poll(task, constraint)` pops clients until one satisfies
//! the constraint and re-offers the rejected ones in `HashSet<ProcessId>`
//! order. When the `TaskMovement` code changes a queued client's load and
//! only re-offers it afterwards, sifts in between see the new load at an old
//! position, and the heap can end up out of order; later polls then pop a
//! client that is not the least loaded. Kafka's results include that, so
//! the heap's array layout is reproduced exactly ([`ExactHeap`]): each slot
//! packs (load bits, client) into one `u128` (a non-negative `f64`'s bits
//! order like its value, as `Double.compare` does), and a queued client's
//! slot is rewritten the moment its load changes, which is when Java's live
//! comparator starts seeing the new value.
//!
//! Simulating every pop costs O(log clients) per rejected client, and
//! Kafka's polls reject many. [`ConstrainedPrioritySet`] avoids most of it
//! without changing a single result:
//!
//! * While the heap is in order, pops come out in key order, so a poll's
//!   answer is simply the least-keyed valid client and needs no layout.
//!   Such polls and clean offers are only *logged* on top of an exact
//!   checkpoint of the layout.
//! * A poll that rejects every client empties the queue and refills it in
//!   hash order; in order, that refill order is known from the keys alone
//!   (hash bucket, then key), so it becomes the new checkpoint and the log
//!   is dropped unread.
//! * The layout matters only when a load changes while its client is
//!   queued (a movement's destination). If the source's new key does not
//!   fall between the destination's old and new keys, every comparison
//!   involving the destination comes out as it would have with its old key,
//!   so the heap stays in order whatever the layout. Otherwise the log is
//!   replayed literally onto the checkpoint and the heap is checked.
//!
//! `tests::matches_the_literal_java_queue` checks all of this against a
//! literal `java.util.PriorityQueue` with a live comparator.

use super::java::{hash_set_capacity, hash_set_order};

/// The queue key of `client` at `load`: ordered as Kafka's
/// `Comparator.comparing(load).thenComparing(processId)`, since client
/// indices follow `ProcessId` order.
pub(super) fn key(load: f64, client: u32) -> u128 {
    (u128::from(load.to_bits()) << 32) | u128::from(client)
}

fn client_of(key: u128) -> u32 {
    key as u32
}

/// One deferred operation on the exact heap.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// `offer(client)` with this key.
    Offer(u128),
    /// A queued client's load changed to this key.
    Refresh(u128),
    /// A poll that stopped at this client; the heap was in order, so every
    /// client popped before it was invalid and only it was valid.
    PollUntil(u32),
}

/// Kafka's `ConstrainedPrioritySet` over clients (see the module docs).
pub(super) struct ConstrainedPrioritySet {
    /// The exact layout at the last checkpoint.
    heap: ExactHeap,
    /// Operations since the checkpoint, not yet applied to `heap`.
    log: Vec<Op>,
    /// Whether the current heap (checkpoint + log) is in order.
    ordered: bool,
    /// `uniqueClients` now, and each queued client's current key.
    queued: Vec<bool>,
    key_now: Vec<u128>,
    queued_count: usize,
    /// Per client, `HashMap.hash(processId.hashCode())`.
    spread_hashes: Vec<u32>,
    /// All clients sorted by hash bucket for a set of every client, and the
    /// runs of clients sharing a bucket: the refill order of a full poll,
    /// up to ordering each run by key.
    all_by_bucket: Vec<u32>,
    shared_buckets: Vec<(usize, usize)>,
    refill: Vec<u32>,
    /// Apply every operation literally (the reference mode).
    always_literal: bool,
}

impl ConstrainedPrioritySet {
    /// A reference set that applies every operation literally, step for
    /// step as Kafka does; slower, same results. Used by differential tests.
    pub(super) fn literal_only(spread_hashes: Vec<u32>) -> Self {
        Self {
            always_literal: true,
            ..Self::new(spread_hashes)
        }
    }

    pub(super) fn new(spread_hashes: Vec<u32>) -> Self {
        let n = spread_hashes.len();
        let mask = hash_set_capacity(n) as u32 - 1;
        let mut all_by_bucket: Vec<u32> = (0..n as u32).collect();
        // Stable from `0..n`, so ties stay in client order.
        crate::sort_by_key::sort_by_u64_key(&mut all_by_bucket, |&c| {
            u64::from(spread_hashes[c as usize] & mask)
        });
        let mut shared_buckets = Vec::new();
        let mut start = 0;
        while start < n {
            let bucket = spread_hashes[all_by_bucket[start] as usize] & mask;
            let mut end = start + 1;
            while end < n && spread_hashes[all_by_bucket[end] as usize] & mask == bucket {
                end += 1;
            }
            if end - start > 1 {
                shared_buckets.push((start, end));
            }
            start = end;
        }
        Self {
            heap: ExactHeap::new(spread_hashes.clone()),
            log: Vec::new(),
            ordered: true,
            queued: vec![false; n],
            key_now: vec![0; n],
            queued_count: 0,
            spread_hashes,
            all_by_bucket,
            shared_buckets,
            refill: Vec::with_capacity(n),
            always_literal: false,
        }
    }

    /// `offer(client)` of a client whose load is `load`.
    pub(super) fn offer(&mut self, client: u32, load: f64) {
        let k = key(load, client);
        if self.queued[client as usize] && self.key_now[client as usize] != k {
            // Its load changed while queued: that is a refresh first.
            self.literal(|heap| {
                heap.refresh(k);
                heap.offer(k);
            });
        } else if self.ordered && !self.always_literal {
            self.log.push(Op::Offer(k));
        } else {
            self.heap.offer(k);
        }
        self.set_queued(client, k);
    }

    /// Kafka's re-offer after a movement: both clients' loads have changed
    /// (`source` from `source_load`'s predecessor, and so on), then
    /// `offerAll(asList(source, destination))`.
    pub(super) fn reoffer(
        &mut self,
        source: u32,
        source_load: f64,
        destination: u32,
        destination_load: f64,
    ) {
        let ks = key(source_load, source);
        let kd = key(destination_load, destination);
        let changed = |set: &Self, client: u32, k: u128| {
            set.queued[client as usize] && set.key_now[client as usize] != k
        };
        let source_changed = changed(self, source, ks);
        let destination_changed = changed(self, destination, kd);
        let keeps_order = self.ordered
            && !self.always_literal
            && source != destination
            && !source_changed
            && (!destination_changed || {
                // Only the destination is out of place, and the source is
                // not queued: inserting the source compares it with the
                // destination at most, and that comparison ends the same
                // under either of the destination's keys unless the source
                // falls between them. Removing and re-inserting the
                // destination never compares its stale key.
                let old = self.key_now[destination as usize];
                let between = ks > old.min(kd) && ks < old.max(kd);
                !self.queued[source as usize] && !between
            });
        if keeps_order {
            if destination_changed {
                self.log.push(Op::Refresh(kd));
            }
            self.log.push(Op::Offer(ks));
            self.log.push(Op::Offer(kd));
        } else {
            self.literal(|heap| {
                heap.refresh(ks);
                heap.refresh(kd);
                heap.offer(ks);
                heap.offer(kd);
            });
        }
        self.set_queued(source, ks);
        self.set_queued(destination, kd);
    }

    /// `poll(task, constraint)`: the first client in pop order that is
    /// `valid`, or `None`. `candidates` must contain every valid client.
    pub(super) fn poll(
        &mut self,
        candidates: impl IntoIterator<Item = u32>,
        mut valid: impl FnMut(u32) -> bool,
    ) -> Option<u32> {
        if !self.ordered || self.always_literal {
            let found = self.literal(|heap| heap.poll(&mut valid));
            if let Some(client) = found {
                self.set_unqueued(client);
            }
            return found;
        }
        // In order, pops come in key order: the answer is the least-keyed
        // valid client, whatever the layout.
        let found = candidates
            .into_iter()
            .filter(|&c| self.queued[c as usize] && valid(c))
            .min_by_key(|&c| self.key_now[c as usize]);
        match found {
            Some(client) => {
                self.log.push(Op::PollUntil(client));
                self.set_unqueued(client);
            }
            None => self.refill_in_order(),
        }
        found
    }

    /// A poll that rejected every client on an ordered heap: the refill order
    /// is hash bucket, then key (the pop order). It becomes the checkpoint.
    fn refill_in_order(&mut self) {
        self.refill.clear();
        if self.queued_count == self.queued.len() {
            self.refill.extend_from_slice(&self.all_by_bucket);
            for &(start, end) in &self.shared_buckets {
                sort_by_key_now(&mut self.refill[start..end], &self.key_now);
            }
        } else {
            let queued = &self.queued;
            self.refill
                .extend((0..queued.len() as u32).filter(|&c| queued[c as usize]));
            sort_by_key_now(&mut self.refill, &self.key_now);
            hash_set_order(&mut self.refill, &self.spread_hashes);
        }
        self.log.clear();
        let key_now = &self.key_now;
        self.heap
            .rebuild(self.refill.iter().map(|&c| key_now[c as usize]));
    }

    /// Applies the log, then `apply`, to the exact heap, and records whether
    /// the result is in order.
    fn literal<R>(&mut self, apply: impl FnOnce(&mut ExactHeap) -> R) -> R {
        for op in self.log.drain(..) {
            match op {
                Op::Offer(k) => self.heap.offer(k),
                Op::Refresh(k) => self.heap.refresh(k),
                Op::PollUntil(client) => {
                    self.heap.poll(|c| c == client);
                }
            }
        }
        let result = apply(&mut self.heap);
        self.ordered = self.heap.is_heap();
        result
    }

    fn set_queued(&mut self, client: u32, k: u128) {
        if !self.queued[client as usize] {
            self.queued[client as usize] = true;
            self.queued_count += 1;
        }
        self.key_now[client as usize] = k;
    }

    fn set_unqueued(&mut self, client: u32) {
        if self.queued[client as usize] {
            self.queued[client as usize] = false;
            self.queued_count -= 1;
        }
    }

    /// The exact layout now (replays the log).
    #[cfg(test)]
    fn layout(&mut self) -> Vec<u32> {
        self.literal(|_| ());
        self.heap.layout()
    }

    #[cfg(test)]
    fn is_heap(&mut self) -> bool {
        self.literal(|heap| heap.is_heap())
    }
}

/// Sorts clients by their key now, as both refill orders always did (the
/// standard unstable sort). One function for both, so the module holds one
/// copy of that sort, not one per closure.
fn sort_by_key_now(clients: &mut [u32], key_now: &[u128]) {
    clients.sort_unstable_by_key(|&c| key_now[c as usize]);
}

/// `java.util.PriorityQueue` over clients with live keys, reproduced step
/// for step, plus Kafka's poll/offer protocol on top of it.
struct ExactHeap {
    /// `PriorityQueue.queue`: the heap array.
    queue: Vec<u128>,
    /// `uniqueClients`: which clients are queued.
    unique: Vec<bool>,
    /// Per client, `HashMap.hash(processId.hashCode())`.
    spread_hashes: Vec<u32>,
    rejected: Vec<(u32, u128)>,
    reoffer_order: Vec<u64>,
}

impl ExactHeap {
    fn new(spread_hashes: Vec<u32>) -> Self {
        let n = spread_hashes.len();
        Self {
            queue: Vec::with_capacity(n),
            unique: vec![false; n],
            spread_hashes,
            rejected: Vec::with_capacity(n),
            reoffer_order: Vec::with_capacity(n),
        }
    }

    /// `offer(client)`: a queued client is removed first, then (re)inserted.
    fn offer(&mut self, k: u128) {
        let client = client_of(k);
        if self.unique[client as usize] {
            self.remove(client);
        } else {
            self.unique[client as usize] = true;
        }
        self.push(k);
    }

    /// A queued client's load changed: its slot gets the new key, in place.
    fn refresh(&mut self, new_key: u128) {
        let client = client_of(new_key);
        if !self.unique[client as usize] {
            return;
        }
        if let Some(slot) = self.queue.iter_mut().find(|k| client_of(**k) == client) {
            *slot = new_key;
        }
    }

    /// `poll(task, constraint)`, literally: pop until a client is `valid`,
    /// then re-offer the rejected ones in `HashSet<ProcessId>` order.
    fn poll(&mut self, mut valid: impl FnMut(u32) -> bool) -> Option<u32> {
        self.rejected.clear();
        let mut found = None;
        while let Some(k) = self.pop() {
            let client = client_of(k);
            self.unique[client as usize] = false;
            if valid(client) {
                found = Some(client);
                break;
            }
            self.rejected.push((client, k));
        }
        self.reoffer_rejected();
        found
    }

    /// Empties the queue and offers `keys` in order.
    fn rebuild(&mut self, keys: impl Iterator<Item = u128>) {
        for &k in &self.queue {
            self.unique[client_of(k) as usize] = false;
        }
        self.queue.clear();
        for k in keys {
            self.unique[client_of(k) as usize] = true;
            self.push(k);
        }
    }

    fn reoffer_rejected(&mut self) {
        let n = self.rejected.len();
        if n > 1 {
            // `new HashSet<>()` iteration: by bucket, then insertion order.
            let mask = hash_set_capacity(n) as u32 - 1;
            let mut order = std::mem::take(&mut self.reoffer_order);
            order.clear();
            order.extend(self.rejected.iter().enumerate().map(|(i, &(client, _))| {
                (u64::from(self.spread_hashes[client as usize] & mask) << 32) | i as u64
            }));
            crate::sort_by_key::sort_u64s(&mut order);
            for &packed in &order {
                let (client, k) = self.rejected[packed as u32 as usize];
                self.unique[client as usize] = true;
                self.push(k);
            }
            self.reoffer_order = order;
        } else if let Some(&(client, k)) = self.rejected.first() {
            self.unique[client as usize] = true;
            self.push(k);
        }
    }

    fn is_heap(&self) -> bool {
        (1..self.queue.len()).all(|i| self.queue[(i - 1) >> 1] <= self.queue[i])
    }

    /// `PriorityQueue.offer`.
    fn push(&mut self, k: u128) {
        let slot = self.queue.len();
        self.queue.push(k);
        self.sift_up(slot, k);
    }

    /// `PriorityQueue.poll`.
    fn pop(&mut self) -> Option<u128> {
        let result = *self.queue.first()?;
        let last = self.queue.pop()?;
        let n = self.queue.len();
        if n > 0 {
            self.sift_down(0, last, n);
        }
        Some(result)
    }

    /// `PriorityQueue.remove(o)`: `indexOf` then `removeAt`.
    fn remove(&mut self, client: u32) {
        let Some(i) = self.queue.iter().position(|&k| client_of(k) == client) else {
            return;
        };
        let s = self.queue.len() - 1;
        let Some(moved) = self.queue.pop() else {
            return;
        };
        if s != i {
            self.sift_down(i, moved, s);
            if self.queue[i] == moved {
                self.sift_up(i, moved);
            }
        }
    }

    fn sift_up(&mut self, mut k: usize, x: u128) {
        while k > 0 {
            let parent = (k - 1) >> 1;
            let e = self.queue[parent];
            if x >= e {
                break;
            }
            self.queue[k] = e;
            k = parent;
        }
        self.queue[k] = x;
    }

    fn sift_down(&mut self, mut k: usize, x: u128, n: usize) {
        let half = n >> 1;
        while k < half {
            let mut child = (k << 1) + 1;
            let right = child + 1;
            if right < n {
                // The right child only when strictly smaller, as in Java.
                child += usize::from(self.queue[child] > self.queue[right]);
            }
            let c = self.queue[child];
            if x <= c {
                break;
            }
            self.queue[k] = c;
            k = child;
        }
        self.queue[k] = x;
    }

    #[cfg(test)]
    fn layout(&self) -> Vec<u32> {
        self.queue.iter().map(|&k| client_of(k)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::java::JavaPriorityQueue;
    use super::*;

    /// Kafka's `ConstrainedPrioritySet`, literally: a Java priority queue
    /// whose comparator reads the loads at comparison time.
    struct Literal {
        queue: JavaPriorityQueue<u32>,
        unique: Vec<bool>,
        spread: Vec<u32>,
    }

    impl Literal {
        fn cmp(loads: &[f64]) -> impl FnMut(u32, u32) -> std::cmp::Ordering + '_ {
            |a, b| {
                loads[a as usize]
                    .total_cmp(&loads[b as usize])
                    .then(a.cmp(&b))
            }
        }

        fn offer(&mut self, client: u32, loads: &[f64]) {
            if self.unique[client as usize] {
                self.queue.remove(client, &mut Self::cmp(loads));
            } else {
                self.unique[client as usize] = true;
            }
            self.queue.offer(client, &mut Self::cmp(loads));
        }

        fn poll(&mut self, loads: &[f64], mut valid: impl FnMut(u32) -> bool) -> Option<u32> {
            let mut rejected = Vec::new();
            let mut found = None;
            while let Some(c) = self.queue.poll(&mut Self::cmp(loads)) {
                self.unique[c as usize] = false;
                if valid(c) {
                    found = Some(c);
                    break;
                }
                rejected.push(c);
            }
            hash_set_order(&mut rejected, &self.spread);
            for c in rejected {
                self.unique[c as usize] = true;
                self.queue.offer(c, &mut Self::cmp(loads));
            }
            found
        }
    }

    use crate::test_rng::SplitMix64;

    /// Random Kafka-like sequences: polls with random constraints, loads
    /// that change while clients are queued, then re-offers; including full
    /// polls through the shortcut. Layouts and results must match exactly.
    #[test]
    fn matches_the_literal_java_queue() {
        let mut unordered = 0;
        for seed in 0..600 {
            let mut rng = SplitMix64::new(seed);
            let n = 1 + rng.below(if seed % 2 == 0 { 12 } else { 120 }) as usize;
            // Few distinct hashes force shared buckets now and then.
            let spread: Vec<u32> = (0..n)
                .map(|_| rng.below(if seed % 3 == 0 { 8 } else { 1 << 20 }) as u32)
                .collect();
            let capacities: Vec<u32> = (0..n).map(|_| 1 + rng.below(4) as u32).collect();
            let spread_of_counts = if seed % 4 == 1 { 40 } else { 6 };
            let mut counts: Vec<u32> = (0..n).map(|_| rng.below(spread_of_counts) as u32).collect();
            let load = |counts: &[u32], c: usize| f64::from(counts[c]) / f64::from(capacities[c]);
            let loads_of =
                |counts: &[u32]| -> Vec<f64> { (0..n).map(|c| load(counts, c)).collect() };

            let mut fast = ConstrainedPrioritySet::new(spread.clone());
            let mut literal = Literal {
                queue: JavaPriorityQueue::new(),
                unique: vec![false; n],
                spread: spread.clone(),
            };
            for c in 0..n as u32 {
                let loads = loads_of(&counts);
                fast.offer(c, loads[c as usize]);
                literal.offer(c, &loads);
            }
            for step in 0..60 {
                let loads = loads_of(&counts);
                let accept: Vec<bool> = (0..n).map(|_| rng.below(5) == 0).collect();
                let polled = if rng.below(3) == 0 {
                    let none = literal.poll(&loads, |_| false);
                    assert_eq!(fast.poll(std::iter::empty(), |_| false), None);
                    assert_eq!(none, None);
                    None
                } else {
                    let a = literal.poll(&loads, |c| accept[c as usize]);
                    let b = fast.poll(0..n as u32, |c| accept[c as usize]);
                    assert_eq!(a, b, "seed {seed} step {step}");
                    a
                };
                // Kafka's movement: the source gains a task, the destination
                // may lose one, both change while one or both are queued.
                let source = polled.unwrap_or_else(|| rng.below(n as u64) as u32);
                let destination = rng.below(n as u64) as u32;
                counts[source as usize] += 1;
                let drop = rng.below(4) as u32;
                counts[destination as usize] = counts[destination as usize].saturating_sub(drop);
                let loads = loads_of(&counts);
                fast.reoffer(
                    source,
                    loads[source as usize],
                    destination,
                    loads[destination as usize],
                );
                for c in [source, destination] {
                    literal.offer(c, &loads);
                }
                let mut cmp = Literal::cmp(&loads);
                unordered += usize::from(!literal.queue.is_heap(&mut cmp));
                // Comparing layouts replays the log; do it now and then so
                // that long logs are exercised too.
                if rng.below(8) == 0 {
                    assert_eq!(
                        fast.layout(),
                        literal.queue.array_order(),
                        "seed {seed} step {step}"
                    );
                }
            }
            assert_eq!(fast.layout(), literal.queue.array_order(), "seed {seed}");
        }
        assert!(
            unordered > 0,
            "the random cases never left the heap out of order"
        );
    }

    /// A hand-made case where Kafka's heap ends up out of order: the
    /// destination's load drops while it sits two levels above the slot
    /// where the source is inserted. Kafka then pops client 0 before the
    /// less loaded source.
    #[test]
    fn reproduces_an_out_of_order_heap() {
        let spread: Vec<u32> = (0..9).collect();
        let mut counts = [10.0, 20.0, 30.0, 40.0, 45.0, 50.0, 60.0, 70.0, 8.0];
        let mut fast = ConstrainedPrioritySet::new(spread.clone());
        let mut literal = Literal {
            queue: JavaPriorityQueue::new(),
            unique: vec![false; 9],
            spread,
        };
        for c in 0..8 {
            fast.offer(c, counts[c as usize]);
            literal.offer(c, &counts);
        }
        counts[1] = 5.0;
        fast.reoffer(8, counts[8], 1, counts[1]);
        for c in [8, 1] {
            literal.offer(c, &counts);
        }
        assert_eq!(fast.layout(), literal.queue.array_order());
        assert_eq!(fast.layout(), [1, 0, 2, 8, 4, 5, 6, 7, 3]);
        assert!(!fast.is_heap());
        let mut order = Vec::new();
        while let Some(c) = fast.poll(0..9, |c| !order.contains(&c) && c != 1) {
            order.push(c);
            fast.offer(c, counts[c as usize] + 1000.0);
        }
        assert_eq!(
            order[..2],
            [0, 8],
            "client 0 (load 10) pops before client 8 (load 8)"
        );
        fast.poll(std::iter::empty(), |_| false);
        literal.poll(&counts, |_| false);
        assert_eq!(fast.layout(), literal.queue.array_order());
    }
}
