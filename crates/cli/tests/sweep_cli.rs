//! `rebalance sweep` prints the engine's numbers: its CSV, parsed back,
//! equals `engine::sweep::run_sweep` point for point; its link reopens the
//! same sweep; bad input exits 2 with the engine's message.

mod common;

use common::rebalance;
use engine::sweep::{self, SweepResult};

/// The CSV's cells per row (the built-in sweeps' labels need no quoting).
fn rows(csv: &str) -> Vec<Vec<String>> {
    csv.lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// Checks the CLI's CSV against the engine's result, cell by cell.
fn assert_csv_is(csv: &str, expected: &SweepResult) {
    let rows = rows(csv);
    let header = &rows[0];
    assert_eq!(header[0], expected.spec.parameter.name());
    assert_eq!(header.len(), 2 + expected.metrics.len() + 1);
    for (m, column) in expected.metrics.iter().zip(&header[2..]) {
        assert_eq!(m.csv_column(), column);
    }
    let body: Vec<&Vec<String>> = rows[1..].iter().collect();
    let runs: Vec<_> = expected
        .points
        .iter()
        .flat_map(|p| p.runs.iter().map(move |r| (p.value, r)))
        .collect();
    assert_eq!(body.len(), runs.len());
    for (row, (value, run)) in body.iter().zip(runs) {
        assert_eq!(row[0].parse::<u64>().unwrap(), value);
        assert_eq!(row[1], run.label);
        for (cell, metric) in row[2..].iter().zip(&run.metrics) {
            let parsed = (!cell.is_empty()).then(|| cell.parse::<u64>().unwrap());
            assert_eq!(parsed, *metric, "{value} {}", run.label);
        }
        assert_eq!(row.last().unwrap().is_empty(), run.cut.is_none());
    }
}

#[test]
fn the_csv_of_every_sweep_preset_is_the_engines() {
    for p in sweep::presets::all() {
        let (code, csv, err) = rebalance(&["sweep", p.id, "--csv"]);
        assert_eq!(code, 0, "{}: {err}", p.id);
        let file = p.file();
        let expected = sweep::run_sweep(&file.scenario, &file.sweep).unwrap();
        assert_csv_is(&csv, &expected);
    }
}

#[test]
fn a_sweep_given_by_flags_equals_the_engines_and_its_link_reopens_it() {
    let args = [
        "sweep",
        "connect/worker-bounce",
        "--key",
        "scheduled.rebalance.max.delay.ms",
        "--variant",
        "cooperative",
        "--from",
        "0",
        "--to",
        "600000",
        "--steps",
        "5",
    ];
    let (code, csv, err) = rebalance(&[&args[..], &["--csv"]].concat());
    assert_eq!(code, 0, "{err}");
    let scenario = engine::presets::find("connect/worker-bounce")
        .unwrap()
        .scenario();
    let spec = sweep::SweepSpec {
        parameter: sweep::SweepParameter::Config {
            key: "scheduled.rebalance.max.delay.ms".into(),
            variant: Some("cooperative".into()),
        },
        from: 0,
        to: 600_000,
        steps: 5,
        scale: sweep::Scale::Linear,
    };
    assert_csv_is(&csv, &sweep::run_sweep(&scenario, &spec).unwrap());
    let (code, link, _) = rebalance(&[&args[..], &["--link"]].concat());
    assert_eq!(code, 0);
    assert!(
        link.starts_with("#p=connect/worker-bounce&sweep=1."),
        "{link}"
    );
    let reopened = sweep::link::decode(link.trim()).unwrap();
    assert_eq!((reopened.scenario, reopened.sweep), (scenario, spec));
    let (code, csv_again, _) = rebalance(&["sweep", link.trim(), "--csv"]);
    assert_eq!(code, 0);
    assert_eq!(csv_again, csv);
}

#[test]
fn the_table_marks_kafkas_default_and_the_svg_has_a_line_per_protocol() {
    let (code, table, _) = rebalance(&["sweep", "sweeps/connect-delay-vs-bounce"]);
    assert_eq!(code, 0);
    assert!(
        table.contains("Kafka's default: 5 min (marked *)"),
        "{table}"
    );
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("*5 min ") && l.contains("eager")),
        "{table}"
    );
    let dir = std::env::temp_dir().join(format!("rebalance-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("plot.svg");
    let out_arg = out.to_string_lossy().into_owned();
    let (code, _, err) = rebalance(&[
        "sweep",
        "sweeps/streams-warmups-vs-changelog",
        "--svg",
        "-o",
        &out_arg,
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    for colour in &sweep::plot_layout::VARIANT_COLOURS[..3] {
        assert!(svg.contains(&format!("stroke=\"{colour}\"")), "{colour}");
    }
    // One panel per headline metric, each with one line per protocol.
    assert_eq!(svg.matches("<polyline").count(), 7 * 3);
}

#[test]
fn bad_input_exits_2_with_the_engines_message() {
    let (code, _, err) = rebalance(&[
        "sweep",
        "connect/worker-bounce",
        "--key",
        "session.timeout.ms",
        "--from",
        "1000",
        "--to",
        "60000",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("accepts 6000 to 1800000 ms"), "{err}");
    let (code, _, err) = rebalance(&["sweep", "connect/worker-bounce"]);
    assert_eq!(code, 2);
    assert!(err.contains("Name what to sweep with --key"), "{err}");
    let (code, _, err) = rebalance(&["sweep", "nope/nothing", "--key", "workers"]);
    assert_eq!(code, 2);
    assert!(err.contains("neither a scenario or sweep file"), "{err}");
}
