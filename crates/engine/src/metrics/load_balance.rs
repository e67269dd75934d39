//! The balance checks behind "healthy" (the parent module's definitions):
//! the live workers' running tasks balanced by capacity, and per-worker
//! counts within one of each other.

/// `count / capacity` as an exact fraction, ordered by value.
#[derive(Clone, Copy, Debug)]
pub(super) struct Load {
    pub(super) count: i64,
    pub(super) capacity: u32,
}

impl PartialEq for Load {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for Load {}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (i128::from(self.count) * i128::from(other.capacity))
            .cmp(&(i128::from(other.count) * i128::from(self.capacity)))
    }
}

/// The live workers' running tasks are balanced by capacity, as
/// `HighAvailabilityTaskAssignor.balanceTasksOverThreads` leaves them: no
/// task could move from one worker to another and lower the skew, that is
/// for every pair (n₁ − 1)/c₁ < (n₂ + 1)/c₂. With one thread per worker
/// this is "counts differ by at most one".
#[derive(Default)]
pub(super) struct CapacityBalance {
    /// (n − 1)/c per live worker.
    less_one: LoadCounts,
    /// (n + 1)/c per live worker.
    plus_one: LoadCounts,
}

impl CapacityBalance {
    pub(super) fn change(&mut self, count: i64, capacity: u32, by: i32) {
        let capacity = capacity.max(1);
        for (counts, d) in [(&mut self.less_one, -1), (&mut self.plus_one, 1)] {
            let key = Load {
                count: count + d,
                capacity,
            };
            counts.change(key, by);
        }
    }

    pub(super) fn balanced(&self) -> bool {
        match (self.less_one.max(), self.plus_one.min()) {
            (Some(hi), Some(lo)) => hi < lo,
            _ => true,
        }
    }
}

/// A multiset of loads: `(load, how many)` sorted by load, without zero
/// counts. A few distinct values at a time (counts differ by a few), so a
/// sorted list; one type for the capacity balance and the plain counts
/// (a count is a load of capacity 1) rather than a B-tree for each.
#[derive(Default)]
struct LoadCounts(Vec<(Load, u32)>);

impl LoadCounts {
    /// Adds `by` (negative: removes) copies of `load`, saturating at none.
    fn change(&mut self, load: Load, by: i32) {
        match self.0.binary_search_by(|(l, _)| l.cmp(&load)) {
            Ok(i) => {
                let n = self.0[i].1.saturating_add_signed(by);
                if n == 0 {
                    self.0.remove(i);
                } else {
                    self.0[i].1 = n;
                }
            }
            Err(i) => {
                let n = 0u32.saturating_add_signed(by);
                if n != 0 {
                    self.0.insert(i, (load, n));
                }
            }
        }
    }

    fn min(&self) -> Option<Load> {
        self.0.first().map(|&(l, _)| l)
    }

    fn max(&self) -> Option<Load> {
        self.0.last().map(|&(l, _)| l)
    }
}

/// A multiset of per-worker counts, for max − min.
#[derive(Default)]
pub(super) struct Counts(LoadCounts);

impl Counts {
    fn count(v: i64) -> Load {
        Load {
            count: v,
            capacity: 1,
        }
    }
    pub(super) fn add(&mut self, v: i64) {
        self.0.change(Self::count(v), 1);
    }
    pub(super) fn remove(&mut self, v: i64) {
        self.0.change(Self::count(v), -1);
    }
    pub(super) fn spread(&self) -> i64 {
        match (self.0.min(), self.0.max()) {
            (Some(lo), Some(hi)) => hi.count - lo.count,
            _ => 0,
        }
    }
}
