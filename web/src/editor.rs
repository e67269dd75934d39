//! The scenario editor: cluster shape (more in later iterations).

use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`Editor`].
#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// Workers at time 0.
    pub workers: u32,
    /// Tasks per connector.
    pub tasks: u32,
    /// A new worker count.
    pub on_workers: Callback<u32>,
    /// A new task count.
    pub on_tasks: Callback<u32>,
}

/// Number inputs for the cluster shape; each change re-simulates.
#[component]
pub fn Editor(props: &EditorProps) -> Html {
    let number = |cb: Callback<u32>| {
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(n) = input.value().trim().parse::<u32>() {
                cb.emit(n);
            }
        })
    };
    html! {
        <form class="editor" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <label>{"Workers at start"}
                <input id="workers" type="number" min="0" max="2000" value={props.workers.to_string()}
                       onchange={number(props.on_workers.clone())} />
            </label>
            <label>{"Tasks per connector"}
                <input id="tasks" type="number" min="0" max="100000" value={props.tasks.to_string()}
                       onchange={number(props.on_tasks.clone())} />
            </label>
        </form>
    }
}
