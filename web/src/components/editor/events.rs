//! The timed event script: add, edit and remove events of every type.

use std::rc::Rc;

use engine::scenario::{
    worker_name, ConnectConfig, ConnectScenario, Event, Family, Scenario, TimedEvent,
};
use yew::prelude::*;

use super::fields::{
    ms_to_s, s_to_ms, seconds_of, whole_number, NumberField, SelectField, TextField,
};
use crate::state::edit::Edit;

/// Props of [`EventsEditor`].
#[derive(Properties, PartialEq)]
pub struct EventsEditorProps {
    /// The scenario.
    pub scenario: Rc<Scenario>,
    /// An edit.
    pub on_edit: Callback<Edit>,
    /// Text that is not a value for its field.
    pub on_error: Callback<String>,
}

/// Every event type: (serde tag, label). `kind_of` below matches
/// exhaustively, so a new engine event fails to compile until it is listed.
const KINDS: &[(&str, &str)] = &[
    ("worker_join", "workers join"),
    ("worker_stop", "worker stops (graceful)"),
    ("worker_crash", "worker crashes"),
    ("worker_restart", "worker restarts (bounce)"),
    ("rolling_restart", "rolling restart"),
    ("gc_pause", "GC pause (freeze)"),
    ("connector_add", "connector added"),
    ("connector_remove", "connector removed"),
    ("task_count_change", "task count changes"),
];

fn kind_of(e: &Event) -> &'static str {
    match e {
        Event::WorkerJoin { .. } => "worker_join",
        Event::WorkerStop { .. } => "worker_stop",
        Event::WorkerCrash { .. } => "worker_crash",
        Event::WorkerRestart { .. } => "worker_restart",
        Event::RollingRestart { .. } => "rolling_restart",
        Event::GcPause { .. } => "gc_pause",
        Event::ConnectorAdd { .. } => "connector_add",
        Event::ConnectorRemove { .. } => "connector_remove",
        Event::TaskCountChange { .. } => "task_count_change",
    }
}

/// A reasonable new event of a kind, reusing the old one's worker or
/// connector where it had one.
fn default_event(kind: &str, old: &Event, s: &ConnectScenario) -> Event {
    let worker = match old {
        Event::WorkerStop { worker }
        | Event::WorkerCrash { worker }
        | Event::WorkerRestart { worker, .. }
        | Event::GcPause { worker, .. } => worker.clone(),
        _ => worker_name(1),
    };
    let connector = match old {
        Event::ConnectorAdd { name, .. } | Event::ConnectorRemove { name } => name.clone(),
        Event::TaskCountChange { connector, .. } => connector.clone(),
        _ => s
            .initial_connectors()
            .first()
            .map_or_else(|| "connector-1".to_string(), |c| c.0.clone()),
    };
    match kind {
        "worker_stop" => Event::WorkerStop { worker },
        "worker_crash" => Event::WorkerCrash { worker },
        "worker_restart" => Event::WorkerRestart {
            worker,
            downtime_ms: 30_000,
            crash: false,
            config: ConnectConfig::default(),
        },
        "rolling_restart" => Event::RollingRestart {
            downtime_ms: 20_000,
            interval_ms: 60_000,
            limit: None,
            config: ConnectConfig::default(),
        },
        "gc_pause" => Event::GcPause {
            worker,
            duration_ms: 15_000,
        },
        "connector_add" => Event::ConnectorAdd {
            name: format!("{connector}-new"),
            tasks: 4,
        },
        "connector_remove" => Event::ConnectorRemove { name: connector },
        "task_count_change" => Event::TaskCountChange {
            connector,
            tasks: 8,
        },
        _ => Event::WorkerJoin {
            count: 1,
            config: ConnectConfig::default(),
        },
    }
}

/// Worker names an event may name: the initial workers plus every join.
fn worker_names(s: &ConnectScenario) -> Vec<String> {
    let joined: u64 = s
        .events
        .iter()
        .map(|e| match &e.event {
            Event::WorkerJoin { count, .. } => u64::from(*count),
            _ => 0,
        })
        .sum();
    let n = (u64::from(s.cluster.workers) + joined).min(2_000) as u32;
    (1..=n).map(worker_name).collect()
}

fn config_text(c: &ConnectConfig) -> String {
    if *c == ConnectConfig::default() {
        String::new()
    } else {
        serde_json::to_string(c).unwrap_or_default()
    }
}

fn parse_config(text: &str) -> Result<ConnectConfig, String> {
    if text.trim().is_empty() {
        return Ok(ConnectConfig::default());
    }
    serde_json::from_str(text).map_err(|e| {
        format!("config overrides must be a JSON object of Kafka properties, e.g. {{\"connect.protocol\": \"sessioned\"}}: {e}")
    })
}

type Apply = Rc<dyn Fn(&mut Event, &str) -> Result<(), String>>;

/// The events section.
#[component]
pub fn EventsEditor(props: &EventsEditorProps) -> Html {
    let Family::Connect(s) = &props.scenario.family else {
        return html! {};
    };
    let s = Rc::new(s.clone());
    let workers = worker_names(&s);
    let edit_event = |i: usize, f: Apply| {
        let (on_edit, on_error, events) = (
            props.on_edit.clone(),
            props.on_error.clone(),
            s.events.clone(),
        );
        Callback::from(move |text: String| {
            let mut next = events.clone();
            let Some(ev) = next.get_mut(i) else { return };
            match f(&mut ev.event, &text) {
                Ok(()) => on_edit.emit(Edit::Events(next)),
                Err(e) => on_error.emit(e),
            }
        })
    };
    let on_at = |i: usize| {
        let (on_edit, on_error, events) = (
            props.on_edit.clone(),
            props.on_error.clone(),
            s.events.clone(),
        );
        Callback::from(move |text: String| match s_to_ms(&text) {
            Some(ms) => {
                let mut next = events.clone();
                if let Some(ev) = next.get_mut(i) {
                    ev.at_ms = ms;
                    on_edit.emit(Edit::Events(next));
                }
            }
            None => on_error.emit("an event's time must be a number of seconds".to_string()),
        })
    };
    let on_kind = |i: usize| {
        let (on_edit, s) = (props.on_edit.clone(), s.clone());
        Callback::from(move |kind: String| {
            let mut next = s.events.clone();
            if let Some(ev) = next.get_mut(i) {
                ev.event = default_event(&kind, &ev.event, &s);
                on_edit.emit(Edit::Events(next));
            }
        })
    };
    let remove = |i: usize| {
        let (on_edit, events) = (props.on_edit.clone(), s.events.clone());
        Callback::from(move |_: MouseEvent| {
            let mut next = events.clone();
            next.remove(i);
            on_edit.emit(Edit::Events(next));
        })
    };
    let add = {
        let (on_edit, events) = (props.on_edit.clone(), s.events.clone());
        Callback::from(move |_: MouseEvent| {
            let mut next = events.clone();
            let at_ms = next
                .iter()
                .map(|e| e.at_ms)
                .max()
                .map_or(30_000, |t| t + 30_000);
            next.push(TimedEvent {
                at_ms,
                event: Event::WorkerJoin {
                    count: 1,
                    config: ConnectConfig::default(),
                },
            });
            on_edit.emit(Edit::Events(next));
        })
    };
    let kinds: Vec<(AttrValue, AttrValue)> = KINDS
        .iter()
        .map(|(k, l)| (AttrValue::Static(k), AttrValue::Static(l)))
        .collect();

    let worker_field = |i: usize, worker: &str| {
        html! {
            <TextField label="worker" value={worker.to_string()} list="worker-names"
                       on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                           match e {
                               Event::WorkerStop { worker } | Event::WorkerCrash { worker }
                               | Event::WorkerRestart { worker, .. } | Event::GcPause { worker, .. } => *worker = t.trim().to_string(),
                               _ => {}
                           }
                           Ok(())
                       }))} />
        }
    };
    let config_field = |i: usize, c: &ConnectConfig| {
        html! {
            <TextField label="config overrides (JSON)" value={config_text(c)} placeholder="{} (cluster config)" class="wide"
                       on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                           let parsed = parse_config(t)?;
                           match e {
                               Event::WorkerJoin { config, .. } | Event::WorkerRestart { config, .. }
                               | Event::RollingRestart { config, .. } => *config = parsed,
                               _ => {}
                           }
                           Ok(())
                       }))} />
        }
    };

    let fields = |i: usize, e: &Event| -> Html {
        match e {
            Event::WorkerJoin { count, config } => html! { <>
                <NumberField label="how many" value={count.to_string()} on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::WorkerJoin { count, .. } = e { *count = whole_number::<u32>("how many", t)?; }
                    Ok(())
                }))} />
                { config_field(i, config) }
            </> },
            Event::WorkerStop { worker } | Event::WorkerCrash { worker } => worker_field(i, worker),
            Event::WorkerRestart {
                worker,
                downtime_ms,
                crash,
                config,
            } => html! { <>
                { worker_field(i, worker) }
                <NumberField label="down for (from its exit)" unit="s" step="any" value={ms_to_s(*downtime_ms)} on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::WorkerRestart { downtime_ms, .. } = e { *downtime_ms = seconds_of("down for (from its exit)", t)?; }
                    Ok(())
                }))} />
                <SelectField label="stops" value={if *crash { "crash" } else { "graceful" }}
                             options={vec![(AttrValue::Static("graceful"), AttrValue::Static("gracefully (LeaveGroup)")), (AttrValue::Static("crash"), AttrValue::Static("by crashing"))]}
                             on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                                 if let Event::WorkerRestart { crash, .. } = e { *crash = t == "crash"; }
                                 Ok(())
                             }))} />
                { config_field(i, config) }
            </> },
            Event::RollingRestart {
                downtime_ms,
                interval_ms,
                limit,
                config,
            } => html! { <>
                <NumberField label="each down for (from its exit)" unit="s" step="any" value={ms_to_s(*downtime_ms)} on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::RollingRestart { downtime_ms, .. } = e { *downtime_ms = seconds_of("each down for (from its exit)", t)?; }
                    Ok(())
                }))} />
                <NumberField label="one every" unit="s" step="any" value={ms_to_s(*interval_ms)} on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::RollingRestart { interval_ms, .. } = e { *interval_ms = seconds_of("one every", t)?; }
                    Ok(())
                }))} />
                <NumberField label="first N workers" placeholder="all" value={limit.map(|l| l.to_string()).unwrap_or_default()} on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::RollingRestart { limit, .. } = e {
                        *limit = if t.trim().is_empty() { None } else { Some(whole_number::<u32>("first N workers", t)?) };
                    }
                    Ok(())
                }))} />
                { config_field(i, config) }
            </> },
            Event::GcPause {
                worker,
                duration_ms,
            } => html! { <>
                { worker_field(i, worker) }
                <NumberField label="frozen for" unit="s" step="any" value={ms_to_s(*duration_ms)} on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::GcPause { duration_ms, .. } = e { *duration_ms = seconds_of("frozen for", t)?; }
                    Ok(())
                }))} />
            </> },
            Event::ConnectorAdd { name, tasks } => html! { <>
                <TextField label="connector" value={name.clone()} on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::ConnectorAdd { name, .. } = e { *name = t.trim().to_string(); }
                    Ok(())
                }))} />
                <NumberField label="tasks" value={tasks.to_string()} on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::ConnectorAdd { tasks, .. } = e { *tasks = whole_number::<u32>("tasks", t)?; }
                    Ok(())
                }))} />
            </> },
            Event::ConnectorRemove { name } => html! {
                <TextField label="connector" value={name.clone()} list="connector-names" on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::ConnectorRemove { name } = e { *name = t.trim().to_string(); }
                    Ok(())
                }))} />
            },
            Event::TaskCountChange { connector, tasks } => html! { <>
                <TextField label="connector" value={connector.clone()} list="connector-names" on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::TaskCountChange { connector, .. } = e { *connector = t.trim().to_string(); }
                    Ok(())
                }))} />
                <NumberField label="new task count" value={tasks.to_string()} on_change={edit_event(i, Rc::new(|e: &mut Event, t: &str| {
                    if let Event::TaskCountChange { tasks, .. } = e { *tasks = whole_number::<u32>("new task count", t)?; }
                    Ok(())
                }))} />
            </> },
        }
    };

    html! {
        <fieldset class="events">
            <legend>{"Events"}</legend>
            <datalist id="worker-names">{ for workers.iter().map(|w| html! { <option value={w.clone()} /> }) }</datalist>
            <datalist id="connector-names">{ for s.initial_connectors().iter().map(|(c, _)| html! { <option value={c.clone()} /> }) }</datalist>
            if s.events.is_empty() {
                <p class="hint">{"No events: the cluster just runs. Add a join, a crash or a bounce."}</p>
            }
            <ol class="event-list">
                { for s.events.iter().enumerate().map(|(i, ev)| html! {
                    <li class="event-row" data-kind={kind_of(&ev.event)}>
                        <NumberField label="at" unit="s" step="any" value={ms_to_s(ev.at_ms)} on_change={on_at(i)} class="at" />
                        <SelectField label="what" options={kinds.clone()} value={kind_of(&ev.event)} on_change={on_kind(i)} />
                        { fields(i, &ev.event) }
                        <button type="button" class="icon remove" onclick={remove(i)} aria-label={format!("Remove event {}", i + 1)} title="Remove">{"×"}</button>
                    </li>
                }) }
            </ol>
            <button type="button" class="add" id="add-event" onclick={add}>{"+ event"}</button>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_valid_default() {
        let s = engine::presets::default_preset().scenario();
        for (kind, _) in KINDS {
            let mut t = s.clone();
            let Family::Connect(c) = &mut t.family else {
                panic!("the default preset is a Connect scenario")
            };
            c.events = vec![TimedEvent {
                at_ms: 10_000,
                event: default_event(kind, &c.events[0].event, c),
            }];
            assert_eq!(kind_of(&c.events[0].event), *kind);
            t.validate().unwrap_or_else(|e| panic!("{kind}: {e}"));
        }
    }
}
