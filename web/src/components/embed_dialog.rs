//! The iframe snippet for embedding the current scenario in a docs page:
//! the embed's options (autoplay, chart or timelines only, one column, a
//! maximum height) and the listener that sizes the iframe to its content.

use web_sys::HtmlTextAreaElement;
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
    // One handler for the three option fields (they differ only in the
    // field they set), which keeps the page's module small.
    let set_option = {
        let options = options.clone();
        Callback::from(move |e: Event| {
            // A select or an input: both have `value`.
            let el: web_sys::Element = e.target_unchecked_into();
            let v = web_sys::js_sys::Reflect::get(&el, &"value".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            let mut next = *options;
            if el.id() == "embed-show" {
                next.only = match v.as_str() {
                    "chart" => Some(EmbedOnly::Chart),
                    "timelines" => Some(EmbedOnly::Timelines),
                    _ => None,
                };
                next.column = v.strip_prefix("column-").and_then(|c| c.parse().ok());
            } else {
                next.max_height = v.trim().parse().ok().filter(|h| *h >= 120);
            }
            options.set(next);
        })
    };
    // What the embed shows: everything, the chart or the timelines only, or one column.
    let shown = match (options.only, options.column) {
        (Some(EmbedOnly::Chart), _) => "chart".to_string(),
        (Some(EmbedOnly::Timelines), _) => "timelines".to_string(),
        (None, Some(c)) => format!("column-{c}"),
        (None, None) => String::new(),
    };
    let choices: Vec<(String, String)> = [
        ("", "chart and every column"),
        ("chart", "the chart only"),
        ("timelines", "the timelines only"),
    ]
    .iter()
    .map(|(v, t)| (v.to_string(), t.to_string()))
    .chain(
        props
            .columns
            .iter()
            .enumerate()
            .filter(|_| props.columns.len() > 1)
            .map(|(i, l)| {
                (
                    format!("column-{i}"),
                    format!("only column {} ({l})", i + 1),
                )
            }),
    )
    .collect();
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
                        <select id="embed-show" onchange={set_option.clone()}>
                            { for choices.iter().map(|(v, t)| html! {
                                <option value={v.clone()} selected={*v == shown}>{ t.clone() }</option>
                            }) }
                        </select>
                    </label>
                    <label class="field">{"max height (px)"}
                        <input id="embed-max-height" type="number" min="120" step="10" placeholder="none"
                               value={options.max_height.map(|h| h.to_string()).unwrap_or_default()} onchange={set_option.clone()} />
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
