//! What the CLI's integration tests share.

use std::process::Command;

/// Runs `rebalance` with `args`: its exit code, stdout and stderr.
pub fn rebalance(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rebalance"))
        .args(args)
        .output()
        .expect("the CLI runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
