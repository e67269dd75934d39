//! Java's `String.hashCode` and the iteration order of a fresh
//! `java.util.HashSet<String>`.
//!
//! Kafka collects the candidate workers for lost work
//! (`candidateWorkersForReassignment`, in
//! `IncrementalCooperativeAssignor.handleLostAssignments`) through
//! `Collectors.toSet()`, a fresh `HashSet<String>`, and appends that set to a
//! long-lived insertion-ordered set. Which candidate receives the first lost
//! connector or task therefore depends on Java's hash order of the member ids
//! (`String.hashCode`, bucket by bucket). The same order decides how a
//! worker's assignment is laid out on the wire (`ConnectProtocol.Assignment.asMap`
//! copies its connector list into a `HashSet`). This module reproduces it.

/// Java's default `HashMap` capacity.
const DEFAULT_CAPACITY: usize = 16;
/// Java's `HashMap.TREEIFY_THRESHOLD`: a bin growing past this many nodes is
/// converted to a tree bin, or the table is resized instead while it is small.
const TREEIFY_THRESHOLD: usize = 8;
/// Java's `HashMap.MIN_TREEIFY_CAPACITY`: below it, a crowded bin resizes the table.
const MIN_TREEIFY_CAPACITY: usize = 64;

/// Java's `String.hashCode`: `h = 31 * h + c` over the UTF-16 code units,
/// wrapping in 32 bits.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, unit| {
        h.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// `HashMap.hash`: the key's hash with its high half folded into the low half
/// (`h ^ (h >>> 16)`), so small tables still see the high bits.
fn spread(hash: i32) -> u32 {
    let h = hash as u32;
    h ^ (h >> 16)
}

/// The order in which a `HashSet<String>` created with `new HashSet<>()` and
/// filled by adding `keys` in the given order iterates them.
///
/// Java iterates by ascending bucket index and, within a bucket, in insertion
/// order (a resize splits each bucket in two while keeping relative order, so
/// only the final table capacity matters). The capacity starts at 16 and
/// doubles whenever the size exceeds 0.75 × capacity, or when a bucket would
/// hold a ninth entry while the table is smaller than 64 (Java then resizes
/// instead of building a tree bin).
///
/// Returns indices into `keys`; repeated keys are kept once, at their first
/// position, as `add` ignores them.
///
/// Not modelled: a bucket of nine or more colliding ids in a table of 64 or
/// more buckets, which Java turns into a red-black tree bin whose iteration
/// order is not insertion order. Such a collision needs dozens of workers
/// whose ids collide in their low hash bits; this order then stays insertion
/// order within the bucket.
pub fn hash_set_iteration_order(keys: &[&str]) -> Vec<usize> {
    iteration_order(keys, DEFAULT_CAPACITY)
}

/// The order in which a copy `new HashSet<>(collection)` of `keys` iterates
/// (`ConnectProtocol.Assignment.asMap` copies a worker's connector list so).
/// The copy constructor sizes the table up front for the collection: as
/// JDK 8–18 do it (Kafka 4.x runs on Java 17), the smallest power of two of
/// at least `max((int) (size / .75f) + 1, 16)` buckets, which differs from
/// [`hash_set_iteration_order`]'s growing table at sizes like 12 and 24.
/// Repeated keys and tree bins as there.
pub fn hash_set_copy_iteration_order(keys: &[&str]) -> Vec<usize> {
    // (int) (n / .75f) is floor(4n / 3) for every size a scenario can have.
    let wanted = (keys.len() * 4 / 3 + 1).max(DEFAULT_CAPACITY);
    iteration_order(keys, wanted.next_power_of_two())
}

/// Iteration order of a `HashSet<String>` whose table starts with
/// `capacity` buckets (a power of two) and receives `keys` in order.
fn iteration_order(keys: &[&str], mut capacity: usize) -> Vec<usize> {
    let mut seen = std::collections::HashSet::with_capacity(keys.len());
    let entries: Vec<(usize, u32)> = keys
        .iter()
        .enumerate()
        .filter(|(_, key)| seen.insert(**key))
        .map(|(i, key)| (i, spread(java_string_hash(key))))
        .collect();

    let mut bins = vec![0usize; capacity];
    for (size, &(_, hash)) in entries.iter().enumerate() {
        let bin = hash as usize & (capacity - 1);
        bins[bin] += 1;
        // putVal: appending to a bin that already held TREEIFY_THRESHOLD nodes
        // calls treeifyBin, which resizes a small table.
        if bins[bin] > TREEIFY_THRESHOLD && capacity < MIN_TREEIFY_CAPACITY {
            capacity *= 2;
            bins = rebin(&entries[..=size], capacity);
        }
        // Then `if (++size > threshold) resize()`, threshold = 0.75 × capacity.
        if (size + 1) * 4 > capacity * 3 {
            capacity *= 2;
            bins = rebin(&entries[..=size], capacity);
        }
    }

    // (bucket, insertion index) packed: ties in bucket are broken by
    // insertion index, so the order is stable by construction.
    let mut order: Vec<u64> = entries
        .iter()
        .map(|&(i, hash)| ((u64::from(hash) & (capacity as u64 - 1)) << 32) | i as u64)
        .collect();
    crate::sort_by_key::sort_u64s(&mut order);
    order.into_iter().map(|key| key as u32 as usize).collect()
}

/// Bin occupancy of `entries` in a table of `capacity` buckets.
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

    #[test]
    fn string_hash_matches_java() {
        // Values from the JDK.
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("worker1"), 1525161075);
        assert_eq!(java_string_hash("hello world"), 1794106052);
        // Non-BMP characters hash as their two UTF-16 surrogates.
        assert_eq!(java_string_hash("\u{1F600}"), 55357 * 31 + 56832);
    }

    #[test]
    fn small_sets_iterate_by_bucket() {
        // "worker1".."worker5" land in consecutive buckets: ascending order.
        let keys = ["worker3", "worker1", "worker5", "worker2", "worker4"];
        let order: Vec<&str> = hash_set_iteration_order(&keys)
            .into_iter()
            .map(|i| keys[i])
            .collect();
        assert_eq!(
            order,
            ["worker1", "worker2", "worker3", "worker4", "worker5"]
        );
    }

    #[test]
    fn worker6_comes_first() {
        // With worker6 present, Java's HashMap visits worker6 first.
        let keys = [
            "worker1", "worker2", "worker3", "worker4", "worker5", "worker6",
        ];
        let order = hash_set_iteration_order(&keys);
        assert_eq!(keys[order[0]], "worker6");
    }

    #[test]
    fn resizes_past_three_quarters() {
        // "q" (113) and "a" (97) share bucket 1 of 16 but not of 32. With
        // two keys the table has 16 buckets and insertion order wins; with 13
        // keys (> 0.75 × 16) it has 32 and "a" (bucket 1) precedes "q" (17).
        assert_eq!(hash_set_iteration_order(&["q", "a"]), vec![0, 1]);
        let keys = [
            "q", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l",
        ];
        let order = hash_set_iteration_order(&keys);
        assert_eq!(keys[order[0]], "a");
        assert_eq!(keys[order[12]], "q");
    }

    #[test]
    fn crowded_small_table_resizes() {
        // Nine keys in one bucket of 16 make Java resize (treeifyBin on a
        // table below 64) although 9 < 12. Keys with hashes 1 + 16k for
        // k = 8..0 all sit in bucket 1 at 16 buckets and split at 32.
        let names: Vec<String> = (0..9u32)
            .rev()
            .map(|k| {
                char::from_u32(1 + 16 * k)
                    .map(String::from)
                    .unwrap_or_default()
            })
            .collect();
        let keys: Vec<&str> = names.iter().map(String::as_str).collect();
        let order = hash_set_iteration_order(&keys);
        // At 32 buckets the even k (bucket 1) come before the odd k (bucket 17).
        let first: Vec<u32> = order
            .iter()
            .map(|&i| keys[i].chars().next().map_or(0, |c| (c as u32 - 1) / 16))
            .collect();
        assert_eq!(first, vec![8, 6, 4, 2, 0, 7, 5, 3, 1]);
    }

    #[test]
    fn a_copy_is_sized_for_its_collection() {
        // Twelve keys fit a growing table of 16 (12 ≤ 0.75 × 16), but the
        // copy constructor asks for (int) (12 / .75f) + 1 = 17 → 32 buckets.
        // "q" (bucket 1 of 16, 17 of 32) then comes after "a" … "k".
        let keys = ["q", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"];
        let grown = hash_set_iteration_order(&keys);
        let copied = hash_set_copy_iteration_order(&keys);
        assert_eq!(
            keys[grown[0]], "q",
            "16 buckets: q and a share bucket 1, q first"
        );
        assert_eq!(keys[copied[0]], "a");
        assert_eq!(keys[*copied.last().unwrap()], "q");
        // Below twelve both tables have 16 buckets.
        assert_eq!(
            hash_set_iteration_order(&keys[..11]),
            hash_set_copy_iteration_order(&keys[..11])
        );
    }

    #[test]
    fn duplicates_are_kept_once() {
        assert_eq!(hash_set_iteration_order(&["x", "x"]), vec![0]);
    }
}
