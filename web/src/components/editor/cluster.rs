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
    let connectors = cluster.connectors.clone();
    let edit_connector = {
        let (on_edit, on_error) = (props.on_edit.clone(), props.on_error.clone());
        move |i: usize, f: ConnectorEdit| {
            let (on_edit, on_error, connectors) =
                (on_edit.clone(), on_error.clone(), connectors.clone());
            Callback::from(move |text: String| {
                let mut next = connectors.clone();
                if let Some(c) = next.get_mut(i) {
                    match f(c, &text) {
                        Ok(()) => on_edit.emit(Edit::Connectors(next)),
                        Err(e) => on_error.emit(e),
                    }
                }
            })
        }
    };
    let add_connector = {
        let (on_edit, connectors) = (props.on_edit.clone(), cluster.connectors.clone());
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
    let timing = |label: &'static str, value: u32, set: fn(&mut Timings, u32)| {
        let (on_edit, on_error, timings) = (
            props.on_edit.clone(),
            props.on_error.clone(),
            cluster.timings.clone(),
        );
        let on_change = whole_number_edit(label, on_edit, on_error, move |v| {
            let mut t = timings.clone();
            set(&mut t, v);
            Edit::Timings(t)
        });
        html! { <NumberField label={label} value={value.to_string()} unit="ms" {on_change} /> }
    };
    let t = &cluster.timings;
    let on_title = props.on_edit.reform(Edit::Title);
    let on_description = props
        .on_edit
        .reform(|t: String| Edit::Description(t.trim().to_string()));
    let stale_note = props
        .text_stale
        .then_some("edited — description may not match");
    let on_workers = whole_number_edit(
        "Workers",
        props.on_edit.clone(),
        props.on_error.clone(),
        Edit::Workers,
    );
    let on_seed = {
        let (on_edit, on_error) = (props.on_edit.clone(), props.on_error.clone());
        Callback::from(move |text: String| match text.trim().parse::<u64>() {
            Ok(n) => on_edit.emit(Edit::Seed(n)),
            Err(_) => on_error.emit("seed must be a whole number".to_string()),
        })
    };
    let on_end = {
        let (on_edit, on_error) = (props.on_edit.clone(), props.on_error.clone());
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
                    { for cluster.connectors.iter().enumerate().map(|(i, c)| {
                        let on_name = edit_connector(i, Rc::new(|c: &mut ConnectorSpec, t: &str| {
                            c.name = t.trim().to_string();
                            Ok(())
                        }));
                        let on_tasks = edit_connector(i, Rc::new(|c: &mut ConnectorSpec, t: &str| {
                            c.tasks = whole_number::<u32>("tasks", t)?;
                            Ok(())
                        }));
                        let on_count = edit_connector(i, Rc::new(|c: &mut ConnectorSpec, t: &str| {
                            c.count = if t.trim().is_empty() { None } else { Some(whole_number::<u32>("count", t)?) };
                            Ok(())
                        }));
                        let remove = {
                            let (on_edit, connectors) = (props.on_edit.clone(), cluster.connectors.clone());
                            Callback::from(move |_: MouseEvent| {
                                let mut next = connectors.clone();
                                next.remove(i);
                                on_edit.emit(Edit::Connectors(next));
                            })
                        };
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
                    { timing("connector start", t.connector_start_ms, |t, v| t.connector_start_ms = v) }
                    { timing("connector stop", t.connector_stop_ms, |t, v| t.connector_stop_ms = v) }
                    { timing("task start", t.task_start_ms, |t, v| t.task_start_ms = v) }
                    { timing("task stop", t.task_stop_ms, |t, v| t.task_stop_ms = v) }
                    { timing("coordinator round trip", t.coordinator_rtt_ms, |t, v| t.coordinator_rtt_ms = v) }
                </div>
            </details>
            }
        </fieldset>
    }
}
