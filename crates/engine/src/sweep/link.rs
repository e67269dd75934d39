//! Sweep links: a scenario link followed by the sweep spec.
//!
//! * `#s=1.z.<scenario>&sweep=1.j.<spec>` — a scenario carried in the link
//!   (exactly the fragment [`crate::link::encode`] writes) and a sweep over
//!   it: `&sweep=` then `<version>.<codec>.<payload>` of the spec's JSON,
//!   codecs as for the scenario (`z` deflate when it saves a fifth, else
//!   `j`). Sweep format version [`SWEEP_VERSION`].
//! * `#p=<preset-id>&sweep=1.j.<spec>` — a sweep over a built-in preset.
//! * `#p=sweeps/<name>` — a built-in sweep ([`super::presets`]).
//!
//! [`crate::link::decode`] reads the scenario part of any of these, so a
//! page that knows no sweeps still opens the scenario. Everything here is
//! untrusted input: each failure is a [`SweepLinkError`] saying what to do.

use std::fmt;

use super::{presets, SweepError, SweepFile, SweepSpec, SWEEP_VERSION};
use crate::link::{self, LinkError, LinkTarget, MAX_FRAGMENT_BYTES, SWEEP_PART};
use crate::scenario::Scenario;

/// Why a sweep link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SweepLinkError {
    /// The scenario part is wrong (as a plain scenario link would be).
    Scenario(LinkError),
    /// The part after `&sweep=` does not decode.
    SweepPart(LinkError),
    /// The sweep decodes but does not fit the scenario.
    Sweep(SweepError),
    /// The link holds a scenario but no sweep.
    NoSweep,
    /// The link holds a sweep but no scenario.
    NoScenario,
    /// A preset id this version does not have.
    UnknownPreset(String),
}

impl fmt::Display for SweepLinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Scenario(e) => write!(f, "{e}"),
            Self::SweepPart(e) => write!(
                f,
                "The sweep in this link (the part after &sweep=) cannot be read. {e}"
            ),
            Self::Sweep(e) => write!(f, "This link's sweep cannot be used. {e}"),
            Self::NoSweep => f.write_str(
                "This link holds a scenario but no sweep (nothing after &sweep=); open it as a scenario, or pick what to sweep.",
            ),
            Self::NoScenario => f.write_str(
                "This link holds a sweep but no scenario to run it on: the part after # should start with s= or p=.",
            ),
            Self::UnknownPreset(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for SweepLinkError {}

/// The fragment (without `#`) of a sweep over a scenario carried in the link.
pub fn encode(scenario: &Scenario, sweep: &SweepSpec) -> String {
    format!("{}{}", link::encode(scenario), sweep_part(sweep))
}

/// The fragment of a sweep over a built-in scenario preset.
pub fn encode_for_preset(preset_id: &str, sweep: &SweepSpec) -> String {
    format!("{}{}", link::preset_fragment(preset_id), sweep_part(sweep))
}

/// `&sweep=<version>.<codec>.<payload>`: what follows a scenario's
/// fragment (`s=…` or `p=…`) to make it a sweep link.
pub fn sweep_part(sweep: &SweepSpec) -> String {
    format!(
        "{SWEEP_PART}{}",
        link::encode_body(SWEEP_VERSION, &sweep.to_json())
    )
}

/// The part after `#` of a whole URL, a `#fragment` or a bare fragment.
fn fragment_of(link: &str) -> &str {
    let link = link.trim();
    match link.find('#') {
        Some(i) => &link[i + 1..],
        None => link,
    }
}

/// Decodes a sweep link (whole URL, `#fragment` or bare fragment) into the
/// sweep and the scenario it runs on, both checked. A built-in sweep comes
/// with its question (title, description); other links have none.
pub fn decode(link: &str) -> Result<SweepFile, SweepLinkError> {
    let fragment = fragment_of(link);
    if fragment.len() > MAX_FRAGMENT_BYTES {
        return Err(SweepLinkError::Scenario(LinkError::TooLong(fragment.len())));
    }
    let (scenario_part, sweep_body) = match fragment.split_once(SWEEP_PART) {
        Some((scenario, body)) => (scenario, Some(body)),
        None => (fragment, None),
    };
    let sweep_preset = scenario_part
        .strip_prefix("p=")
        .filter(|id| id.starts_with("sweeps/"));
    if let Some(id) = sweep_preset {
        let preset = presets::find(id).ok_or_else(|| {
            SweepLinkError::UnknownPreset(format!(
                "There is no built-in sweep `{}` in this version of the playground.",
                id.chars().take(60).collect::<String>()
            ))
        })?;
        let mut file = preset.file();
        if let Some(body) = sweep_body {
            file.sweep = decode_spec(body, &file.scenario)?;
        }
        return Ok(file);
    }
    let scenario = match link::decode(&format!("#{scenario_part}")) {
        Ok(LinkTarget::Scenario(s)) => *s,
        Ok(LinkTarget::Preset(id)) => crate::presets::resolve(&id)
            .map_err(SweepLinkError::UnknownPreset)?
            .scenario(),
        Ok(LinkTarget::Empty) => return Err(SweepLinkError::NoScenario),
        Err(e) => return Err(SweepLinkError::Scenario(e)),
    };
    let body = sweep_body.ok_or(SweepLinkError::NoSweep)?;
    let sweep = decode_spec(body, &scenario)?;
    Ok(SweepFile {
        title: String::new(),
        description: String::new(),
        scenario,
        sweep,
    })
}

/// A fragment split for a page that reads its scenario elsewhere: the
/// scenario part (everything before `&sweep=`) and the spec after it, read
/// for its shape only (check it with [`SweepSpec::validate`] once the
/// scenario is known). `None` when the fragment holds no `&sweep=`.
pub fn split_spec(fragment: &str) -> (&str, Option<Result<SweepSpec, SweepLinkError>>) {
    let fragment = fragment_of(fragment);
    match fragment.split_once(SWEEP_PART) {
        None => (fragment, None),
        Some((scenario, body)) => {
            let spec = link::decode_body(SWEEP_VERSION, body)
                .map_err(SweepLinkError::SweepPart)
                .and_then(|json| SweepSpec::from_json(&json).map_err(SweepLinkError::Sweep));
            (scenario, Some(spec))
        }
    }
}

/// The spec in a `&sweep=` body, checked against the scenario.
fn decode_spec(body: &str, scenario: &Scenario) -> Result<SweepSpec, SweepLinkError> {
    let json = link::decode_body(SWEEP_VERSION, body).map_err(SweepLinkError::SweepPart)?;
    let spec = SweepSpec::from_json(&json).map_err(SweepLinkError::Sweep)?;
    spec.validate(scenario).map_err(SweepLinkError::Sweep)?;
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_spec_reads_the_sweep_without_the_scenario() {
        let file = presets::find("sweeps/connect-delay-vs-bounce")
            .unwrap()
            .file();
        let fragment = encode(&file.scenario, &file.sweep);
        let (scenario_part, spec) = split_spec(&fragment);
        assert_eq!(scenario_part, link::encode(&file.scenario));
        assert_eq!(spec, Some(Ok(file.sweep.clone())));
        let preset = encode_for_preset("connect/worker-bounce", &file.sweep);
        assert_eq!(
            split_spec(&format!("https://x/#{preset}")).0,
            "p=connect/worker-bounce"
        );
        assert_eq!(
            split_spec("p=connect/worker-bounce"),
            ("p=connect/worker-bounce", None)
        );
        assert!(matches!(
            split_spec("p=a&sweep=1.j.!!"),
            ("p=a", Some(Err(SweepLinkError::SweepPart(_))))
        ));
        assert!(matches!(
            split_spec("p=a&sweep=1.j.e30"),
            ("p=a", Some(Err(SweepLinkError::Sweep(_))))
        ));
    }
}
