//! A simulation result as it leaves the simulator: for the page, across the
//! Web Worker boundary, and as a file the site ships with a preset's result
//! computed when the site was built ([`to_file`]; `rebalance presets --results`).
//!
//! It travels in the engine's binary form ([`crate::binary`]), not as JSON:
//! the page then holds no serde deserialiser for the result types and no JSON
//! parser for them, and reading a result is a pass over bytes. Two parts go
//! their own way: each trace's `item_lists` pool goes as its own `u32` array
//! (a transferable `Uint32Array`, copied straight into place), and `items`,
//! which are the same in every compared variant of a Connect scenario, go once.
//! Rounds' and protocol steps' explanations go once each too, in a table
//! that every round and step names by index: they were three quarters of a
//! rebalance storm's bytes (15.5 MB), and its 9,999 rounds have 3 distinct
//! explanations, its 49,996 steps 25,006. On arrival every round and step
//! shares its text with the table ([`crate::trace::Explanation`]), so the
//! page holds each text once and decoding does not copy 11 MB of them.
//!
//! Each trace's rounds, protocol steps and spans go last, one after the
//! other, so that the page can read them a part per task ([`Decoding`]):
//! read in one go, a storm's 6.6 MB made one 45–55 ms main-thread task.
//!
//! A field added to the engine's result types must be added to their
//! `binary` impls (they name every field, so it does not compile
//! until it is).

use crate::binary::{Binary, BinaryError, Reader};
use crate::run::RunResult;
use crate::trace::{Explanation, Trace};

/// A result split for the trip: its binary form, plus each trace's item-list pool.
#[derive(Clone, Debug, PartialEq)]
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
    let parts: Vec<Trace> = result
        .variants
        .iter_mut()
        .map(|v| Trace {
            rounds: std::mem::take(&mut v.trace.rounds),
            steps: std::mem::take(&mut v.trace.steps),
            spans: std::mem::take(&mut v.trace.spans),
            ..Trace::default()
        })
        .collect();
    let mut bytes = Vec::new();
    shared.write(&mut bytes);
    index.write(&mut bytes);
    result.write(&mut bytes);
    table.write(&mut bytes);
    for part in &parts {
        part.rounds.write(&mut bytes);
        part.steps.write(&mut bytes);
        part.spans.write(&mut bytes);
    }
    Wire { bytes, lists }
}

/// The parts of each trace that travel after the rest and the
/// explanations' table, in order.
const PARTS: usize = 3;

/// Every round's and step's explanation, in one order for both ends.
fn explanations(result: &mut RunResult) -> Vec<&mut Explanation> {
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
fn take_explanations(result: &mut RunResult) -> (Vec<Explanation>, Vec<u32>) {
    let mut texts: Vec<Explanation> = explanations(result)
        .into_iter()
        .map(std::mem::take)
        .collect();
    let order = crate::sort_by_key::stable_order(texts.len(), &|a, b| texts[a].cmp(&texts[b]));
    let mut index = vec![0u32; texts.len()];
    let mut table: Vec<Explanation> = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        if k == 0 || texts[order[k - 1]] != texts[i] {
            table.push(Explanation::default());
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
fn put_explanations(result: &mut RunResult, table: &[Explanation], index: &[u32]) -> bool {
    let texts = explanations(result);
    if texts.len() != index.len() {
        return false;
    }
    for (text, &i) in texts.into_iter().zip(index) {
        match table.get(i as usize) {
            Some(t) => *text = t.clone(),
            None => return false,
        }
    }
    true
}

/// A result being put back together a part at a time: the rest of it
/// first ([`Decoding::start`]), then the explanations' table and each
/// trace's rounds, steps and spans ([`Decoding::step`]), each small enough
/// for a task of its own. A result whose variants were simulated on
/// separate threads arrives in pieces, each [`encode`]d on its own
/// ([`Decoding::start_pieces`]); they are read one after the other, as one.
pub struct Decoding {
    current: PieceDecoding,
    /// The pieces still to read, last first.
    rest: Vec<Wire>,
    /// The variants of the pieces read.
    read: Vec<crate::run::VariantRun>,
}

impl Decoding {
    /// Reads everything of the result but the explanations and the traces'
    /// rounds, steps and spans; `lists` must be the ones [`encode`] split off.
    pub fn start(bytes: Vec<u8>, lists: Vec<Vec<u32>>) -> Result<Self, String> {
        Self::start_pieces(vec![Wire { bytes, lists }])
    }

    /// [`Self::start`] of a result in pieces: their variants, in order, are
    /// the result's.
    pub fn start_pieces(mut pieces: Vec<Wire>) -> Result<Self, String> {
        pieces.reverse();
        let first = pieces.pop().ok_or("the result arrived empty")?;
        Ok(Decoding {
            current: PieceDecoding::start(first.bytes, first.lists)?,
            rest: pieces,
            read: Vec::new(),
        })
    }

    /// True when every part has been read.
    pub fn done(&self) -> bool {
        self.current.done() && self.rest.is_empty()
    }

    /// Reads the next part (the explanations' table, or one trace's rounds,
    /// steps or spans; or the start of the next piece).
    pub fn step(&mut self) -> Result<(), String> {
        if !self.current.done() {
            return self.current.step();
        }
        let Some(next) = self.rest.pop() else {
            return Ok(());
        };
        let piece = std::mem::replace(
            &mut self.current,
            PieceDecoding::start(next.bytes, next.lists)?,
        );
        self.read.extend(piece.finish()?.variants);
        Ok(())
    }

    /// The whole result, once [`Self::done`].
    pub fn finish(self) -> Result<RunResult, String> {
        let Decoding {
            current, mut read, ..
        } = self;
        read.extend(current.finish()?.variants);
        Ok(RunResult { variants: read })
    }
}

/// One piece of a [`Decoding`].
struct PieceDecoding {
    bytes: Vec<u8>,
    /// Where the next part starts in `bytes`.
    at: usize,
    /// Parts read so far.
    parts: usize,
    shared: bool,
    table: Vec<Explanation>,
    index: Vec<u32>,
    lists: Vec<Vec<u32>>,
    result: RunResult,
}

fn unreadable(_: BinaryError) -> String {
    "cannot read the result: it arrived damaged".to_string()
}

impl PieceDecoding {
    /// Reads everything but the explanations and the traces' rounds, steps
    /// and spans; `lists` must be the ones [`encode`] split off.
    fn start(bytes: Vec<u8>, lists: Vec<Vec<u32>>) -> Result<Self, String> {
        let mut input = Reader::new(&bytes);
        let shared = bool::read(&mut input).map_err(unreadable)?;
        let index = Vec::<u32>::read(&mut input).map_err(unreadable)?;
        let result = RunResult::read(&mut input).map_err(unreadable)?;
        if lists.len() != result.variants.len() {
            return Err("the result arrived without its item lists".to_string());
        }
        let at = bytes.len() - input.remaining();
        Ok(PieceDecoding {
            bytes,
            at,
            parts: 0,
            shared,
            table: Vec::new(),
            index,
            lists,
            result,
        })
    }

    fn done(&self) -> bool {
        self.parts == 1 + self.result.variants.len() * PARTS
    }

    fn step(&mut self) -> Result<(), String> {
        if self.done() {
            return Ok(());
        }
        let mut input = Reader::new(&self.bytes[self.at..]);
        if self.parts == 0 {
            self.table = Vec::read(&mut input).map_err(unreadable)?;
        } else {
            let (variant, part) = ((self.parts - 1) / PARTS, (self.parts - 1) % PARTS);
            let trace = &mut self.result.variants[variant].trace;
            match part {
                0 => trace.rounds = Vec::read(&mut input).map_err(unreadable)?,
                1 => trace.steps = Vec::read(&mut input).map_err(unreadable)?,
                _ => trace.spans = Vec::read(&mut input).map_err(unreadable)?,
            }
        }
        self.at = self.bytes.len() - input.remaining();
        self.parts += 1;
        Ok(())
    }

    fn finish(self) -> Result<RunResult, String> {
        let PieceDecoding {
            bytes,
            at,
            shared,
            table,
            index,
            lists,
            mut result,
            ..
        } = self;
        // Bytes past the last part are damage.
        if at != bytes.len() || !put_explanations(&mut result, &table, &index) {
            return Err(unreadable(BinaryError));
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
}

/// Puts a result back together in one go; `lists` must be the ones
/// [`encode`] split off.
pub fn decode(bytes: Vec<u8>, lists: Vec<Vec<u32>>) -> Result<RunResult, String> {
    decode_pieces(vec![Wire { bytes, lists }])
}

/// [`decode`] of a result in pieces ([`Decoding::start_pieces`]).
pub fn decode_pieces(pieces: Vec<Wire>) -> Result<RunResult, String> {
    let mut decoding = Decoding::start_pieces(pieces)?;
    while !decoding.done() {
        decoding.step()?;
    }
    decoding.finish()
}

/// The first bytes of a result file: what it is, and its format's version.
const FILE_MAGIC: &[u8; 8] = b"RPRESLT1";

/// A result as one file: [`FILE_MAGIC`], the item lists, then the rest as
/// [`encode`] wrote it.
pub fn to_file(wire: &Wire) -> Vec<u8> {
    let mut out = FILE_MAGIC.to_vec();
    wire.lists.write(&mut out);
    out.extend_from_slice(&wire.bytes);
    out
}

/// A result file ([`to_file`]) split back into the parts [`Decoding::start`]
/// reads; an error for a file that is not one (another format's version, or
/// cut short before its item lists end).
pub fn from_file(mut file: Vec<u8>) -> Result<Wire, String> {
    if !file.starts_with(FILE_MAGIC) {
        return Err("not a result file of this version of the playground".to_string());
    }
    let mut input = Reader::new(&file[FILE_MAGIC.len()..]);
    let lists = Vec::<Vec<u32>>::read(&mut input).map_err(unreadable)?;
    let at = file.len() - input.remaining();
    let bytes = file.split_off(at);
    Ok(Wire { bytes, lists })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_round_trips_and_the_shipped_are_small() {
        for preset in crate::presets::all() {
            let result = crate::run::run(&preset.scenario());
            let wire = encode(result.clone());
            assert!(
                wire.lists.iter().all(|l| !l.is_empty()),
                "item lists travel apart: {}",
                preset.id
            );
            let file = to_file(&wire);
            assert_eq!(
                file.len() <= crate::presets::SHIPPED_RESULT_MAX_BYTES,
                preset.ships_result(),
                "{}: a {} B result file; presets::SIMULATED_WHEN_OPENED lists the presets whose result is larger than SHIPPED_RESULT_MAX_BYTES",
                preset.id,
                file.len()
            );
            let back = from_file(file).expect("reads");
            assert_eq!(
                decode(back.bytes, back.lists).expect("decodes"),
                result,
                "{}",
                preset.id
            );
        }
    }

    /// The rebalance storm preset's result: the largest of the presets.
    fn storm() -> RunResult {
        let preset = crate::presets::all()
            .iter()
            .find(|p| p.id == "connect/rebalance-storm")
            .expect("the storm preset");
        crate::run::run(&preset.scenario())
    }

    #[test]
    fn each_explanation_travels_once() {
        let mut result = storm();
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
    fn a_storm_is_read_a_part_at_a_time() {
        let result = storm();
        let wire = encode(result.clone());
        let total = wire.bytes.len();
        let mut decoding = Decoding::start(wire.bytes, wire.lists).expect("starts");
        assert!(decoding.current.result.variants[0].trace.rounds.is_empty());
        let mut sizes = vec![decoding.current.at];
        while !decoding.done() {
            let before = decoding.current.at;
            decoding.step().expect("a part");
            sizes.push(decoding.current.at - before);
        }
        assert_eq!(sizes.len(), 2 + PARTS * result.variants.len());
        assert!(
            sizes.iter().all(|&n| n * 2 < total),
            "no part is half the result: {sizes:?} of {total}"
        );
        assert_eq!(decoding.finish().expect("finishes"), result);
    }

    /// A result whose variants were encoded in pieces (simulated on separate
    /// threads) reads back as the whole, a part at a time.
    #[test]
    fn a_result_in_pieces_reads_as_one() {
        let result = storm();
        assert!(result.variants.len() >= 2);
        let pieces: Vec<Wire> = result
            .variants
            .iter()
            .map(|v| {
                encode(RunResult {
                    variants: vec![v.clone()],
                })
            })
            .collect();
        let mut decoding = Decoding::start_pieces(pieces).expect("starts");
        let mut steps = 0;
        while !decoding.done() {
            decoding.step().expect("a part");
            steps += 1;
        }
        // Each piece: its table and its traces' parts; and one step to
        // start each piece after the first.
        let n = result.variants.len();
        assert_eq!(steps, n * (1 + PARTS) + (n - 1));
        assert_eq!(decoding.finish().expect("finishes"), result);
        assert!(Decoding::start_pieces(Vec::new()).is_err());
        let damaged = vec![
            encode(result.clone()),
            Wire {
                bytes: vec![1, 2, 3],
                lists: Vec::new(),
            },
        ];
        let mut decoding = Decoding::start_pieces(damaged).expect("the first piece starts");
        let mut read = Ok(());
        while read.is_ok() && !decoding.done() {
            read = decoding.step();
        }
        assert!(read.is_err(), "a damaged second piece is an error");
    }

    #[test]
    fn a_result_file_reads_back() {
        let result = crate::run::run(&crate::presets::default_preset().scenario());
        let wire = encode(result.clone());
        let file = to_file(&wire);
        assert_eq!(from_file(file.clone()).expect("reads"), wire);
        let back = from_file(file.clone()).expect("reads");
        assert_eq!(decode(back.bytes, back.lists).expect("decodes"), result);
        assert!(from_file(b"RPRESLT0".to_vec()).is_err(), "another version");
        assert!(
            from_file(file[..FILE_MAGIC.len() + 1].to_vec()).is_err(),
            "cut short"
        );
        assert!(from_file(Vec::new()).is_err());
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(decode(b"\x01\x03".to_vec(), Vec::new()).is_err());
        assert!(decode(Vec::new(), Vec::new()).is_err());
        let result = crate::run::run(&crate::presets::default_preset().scenario());
        let wire = encode(result);
        assert!(
            decode(wire.bytes.clone(), Vec::new()).is_err(),
            "lists missing"
        );
        let cut = wire.bytes[..wire.bytes.len() / 2].to_vec();
        assert!(decode(cut, wire.lists.clone()).is_err(), "cut short");
        let mut longer = wire.bytes;
        longer.push(0);
        assert!(decode(longer, wire.lists).is_err(), "a byte too many");
    }
}
