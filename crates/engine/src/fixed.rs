//! Numbers with a fixed count of decimals (`{:.1}`), written without
//! `core::fmt`'s float code.
//!
//! `format!("{:.1}", x)` of an `f64` brings the standard library's Grisu and
//! Dragon conversions (about 15 KB of WebAssembly before `wasm-opt`), and
//! they stay in a module while any one `f64` is formatted that way. The SVG
//! drawings (the page's timelines and charts, [`crate::svg_export`], the
//! sweep plots) write their coordinates through [`Fixed`] instead: the same
//! text, digit for digit (the value rounded exactly, ties to even, as
//! `core::fmt` does), from integer arithmetic only.

use std::fmt;

/// The most decimals written; more are cut to this (the drawings ask for 0 to 3).
pub const MAX_DECIMALS: usize = 3;

/// An `f64` written with the precision its format asks for: `{:.1}` of
/// `Fixed(x)` is the text `{:.1}` of `x` is. Without a precision (`{}`) it
/// is written as `{:.0}` would (never the shortest form `{}` of an `f64`
/// gives). Width, fill and `+` flags are not supported.
#[derive(Clone, Copy)]
pub struct Fixed(pub f64);

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; SHORT_LEN];
        match text(self.0, f.precision().unwrap_or(0), &mut buf) {
            Text::Short(s) => f.write_str(s),
            Text::Long(s) => f.write_str(&s),
        }
    }
}

/// `v` with `decimals` decimals (at most [`MAX_DECIMALS`]), as
/// `format!("{v:.decimals$}")` writes it.
pub fn fixed(v: f64, decimals: usize) -> String {
    let mut out = String::new();
    write_fixed(&mut out, v, decimals);
    out
}

/// Appends `v` with `decimals` decimals to `out`.
pub fn write_fixed(out: &mut String, v: f64, decimals: usize) {
    let mut buf = [0u8; SHORT_LEN];
    match text(v, decimals, &mut buf) {
        Text::Short(s) => out.push_str(s),
        Text::Long(s) => out.push_str(&s),
    }
}

/// Room for every text below 2^52: a sign, 19 digits and a point.
const SHORT_LEN: usize = 24;

/// A number's text: in a caller's buffer (every drawing's coordinate,
/// written without an allocation: the timelines write thousands per
/// redraw), or, from 2^52 up, allocated.
enum Text<'a> {
    Short(&'a str),
    Long(String),
}

fn text(v: f64, decimals: usize, buf: &mut [u8; SHORT_LEN]) -> Text<'_> {
    const POW10: [u64; MAX_DECIMALS + 1] = [1, 10, 100, 1000];
    if v.is_nan() {
        return Text::Short("NaN");
    }
    let negative = v.is_sign_negative();
    if v.is_infinite() {
        return Text::Short(if negative { "-inf" } else { "inf" });
    }
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    // |v| = mantissa × 2^exp exactly.
    let (mantissa, exp) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    if exp >= 0 {
        // A whole number from 2^52 up: its digits, then zeros.
        let mut out = String::new();
        if negative {
            out.push('-');
        }
        write_whole(&mut out, mantissa, exp as u32);
        if decimals > 0 {
            out.push('.');
            out.extend(std::iter::repeat_n('0', decimals));
        }
        return Text::Long(out);
    }
    // |v| × 10^decimals rounded to a whole number, ties to even. The
    // mantissa is below 2^53 and 10^decimals at most 1000, so the product
    // fits 63 bits; from a shift of 64 the half exceeds it: zero.
    let decimals = decimals.min(MAX_DECIMALS);
    let shift = (-exp) as u32;
    let scaled = mantissa * POW10[decimals];
    let rounded = if shift >= 64 {
        0
    } else {
        let whole = scaled >> shift;
        let rest = scaled & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rest > half || (rest == half && whole & 1 == 1) {
            whole + 1
        } else {
            whole
        }
    };
    // Digits from the right, the point after `decimals` of them, and at
    // least one digit before it.
    let mut at = SHORT_LEN;
    let (mut n, mut written) = (rounded, 0);
    loop {
        if written == decimals && decimals > 0 {
            at -= 1;
            buf[at] = b'.';
        }
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        written += 1;
        if n == 0 && written > decimals {
            break;
        }
    }
    if negative {
        at -= 1;
        buf[at] = b'-';
    }
    // ASCII digits, a point and a sign: always UTF-8.
    match std::str::from_utf8(&buf[at..]) {
        Ok(s) => Text::Short(s),
        Err(_) => Text::Long(String::new()),
    }
}

/// The decimal digits of `mantissa × 2^exp`.
fn write_whole(out: &mut String, mantissa: u64, exp: u32) {
    if exp <= 11 {
        out.push_str(&(mantissa << exp).to_string());
        return;
    }
    // Up to 2^1024: little-endian base-2^32 limbs, divided by 10^9 in turn.
    let mut limbs: Vec<u32> = vec![0; (exp / 32) as usize];
    let top = u128::from(mantissa) << (exp % 32);
    limbs.extend([top as u32, (top >> 32) as u32, (top >> 64) as u32]);
    let mut chunks = Vec::new();
    while limbs.iter().any(|&l| l != 0) {
        let mut rem = 0u64;
        for limb in limbs.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / 1_000_000_000) as u32;
            rem = cur % 1_000_000_000;
        }
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
        chunks.push(rem as u32);
    }
    let mut chunks = chunks.into_iter().rev();
    if let Some(first) = chunks.next() {
        out.push_str(&first.to_string());
    }
    for chunk in chunks {
        let s = chunk.to_string();
        out.extend(std::iter::repeat_n('0', 9 - s.len()));
        out.push_str(&s);
    }
}

/// `v.clamp(min, max)` of an `f64`, without its panic. `f64::clamp`
/// asserts `min <= max` with a message that writes both with `{:?}`,
/// which alone keeps `core::fmt`'s float code in a module. The same value
/// whenever `min <= max` (NaN stays NaN); with `min > max`, `min`.
pub fn clamp(v: f64, min: f64, max: f64) -> f64 {
    if v < min {
        min
    } else if v > max {
        max
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::SplitMix64;

    fn check(v: f64) {
        for d in 0..=MAX_DECIMALS {
            assert_eq!(fixed(v, d), format!("{v:.d$}"), "{v:e} with {d} decimals");
        }
        assert_eq!(format!("{:.1}", Fixed(v)), format!("{v:.1}"));
    }

    #[test]
    fn clamps_as_f64_clamp_does() {
        let values = [
            -1.5,
            -0.0,
            0.0,
            0.5,
            1.0,
            2.0,
            7.25,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for v in values.into_iter().chain([f64::NAN]) {
            for (min, max) in [
                (0.0, 1.0),
                (-1.0, 1.0),
                (1.0, 1.0),
                (0.0, 100.0),
                (-0.0, 0.0),
            ] {
                let (ours, std) = (clamp(v, min, max), v.clamp(min, max));
                assert!(ours.to_bits() == std.to_bits() || ours.is_nan() && std.is_nan());
            }
        }
    }

    #[test]
    fn writes_what_core_fmt_writes() {
        for v in [
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            -0.5,
            0.25,
            0.35,
            0.05,
            0.15,
            1e-300,
            5e-324,
            -1e-10,
            0.0005,
            0.0015,
            0.0025,
            123.456,
            1e15,
            1e16,
            1e17,
            9007199254740993.0,
            1e21,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            18446744073709551616.0,
            4503599627370496.5,
        ] {
            check(v);
        }
    }

    #[test]
    fn writes_what_core_fmt_writes_for_drawing_values_and_random_bits() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..50_000 {
            let bits = rng.next();
            check(f64::from_bits(bits));
            // Coordinates: multiples of small powers of two and of 0.05, 0.005.
            let n = (bits % 2_000_000) as f64;
            check(n / 64.0 - 10_000.0);
            check(n * 0.05);
            check(n * 0.005);
            check(n / 1000.0 + 0.0005);
        }
    }
}
