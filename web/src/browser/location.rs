//! The address bar: the fragment holds the scenario (`#s=…` or `#p=…`), the
//! query holds view options (`?embed=1&autoplay=1`, the playhead `t=` and
//! the time window `view=`) and never semantics.

use wasm_bindgen::JsValue;

/// The current fragment, without `#`.
pub fn fragment() -> String {
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
    let search = gloo::utils::window()
        .location()
        .search()
        .unwrap_or_default();
    search
        .trim_start_matches('?')
        .split('&')
        .any(|kv| kv == format!("{name}=1") || kv == name)
}

/// The value of `name=value` in the query string, percent-decoded.
pub fn query_value(name: &str) -> Option<String> {
    let search = gloo::utils::window().location().search().ok()?;
    search.trim_start_matches('?').split('&').find_map(|kv| {
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

/// Writes `#fragment`, replacing the current history entry or adding one.
pub fn write_fragment(fragment: &str, push: bool) {
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
pub fn embed_url(fragment: &str, autoplay: bool) -> String {
    let query = if autoplay {
        "?embed=1&autoplay=1"
    } else {
        "?embed=1"
    };
    format!("{}{query}#{fragment}", base_url())
}
