//! A deterministic future-event list: events fire in (time, insertion) order,
//! so two events at the same millisecond keep the order they were scheduled in.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Pending events, earliest first; ties broken by scheduling order.
#[derive(Debug)]
pub(crate) struct EventQueue<E> {
    heap: BinaryHeap<Scheduled<E>>,
    next_seq: u64,
}

#[derive(Debug)]
struct Scheduled<E> {
    at_ms: u64,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Scheduled<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.at_ms, self.seq) == (other.at_ms, other.seq)
    }
}

impl<E> Eq for Scheduled<E> {}

impl<E> PartialOrd for Scheduled<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Scheduled<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at_ms, other.seq).cmp(&(self.at_ms, self.seq))
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub(crate) fn new() -> Self {
        Self {
            heap: BinaryHeap::new(),
            next_seq: 0,
        }
    }

    /// Schedules `event` at `at_ms`.
    pub(crate) fn schedule(&mut self, at_ms: u64, event: E) {
        self.heap.push(Scheduled {
            at_ms,
            seq: self.next_seq,
            event,
        });
        self.next_seq += 1;
    }

    /// Removes and returns the earliest event.
    pub(crate) fn pop(&mut self) -> Option<(u64, E)> {
        self.heap.pop().map(|s| (s.at_ms, s.event))
    }

    /// The time of the earliest event.
    pub(crate) fn peek_time(&self) -> Option<u64> {
        self.heap.peek().map(|s| s.at_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_then_fifo() {
        let mut q = EventQueue::new();
        q.schedule(5, "b");
        q.schedule(1, "a");
        q.schedule(5, "c");
        assert_eq!(q.peek_time(), Some(1));
        assert_eq!(q.pop(), Some((1, "a")));
        assert_eq!(q.pop(), Some((5, "b")));
        assert_eq!(q.pop(), Some((5, "c")));
        assert_eq!(q.pop(), None);
    }
}
