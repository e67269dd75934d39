//! `rebalance url encode|decode`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use engine::link::{self, LinkTarget};
use engine::scenario::Scenario;

/// Exit code for input the user can fix (a bad link or file), as the page would report it.
pub const BAD_INPUT: u8 = 2;

#[derive(Subcommand)]
pub enum UrlAction {
    /// Print the link fragment (`#s=…`) of a scenario file.
    Encode {
        /// A scenario JSON file.
        file: PathBuf,
    },
    /// Print the scenario JSON a link (or its fragment) carries.
    Decode {
        /// A whole link, `#s=…`, or `s=…`.
        link: String,
    },
}

pub fn run(action: UrlAction) -> ExitCode {
    match action {
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
