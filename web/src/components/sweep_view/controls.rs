//! The sweep form: what to sweep (every parameter the scenario has, under
//! the editor's names: Kafka config keys, cluster fields, event fields), the
//! range, the point count and the scale, then Run or Cancel.

use std::rc::Rc;

use engine::scenario::Scenario;
use engine::sweep::{self, Scale, SweepSpec, MAX_STEPS, MIN_STEPS};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::components::engine_text::engine_text;
use crate::state::sweep::SweepAction;

/// Props of [`SweepControls`].
#[derive(Properties, PartialEq)]
pub struct SweepControlsProps {
    /// The scenario swept.
    pub scenario: Rc<Scenario>,
    /// The spec as edited.
    pub spec: Option<SweepSpec>,
    /// A run is in progress.
    pub running: bool,
    /// Why the spec cannot run, if so.
    pub refusal: Option<AttrValue>,
    /// Changes to the spec.
    pub on_action: Callback<SweepAction>,
    /// Run pressed.
    pub on_run: Callback<()>,
    /// Cancel pressed.
    pub on_cancel: Callback<()>,
}

fn number_input(id: &'static str, value: u64, on: Callback<u64>) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        if let Ok(v) = input.value().trim().parse::<u64>() {
            on.emit(v);
        }
    });
    html! { <input type="number" id={id} min="0" step="1" value={value.to_string()} {onchange} /> }
}

/// The form.
#[component]
pub fn SweepControls(props: &SweepControlsProps) -> Html {
    let scenario = props.scenario.clone();
    let parameters = sweep::parameters(&scenario);
    let current = props
        .spec
        .as_ref()
        .and_then(|s| parameters.iter().position(|p| *p == s.parameter));
    let on_parameter = {
        let (on, parameters, scenario) = (
            props.on_action.clone(),
            parameters.clone(),
            scenario.clone(),
        );
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Some(p) = select
                .value()
                .parse::<usize>()
                .ok()
                .and_then(|i| parameters.get(i))
            {
                on.emit(SweepAction::Parameter(p.clone(), scenario.clone()));
            }
        })
    };
    let on = |f: fn(u64) -> SweepAction| props.on_action.reform(f);
    let on_steps = props
        .on_action
        .reform(|v: u64| SweepAction::Steps(v.min(u64::from(MAX_STEPS)) as u32));
    let on_scale = props.on_action.reform(|e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        SweepAction::Scale(if select.value() == "log" {
            Scale::Log
        } else {
            Scale::Linear
        })
    });
    let info = props
        .spec
        .as_ref()
        .and_then(|s| s.parameter.info(&scenario));
    let unit_text = |v: u64| info.as_ref().map(|i| i.unit.format(v)).unwrap_or_default();
    let on_run = props.on_run.reform(|_: MouseEvent| ());
    let on_cancel = props.on_cancel.reform(|_: MouseEvent| ());
    html! {
        <form class="sweep-controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <label class="sweep-parameter">{"Sweep "}
                <select id="sweep-parameter" onchange={on_parameter}>
                    if current.is_none() {
                        <option selected=true disabled=true>{"pick a setting"}</option>
                    }
                    { for parameters.iter().enumerate().map(|(i, p)| {
                        let label = p.info(&scenario).map(|i| i.label).unwrap_or_else(|| p.name());
                        let text = if label == p.name() { label } else { format!("{label} — {}", p.name()) };
                        html! { <option value={i.to_string()} selected={current == Some(i)}>{ text }</option> }
                    }) }
                </select>
            </label>
            if let Some(spec) = &props.spec {
                <label>{"from "}{ number_input("sweep-from", spec.from, on(SweepAction::From)) }
                    <span class="unit">{ unit_text(spec.from) }</span></label>
                <label>{"to "}{ number_input("sweep-to", spec.to, on(SweepAction::To)) }
                    <span class="unit">{ unit_text(spec.to) }</span></label>
                <label>{"points "}
                    <input type="number" id="sweep-steps" min={MIN_STEPS.to_string()} max={MAX_STEPS.to_string()}
                           value={spec.steps.to_string()}
                           onchange={Callback::from(move |e: Event| {
                               let input: HtmlInputElement = e.target_unchecked_into();
                               if let Ok(v) = input.value().trim().parse::<u64>() { on_steps.emit(v) }
                           })} />
                </label>
                <label>{"scale "}
                    <select id="sweep-scale" onchange={on_scale}>
                        <option value="linear" selected={spec.scale == Scale::Linear}>{"linear"}</option>
                        <option value="log" selected={spec.scale == Scale::Log}>{"log"}</option>
                    </select>
                </label>
                if let Some(i) = &info {
                    <span class="sweep-hint">
                        { format!("takes {} to {}", i.unit.format_bound(i.range.min), i.unit.format_bound(i.range.max)) }
                        { i.kafka_default.map(|d| format!(" · Kafka's default {}", i.unit.format(d))).unwrap_or_default() }
                        { format!(" · this scenario {}", i.unit.format(i.scenario_value)) }
                    </span>
                }
            }
            if props.running {
                <button type="button" id="sweep-cancel" onclick={on_cancel}>{"Cancel"}</button>
            } else {
                <button type="submit" id="sweep-run" class="primary" onclick={on_run}
                        disabled={props.spec.is_none() || props.refusal.is_some()}>{"Run sweep"}</button>
            }
            if let Some(why) = &props.refusal {
                <p class="notice failure sweep-refusal" role="alert">{ engine_text(why) }</p>
            }
        </form>
    }
}
