//! The share tools: copy the permalink (its length shown), download the
//! scenario as a file (offered instead of the link above 8,000 characters),
//! open a scenario file, export the comparison as SVG or PNG, and the
//! iframe snippet.

use std::rc::Rc;

use engine::run::RunResult;
use engine::scenario::Scenario;
use gloo::timers::callback::Timeout;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser::export;
use crate::browser::location;
use crate::browser::share::{self, MAX_SHARE_LINK};
use crate::shared::Shared;
use crate::state::numbers::thousands;

/// Props of [`ShareBar`].
#[derive(Properties, PartialEq)]
pub struct ShareBarProps {
    /// The scenario shown.
    pub scenario: Rc<Scenario>,
    /// Its fragment (`s=…` or `p=…`).
    pub fragment: AttrValue,
    /// A scenario file was opened (or refused).
    pub on_open_file: Callback<share::FileRead>,
    /// Show the embed snippet.
    pub on_embed: Callback<()>,
    /// The result shown (what the exports draw), once there is one.
    pub result: Option<Shared<RunResult>>,
}

/// The export's file name: the scenario file's name with another extension.
fn export_name(s: &Scenario, extension: &str) -> String {
    let name = share::file_name(s);
    format!("{}.{extension}", name.trim_end_matches(".json"))
}

/// The share bar.
#[component]
pub fn ShareBar(props: &ShareBarProps) -> Html {
    let status = use_state_eq(|| None::<&'static str>);
    let status_timer = use_mut_ref(|| None::<Timeout>);
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    let link = location::permalink(&props.fragment);
    let length = link.chars().count();
    let too_long = length > MAX_SHARE_LINK;

    let show = {
        let (status, status_timer) = (status.clone(), status_timer.clone());
        Rc::new(move |text: &'static str| {
            status.set(Some(text));
            let status = status.clone();
            *status_timer.borrow_mut() = Some(Timeout::new(2_500, move || status.set(None)));
        })
    };
    let copy = {
        let (link, show) = (link.clone(), show.clone());
        Callback::from(move |_: MouseEvent| {
            let show = show.clone();
            share::copy_text(&link, move |ok| {
                show(if ok {
                    "Link copied"
                } else {
                    "Could not copy: copy it from the address bar"
                })
            });
        })
    };
    let download = {
        let (scenario, show) = (props.scenario.clone(), show.clone());
        Callback::from(move |_: MouseEvent| {
            if share::download(&share::file_name(&scenario), &scenario.to_json_pretty()).is_err() {
                show("Could not create the file");
            }
        })
    };
    let pick = {
        let (on_open, reader) = (props.on_open_file.clone(), reader.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                *reader.borrow_mut() = share::read_scenario_file(file, on_open.clone());
            }
            // Picking the same file again must fire `change` again.
            input.set_value("");
        })
    };
    let embed = props.on_embed.reform(|_: MouseEvent| ());
    // The engine's SVG (the CLI's `rebalance svg`) of the result on screen.
    let svg = {
        let (scenario, result) = (props.scenario.clone(), props.result.clone());
        move || {
            result
                .as_ref()
                .map(|r| engine::svg_export::render(&scenario, r))
        }
    };
    let export_svg = {
        let (svg, scenario, show) = (svg.clone(), props.scenario.clone(), show.clone());
        Callback::from(move |_: MouseEvent| {
            let done = svg().is_some_and(|svg| {
                export::download_svg(&export_name(&scenario, "svg"), &svg).is_ok()
            });
            if !done {
                show("Could not export the SVG");
            }
        })
    };
    let export_png = {
        let (scenario, show) = (props.scenario.clone(), show.clone());
        Callback::from(move |_: MouseEvent| match svg() {
            Some(svg) => {
                let show = show.clone();
                export::download_png(&export_name(&scenario, "png"), &svg, move |ok| {
                    if !ok {
                        show("Could not export the PNG");
                    }
                });
            }
            None => show("Nothing to export yet"),
        })
    };

    html! {
        <div class="share" role="group" aria-label="Share">
            <button id="copy-link" onclick={copy} disabled={too_long}
                    title={if too_long { "This scenario is too large for a link; download it instead" } else { "Copy the permalink" }}>
                {"Copy link"}
            </button>
            <span id="link-length" class={classes!("link-length", too_long.then_some("too-long"))} data-length={length.to_string()}>
                { if too_long {
                    format!("link: {} characters, too long to share", thousands(length as u64))
                } else {
                    format!("link: {} characters", thousands(length as u64))
                } }
            </span>
            <button id="download" class={classes!(too_long.then_some("primary"))} onclick={download}
                    title="Save the scenario as a file you can share or open later">{"Download scenario (.json)"}</button>
            <label class="button file-button" title="Open a scenario file (or drop one anywhere on the page)">
                {"Open .json…"}
                <input id="open-file" type="file" accept=".json,application/json" onchange={pick} />
            </label>
            <button id="export-svg" onclick={export_svg} disabled={props.result.is_none()}
                    title="Save the timelines as an SVG image (what `rebalance svg` writes)">{"SVG"}</button>
            <button id="export-png" onclick={export_png} disabled={props.result.is_none()}
                    title="Save the timelines as a PNG image">{"PNG"}</button>
            <button id="embed-button" onclick={embed} title="Get an iframe snippet for docs pages">{"Embed"}</button>
            <span class="share-status" aria-live="polite">{ status.unwrap_or("") }</span>
        </div>
    }
}
