//! `rebalance`: the command-line front end of Rebalance Playground.

mod bench_cmd;
mod conformance_cmd;
mod presets_cmd;
mod run_cmd;
mod sweep_cmd;
mod url_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Kafka group rebalancing, simulated: scenarios, conformance vectors and links.
#[derive(Parser)]
#[command(name = "rebalance", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Scenario links: encode a scenario file, decode a link.
    Url {
        #[command(subcommand)]
        action: url_cmd::UrlAction,
    },
    /// Simulate a scenario file or preset and print its metrics per compared protocol.
    Run {
        /// A scenario JSON file or a preset id (see `rebalance presets`).
        scenario: String,
        /// Print the whole result (traces and metrics) as JSON instead.
        #[arg(long)]
        json: bool,
        /// Print only each variant's trace fingerprint (equal natively and in WebAssembly).
        #[arg(long, conflicts_with = "json")]
        fingerprints: bool,
    },
    /// Write a static, self-contained SVG of the side-by-side timelines.
    Svg {
        /// A scenario JSON file or a preset id.
        scenario: String,
        /// Output file.
        #[arg(short, long)]
        output: std::path::PathBuf,
    },
    /// Time the named workloads natively (build with `--profile native` or `--release`).
    Bench {
        /// Print JSON instead of one line per workload.
        #[arg(long)]
        json: bool,
        /// Only workloads whose name contains this.
        #[arg(long)]
        only: Option<String>,
        /// Timed runs per workload (after a warm-up of at least 2 runs and 300 ms).
        #[arg(long, default_value_t = 7)]
        runs: usize,
        /// Print this scenario-sized workload's scenario as JSON instead of timing anything.
        #[arg(long, value_name = "WORKLOAD", conflicts_with_all = ["json", "only"])]
        scenario: Option<String>,
    },
    /// Run a scenario over a range of one parameter (a Kafka config key, a
    /// cluster-shape number or an event's time or duration): a table per
    /// point and protocol, CSV, JSON or an SVG plot.
    Sweep(sweep_cmd::SweepArgs),
    /// List the built-in presets and sweeps, or write the presets' results
    /// that the static site ships (`--results`).
    Presets {
        /// Write `<DIR>/<preset id>.bin`, each preset's result as the page
        /// reads it, for every preset whose result the site ships.
        #[arg(long, value_name = "DIR")]
        results: Option<std::path::PathBuf>,
    },
    /// Replay conformance vectors (files or directories of *.json) against the engine's assignors.
    Conformance {
        /// Vector files or directories.
        #[arg(required = true)]
        paths: Vec<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Url { action } => url_cmd::run(action),
        Command::Conformance { paths } => conformance_cmd::run(&paths),
        Command::Run {
            scenario,
            json,
            fingerprints,
        } => run_cmd::run(&scenario, json, fingerprints),
        Command::Presets { results: None } => presets_cmd::list(),
        Command::Presets { results: Some(dir) } => presets_cmd::write_results(&dir),
        Command::Bench {
            scenario: Some(name),
            ..
        } => bench_cmd::print_scenario(&name),
        Command::Bench {
            json, only, runs, ..
        } => bench_cmd::run(json, only.as_deref(), runs),
        Command::Svg { scenario, output } => run_cmd::svg(&scenario, &output),
        Command::Sweep(args) => sweep_cmd::run(&args),
    }
}
