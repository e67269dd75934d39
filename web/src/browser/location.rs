//! The address bar: the fragment holds the scenario (`#s=…` or `#p=…`), the
//! query holds view options (`?embed=1&autoplay=1`, an embed's `only`,
//! `column` and `max_height`, the playhead `t=` and the time window
//! `view=`) and never semantics. A sweep follows the scenario in the
//! fragment (`#s=…&sweep=1.j.…`, or `#p=sweeps/<name>` for a built-in one;
//! `engine::sweep::link`): [`split_sweep_link`] reads it.

use std::cell::RefCell;

use wasm_bindgen::JsValue;

/// The current fragment, without `#`: a write still waiting for its frame
/// ([`write_fragment_after_frame`]) counts as written.
pub fn fragment() -> String {
    if let Some(pending) = PENDING.with(|p| p.borrow().as_ref().map(|w| w.fragment.clone())) {
        return pending;
    }
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    let hash = hash.strip_prefix('#').unwrap_or(&hash);
    // Browsers percent-encode some characters in `location.hash`; links
    // themselves only use base64url and `/`, so decoding is safe.
    web_sys::js_sys::decode_uri_component(hash)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| hash.to_string())
}

/// True when the query string asks for `name=1` (or bare `name`).
pub fn query_flag(name: &str) -> bool {
    search()
        .trim_start_matches('?')
        .split('&')
        .any(|kv| kv == format!("{name}=1") || kv == name)
}

/// The value of `name=value` in the query string, percent-decoded.
pub fn query_value(name: &str) -> Option<String> {
    search().trim_start_matches('?').split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == name).then(|| {
            web_sys::js_sys::decode_uri_component(v)
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_else(|| v.to_string())
        })
    })
}

/// Sets (or, for `None`, removes) the view keys `t` (playhead, ms) and
/// `view` (the time window, `from-to` ms) in the query string, keeping the
/// other keys and the fragment; replaces the history entry (moving the
/// playhead is not a step Back should undo).
pub fn write_view_query(t_ms: Option<u64>, view: Option<String>) {
    flush_fragment();
    let window = gloo::utils::window();
    let (Ok(history), Ok(search), Ok(hash)) = (
        window.history(),
        window.location().search(),
        window.location().hash(),
    ) else {
        return;
    };
    let mut pairs: Vec<String> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty())
        .filter(|kv| {
            let key = kv.split_once('=').map_or(*kv, |(k, _)| k);
            key != "t" && key != "view"
        })
        .map(str::to_string)
        .collect();
    pairs.extend(t_ms.map(|t| format!("t={t}")));
    pairs.extend(view.map(|v| format!("view={v}")));
    let query = if pairs.is_empty() {
        String::new()
    } else {
        format!("?{}", pairs.join("&"))
    };
    if query != search {
        let url = format!("{}{query}{hash}", base_url());
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// The page's query string (`?…`).
fn search() -> String {
    gloo::utils::window()
        .location()
        .search()
        .unwrap_or_default()
}

/// What an embed shows besides the default (the header, the playback bar,
/// the chart, headline numbers and every column's timeline).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EmbedOptions {
    /// `only=chart` (the running-tasks chart) or `only=timelines` (the lanes).
    pub only: Option<EmbedOnly>,
    /// `column=N`: only the N-th compared column (1-based in the query, 0-based here).
    pub column: Option<usize>,
    /// `max_height=PX`: the embed scrolls inside this height (and reports at most it).
    pub max_height: Option<u32>,
}

/// The `only=` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedOnly {
    /// The running-tasks chart, no lanes.
    Chart,
    /// The lanes, no chart and no numbers.
    Timelines,
}

impl EmbedOnly {
    /// The class the embed's `<main>` gets.
    pub fn class(self) -> &'static str {
        match self {
            EmbedOnly::Chart => "only-chart",
            EmbedOnly::Timelines => "only-timelines",
        }
    }
}

/// The embed options in a query string; unknown or malformed values are ignored.
pub fn parse_embed_options(search: &str) -> EmbedOptions {
    let mut options = EmbedOptions::default();
    for kv in search.trim_start_matches('?').split('&') {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        match k {
            "only" => {
                options.only = match v {
                    "chart" => Some(EmbedOnly::Chart),
                    "timelines" => Some(EmbedOnly::Timelines),
                    _ => None,
                }
            }
            "column" => options.column = v.parse::<usize>().ok().and_then(|n| n.checked_sub(1)),
            "max_height" => {
                options.max_height = v.parse::<u32>().ok().filter(|h| (120..=20_000).contains(h))
            }
            _ => {}
        }
    }
    options
}

/// This page's embed options.
pub fn embed_options() -> EmbedOptions {
    parse_embed_options(&search())
}

/// A fragment written once the frame under way has been drawn.
struct PendingWrite {
    fragment: String,
    push: bool,
}

thread_local! {
    static PENDING: RefCell<Option<PendingWrite>> = const { RefCell::new(None) };
}

/// What the tests wait for: `<html data-link-pending>` while a write waits.
const PENDING_ATTRIBUTE: &str = "data-link-pending";

/// Writes `#fragment` as [`write_fragment`] does, but after the next frame
/// has been drawn: `history.pushState` costs 1–13 ms in Chromium, which an
/// edit's result would otherwise wait for before it shows
/// (docs/performance.md, "Session 10"). Only for a module that is the
/// address bar's only writer: the sweep module writes its own part after the
/// page's and reads the address bar itself, so with it open the page writes
/// at once. A write made while another waits writes that one first.
pub fn write_fragment_after_frame(fragment: &str, push: bool) {
    flush_fragment();
    PENDING.with(|p| {
        *p.borrow_mut() = Some(PendingWrite {
            fragment: fragment.to_string(),
            push,
        })
    });
    let root = gloo::utils::document().document_element();
    if let Some(root) = &root {
        let _ = root.set_attribute(PENDING_ATTRIBUTE, "");
    }
    crate::browser::frame::after_next_frame(WRITE_AT_THE_LATEST_MS, flush_fragment);
}

/// A waiting link is written after at most this long, frame or not.
const WRITE_AT_THE_LATEST_MS: u32 = 200;

/// Writes a waiting fragment now, if there is one.
pub fn flush_fragment() {
    if let Some(w) = take_pending() {
        write_fragment_now(&w.fragment, w.push);
    }
}

/// Forgets a waiting fragment: history moved (Back, an edited address bar),
/// and the entry it was meant for is no longer the current one.
pub fn drop_pending_fragment() {
    take_pending();
}

fn take_pending() -> Option<PendingWrite> {
    let pending = PENDING.with(|p| p.borrow_mut().take());
    if pending.is_some() {
        if let Some(root) = gloo::utils::document().document_element() {
            let _ = root.remove_attribute(PENDING_ATTRIBUTE);
        }
    }
    pending
}

/// Writes `#fragment`, replacing the current history entry or adding one
/// (after any write still waiting for its frame).
pub fn write_fragment(fragment: &str, push: bool) {
    flush_fragment();
    write_fragment_now(fragment, push);
}

fn write_fragment_now(fragment: &str, push: bool) {
    let window = gloo::utils::window();
    let Ok(history) = window.history() else {
        return;
    };
    let url = format!("#{fragment}");
    let _ = if push {
        history.push_state_with_url(&JsValue::NULL, "", Some(&url))
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
    };
}

/// The page's address without query and fragment (where the playground lives).
pub fn base_url() -> String {
    // From `href`, not `origin + pathname`: a page opened from a file has
    // the origin "null".
    let href = gloo::utils::window().location().href().unwrap_or_default();
    let end = href.find(['?', '#']).unwrap_or(href.len());
    href[..end].to_string()
}

/// The full permalink of a fragment, in the playground (not embedded).
pub fn permalink(fragment: &str) -> String {
    format!("{}#{fragment}", base_url())
}

/// The address of the embedded view of a fragment.
pub fn embed_url(fragment: &str, autoplay: bool, options: EmbedOptions) -> String {
    format!(
        "{}{}#{fragment}",
        base_url(),
        embed_query(autoplay, options)
    )
}

/// The query string of an embed: `?embed=1`, then its options.
pub fn embed_query(autoplay: bool, options: EmbedOptions) -> String {
    let mut query = "?embed=1".to_string();
    if autoplay {
        query.push_str("&autoplay=1");
    }
    match options.only {
        Some(EmbedOnly::Chart) => query.push_str("&only=chart"),
        Some(EmbedOnly::Timelines) => query.push_str("&only=timelines"),
        None => {}
    }
    if let Some(c) = options.column {
        query.push_str(&format!("&column={}", c + 1));
    }
    if let Some(h) = options.max_height {
        query.push_str(&format!("&max_height={h}"));
    }
    query
}

/// Sets `document.title`: the scenario's title first, so tabs and history
/// entries tell scenarios apart.
pub fn set_document_title(scenario_title: Option<&str>) {
    const SITE: &str = "Rebalance Playground";
    let title = match scenario_title.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => format!("{t} — {SITE}"),
        None => format!("{SITE} — Kafka group rebalancing, simulated"),
    };
    let document = gloo::utils::document();
    if document.title() != title {
        document.set_title(&title);
    }
}

/// A fragment split into the scenario part the playground opens and the
/// sweep part, unread (the sweep module reads it): `&sweep=…`, or a
/// built-in sweep's `p=sweeps/<name>`, whose scenario comes as the `s=` link
/// of its scenario (the page holds it in binary; the simulator reads it back).
pub fn split_sweep_link(fragment: &str) -> (String, Option<String>) {
    if let Some(preset) = fragment
        .strip_prefix("p=")
        .and_then(|rest| crate::presets::find_sweep(scenario_fragment(rest)))
    {
        let sweep = match fragment.split_once(engine::link::SWEEP_PART) {
            Some((_, body)) => format!("{}{body}", engine::link::SWEEP_PART),
            None => format!("p={}", preset.id),
        };
        return (engine::link::encode(&preset.scenario()), Some(sweep));
    }
    match fragment.split_once(engine::link::SWEEP_PART) {
        Some((scenario, body)) => (
            scenario.to_string(),
            Some(format!("{}{body}", engine::link::SWEEP_PART)),
        ),
        None => (fragment.to_string(), None),
    }
}

/// `fragment` without its sweep part.
pub fn scenario_fragment(fragment: &str) -> &str {
    fragment
        .split_once(engine::link::SWEEP_PART)
        .map_or(fragment, |(scenario, _)| scenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_links_split_into_scenario_and_sweep() {
        let preset = crate::presets::find_sweep("sweeps/connect-delay-vs-bounce").unwrap();
        let (scenario, sweep) = split_sweep_link("p=sweeps/connect-delay-vs-bounce");
        assert_eq!(scenario, engine::link::encode(&preset.scenario()));
        assert_eq!(sweep.as_deref(), Some("p=sweeps/connect-delay-vs-bounce"));
        let fragment = "p=connect/worker-bounce&sweep=1.j.e30";
        let (scenario, sweep) = split_sweep_link(fragment);
        assert_eq!(scenario, "p=connect/worker-bounce");
        assert_eq!(sweep.as_deref(), Some("&sweep=1.j.e30"));
        assert_eq!(scenario_fragment(fragment), "p=connect/worker-bounce");
        let (scenario, sweep) = split_sweep_link("p=connect/worker-bounce");
        assert_eq!(scenario, "p=connect/worker-bounce");
        assert_eq!(sweep, None);
        // An unknown built-in sweep is left to the playground, which says so.
        assert_eq!(split_sweep_link("p=sweeps/nope").0, "p=sweeps/nope");
    }

    #[test]
    fn embed_options_from_the_query() {
        assert_eq!(parse_embed_options(""), EmbedOptions::default());
        let o = parse_embed_options("?embed=1&only=chart&column=2&max_height=400");
        assert_eq!(o.only, Some(EmbedOnly::Chart));
        assert_eq!(o.column, Some(1));
        assert_eq!(o.max_height, Some(400));
        let o = parse_embed_options("?only=timelines&column=0&max_height=5");
        assert_eq!(o.only, Some(EmbedOnly::Timelines));
        assert_eq!(
            (o.column, o.max_height),
            (None, None),
            "out of range values are ignored"
        );
        assert_eq!(parse_embed_options("?only=nonsense&column=x").only, None);
        let o = EmbedOptions {
            only: Some(EmbedOnly::Timelines),
            column: Some(0),
            max_height: Some(480),
        };
        let q = embed_query(true, o);
        assert_eq!(
            q,
            "?embed=1&autoplay=1&only=timelines&column=1&max_height=480"
        );
        assert_eq!(parse_embed_options(&q), o, "the query round-trips");
        assert_eq!(embed_query(false, EmbedOptions::default()), "?embed=1");
    }
}
