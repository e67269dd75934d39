//! Where a simulation stands when it is not simply done: a long run's
//! progress with Cancel, the question before a very large one ("Run it /
//! Cancel"), or that the user cancelled it ("Run anyway"). The words come
//! from the engine (`engine::budget::RunProgress::summary`,
//! `engine::cost::CostEstimate::question`).

use yew::prelude::*;

use crate::state::playground::RunStatus;

/// Props of [`RunStatusBar`].
#[derive(Properties, PartialEq)]
pub struct RunStatusProps {
    /// Where the newest simulation stands.
    pub status: RunStatus,
    /// An older scenario's result is on screen.
    pub has_result: bool,
    /// Cancel the run, or decline the question.
    pub on_cancel: Callback<()>,
    /// Run it after all.
    pub on_run: Callback<()>,
}

/// The bar; nothing while a run has not reported progress (short runs).
#[component]
pub fn RunStatusBar(props: &RunStatusProps) -> Html {
    let first_button = use_node_ref();
    // The question takes the focus, so Enter answers it from the keyboard.
    {
        let first_button = first_button.clone();
        let asking = matches!(props.status, RunStatus::Asking(_));
        use_effect_with(asking, move |asking| {
            if *asking {
                if let Some(button) = first_button.cast::<web_sys::HtmlElement>() {
                    let _ = button.focus();
                }
            }
        });
    }
    let cancel = props.on_cancel.reform(|_: MouseEvent| ());
    let run = props.on_run.reform(|_: MouseEvent| ());
    let previous = if props.has_result {
        " The timelines below are the previous scenario's."
    } else {
        " Nothing is drawn."
    };
    match &props.status {
        RunStatus::Running(None) => Html::default(),
        RunStatus::Running(Some(progress)) => html! {
            <div class="run-status running" id="run-status" data-state="running" role="status" aria-live="polite">
                <progress class="run-progress" aria-label="Simulating"></progress>
                <p>{"Simulating… "}<span id="run-progress-text">{ progress.summary() }</span></p>
                <button id="run-cancel" onclick={cancel}>{"Cancel"}</button>
            </div>
        },
        RunStatus::Asking(question) => html! {
            <div class="run-status asking" id="run-status" data-state="asking" role="alertdialog"
                 aria-labelledby="run-question" aria-modal="false">
                <p id="run-question">{ question.to_string() }{" The page stays usable meanwhile, and you can cancel."}</p>
                <button id="run-confirm" class="primary" ref={first_button} onclick={run}>{"Run it"}</button>
                <button id="run-cancel" onclick={cancel}>{"Cancel"}</button>
            </div>
        },
        RunStatus::Cancelled => html! {
            <div class="run-status cancelled" id="run-status" data-state="cancelled" role="status">
                <p>{"Simulation cancelled."}{ previous }</p>
                <button id="run-anyway" onclick={run}>{"Run anyway"}</button>
            </div>
        },
    }
}
