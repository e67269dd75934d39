//! A compact binary form of the engine's values, for the trip between the
//! site's two WebAssembly modules (the simulator in its Web Worker and the
//! page). It is not a file or link format: both ends are built from the same
//! source, so it has no versioning and no field names.
//!
//! Why not serde: the page would then hold serde's derived deserialisers
//! and `serde_json`'s parser for every result type (about 20 KB gzip of its
//! WebAssembly). A [`Binary`] impl is a few instructions per field, and
//! reading never allocates more than the input could describe.
//!
//! The layout: integers as LEB128 varints (signed ones zigzagged), `bool`
//! and enum tags as one byte, strings and sequences as a length then their
//! elements, `Option` as a tag byte then the value. Impls are declared with
//! [`binary_struct!`] and [`binary_enum!`], which name every field, so a
//! field added to a type without adding it here does not compile.

mod result;
mod scenario;

/// The input ended early or held a value no writer produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinaryError;

impl std::fmt::Display for BinaryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the data is truncated or damaged")
    }
}

impl std::error::Error for BinaryError {}

/// A value with a binary form.
pub trait Binary: Sized {
    /// Appends the value to `out`.
    fn write(&self, out: &mut Vec<u8>);
    /// Reads one value from the front of `input`.
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError>;
}

/// The binary form of a value.
pub fn to_bytes<T: Binary>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.write(&mut out);
    out
}

/// A value from its binary form; trailing bytes are an error.
pub fn from_bytes<T: Binary>(bytes: &[u8]) -> Result<T, BinaryError> {
    let mut input = Reader::new(bytes);
    let value = T::read(&mut input)?;
    input.finish()?;
    Ok(value)
}

/// What is left of the input.
pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// Reads `bytes` from the start.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { rest: bytes }
    }

    /// How many bytes are left.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// Ok when every byte was read: trailing bytes are damage.
    pub fn finish(&self) -> Result<(), BinaryError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(BinaryError)
        }
    }

    /// One byte.
    pub fn byte(&mut self) -> Result<u8, BinaryError> {
        let (&b, rest) = self.rest.split_first().ok_or(BinaryError)?;
        self.rest = rest;
        Ok(b)
    }

    /// An unsigned LEB128 varint of at most 64 bits.
    pub fn varint(&mut self) -> Result<u64, BinaryError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(BinaryError)
    }

    /// A sequence's length: each element takes at least one byte, so a
    /// length beyond the bytes left is damage, not an allocation to make.
    pub fn length(&mut self) -> Result<usize, BinaryError> {
        let n = self.varint()?;
        if n > self.rest.len() as u64 {
            return Err(BinaryError);
        }
        Ok(n as usize)
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], BinaryError> {
        if n > self.rest.len() {
            return Err(BinaryError);
        }
        let (head, rest) = self.rest.split_at(n);
        self.rest = rest;
        Ok(head)
    }
}

/// Appends an unsigned LEB128 varint.
pub fn write_varint(mut value: u64, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

impl Binary for u64 {
    fn write(&self, out: &mut Vec<u8>) {
        write_varint(*self, out);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        input.varint()
    }
}

impl Binary for u32 {
    fn write(&self, out: &mut Vec<u8>) {
        write_varint(u64::from(*self), out);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        u32::try_from(input.varint()?).map_err(|_| BinaryError)
    }
}

impl Binary for u16 {
    fn write(&self, out: &mut Vec<u8>) {
        write_varint(u64::from(*self), out);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        u16::try_from(input.varint()?).map_err(|_| BinaryError)
    }
}

impl Binary for u8 {
    fn write(&self, out: &mut Vec<u8>) {
        out.push(*self);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        input.byte()
    }
}

impl Binary for i64 {
    fn write(&self, out: &mut Vec<u8>) {
        // Zigzag: small magnitudes of either sign stay short.
        write_varint(((*self << 1) ^ (*self >> 63)) as u64, out);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        let z = input.varint()?;
        Ok((z >> 1) as i64 ^ -((z & 1) as i64))
    }
}

impl Binary for i32 {
    fn write(&self, out: &mut Vec<u8>) {
        i64::from(*self).write(out);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        i32::try_from(i64::read(input)?).map_err(|_| BinaryError)
    }
}

impl Binary for bool {
    fn write(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        match input.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(BinaryError),
        }
    }
}

impl Binary for String {
    fn write(&self, out: &mut Vec<u8>) {
        write_varint(self.len() as u64, out);
        out.extend_from_slice(self.as_bytes());
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        let n = input.length()?;
        let bytes = input.bytes(n)?;
        std::str::from_utf8(bytes)
            .map(str::to_string)
            .map_err(|_| BinaryError)
    }
}

/// Written as a string; each read makes its own copy (sharing equal texts
/// is the reader's business: `result_wire`), but for the empty
/// one, which all share (the page's wire sends explanations apart and reads
/// ~60,000 empty ones for a storm).
impl Binary for std::sync::Arc<str> {
    fn write(&self, out: &mut Vec<u8>) {
        write_varint(self.len() as u64, out);
        out.extend_from_slice(self.as_bytes());
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        thread_local! {
            static EMPTY: std::sync::Arc<str> = std::sync::Arc::from("");
        }
        let n = input.length()?;
        if n == 0 {
            return Ok(EMPTY.with(std::sync::Arc::clone));
        }
        let bytes = input.bytes(n)?;
        std::str::from_utf8(bytes)
            .map(std::sync::Arc::from)
            .map_err(|_| BinaryError)
    }
}

impl<T: Binary> Binary for Vec<T> {
    fn write(&self, out: &mut Vec<u8>) {
        write_varint(self.len() as u64, out);
        for item in self {
            item.write(out);
        }
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        let n = input.length()?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(T::read(input)?);
        }
        Ok(items)
    }
}

impl<T: Binary> Binary for Option<T> {
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(value) => {
                out.push(1);
                value.write(out);
            }
        }
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        match input.byte()? {
            0 => Ok(None),
            1 => T::read(input).map(Some),
            _ => Err(BinaryError),
        }
    }
}

impl<T: Binary> Binary for Box<T> {
    fn write(&self, out: &mut Vec<u8>) {
        (**self).write(out);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        T::read(input).map(Box::new)
    }
}

/// `impl Binary` for a struct with named fields, listing every field (the
/// destructuring has no `..`, so a new field must be added here).
macro_rules! binary_struct {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl $crate::binary::Binary for $ty {
            fn write(&self, out: &mut Vec<u8>) {
                let $ty { $($field),* } = self;
                $( $crate::binary::Binary::write($field, out); )*
            }
            fn read(
                input: &mut $crate::binary::Reader<'_>,
            ) -> Result<Self, $crate::binary::BinaryError> {
                Ok($ty { $($field: $crate::binary::Binary::read(input)?),* })
            }
        }
    };
}
pub(crate) use binary_struct;

/// `impl Binary` for an enum: each variant with its tag byte and its fields
/// (`Unit = 0`, `Named { a, b } = 1`, `Tuple(x) = 2`). Matches are
/// exhaustive, so a new variant must be added here.
macro_rules! binary_enum {
    ($ty:ident { $($variant:ident $({ $($field:ident),* $(,)? })? $(( $($pos:ident),* $(,)? ))? = $tag:literal),* $(,)? }) => {
        impl $crate::binary::Binary for $ty {
            fn write(&self, out: &mut Vec<u8>) {
                match self {
                    $($ty::$variant $({ $($field),* })? $(( $($pos),* ))? => {
                        out.push($tag);
                        $($( $crate::binary::Binary::write($field, out); )*)?
                        $($( $crate::binary::Binary::write($pos, out); )*)?
                    })*
                }
            }
            fn read(
                input: &mut $crate::binary::Reader<'_>,
            ) -> Result<Self, $crate::binary::BinaryError> {
                Ok(match input.byte()? {
                    $($tag => $ty::$variant
                        $({ $($field: $crate::binary::Binary::read(input)?),* })?
                        $(( $({ let $pos = $crate::binary::Binary::read(input)?; $pos }),* ))?,)*
                    _ => return Err($crate::binary::BinaryError),
                })
            }
        }
    };
}
pub(crate) use binary_enum;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_round_trip_at_their_limits() {
        for v in [0u64, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(from_bytes::<u64>(&to_bytes(&v)), Ok(v));
        }
        for v in [0i64, -1, 1, -64, 64, i64::MIN, i64::MAX] {
            assert_eq!(from_bytes::<i64>(&to_bytes(&v)), Ok(v));
        }
        for v in [i32::MIN, -1, 0, i32::MAX] {
            assert_eq!(from_bytes::<i32>(&to_bytes(&v)), Ok(v));
        }
        assert_eq!(to_bytes(&127u64).len(), 1);
        assert_eq!(to_bytes(&-1i64).len(), 1);
    }

    #[test]
    fn out_of_range_and_overlong_input_is_an_error() {
        assert_eq!(
            from_bytes::<u32>(&to_bytes(&(1u64 << 40))),
            Err(BinaryError)
        );
        assert_eq!(from_bytes::<u64>(&[0xff; 11]), Err(BinaryError));
        assert_eq!(from_bytes::<bool>(&[2]), Err(BinaryError));
        assert_eq!(
            from_bytes::<u64>(&[1, 0]),
            Err(BinaryError),
            "trailing byte"
        );
    }

    #[test]
    fn a_length_past_the_input_allocates_nothing() {
        // "a billion strings" in five bytes.
        let mut bytes = Vec::new();
        write_varint(1_000_000_000, &mut bytes);
        assert_eq!(from_bytes::<Vec<String>>(&bytes), Err(BinaryError));
        assert_eq!(from_bytes::<String>(&[3, b'a']), Err(BinaryError));
        assert_eq!(
            from_bytes::<String>(&[1, 0xff]),
            Err(BinaryError),
            "not UTF-8"
        );
    }

    #[test]
    fn every_prefix_of_a_value_is_an_error_not_a_panic() {
        let value: Vec<Option<String>> = vec![Some("worker-1".into()), None, Some(String::new())];
        let bytes = to_bytes(&value);
        assert_eq!(from_bytes::<Vec<Option<String>>>(&bytes), Ok(value));
        for n in 0..bytes.len() {
            assert_eq!(
                from_bytes::<Vec<Option<String>>>(&bytes[..n]),
                Err(BinaryError)
            );
        }
    }
}
