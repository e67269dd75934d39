//! What happened, in words: a column's story as a list of lines (scenario
//! events, JoinGroup/SyncGroup rounds, other protocol steps, each with the
//! engine's explanation) and a short text alternative for each timeline,
//! numbers with thousands separators ([`super::numbers`]).

use engine::run::VariantRun;
use engine::trace::{StepKind, Trace};
use engine::wording::duration as format_duration;

use super::numbers::{count, thousands, with_separators};

/// What one story line is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoryKind {
    /// A scenario event (a crash, a join …).
    Event,
    /// A rebalance round: index into [`Trace::rounds`].
    Round(usize),
    /// Another protocol or lifecycle step.
    Step,
}

/// One line of a column's story. It holds where its words are, not the
/// words: a 10,000-round run has tens of thousands of lines, of which the
/// page shows about a hundred ([`StoryItem::title`], [`StoryItem::text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoryItem {
    /// When.
    pub at_ms: u64,
    /// What it is about.
    pub kind: StoryKind,
    /// Which entry of the trace it tells.
    source: Source,
}

/// The trace entry a story line tells: an index into `events`, `rounds` or `steps`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Event(usize),
    Round(usize),
    Step(usize),
}

impl StoryItem {
    /// A few words: `worker-3 crashes`, `generation 3 (sessioned)`, `leave_group`.
    pub fn title(&self, trace: &Trace) -> String {
        match self.source {
            Source::Event(i) => trace.events[i].label.clone(),
            Source::Round(i) => {
                let r = &trace.rounds[i];
                format!(
                    "JoinGroup/SyncGroup: generation {}{}",
                    thousands(r.generation.max(0) as u64),
                    if r.delivered { "" } else { " (never answered)" }
                )
            }
            Source::Step(i) => {
                let s = &trace.steps[i];
                let worker = s
                    .worker
                    .and_then(|w| trace.workers.get(w as usize))
                    .map(|n| format!("{n}: "))
                    .unwrap_or_default();
                match self.kind {
                    StoryKind::Round(t) => format!(
                        "{worker}target assignment: epoch {}",
                        trace.target_assignments[t].epoch
                    ),
                    _ => format!("{worker}{}", s.kind.as_str().replace('_', " ")),
                }
            }
        }
    }

    /// The engine's explanation, as it wrote it (the page shows it with
    /// `components::engine_text`).
    pub fn text<'a>(&self, trace: &'a Trace) -> &'a str {
        match self.source {
            Source::Event(i) if trace.events[i].applied => "scenario event",
            Source::Event(_) => "scenario event (could not apply)",
            Source::Round(i) => &trace.rounds[i].explanation,
            Source::Step(i) => &trace.steps[i].explanation,
        }
    }
}

/// Every event, round and step of a trace in time order (events first at
/// equal times: the cause before its effects).
pub fn story(trace: &Trace) -> Vec<StoryItem> {
    let events = trace.events.iter().enumerate().map(|(i, e)| StoryItem {
        at_ms: e.at_ms,
        kind: StoryKind::Event,
        source: Source::Event(i),
    });
    let rounds = trace.rounds.iter().enumerate().map(|(i, r)| StoryItem {
        at_ms: r.started_ms,
        kind: StoryKind::Round(i),
        source: Source::Round(i),
    });
    // A protocol without rounds (the streams protocol): its target
    // assignment steps open that target's details, as a round's line does.
    let targets = if trace.rounds.is_empty() {
        trace.target_assignments.as_slice()
    } else {
        &[]
    };
    let mut next_target = 0;
    let steps = trace.steps.iter().enumerate().map(|(i, s)| {
        let target = (s.kind == StepKind::TargetAssignment)
            .then(|| {
                let t = next_target
                    + targets[next_target.min(targets.len())..]
                        .iter()
                        .position(|a| a.computed_ms == s.at_ms)?;
                next_target = t + 1;
                Some(t)
            })
            .flatten();
        StoryItem {
            at_ms: s.at_ms,
            kind: target.map_or(StoryKind::Step, StoryKind::Round),
            source: Source::Step(i),
        }
    });
    // Each list is in time order already: merge them (a sort would add
    // kilobytes to the page's WebAssembly). At equal times, events first.
    let mut lists = [
        events.collect::<Vec<_>>().into_iter().peekable(),
        rounds.collect::<Vec<_>>().into_iter().peekable(),
        steps.collect::<Vec<_>>().into_iter().peekable(),
    ];
    let mut out = Vec::new();
    loop {
        let mut best: Option<(u64, usize)> = None;
        for (i, list) in lists.iter_mut().enumerate() {
            if let Some(it) = list.peek() {
                if best.is_none_or(|(t, _)| it.at_ms < t) {
                    best = Some((it.at_ms, i));
                }
            }
        }
        match best.and_then(|(_, i)| lists[i].next()) {
            Some(it) => out.push(it),
            None => return out,
        }
    }
}

/// The line the playhead is at: the last one at or before `t_ms`.
pub fn current(items: &[StoryItem], t_ms: u64) -> Option<usize> {
    items.partition_point(|it| it.at_ms <= t_ms).checked_sub(1)
}

/// Lines drawn around the current one (a 1,000-worker run has thousands).
/// Sixty: a line is 36–300 px tall in the side panel, so 22 lines either
/// side are several screens of story to scroll, and every line drawn is
/// laid out and rastered again when the lines shown move. With 120, the
/// first move of a storm's playback took a 38 ms frame (issue #13,
/// docs/performance.md "Session 20").
const SHOWN: usize = 60;
/// The lines drawn move by this many at a time, so that playing through a
/// dense story changes which lines are drawn once every 15 lines, not on
/// every frame (each change re-lays out every line's text).
const SHOWN_STEP: usize = 15;

/// Which story lines are drawn with line `now` current: `SHOWN` lines
/// starting at a multiple of `SHOWN_STEP`, with at least 22 before and
/// after the current one (or every line up to it near the start).
pub fn shown_lines(now: Option<usize>) -> std::ops::Range<usize> {
    let first =
        now.unwrap_or(0).saturating_sub(SHOWN / 2 - SHOWN_STEP / 2) / SHOWN_STEP * SHOWN_STEP;
    first..first + SHOWN
}

/// A short account of one column for people who cannot see the timeline:
/// what happened, what it cost, when it settled.
pub fn describe(run: &VariantRun) -> String {
    let t = &run.trace;
    let m = &run.metrics;
    let tasks = t
        .items
        .iter()
        .filter(|i| i.kind == engine::trace::ItemKind::Task)
        .count();
    let events = match t.events.len() {
        0 => "no scenario events".to_string(),
        1 => format!(
            "{} at {}",
            t.events[0].label,
            format_duration(t.events[0].at_ms)
        ),
        n => format!(
            "{} scenario events from {} at {}",
            thousands(n as u64),
            t.events[0].label,
            format_duration(t.events[0].at_ms)
        ),
    };
    let outage = m.longest_task_outage.as_ref().map_or_else(
        || "no task was ever down".to_string(),
        |o| {
            format!(
                "the longest outage was {} ({})",
                format_duration(o.duration_ms),
                o.task
            )
        },
    );
    let settled = m.settled_ms.map_or_else(
        || "it had not settled when the run ended".to_string(),
        |s| format!("it settled at {}", format_duration(s)),
    );
    let twice = if m.duplicate_task_ms > 0 {
        format!(
            "; tasks ran twice for {} task-seconds",
            thousands(m.duplicate_task_ms / 1000)
        )
    } else {
        String::new()
    };
    format!(
        "{}: {}, {}, {events}. {}; tasks stopped {}; task downtime {}; {outage}{twice}; {settled}.",
        run.label,
        count(t.workers.len() as u64, "worker"),
        count(tasks as u64, "task"),
        count(u64::from(m.rebalance_rounds), "rebalance round"),
        count(m.tasks_stopped, "time"),
        with_separators(&format_duration(m.task_ms_not_running)),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_lines_drawn_move_in_steps_and_keep_the_current_one_well_inside() {
        assert_eq!(shown_lines(None), 0..60);
        assert_eq!(shown_lines(Some(22)), 0..60);
        assert_eq!(shown_lines(Some(38)), 15..75);
        let mut changes = 0;
        let mut last = shown_lines(Some(0));
        for now in 0..3_000 {
            let shown = shown_lines(Some(now));
            assert_eq!(shown.len(), 60);
            assert_eq!(shown.start % 15, 0);
            assert!(shown.contains(&now));
            assert!(now < 22 || now - shown.start >= 22, "{now}: {shown:?}");
            assert!(shown.end - now > 22, "{now}: {shown:?}");
            changes += usize::from(shown != last);
            last = shown;
        }
        // One change every 15 lines, not one per line.
        assert_eq!(changes, 3_000 / 15 - 2);
    }

    use super::*;

    fn preset(id: &str) -> engine::run::RunResult {
        let p = engine::presets::all()
            .iter()
            .find(|p| p.id == id)
            .expect("preset");
        engine::run::run(&p.scenario())
    }

    #[test]
    fn the_story_lists_events_rounds_and_steps_in_time_order() {
        let result = preset("connect/worker-dies");
        let trace = &result.variants[0].trace;
        let items = story(trace);
        assert_eq!(
            items.len(),
            trace.events.len() + trace.rounds.len() + trace.steps.len()
        );
        assert!(items.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        let rounds: Vec<usize> = items
            .iter()
            .filter_map(|it| match it.kind {
                StoryKind::Round(i) => Some(i),
                _ => None,
            })
            .collect();
        assert_eq!(rounds, (0..trace.rounds.len()).collect::<Vec<_>>());
        let crash = items
            .iter()
            .position(|i| i.kind == StoryKind::Event)
            .unwrap();
        assert_eq!(items[crash].title(trace), "worker-3 crashes");
        assert!(items.iter().all(|i| !i.text(trace).is_empty()));
        // The playhead at the crash is on the crash or what it caused at once.
        let now = current(&items, 30_000).expect("a line");
        assert!(now >= crash && items[now].at_ms == 30_000);
        assert_eq!(current(&items, 29_999).map(|i| i < crash), Some(true));
        assert_eq!(current(&items, u64::MAX), Some(items.len() - 1));
    }

    #[test]
    fn a_streams_protocol_story_opens_each_target_assignment() {
        let result = preset("streams/streams-protocol-instance-joins");
        let run = result
            .variants
            .iter()
            .find(|v| v.trace.rounds.is_empty() && !v.trace.target_assignments.is_empty())
            .expect("a streams-protocol column");
        let trace = &run.trace;
        let items = story(trace);
        let opened: Vec<(usize, u64)> = items
            .iter()
            .filter_map(|it| match it.kind {
                StoryKind::Round(i) => Some((i, it.at_ms)),
                _ => None,
            })
            .collect();
        // Every target computed during the run has its line (the formed
        // group's, at t = 0, has no step, as a formed classic group has no
        // round).
        let expected: Vec<(usize, u64)> = trace
            .target_assignments
            .iter()
            .enumerate()
            .filter(|(_, a)| a.computed_ms > 0)
            .map(|(i, a)| (i, a.computed_ms))
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(opened, expected);
        let last = trace.target_assignments.last().unwrap();
        assert!(items.iter().any(|it| it
            .title(trace)
            .ends_with(&format!("target assignment: epoch {}", last.epoch))));
        // A classic column's steps never open a target.
        let classic = story(&result.variants[0].trace);
        let rounds = classic
            .iter()
            .filter(|it| matches!(it.kind, StoryKind::Round(_)))
            .count();
        assert_eq!(rounds, result.variants[0].trace.rounds.len());
    }

    #[test]
    fn the_description_says_what_happened_and_what_it_cost() {
        let result = preset("connect/worker-dies");
        let eager = describe(&result.variants[0]);
        assert!(eager.starts_with("eager: "), "{eager}");
        for part in [
            "worker-3 crashes at 30 s",
            "4 workers, 12 tasks",
            "1 rebalance round;",
            "tasks stopped 12 times",
            "settled at 42.540 s",
        ] {
            assert!(eager.contains(part), "{part}: {eager}");
        }
        let delayed = describe(&result.variants[1]);
        assert!(delayed.contains("settled at 5 min 42.080 s"), "{delayed}");
    }
}
