//! `cargo xtask serve` and `cargo xtask test`: the README's two commands.
//!
//! Both first install whatever is missing (the wasm32 target, pinned trunk and
//! wasm-bindgen-cli, npm test packages, Debian's Chromium for tests) and skip
//! what is already there, so a fresh machine with only rustup needs nothing else.

mod setup;
mod steps;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => steps::serve(),
        Some("test") => steps::test(),
        Some("setup") => setup::all(true),
        Some("bench") => steps::bench(),
        _ => {
            eprintln!("usage: cargo xtask <serve|test|bench|setup>\n  serve  install what is missing, build and serve the playground at http://127.0.0.1:8080\n  test   install what is missing and run every check and test\n  bench  time the named workloads natively and in WebAssembly in headless Chromium\n  setup  only install what is missing");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
