//! The scenario editor: cluster shape, protocol configs under Kafka's
//! property names, and the timed event script. Every committed change is
//! one [`Edit`]; the page re-simulates it off the main thread.

mod cluster;
mod config_grid;
mod config_matrix;
mod events;
pub mod fields;
mod streams;

use std::rc::Rc;

use engine::scenario::{Family, Scenario};
use yew::prelude::*;

use crate::browser::hooks::use_unfolded;
use crate::components::engine_text::engine_text;
use crate::state::edit::Edit;
use cluster::ClusterEditor;
use config_matrix::ConfigMatrix;
use events::EventsEditor;
use streams::StreamsEditor;

/// Props of [`Editor`].
#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// The scenario as edited.
    pub scenario: Rc<Scenario>,
    /// Why it cannot be simulated, if it cannot.
    pub invalid: Option<AttrValue>,
    /// An edit.
    pub on_edit: Callback<Edit>,
    /// The scenario changed since its title and description were written.
    pub text_stale: bool,
    /// The editor was unfolded for the first time.
    pub on_unfold: Callback<()>,
}

/// The editor, folded by default so the comparison stays in view. Its
/// body is built the first time it is unfolded, not before: it was 300 of
/// the 327 elements of the page's first render, which ran as one main-thread
/// task of 55–70 ms before the first timeline (issue #13).
#[component]
pub fn Editor(props: &EditorProps) -> Html {
    let (unfolded, on_toggle) = use_unfolded();
    use_effect_with(
        (unfolded, props.on_unfold.clone()),
        |(unfolded, on_unfold)| {
            if *unfolded {
                on_unfold.emit(());
            }
        },
    );
    // A typed value that is not a value at all (e.g. letters in a number)
    // never reaches the scenario; say so next to the editor.
    let field_error = use_state_eq(|| None::<String>);
    // Stable callbacks, so the sub-editors re-render only when their props do.
    let on_error = {
        let set = field_error.setter();
        use_callback((), move |e: String, _| set.set(Some(e)))
    };
    let on_edit = {
        let set = field_error.setter();
        use_callback(props.on_edit.clone(), move |e: Edit, on_edit| {
            set.set(None);
            on_edit.emit(e);
        })
    };
    let s = &props.scenario;
    let summary = crate::components::gallery::shape(s);
    let problem = field_error
        .as_ref()
        .map(|e| AttrValue::from(e.clone()))
        .or_else(|| props.invalid.clone());
    html! {
        <details class="editor" id="editor" ontoggle={on_toggle}>
            <summary><span class="editor-title">{"Edit scenario"}</span><span class="editor-summary">{ summary }</span></summary>
            if let Some(problem) = problem {
                <p class="edit-error" id="edit-error" role="alert">
                    // A field's message has no full stop, the engine's may;
                    // "below" was wrong once the results moved beside the editor.
                    {"This change cannot be simulated: "}{ engine_text(&problem) }
                    { if problem.ends_with('.') { " " } else { ". " } }
                    {"The comparison still shows the last valid scenario."}
                </p>
            }
            if unfolded {
                <form class="editor-body" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                    <ClusterEditor scenario={props.scenario.clone()} on_edit={on_edit.clone()} on_error={on_error.clone()}
                                   text_stale={props.text_stale} />
                    if let Family::Connect(connect) = &s.family {
                        // Only what the grid shows: an edit elsewhere leaves its
                        // props equal, and Yew skips its render (issue #13).
                        <ConfigMatrix cluster={Rc::new(connect.cluster.config.clone())} variants={Rc::new(connect.compare.clone())}
                                      on_edit={on_edit.clone()} on_error={on_error.clone()} />
                        <EventsEditor scenario={props.scenario.clone()} {on_edit} {on_error} />
                    } else {
                        <StreamsEditor scenario={props.scenario.clone()} {on_edit} {on_error} />
                    }
                </form>
            }
        </details>
    }
}
