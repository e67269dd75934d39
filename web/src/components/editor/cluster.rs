//! Cluster shape: title and description, workers at time 0, connectors with their task
//! counts, the simulator's timings, run length and seed.

use std::rc::Rc;

use engine::scenario::{ConnectCluster, ConnectorSpec, Family, Scenario, Timings};
use yew::prelude::*;

use super::fields::{
    ms_to_s, s_to_ms, textarea_field, whole_number, whole_number_edit, NumberField, TextField,
};
use crate::state::edit::Edit;

/// Props of [`ClusterEditor`].
#[derive(Properties, PartialEq)]
pub struct ClusterEditorProps {
    /// The scenario.
    pub scenario: Rc<Scenario>,
    /// An edit.
    pub on_edit: Callback<Edit>,
    /// Text that is not a value for its field.
    pub on_error: Callback<String>,
    /// The scenario changed since its title and description were written.
    pub text_stale: bool,
}

/// Applies committed text to one connector, or says why it cannot.
type ConnectorEdit = Rc<dyn Fn(&mut ConnectorSpec, &str) -> Result<(), String>>;

/// The cluster section.
#[component]
pub fn ClusterEditor(props: &ClusterEditorProps) -> Html {
    let s = &props.scenario;
    // A Streams scenario has no Connect cluster (its application is edited
    // below): the Connect fields are not shown, so an empty cluster stands in.
    let (cluster, streams) = match &s.family {
        Family::Connect(c) => (c.cluster.clone(), false),
        Family::Streams(_) => (ConnectCluster::default(), true),
    };
    // The fields' callbacks are kept while what they capture stays the
    // same, so a field whose value an edit did not change skips its render
    // (issue #13: the section's number fields rendered on every edit).
    let callbacks = use_memo(
        (
            props.on_edit.clone(),
            props.on_error.clone(),
            cluster.connectors.clone(),
            cluster.timings.clone(),
        ),
        |(on_edit, on_error, connectors, timings)| {
            SectionCallbacks::new(on_edit, on_error, connectors, timings)
        },
    );
    let SectionCallbacks {
        fields,
        rows,
        add_connector,
        timings,
    } = &*callbacks;
    let timing = |i: usize, label: &'static str, value: u32| {
        let on_change = timings[i].clone();
        html! { <NumberField label={label} value={value.to_string()} unit="ms" {on_change} /> }
    };
    let t = &cluster.timings;
    let stale_note = props
        .text_stale
        .then_some("edited — description may not match");
    let FieldCallbacks {
        on_title,
        on_description,
        on_workers,
        on_seed,
        on_end,
    } = fields.clone();
    let add_connector = add_connector.clone();

    html! {
        <fieldset class="cluster">
            <legend>{"Scenario"}</legend>
            <div class="row">
                <TextField label="Title" id="title" value={s.title.clone()} on_change={on_title} class="wide" />
                if !streams {
                    <NumberField label="Workers at start" id="workers" value={cluster.workers.to_string()} on_change={on_workers} />
                }
                <NumberField label="Run length" value={s.end_ms.map(ms_to_s).unwrap_or_default()} unit="s"
                             placeholder="auto" step="any" on_change={on_end} />
                <NumberField label="Seed" value={s.seed.to_string()} on_change={on_seed} />
            </div>
            <div class="row">
                { textarea_field("Description", "description", &s.description, on_description, stale_note) }
            </div>
            if !streams {
            <table class="connectors">
                <thead><tr>
                    <th scope="col">{"connector"}</th>
                    <th scope="col" title="tasks.max as the connector uses it">{"tasks"}</th>
                    <th scope="col" title="Expand into this many alike connectors named <name>-1 …">{"count"}</th>
                    <th></th>
                </tr></thead>
                <tbody>
                    { for cluster.connectors.iter().zip(rows.iter()).enumerate().map(|(i, (c, row))| {
                        let ConnectorCallbacks { on_name, on_tasks, on_count, remove } = row.clone();
                        html! {
                            <tr key={i}>
                                <td><TextField label="name" value={c.name.clone()} on_change={on_name} class="bare" /></td>
                                <td><NumberField label="tasks" id={(i == 0).then_some(AttrValue::Static("tasks"))} value={c.tasks.to_string()} on_change={on_tasks} class="bare" /></td>
                                <td><NumberField label="count" value={c.count.map(|n| n.to_string()).unwrap_or_default()} placeholder="1" on_change={on_count} class="bare" /></td>
                                <td><button type="button" class="icon remove" onclick={remove} aria-label={format!("Remove {}", c.name)} title="Remove">{"×"}</button></td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            <button type="button" class="add" onclick={add_connector}>{"+ connector"}</button>
            <details class="timings">
                <summary>{"Timings (the simulator's model of real work, not Kafka configs)"}</summary>
                <div class="row">
                    { for TIMINGS.iter().enumerate().map(|(i, (label, get, _))| timing(i, label, get(t))) }
                </div>
            </details>
            }
        </fieldset>
    }
}

/// Every callback of the section, made again only when what one of them
/// captures changes (the connector list, the timings).
struct SectionCallbacks {
    fields: FieldCallbacks,
    rows: Vec<ConnectorCallbacks>,
    add_connector: Callback<MouseEvent>,
    timings: Vec<Callback<String>>,
}

impl SectionCallbacks {
    fn new(
        on_edit: &Callback<Edit>,
        on_error: &Callback<String>,
        connectors: &[ConnectorSpec],
        timings: &Timings,
    ) -> Self {
        let add_connector = {
            let (on_edit, connectors) = (on_edit.clone(), connectors.to_vec());
            Callback::from(move |_: MouseEvent| {
                let mut next = connectors.clone();
                let mut n = next.len() + 1;
                while next.iter().any(|c| c.name == format!("connector-{n}")) {
                    n += 1;
                }
                next.push(ConnectorSpec {
                    name: format!("connector-{n}"),
                    tasks: 4,
                    count: None,
                });
                on_edit.emit(Edit::Connectors(next));
            })
        };
        SectionCallbacks {
            fields: FieldCallbacks::new(on_edit, on_error),
            rows: connector_callbacks(on_edit, on_error, connectors),
            add_connector,
            timings: timing_callbacks(on_edit, on_error, timings),
        }
    }
}

/// The callbacks of the section's single fields (they capture nothing of
/// the scenario).
#[derive(Clone)]
struct FieldCallbacks {
    on_title: Callback<String>,
    on_description: Callback<String>,
    on_workers: Callback<String>,
    on_seed: Callback<String>,
    on_end: Callback<String>,
}

impl FieldCallbacks {
    fn new(on_edit: &Callback<Edit>, on_error: &Callback<String>) -> Self {
        let on_seed = {
            let (on_edit, on_error) = (on_edit.clone(), on_error.clone());
            Callback::from(move |text: String| match text.trim().parse::<u64>() {
                Ok(n) => on_edit.emit(Edit::Seed(n)),
                Err(_) => on_error.emit("seed must be a whole number".to_string()),
            })
        };
        let on_end = {
            let (on_edit, on_error) = (on_edit.clone(), on_error.clone());
            Callback::from(move |text: String| {
                if text.trim().is_empty() {
                    on_edit.emit(Edit::EndMs(None));
                } else {
                    match s_to_ms(&text) {
                        Some(ms) => on_edit.emit(Edit::EndMs(Some(ms))),
                        None => on_error.emit("run length must be a number of seconds".to_string()),
                    }
                }
            })
        };
        FieldCallbacks {
            on_title: on_edit.reform(Edit::Title),
            on_description: on_edit.reform(|t: String| Edit::Description(t.trim().to_string())),
            on_workers: whole_number_edit(
                "Workers",
                on_edit.clone(),
                on_error.clone(),
                Edit::Workers,
            ),
            on_seed,
            on_end,
        }
    }
}

/// One connector row's callbacks: each edits the connector list it was
/// made with, so they are made again when the list changes.
#[derive(Clone)]
struct ConnectorCallbacks {
    on_name: Callback<String>,
    on_tasks: Callback<String>,
    on_count: Callback<String>,
    remove: Callback<MouseEvent>,
}

fn connector_callbacks(
    on_edit: &Callback<Edit>,
    on_error: &Callback<String>,
    connectors: &[ConnectorSpec],
) -> Vec<ConnectorCallbacks> {
    let edit = |i: usize, f: ConnectorEdit| {
        let (on_edit, on_error, connectors) =
            (on_edit.clone(), on_error.clone(), connectors.to_vec());
        Callback::from(move |text: String| {
            let mut next = connectors.clone();
            if let Some(c) = next.get_mut(i) {
                match f(c, &text) {
                    Ok(()) => on_edit.emit(Edit::Connectors(next)),
                    Err(e) => on_error.emit(e),
                }
            }
        })
    };
    (0..connectors.len())
        .map(|i| ConnectorCallbacks {
            on_name: edit(
                i,
                Rc::new(|c: &mut ConnectorSpec, t: &str| {
                    c.name = t.trim().to_string();
                    Ok(())
                }),
            ),
            on_tasks: edit(
                i,
                Rc::new(|c: &mut ConnectorSpec, t: &str| {
                    c.tasks = whole_number::<u32>("tasks", t)?;
                    Ok(())
                }),
            ),
            on_count: edit(
                i,
                Rc::new(|c: &mut ConnectorSpec, t: &str| {
                    c.count = if t.trim().is_empty() {
                        None
                    } else {
                        Some(whole_number::<u32>("count", t)?)
                    };
                    Ok(())
                }),
            ),
            remove: {
                let (on_edit, connectors) = (on_edit.clone(), connectors.to_vec());
                Callback::from(move |_: MouseEvent| {
                    let mut next = connectors.clone();
                    next.remove(i);
                    on_edit.emit(Edit::Connectors(next));
                })
            },
        })
        .collect()
}

/// The simulator's timings the section edits: label, value, setter.
type TimingField = (&'static str, fn(&Timings) -> u32, fn(&mut Timings, u32));

const TIMINGS: [TimingField; 5] = [
    (
        "connector start",
        |t| t.connector_start_ms,
        |t, v| t.connector_start_ms = v,
    ),
    (
        "connector stop",
        |t| t.connector_stop_ms,
        |t, v| t.connector_stop_ms = v,
    ),
    (
        "task start",
        |t| t.task_start_ms,
        |t, v| t.task_start_ms = v,
    ),
    ("task stop", |t| t.task_stop_ms, |t, v| t.task_stop_ms = v),
    (
        "coordinator round trip",
        |t| t.coordinator_rtt_ms,
        |t, v| t.coordinator_rtt_ms = v,
    ),
];

/// The timings' callbacks, in [`TIMINGS`]' order: each edits the timings it
/// was made with.
fn timing_callbacks(
    on_edit: &Callback<Edit>,
    on_error: &Callback<String>,
    timings: &Timings,
) -> Vec<Callback<String>> {
    TIMINGS
        .iter()
        .map(|&(label, _, set)| {
            let timings = timings.clone();
            whole_number_edit(label, on_edit.clone(), on_error.clone(), move |v| {
                let mut t = timings.clone();
                set(&mut t, v);
                Edit::Timings(t)
            })
        })
        .collect()
}
