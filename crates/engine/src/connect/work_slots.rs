//! Dense numbering of the connectors and tasks one assignor round looks at.
//!
//! The incremental cooperative assignor works with set differences over all
//! configured, reported and remembered work (the `configured`, `active`,
//! `deleted`, `lost` and `created` sets of `performTaskAssignment`). At 100,000
//! tasks, hashing every id several times per round is the cost that makes
//! Kafka's own assignor slow; here every item gets a *slot*, a small integer
//! whose order equals the item's order (connector name, then task index), so
//! sets become flag arrays and a scan over the slots yields items sorted the
//! way Kafka's `TreeSet`s sort them.

use super::assignment::MemberHoldings;
use super::ids::{ConnectorId, TaskId};

/// A connector or a task, as a 64-bit key whose order is the item's order.
///
/// The high 32 bits are a *group* (the connector), the low 32 bits an index
/// within it (the task index; 0 for a connector).
pub(crate) trait WorkItem: Copy + Ord + std::fmt::Debug {
    /// The item's key.
    fn key(self) -> u64;
    /// The item with this key.
    fn from_key(key: u64) -> Self;
    /// The items of this kind a member holds, in holdings order.
    fn held(member: &MemberHoldings) -> &[Self];
}

/// Sorts connectors or tasks ascending through their keys: one `u64` sort
/// for both kinds (equal keys are equal items).
pub(crate) fn sort_items<T: WorkItem>(items: &mut [T]) {
    let mut keys: Vec<u64> = items.iter().map(|&x| x.key()).collect();
    crate::sort_by_key::sort_u64s(&mut keys);
    for (slot, key) in items.iter_mut().zip(keys) {
        *slot = T::from_key(key);
    }
}

impl WorkItem for ConnectorId {
    #[inline]
    fn key(self) -> u64 {
        u64::from(self.0) << 32
    }
    #[inline]
    fn from_key(key: u64) -> Self {
        ConnectorId((key >> 32) as u32)
    }
    #[inline]
    fn held(member: &MemberHoldings) -> &[Self] {
        &member.connectors
    }
}

impl WorkItem for TaskId {
    #[inline]
    fn key(self) -> u64 {
        self.packed()
    }
    #[inline]
    fn from_key(key: u64) -> Self {
        TaskId {
            connector: ConnectorId((key >> 32) as u32),
            index: key as u32,
        }
    }
    #[inline]
    fn held(member: &MemberHoldings) -> &[Self] {
        &member.tasks
    }
}

/// Keys of one kind, numbered densely in key order.
#[derive(Clone, Debug)]
pub(crate) enum SlotUniverse {
    /// Usual case: per group, the indices `0..span` are all slots.
    /// `base[g]..base[g + 1]` are the slots of group `g`.
    Dense { base: Vec<u32> },
    /// Fallback when ids are too sparse for [`SlotUniverse::Dense`] (for
    /// example a task index in the millions): the sorted distinct keys.
    Sparse { keys: Vec<u64> },
}

impl SlotUniverse {
    /// Numbers every item of `lists` and every key of `ranges`, where a range
    /// `(group, span)` stands for the keys `group:0 ..= group:span-1` (the
    /// configured tasks of a connector).
    pub(crate) fn new<T: WorkItem>(ranges: &[(u32, u32)], lists: &[&[T]]) -> Self {
        let individual: usize = lists.iter().map(|k| k.len()).sum();
        let ranged: usize = ranges.iter().map(|r| r.1 as usize).sum();
        // Dense numbering may also number indices nobody mentions; allow that
        // only while it stays proportional to the real work.
        let budget = 4 * (individual + ranged) + 1024;
        let keys = || lists.iter().flat_map(|l| l.iter().map(|item| item.key()));
        let mut max_group = ranges.iter().map(|r| r.0).max();
        for list in lists {
            for item in *list {
                let group = (item.key() >> 32) as u32;
                max_group = Some(max_group.map_or(group, |g| g.max(group)));
            }
        }
        let Some(max_group) = max_group else {
            return SlotUniverse::Dense { base: vec![0] };
        };
        if (max_group as usize) < budget {
            let groups = max_group as usize + 1;
            let mut span = vec![0u64; groups];
            for &(group, n) in ranges {
                let s = &mut span[group as usize];
                *s = (*s).max(u64::from(n));
            }
            for list in lists {
                for item in *list {
                    let key = item.key();
                    let s = &mut span[(key >> 32) as usize];
                    *s = (*s).max(u64::from(key as u32) + 1);
                }
            }
            let total: u64 = span.iter().sum();
            if total <= budget as u64 {
                let mut base = Vec::with_capacity(groups + 1);
                let mut next = 0u32;
                base.push(0);
                for s in span {
                    next += s as u32;
                    base.push(next);
                }
                return SlotUniverse::Dense { base };
            }
        }
        let mut sorted: Vec<u64> = Vec::with_capacity(individual + ranged);
        for &(group, n) in ranges {
            sorted.extend((0..n).map(|i| (u64::from(group) << 32) | u64::from(i)));
        }
        sorted.extend(keys());
        crate::sort_by_key::sort_u64s(&mut sorted);
        sorted.dedup();
        SlotUniverse::Sparse { keys: sorted }
    }

    /// Number of slots.
    pub(crate) fn len(&self) -> usize {
        match self {
            SlotUniverse::Dense { base } => base.last().copied().unwrap_or(0) as usize,
            SlotUniverse::Sparse { keys } => keys.len(),
        }
    }

    /// The slot of `key`, if the universe covers it.
    #[inline]
    pub(crate) fn slot(&self, key: u64) -> Option<usize> {
        match self {
            SlotUniverse::Dense { base } => {
                let group = (key >> 32) as usize;
                let index = u64::from(key as u32);
                let start = u64::from(*base.get(group)?);
                let end = u64::from(*base.get(group + 1)?);
                (start + index < end).then_some((start + index) as usize)
            }
            SlotUniverse::Sparse { keys } => keys.binary_search(&key).ok(),
        }
    }

    /// Sets `bit` in the flags of every key of `ranges` (`(group, span)` as in
    /// [`SlotUniverse::new`]).
    pub(crate) fn mark_ranges(&self, ranges: &[(u32, u32)], flags: &mut [u8], bit: u8) {
        for &(group, n) in ranges {
            match self {
                SlotUniverse::Dense { base } => {
                    // `new` gave the group at least `n` slots.
                    let start = base[group as usize] as usize;
                    for f in &mut flags[start..start + n as usize] {
                        *f |= bit;
                    }
                }
                SlotUniverse::Sparse { .. } => {
                    for index in 0..n {
                        if let Some(s) = self.slot((u64::from(group) << 32) | u64::from(index)) {
                            flags[s] |= bit;
                        }
                    }
                }
            }
        }
    }

    /// Calls `f(slot, key, flags[slot])` for every slot whose flags satisfy
    /// `keep`, in key order.
    pub(crate) fn scan(
        &self,
        flags: &[u8],
        keep: impl Fn(u8) -> bool,
        mut f: impl FnMut(usize, u64, u8),
    ) {
        match self {
            SlotUniverse::Dense { base } => {
                for (group, w) in base.windows(2).enumerate() {
                    let (start, end) = (w[0] as usize, w[1] as usize);
                    for (index, &flag) in flags[start..end].iter().enumerate() {
                        if keep(flag) {
                            f(start + index, ((group as u64) << 32) | index as u64, flag);
                        }
                    }
                }
            }
            SlotUniverse::Sparse { keys } => {
                for (slot, (&key, &flag)) in keys.iter().zip(flags).enumerate() {
                    if keep(flag) {
                        f(slot, key, flag);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_slots_follow_key_order() {
        let held = [TaskId {
            connector: ConnectorId(0),
            index: 5,
        }];
        let u = SlotUniverse::new(&[(0, 2), (2, 3)], &[&held]);
        assert!(matches!(u, SlotUniverse::Dense { .. }));
        assert_eq!(u.len(), 9); // 0:0..=5, 2:0..=2
        let flags = vec![1u8; u.len()];
        let mut seen = Vec::new();
        u.scan(
            &flags,
            |f| f != 0,
            |slot, key, _| seen.push((slot, TaskId::from_key(key))),
        );
        let order: Vec<usize> = seen.iter().map(|s| s.0).collect();
        assert_eq!(order, (0..9).collect::<Vec<_>>());
        assert!(seen.windows(2).all(|w| w[0].1 < w[1].1));
        for (slot, task) in seen {
            assert_eq!(u.slot(task.key()), Some(slot));
        }
        assert_eq!(
            u.slot(TaskId::key(TaskId {
                connector: ConnectorId(1),
                index: 0
            })),
            None
        );
    }

    #[test]
    fn sparse_ids_fall_back() {
        let held = [
            TaskId {
                connector: ConnectorId(0),
                index: 4_000_000_000,
            },
            TaskId {
                connector: ConnectorId(7),
                index: 0,
            },
        ];
        let u = SlotUniverse::new(&[(0, 1)], &[&held]);
        assert!(matches!(u, SlotUniverse::Sparse { .. }));
        assert_eq!(u.len(), 3);
        assert_eq!(u.slot(held[0].key()), Some(1));
        assert_eq!(u.slot(0), Some(0));
    }
}
