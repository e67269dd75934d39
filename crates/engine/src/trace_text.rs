//! A trace as plain text: the per-worker timeline and every round, one line
//! each. Used for snapshot tests (a change in behaviour shows up in review as
//! a readable diff) and for terminals.

use std::fmt::Write as _;

use crate::layout::state_name;
use crate::run::RunResult;
use crate::trace::{ItemKind, Trace};

/// Every variant of a run as text.
pub fn render_result(result: &RunResult) -> String {
    let mut out = String::new();
    for run in &result.variants {
        let _ = writeln!(out, "=== {}", run.label);
        out.push_str(&render(&run.trace));
        out.push('\n');
    }
    out
}

/// One trace as text: lanes with their spans, then the rounds and events.
pub fn render(trace: &Trace) -> String {
    let mut out = String::new();
    let lanes = (0..trace.workers.len() as u32).map(Some).chain([None]);
    for lane in lanes {
        let mut spans: Vec<_> = trace
            .spans
            .iter()
            .filter(|s| s.worker == lane && !s.items.is_empty())
            .collect();
        if spans.is_empty() {
            continue;
        }
        crate::sort_by_key::sort_stable_by_key(&mut spans, |s| {
            (s.start_ms, s.end_ms, s.state, s.items.start)
        });
        let name = lane.map_or("unassigned", |w| trace.workers[w as usize].as_str());
        let _ = writeln!(out, "{name}");
        for s in spans {
            let _ = writeln!(
                out,
                "  {:>9} – {:<9} {:<10} {}",
                seconds(s.start_ms),
                seconds(s.end_ms),
                state_name(s.state),
                item_labels(trace, trace.list(s.items))
            );
        }
    }
    let _ = writeln!(out, "rounds");
    for r in &trace.rounds {
        let _ = writeln!(
            out,
            "  gen {:<3} {:>9} {:<10} delay {:>6} ms{}  {}",
            r.generation,
            seconds(r.completed_ms),
            r.protocol,
            r.delay_ms,
            if r.delivered { "" } else { " (not delivered)" },
            r.explanation
        );
    }
    let _ = writeln!(out, "events");
    for e in &trace.events {
        let _ = writeln!(out, "  {:>9}  {}", seconds(e.at_ms), e.label);
    }
    out
}

fn seconds(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// Item labels, sorted, with runs of one connector's consecutive tasks folded
/// (`src-0..3`), and Kafka Streams tasks of one subtopology likewise
/// (`0_0..3`), so big spans stay one readable line.
fn item_labels(trace: &Trace, items: &[u32]) -> String {
    // (group, task index or None for a connector, separator), in Kafka's order.
    let mut keyed: Vec<(&str, Option<u32>, char)> = items
        .iter()
        .map(|&item| {
            let it = &trace.items[item as usize];
            match it.kind {
                ItemKind::Task => streams_task(&it.label)
                    .map(|(s, p)| (s, Some(p), '_'))
                    .or_else(|| {
                        it.label
                            .rsplit_once('-')
                            .and_then(|(c, i)| Some((c, Some(i.parse::<u32>().ok()?), '-')))
                    })
                    .unwrap_or((it.label.as_str(), None, '-')),
                ItemKind::Connector => (it.label.as_str(), None, '-'),
            }
        })
        .collect();
    // Subtopologies sort numerically, connectors by name.
    keyed.sort_unstable_by(|a, b| {
        let num =
            |k: &(&str, Option<u32>, char)| (k.2 == '_').then(|| k.0.parse::<u32>().ok()).flatten();
        (num(a), a.0, a.1).cmp(&(num(b), b.0, b.1))
    });
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(&str, u32, u32, char)> = None; // (group, first, last, separator)
    let flush = |run: &mut Option<(&str, u32, u32, char)>, parts: &mut Vec<String>| {
        if let Some((c, a, b, sep)) = run.take() {
            parts.push(if a == b {
                format!("{c}{sep}{a}")
            } else {
                format!("{c}{sep}{a}..{b}")
            });
        }
    };
    for (name, task, sep) in keyed {
        match (task, &mut run) {
            (Some(i), Some((rc, _, last, rs))) if *rc == name && *rs == sep && *last + 1 == i => {
                *last = i
            }
            (Some(i), _) => {
                flush(&mut run, &mut parts);
                run = Some((name, i, i, sep));
            }
            (None, _) => {
                flush(&mut run, &mut parts);
                parts.push(name.to_string());
            }
        }
    }
    flush(&mut run, &mut parts);
    parts.join(" ")
}

/// A Kafka Streams task id `<subtopology>_<partition>`: (subtopology, partition).
fn streams_task(label: &str) -> Option<(&str, u32)> {
    let (s, p) = label.split_once('_')?;
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((s, p.parse().ok()?))
}
