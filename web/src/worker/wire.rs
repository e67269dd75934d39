//! The simulation result as it crosses the Web Worker boundary.
//!
//! It travels in the engine's binary form ([`engine::binary`]), not as JSON:
//! the page then holds no serde deserialiser for the result types and no JSON
//! parser for them, and reading a result is a pass over bytes. Two parts go
//! their own way: each trace's `item_lists` pool goes as its own `u32` array
//! (a transferable `Uint32Array`, copied straight into place), and `items`,
//! which are the same in every compared variant of a Connect scenario, go once.
//! Rounds' and protocol steps' explanations go once each too, in a table
//! that every round and step names by index: they were three quarters of a
//! rebalance storm's bytes (15.5 MB), and its 9,999 rounds have 3 distinct
//! explanations, its 49,996 steps 25,006.
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
    let (table, index) = take_explanations(&mut result);
    let mut bytes = Vec::new();
    shared.write(&mut bytes);
    table.write(&mut bytes);
    index.write(&mut bytes);
    result.write(&mut bytes);
    Wire { bytes, lists }
}

/// Every round's and step's explanation, in one order for both ends.
fn explanations(result: &mut RunResult) -> Vec<&mut String> {
    let mut all = Vec::new();
    for v in &mut result.variants {
        all.extend(v.trace.rounds.iter_mut().map(|r| &mut r.explanation));
        all.extend(v.trace.steps.iter_mut().map(|s| &mut s.explanation));
    }
    all
}

/// Takes the explanations out of `result`: the distinct texts, and for
/// each round and step the index of its own. Equal texts are found by
/// sorting (the engine's shared sort: a map here would add its own code to
/// the simulator's module).
fn take_explanations(result: &mut RunResult) -> (Vec<String>, Vec<u32>) {
    let mut texts: Vec<String> = explanations(result)
        .into_iter()
        .map(std::mem::take)
        .collect();
    let order = engine::sort_by_key::stable_order(texts.len(), &|a, b| texts[a].cmp(&texts[b]));
    let mut index = vec![0u32; texts.len()];
    let mut table: Vec<String> = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        if k == 0 || texts[order[k - 1]] != texts[i] {
            table.push(String::new());
        }
        index[i] = table.len() as u32 - 1;
    }
    // Each distinct text moves into the table from its first occurrence.
    for (i, text) in texts.iter_mut().enumerate() {
        let slot = &mut table[index[i] as usize];
        if slot.is_empty() {
            *slot = std::mem::take(text);
        }
    }
    (table, index)
}

/// Puts the explanations [`take_explanations`] took back; false when the
/// index does not fit the result or the table.
fn put_explanations(result: &mut RunResult, table: &[String], index: &[u32]) -> bool {
    let texts = explanations(result);
    if texts.len() != index.len() {
        return false;
    }
    for (text, &i) in texts.into_iter().zip(index) {
        match table.get(i as usize) {
            Some(t) => t.clone_into(text),
            None => return false,
        }
    }
    true
}

/// Puts a result back together; `lists` must be the ones [`encode`] split off.
pub fn decode(bytes: &[u8], lists: Vec<Vec<u32>>) -> Result<RunResult, String> {
    let unreadable = |_| "cannot read the result: it arrived damaged".to_string();
    let mut input = Reader::new(bytes);
    let shared = bool::read(&mut input).map_err(unreadable)?;
    let table = Vec::<String>::read(&mut input).map_err(unreadable)?;
    let index = Vec::<u32>::read(&mut input).map_err(unreadable)?;
    let mut result = RunResult::read(&mut input).map_err(unreadable)?;
    input.finish().map_err(unreadable)?;
    if !put_explanations(&mut result, &table, &index) {
        return Err(unreadable(engine::binary::BinaryError));
    }
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
    fn each_explanation_travels_once() {
        let storm = engine::presets::all()
            .iter()
            .find(|p| p.id == "connect/rebalance-storm")
            .expect("the storm preset");
        let mut result = engine::run::run(&storm.scenario());
        let rounds = result.variants[0].trace.rounds.len();
        let (table, index) = take_explanations(&mut result);
        assert!(rounds > 1_000, "a storm has many rounds");
        assert!(index.len() > rounds);
        assert!(
            table.len() * 2 <= index.len(),
            "{} of {}",
            table.len(),
            index.len()
        );
        assert!(
            !put_explanations(&mut result.clone(), &table, &index[1..]),
            "too few"
        );
        let mut longer = index.clone();
        longer.push(0);
        assert!(
            !put_explanations(&mut result.clone(), &table, &longer),
            "too many"
        );
        assert!(
            !put_explanations(&mut result.clone(), &table[..1], &index),
            "past the table"
        );
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
