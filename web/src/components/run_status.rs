//! Where a simulation stands when it is not simply done: a long run's
//! progress with Cancel, the question before a very large one ("Run it /
//! Cancel"), or that the user cancelled it ("Run anyway"). The words come
//! from the engine (`engine::budget::RunProgress::summary`,
//! `engine::cost::CostEstimate::question`). A function, not a component:
//! a component type costs the page's module a few KB of Yew's generics.
//! Every choice is a button, reached with Tab and pressed with Enter.

use yew::prelude::*;

use crate::state::playground::RunStatus;

/// The bar; nothing while a run has not reported progress (short runs).
/// `has_result`: an older scenario's result is on screen. `on_choice`:
/// true for Cancel, false for Run it / Run anyway.
pub fn run_status_bar(status: &RunStatus, has_result: bool, on_choice: &Callback<bool>) -> Html {
    let (state, lead, words, run): (&str, &str, &str, Option<(&str, &str)>) = match status {
        RunStatus::Running(None) => return Html::default(),
        RunStatus::Running(Some(words)) => ("running", "Simulating… ", words, None),
        RunStatus::Asking(question) => ("asking", "", question, Some(("run-confirm", "Run it"))),
        RunStatus::Cancelled => (
            "cancelled",
            "Simulation cancelled. ",
            if has_result {
                "The timelines below are the previous scenario's."
            } else {
                "Nothing is drawn."
            },
            Some(("run-anyway", "Run anyway")),
        ),
    };
    html! {
        <div class={classes!("run-status", state)} id="run-status" data-state={state}
             role={if state == "asking" { "alertdialog" } else { "status" }}
             aria-labelledby="run-words" aria-live="polite">
            <p id="run-words">{ lead }{ words.to_string() }</p>
            if let Some((id, label)) = run {
                <button {id} class="primary" onclick={on_choice.reform(|_: MouseEvent| false)}>{ label }</button>
            }
            if state != "cancelled" {
                <button id="run-cancel" onclick={on_choice.reform(|_: MouseEvent| true)}>{"Cancel"}</button>
            }
        </div>
    }
}
