//! The sweep view: one scenario run over a range of one input, its headline
//! metrics plotted against the swept value, one line per compared variant.
//! The form is [`controls`], the plot [`plot`] (drawn from
//! `engine::sweep::plot_layout`); the points run in a
//! [`SweepPool`] of simulator workers and stream into the plot as they
//! finish. The state is [`crate::state::sweep`]'s.

mod controls;
mod plot;

use engine::fixed::Fixed;
use std::rc::Rc;

use engine::scenario::Scenario;
use engine::sweep::plot_layout::PlotLayout;
use yew::prelude::*;

use crate::browser::hooks::use_element_width;
use crate::browser::profile;
use crate::components::app::description;
use crate::components::engine_text::engine_text;
use crate::components::markers::markup;
use crate::state::sweep::{plot_options, step_point, SweepAction, SweepModel};
use crate::worker::sweep_pool::{PoolEvent, SweepPool};
use controls::SweepControls;
use plot::{legend_html, plot_svg, readout_html};

/// Props of [`SweepView`].
#[derive(Properties, PartialEq)]
pub struct SweepViewProps {
    /// The scenario on screen (as edited).
    pub scenario: Rc<Scenario>,
    /// The scenario cannot be simulated as it stands (the editor says why).
    pub invalid: bool,
    /// The sweep's state.
    pub model: UseReducerHandle<SweepModel>,
    /// Embedded: the plot only.
    pub embed: bool,
    /// A point was clicked: open the scenario of this swept value.
    pub on_open_point: Callback<u64>,
}

/// The sweep view.
#[component]
pub fn SweepView(props: &SweepViewProps) -> Html {
    let model = props.model.clone();
    let pool = {
        let dispatch = model.dispatcher();
        use_memo((), move |_| {
            SweepPool::new(Callback::from(move |e: PoolEvent| {
                let at = profile::now();
                dispatch.dispatch(match e {
                    PoolEvent::Point(run, point) => SweepAction::Point(run, point, at),
                    PoolEvent::Failed(run, value, message) => {
                        SweepAction::PointFailed(run, value, message, at)
                    }
                })
            }))
        })
    };
    // A new run goes to the pool.
    {
        let pool = pool.clone();
        let run = model.run.clone();
        use_effect_with(run.as_ref().map(|r| r.id), move |_| {
            if let Some(run) = run.filter(|r| r.running()) {
                pool.start(run.id, run.scenario.family_kind(), &run.points);
            }
        });
    }
    // A link's sweep runs once its scenario is open.
    {
        let dispatch = model.dispatcher();
        let ready = model.run_when_ready && !props.invalid;
        use_effect_with((ready, props.scenario.clone()), move |(ready, scenario)| {
            if *ready {
                dispatch.dispatch(SweepAction::Run(scenario.clone(), profile::now()));
            }
        });
    }
    let hovered = use_state_eq(|| None::<usize>);
    let plot_ref = use_node_ref();
    let width = use_element_width(plot_ref.clone(), 1000.0);

    let on_run = {
        let (dispatch, scenario) = (model.dispatcher(), props.scenario.clone());
        Callback::from(move |_: ()| {
            dispatch.dispatch(SweepAction::Run(scenario.clone(), profile::now()))
        })
    };
    let on_cancel = {
        let (dispatch, pool) = (model.dispatcher(), pool.clone());
        Callback::from(move |_: ()| {
            pool.cancel();
            dispatch.dispatch(SweepAction::Cancel);
        })
    };
    let on_action = {
        let dispatch = model.dispatcher();
        Callback::from(move |a: SweepAction| dispatch.dispatch(a))
    };
    // The plot is markup text (see [`plot`]): one listener of each kind on
    // its box finds the point an event came from by its `data-point`.
    let point_of = |e: &Event| -> Option<(usize, u64)> {
        let target: web_sys::Element = e.target_dyn_into()?;
        let point = target.closest("[data-point]").ok()??;
        let attr = |name| point.get_attribute(name)?.parse::<u64>().ok();
        Some((attr("data-point")? as usize, attr("data-value")?))
    };
    let on_over = {
        let hovered = hovered.setter();
        Callback::from(move |e: MouseEvent| {
            if let Some((i, _)) = point_of(&e) {
                hovered.set(Some(i));
            }
        })
    };
    let on_leave = {
        let hovered = hovered.setter();
        Callback::from(move |_: MouseEvent| hovered.set(None))
    };
    let on_click = {
        let on_open = props.on_open_point.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some((_, value)) = point_of(&e) {
                on_open.emit(value);
            }
        })
    };
    // Keys: the arrows step through the points (the readout follows),
    // Home and End jump to the ends, Enter opens the point, Escape clears.
    let on_key = {
        let (hovered, on_open, model) =
            (hovered.clone(), props.on_open_point.clone(), model.clone());
        Callback::from(move |e: KeyboardEvent| {
            let Some(result) = model.run.as_ref().map(|r| &r.result) else {
                return;
            };
            let count = result.points.len();
            let key = e.key();
            if key == "Enter" {
                if let Some(p) = hovered.and_then(|i| result.points.get(i)) {
                    e.prevent_default();
                    on_open.emit(p.value);
                }
                return;
            }
            if key == "Escape" {
                hovered.set(None);
                return;
            }
            if let Some(next) = step_point(*hovered, count, &key) {
                e.prevent_default();
                hovered.set(Some(next));
            }
        })
    };
    let run = model.run.as_ref();
    let running = run.is_some_and(|r| r.running());
    let refusal = if props.invalid {
        Some("The scenario has an error (see the editor); fix it to run a sweep.".to_string())
    } else {
        model.refusal(&props.scenario)
    };
    let state = match run {
        None => "idle",
        Some(r) if r.running() => "running",
        Some(r) if r.cancelled => "cancelled",
        Some(_) => "done",
    };
    let question = model.current_question(&props.scenario);
    // An embed's plot fills the frame below the header and the legend.
    let embed_height = props.embed.then(|| {
        let h = gloo::utils::window()
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(480.0);
        let top = plot_ref
            .cast::<web_sys::Element>()
            .map_or(170.0, |el| el.get_bounding_client_rect().top());
        (h - top - 12.0).max(200.0)
    });
    let plot = run.map(|r| {
        let options = plot_options(width, embed_height, r.result.metrics.len());
        plot_svg(&r.result, &PlotLayout::new(&r.result, options), *hovered)
    });
    let stale = run.is_some_and(|r| *r.scenario != *props.scenario);

    html! {
        <section class={classes!("sweep-view", props.embed.then_some("embed"))} id="sweep-view"
                 data-state={state}
                 data-done={run.map(|r| r.done().to_string()).unwrap_or_default()}
                 data-total={run.map(|r| r.total().to_string()).unwrap_or_default()}
                 data-sweep-ms={run.and_then(|r| r.finished_ms.map(|f| format!("{:.1}", Fixed(f - r.started_ms)))).unwrap_or_default()}
                 data-workers={crate::worker::sweep_pool::pool_size().to_string()}>
            if let Some(q) = question {
                <h2 class="sweep-question" id="sweep-question">{ &q.title }</h2>
                if !props.embed {
                    // Folded to its first sentence, as a scenario's is: on
                    // a phone the whole text would push the plot off screen.
                    { description(&q.description, false) }
                }
            }
            if !props.embed {
                <SweepControls scenario={props.scenario.clone()} spec={model.spec.clone()} {running}
                               refusal={refusal.clone().map(AttrValue::from)} {on_action} {on_run} {on_cancel} />
            }
            if let Some(error) = &model.error {
                <p class="notice failure" role="alert" id="sweep-error">{ engine_text(error) }</p>
            }
            if let Some(r) = run {
                <p class="sweep-status" id="sweep-status" aria-live="polite">
                    <progress max={r.total().to_string()} value={r.done().to_string()} />
                    { status_text(r.done(), r.total(), state, r.finished_ms.map(|f| f - r.started_ms)) }
                    if stale { <span class="stale-note">{" (the scenario changed since: run again)"}</span> }
                </p>
                { for r.failed.iter().take(3).map(|(v, why)| html! {
                    <p class="notice failure">{ engine_text(&format!("{} = {}: {why}", r.result.spec.parameter.name(), r.result.unit.format(*v))) }</p>
                }) }
                { markup(legend_html(&r.result)) }
            } else if !props.embed {
                <p class="sweep-hint">{"Pick a setting and a range, then run: every point runs the whole scenario for every compared protocol."}</p>
            }
            <div class="sweep-plot-box" ref={plot_ref} tabindex={plot.is_some().then_some("0")}
                 aria-label="The sweep's plot: the arrow keys pick a point, Enter opens it"
                 onmouseover={on_over} onmouseleave={on_leave} onclick={on_click} onkeydown={on_key}>
                { plot.map(markup).unwrap_or_default() }
            </div>
            if let Some(r) = run {
                { markup(readout_html(&r.result, *hovered)) }
            }
        </section>
    }
}

fn status_text(done: usize, total: usize, state: &str, ms: Option<f64>) -> String {
    match (state, ms) {
        ("cancelled", _) => format!("Cancelled: {done} of {total} points ran."),
        (_, Some(ms)) => format!("{total} points in {ms:.0} ms.", ms = Fixed(ms),),
        _ => format!("{done} of {total} points…"),
    }
}
