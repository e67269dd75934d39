//! Correctly rounded `ln` and `pow`, computed the same way on every target.
//!
//! The consecutive-revocation backoff (KAFKA-12495) truncates
//! `40^(ln(maxDelay) / ln(40))` to an integer, so the last bit of `ln` and
//! `pow` decides between `maxDelay` and `maxDelay − 1` (1000 gives 999,
//! 600000 gives 599999). Rust's `f64::ln`/`powf` call the platform's libm,
//! which differs between native builds and WebAssembly: on max delays up to
//! 2,000,000 the WebAssembly libm disagrees with glibc for about 1% of values,
//! and a trace must not depend on where the simulator runs.
//!
//! These functions evaluate in double-double arithmetic (about 106 bits) with
//! IEEE basic operations only, then round once, so they return the correctly
//! rounded result and are bit-identical everywhere. The JDK's `Math.log` /
//! `Math.pow` are not correctly rounded in every case, but correct rounding
//! is closer to them than any libm at hand: over every max delay from 0 to
//! 2,000,000, the capped backoff computed here differs from OpenJDK 17's
//! (x86-64, compiled and interpreted alike) for 90 values, glibc's for 229,
//! and the WebAssembly libm's for roughly 1% of them. The values the conformance
//! vectors use (0, 1, 10, 40, 1000, 5000, 10000, 60000, 300000, 600000) all
//! agree with the JDK.

/// A double-double: the unevaluated sum `hi + lo`, `|lo| ≤ ulp(hi) / 2`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Dd {
    hi: f64,
    lo: f64,
}

/// ln 2 as a double-double.
const LN2: Dd = Dd {
    hi: f64::from_bits(0x3fe6_2e42_fefa_39ef),
    lo: f64::from_bits(0x3c7a_bc9e_3b39_803f),
};

/// Dekker's splitter, 2^27 + 1.
const SPLITTER: f64 = 134_217_729.0;

/// `a + b` exactly (Knuth).
fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd {
        hi: s,
        lo: (a - (s - bb)) + (b - bb),
    }
}

/// `a + b` exactly, given `|a| ≥ |b|`.
fn quick_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd {
        hi: s,
        lo: b - (s - a),
    }
}

fn split(a: f64) -> (f64, f64) {
    let t = SPLITTER * a;
    let hi = t - (t - a);
    (hi, a - hi)
}

/// `a × b` exactly (Dekker; no fused multiply-add, whose availability varies).
fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    Dd {
        hi: p,
        lo: ((ah * bh - p) + ah * bl + al * bh) + al * bl,
    }
}

/// `2^k` for `|k| ≤ 1022`.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

impl Dd {
    fn from_f64(x: f64) -> Self {
        Dd { hi: x, lo: 0.0 }
    }

    fn add(self, o: Dd) -> Dd {
        let s = two_sum(self.hi, o.hi);
        let t = two_sum(self.lo, o.lo);
        let s = quick_two_sum(s.hi, s.lo + t.hi);
        quick_two_sum(s.hi, s.lo + t.lo)
    }

    fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    fn sub(self, o: Dd) -> Dd {
        self.add(o.neg())
    }

    fn mul(self, o: Dd) -> Dd {
        let p = two_prod(self.hi, o.hi);
        quick_two_sum(p.hi, p.lo + (self.hi * o.lo + self.lo * o.hi))
    }

    fn mul_f64(self, b: f64) -> Dd {
        let p = two_prod(self.hi, b);
        quick_two_sum(p.hi, p.lo + self.lo * b)
    }

    /// Long division, three quotient digits.
    fn div(self, o: Dd) -> Dd {
        let q1 = self.hi / o.hi;
        let r = self.sub(o.mul_f64(q1));
        let q2 = r.hi / o.hi;
        let r = r.sub(o.mul_f64(q2));
        let q3 = r.hi / o.hi;
        quick_two_sum(q1, q2).add(Dd::from_f64(q3))
    }

    /// Exact scaling by `2^k`.
    fn scale(self, k: i32) -> Dd {
        let f = pow2(k);
        Dd {
            hi: self.hi * f,
            lo: self.lo * f,
        }
    }

    /// The nearest double.
    fn round(self) -> f64 {
        self.hi + self.lo
    }
}

/// ln(x) in double-double, for finite normal `x > 0`:
/// `x = m·2^k` with `m ∈ [√½, √2)`, `ln m = 2·atanh((m − 1)/(m + 1))`.
fn ln_dd(x: f64) -> Dd {
    let bits = x.to_bits();
    let mut k = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let mut m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        k += 1;
    }
    // m − 1 is exact for m in [0.5, 2] (Sterbenz).
    let s = Dd::from_f64(m - 1.0).div(two_sum(m, 1.0));
    let s2 = s.mul(s);
    let mut term = s;
    let mut sum = s;
    // |s| < 0.172, so s² < 0.0295: 24 more terms reach 2^-120.
    for i in 1..=24 {
        term = term.mul(s2);
        sum = sum.add(term.div(Dd::from_f64(f64::from(2 * i + 1))));
    }
    LN2.mul_f64(f64::from(k)).add(sum.mul_f64(2.0))
}

/// exp(y) in double-double, for `|y| < 700`: `y = k·ln2 + r`, then
/// `exp(r / 2^10)` by Taylor series, squared back ten times in `expm1` form.
fn exp_dd(y: Dd) -> Dd {
    const HALVINGS: i32 = 10;
    let k = (y.hi / LN2.hi).round();
    let r = y.sub(LN2.mul_f64(k)).scale(-HALVINGS);
    // |r| < 3.5e-4: terms up to r^10/10! reach below 2^-120.
    let mut term = r;
    let mut t = r;
    for n in 2..=10 {
        term = term.mul(r).div(Dd::from_f64(f64::from(n)));
        t = t.add(term);
    }
    for _ in 0..HALVINGS {
        // e^(2a) − 1 = 2t + t², with t = e^a − 1.
        t = t.mul_f64(2.0).add(t.mul(t));
    }
    t.add(Dd::from_f64(1.0)).scale(k as i32)
}

/// Correctly rounded natural logarithm of a finite `x > 0`.
pub(crate) fn ln(x: f64) -> f64 {
    if x == 1.0 {
        return 0.0;
    }
    ln_dd(x).round()
}

/// Correctly rounded `base^exponent` for finite `base > 0` and a result well
/// inside the double range (the backoff's `40^n` with `n ≤ 6`).
pub(crate) fn pow(base: f64, exponent: f64) -> f64 {
    if exponent == 0.0 || base == 1.0 {
        return 1.0;
    }
    let y = ln_dd(base).mul_f64(exponent);
    if y.hi.abs() >= 700.0 {
        return if y.hi > 0.0 { f64::INFINITY } else { 0.0 };
    }
    exp_dd(y).round()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_cases() {
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(ln(2.0), LN2.hi);
        for n in 0..=9 {
            assert_eq!(pow(40.0, f64::from(n)), 40f64.powi(n), "40^{n}");
        }
        assert_eq!(pow(2.0, 0.5), std::f64::consts::SQRT_2);
    }

    #[test]
    fn correctly_rounded_values() {
        // Correctly rounded references (60-digit decimal arithmetic).
        assert_eq!(ln(40.0).to_bits(), 0x400d_82d3_3b32_720d);
        assert_eq!(ln(1998.0).to_bits(), 0x401e_664c_b2fe_6d64);
        assert_eq!(ln(10.0), std::f64::consts::LN_10);
        // 40^e for e = ln(1998)/ln(40) is 1998 − 0.5006 ulp: rounds below 1998.
        let e = f64::from_bits(0x4000_7b54_7161_9589);
        assert_eq!(pow(40.0, e).to_bits(), 0x409f_37ff_ffff_ffff);
    }
}
