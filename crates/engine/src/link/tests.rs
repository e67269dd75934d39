use super::*;

fn tiny() -> Scenario {
    Scenario::from_json(
        r#"{"version":1,"title":"A worker joins","connect":{"workers":3,"connectors":[{"name":"c1","tasks":4},{"name":"c2","tasks":4}]},
            "events":[{"at_ms":30000,"type":"worker_join"}]}"#,
    )
    .unwrap()
}

fn scenario_of(target: LinkTarget) -> Scenario {
    match target {
        LinkTarget::Scenario(s) => *s,
        other => panic!("expected a scenario, got {other:?}"),
    }
}

#[test]
fn round_trips_through_fragment_url_and_hash() {
    let s = tiny();
    let frag = encode(&s);
    assert!(frag.starts_with("s=1."), "{frag}");
    assert_eq!(scenario_of(decode(&frag).unwrap()), s);
    assert_eq!(scenario_of(decode(&format!("#{frag}")).unwrap()), s);
    assert_eq!(
        scenario_of(decode(&format!("https://example.org/play/?embed=1#{frag}")).unwrap()),
        s
    );
}

#[test]
fn compression_is_used_only_when_it_saves_a_fifth() {
    let mut big = tiny();
    big.description = "a long, repetitive description ".repeat(20);
    assert!(encode(&big).starts_with("s=1.z."));
    // Short JSON barely compresses: plain base64url wins.
    let json = r#"{"version":1,"connect":{"workers":1}}"#;
    let frag = encode_json(json);
    assert_eq!(frag, format!("s=1.j.{}", URL_SAFE_NO_PAD.encode(json)));
}

#[test]
fn presets_and_empty() {
    assert_eq!(
        decode("#p=connect/worker-dies").unwrap(),
        LinkTarget::Preset("connect/worker-dies".into())
    );
    assert_eq!(decode("").unwrap(), LinkTarget::Empty);
    assert_eq!(decode("https://example.org/").unwrap(), LinkTarget::Empty);
    assert_eq!(decode("#p=").unwrap_err(), LinkError::BadPresetId);
    assert_eq!(decode("#p=<script>").unwrap_err(), LinkError::BadPresetId);
}

#[test]
fn truncated_links_are_reported() {
    let frag = encode(&tiny());
    assert_eq!(decode("#s=1").unwrap_err(), LinkError::Truncated);
    assert_eq!(decode("#s=1.z.").unwrap_err(), LinkError::Truncated);
    // Cut in the middle of the compressed payload.
    let cut = &frag[..frag.len() / 2];
    let err = decode(cut).unwrap_err();
    assert!(
        matches!(
            err,
            LinkError::BadCompression | LinkError::BadEncoding | LinkError::CutShort
        ),
        "{err:?}"
    );
    // Cut to a length base64 cannot have (one character into a group of
    // four): cut off, not "characters a link never has".
    let start = frag.rfind('.').unwrap() + 1;
    let odd = start + (frag.len() - start - 2) / 4 * 4 + 1;
    assert_eq!(decode(&frag[..odd]).unwrap_err(), LinkError::CutShort);
    // Every prefix is an error or a scenario, never a panic.
    for n in 0..frag.len() {
        let _ = decode(&frag[..n]);
    }
}

#[test]
fn mis_encoded_unknown_version_and_codec() {
    assert_eq!(decode("#s=1.z.!!!!").unwrap_err(), LinkError::BadEncoding);
    assert_eq!(
        decode("#s=9.z.AAAA").unwrap_err(),
        LinkError::UnsupportedVersion("9".into())
    );
    assert_eq!(
        decode("#s=1.q.AAAA").unwrap_err(),
        LinkError::UnknownCodec("q".into())
    );
    assert_eq!(decode("#x=1").unwrap_err(), LinkError::UnknownKind);
    let not_json = format!("#s=1.j.{}", URL_SAFE_NO_PAD.encode(b"{not json"));
    assert!(matches!(
        decode(&not_json).unwrap_err(),
        LinkError::Scenario(ScenarioError::Parse { .. })
    ));
}

#[test]
fn oversized_fragment_is_refused_before_decoding() {
    let huge = format!("#s=1.j.{}", "A".repeat(MAX_FRAGMENT_BYTES));
    assert!(matches!(decode(&huge).unwrap_err(), LinkError::TooLong(_)));
}

#[test]
fn deflate_bomb_stops_at_the_limit() {
    // 8 MiB of spaces deflate to about 8 KiB; inflating must stop at 1 MiB.
    let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 8 * 1024 * 1024], 9);
    let frag = format!("s=1.z.{}", URL_SAFE_NO_PAD.encode(&bomb));
    assert!(
        frag.len() <= MAX_FRAGMENT_BYTES,
        "bomb fits in a link: {}",
        frag.len()
    );
    assert_eq!(decode(&frag).unwrap_err(), LinkError::TooLargeWhenDecoded);
}

#[test]
fn absurd_scenarios_are_refused_with_the_field() {
    let json =
        r#"{"version":1,"connect":{"workers":3,"connectors":[{"name":"c","tasks":1000000000}]}}"#;
    let frag = format!("s=1.j.{}", URL_SAFE_NO_PAD.encode(json));
    let err = decode(&frag).unwrap_err();
    assert!(
        err.to_string().contains("connect.connectors[0].tasks"),
        "{err}"
    );
    let json = r#"{"version":1,"connect":{"workers":3,"connectors":[{"name":"c","tasks":1000,"count":1000000}]}}"#;
    let frag = format!("s=1.j.{}", URL_SAFE_NO_PAD.encode(json));
    assert!(matches!(
        decode(&frag).unwrap_err(),
        LinkError::Scenario(ScenarioError::Invalid { .. })
    ));
}

#[test]
fn messages_are_sentences_a_person_can_act_on() {
    for err in [
        LinkError::TooLong(20000),
        LinkError::UnknownKind,
        LinkError::Truncated,
        LinkError::MissingVersion,
        LinkError::UnsupportedVersion("2".into()),
        LinkError::UnknownCodec("q".into()),
        LinkError::BadEncoding,
        LinkError::CutShort,
        LinkError::BadCompression,
        LinkError::TooLargeWhenDecoded,
        LinkError::BadPresetId,
    ] {
        let msg = err.to_string();
        assert!(msg.starts_with("This ") && msg.ends_with('.'), "{msg}");
    }
}

/// Issue #15: a link's scenario errors quote the decoded JSON, not a column.
#[test]
fn link_errors_quote_the_json_instead_of_a_column() {
    let json = r#"{"version":1,"connect":{"workers":3,"connectors":[{"name":"a","tasks":1},{"name":"b","tasks":1},{"name":"c","tasks":"4"}]}}"#;
    for frag in [
        format!("s=1.j.{}", URL_SAFE_NO_PAD.encode(json)),
        encode_json(&json.replace(
            "\"name\":\"a\"",
            &format!("\"name\":\"{}\"", "a".repeat(300)),
        )),
    ] {
        let msg = decode(&frag).unwrap_err().to_string();
        assert!(
            msg.starts_with("This link's scenario cannot be used. The scenario is not valid: connect.connectors[2].tasks: expected a whole number ≥ 0, got \"4\" (near `…"),
            "{msg}"
        );
        assert!(msg.contains(r#""tasks":"4""#), "{msg}");
        assert!(!msg.contains("line") && !msg.contains("column"), "{msg}");
    }
    // Even a link whose JSON has line breaks points at text, not at a line.
    let pretty = "{\n\"version\": 1,\n\"connect\": {\"workers\": \"4\"}\n}";
    let msg = decode(&format!("s=1.j.{}", URL_SAFE_NO_PAD.encode(pretty)))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("near `") && !msg.contains("line"), "{msg}");
}

#[test]
fn a_link_without_a_version_says_so() {
    let err = decode("#s=.j.e30").unwrap_err();
    assert_eq!(err, LinkError::MissingVersion);
    let msg = err.to_string();
    assert!(msg.contains("no format version"), "{msg}");
    assert!(!msg.contains("version ,"), "{msg}");
}
