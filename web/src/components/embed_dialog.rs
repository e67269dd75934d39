//! The iframe snippet for embedding the current scenario in a docs page:
//! the embed's options (autoplay, chart or timelines only, one column, a
//! maximum height) and the listener that sizes the iframe to its content.

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use engine::run::RunResult;

use crate::browser::focus::use_dialog_focus;
use crate::browser::location::{self, EmbedOnly, EmbedOptions};
use crate::browser::share;
use crate::shared::Shared;
use crate::state::summary::detail_height;

/// A starting height for the embedded view of a result, until the embed
/// reports its real one: about what a docs page has above the fold.
fn embed_height(result: Option<&RunResult>, options: EmbedOptions) -> u32 {
    let lanes = result.map_or(300.0, detail_height);
    let natural = (lanes + 260.0).min(4_000.0) as u32;
    let natural = match options.only {
        Some(EmbedOnly::Chart) => 260,
        _ => natural,
    };
    options.max_height.map_or(natural, |h| natural.min(h))
}

/// Props of [`EmbedDialog`].
#[derive(Properties, PartialEq)]
pub struct EmbedDialogProps {
    /// The scenario's fragment.
    pub fragment: AttrValue,
    /// Its title.
    pub title: AttrValue,
    /// The compared columns' labels (for the one-column choice).
    pub columns: Vec<AttrValue>,
    /// The result shown, which sizes the snippet's iframe (the embedded
    /// page also reports its real height once loaded).
    pub result: Option<Shared<RunResult>>,
    /// Close.
    pub on_close: Callback<()>,
}

/// The dialog.
#[component]
pub fn EmbedDialog(props: &EmbedDialogProps) -> Html {
    let autoplay = use_state_eq(|| false);
    let options = use_state_eq(EmbedOptions::default);
    let copied = use_state_eq(|| false);
    let dialog = use_node_ref();
    use_dialog_focus(dialog.clone(), props.on_close.clone());
    let src = location::embed_url(&props.fragment, *autoplay, *options);
    // Laid out once per result, not on every render of the open dialog.
    let natural = use_memo(props.result.clone(), |r| {
        embed_height(r.as_deref(), EmbedOptions::default())
    });
    let height = match (options.only, options.max_height) {
        (None, None) => *natural,
        _ => embed_height(props.result.as_deref(), *options),
    };
    let snippet = share::iframe_snippet(&src, &props.title, height);
    let close = props.on_close.reform(|_: MouseEvent| ());
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    let toggle = {
        let autoplay = autoplay.clone();
        Callback::from(move |_: Event| autoplay.set(!*autoplay))
    };
    let set_only = {
        let options = options.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            let only = match s.value().as_str() {
                "chart" => Some(EmbedOnly::Chart),
                "timelines" => Some(EmbedOnly::Timelines),
                _ => None,
            };
            options.set(EmbedOptions { only, ..*options });
        })
    };
    let set_column = {
        let options = options.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            let column = s.value().parse::<usize>().ok();
            options.set(EmbedOptions { column, ..*options });
        })
    };
    let set_max = {
        let options = options.clone();
        Callback::from(move |e: Event| {
            let i: HtmlInputElement = e.target_unchecked_into();
            let max_height = i.value().trim().parse::<u32>().ok().filter(|h| *h >= 120);
            options.set(EmbedOptions {
                max_height,
                ..*options
            });
        })
    };
    let copy = {
        let (snippet, copied) = (snippet.clone(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            share::copy_text(&snippet, move |ok| copied.set(ok));
        })
    };
    let select_all = Callback::from(|e: FocusEvent| {
        let area: HtmlTextAreaElement = e.target_unchecked_into();
        area.select();
    });
    html! {
        <div class="overlay" onclick={close.clone()}>
            <div ref={dialog} class="dialog embed" role="dialog" aria-modal="true" aria-labelledby="embed-title" tabindex="-1" onclick={stop}>
                <header>
                    <h2 id="embed-title">{"Embed this scenario"}</h2>
                    <button class="icon" onclick={close} aria-label="Close">{"×"}</button>
                </header>
                <p>{"Paste this into a docs page. The embedded view has no editor and links back to the playground; the script sizes the iframe to the height the embed posts ("}
                   <code>{"{type: \"rebalance-playground:height\", height}"}</code>{")."}</p>
                <div class="embed-options">
                    <label class="check"><input type="checkbox" id="embed-autoplay" checked={*autoplay} onchange={toggle} />{" play on load"}</label>
                    <label class="field">{"show"}
                        <select id="embed-only" onchange={set_only}>
                            <option value="" selected={options.only.is_none()}>{"chart and timelines"}</option>
                            <option value="chart" selected={options.only == Some(EmbedOnly::Chart)}>{"the chart only"}</option>
                            <option value="timelines" selected={options.only == Some(EmbedOnly::Timelines)}>{"the timelines only"}</option>
                        </select>
                    </label>
                    if props.columns.len() > 1 {
                        <label class="field">{"columns"}
                            <select id="embed-column" onchange={set_column}>
                                <option value="" selected={options.column.is_none()}>{"all, side by side"}</option>
                                { for props.columns.iter().enumerate().map(|(i, l)| html! {
                                    <option value={i.to_string()} selected={options.column == Some(i)}>{ format!("only {}", l) }</option>
                                }) }
                            </select>
                        </label>
                    }
                    <label class="field">{"max height (px)"}
                        <input id="embed-max-height" type="number" min="120" step="10" placeholder="none"
                               value={options.max_height.map(|h| h.to_string()).unwrap_or_default()} onchange={set_max} />
                    </label>
                </div>
                <textarea id="embed-snippet" readonly=true rows="6" aria-label="Embed snippet" value={snippet} onfocus={select_all} />
                <div class="dialog-actions">
                    <button onclick={copy}>{ if *copied { "Copied" } else { "Copy snippet" } }</button>
                    <a href={src} target="_blank" rel="noopener">{"Preview the embed ↗"}</a>
                </div>
            </div>
        </div>
    }
}
