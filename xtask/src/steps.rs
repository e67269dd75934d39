//! The two README commands, step by step.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use crate::setup::{self, npm_dir, root, run};

/// PATH with npm's binaryen `wasm-opt` first: Debian's (108) cannot read current wasm.
fn tool_path() -> String {
    let bin = npm_dir().join("node_modules/.bin");
    let cargo_bin = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo"))
        .join("bin");
    format!(
        "{}:{}:{}",
        bin.display(),
        cargo_bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args).current_dir(root());
    // A CI run builds everything once: incremental caches only cost disk.
    if std::env::var_os("CI").is_some() {
        cmd.env("CARGO_INCREMENTAL", "0");
    }
    cmd
}

fn trunk(args: &[&str]) -> Command {
    let mut cmd = Command::new("trunk");
    cmd.args(args).current_dir(root()).env("PATH", tool_path());
    // Its post_build hook runs the debug CLI the native tests built: the
    // same setting, or cargo builds it again.
    if std::env::var_os("CI").is_some() {
        cmd.env("CARGO_INCREMENTAL", "0");
    }
    cmd
}

/// `cargo xtask serve`: set up, then serve the playground at http://127.0.0.1:8080.
pub fn serve() -> Result<(), String> {
    setup::all(false)?;
    run(&mut cargo(&["fetch"]))?;
    eprintln!("Serving the playground at http://127.0.0.1:8080 (Ctrl+C stops it)");
    run(&mut trunk(&[
        "serve",
        "--release",
        "--address",
        "127.0.0.1",
        "--port",
        "8080",
        "--no-autoreload",
    ]))
}

/// `cargo xtask test`: set up, then every check and test, failing fast.
pub fn test() -> Result<(), String> {
    let started = Instant::now();
    setup::all(true)?;
    run(&mut cargo(&["fetch"]))?;
    step("format", || run(&mut cargo(&["fmt", "--all", "--check"])))?;
    step("clippy (native)", || {
        run(&mut cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))
    })?;
    step("clippy (wasm32 page)", || {
        // Every feature: the simulator's, and the bench's workloads.
        run(&mut cargo(&[
            "clippy",
            "-p",
            "rebalance-web",
            "--all-features",
            "--target",
            "wasm32-unknown-unknown",
            "--",
            "-D",
            "warnings",
        ]))?;
        // The page's module builds without default features (index.html).
        run(&mut cargo(&[
            "clippy",
            "-p",
            "rebalance-web",
            "--no-default-features",
            "--target",
            "wasm32-unknown-unknown",
            "--",
            "-D",
            "warnings",
        ]))
    })?;
    step("native tests", || run(&mut cargo(&["test", "--workspace"])))?;
    step("conformance vectors", conformance)?;
    step("release build of the site", || {
        run(&mut trunk(&["build", "--release"]))
    })?;
    step("wasm size", report_wasm_size)?;
    step("browser tests (headless Chromium)", browser_tests)?;
    eprintln!(
        "All checks passed in {:.0} s.",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn step(name: &str, f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    eprintln!("\n=== {name}");
    let t = Instant::now();
    let r = f();
    eprintln!(
        "=== {name}: {} in {:.1} s",
        if r.is_ok() { "ok" } else { "FAILED" },
        t.elapsed().as_secs_f64()
    );
    r
}

/// Replays the shared vectors when the shared folder sits beside the checkout.
fn conformance() -> Result<(), String> {
    let shared = root().join("../shared/conformance");
    if !shared.exists() {
        eprintln!("(no ../shared/conformance beside this checkout; the engine's own vector tests ran above)");
        return Ok(());
    }
    let dirs: Vec<String> = ["connect", "streams", "streams-groups"]
        .iter()
        .map(|d| shared.join(d))
        .filter(|p| p.exists())
        .map(|p| p.display().to_string())
        .collect();
    let mut args = vec!["run", "--quiet", "-p", "rebalance-cli", "--", "conformance"];
    args.extend(dirs.iter().map(String::as_str));
    run(&mut cargo(&args))
}

fn report_wasm_size() -> Result<(), String> {
    let dist = root().join("dist");
    let mut wasm: Vec<PathBuf> = std::fs::read_dir(&dist)
        .map_err(|e| format!("cannot read {}: {e}", dist.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "wasm"))
        .collect();
    wasm.sort();
    if wasm.is_empty() {
        return Err("no .wasm in dist/".to_string());
    }
    for file in wasm {
        let raw = std::fs::metadata(&file).map_err(|e| e.to_string())?.len();
        let gz = setup::output(
            Command::new("sh")
                .arg("-c")
                .arg(format!("gzip -9 -c '{}' | wc -c", file.display())),
        )
        .and_then(|s| s.parse::<u64>().ok())
        .ok_or("gzip is needed to measure the .wasm")?;
        println!(
            "release .wasm: {raw} bytes, {gz} bytes gzip -9 ({})",
            file.file_name().unwrap_or_default().to_string_lossy()
        );
    }
    Ok(())
}

fn browser_tests() -> Result<(), String> {
    let dir = npm_dir();
    let mut tests: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .map(|p| p.display().to_string())
        .collect();
    tests.sort();
    if tests.is_empty() {
        return Err(format!("no *.test.mjs in {}", dir.display()));
    }
    let mut cmd = Command::new("node");
    cmd.arg("--test")
        .arg("--test-concurrency=1")
        .args(&tests)
        .current_dir(&dir)
        .env("DIST_DIR", root().join("dist"));
    run(&mut cmd)
}

/// `cargo xtask bench`: the named workloads natively and in WebAssembly, side by side.
pub fn bench() -> Result<(), String> {
    setup::all(true)?;
    run(&mut cargo(&["fetch"]))?;
    step("release build of the site", || {
        run(&mut trunk(&["build", "--release"]))
    })?;
    // The workloads' WebAssembly side: the same site with the workloads in
    // its simulator module (the published one holds none; web/src/bench_api.rs).
    let bench_site = root().join("target/bench-site");
    step("release build with the workloads", || {
        run(&mut trunk(&[
            "build",
            "--release",
            "--features",
            "workloads",
            "--dist",
            &bench_site.to_string_lossy(),
        ]))
    })?;
    step("workloads, native and WebAssembly", || {
        let mut cmd = Command::new("node");
        cmd.arg("bench.mjs")
            .current_dir(npm_dir())
            .env("DIST_DIR", root().join("dist"))
            .env("BENCH_DIST_DIR", &bench_site);
        run(&mut cmd)
    })
}
