//! `rebalance bench --scenario` prints a scenario-sized workload's scenario,
//! the one the browser tests simulate in WebAssembly: parsed back, it is the
//! engine's, and a name that is not one says which are.

mod common;

use common::rebalance;
use engine::scenario::Scenario;

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
