//! The engine's sorts, natively and in WebAssembly, with few copies of the
//! standard library's sort between them: each `sort`/`sort_by_key`/
//! `sort_unstable` on a new element type or comparator closure is another
//! monomorphised copy (3–6 KB of WebAssembly each; the simulator had 43).
//! Here the standard sort runs on three element types only: `(u64, usize)`
//! pairs ([`sort_by_u64_key`]), `u64`s ([`sort_u64s`]) and `usize` positions
//! compared through one `&dyn Fn` ([`stable_order`], behind
//! [`sort_stable_by`]). Short slices, the common case inside the assignors,
//! are sorted in place by an insertion sort instead (a few hundred bytes per
//! element type, and no allocation).

use std::cmp::Ordering;

/// Below this length [`sort_stable_by`] sorts by insertion, in place.
const INSERTION_MAX: usize = 20;

/// Sorts `items` by `key`, keeping equal keys in their order (what
/// `slice::sort_by_key` does).
pub fn sort_by_u64_key<T: Copy>(items: &mut [T], key: impl Fn(&T) -> u64) {
    let mut keyed: Vec<(u64, usize)> = items.iter().map(&key).zip(0..).collect();
    // The index breaks ties, so the unstable sort gives the stable order.
    keyed.sort_unstable();
    let original = items.to_vec();
    for (slot, &(_, i)) in items.iter_mut().zip(&keyed) {
        *slot = original[i];
    }
}

/// Sorts `u64`s ascending (equal values are indistinguishable, so stability
/// does not arise). For keys packed into a `u64` by the caller.
pub fn sort_u64s(items: &mut [u64]) {
    items.sort_unstable();
}

/// The positions `0..n` in the order `cmp` gives them, ties in position order
/// (a stable sort of the positions): the one copy of the standard sort behind
/// every comparator in the engine.
#[inline(never)]
pub fn stable_order(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Sorts `items` stably by `cmp` (what `slice::sort_by` does): by insertion
/// when short, else through [`stable_order`] and one pass that moves each
/// element to its place.
pub fn sort_stable_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let n = items.len();
    if n <= INSERTION_MAX {
        for i in 1..n {
            let mut j = i;
            while j > 0 && cmp(&items[j - 1], &items[j]) == Ordering::Greater {
                items.swap(j - 1, j);
                j -= 1;
            }
        }
        return;
    }
    let mut order = stable_order(n, &|a, b| cmp(&items[a], &items[b]));
    permute(items, &mut order);
}

/// Sorts `items` stably by `key` (what `slice::sort_by_key` does).
pub fn sort_stable_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_stable_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` ascending. Equal values are indistinguishable under a
/// derived `Ord`, so this gives what `sort` and `sort_unstable` give.
pub fn sort_values<T: Ord>(items: &mut [T]) {
    sort_stable_by(items, T::cmp);
}

/// Rearranges `items` so that position `i` holds what was at `order[i]`
/// (`order` a permutation; consumed as the visited marks).
fn permute<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..items.len() {
        if order[start] == start {
            continue;
        }
        // Follow the cycle through `start`: each swap puts one element in place.
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_stable_sort() {
        let mut rng = crate::test_rng::SplitMix64::new(7);
        for n in [0usize, 1, 2, 5, 40, 300] {
            let items: Vec<(u64, u32)> = (0..n).map(|i| (rng.below(8), i as u32)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|x| x.0);
            let mut sorted = items;
            sort_by_u64_key(&mut sorted, |x| x.0);
            assert_eq!(sorted, expected, "n = {n}");
        }
    }

    #[test]
    fn sort_stable_by_keeps_ties_in_order_at_every_length() {
        let mut rng = crate::test_rng::SplitMix64::new(11);
        // Across the insertion/positions threshold, with many ties.
        for n in [0usize, 1, 2, 3, 19, 20, 21, 22, 64, 500] {
            let items: Vec<(u64, String)> = (0..n)
                .map(|i| (rng.below(5), format!("item-{i}")))
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|x| x.0);
            let mut sorted = items.clone();
            sort_stable_by(&mut sorted, |a, b| a.0.cmp(&b.0));
            assert_eq!(sorted, expected, "n = {n}");
            let mut by_key = items;
            sort_stable_by_key(&mut by_key, |x| std::cmp::Reverse(x.0));
            expected.sort_by_key(|x| std::cmp::Reverse(x.0));
            assert_eq!(by_key, expected, "reversed, n = {n}");
        }
    }

    #[test]
    fn sort_values_matches_sort_unstable() {
        let mut rng = crate::test_rng::SplitMix64::new(3);
        for n in [0usize, 7, 20, 21, 300] {
            let items: Vec<(u64, i32)> = (0..n)
                .map(|_| (rng.below(6), rng.below(3) as i32 - 1))
                .collect();
            let mut expected = items.clone();
            expected.sort_unstable();
            let mut sorted = items;
            sort_values(&mut sorted);
            assert_eq!(sorted, expected, "n = {n}");
        }
    }

    #[test]
    fn stable_order_and_sort_u64s() {
        let keys = [3u64, 1, 3, 0, 1];
        assert_eq!(
            stable_order(5, &|a, b| keys[a].cmp(&keys[b])),
            [3, 1, 4, 0, 2]
        );
        let mut v = keys.to_vec();
        sort_u64s(&mut v);
        assert_eq!(v, [0, 1, 1, 3, 3]);
    }
}
