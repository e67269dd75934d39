//! The simulation result as it crosses the Web Worker boundary.
//!
//! It travels in the engine's binary form ([`engine::binary`]), not as JSON:
//! the page then holds no serde deserialiser for the result types and no JSON
//! parser for them, and reading a result is a pass over bytes. Two parts go
//! their own way: each trace's `item_lists` pool goes as its own `u32` array
//! (a transferable `Uint32Array`, copied straight into place), and `items`,
//! which are the same in every compared variant of a Connect scenario, go once.
//!
//! A field added to the engine's result types must be added to their
//! `engine::binary` impls (they name every field, so it does not compile
//! until it is).

use engine::binary::{Binary, Reader};
use engine::run::RunResult;

/// A result split for the trip: its binary form, plus each trace's item-list pool.
#[derive(Debug, PartialEq)]
pub struct Wire {
    /// Everything else, in binary.
    pub bytes: Vec<u8>,
    /// `item_lists` of each variant's trace, in order.
    pub lists: Vec<Vec<u32>>,
}

/// Splits a result for the trip.
pub fn encode(mut result: RunResult) -> Wire {
    let lists: Vec<Vec<u32>> = result
        .variants
        .iter_mut()
        .map(|v| std::mem::take(&mut v.trace.item_lists))
        .collect();
    // Items shared by every variant travel once, in the first.
    let shared = result
        .variants
        .split_first()
        .is_some_and(|(first, rest)| rest.iter().all(|v| v.trace.items == first.trace.items));
    if shared {
        for v in result.variants.iter_mut().skip(1) {
            v.trace.items = Vec::new();
        }
    }
    let mut bytes = Vec::new();
    shared.write(&mut bytes);
    result.write(&mut bytes);
    Wire { bytes, lists }
}

/// Puts a result back together; `lists` must be the ones [`encode`] split off.
pub fn decode(bytes: &[u8], lists: Vec<Vec<u32>>) -> Result<RunResult, String> {
    let unreadable = |_| "cannot read the result: it arrived damaged".to_string();
    let mut input = Reader::new(bytes);
    let shared = bool::read(&mut input).map_err(unreadable)?;
    let mut result = RunResult::read(&mut input).map_err(unreadable)?;
    input.finish().map_err(unreadable)?;
    if lists.len() != result.variants.len() {
        return Err("the result arrived without its item lists".to_string());
    }
    for (v, list) in result.variants.iter_mut().zip(lists) {
        v.trace.item_lists = list;
    }
    if shared {
        if let Some((first, rest)) = result.variants.split_first_mut() {
            for v in rest {
                v.trace.items = first.trace.items.clone();
            }
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_round_trips() {
        for preset in engine::presets::all() {
            let result = engine::run::run(&preset.scenario());
            let wire = encode(result.clone());
            assert!(
                wire.lists.iter().all(|l| !l.is_empty()),
                "item lists travel apart: {}",
                preset.id
            );
            assert_eq!(
                decode(&wire.bytes, wire.lists).expect("decodes"),
                result,
                "{}",
                preset.id
            );
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(decode(b"\x01\x03", Vec::new()).is_err());
        assert!(decode(b"", Vec::new()).is_err());
        let result = engine::run::run(&engine::presets::default_preset().scenario());
        let wire = encode(result);
        assert!(decode(&wire.bytes, Vec::new()).is_err(), "lists missing");
        let cut = &wire.bytes[..wire.bytes.len() / 2];
        assert!(decode(cut, wire.lists).is_err(), "cut short");
    }
}
