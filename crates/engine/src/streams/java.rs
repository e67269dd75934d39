//! The few `java.util` behaviours that decide Kafka's ties.
//!
//! Kafka's `HighAvailabilityTaskAssignor` keeps clients in a
//! `ConstrainedPrioritySet`: a `PriorityQueue` whose comparator reads each
//! client's *current* load. When a load changes while the client sits in the
//! heap, the heap can end up out of order, and later polls then return a
//! client that is not the least loaded. Kafka's output includes those
//! effects, so [`JavaPriorityQueue`] reproduces `java.util.PriorityQueue`'s
//! `siftUp`/`siftDown`/`removeAt` step for step with a live comparator, and
//! rejected clients are re-offered in Java `HashSet<ProcessId>` iteration
//! order ([`hash_set_order`]), as Kafka does. Equal elements leave a
//! `PriorityQueue` in an order that depends on its layout, which matters for
//! `TaskMovement`s of the same task; the exact heap reproduces that too.

use std::cmp::Ordering;

/// `java.util.PriorityQueue<E>` with an external comparator evaluated at
/// every comparison, so that elements whose keys changed behave as in Java.
#[derive(Clone, Debug, Default)]
pub(crate) struct JavaPriorityQueue<T> {
    queue: Vec<T>,
}

impl<T: Copy + PartialEq> JavaPriorityQueue<T> {
    pub(crate) fn new() -> Self {
        Self { queue: Vec::new() }
    }

    pub(crate) fn len(&self) -> usize {
        self.queue.len()
    }

    /// `new PriorityQueue<>(collection)` from a collection that is neither
    /// a `SortedSet` nor a `PriorityQueue`: its elements in iteration order,
    /// then `heapify()` (`siftDown` from the last parent to the root).
    pub(super) fn heapified(items: Vec<T>, cmp: &mut impl FnMut(T, T) -> Ordering) -> Self {
        let mut pq = Self { queue: items };
        let n = pq.queue.len();
        for i in (0..n / 2).rev() {
            let x = pq.queue[i];
            pq.sift_down(i, x, n, cmp);
        }
        pq
    }

    /// True when no element is left.
    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// `contains(o)`.
    pub(super) fn contains(&self, o: T) -> bool {
        self.queue.contains(&o)
    }

    /// The backing array: the order of Java's `PriorityQueue.iterator()`.
    pub(super) fn array_order(&self) -> &[T] {
        &self.queue
    }

    /// `offer(e)`: append, then `siftUp`.
    pub(crate) fn offer(&mut self, x: T, cmp: &mut impl FnMut(T, T) -> Ordering) {
        let k = self.queue.len();
        self.queue.push(x);
        self.sift_up(k, x, cmp);
    }

    /// `poll()`: take the root, move the last element to the root and
    /// `siftDown`.
    pub(crate) fn poll(&mut self, cmp: &mut impl FnMut(T, T) -> Ordering) -> Option<T> {
        let result = *self.queue.first()?;
        let last = self.queue.pop()?;
        let n = self.queue.len();
        if n > 0 {
            self.sift_down(0, last, n, cmp);
        }
        Some(result)
    }

    /// `remove(o)`: find the first equal element (`indexOf`) and `removeAt`
    /// it. Returns whether it was present.
    pub(super) fn remove(&mut self, o: T, cmp: &mut impl FnMut(T, T) -> Ordering) -> bool {
        let Some(i) = self.queue.iter().position(|e| *e == o) else {
            return false;
        };
        let s = self.queue.len() - 1;
        let moved = self.queue.pop().unwrap_or(o);
        if s != i {
            self.sift_down(i, moved, s, cmp);
            if self.queue[i] == moved {
                self.sift_up(i, moved, cmp);
            }
        }
        true
    }

    /// `siftUpUsingComparator`.
    fn sift_up(&mut self, mut k: usize, x: T, cmp: &mut impl FnMut(T, T) -> Ordering) {
        while k > 0 {
            let parent = (k - 1) >> 1;
            let e = self.queue[parent];
            if cmp(x, e) != Ordering::Less {
                break;
            }
            self.queue[k] = e;
            k = parent;
        }
        self.queue[k] = x;
    }

    /// `siftDownUsingComparator` over the first `n` slots.
    fn sift_down(&mut self, mut k: usize, x: T, n: usize, cmp: &mut impl FnMut(T, T) -> Ordering) {
        let half = n >> 1;
        while k < half {
            let mut child = (k << 1) + 1;
            let mut c = self.queue[child];
            let right = child + 1;
            if right < n && cmp(c, self.queue[right]) == Ordering::Greater {
                child = right;
                c = self.queue[child];
            }
            if cmp(x, c) != Ordering::Greater {
                break;
            }
            self.queue[k] = c;
            k = child;
        }
        self.queue[k] = x;
    }

    /// True when every parent compares ≤ its children under `cmp` now.
    #[cfg(test)]
    pub(super) fn is_heap(&self, cmp: &mut impl FnMut(T, T) -> Ordering) -> bool {
        (1..self.queue.len())
            .all(|i| cmp(self.queue[(i - 1) >> 1], self.queue[i]) != Ordering::Greater)
    }
}

/// Java's `String.hashCode()`: `s[0]·31^(n−1) + … + s[n−1]` over UTF-16
/// code units, wrapping. Kafka iterates `HashSet<String>`s of member ids in
/// an order derived from it.
pub(super) fn string_hash_code(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, unit| {
        h.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// Java's `HashMap.hash`: the key's `hashCode` with its high half folded in.
pub(super) fn spread(hash_code: i32) -> u32 {
    let h = hash_code as u32;
    h ^ (h >> 16)
}

/// The table size of a `new HashSet<>()` after `n` additions: 16, doubled
/// whenever the size exceeds 0.75 × capacity.
pub(super) fn hash_set_capacity(n: usize) -> usize {
    let mut capacity = 16;
    while n > capacity / 4 * 3 {
        capacity *= 2;
    }
    capacity
}

/// Reorders `items` (given in insertion order) into the iteration order of a
/// `new HashSet<>()` they were added to: ascending bucket
/// `spread(hashCode) & (capacity − 1)`, insertion order within a bucket
/// (resizes split buckets without reordering). Bins that Java would turn
/// into trees (9+ keys in one bucket of a table of 64+) are not modelled;
/// with `ProcessId` hashes that needs implausibly many colliding clients.
pub(super) fn hash_set_order(items: &mut [u32], spread_hash: &[u32]) {
    if items.len() < 2 {
        return;
    }
    let mask = hash_set_capacity(items.len()) as u32 - 1;
    crate::sort_by_key::sort_by_u64_key(items, |&item| {
        u64::from(spread_hash[item as usize] & mask)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn natural(a: u32, b: u32) -> Ordering {
        a.cmp(&b)
    }

    #[test]
    fn array_order_is_the_heap_layout_not_sorted_order() {
        let mut pq = JavaPriorityQueue::new();
        for x in [5, 3, 4, 1, 2] {
            pq.offer(x, &mut natural);
        }
        // Java: offer 5,3,4,1,2 -> [1, 2, 4, 5, 3].
        assert_eq!(pq.array_order(), &[1, 2, 4, 5, 3]);
        let mut polled = Vec::new();
        while let Some(x) = pq.poll(&mut natural) {
            polled.push(x);
        }
        assert_eq!(polled, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn remove_at_sifts_the_moved_element_both_ways() {
        let mut pq = JavaPriorityQueue::new();
        for x in [1, 10, 2, 11, 12, 3, 4] {
            pq.offer(x, &mut natural);
        }
        assert_eq!(pq.array_order(), &[1, 10, 2, 11, 12, 3, 4]);
        // Removing 11 moves the last element (4) into its slot, then up past 10.
        assert!(pq.remove(11, &mut natural));
        assert_eq!(pq.array_order(), &[1, 4, 2, 10, 12, 3]);
        assert!(!pq.remove(99, &mut natural));
        assert!(pq.is_heap(&mut natural));
    }

    #[test]
    fn heapify_sifts_down_from_the_last_parent() {
        // Java: new PriorityQueue<>(List.of(5, 3, 4, 1, 2)) -> [1, 2, 4, 3, 5].
        let pq = JavaPriorityQueue::heapified(vec![5, 3, 4, 1, 2], &mut natural);
        assert_eq!(pq.array_order(), &[1, 2, 4, 3, 5]);
        let sorted = JavaPriorityQueue::heapified(vec![1, 2, 3, 4], &mut natural);
        assert_eq!(sorted.array_order(), &[1, 2, 3, 4]);
        assert!(pq.contains(4) && !pq.contains(9));
    }

    #[test]
    fn string_hash_code_is_javas() {
        // "abc".hashCode() == 96354; "".hashCode() == 0.
        assert_eq!(string_hash_code("abc"), 96_354);
        assert_eq!(string_hash_code(""), 0);
        // Overflow wraps as in Java: "polygenelubricants".hashCode() == Integer.MIN_VALUE.
        assert_eq!(string_hash_code("polygenelubricants"), i32::MIN);
    }

    #[test]
    fn hash_set_order_follows_buckets_then_insertion() {
        assert_eq!(hash_set_capacity(12), 16);
        assert_eq!(hash_set_capacity(13), 32);
        assert_eq!(hash_set_capacity(193), 512);
        // Items 0..3 with hashes 17, 1, 16: buckets 1, 1, 0 in a 16-table.
        let spread_hash = [17, 1, 16];
        let mut items = [0, 1, 2];
        hash_set_order(&mut items, &spread_hash);
        assert_eq!(items, [2, 0, 1]);
        assert_eq!(spread(0x0001_0000), 0x0001_0001);
    }
}
