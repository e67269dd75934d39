//! Old links keep working: version-1 links pinned byte for byte.
//!
//! If one of these fails after a change to the scenario model, the change broke
//! links people have already shared. Add a migration instead of editing a pin.

use engine::link::{self, LinkTarget};
use engine::scenario::Scenario;

/// (scenario file in tests/golden/, the link fragment version 1 wrote for it).
const GOLDEN: &[(&str, &str)] = &[
    ("worker-joins", "#s=1.z.hVLBTuswEPyVlc-h4oknDuHECYkznBBCbrJtTJxdy7ttVFX5d9Ymhd6IlCiZjGdnxj67I2YJTK791zgNGtG17hFmziNm-ORA4hrXo3Q5JK1E9zJkxJUikA8EOjN0TISdskFz0AF2fMigXkYB9N3wAL5C9udaHLzC3S3IBl6pNxD9vjzN1enCE-Uk35AOgfawxR1nBB0Qnk3jKfMhgaceMor6rALB7nngiEA4gxcJe5qQ9DIlUJexAD6ab06YvYYjAlM8Vd0y2l7M3MRHFFCucFFbXQVLjkcesW_KL1qnYG_iNWqMPN-YsYxbHz11-HCdAaMgjIipFkgGbaxnQezrTqxluvbs1p5de_cDc_l8OzvyU9kuzpZJbsTa7dBUaumu_b80P5TkTyWukQKN15T3pahOyWesktFvMdqCug-uTtyFffGxzt6kzMod_5KWMuey7qrNv1YLSjl5lnhZ3htn5ZjBasLrx1QC39plXk-pRPju4aOcGlf51FfWfWEtXw"),
    ("mixed-upgrade", "#s=1.z.lVJbbsMgELxKtd_Ech5tWt-hJ6gii8A2RcFgAXnJ4u5lsePYUqWo_jKzw-zsLB2c0XllDVRLBkEFjVDBp7qiXAyVF6FPPqADBh5RQrVlIKwxKAJUHVysOyYiVJsRtnT86sDwhtSEFOlu4P6Y4LfIxoJX5viorOj-ySTRddxlrW91oA5e_KA8aZSFwz3X3AgsGn4tJGp-KxoSLdMX2eCltsm5UxJ7Fz2Y2vU_iw1MxQfLRetssMLqxEN-SPxIJoJqlDn4CdG62gfuQk1938uSzQq2zfiKcBprwl2-TsCBt-3vWyeV4aTgQhgEYqRK03KHeQrN90jmMhbUPu3pyRgTZqTQ7woePa01bfKJwIOYs8AzmtBHyu8uyzzTrcUx3tphnhnYn8FLezEpVBwjKf9hgo2dP2adndU6rWnSet6mJyuTHvGZ64yt84vZxV8"),
    ("crash-and-pause", "#s=1.z.hZHNboMwEIRfBe3ZrfLTpBXXHPoQVYQcsyU0wYtsQ1Uhv3vXBvFTUYWbl_nGs-MOWjS2JA3pVoAr3R0hhZOR9iqS91NSy8aiSBRpjcqRSdS1MRoEWMQc0o2A4RekHXyTubEbpIdxTOH40YGWVTCWTDppbzzcbvzZB11VS4NRdJcXvLMKZYEGosdnWQTnwe25NuRI0STyXkycIqrRSFe2-Ii2aMPWvIP3ZwHYonZ9UumyKsbjj8P-1CF3v1mmQi9s3R_H-dMOQoyB3C3IQmWxwxVqz7O8CXlJ93cemJw5vSycxkYzmeeMDpVepkr3M_awYIMgU9Rol6mr1MXQT-_35112M5fjPwkMVhRLHkPMoNe16r6o1PFSzsAdzeRva3LrqF6p7AjxtXQ-pdv4Xw"),
];

fn golden_scenario(name: &str) -> Scenario {
    let path = format!("{}/tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn version_1_links_decode_to_their_scenarios() {
    for (name, fragment) in GOLDEN {
        match link::decode(fragment) {
            Ok(LinkTarget::Scenario(s)) => assert_eq!(*s, golden_scenario(name), "{name}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn the_encoder_still_writes_version_1_links() {
    for (name, fragment) in GOLDEN {
        assert_eq!(
            format!("#{}", link::encode(&golden_scenario(name))),
            *fragment,
            "{name}"
        );
    }
}
