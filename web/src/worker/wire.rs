//! The simulation result as it crosses the Web Worker boundary.
//!
//! Most of it travels as JSON text (structured-cloning a string is cheap and
//! `serde_json` is already in the page), but the two bulkiest parts of a big
//! trace do not: each trace's `item_lists` pool goes as its own `u32` array
//! (a transferable `Uint32Array`, no parsing at all), and `items`, which are
//! the same in every compared variant of a Connect scenario, go once. For
//! 1,000 workers × 100,000 tasks that cuts the JSON the main thread parses
//! from about 17 MB to about 6 MB.
//!
//! The engine's result types derive `Deserialize`, so a field added there
//! crosses the boundary with no change here.

use engine::run::RunResult;
use serde::Deserialize;

/// A result split for the trip: JSON, plus each trace's item-list pool.
#[derive(Debug, PartialEq)]
pub struct Wire {
    /// Everything else, as JSON.
    pub json: String,
    /// `item_lists` of each variant's trace, in order.
    pub lists: Vec<Vec<u32>>,
}

/// Splits a result for the trip.
pub fn encode(mut result: RunResult) -> Result<Wire, String> {
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
    let json = serde_json::to_string(&WireOut {
        shared_items: shared,
        result: &result,
    })
    .map_err(|e| format!("cannot encode the result: {e}"))?;
    Ok(Wire { json, lists })
}

/// Puts a result back together; `lists` must be the ones [`encode`] split off.
pub fn decode(json: &str, lists: Vec<Vec<u32>>) -> Result<RunResult, String> {
    let wire: WireIn =
        serde_json::from_str(json).map_err(|e| format!("cannot read the result: {e}"))?;
    let mut result = wire.result;
    if lists.len() != result.variants.len() {
        return Err("the result arrived without its item lists".to_string());
    }
    for (v, list) in result.variants.iter_mut().zip(lists) {
        v.trace.item_lists = list;
    }
    if wire.shared_items {
        if let Some((first, rest)) = result.variants.split_first_mut() {
            for v in rest {
                v.trace.items = first.trace.items.clone();
            }
        }
    }
    Ok(result)
}

#[derive(serde::Serialize)]
struct WireOut<'a> {
    shared_items: bool,
    result: &'a RunResult,
}

#[derive(Deserialize)]
struct WireIn {
    shared_items: bool,
    result: RunResult,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_round_trips() {
        for preset in engine::presets::all() {
            let result = engine::run::run(&preset.scenario());
            let wire = encode(result.clone()).expect("encodes");
            assert!(!wire.json.contains("item_lists\":[1"), "{}", preset.id);
            assert_eq!(
                decode(&wire.json, wire.lists).expect("decodes"),
                result,
                "{}",
                preset.id
            );
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(decode("{\"variants\": 3}", Vec::new()).is_err());
        assert!(decode("", Vec::new()).is_err());
        let result = engine::run::run(&engine::presets::default_preset().scenario());
        let wire = encode(result).expect("encodes");
        assert!(decode(&wire.json, Vec::new()).is_err(), "lists missing");
    }
}
