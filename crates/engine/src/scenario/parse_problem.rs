//! A scenario that does not parse, told in plain words: serde's messages
//! ("invalid type: string "4", expected u32") say the same thing in Rust's
//! terms, and the text around the error replaces a line and column.

use super::wire::PathedError;
use super::ScenarioError;

/// The error for JSON text that does not read as a scenario.
pub(super) fn parse_error(text: &str, failure: PathedError) -> ScenarioError {
    let PathedError { mut path, error } = failure;
    let message = without_position(&error);
    // serde_path_to_error counts an unknown key into the path; the message
    // names it already, so the path stops at the object that holds it.
    if let Some(key) = message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(key, _)| key)
    {
        if let Some(holder) = path.strip_suffix(key) {
            path = holder.trim_end_matches('.').to_string();
        }
    }
    let (line, column) = (error.line(), error.column());
    // serde_json gives no position for errors raised outside its parser.
    let snippet = if line == 0 {
        String::new()
    } else {
        snippet(text, line, column)
    };
    ScenarioError::Parse {
        problem: plain_words(&message, &path),
        path,
        snippet,
        line: (line > 0 && text.trim().contains('\n')).then_some(line),
    }
}

/// serde_json's message without the " at line L column C" it appends.
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    match text.strip_suffix(&suffix) {
        Some(message) if error.line() > 0 => message.to_string(),
        _ => text,
    }
}

/// Bytes of context shown before and after the error position.
const BEFORE: usize = 32;
const AFTER: usize = 12;

/// The text around a 1-based line and column (column counted in bytes, as
/// serde_json counts it), on one line with runs of white space shown as one
/// space, `…` marking where it was cut.
pub(super) fn snippet(text: &str, line: usize, column: usize) -> String {
    let line_start = text
        .match_indices('\n')
        .nth(line.saturating_sub(2))
        .map_or(0, |(i, _)| if line > 1 { i + 1 } else { 0 });
    let at = (line_start + column).min(text.len());
    let mut start = at.saturating_sub(BEFORE);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + AFTER).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let mut body = String::new();
    let mut last_space = false;
    for c in text[start..end].chars() {
        let space = c.is_whitespace();
        if !(space && last_space) {
            body.push(if space { ' ' } else { c });
        }
        last_space = space;
    }
    let cut_before = if start > 0 { "…" } else { "" };
    let cut_after = if end < text.len() { "…" } else { "" };
    format!("{cut_before}{}{cut_after}", body.trim())
}

/// serde's (and serde_json's) message in words a person reading the
/// scenario format understands; `path` is where it happened (an unknown
/// variant under a `type` key is an unknown event type).
pub(super) fn plain_words(message: &str, path: &str) -> String {
    if let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
    {
        if let Some((got, expected)) = rest.rsplit_once(", expected ") {
            return wrong_value(got, expected);
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (name, known) = split_choices(rest);
        return match known {
            Some(known) => format!("unknown key {name} (known keys: {known})"),
            None => format!("unknown key {name} (this object has no keys)"),
        };
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (name, known) = split_choices(rest);
        // The event type is read from the buffered event, so the path stops at it.
        let event = path.starts_with("events[") && (path.ends_with(']') || path.ends_with(".type"));
        let what = if event { "event type" } else { "value" };
        return match known {
            Some(known) => format!("unknown {what} {name} (one of: {known})"),
            None => format!("unknown {what} {name}"),
        };
    }
    if let Some(name) = message.strip_prefix("missing field ") {
        return format!("{name} is missing");
    }
    if let Some(name) = message.strip_prefix("duplicate field ") {
        return format!("{name} is given twice");
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        if let Some((n, expected)) = rest.split_once(", expected ") {
            return format!("has {n} items, expected {}", expected_words(expected));
        }
    }
    if let Some(words) = syntax_words(message) {
        return format!("the text is not valid JSON: {words}");
    }
    message.to_string()
}

/// "expected …, got …" from serde's unexpected value and expectation.
fn wrong_value(got: &str, expected: &str) -> String {
    let got_words = got_words(got);
    // A whole number that does not fit: say how large it may be.
    if let (Some(max), Some(n)) = (unsigned_max(expected), got.strip_prefix("integer `")) {
        if !n.starts_with('-') {
            return format!("expected a whole number from 0 to {max}, got {got_words}");
        }
    }
    format!("expected {}, got {got_words}", expected_words(expected))
}

fn unsigned_max(expected: &str) -> Option<u64> {
    match expected {
        "u8" => Some(u64::from(u8::MAX)),
        "u16" => Some(u64::from(u16::MAX)),
        "u32" => Some(u64::from(u32::MAX)),
        "u64" | "usize" => Some(u64::MAX),
        _ => None,
    }
}

/// serde's `Expected` text in plain words.
fn expected_words(expected: &str) -> String {
    match expected {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number ≥ 0".to_string(),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".to_string(),
        "f32" | "f64" => "a number".to_string(),
        "a boolean" => "true or false".to_string(),
        "a string" | "a borrowed string" | "a character" | "a char" => {
            "text in double quotes".to_string()
        }
        "a sequence" | "a tuple" => "a list ([…])".to_string(),
        "a map" | "a JSON object" => "an object ({…})".to_string(),
        e if e.starts_with("struct ")
            || e.starts_with("internally tagged enum ")
            || e.starts_with("map") =>
        {
            "an object ({…})".to_string()
        }
        e if e.starts_with("unit variant") || e.starts_with("enum ") => "a value".to_string(),
        other => other.to_string(),
    }
}

/// serde's `Unexpected` text (`string "4"`, `integer `5``, `map`) as the
/// JSON reader would see it.
fn got_words(got: &str) -> String {
    let ticked = |prefix: &str| {
        got.strip_prefix(prefix)
            .and_then(|v| v.strip_prefix('`'))
            .and_then(|v| v.strip_suffix('`'))
            .map(str::to_string)
    };
    if let Some(s) = got.strip_prefix("string ") {
        return shorten(s);
    }
    for prefix in ["integer ", "floating point ", "boolean "] {
        if let Some(v) = ticked(prefix) {
            return v;
        }
    }
    if let Some(c) = ticked("character ") {
        return format!("\"{c}\"");
    }
    match got {
        "null" | "unit value" => "null".to_string(),
        "map" => "an object".to_string(),
        "sequence" => "a list".to_string(),
        other => other.to_string(),
    }
}

fn shorten(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(MAX).collect::<String>())
    }
}

/// "`x`, expected one of `a`, `b`" → ("`x`", Some("`a`, `b`")); also
/// serde's "expected `a` or `b`", "expected `a`" and "there are no …".
fn split_choices(rest: &str) -> (&str, Option<String>) {
    let Some((name, tail)) = rest.split_once(", ") else {
        return (rest, None);
    };
    if tail.starts_with("there are no ") {
        return (name, None);
    }
    let choices = tail
        .strip_prefix("expected one of ")
        .or_else(|| tail.strip_prefix("expected "))
        .unwrap_or(tail);
    (name, Some(choices.replace("` or `", "`, `")))
}

/// serde_json's syntax messages (`ErrorCode`) in plain words.
fn syntax_words(message: &str) -> Option<&'static str> {
    Some(match message {
        "EOF while parsing a list" => "it ends inside a list (was it cut off?)",
        "EOF while parsing an object" => "it ends inside an object (was it cut off?)",
        "EOF while parsing a string" => "it ends inside a text in quotes (was it cut off?)",
        "EOF while parsing a value" => "it ends where a value should follow (was it cut off?)",
        "expected `:`" => "a `:` is missing after a key",
        "expected `,` or `]`" => "a `,` or `]` is missing",
        "expected `,` or `}`" => "a `,` or `}` is missing",
        "expected ident" => "a word that is not true, false or null",
        "expected value" => "something that is not a value (text needs double quotes)",
        "invalid escape" => "a `\\` escape in a text is not valid",
        "invalid number" => "a number is not written as JSON writes numbers",
        "number out of range" => "a number is too large",
        "invalid unicode code point"
        | "lone leading surrogate in hex escape"
        | "unexpected end of hex escape" => "a `\\u` escape in a text is not valid",
        "control character (\\u0000-\\u001F) found while parsing a string" => {
            "a text in quotes contains a line break or another control character"
        }
        "key must be a string" => "a key is not in double quotes",
        "trailing comma" => "a `,` comes right before a closing bracket",
        "trailing characters" => "there is more after the scenario's closing `}`",
        "recursion limit exceeded" => "lists or objects are nested too deeply",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_errors_say_what_was_expected_and_what_came() {
        assert_eq!(
            plain_words(
                r#"invalid type: string "4", expected u32"#,
                "connect.workers"
            ),
            r#"expected a whole number ≥ 0, got "4""#
        );
        assert_eq!(
            plain_words("invalid value: integer `-1`, expected u64", "seed"),
            "expected a whole number ≥ 0, got -1"
        );
        assert_eq!(
            plain_words("invalid value: integer `5000000000`, expected u32", "x"),
            "expected a whole number from 0 to 4294967295, got 5000000000"
        );
        assert_eq!(
            plain_words("invalid type: floating point `1.5`, expected u32", "x"),
            "expected a whole number ≥ 0, got 1.5"
        );
        assert_eq!(
            plain_words("invalid type: string \"yes\", expected a boolean", "x"),
            "expected true or false, got \"yes\""
        );
        assert_eq!(
            plain_words("invalid type: integer `3`, expected a string", "title"),
            "expected text in double quotes, got 3"
        );
        assert_eq!(
            plain_words(
                "invalid type: sequence, expected struct ConnectCluster",
                "connect"
            ),
            "expected an object ({…}), got a list"
        );
        assert_eq!(
            plain_words("invalid type: map, expected a sequence", "events"),
            "expected a list ([…]), got an object"
        );
        assert_eq!(
            plain_words("invalid type: null, expected u32", "connect.workers"),
            "expected a whole number ≥ 0, got null"
        );
    }

    #[test]
    fn unknown_keys_and_variants_list_the_known_ones() {
        assert_eq!(
            plain_words(
                "unknown field `wroker`, expected `at_ms` or `worker`",
                "events[0]"
            ),
            "unknown key `wroker` (known keys: `at_ms`, `worker`)"
        );
        assert_eq!(
            plain_words(
                "unknown field `tsks`, expected one of `name`, `tasks`, `count`",
                "connect.connectors[0]"
            ),
            "unknown key `tsks` (known keys: `name`, `tasks`, `count`)"
        );
        assert_eq!(
            plain_words("unknown field `x`, there are no fields", "a"),
            "unknown key `x` (this object has no keys)"
        );
        assert_eq!(
            plain_words(
                "unknown variant `worker_jump`, expected one of `worker_join`, `worker_stop`",
                "events[0]"
            ),
            "unknown event type `worker_jump` (one of: `worker_join`, `worker_stop`)"
        );
        assert_eq!(
            plain_words(
                "unknown variant `lazy`, expected one of `eager`, `compatible`, `sessioned`",
                "connect.config.connect.protocol"
            ),
            "unknown value `lazy` (one of: `eager`, `compatible`, `sessioned`)"
        );
    }

    #[test]
    fn missing_duplicate_and_syntax() {
        assert_eq!(
            plain_words("missing field `tasks`", "connect.connectors[2]"),
            "`tasks` is missing"
        );
        assert_eq!(
            plain_words("duplicate field `tasks`", "connect.connectors[2]"),
            "`tasks` is given twice"
        );
        assert_eq!(
            plain_words("EOF while parsing an object", ""),
            "the text is not valid JSON: it ends inside an object (was it cut off?)"
        );
        assert_eq!(
            plain_words("key must be a string", ""),
            "the text is not valid JSON: a key is not in double quotes"
        );
        // Messages the scenario types write themselves are already plain.
        let own = "`x` is not a Kafka version like 2.3 or 3.8";
        assert_eq!(plain_words(own, "streams.kafka_version"), own);
    }

    #[test]
    fn no_rust_words_reach_people() {
        for message in [
            r#"invalid type: string "4", expected u32"#,
            "invalid type: integer `1`, expected a boolean",
            "invalid type: map, expected internally tagged enum Event",
            "invalid value: integer `-3`, expected u8",
            "invalid length 3, expected a sequence",
        ] {
            let words = plain_words(message, "x");
            for jargon in [
                "u32",
                "u8",
                "struct",
                "enum",
                "sequence",
                "invalid type",
                "map",
            ] {
                assert!(!words.contains(jargon), "{words}");
            }
        }
    }

    #[test]
    fn snippets_quote_the_text_around_the_error() {
        let link = r#"{"version":1,"connect":{"workers":3,"connectors":[{"name":"c","tasks":"4"},{"name":"d","tasks":4}]}}"#;
        let at = link.find(r#""4""#).unwrap() + 3;
        let s = snippet(link, 1, at);
        assert!(s.contains(r#""tasks":"4""#), "{s}");
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        // Lines and indentation become single spaces.
        let file = "{\n  \"version\": 1,\n  \"connect\": {\n    \"workers\": \"4\"\n  }\n}";
        assert_eq!(
            snippet(file, 4, 18),
            "…\"connect\": { \"workers\": \"4\" } }"
        );
        // Never splits a character, even at the ends.
        let wide = format!("{}\"x\": tru", "é".repeat(40));
        for column in 0..wide.len() + 5 {
            let _ = snippet(&wide, 1, column);
        }
        assert_eq!(snippet("", 1, 0), "");
    }
}
