//! The iframe snippet for embedding the current scenario in a docs page.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use engine::run::RunResult;

use crate::browser::location;
use crate::browser::share;
use crate::shared::Shared;
use crate::state::summary::detail_height;

/// A starting height that fits the embedded view of a result.
fn embed_height(result: Option<&RunResult>) -> u32 {
    let lanes = result.map_or(300.0, detail_height);
    (lanes + 420.0).min(4_000.0) as u32
}

/// Props of [`EmbedDialog`].
#[derive(Properties, PartialEq)]
pub struct EmbedDialogProps {
    /// The scenario's fragment.
    pub fragment: AttrValue,
    /// Its title.
    pub title: AttrValue,
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
    let copied = use_state_eq(|| false);
    let src = location::embed_url(&props.fragment, *autoplay);
    // Laid out once per result, not on every render of the open dialog.
    let height = use_memo(props.result.clone(), |r| embed_height(r.as_deref()));
    let snippet = share::iframe_snippet(&src, &props.title, *height);
    let close = props.on_close.reform(|_: MouseEvent| ());
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    let toggle = {
        let autoplay = autoplay.clone();
        Callback::from(move |_: Event| autoplay.set(!*autoplay))
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
            <div class="dialog embed" role="dialog" aria-modal="true" aria-labelledby="embed-title" onclick={stop}>
                <header>
                    <h2 id="embed-title">{"Embed this scenario"}</h2>
                    <button class="icon" onclick={close} aria-label="Close">{"×"}</button>
                </header>
                <p>{"Paste this into a docs page. The embedded view has no editor, links back to the playground, and posts its height to the page ("}
                   <code>{"{type: \"rebalance-playground:height\", height}"}</code>{") so the page can size the iframe."}</p>
                <label class="check"><input type="checkbox" checked={*autoplay} onchange={toggle} />{" play on load (autoplay=1)"}</label>
                <textarea id="embed-snippet" readonly=true rows="4" value={snippet} onfocus={select_all} />
                <div class="dialog-actions">
                    <button onclick={copy}>{ if *copied { "Copied" } else { "Copy snippet" } }</button>
                    <a href={src} target="_blank" rel="noopener">{"Preview the embed ↗"}</a>
                </div>
            </div>
        </div>
    }
}
