//! Sweep links keep working: version-1 sweep links pinned byte for byte,
//! and the scenario part of a sweep link still opens as a plain scenario
//! link (a page that knows no sweeps shows the scenario).
//!
//! If one of these fails after a change to the sweep or scenario format,
//! the change broke links people have already shared. Add a migration
//! instead of editing a pin.

use engine::link::{self, LinkTarget};
use engine::scenario::Scenario;
use engine::sweep::link::{self as sweep_link, SweepLinkError};
use engine::sweep::{ClusterField, EventField, Scale, SweepParameter, SweepSpec};

/// A sweep over the golden scenario `worker-joins` carried in the link.
const OVER_SCENARIO: &str = "#s=1.z.hVLBTuswEPyVlc-h4oknDuHECYkznBBCbrJtTJxdy7ttVFX5d9Ymhd6IlCiZjGdnxj67I2YJTK791zgNGtG17hFmziNm-ORA4hrXo3Q5JK1E9zJkxJUikA8EOjN0TISdskFz0AF2fMigXkYB9N3wAL5C9udaHLzC3S3IBl6pNxD9vjzN1enCE-Uk35AOgfawxR1nBB0Qnk3jKfMhgaceMor6rALB7nngiEA4gxcJe5qQ9DIlUJexAD6ab06YvYYjAlM8Vd0y2l7M3MRHFFCucFFbXQVLjkcesW_KL1qnYG_iNWqMPN-YsYxbHz11-HCdAaMgjIipFkgGbaxnQezrTqxluvbs1p5de_cDc_l8OzvyU9kuzpZJbsTa7dBUaumu_b80P5TkTyWukQKN15T3pahOyWesktFvMdqCug-uTtyFffGxzt6kzMod_5KWMuey7qrNv1YLSjl5lnhZ3htn5ZjBasLrx1QC39plXk-pRPju4aOcGlf51FfWfWEtXw&sweep=1.j.eyJrZXkiOiJzY2hlZHVsZWQucmViYWxhbmNlLm1heC5kZWxheS5tcyIsInZhcmlhbnQiOiJjb29wZXJhdGl2ZSIsImZyb20iOjAsInRvIjo2MDAwMDAsInN0ZXBzIjoxM30";
/// A log sweep of an event's duration over the golden `crash-and-pause`.
const OVER_EVENT: &str = "#s=1.z.hZHNboMwEIRfBe3ZrfLTpBXXHPoQVYQcsyU0wYtsQ1Uhv3vXBvFTUYWbl_nGs-MOWjS2JA3pVoAr3R0hhZOR9iqS91NSy8aiSBRpjcqRSdS1MRoEWMQc0o2A4RekHXyTubEbpIdxTOH40YGWVTCWTDppbzzcbvzZB11VS4NRdJcXvLMKZYEGosdnWQTnwe25NuRI0STyXkycIqrRSFe2-Ii2aMPWvIP3ZwHYonZ9UumyKsbjj8P-1CF3v1mmQi9s3R_H-dMOQoyB3C3IQmWxwxVqz7O8CXlJ93cemJw5vSycxkYzmeeMDpVepkr3M_awYIMgU9Rol6mr1MXQT-_35112M5fjPwkMVhRLHkPMoNe16r6o1PFSzsAdzeRva3LrqF6p7AjxtXQ-pdv4Xw&sweep=1.j.eyJrZXkiOiJldmVudHNbMV0uZHVyYXRpb25fbXMiLCJmcm9tIjoxMDAwLCJ0byI6NjAwMDAsInNjYWxlIjoibG9nIn0";
/// A sweep over a built-in preset.
const OVER_PRESET: &str = "#p=streams/stateful-scale-out&sweep=1.j.eyJrZXkiOiJjaGFuZ2Vsb2dfcmVjb3JkcyIsImZyb20iOjEwMDAwLCJ0byI6MTAwMDAwMDAsInN0ZXBzIjoxMCwic2NhbGUiOiJsb2cifQ";

fn golden_scenario(name: &str) -> Scenario {
    let path = format!("{}/tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn spec(parameter: SweepParameter, from: u64, to: u64, steps: u32, scale: Scale) -> SweepSpec {
    SweepSpec {
        parameter,
        from,
        to,
        steps,
        scale,
    }
}

fn delay_spec() -> SweepSpec {
    spec(
        SweepParameter::Config {
            key: "scheduled.rebalance.max.delay.ms".into(),
            variant: Some("cooperative".into()),
        },
        0,
        600_000,
        13,
        Scale::Linear,
    )
}

fn pause_spec() -> SweepSpec {
    spec(
        SweepParameter::Event {
            event: 1,
            field: EventField::DurationMs,
        },
        1_000,
        60_000,
        20,
        Scale::Log,
    )
}

fn changelog_spec() -> SweepSpec {
    spec(
        SweepParameter::Cluster {
            field: ClusterField::ChangelogRecords,
            index: None,
        },
        10_000,
        10_000_000,
        10,
        Scale::Log,
    )
}

#[test]
fn version_1_sweep_links_decode_to_their_sweeps() {
    let file = sweep_link::decode(OVER_SCENARIO).unwrap();
    assert_eq!(file.scenario, golden_scenario("worker-joins"));
    assert_eq!(file.sweep, delay_spec());
    let file = sweep_link::decode(OVER_EVENT).unwrap();
    assert_eq!(file.scenario, golden_scenario("crash-and-pause"));
    assert_eq!(file.sweep, pause_spec());
    let file =
        sweep_link::decode(&format!("https://example.org/play/?embed=1{OVER_PRESET}")).unwrap();
    let preset = engine::presets::find("streams/stateful-scale-out").unwrap();
    assert_eq!(file.scenario, preset.scenario());
    assert_eq!(file.sweep, changelog_spec());
}

#[test]
fn the_encoder_still_writes_version_1_sweep_links() {
    assert_eq!(
        format!(
            "#{}",
            sweep_link::encode(&golden_scenario("worker-joins"), &delay_spec())
        ),
        OVER_SCENARIO
    );
    assert_eq!(
        format!(
            "#{}",
            sweep_link::encode(&golden_scenario("crash-and-pause"), &pause_spec())
        ),
        OVER_EVENT
    );
    assert_eq!(
        format!(
            "#{}",
            sweep_link::encode_for_preset("streams/stateful-scale-out", &changelog_spec())
        ),
        OVER_PRESET
    );
}

#[test]
fn the_scenario_part_of_a_sweep_link_is_the_plain_scenario_link() {
    let (scenario_part, _) = OVER_SCENARIO.split_once("&sweep=").unwrap();
    assert_eq!(
        scenario_part,
        format!("#{}", link::encode(&golden_scenario("worker-joins")))
    );
    match link::decode(OVER_SCENARIO) {
        Ok(LinkTarget::Scenario(s)) => assert_eq!(*s, golden_scenario("worker-joins")),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        link::decode(OVER_PRESET).unwrap(),
        LinkTarget::Preset("streams/stateful-scale-out".into())
    );
}

#[test]
fn every_sweep_preset_has_a_short_link() {
    for p in engine::sweep::presets::all() {
        let file = sweep_link::decode(&format!("#p={}", p.id)).unwrap();
        assert_eq!(file, p.file(), "{}", p.id);
    }
}

#[test]
fn damaged_sweep_links_say_what_is_wrong() {
    let (scenario_part, body) = OVER_SCENARIO.split_once("&sweep=").unwrap();
    let cut = format!("{scenario_part}&sweep={}", &body[..body.len() / 2]);
    let err = sweep_link::decode(&cut).unwrap_err();
    assert!(
        matches!(err, SweepLinkError::SweepPart(_) | SweepLinkError::Sweep(_)),
        "{err:?}"
    );
    let newer = format!("{scenario_part}&sweep=9.j.e30");
    assert!(sweep_link::decode(&newer)
        .unwrap_err()
        .to_string()
        .contains("link format version 9"));
    assert_eq!(
        sweep_link::decode(scenario_part).unwrap_err(),
        SweepLinkError::NoSweep
    );
    assert_eq!(
        sweep_link::decode("#&sweep=1.j.e30").unwrap_err(),
        SweepLinkError::NoScenario
    );
    // A spec that does not fit the scenario: the key is a Streams key.
    let streams_key = engine::sweep::link::encode(
        &golden_scenario("worker-joins"),
        &spec(
            SweepParameter::Config {
                key: "max.warmup.replicas".into(),
                variant: None,
            },
            1,
            4,
            4,
            Scale::Linear,
        ),
    );
    let err = sweep_link::decode(&streams_key).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "This link's sweep cannot be used. The sweep's `key` is `max.warmup.replicas`"
        ),
        "{err}"
    );
    assert!(matches!(
        sweep_link::decode("#p=sweeps/nope").unwrap_err(),
        SweepLinkError::UnknownPreset(_)
    ));
    // Every prefix is an error or a sweep, never a panic.
    for n in 0..OVER_EVENT.len() {
        let _ = sweep_link::decode(&OVER_EVENT[..n]);
    }
}
