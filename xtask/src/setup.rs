//! Installs the tools the site and its tests need, at pinned versions, only
//! where they are missing. Nothing here downloads a binary from outside the
//! package registries (crates.io, npm, Debian).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Trunk 0.22 needs rustc 1.96.1; 0.21.14 builds on the toolchain here.
pub const TRUNK_VERSION: &str = "0.21.14";
/// Must equal the `wasm-bindgen` crate in Cargo.lock (pinned with `=` in web/Cargo.toml).
pub const WASM_BINDGEN_VERSION: &str = "0.2.130";

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Where the npm packages of the browser tests (playwright-core, binaryen) live.
pub fn npm_dir() -> PathBuf {
    root().join("web/tests")
}

/// Runs a command, echoing it; an error says which command failed.
pub fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("$ {}", describe(cmd));
    let status = cmd
        .status()
        .map_err(|e| format!("cannot start `{}`: {e}", describe(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", describe(cmd)))
    }
}

/// The trimmed stdout of a command, or None when it cannot run or fails.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Everything: tools for building the site, and (with `for_tests`) the browser.
pub fn all(for_tests: bool) -> Result<(), String> {
    wasm_target()?;
    cargo_tool(
        "trunk",
        &["--version"],
        &format!("trunk {TRUNK_VERSION}"),
        &["trunk", "--version", TRUNK_VERSION, "--locked"],
    )?;
    // `--locked` fails for wasm-bindgen-cli 0.2.130: its lockfile names a
    // webpki-roots release the registry does not serve (web-toolchain.md §7.2).
    cargo_tool(
        "wasm-bindgen",
        &["--version"],
        &format!("wasm-bindgen {WASM_BINDGEN_VERSION}"),
        &["wasm-bindgen-cli", "--version", WASM_BINDGEN_VERSION],
    )?;
    node()?;
    npm_packages()?;
    if for_tests {
        chromium()?;
    }
    Ok(())
}

fn wasm_target() -> Result<(), String> {
    let installed =
        output(Command::new("rustup").args(["target", "list", "--installed"])).unwrap_or_default();
    if installed
        .lines()
        .any(|l| l.trim() == "wasm32-unknown-unknown")
    {
        return Ok(());
    }
    run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))
}

fn cargo_tool(
    bin: &str,
    version_args: &[&str],
    expected: &str,
    install: &[&str],
) -> Result<(), String> {
    let found = output(Command::new(bin).args(version_args)).unwrap_or_default();
    if found.starts_with(expected) {
        return Ok(());
    }
    eprintln!(
        "{bin}: found `{found}`, need `{expected}`; installing (cached in ~/.cargo/bin afterwards)"
    );
    run(Command::new("cargo").arg("install").args(install))
}

fn node() -> Result<(), String> {
    if output(Command::new("node").arg("--version")).is_some()
        && output(Command::new("npm").arg("--version")).is_some()
    {
        return Ok(());
    }
    apt_install(&["nodejs", "npm"])
}

fn npm_packages() -> Result<(), String> {
    let dir = npm_dir();
    let lock = dir.join("package-lock.json");
    let stamp = dir.join("node_modules/.package-lock.json");
    let fresh = match (
        std::fs::metadata(&lock).and_then(|m| m.modified()),
        std::fs::metadata(&stamp).and_then(|m| m.modified()),
    ) {
        (Ok(l), Ok(s)) => s >= l,
        _ => false,
    };
    if fresh && dir.join("node_modules/.bin/wasm-opt").exists() {
        return Ok(());
    }
    run(Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&dir))
}

/// Debian's Chromium and ChromeDriver; the test tools never download a browser.
fn chromium() -> Result<(), String> {
    if Path::new("/usr/bin/chromium").exists() {
        return Ok(());
    }
    apt_install(&["chromium", "chromium-driver"])
}

fn apt_install(packages: &[&str]) -> Result<(), String> {
    let is_root = output(Command::new("id").arg("-u")).as_deref() == Some("0");
    let prefix: Vec<&str> = if is_root { vec![] } else { vec!["sudo"] };
    let apt = |args: &[&str]| {
        let mut all = prefix.clone();
        all.extend_from_slice(args);
        let mut cmd = Command::new(all[0]);
        cmd.args(&all[1..]).env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    run(&mut apt(&["apt-get", "update"]))?;
    let mut args = vec!["apt-get", "install", "-y", "--no-install-recommends"];
    args.extend_from_slice(packages);
    run(&mut apt(&args))
}
