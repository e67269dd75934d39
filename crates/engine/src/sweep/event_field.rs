//! The fields of a scripted event a sweep can step (times and durations):
//! which events have them, and how a value is written into one.

use super::parameter::{AllowedRange, Target, ValueUnit};
use super::SweepError;
use crate::scenario::{ranges, Event, Family, Scenario, StreamsEvent};

/// A field of a scripted event a sweep can step (the event's own key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventField {
    /// When it happens (a join's time, a crash's time …).
    AtMs,
    /// A restart's (or each rolling restart's) downtime.
    DowntimeMs,
    /// A GC pause's or a slow handler's length.
    DurationMs,
    /// The time between two restarts of a rolling restart.
    IntervalMs,
}

impl EventField {
    /// The field's name in a spec and in the event's JSON, e.g. `downtime_ms`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AtMs => "at_ms",
            Self::DowntimeMs => "downtime_ms",
            Self::DurationMs => "duration_ms",
            Self::IntervalMs => "interval_ms",
        }
    }

    /// The field named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        [
            Self::AtMs,
            Self::DowntimeMs,
            Self::DurationMs,
            Self::IntervalMs,
        ]
        .into_iter()
        .find(|f| f.as_str() == name)
    }

    /// The event types that have this field, for a refusal.
    fn owners(self, family: &Family) -> &'static str {
        match (self, family) {
            (Self::AtMs, _) => "every event",
            (Self::DowntimeMs, Family::Connect(_)) => "worker_restart and rolling_restart",
            (Self::DowntimeMs, Family::Streams(_)) => "instance_restart and rolling_restart",
            (Self::DurationMs, Family::Connect(_)) => "gc_pause",
            (Self::DurationMs, Family::Streams(_)) => "gc_pause and slow_processing",
            (Self::IntervalMs, _) => "rolling_restart",
        }
    }
}

/// A Connect event's field, if it has it.
fn connect_event_field(event: &mut Event, field: EventField) -> Option<&mut u64> {
    match (event, field) {
        (
            Event::WorkerRestart { downtime_ms, .. } | Event::RollingRestart { downtime_ms, .. },
            EventField::DowntimeMs,
        ) => Some(downtime_ms),
        (Event::GcPause { duration_ms, .. }, EventField::DurationMs) => Some(duration_ms),
        (Event::RollingRestart { interval_ms, .. }, EventField::IntervalMs) => Some(interval_ms),
        _ => None,
    }
}

/// A Streams event's field, if it has it.
fn streams_event_field(event: &mut StreamsEvent, field: EventField) -> Option<&mut u64> {
    use StreamsEvent as E;
    match (event, field) {
        (
            E::InstanceRestart { downtime_ms, .. } | E::RollingRestart { downtime_ms, .. },
            EventField::DowntimeMs,
        ) => Some(downtime_ms),
        (
            E::GcPause { duration_ms, .. } | E::SlowProcessing { duration_ms, .. },
            EventField::DurationMs,
        ) => Some(duration_ms),
        (E::RollingRestart { interval_ms, .. }, EventField::IntervalMs) => Some(interval_ms),
        _ => None,
    }
}

/// The field `field` of event `index`, and the event's label; `None` when
/// the event has no such field (the index is checked by the caller).
pub(super) fn event_field(
    family: &mut Family,
    index: usize,
    field: EventField,
) -> Option<&mut u64> {
    match family {
        Family::Connect(c) => {
            let e = c.events.get_mut(index)?;
            match field {
                EventField::AtMs => Some(&mut e.at_ms),
                _ => connect_event_field(&mut e.event, field),
            }
        }
        Family::Streams(s) => {
            let e = s.events.get_mut(index)?;
            match field {
                EventField::AtMs => Some(&mut e.at_ms),
                _ => streams_event_field(&mut e.event, field),
            }
        }
    }
}

fn event_labels(family: &Family) -> Vec<String> {
    match family {
        Family::Connect(c) => c.events.iter().map(|e| e.event.label()).collect(),
        Family::Streams(s) => s.events.iter().map(|e| e.event.label()).collect(),
    }
}

pub(super) fn resolve_event(
    scenario: &Scenario,
    event: usize,
    field: EventField,
) -> Result<Target, SweepError> {
    let labels = event_labels(&scenario.family);
    let Some(event_label) = labels.get(event) else {
        let has = match labels.len() {
            0 => "the scenario has no events".to_string(),
            n => format!("the scenario has {n} (0 to {})", n - 1),
        };
        return Err(SweepError::invalid(
            "key",
            format!("names events[{event}], but {has}"),
        ));
    };
    let mut family = scenario.family.clone();
    let Some(value) = event_field(&mut family, event, field).map(|v| *v) else {
        return Err(SweepError::invalid(
            "key",
            format!(
                "names events[{event}].{f}, but events[{event}] ({event_label}) has no {f}; {} have one",
                field.owners(&scenario.family),
                f = field.as_str()
            ),
        ));
    };
    let what = match field {
        EventField::AtMs => "time of",
        EventField::DowntimeMs => "downtime of",
        EventField::DurationMs => "length of",
        EventField::IntervalMs => "interval of",
    };
    Ok(Target {
        range: AllowedRange::of(&ranges::PLAYGROUND_TIME_MS),
        unit: ValueUnit::Ms,
        kafka_default: None,
        scenario_value: value,
        label: format!("{what} “{event_label}”"),
    })
}
