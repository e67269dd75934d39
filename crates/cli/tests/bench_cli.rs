//! `rebalance bench --scenario` prints a scenario-sized workload's scenario,
//! the one the browser tests simulate in WebAssembly: parsed back, it is the
//! engine's, and a name that is not one says which are.

use std::process::Command;

use engine::scenario::Scenario;

fn rebalance(args: &[&str]) -> (i32, String, String) {
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

#[test]
fn a_workloads_scenario_prints_as_the_engines_json() {
    for name in ["connect-rolling-restart-100w-10000t", "streams-scaleout-1h"] {
        let (code, out, err) = rebalance(&["bench", "--scenario", name]);
        assert_eq!(code, 0, "{name}: {err}");
        let printed = Scenario::from_json(&out).expect("valid scenario JSON");
        assert_eq!(Some(printed), engine::workloads::scenario(name), "{name}");
    }
}

#[test]
fn a_round_workload_or_an_unknown_name_has_no_scenario() {
    for name in ["connect-first-round-1000w-100000t", "nope"] {
        let (code, out, err) = rebalance(&["bench", "--scenario", name]);
        assert_eq!(code, 1, "{name}");
        assert!(out.is_empty());
        assert!(err.contains("connect-scenario-1000w-100000t"), "{err}");
    }
}
