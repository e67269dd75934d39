//! The one random-number generator of the randomized tests: SplitMix64,
//! small, seedable and the same on every platform, so a seed names the same
//! scenario forever (the recorded fingerprints depend on it).
//!
//! Pulled into a test with `#[path = "support/rng.rs"] mod rng;` (and into the
//! crate's unit tests as `crate::test_rng`), not through
//! `support/mod.rs`, so the conformance tests do not compile it.

// Every test binary compiles its own copy and uses only some of the helpers.
#![allow(dead_code)]

/// SplitMix64 (Steele, Lea and Flood), seeded with any `u64`.
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform enough in `0..n` (`n > 0`): `next() % n`, like Java's
    /// `Random.nextInt(n)` is used in Kafka's randomized tests.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// [`below`](Self::below) for counts and indexes.
    pub fn below_usize(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below_usize(xs.len())]
    }
}
