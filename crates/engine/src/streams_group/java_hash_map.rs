//! The iteration order of a `java.util.HashMap<String, _>`, for the maps
//! whose order decides `StickyTaskAssignor`'s ties.
//!
//! The broker's assignor walks three hash maps (the group spec's members, its
//! process map, each process's member map), and the order it meets equal
//! candidates in decides who gets a task. Java iterates a `HashMap` bucket by
//! bucket (`bucket = spread(hashCode) & (capacity − 1)`) and, within a bucket,
//! along the bucket's linked list. Where a key lands in that list depends on
//! how it was inserted: `put`/`putIfAbsent` append at the tail,
//! `computeIfAbsent` links at the head. A resize splits each bucket in two,
//! keeping relative order, so only the final capacity and the list rule
//! matter. The capacity depends on the insertion method too:
//!
//! * `put`: grows right *after* the insertion that makes the size exceed
//!   0.75 × capacity, and doubles instead of building a tree bin when a bucket
//!   reaches 9 entries while the table has fewer than 64 buckets
//!   (`HashMap.putVal`, `treeifyBin`);
//! * `computeIfAbsent`: grows *before* an insertion when the size already
//!   exceeds the threshold, and doubles when a bucket reaches 8 entries in a
//!   small table.
//!
//! Not modelled: tree bins (a bucket of 9+ keys in a table of 64+ buckets),
//! whose linked order Java rearranges. They need dozens of ids colliding in
//! their low hash bits.

use crate::connect::java_hash::java_string_hash;

/// `HashMap.TREEIFY_THRESHOLD`.
const TREEIFY_THRESHOLD: usize = 8;
/// `HashMap.MIN_TREEIFY_CAPACITY`: smaller tables resize instead of treeifying.
const MIN_TREEIFY_CAPACITY: usize = 64;
/// `HashMap.DEFAULT_INITIAL_CAPACITY`.
const DEFAULT_CAPACITY: usize = 16;

/// How keys enter the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Insertion {
    /// `put` or `putIfAbsent`: a new key goes to the tail of its bucket.
    Put,
    /// `computeIfAbsent`: a new key goes to the head of its bucket.
    ComputeIfAbsent,
}

/// The map's constructor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InitialCapacity {
    /// `new HashMap<>()`: 16 buckets.
    Default,
    /// `new HashMap<>(n)`: the next power of two ≥ n (1 for n ≤ 1).
    Requested(usize),
}

impl InitialCapacity {
    fn buckets(self) -> usize {
        match self {
            Self::Default => DEFAULT_CAPACITY,
            Self::Requested(n) => n.max(1).next_power_of_two(),
        }
    }
}

/// `(int) (capacity × 0.75)`.
fn threshold(capacity: usize) -> usize {
    capacity * 3 / 4
}

/// `HashMap.hash`: `h ^ (h >>> 16)`.
pub(crate) fn spread(hash: i32) -> u32 {
    let h = hash as u32;
    h ^ (h >> 16)
}

/// The order in which a fresh `HashMap` iterates `keys` after they were
/// inserted in the given order. Returns indices into `keys`; a repeated key
/// keeps its first insertion's place (neither `putIfAbsent` nor
/// `computeIfAbsent` moves an existing key, nor does `put`).
pub(crate) fn iteration_order(
    keys: &[&str],
    initial: InitialCapacity,
    insertion: Insertion,
) -> Vec<usize> {
    let mut seen = std::collections::HashSet::with_capacity(keys.len());
    // (index into keys, spread hash), in insertion order.
    let mut entries: Vec<(usize, u32)> = Vec::with_capacity(keys.len());
    let mut capacity = 0usize;
    let mut bins: Vec<usize> = Vec::new();
    for (index, key) in keys.iter().enumerate() {
        if !seen.insert(*key) {
            continue;
        }
        let hash = spread(java_string_hash(key));
        match insertion {
            Insertion::Put => {
                if capacity == 0 {
                    capacity = initial.buckets();
                    bins = vec![0; capacity];
                }
                let already = bins[hash as usize & (capacity - 1)];
                entries.push((index, hash));
                bins[hash as usize & (capacity - 1)] += 1;
                // putVal: appended behind TREEIFY_THRESHOLD nodes → treeifyBin.
                if already >= TREEIFY_THRESHOLD && capacity < MIN_TREEIFY_CAPACITY {
                    capacity *= 2;
                    bins = rebin(&entries, capacity);
                }
                if entries.len() > threshold(capacity) {
                    capacity *= 2;
                    bins = rebin(&entries, capacity);
                }
            }
            Insertion::ComputeIfAbsent => {
                if capacity == 0 {
                    capacity = initial.buckets();
                    bins = vec![0; capacity];
                } else if entries.len() > threshold(capacity) {
                    capacity *= 2;
                    bins = rebin(&entries, capacity);
                }
                let already = bins[hash as usize & (capacity - 1)];
                entries.push((index, hash));
                bins[hash as usize & (capacity - 1)] += 1;
                if already >= TREEIFY_THRESHOLD - 1 && capacity < MIN_TREEIFY_CAPACITY {
                    capacity *= 2;
                    bins = rebin(&entries, capacity);
                }
            }
        }
    }
    let mask = capacity.saturating_sub(1);
    // (bucket, place within it) packed; the place is distinct per entry.
    let mut order: Vec<u64> = entries
        .iter()
        .enumerate()
        .map(|(seq, &(_, hash))| {
            let within = match insertion {
                Insertion::Put => seq,
                // Head insertion: within a bucket, the newest key comes first.
                Insertion::ComputeIfAbsent => entries.len() - seq,
            };
            (((hash as usize & mask) as u64) << 32) | within as u64
        })
        .collect();
    crate::sort_by_key::sort_u64s(&mut order);
    let seq_of = |key: u64| match insertion {
        Insertion::Put => key as u32 as usize,
        Insertion::ComputeIfAbsent => entries.len() - key as u32 as usize,
    };
    order
        .into_iter()
        .map(|key| entries[seq_of(key)].0)
        .collect()
}

/// Bucket occupancy of `entries` in a table of `capacity` buckets.
fn rebin(entries: &[(usize, u32)], capacity: usize) -> Vec<usize> {
    let mut bins = vec![0usize; capacity];
    for &(_, hash) in entries {
        bins[hash as usize & (capacity - 1)] += 1;
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ordered<'a>(
        keys: &[&'a str],
        initial: InitialCapacity,
        insertion: Insertion,
    ) -> Vec<&'a str> {
        iteration_order(keys, initial, insertion)
            .into_iter()
            .map(|i| keys[i])
            .collect()
    }

    #[test]
    fn put_and_compute_if_absent_order_two_processes_differently() {
        // "pA" and "pB" hash to 3537 and 3538. With room for 2 members `put`
        // grows to 4 buckets after the second key (pA in 1, pB in 2);
        // `computeIfAbsent` stays at 2 (pB in 0, pA in 1).
        let keys = ["pA", "pB"];
        assert_eq!(
            ordered(&keys, InitialCapacity::Requested(2), Insertion::Put),
            ["pA", "pB"]
        );
        assert_eq!(
            ordered(
                &keys,
                InitialCapacity::Requested(2),
                Insertion::ComputeIfAbsent
            ),
            ["pB", "pA"]
        );
    }

    #[test]
    fn compute_if_absent_links_at_the_head_of_a_bucket() {
        // "q" (113) and "a" (97) share bucket 1 of 16.
        let keys = ["q", "a"];
        assert_eq!(
            ordered(&keys, InitialCapacity::Default, Insertion::Put),
            ["q", "a"]
        );
        assert_eq!(
            ordered(&keys, InitialCapacity::Default, Insertion::ComputeIfAbsent),
            ["a", "q"]
        );
    }

    #[test]
    fn default_put_matches_the_hash_set_order_used_for_connect() {
        let names: Vec<String> = (0..40).map(|i| format!("member-{i}")).collect();
        let keys: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(
            iteration_order(&keys, InitialCapacity::Default, Insertion::Put),
            crate::connect::java_hash::hash_set_iteration_order(&keys)
        );
    }

    #[test]
    fn requested_capacity_rounds_up_to_a_power_of_two() {
        assert_eq!(InitialCapacity::Requested(0).buckets(), 1);
        assert_eq!(InitialCapacity::Requested(1).buckets(), 1);
        assert_eq!(InitialCapacity::Requested(3).buckets(), 4);
        assert_eq!(InitialCapacity::Requested(16).buckets(), 16);
        assert_eq!(InitialCapacity::Default.buckets(), 16);
    }

    #[test]
    fn compute_if_absent_can_end_one_doubling_smaller() {
        // Four keys in a map sized for 4: `put` grows to 8 after the fourth
        // (size 4 > threshold 3); `computeIfAbsent` would grow only before a
        // fifth. Keys 1..4 as chars: buckets 1,2,3,0 of 4 vs 1,2,3,4 of 8.
        let names: Vec<String> = (1..=4u8).map(|c| char::from(c).to_string()).collect();
        let keys: Vec<&str> = names.iter().map(String::as_str).collect();
        let put = iteration_order(&keys, InitialCapacity::Requested(4), Insertion::Put);
        let cia = iteration_order(
            &keys,
            InitialCapacity::Requested(4),
            Insertion::ComputeIfAbsent,
        );
        assert_eq!(put, vec![0, 1, 2, 3]);
        assert_eq!(cia, vec![3, 0, 1, 2]);
    }

    #[test]
    fn crowded_buckets_resize_at_nine_for_put_and_eight_for_compute_if_absent() {
        // Keys with hashes 1 + 16k share bucket 1 of 16; at 32 buckets the
        // even k stay in bucket 1 and the odd k move to 17.
        let eight: Vec<String> = (0..8u32)
            .map(|k| {
                char::from_u32(1 + 16 * k)
                    .map(String::from)
                    .unwrap_or_default()
            })
            .collect();
        let keys: Vec<&str> = eight.iter().map(String::as_str).collect();
        // put: 8 in one bucket is fine, insertion order.
        assert_eq!(
            iteration_order(&keys, InitialCapacity::Default, Insertion::Put),
            (0..8).collect::<Vec<_>>()
        );
        // computeIfAbsent: the 8th resizes to 32; even k then odd k, each newest first.
        assert_eq!(
            iteration_order(&keys, InitialCapacity::Default, Insertion::ComputeIfAbsent),
            vec![6, 4, 2, 0, 7, 5, 3, 1]
        );
    }
}
