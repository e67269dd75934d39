//! The sweep module's root (`web/src/sweep_main.rs` mounts it into the
//! page's sweep container): the sweep's state, what the link's sweep part
//! asks for, the link kept in step with the spec, and a clicked point
//! handed to the page through the address bar.

use std::rc::Rc;

use engine::scenario::Scenario;
use yew::prelude::*;

use crate::browser::location;
use crate::components::sweep_view::SweepView;
use crate::state::sweep::{Question, SweepAction, SweepModel};

/// Props of [`SweepRoot`], as the page passes them.
#[derive(Properties, PartialEq)]
pub struct SweepRootProps {
    /// The scenario on screen (as edited).
    pub scenario: Rc<Scenario>,
    /// The scenario cannot be simulated as it stands.
    pub invalid: bool,
    /// Embedded: the plot only.
    pub embed: bool,
    /// The link's sweep part, unread: empty (open for the scenario), a
    /// built-in sweep's `p=sweeps/<name>`, or `&sweep=…`.
    pub link: AttrValue,
    /// The page's link of the scenario (no sweep part).
    pub page_fragment: AttrValue,
}

/// What the sweep view does for a link's sweep part.
fn link_action(link: &str, scenario: &Rc<Scenario>) -> SweepAction {
    if link.is_empty() {
        return SweepAction::Open(scenario.clone());
    }
    if let Some(id) = link.strip_prefix("p=") {
        return match crate::presets::find_sweep(id) {
            Some(p) => SweepAction::FromPreset(Question {
                preset: p.id,
                title: p.title().to_string(),
                description: p.description().to_string(),
                scenario: Rc::new(p.scenario()),
                spec: p.spec(),
            }),
            None => SweepAction::BadLink(format!("There is no built-in sweep `{id}`.")),
        };
    }
    match engine::sweep::link::split_spec(link).1 {
        Some(Ok(spec)) => SweepAction::FromLink(spec),
        Some(Err(e)) => SweepAction::BadLink(e.to_string()),
        None => SweepAction::Open(scenario.clone()),
    }
}

/// The fragment of a sweep over the scenario `scenario_fragment` names (a
/// sweep part already there is replaced).
pub(crate) fn sweep_fragment(scenario_fragment: &str, spec: &engine::sweep::SweepSpec) -> String {
    let scenario = location::scenario_fragment(scenario_fragment);
    format!("{scenario}{}", engine::sweep::link::sweep_part(spec))
}

/// The sweep view with its state.
#[component]
pub fn SweepRoot(props: &SweepRootProps) -> Html {
    let sweep = use_reducer(SweepModel::default);
    {
        let dispatch = sweep.dispatcher();
        let action = link_action(&props.link, &props.scenario);
        use_effect_with((), move |_| dispatch.dispatch(action));
    }
    // The link carries the sweep too (replacing the entry: changing the
    // sweep is not a step Back undoes).
    use_effect_with(
        (
            props.page_fragment.clone(),
            props.scenario.clone(),
            sweep.spec.clone(),
        ),
        {
            let sweep = sweep.clone();
            move |(fragment, scenario, spec)| {
                let Some(spec) = spec else { return };
                if fragment.is_empty() {
                    return;
                }
                let wanted = match sweep.preset_id(scenario) {
                    Some(id) => format!("p={id}"),
                    None => sweep_fragment(fragment, spec),
                };
                if location::fragment() != wanted {
                    location::write_fragment(&wanted, false);
                }
                // An embed's "Open in playground" opens the sweep: the page
                // drew it before this module wrote the link.
                if let Some(open) = gloo::utils::document().get_element_by_id("open-in-playground")
                {
                    let _ = open.set_attribute("href", &location::permalink(&wanted));
                }
            }
        },
    );
    // A clicked point opens its own scenario in the comparison, under its
    // own link: a new history entry the page reads as a navigation (Back
    // returns to the sweep).
    let open_point = {
        let (sweep, scenario) = (sweep.clone(), props.scenario.clone());
        Callback::from(move |value: u64| {
            let Some(spec) = &sweep.spec else { return };
            let base = sweep.run.as_ref().map_or(&scenario, |r| &r.scenario);
            if let Ok(point) = spec.point(base, value) {
                location::write_fragment(&engine::link::encode(&point), true);
                if let Ok(event) = web_sys::Event::new("popstate") {
                    let _ = gloo::utils::window().dispatch_event(&event);
                }
            }
        })
    };
    html! {
        <SweepView scenario={props.scenario.clone()} invalid={props.invalid}
                   model={sweep} embed={props.embed} on_open_point={open_point} />
    }
}
