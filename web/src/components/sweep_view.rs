//! The sweep view: one scenario run over a range of one input, its headline
//! metrics plotted against the swept value, one line per compared variant.
//! The form is [`controls`], the plot [`plot`] (drawn from
//! `engine::sweep::plot_layout`); the points run in a
//! [`SweepPool`] of simulator workers and stream into the plot as they
//! finish. The state is [`crate::state::sweep`]'s.

mod controls;
mod plot;

use std::rc::Rc;

use engine::scenario::Scenario;
use engine::sweep::plot_layout::{PlotLayout, VARIANT_COLOURS};
use engine::sweep::SweepResult;
use yew::prelude::*;

use crate::browser::hooks::use_element_width;
use crate::browser::profile;
use crate::shared::Shared;
use crate::state::sweep::{plot_options, SweepAction, SweepModel};
use crate::worker::sweep_pool::{PoolEvent, SweepPool};
use controls::SweepControls;
use plot::{default_text, SweepPlot};

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
    let on_hover = {
        let hovered = hovered.setter();
        Callback::from(move |p: Option<usize>| hovered.set(p))
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
    let layout = run.map(|r| {
        let options = plot_options(width, embed_height, r.result.metrics.len());
        Shared::new(PlotLayout::new(&r.result, options))
    });
    let stale = run.is_some_and(|r| *r.scenario != *props.scenario);

    html! {
        <section class={classes!("sweep-view", props.embed.then_some("embed"))} id="sweep-view"
                 data-state={state}
                 data-done={run.map(|r| r.done().to_string()).unwrap_or_default()}
                 data-total={run.map(|r| r.total().to_string()).unwrap_or_default()}
                 data-sweep-ms={run.and_then(|r| r.finished_ms.map(|f| format!("{:.1}", f - r.started_ms))).unwrap_or_default()}
                 data-workers={crate::worker::sweep_pool::pool_size().to_string()}>
            if let Some(q) = question {
                <h2 class="sweep-question" id="sweep-question">{ &q.title }</h2>
                if !props.embed {
                    <p class="description">{ &q.description }</p>
                }
            }
            if !props.embed {
                <SweepControls scenario={props.scenario.clone()} spec={model.spec.clone()} {running}
                               refusal={refusal.clone().map(AttrValue::from)} {on_action} {on_run} {on_cancel} />
            }
            if let Some(error) = &model.error {
                <p class="notice failure" role="alert" id="sweep-error">{ error }</p>
            }
            if let Some(r) = run {
                <p class="sweep-status" id="sweep-status" aria-live="polite">
                    <progress max={r.total().to_string()} value={r.done().to_string()} />
                    { status_text(r.done(), r.total(), state, r.finished_ms.map(|f| f - r.started_ms)) }
                    if stale { <span class="stale-note">{" (the scenario changed since: run again)"}</span> }
                </p>
                { for r.failed.iter().take(3).map(|(v, why)| html! {
                    <p class="notice failure">{ format!("{} = {}: {why}", r.result.spec.parameter.name(), r.result.unit.format(*v)) }</p>
                }) }
                { legend(&r.result) }
            } else if !props.embed {
                <p class="sweep-hint">{"Pick a setting and a range, then run: every point runs the whole scenario for every compared protocol."}</p>
            }
            <div class="sweep-plot-box" ref={plot_ref}>
                if let (Some(r), Some(layout)) = (run, layout) {
                    <SweepPlot result={Shared::new(r.result.clone())} {layout} hovered={*hovered}
                               {on_hover} on_open={props.on_open_point.clone()} />
                }
            </div>
            if let Some(r) = run {
                { readout(&r.result, *hovered) }
            }
        </section>
    }
}

fn status_text(done: usize, total: usize, state: &str, ms: Option<f64>) -> String {
    match (state, ms) {
        ("cancelled", _) => format!("Cancelled: {done} of {total} points ran."),
        (_, Some(ms)) => format!("{total} points in {ms:.0} ms."),
        _ => format!("{done} of {total} points…"),
    }
}

/// One entry per variant (the CLI's colours), Kafka's default and the cut mark.
fn legend(result: &SweepResult) -> Html {
    let cut = result
        .points
        .iter()
        .any(|p| p.runs.iter().any(|r| r.cut.is_some()));
    html! {
        <p class="sweep-legend">
            <span class="sweep-axis">{ format!("{} →", result.label) }</span>
            { for result.variants.iter().enumerate().map(|(i, label)| html! {
                <span class="entry"><span class="swatch" style={format!("background: {}", VARIANT_COLOURS[i % VARIANT_COLOURS.len()])} />{ label }</span>
            }) }
            if result.kafka_default.is_some() {
                <span class="entry"><span class="swatch default" />{ format!("Kafka's default ({})", default_text(result)) }</span>
            }
            if cut {
                <span class="entry"><span class="swatch cut" />{"cut at the run budget (the group did not settle)"}</span>
            }
        </p>
    }
}

/// The hovered point's numbers for every variant, or how to get them.
fn readout(result: &SweepResult, hovered: Option<usize>) -> Html {
    let Some(point) = hovered.and_then(|i| result.points.get(i)) else {
        return html! {
            <p class="sweep-readout sweep-hint" id="sweep-readout">
                {"Hover a point for its numbers; click it to open that scenario in the comparison."}
            </p>
        };
    };
    html! {
        <div class="sweep-readout table-scroll" id="sweep-readout">
            <table>
                <caption>{ format!("{} = {}", result.label, result.unit.format(point.value)) }</caption>
                <thead><tr><th />{ for result.metrics.iter().map(|m| html! { <th>{ m.label() }</th> }) }</tr></thead>
                <tbody>
                    { for point.runs.iter().map(|run| html! {
                        <tr>
                            <th>{ &run.label }{ run.cut.map(|_| " (cut)").unwrap_or_default() }</th>
                            { for result.metrics.iter().zip(&run.metrics).map(|(m, v)| html! {
                                <td data-metric={m.report_key()}>{ v.map(|v| m.unit().format(v)).unwrap_or_else(|| "—".to_string()) }</td>
                            }) }
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}
