//! One stable sort by a `u64` key for every caller, natively and in the
//! page's WebAssembly: each `sort_by_key` on a new element type is another
//! copy of the standard library's sort (a few KB of WebAssembly each); this
//! sorts `(key, index)` pairs, one copy whatever the elements.

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
}
