//! Every built-in sweep, run: its numbers pinned as CSV snapshots (a change
//! in behaviour shows up in review: `cargo insta review`, or
//! INSTA_UPDATE=always to accept), the answer each preset's question claims,
//! and determinism.

use engine::sweep::{self, presets, Headline, SweepResult};

fn result(id: &str) -> SweepResult {
    let file = presets::find(id)
        .unwrap_or_else(|| panic!("no sweep {id}"))
        .file();
    sweep::run_sweep(&file.scenario, &file.sweep).unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn variant(result: &SweepResult, label: &str) -> usize {
    result
        .variants
        .iter()
        .position(|v| v == label)
        .unwrap_or_else(|| panic!("no variant {label}"))
}

/// `metric` of `label` at every point, every value defined.
fn series(result: &SweepResult, label: &str, metric: Headline) -> Vec<u64> {
    result
        .series(variant(result, label), metric)
        .into_iter()
        .map(|v| v.unwrap_or_else(|| panic!("{label}: {metric:?} undefined")))
        .collect()
}

#[test]
fn every_sweep_preset_gives_its_recorded_numbers() {
    for p in presets::all() {
        let r = result(p.id);
        assert!(
            r.points
                .iter()
                .flat_map(|p| &p.runs)
                .all(|run| run.cut.is_none()),
            "{}: no built-in sweep storms",
            p.id
        );
        insta::assert_snapshot!(p.id.replace('/', "__"), r.to_csv());
    }
}

#[test]
fn sweeps_are_deterministic() {
    for p in presets::all() {
        assert_eq!(result(p.id), result(p.id), "{}", p.id);
    }
}

/// A delay shorter than the bounce moves the tasks away and back (more
/// stops, less downtime); a longer one stops only the bounced worker's
/// tasks, which wait out the whole delay. Eager ignores the delay.
#[test]
fn the_connect_delay_trade_off() {
    let r = result("sweeps/connect-delay-vs-bounce");
    let bounce_ms = 120_000;
    let stopped = series(&r, "cooperative", Headline::TasksStopped);
    let outage = series(&r, "cooperative", Headline::LongestOutage);
    let downtime = series(&r, "cooperative", Headline::TaskDowntime);
    let values: Vec<u64> = r.points.iter().map(|p| p.value).collect();
    let short = values.iter().position(|&v| v > 0 && v < bounce_ms).unwrap();
    let long = values.iter().position(|&v| v > bounce_ms).unwrap();
    assert!(stopped[short] > stopped[long], "{stopped:?}");
    assert!(downtime[short] < downtime[long], "{downtime:?}");
    for (i, &v) in values.iter().enumerate().filter(|(_, &v)| v > bounce_ms) {
        assert!(
            outage[i] >= v,
            "the tasks wait out the delay: {v} ms → {}",
            outage[i]
        );
    }
    let eager = series(&r, "eager", Headline::TaskDowntime);
    assert!(eager.windows(2).all(|w| w[0] == w[1]), "{eager:?}");
    assert_eq!(r.kafka_default, Some(300_000));
}

/// Without warmups, downtime grows with the changelog; with them it stays
/// flat, and the layout takes longer to become final.
#[test]
fn warmups_against_the_changelog_size() {
    let r = result("sweeps/streams-warmups-vs-changelog");
    let without = series(&r, "cooperative", Headline::TaskDowntime);
    let with = series(&r, "cooperative + warmups", Headline::TaskDowntime);
    let last = without.len() - 1;
    assert!(without[last] > 100 * without[0], "{without:?}");
    assert!(with[last] < 2 * with[0], "{with:?}");
    assert!(with[last] < without[last] / 100);
    let stable = series(&r, "cooperative + warmups", Headline::CaughtUpAndStable);
    assert!(stable[last] > stable[0], "{stable:?}");
}

/// A static member that is back within its session timeout causes no
/// rebalance; below the restart time it behaves as a dynamic one.
#[test]
fn static_membership_against_the_session_timeout() {
    let r = result("sweeps/streams-static-session-timeout");
    let restart_ms = 60_000;
    let rounds = series(&r, "static", Headline::RebalanceRounds);
    let dynamic = series(&r, "dynamic", Headline::RebalanceRounds);
    for (i, p) in r.points.iter().enumerate() {
        if p.value > restart_ms + 3_000 {
            assert_eq!(rounds[i], 0, "static at {} ms", p.value);
            assert!(dynamic[i] >= 1, "dynamic at {} ms", p.value);
        }
        if p.value < restart_ms {
            assert!(rounds[i] >= 2, "static at {} ms", p.value);
        }
    }
    assert_eq!(r.kafka_default, Some(45_000));
}
