//! The values a sweep steps through and the scenario of each point: pure
//! functions of the spec and the scenario, identical natively and in
//! WebAssembly.

use super::{Scale, SweepError, SweepSpec, MAX_STEPS, MIN_STEPS};
use crate::scenario::Scenario;

/// One point of a sweep: the swept value and the scenario that has it.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// The swept value.
    pub value: u64,
    /// The scenario with that value written in (otherwise unchanged: same
    /// seed, same variants, same events).
    pub scenario: Scenario,
}

/// The whole-number values from `from` to `to` (both included) in `steps`
/// points, evenly spaced (linear) or at a constant ratio (log). Rounding
/// to whole numbers can make neighbours equal in a narrow range; each value
/// appears once, so there may be fewer than `steps`. `steps` is held to
/// [`MIN_STEPS`]..=[`MAX_STEPS`]; assumes `from < to` and, for log,
/// `from >= 1` ([`SweepSpec::validate`]).
pub fn sweep_values(from: u64, to: u64, steps: u32, scale: Scale) -> Vec<u64> {
    let last = u64::from(steps.clamp(MIN_STEPS, MAX_STEPS) - 1);
    let mut values: Vec<u64> = (0..=last)
        .map(|i| match scale {
            Scale::Linear => linear(from, to, i, last),
            Scale::Log => log(from, to, i, last),
        })
        .collect();
    // Rounding is monotone, so equal values are neighbours.
    values.dedup();
    values
}

/// `from + (to - from) · i / last`, rounded half up, in exact integer
/// arithmetic: `span · i / last = q · i + r · i / last` for `span = q · last
/// + r`, and `r · i` stays small (`i, r < last <= MAX_STEPS`).
fn linear(from: u64, to: u64, i: u64, last: u64) -> u64 {
    let span = to - from;
    let (q, r) = (span / last, span % last);
    from + q * i + (2 * r * i + last) / (2 * last)
}

/// `from · (to / from)^(i / last)`, rounded to the nearest whole number;
/// the endpoints exact.
fn log(from: u64, to: u64, i: u64, last: u64) -> u64 {
    if i == 0 {
        return from;
    }
    if i == last {
        return to;
    }
    let (a, b) = (ln(from as f64), ln(to as f64));
    let v = exp(a + (b - a) * (i as f64 / last as f64)).round();
    (v as u64).clamp(from, to)
}

// `f64::ln` and `f64::exp` call the platform's maths library, which may
// differ in the last bit between a native build and WebAssembly, and a
// value near .5 would then round to a different point. These use only
// IEEE-754 arithmetic (+ − × ÷, exact everywhere), so a sweep has the same
// points in the CLI and the page.

const LN_2: f64 = std::f64::consts::LN_2;

/// Natural logarithm of `x >= 1`.
pub(crate) fn ln(x: f64) -> f64 {
    // x = m · 2^e with m in [1, 2), read from the bits.
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    // ln m = 2 · atanh(z), z = (m − 1) / (m + 1) in [0, 1/3).
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut sum = 0.0;
    let mut k = 1.0;
    for _ in 0..30 {
        sum += term / k;
        term *= z2;
        k += 2.0;
    }
    e as f64 * LN_2 + 2.0 * sum
}

/// `e^y` for `0 <= y < 709`.
fn exp(y: f64) -> f64 {
    // y = k · ln 2 + r with r in [0, ln 2): e^y = 2^k · e^r.
    let k = (y / LN_2).floor();
    let r = y - k * LN_2;
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..=25u32 {
        term *= r / f64::from(n);
        sum += term;
    }
    sum * f64::from_bits(((k as i64 + 1023) as u64) << 52)
}

/// The point scenarios of `spec` over `scenario`, each validated.
pub(crate) fn point_scenarios(
    spec: &SweepSpec,
    scenario: &Scenario,
) -> Result<Vec<SweepPoint>, SweepError> {
    scenario.validate()?;
    let values = spec.values(scenario)?;
    values
        .into_iter()
        .map(|value| {
            Ok(SweepPoint {
                value,
                scenario: with_value(spec, scenario, value)?,
            })
        })
        .collect()
}

/// `scenario` with `value` written in, validated (the spec is checked by
/// the caller).
pub(crate) fn with_value(
    spec: &SweepSpec,
    scenario: &Scenario,
    value: u64,
) -> Result<Scenario, SweepError> {
    let mut point = scenario.clone();
    spec.parameter.apply(&mut point, value);
    point.validate().map_err(|error| SweepError::Point {
        parameter: spec.parameter.name(),
        value,
        error,
    })?;
    Ok(point)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_maths_matches_std_closely() {
        for x in [1.0, 2.0, 3.0, 10.0, 1_000.0, 123_456_789.0, 9.2e18] {
            let (mine, std) = (ln(x), f64::ln(x));
            assert!(
                (mine - std).abs() <= 1e-13 * std.max(1.0),
                "ln {x}: {mine} vs {std}"
            );
        }
        for y in [0.0, 0.5, 1.0, 7.3, 20.0, 43.6] {
            let (mine, std) = (exp(y), f64::exp(y));
            assert!(
                (mine - std).abs() <= 1e-13 * std,
                "exp {y}: {mine} vs {std}"
            );
        }
    }
}
