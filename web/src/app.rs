//! The page: header, notices, editor, and one timeline column per compared protocol.

use engine::link;
use gloo::events::EventListener;
use yew::prelude::*;

use crate::editor::Editor;
use crate::location;
use crate::metrics_view::MetricsView;
use crate::state::{Action, PlaygroundState};
use crate::timeline::Timeline;

/// The playground.
#[component]
pub fn App() -> Html {
    let state = use_reducer(|| {
        let (scenario, notice) = location::scenario_from_fragment(&location::fragment());
        PlaygroundState::open(scenario, notice)
    });

    // Keep the address bar a permalink of what is shown. A link that failed to
    // decode stays in the address bar so the user can see and fix it.
    use_effect_with(state.scenario.clone(), {
        let has_error = state.notice.is_some();
        move |scenario| {
            if !has_error {
                location::replace_fragment(&link::encode(scenario));
            }
        }
    });

    // Follow links pasted into the address bar of an open page.
    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                let (scenario, notice) = location::scenario_from_fragment(&location::fragment());
                dispatch.dispatch(Action::Open(Box::new(scenario), notice));
            });
            move || drop(listener)
        });
    }

    let embed = location::query_flag("embed");
    let on_workers = {
        let dispatch = state.dispatcher();
        Callback::from(move |n: u32| dispatch.dispatch(Action::SetWorkers(n)))
    };
    let on_tasks = {
        let dispatch = state.dispatcher();
        Callback::from(move |n: u32| dispatch.dispatch(Action::SetTasks(n)))
    };
    let tasks = state
        .scenario
        .connect
        .connectors
        .first()
        .map_or(0, |c| c.tasks);

    html! {
        <main class={classes!("playground", embed.then_some("embed"))}>
            <header class="page-header">
                <h1><span class="brand">{"Rebalance Playground"}</span>
                    <span class="scenario-title" id="scenario-title">{ &state.scenario.title }</span></h1>
            </header>
            if let Some(notice) = &state.notice {
                <p class="notice" id="notice" role="alert">{ notice }</p>
            }
            if !state.scenario.description.is_empty() {
                <p class="description">{ &state.scenario.description }</p>
            }
            if !embed {
                <Editor workers={state.scenario.connect.workers} {tasks} {on_workers} {on_tasks} />
            }
            <Legend />
            <section class="columns">
                { for state.result.variants.iter().enumerate().map(|(i, run)| html! {
                    <article class="column" key={run.label.clone()}>
                        <h2>{ &run.label }</h2>
                        <MetricsView result={state.result.clone()} index={i} />
                        <Timeline result={state.result.clone()} index={i} />
                    </article>
                }) }
            </section>
        </main>
    }
}

/// What the colours mean.
#[component]
fn Legend() -> Html {
    let entries = [
        ("running", "running"),
        ("starting", "starting"),
        ("stopping", "stopping"),
        ("unassigned", "unassigned"),
        ("frozen", "frozen (GC pause)"),
        ("zombie", "zombie copy"),
    ];
    html! {
        <ul class="legend" aria-label="Legend">
            { for entries.iter().map(|(state, label)| html! {
                <li><span class={classes!("swatch", *state)}></span>{ *label }</li>
            }) }
            <li><span class="swatch round"></span>{"rebalance round"}</li>
            <li><span class="swatch event"></span>{"scenario event"}</li>
        </ul>
    }
}
