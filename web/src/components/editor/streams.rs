//! The Kafka Streams part of a scenario: the application (instances,
//! subtopologies and their state, the restore rate), its release and
//! configuration per compared column (the shared config grid), and the
//! timed events (whose config overrides are still JSON objects of Kafka
//! properties).

use std::rc::Rc;

use engine::scenario::{
    instance_name, Family, Scenario, StreamsConfig, StreamsEvent, StreamsScenario,
    StreamsTimedEvent, SubtopologySpec,
};
use yew::prelude::*;

use super::config_matrix::StreamsConfigMatrix;
use super::fields::{
    ms_to_s, seconds_of, whole_number, whole_number_edit, NumberField, SelectField, TextField,
};
use crate::state::edit::{set_blocked_thread, Edit, StreamsConfigs};

/// Props of [`StreamsEditor`].
#[derive(Properties, PartialEq)]
pub struct StreamsEditorProps {
    /// The scenario (its `streams` part is `Some`).
    pub scenario: Rc<Scenario>,
    /// An edit.
    pub on_edit: Callback<Edit>,
    /// Text that is not a value for its field.
    pub on_error: Callback<String>,
}

/// Every Streams event type: (serde tag, label); `kind_of` matches exhaustively.
const KINDS: &[(&str, &str)] = &[
    ("instance_join", "instances join"),
    ("instance_stop", "instance stops (graceful)"),
    ("instance_crash", "instance crashes"),
    ("instance_restart", "instance restarts (bounce)"),
    ("rolling_restart", "rolling restart"),
    ("gc_pause", "GC pause (freeze)"),
    ("slow_processing", "slow handler (blocks polling)"),
];

fn kind_of(e: &StreamsEvent) -> &'static str {
    match e {
        StreamsEvent::InstanceJoin { .. } => "instance_join",
        StreamsEvent::InstanceStop { .. } => "instance_stop",
        StreamsEvent::InstanceCrash { .. } => "instance_crash",
        StreamsEvent::InstanceRestart { .. } => "instance_restart",
        StreamsEvent::RollingRestart { .. } => "rolling_restart",
        StreamsEvent::GcPause { .. } => "gc_pause",
        StreamsEvent::SlowProcessing { .. } => "slow_processing",
    }
}

fn instance_of(e: &StreamsEvent) -> Option<&String> {
    match e {
        StreamsEvent::InstanceStop { instance }
        | StreamsEvent::InstanceCrash { instance }
        | StreamsEvent::InstanceRestart { instance, .. }
        | StreamsEvent::GcPause { instance, .. }
        | StreamsEvent::SlowProcessing { instance, .. } => Some(instance),
        _ => None,
    }
}

fn default_event(kind: &str, old: &StreamsEvent) -> StreamsEvent {
    let instance = instance_of(old)
        .cloned()
        .unwrap_or_else(|| instance_name(1));
    match kind {
        "instance_stop" => StreamsEvent::InstanceStop { instance },
        "instance_crash" => StreamsEvent::InstanceCrash { instance },
        "instance_restart" => StreamsEvent::InstanceRestart {
            instance,
            downtime_ms: 30_000,
            crash: false,
            kafka_version: None,
            config: StreamsConfig::default(),
            remove_config: Vec::new(),
        },
        "rolling_restart" => StreamsEvent::RollingRestart {
            downtime_ms: 20_000,
            interval_ms: 60_000,
            limit: None,
            reverse_order: false,
            kafka_version: None,
            config: StreamsConfig::default(),
            remove_config: Vec::new(),
        },
        "gc_pause" => StreamsEvent::GcPause {
            instance,
            duration_ms: 15_000,
        },
        "slow_processing" => StreamsEvent::SlowProcessing {
            instance,
            duration_ms: 400_000,
            thread: None,
        },
        _ => StreamsEvent::InstanceJoin {
            count: 1,
            kafka_version: None,
            config: StreamsConfig::default(),
        },
    }
}

fn config_text(c: &StreamsConfig) -> String {
    if *c == StreamsConfig::default() {
        String::new()
    } else {
        serde_json::to_string(c).unwrap_or_default()
    }
}

fn parse_config(text: &str) -> Result<StreamsConfig, String> {
    if text.trim().is_empty() {
        return Ok(StreamsConfig::default());
    }
    serde_json::from_str(text).map_err(|e| {
        format!("Streams config must be a JSON object of Kafka properties, e.g. {{\"num.standby.replicas\": 1}}: {e}")
    })
}

type AppEdit = Rc<dyn Fn(&mut StreamsScenario, &str) -> Result<(), String>>;
type EventEdit = Rc<dyn Fn(&mut StreamsEvent, &str) -> Result<(), String>>;
type SubEdit = Rc<dyn Fn(&mut SubtopologySpec, &str) -> Result<(), String>>;

/// The Streams sections.
#[component]
pub fn StreamsEditor(props: &StreamsEditorProps) -> Html {
    let Family::Streams(st) = &props.scenario.family else {
        return html! {};
    };
    let st = st.clone();
    let st = Rc::new(st);
    // Any change to the Streams part: apply `f` to a copy, then one edit.
    let change = |f: AppEdit| {
        let (on_edit, on_error, st) = (props.on_edit.clone(), props.on_error.clone(), st.clone());
        Callback::from(move |text: String| {
            let mut next = (*st).clone();
            match f(&mut next, &text) {
                Ok(()) => on_edit.emit(Edit::Streams(Box::new(next))),
                Err(e) => on_error.emit(e),
            }
        })
    };
    let change_event = |i: usize, f: EventEdit| {
        change(Rc::new(move |s: &mut StreamsScenario, t: &str| {
            match s.events.get_mut(i) {
                Some(ev) => f(&mut ev.event, t),
                None => Ok(()),
            }
        }))
    };
    let click = |f: Rc<dyn Fn(&mut StreamsScenario)>| {
        let (on_edit, st) = (props.on_edit.clone(), st.clone());
        Callback::from(move |_: MouseEvent| {
            let mut next = (*st).clone();
            f(&mut next);
            on_edit.emit(Edit::Streams(Box::new(next)));
        })
    };
    // Its own edit, which may wait to be shown with its result (Edit::stands_alone).
    let on_instances = whole_number_edit(
        "instances",
        props.on_edit.clone(),
        props.on_error.clone(),
        Edit::Instances,
    );
    let app = &st.app;
    let kinds: Vec<(AttrValue, AttrValue)> = KINDS
        .iter()
        .map(|(k, l)| (AttrValue::Static(k), AttrValue::Static(l)))
        .collect();
    let instance_field = |i: usize, instance: &str| {
        html! {
            <TextField label="instance" value={instance.to_string()} on_change={change_event(i, Rc::new(|e: &mut StreamsEvent, t: &str| {
                match e {
                    StreamsEvent::InstanceStop { instance } | StreamsEvent::InstanceCrash { instance }
                    | StreamsEvent::InstanceRestart { instance, .. } | StreamsEvent::GcPause { instance, .. }
                    | StreamsEvent::SlowProcessing { instance, .. } => *instance = t.trim().to_string(),
                    _ => {}
                }
                Ok(())
            }))} />
        }
    };
    let config_field = |i: usize, c: &StreamsConfig| {
        html! {
            <TextField label="config overrides (JSON)" value={config_text(c)} placeholder="{} (application config)" class="wide"
                       on_change={change_event(i, Rc::new(|e: &mut StreamsEvent, t: &str| {
                           let parsed = parse_config(t)?;
                           match e {
                               StreamsEvent::InstanceJoin { config, .. } | StreamsEvent::InstanceRestart { config, .. }
                               | StreamsEvent::RollingRestart { config, .. } => *config = parsed,
                               _ => {}
                           }
                           Ok(())
                       }))} />
        }
    };
    let duration_field = |i: usize,
                          label: &'static str,
                          ms: u64,
                          set: fn(&mut StreamsEvent, u64)| {
        html! {
            <NumberField label={label} unit="s" step="any" value={ms_to_s(ms)} on_change={change_event(i, Rc::new(move |e: &mut StreamsEvent, t: &str| {
                set(e, seconds_of(label, t)?);
                Ok(())
            }))} />
        }
    };
    fn set_downtime(e: &mut StreamsEvent, v: u64) {
        if let StreamsEvent::InstanceRestart { downtime_ms, .. }
        | StreamsEvent::RollingRestart { downtime_ms, .. } = e
        {
            *downtime_ms = v;
        }
    }
    fn set_interval(e: &mut StreamsEvent, v: u64) {
        if let StreamsEvent::RollingRestart { interval_ms, .. } = e {
            *interval_ms = v;
        }
    }
    fn set_duration(e: &mut StreamsEvent, v: u64) {
        if let StreamsEvent::GcPause { duration_ms, .. }
        | StreamsEvent::SlowProcessing { duration_ms, .. } = e
        {
            *duration_ms = v;
        }
    }
    let fields = |i: usize, e: &StreamsEvent| -> Html {
        match e {
            StreamsEvent::InstanceJoin { count, config, .. } => html! { <>
                <NumberField label="how many" value={count.to_string()} on_change={change_event(i, Rc::new(|e: &mut StreamsEvent, t: &str| {
                    if let StreamsEvent::InstanceJoin { count, .. } = e { *count = whole_number::<u32>("how many", t)?; }
                    Ok(())
                }))} />
                { config_field(i, config) }
            </> },
            StreamsEvent::InstanceStop { instance } | StreamsEvent::InstanceCrash { instance } => {
                instance_field(i, instance)
            }
            StreamsEvent::InstanceRestart {
                instance,
                downtime_ms,
                crash,
                config,
                ..
            } => html! { <>
                { instance_field(i, instance) }
                { duration_field(i, "down for (from its exit)", *downtime_ms, set_downtime) }
                <SelectField label="stops" value={if *crash { "crash" } else { "graceful" }}
                             options={vec![(AttrValue::Static("graceful"), AttrValue::Static("gracefully")), (AttrValue::Static("crash"), AttrValue::Static("by crashing"))]}
                             on_change={change_event(i, Rc::new(|e: &mut StreamsEvent, t: &str| {
                                 if let StreamsEvent::InstanceRestart { crash, .. } = e { *crash = t == "crash"; }
                                 Ok(())
                             }))} />
                { config_field(i, config) }
            </> },
            StreamsEvent::RollingRestart {
                downtime_ms,
                interval_ms,
                limit,
                config,
                ..
            } => html! { <>
                { duration_field(i, "each down for (from its exit)", *downtime_ms, set_downtime) }
                { duration_field(i, "one every", *interval_ms, set_interval) }
                <NumberField label="first N instances" placeholder="all" value={limit.map(|l| l.to_string()).unwrap_or_default()}
                             on_change={change_event(i, Rc::new(|e: &mut StreamsEvent, t: &str| {
                                 if let StreamsEvent::RollingRestart { limit, .. } = e {
                                     *limit = if t.trim().is_empty() { None } else { Some(whole_number::<u32>("first N instances", t)?) };
                                 }
                                 Ok(())
                             }))} />
                { config_field(i, config) }
            </> },
            StreamsEvent::GcPause {
                instance,
                duration_ms,
            } => html! { <>
                { instance_field(i, instance) }
                { duration_field(i, "frozen for", *duration_ms, set_duration) }
            </> },
            StreamsEvent::SlowProcessing {
                instance,
                duration_ms,
                thread,
            } => html! { <>
                { instance_field(i, instance) }
                <NumberField label="stream thread" placeholder="1" value={thread.map(|n| n.to_string()).unwrap_or_default()}
                             on_change={change_event(i, Rc::new(|e: &mut StreamsEvent, t: &str| set_blocked_thread(e, t)))} />
                { duration_field(i, "blocked for", *duration_ms, set_duration) }
            </> },
        }
    };
    let sub_edit = |i: usize, f: SubEdit| {
        change(Rc::new(move |s: &mut StreamsScenario, t: &str| {
            match s.app.subtopologies.get_mut(i) {
                Some(sub) => f(sub, t),
                None => Ok(()),
            }
        }))
    };

    html! {
        <>
            <fieldset class="cluster streams-app">
                <legend>{"Streams application"}</legend>
                <div class="row">
                    <NumberField label="Instances at start" id="instances" value={app.instances.to_string()}
                                 on_change={on_instances} />
                    <NumberField label="Restore rate" id="restore-rate" unit="records/s per task" value={app.timings.restore_records_per_sec.to_string()}
                                 on_change={change(Rc::new(|s: &mut StreamsScenario, t: &str| { s.app.timings.restore_records_per_sec = whole_number::<u32>("Restore rate", t)?; Ok(()) }))} />
                    <SelectField label="State at start" value={if app.cold_start { "cold" } else { "warm" }}
                                 options={vec![(AttrValue::Static("warm"), AttrValue::Static("warm (steady layout)")), (AttrValue::Static("cold"), AttrValue::Static("cold (restore first)"))]}
                                 on_change={change(Rc::new(|s: &mut StreamsScenario, t: &str| { s.app.cold_start = t == "cold"; Ok(()) }))} />
                </div>
                <table class="connectors subtopologies">
                    <thead><tr>
                        <th scope="col">{"partitions"}</th><th scope="col">{"state"}</th>
                        <th scope="col">{"changelog records"}</th><th scope="col">{"records/s"}</th>
                        <th scope="col">{"count"}</th><th></th>
                    </tr></thead>
                    <tbody>
                        { for app.subtopologies.iter().enumerate().map(|(i, sub)| html! {
                            <tr key={i}>
                                <td><NumberField label="partitions" value={sub.partitions.to_string()} class="bare"
                                                 on_change={sub_edit(i, Rc::new(|s: &mut SubtopologySpec, t: &str| { s.partitions = whole_number::<u32>("partitions", t)?; Ok(()) }))} /></td>
                                <td><SelectField label="state" value={if sub.stateful { "stateful" } else { "stateless" }} class="bare"
                                                 options={vec![(AttrValue::Static("stateless"), AttrValue::Static("stateless")), (AttrValue::Static("stateful"), AttrValue::Static("stateful"))]}
                                                 on_change={sub_edit(i, Rc::new(|s: &mut SubtopologySpec, t: &str| { s.stateful = t == "stateful"; Ok(()) }))} /></td>
                                <td><NumberField label="changelog records" value={sub.changelog_records.to_string()} class="bare"
                                                 on_change={sub_edit(i, Rc::new(|s: &mut SubtopologySpec, t: &str| { s.changelog_records = whole_number::<u64>("changelog records", t)?; Ok(()) }))} /></td>
                                <td><NumberField label="records/s" value={sub.changelog_records_per_sec.to_string()} class="bare"
                                                 on_change={sub_edit(i, Rc::new(|s: &mut SubtopologySpec, t: &str| { s.changelog_records_per_sec = whole_number::<u32>("records/s", t)?; Ok(()) }))} /></td>
                                <td><NumberField label="count" value={sub.count.map(|n| n.to_string()).unwrap_or_default()} placeholder="1" class="bare"
                                                 on_change={sub_edit(i, Rc::new(|s: &mut SubtopologySpec, t: &str| {
                                                     s.count = if t.trim().is_empty() { None } else { Some(whole_number::<u32>("count", t)?) };
                                                     Ok(())
                                                 }))} /></td>
                                <td><button type="button" class="icon remove" aria-label="Remove subtopology" title="Remove"
                                            onclick={click(Rc::new(move |s: &mut StreamsScenario| { if i < s.app.subtopologies.len() { s.app.subtopologies.remove(i); } }))}>{"×"}</button></td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                <button type="button" class="add" onclick={click(Rc::new(|s: &mut StreamsScenario| s.app.subtopologies.push(SubtopologySpec {
                    partitions: 4, stateful: false, changelog_records: 0, changelog_records_per_sec: 0, count: None,
                })))}>{"+ subtopology"}</button>
            </fieldset>
            <StreamsConfigMatrix configs={Rc::new(StreamsConfigs::of(&st))}
                                 on_edit={props.on_edit.clone()} on_error={props.on_error.clone()} />
            <fieldset class="events">
                <legend>{"Events"}</legend>
                <ol class="event-list">
                    { for st.events.iter().enumerate().map(|(i, ev)| html! {
                        <li class="event-row" data-kind={kind_of(&ev.event)}>
                            <NumberField label="at" unit="s" step="any" value={ms_to_s(ev.at_ms)} class="at"
                                         on_change={change(Rc::new(move |s: &mut StreamsScenario, t: &str| {
                                             if let Some(e) = s.events.get_mut(i) { e.at_ms = seconds_of("at", t)?; }
                                             Ok(())
                                         }))} />
                            <SelectField label="what" options={kinds.clone()} value={kind_of(&ev.event)}
                                         on_change={change(Rc::new(move |s: &mut StreamsScenario, t: &str| {
                                             if let Some(e) = s.events.get_mut(i) { e.event = default_event(t, &e.event); }
                                             Ok(())
                                         }))} />
                            { fields(i, &ev.event) }
                            <button type="button" class="icon remove" aria-label={format!("Remove event {}", i + 1)} title="Remove"
                                    onclick={click(Rc::new(move |s: &mut StreamsScenario| { if i < s.events.len() { s.events.remove(i); } }))}>{"×"}</button>
                        </li>
                    }) }
                </ol>
                <button type="button" class="add" id="add-event" onclick={click(Rc::new(|s: &mut StreamsScenario| {
                    let at_ms = s.events.iter().map(|e| e.at_ms).max().map_or(30_000, |t| t + 30_000);
                    s.events.push(StreamsTimedEvent { at_ms, event: default_event("instance_join", &StreamsEvent::InstanceStop { instance: instance_name(1) }) });
                }))}>{"+ event"}</button>
            </fieldset>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_valid_default() {
        let preset = engine::presets::all()
            .iter()
            .find(|p| p.family() == engine::scenario::FamilyKind::Streams)
            .expect("a Streams preset");
        let s = preset.scenario();
        for (kind, _) in KINDS {
            let mut t = s.clone();
            let Family::Streams(st) = &mut t.family else {
                panic!("{} is a Streams preset", preset.id)
            };
            st.events = vec![StreamsTimedEvent {
                at_ms: 10_000,
                event: default_event(
                    kind,
                    &StreamsEvent::InstanceStop {
                        instance: instance_name(1),
                    },
                ),
            }];
            assert_eq!(kind_of(&st.events[0].event), *kind);
            t.validate().unwrap_or_else(|e| panic!("{kind}: {e}"));
        }
    }
}
