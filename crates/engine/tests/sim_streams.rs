//! The Kafka Streams simulator: the seed's claims, determinism and Kafka's
//! guarantees on seeded random scenarios (streams spec §1–§5).

use engine::presets;
use engine::run::{run, RunResult};
use engine::scenario::Scenario;

fn preset(id: &str) -> RunResult {
    run(&presets::find(id)
        .unwrap_or_else(|| panic!("no preset {id}"))
        .scenario())
}

#[test]
#[ignore = "prints a preset's timeline: PRESET=streams/<id> cargo test --test sim_streams show -- --ignored --nocapture"]
fn show() {
    let id = std::env::var("PRESET").unwrap_or_else(|_| "streams/stateful-scale-out".into());
    let r = preset(&id);
    println!("{}", engine::trace_text::render_result(&r));
    for v in &r.variants {
        println!("{}: {:?}", v.label, v.metrics.streams);
        for s in &v.trace.steps {
            println!("  {:>8} {:<18} {}", s.at_ms, s.kind, s.explanation);
        }
    }
}

#[allow(dead_code)]
fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}"))
}
