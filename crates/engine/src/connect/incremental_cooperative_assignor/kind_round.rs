//! One kind of work (connectors, or tasks) in one round of
//! `performTaskAssignment`, over dense slot numbers: the base sets, the
//! deleted / duplicated / lost / created sets, the mandatory revocations
//! (`toRevoke`), the skeleton of the next assignment and the bookkeeping of the
//! next `previousAssignment` and `previousRevocation`.

use crate::connect::assignment::{ConfiguredWork, MemberHoldings};
use crate::connect::work_slots::{SlotUniverse, WorkItem};

/// The configured connectors as slot ranges (one key each).
pub(super) fn connector_ranges(configured: &ConfiguredWork) -> Vec<(u32, u32)> {
    configured
        .connectors
        .iter()
        .map(|&(c, _)| (c.0, 1))
        .collect()
}

/// The configured tasks as slot ranges (`count` indices per connector).
pub(super) fn task_ranges(configured: &ConfiguredWork) -> Vec<(u32, u32)> {
    configured
        .connectors
        .iter()
        .map(|&(c, n)| (c.0, n))
        .collect()
}

/// Slot flags.
const CONFIGURED: u8 = 1;
/// In the previous assignment P.
const PREVIOUS: u8 = 2;
/// Reported by at least one member.
const ACTIVE: u8 = 4;
/// Reported more than once.
const DUPLICATED: u8 = 8;
/// In the next assignment (step 10 bookkeeping).
const NEXT: u8 = 16;

/// True for previously assigned work that is no longer configured.
#[inline]
fn deleted(flags: u8) -> bool {
    flags & PREVIOUS != 0 && flags & CONFIGURED == 0
}

/// True for an item every holder must give up now: deleted, or duplicated
/// (held by two members) when `duplicates` is [`DUPLICATED`] (KAFKA-9841
/// revokes every copy; before it, `duplicates` is 0).
#[inline]
fn must_revoke(flags: u8, duplicates: u8) -> bool {
    flags & duplicates != 0 || deleted(flags)
}
/// One kind of work (connectors, or tasks) in one round. Kafka treats the two
/// kinds identically and independently, except where step 7 and step 8 look
/// at both (emptiness of a worker, whether anything is revoked).
pub(super) struct KindRound<T: WorkItem> {
    universe: SlotUniverse,
    flags: Vec<u8>,
    /// [`DUPLICATED`] when duplicated work is revoked (KAFKA-9841), else 0.
    duplicates: u8,
    /// Number of configured items.
    pub(super) configured: usize,
    /// Number of distinct items members report, deleted ones included
    /// (`activeAssignments`, the totals of the revocation before KAFKA-12495).
    pub(super) active: usize,
    pub(super) deleted: Vec<T>,
    /// Work reported more than once (revoked only with KAFKA-9841).
    pub(super) duplicated: Vec<T>,
    pub(super) lost: Vec<T>,
    pub(super) created: Vec<T>,
    /// Lost work to hand out like created work (`lostAssignmentsToReassign`).
    pub(super) lost_to_reassign: Vec<T>,
    /// Per member: held items that stay in `next` (owned minus mandatory revocations).
    pub(super) kept: Vec<usize>,
    /// Per member: held items not deleted (`currentWorkerAssignment`,
    /// duplicated copies included).
    pub(super) current: Vec<usize>,
    /// Per member: how many of those a load-balancing revocation took (always
    /// the head of the kept list).
    pub(super) kept_revoked: Vec<usize>,
    /// Per member: the items appended to `next` — lost work dealt to a
    /// candidate, then new work — which is exactly the member's newly assigned
    /// list (`next − current`), in Kafka's order.
    pub(super) assigned: Vec<Vec<T>>,
    /// Per member: `toRevoke` — deleted and duplicated copies, then load-balancing revocations.
    pub(super) revoked: Vec<Vec<T>>,
    /// The slot of every held item, all members concatenated in input and
    /// holdings order; member `w`'s are `held_slots[held_start[w]..held_start[w + 1]]`.
    held_slots: Vec<u32>,
    held_start: Vec<usize>,
}

impl<T: WorkItem> KindRound<T> {
    /// Step 1: numbers every configured, reported and remembered item and
    /// flags the configured, previous, active and duplicated ones.
    pub(super) fn new(
        configured_ranges: &[(u32, u32)],
        members: &[MemberHoldings],
        previous: &[T],
        revoke_duplicates: bool,
    ) -> Self {
        let mut lists: Vec<&[T]> = members.iter().map(T::held).collect();
        lists.push(previous);
        let universe = SlotUniverse::new(configured_ranges, &lists);
        let mut flags = vec![0u8; universe.len()];
        universe.mark_ranges(configured_ranges, &mut flags, CONFIGURED);
        // Every item passed to the universe has a slot.
        let slot = |item: T| universe.slot(item.key()).unwrap_or_default();
        for &item in previous {
            flags[slot(item)] |= PREVIOUS;
        }
        let mut held_slots = Vec::with_capacity(lists.iter().map(|l| l.len()).sum());
        let mut held_start = Vec::with_capacity(members.len() + 1);
        held_start.push(0);
        for member in members {
            for &item in T::held(member) {
                let s = slot(item);
                let f = &mut flags[s];
                if *f & ACTIVE != 0 {
                    *f |= DUPLICATED;
                }
                *f |= ACTIVE;
                held_slots.push(s as u32);
            }
            held_start.push(held_slots.len());
        }
        let m = members.len();
        Self {
            universe,
            flags,
            duplicates: if revoke_duplicates { DUPLICATED } else { 0 },
            configured: 0,
            active: 0,
            deleted: Vec::new(),
            duplicated: Vec::new(),
            lost: Vec::new(),
            created: Vec::new(),
            lost_to_reassign: Vec::new(),
            kept: vec![0; m],
            current: vec![0; m],
            kept_revoked: vec![0; m],
            assigned: vec![Vec::new(); m],
            revoked: vec![Vec::new(); m],
            held_slots,
            held_start,
        }
    }

    /// Member `w`'s held items with their slots, in holdings order.
    #[inline]
    fn held<'m>(
        &'m self,
        w: usize,
        member: &'m MemberHoldings,
    ) -> impl Iterator<Item = (T, usize)> + 'm {
        let slots = &self.held_slots[self.held_start[w]..self.held_start[w + 1]];
        T::held(member)
            .iter()
            .zip(slots)
            .map(|(&item, &slot)| (item, slot as usize))
    }

    #[inline]
    fn slot(&self, item: T) -> usize {
        self.universe.slot(item.key()).unwrap_or_default()
    }

    /// Whether any of `items` is reported by a member.
    pub(super) fn any_active(&self, items: &[T]) -> bool {
        items.iter().any(|&item| {
            self.universe
                .slot(item.key())
                .is_some_and(|s| self.flags[s] & ACTIVE != 0)
        })
    }

    /// Step 2: P := active.
    pub(super) fn replace_previous_with_active(&mut self) {
        for f in &mut self.flags {
            *f = if *f & ACTIVE != 0 {
                *f | PREVIOUS
            } else {
                *f & !PREVIOUS
            };
        }
    }

    /// Step 3: deleted = P − configured; duplicated; lost = P − active −
    /// deleted; created = configured − P − active. All sorted, as Kafka's
    /// `TreeSet`s are.
    pub(super) fn classify(&mut self) {
        let (mut configured, mut active_count) = (0, 0);
        let (mut deleted, mut duplicated, mut lost, mut created) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        self.universe.scan(
            &self.flags,
            |f| f != 0,
            |_, key, f| {
                let item = T::from_key(key);
                let is_configured = f & CONFIGURED != 0;
                let previous = f & PREVIOUS != 0;
                let active = f & ACTIVE != 0;
                if is_configured {
                    configured += 1;
                }
                if active {
                    active_count += 1;
                }
                if previous && !is_configured {
                    deleted.push(item);
                }
                if f & DUPLICATED != 0 {
                    duplicated.push(item);
                }
                if previous && !active && is_configured {
                    lost.push(item);
                }
                if is_configured && !previous && !active {
                    created.push(item);
                }
            },
        );
        self.configured = configured;
        self.active = active_count;
        self.deleted = deleted;
        self.duplicated = duplicated;
        self.lost = lost;
        self.created = created;
    }

    /// Steps 4–6: `toRevoke[w]` = owned(w) ∩ (deleted ∪ duplicated); `next[w]`
    /// = owned(w) − toRevoke[w], kept in holdings order (only its length is
    /// stored; the items are re-read from the holdings when needed).
    pub(super) fn build_skeleton(&mut self, members: &[MemberHoldings]) {
        for (w, member) in members.iter().enumerate() {
            let (mut kept, mut current) = (0, 0);
            let mut revoked = Vec::new();
            for (item, slot) in self.held(w, member) {
                let f = self.flags[slot];
                if !deleted(f) {
                    current += 1;
                }
                if must_revoke(f, self.duplicates) {
                    revoked.push(item);
                } else {
                    kept += 1;
                }
            }
            self.kept[w] = kept;
            self.current[w] = current;
            self.revoked[w] = revoked;
        }
    }

    /// The items of `next[w]` that come from the member's holdings, in order
    /// (before any load-balancing revocation).
    #[inline]
    pub(super) fn kept_items<'m>(
        &'m self,
        w: usize,
        member: &'m MemberHoldings,
    ) -> impl Iterator<Item = (T, usize)> + 'm {
        self.held(w, member)
            .filter(move |&(_, slot)| !must_revoke(self.flags[slot], self.duplicates))
    }

    /// The current size of `next[w]`.
    #[inline]
    pub(super) fn next_len(&self, w: usize) -> usize {
        self.kept[w] - self.kept_revoked[w] + self.assigned[w].len()
    }

    /// True when the next assignments differ by at most one item per member.
    pub(super) fn next_is_even(&self) -> bool {
        let loads = (0..self.kept.len()).map(|w| self.next_len(w));
        let (lo, hi) = loads.fold((usize::MAX, 0), |(lo, hi), l| (lo.min(l), hi.max(l)));
        hi <= lo.saturating_add(1)
    }

    /// The size of `completeWorkerAssignment[w]` before KAFKA-12495: held
    /// work minus deleted work plus what was dealt to it; duplicated copies
    /// and load-balancing revocations still count.
    #[inline]
    pub(super) fn complete_len(&self, w: usize) -> usize {
        self.current[w] + self.assigned[w].len()
    }

    /// Step 10: P := ∪ next − revoked ∪ lost, sorted.
    pub(super) fn next_previous_assignment(&mut self, members: &[MemberHoldings]) -> Vec<T> {
        for w in 0..members.len() {
            // The kept holdings minus the load-balancing head, by slot; the
            // NEXT bit does not affect `must_revoke`, so flags can be updated
            // in the same pass.
            let mut skip = self.kept_revoked[w];
            for i in self.held_start[w]..self.held_start[w + 1] {
                let slot = self.held_slots[i] as usize;
                if must_revoke(self.flags[slot], self.duplicates) {
                    continue;
                }
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                self.flags[slot] |= NEXT;
            }
            for i in 0..self.assigned[w].len() {
                let slot = self.slot(self.assigned[w][i]);
                self.flags[slot] |= NEXT;
            }
        }
        for w in 0..members.len() {
            for i in 0..self.revoked[w].len() {
                let s = self.slot(self.revoked[w][i]);
                self.flags[s] &= !NEXT;
            }
        }
        for i in 0..self.lost.len() {
            let s = self.slot(self.lost[i]);
            self.flags[s] |= NEXT;
        }
        let mut previous = Vec::with_capacity(self.flags.len());
        self.universe.scan(
            &self.flags,
            |f| f & NEXT != 0,
            |_, key, _| previous.push(T::from_key(key)),
        );
        previous
    }

    /// Everything revoked this round, sorted (the next round's PR).
    pub(super) fn all_revoked(&self) -> Vec<T> {
        let mut all: Vec<T> = self.revoked.iter().flatten().copied().collect();
        crate::connect::work_slots::sort_items(&mut all);
        all.dedup();
        all
    }
}
