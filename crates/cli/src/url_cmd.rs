//! `rebalance url encode|decode`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use engine::link::{self, LinkTarget};
use engine::scenario::Scenario;
use engine::sweep::{self, SweepFile};

/// Exit code for input the user can fix (a bad link or file), as the page would report it.
pub const BAD_INPUT: u8 = 2;

#[derive(Subcommand)]
pub enum UrlAction {
    /// Print the link fragment (`#s=…`) of a scenario file (`#s=…&sweep=…`
    /// of a sweep file).
    Encode {
        /// A scenario or sweep JSON file.
        file: PathBuf,
    },
    /// Print the scenario JSON a link (or its fragment) carries (the sweep
    /// file of a sweep link).
    Decode {
        /// A whole link, `#s=…`, or `s=…`.
        link: String,
    },
}

pub fn run(action: UrlAction) -> ExitCode {
    match action {
        UrlAction::Encode { file } if is_sweep_file(&file) => {
            match std::fs::read_to_string(&file)
                .map_err(|e| format!("Cannot read {}: {e}.", file.display()))
                .and_then(|text| {
                    SweepFile::from_json(&text).map_err(|e| format!("{}: {e}", file.display()))
                }) {
                Ok(f) => {
                    println!("#{}", sweep::link::encode(&f.scenario, &f.sweep));
                    ExitCode::SUCCESS
                }
                Err(message) => fail(&message),
            }
        }
        UrlAction::Decode { link } if link.contains("&sweep=") || link.contains("p=sweeps/") => {
            match sweep::link::decode(&link) {
                Ok(f) => {
                    println!("{}", f.to_json_pretty());
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e.to_string()),
            }
        }
        UrlAction::Encode { file } => match read_scenario(&file) {
            Ok(scenario) => {
                println!("#{}", link::encode(&scenario));
                ExitCode::SUCCESS
            }
            Err(message) => fail(&message),
        },
        UrlAction::Decode { link } => match link::decode(&link) {
            Ok(LinkTarget::Scenario(s)) => {
                println!("{}", s.to_json_pretty());
                ExitCode::SUCCESS
            }
            Ok(LinkTarget::Preset(id)) => match engine::presets::resolve(&id) {
                Ok(preset) => {
                    println!("{}", preset.scenario().to_json_pretty());
                    ExitCode::SUCCESS
                }
                Err(message) => fail(&message),
            },
            Ok(LinkTarget::Empty) => fail("This link holds no scenario: nothing follows the #."),
            Err(e) => fail(&e.to_string()),
        },
    }
}

/// Whether a file holds a sweep (a JSON object with a `sweep` key).
fn is_sweep_file(file: &PathBuf) -> bool {
    std::fs::read_to_string(file).is_ok_and(|text| SweepFile::looks_like(&text))
}

/// Reads and validates a scenario file; the error is a sentence for the user.
pub fn read_scenario(file: &PathBuf) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("Cannot read {}: {e}.", file.display()))?;
    Scenario::from_json(&text).map_err(|e| format!("{}: {e}", file.display()))
}

fn fail(message: &str) -> ExitCode {
    eprintln!("{message}");
    ExitCode::from(BAD_INPUT)
}
