//! Scenario links: the URL fragment that carries a whole scenario, so a static
//! site can share and embed it.
//!
//! * `#s=<version>.<codec>.<payload>` — a scenario. Version `1`. Codec `z` is
//!   raw deflate then base64url without padding, used only when it saves at
//!   least 20%; otherwise `j`, base64url of the JSON.
//! * `#p=<preset-id>` — a built-in preset.
//! * Either, followed by `&sweep=<version>.<codec>.<payload>` — a parameter
//!   sweep over that scenario ([`crate::sweep::link`]); [`decode`] reads
//!   the scenario part of such a link and leaves the sweep to `sweep::link`.
//!
//! View options (`?embed=1`) live in the query string, never in the scenario.
//! A link is untrusted input: every way it can be wrong is a [`LinkError`] with
//! a message a person can act on, and decoding never allocates more than
//! [`MAX_DECODED_BYTES`].

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use crate::scenario::{Scenario, ScenarioError};

/// The link format version this build writes.
pub const LINK_VERSION: u32 = 1;
/// Longest fragment accepted (16 KiB).
pub const MAX_FRAGMENT_BYTES: usize = 16 * 1024;
/// Largest scenario JSON a link may inflate to (1 MiB): a deflate bomb stops here.
pub const MAX_DECODED_BYTES: usize = 1024 * 1024;
/// Compression must save at least this share to be used.
const MIN_SAVING: f64 = 0.2;

/// What a link points at.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkTarget {
    /// A scenario carried in the link.
    Scenario(Box<Scenario>),
    /// A built-in preset, by id.
    Preset(String),
    /// No scenario in the link (an empty fragment): show the default.
    Empty,
}

/// Why a link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Longer than [`MAX_FRAGMENT_BYTES`].
    TooLong(usize),
    /// The fragment is neither `s=…` nor `p=…`.
    UnknownKind,
    /// `s=` without the `<version>.<codec>.<payload>` parts.
    Truncated,
    /// `s=.…`: the link format version is missing.
    MissingVersion,
    /// A link version this build cannot read.
    UnsupportedVersion(String),
    /// A codec other than `z` or `j`.
    UnknownCodec(String),
    /// The payload is not base64url.
    BadEncoding,
    /// The payload's base64url stops part-way through a byte: a link cut
    /// short (its length, or its last character, no whole link has).
    CutShort,
    /// The payload is not valid deflate data (often a link cut short).
    BadCompression,
    /// The payload inflates past [`MAX_DECODED_BYTES`].
    TooLargeWhenDecoded,
    /// The preset id is empty or malformed.
    BadPresetId,
    /// The payload decodes, but the scenario inside is not valid.
    Scenario(ScenarioError),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLong(n) => write!(
                f,
                "This link is too long ({n} characters; links hold at most {MAX_FRAGMENT_BYTES}). Share the scenario as a downloaded .json file instead."
            ),
            Self::UnknownKind => f.write_str(
                "This link does not hold a scenario: the part after # should start with s= (a scenario) or p= (a preset).",
            ),
            Self::Truncated => f.write_str(
                "This scenario link is incomplete; it may have been cut off when it was copied. Copy the whole link again.",
            ),
            Self::MissingVersion => write!(
                f,
                "This scenario link has no format version: the part after #s= should start with {LINK_VERSION}. It may have been edited or cut; copy the whole link again."
            ),
            Self::UnsupportedVersion(v) => write!(
                f,
                "This link uses link format version {v}, which this playground does not know (it reads version {LINK_VERSION}). It may come from a newer version of the playground."
            ),
            Self::UnknownCodec(c) => write!(
                f,
                "This link uses an unknown encoding `{c}` (expected z or j). It may come from a newer version of the playground."
            ),
            Self::BadEncoding => f.write_str(
                "This scenario link is damaged: it contains characters a scenario link never has. Copy the whole link again.",
            ),
            Self::CutShort => f.write_str(
                "This scenario link is cut off: its data stops part-way through. Copy the whole link again.",
            ),
            Self::BadCompression => f.write_str(
                "This scenario link is damaged or cut off: its compressed data does not decode. Copy the whole link again.",
            ),
            Self::TooLargeWhenDecoded => write!(
                f,
                "This link's scenario is larger than {} KiB when unpacked, more than any real scenario; it was not opened.",
                MAX_DECODED_BYTES / 1024
            ),
            Self::BadPresetId => f.write_str("This preset link has no valid preset id after p=."),
            Self::Scenario(e) => write!(f, "This link's scenario cannot be used. {e}"),
        }
    }
}

impl std::error::Error for LinkError {}

/// The fragment (without `#`) that carries `scenario`.
pub fn encode(scenario: &Scenario) -> String {
    encode_json(&scenario.to_json())
}

/// The fragment for a scenario's JSON, as given (compact, not checked):
/// deflate only when it saves a fifth.
pub fn encode_json(json: &str) -> String {
    format!("s={}", encode_body(LINK_VERSION, json))
}

/// `<version>.<codec>.<payload>` for a JSON text: deflate (`z`) only when it
/// saves a fifth, base64url JSON (`j`) otherwise. The scenario part and a
/// sweep's `&sweep=` part are both written this way.
pub(crate) fn encode_body(version: u32, json: &str) -> String {
    let compressed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    let saves = 1.0 - compressed.len() as f64 / json.len().max(1) as f64;
    if saves >= MIN_SAVING {
        format!("{version}.z.{}", URL_SAFE_NO_PAD.encode(compressed))
    } else {
        format!("{version}.j.{}", URL_SAFE_NO_PAD.encode(json.as_bytes()))
    }
}

/// The fragment for a preset.
pub fn preset_fragment(id: &str) -> String {
    format!("p={id}")
}

/// What a link carries before its scenario is parsed: the page's module
/// stops here (it holds no scenario parser) and hands the JSON to the
/// simulator's, which parses it with [`parse_scenario`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkPayload {
    /// A scenario's JSON text, unpacked but not yet parsed.
    Json(String),
    /// A built-in preset, by id.
    Preset(String),
    /// No scenario in the link.
    Empty,
}

/// Decodes a whole URL, a `#fragment` or a bare fragment.
pub fn decode(link: &str) -> Result<LinkTarget, LinkError> {
    match decode_payload(link)? {
        LinkPayload::Json(text) => parse_scenario(&text).map(|s| LinkTarget::Scenario(Box::new(s))),
        LinkPayload::Preset(id) => Ok(LinkTarget::Preset(id)),
        LinkPayload::Empty => Ok(LinkTarget::Empty),
    }
}

/// A link's scenario JSON (from [`decode_payload`]), parsed and validated.
pub fn parse_scenario(text: &str) -> Result<Scenario, LinkError> {
    // A link's JSON is one line nobody sees: its errors quote the text
    // around the problem instead of a line number.
    Scenario::from_json(text).map_err(|e| LinkError::Scenario(e.without_line()))
}

/// Decodes a link up to its payload: every check but the scenario's own.
pub fn decode_payload(link: &str) -> Result<LinkPayload, LinkError> {
    let link = link.trim();
    let fragment = match link.find('#') {
        Some(i) => &link[i + 1..],
        None if link.starts_with("s=") || link.starts_with("p=") => link,
        None if link.contains("://") || link.starts_with('?') => "",
        None => link,
    };
    if fragment.len() > MAX_FRAGMENT_BYTES {
        return Err(LinkError::TooLong(fragment.len()));
    }
    // A sweep link carries its sweep after the scenario (`&sweep=`, read by
    // `sweep::link`); the scenario part decodes as it always did.
    let fragment = fragment
        .split_once(SWEEP_PART)
        .map_or(fragment, |(scenario, _)| scenario);
    if fragment.is_empty() {
        return Ok(LinkPayload::Empty);
    }
    if let Some(id) = fragment.strip_prefix("p=") {
        return decode_preset_id(id).map(LinkPayload::Preset);
    }
    let Some(body) = fragment.strip_prefix("s=") else {
        return Err(LinkError::UnknownKind);
    };
    decode_body(LINK_VERSION, body).map(LinkPayload::Json)
}

/// Where a sweep link's sweep starts in the fragment.
pub const SWEEP_PART: &str = "&sweep=";

/// The JSON text of a `<version>.<codec>.<payload>` body written by
/// [`encode_body`], checking the version, the encoding and the size limit.
// Out of line: inlined, a preset link's decode (the page's first task)
// compiled the base64 and inflate path it never takes (issue #13).
#[inline(never)]
pub(crate) fn decode_body(expected_version: u32, body: &str) -> Result<String, LinkError> {
    let mut parts = body.splitn(3, '.');
    let (Some(version), Some(codec), Some(payload)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(LinkError::Truncated);
    };
    if version.is_empty() {
        return Err(LinkError::MissingVersion);
    }
    if version != expected_version.to_string() {
        return Err(LinkError::UnsupportedVersion(shorten(version)));
    }
    if payload.is_empty() {
        return Err(LinkError::Truncated);
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|e| match e {
            base64::DecodeError::InvalidLength(_)
            | base64::DecodeError::InvalidLastSymbol { .. } => LinkError::CutShort,
            _ => LinkError::BadEncoding,
        })?;
    let json = match codec {
        "z" => miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_DECODED_BYTES)
            .map_err(|e| match e.status {
                miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooLargeWhenDecoded,
                _ => LinkError::BadCompression,
            })?,
        "j" => bytes,
        other => return Err(LinkError::UnknownCodec(shorten(other))),
    };
    String::from_utf8(json).map_err(|_| LinkError::BadEncoding)
}

fn decode_preset_id(id: &str) -> Result<String, LinkError> {
    let id = id.split('&').next().unwrap_or("");
    let valid = !id.is_empty()
        && id.len() <= 100
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/' | '.'));
    if valid {
        Ok(id.to_string())
    } else {
        Err(LinkError::BadPresetId)
    }
}

fn shorten(s: &str) -> String {
    s.chars().take(20).collect()
}

#[cfg(test)]
mod tests;
