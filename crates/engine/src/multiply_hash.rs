//! A cheap deterministic hash for small integer keys (Fibonacci hashing):
//! one multiply per integer written, where the standard library's SipHash
//! costs tens of nanoseconds a key. For maps the simulator or a drawing
//! probes hundreds of thousands of times (the Streams sticky assignor's
//! task pairs, a timeline's rows); their keys come from the simulator, not
//! from anyone who could choose colliding ones.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// [`HashMap`] with [`MultiplyHasher`].
pub(crate) type MultiplyHashMap<K, V> = HashMap<K, V, BuildHasherDefault<MultiplyHasher>>;

/// [`HashSet`] with [`MultiplyHasher`].
pub(crate) type MultiplyHashSet<T> = HashSet<T, BuildHasherDefault<MultiplyHasher>>;

/// Multiplies each integer written into the state by 2^64 / φ.
#[derive(Default)]
pub(crate) struct MultiplyHasher(u64);

impl Hasher for MultiplyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuple_keys_of_a_timeline_hash_apart() {
        // Rows of 2,000 workers x 100 items, and the unassigned lane: no two
        // share a hash, so lookups stay one probe.
        let mut hashes: Vec<u64> = (0..2_000u32)
            .map(Some)
            .chain([None])
            .flat_map(|w| (0..100u32).map(move |i| (w, i)))
            .map(|key| {
                use std::hash::BuildHasher;
                BuildHasherDefault::<MultiplyHasher>::default().hash_one(key)
            })
            .collect();
        let n = hashes.len();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), n);
    }
}
