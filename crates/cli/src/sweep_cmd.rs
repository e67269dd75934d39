//! `rebalance sweep`: run one scenario over a range of one parameter and
//! print a table, CSV, JSON or an SVG plot.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use engine::link::LinkTarget;
use engine::scenario::Scenario;
use engine::sweep::{self, Headline, Scale, SweepFile, SweepParameter, SweepResult, SweepSpec};

use crate::url_cmd::{read_scenario, BAD_INPUT};

/// What `rebalance sweep` takes.
#[derive(Args)]
pub struct SweepArgs {
    /// A scenario (preset id, JSON file or link), or a sweep (sweep preset
    /// id such as `sweeps/connect-delay-vs-bounce`, sweep file or sweep link).
    scenario: String,
    /// What to sweep: a Kafka config key (`scheduled.rebalance.max.delay.ms`),
    /// a cluster field (workers, connectors, tasks, instances, threads,
    /// partitions, changelog_records, restore_records_per_sec) or an event
    /// field (`events[0].downtime_ms`, `…at_ms`, `…duration_ms`, `…interval_ms`).
    #[arg(long)]
    key: Option<String>,
    /// With a config key: set it only in the compared variant with this label.
    #[arg(long)]
    variant: Option<String>,
    /// With a field of connectors or subtopologies: only this entry (0-based).
    #[arg(long)]
    index: Option<usize>,
    /// First value.
    #[arg(long)]
    from: Option<u64>,
    /// Last value.
    #[arg(long)]
    to: Option<u64>,
    /// Number of points, endpoints included (default 20).
    #[arg(long)]
    steps: Option<u32>,
    /// Space the points on a log scale (a constant ratio).
    #[arg(long)]
    log: bool,
    /// Space the points evenly (the default; overrides a sweep file's log scale).
    #[arg(long, conflicts_with = "log")]
    linear: bool,
    /// Print CSV (one row per point and variant) instead of the table.
    #[arg(long, conflicts_with_all = ["json", "svg", "link"])]
    csv: bool,
    /// Print the whole result as JSON.
    #[arg(long, conflicts_with_all = ["svg", "link"])]
    json: bool,
    /// Write an SVG plot (one panel per metric, one line per protocol).
    #[arg(long, conflicts_with = "link")]
    svg: bool,
    /// Print the sweep's link (`#s=…&sweep=…`) without running it.
    #[arg(long)]
    link: bool,
    /// Write the output to this file instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// The scenario or sweep an argument names.
struct Input {
    /// The scenario every point starts from.
    scenario: Scenario,
    /// A sweep file's, preset's or link's question and sweep.
    sweep: Option<(String, String, SweepSpec)>,
    /// The scenario or sweep preset it named.
    preset: Option<&'static str>,
}

impl Input {
    fn scenario(scenario: Scenario, preset: Option<&'static str>) -> Self {
        Self {
            scenario,
            sweep: None,
            preset,
        }
    }

    fn sweep(file: SweepFile, preset: Option<&'static str>) -> Self {
        Self {
            scenario: file.scenario,
            sweep: Some((file.title, file.description, file.sweep)),
            preset,
        }
    }
}

fn is_link(arg: &str) -> bool {
    arg.contains('#') || arg.starts_with("s=") || arg.starts_with("p=")
}

/// The preset id a link's `p=` names, if this version has it.
fn linked_preset(link: &str) -> Option<&'static str> {
    let (_, rest) = link.split_once("p=")?;
    let id = rest.split('&').next().unwrap_or("");
    engine::presets::find(id)
        .map(|p| p.id)
        .or_else(|| sweep::presets::find(id).map(|p| p.id))
}

/// A sweep preset id, a file, a link, or a scenario preset id.
fn resolve_input(arg: &str) -> Result<Input, String> {
    if let Some(p) = sweep::presets::find(arg) {
        return Ok(Input::sweep(p.file(), Some(p.id)));
    }
    let path = Path::new(arg);
    if path.exists() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("Cannot read {}: {e}.", path.display()))?;
        if SweepFile::looks_like(&text) {
            return SweepFile::from_json(&text)
                .map(|f| Input::sweep(f, None))
                .map_err(|e| format!("{}: {e}", path.display()));
        }
        return read_scenario(&path.to_path_buf()).map(|s| Input::scenario(s, None));
    }
    if is_link(arg) {
        if arg.contains("&sweep=") || arg.contains("p=sweeps/") {
            return sweep::link::decode(arg)
                .map(|f| Input::sweep(f, linked_preset(arg)))
                .map_err(|e| e.to_string());
        }
        return match engine::link::decode(arg) {
            Ok(LinkTarget::Scenario(s)) => Ok(Input::scenario(*s, None)),
            Ok(LinkTarget::Preset(id)) => {
                engine::presets::resolve(&id).map(|p| Input::scenario(p.scenario(), Some(p.id)))
            }
            Ok(LinkTarget::Empty) => {
                Err("This link holds no scenario: nothing follows the #.".to_string())
            }
            Err(e) => Err(e.to_string()),
        };
    }
    match engine::presets::find(arg) {
        Some(p) => Ok(Input::scenario(p.scenario(), Some(p.id))),
        None => Err(format!(
            "`{arg}` is neither a scenario or sweep file, a link, nor a preset id. `rebalance presets` lists the presets and the built-in sweeps."
        )),
    }
}

/// The sweep to run: the input's, with the flags laid over it; also the
/// preset the input named, and whether the flags changed a sweep the input
/// carried.
fn sweep_of(
    args: &SweepArgs,
    input: Input,
) -> Result<(SweepFile, Option<&'static str>, bool), String> {
    let base = input.sweep.as_ref().map(|(_, _, spec)| spec);
    let parameter = match (&args.key, base) {
        (Some(key), _) => SweepParameter::parse_key(key, args.variant.as_deref(), args.index)
            .map_err(|e| e.to_string())?,
        (None, Some(spec)) => spec.parameter.clone(),
        (None, None) => {
            return Err(
                "Name what to sweep with --key (a Kafka config key such as scheduled.rebalance.max.delay.ms, a cluster field such as workers, or events[0].downtime_ms), and the range with --from and --to."
                    .to_string(),
            )
        }
    };
    let pick = |flag: Option<u64>, base: Option<u64>, name: &str| {
        flag.or(base).ok_or_else(|| {
            format!("Give the sweep's range with --from and --to (--{name} is missing).")
        })
    };
    let spec = SweepSpec {
        parameter,
        from: pick(args.from, base.map(|s| s.from), "from")?,
        to: pick(args.to, base.map(|s| s.to), "to")?,
        steps: args
            .steps
            .or(base.map(|s| s.steps))
            .unwrap_or(sweep::DEFAULT_STEPS),
        scale: if args.log {
            Scale::Log
        } else if args.linear {
            Scale::Linear
        } else {
            base.map_or(Scale::Linear, |s| s.scale)
        },
    };
    let changed = base.is_some_and(|b| *b != spec);
    let (title, description) = match input.sweep {
        // The flags changed the sweep: its question no longer fits.
        Some((title, description, _)) if !changed => (title, description),
        _ => (input.scenario.title.clone(), String::new()),
    };
    let file = SweepFile {
        title,
        description,
        scenario: input.scenario,
        sweep: spec,
    };
    Ok((file, input.preset, changed))
}

/// Runs every point, on as many threads as the machine has cores (each
/// point is independent, so the result is the same as one after another).
pub fn run_parallel(file: &SweepFile) -> Result<SweepResult, sweep::SweepError> {
    let sweep::SweepPlan { mut result, points } = sweep::plan(&file.scenario, &file.sweep)?;
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, 8)
        .min(points.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: Vec<sweep::PointResult> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(point) = points.get(i) else { break };
                        mine.push(sweep::run_point(point));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    for point in done {
        result.insert_point(point);
    }
    Ok(result)
}

pub fn run(args: &SweepArgs) -> ExitCode {
    let prepared = resolve_input(&args.scenario).and_then(|input| sweep_of(args, input));
    let (file, preset, changed) = match prepared {
        Ok(x) => x,
        Err(message) => return fail(&message),
    };
    if args.link {
        if let Err(e) = file.sweep.points(&file.scenario) {
            return fail(&e.to_string());
        }
        let fragment = match preset {
            Some(id) if id.starts_with("sweeps/") && !changed => engine::link::preset_fragment(id),
            Some(id) => sweep::link::encode_for_preset(id, &file.sweep),
            None => sweep::link::encode(&file.scenario, &file.sweep),
        };
        return write_out(args.output.as_deref(), &format!("#{fragment}\n"));
    }
    let result = match run_parallel(&file) {
        Ok(r) => r,
        Err(e) => return fail(&e.to_string()),
    };
    let title = if file.title.is_empty() {
        file.scenario.title.clone()
    } else {
        file.title.clone()
    };
    let text = if args.csv {
        result.to_csv()
    } else if args.json {
        match serde_json::to_string_pretty(&result) {
            Ok(t) => t + "\n",
            Err(e) => {
                eprintln!("cannot serialize the result: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else if args.svg {
        sweep::render_svg(&title, &result)
    } else {
        table(&title, &result)
    };
    write_out(args.output.as_deref(), &text)
}

fn write_out(output: Option<&Path>, text: &str) -> ExitCode {
    match output {
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("Cannot write {}: {e}.", path.display());
                ExitCode::FAILURE
            }
        },
        None => {
            print!("{text}");
            ExitCode::SUCCESS
        }
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("{message}");
    ExitCode::from(BAD_INPUT)
}

/// Where Kafka's default lies, in words.
fn default_line(result: &SweepResult) -> Option<String> {
    use sweep::DefaultPosition as P;
    let d = result.kafka_default?;
    let value = |i: usize| result.unit.format(result.points[i].value);
    let shown = result.unit.format(d);
    Some(match result.kafka_default_at? {
        P::Point { .. } => format!("Kafka's default: {shown} (marked *)"),
        P::Between { below } => format!(
            "Kafka's default: {shown}, between {} and {}",
            value(below),
            value(below + 1)
        ),
        P::BelowRange => format!("Kafka's default: {shown}, below the swept range"),
        P::AboveRange => format!("Kafka's default: {shown}, above the swept range"),
    })
}

/// The table: one row per point and variant, one column per headline metric.
pub fn table(title: &str, result: &SweepResult) -> String {
    let spec = &result.spec;
    let mut out = String::new();
    out.push_str(title);
    out.push('\n');
    out.push_str(&format!(
        "{}: {} to {}, {} points ({})\n",
        result.label,
        result.unit.format(spec.from),
        result.unit.format(spec.to),
        result.points.len(),
        spec.scale.as_str()
    ));
    if let Some(line) = default_line(result) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
    let default_point = match result.kafka_default_at {
        Some(sweep::DefaultPosition::Point { index }) => Some(index),
        _ => None,
    };
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut header = vec![spec.parameter.name(), "variant".to_string()];
    header.extend(result.metrics.iter().map(|m| m.label().to_string()));
    header.push(String::new());
    rows.push(header);
    for (i, point) in result.points.iter().enumerate() {
        for (v, run) in point.runs.iter().enumerate() {
            let value = if v == 0 {
                let mark = if default_point == Some(i) { "*" } else { "" };
                format!("{mark}{}", result.unit.format(point.value))
            } else {
                String::new()
            };
            let mut row = vec![value, run.label.clone()];
            row.extend(
                result
                    .metrics
                    .iter()
                    .zip(&run.metrics)
                    .map(|(m, v): (&Headline, _)| {
                        v.map_or("—".to_string(), |v| m.unit().format(v))
                    }),
            );
            row.push(if run.cut.is_some() {
                "cut at the run budget".to_string()
            } else {
                String::new()
            });
            rows.push(row);
        }
    }
    let columns = rows[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let w = widths[c];
            if c < 2 {
                line.push_str(&format!("{cell:<w$}  "));
            } else {
                line.push_str(&format!("{cell:>w$}  "));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let cuts: Vec<String> = result
        .points
        .iter()
        .flat_map(|p| {
            p.runs.iter().filter_map(move |r| {
                Some(format!(
                    "{} = {}, {}: {}.",
                    spec.parameter.name(),
                    result.unit.format(p.value),
                    r.label,
                    r.cut?.verdict()
                ))
            })
        })
        .collect();
    if !cuts.is_empty() {
        out.push('\n');
        for c in cuts {
            out.push_str(&c);
            out.push('\n');
        }
    }
    out
}
