//! The address bar: reading the scenario from the fragment and keeping the
//! fragment a permalink of what is shown.

use engine::link::{self, LinkTarget};
use engine::presets;
use engine::scenario::Scenario;

/// The current fragment, without `#`.
pub fn fragment() -> String {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    hash.strip_prefix('#').unwrap_or(&hash).to_string()
}

/// True when the query string asks for `name=1`.
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

/// The scenario a fragment names, or the default preset and a message saying
/// why the link could not be used.
pub fn scenario_from_fragment(fragment: &str) -> (Scenario, Option<String>) {
    let fallback = || presets::default_preset().scenario();
    match link::decode(fragment) {
        Ok(LinkTarget::Scenario(s)) => (*s, None),
        Ok(LinkTarget::Preset(id)) => match presets::find(&id) {
            Some(p) => (p.scenario(), None),
            None => (fallback(), Some(presets::unknown_preset_message(&id))),
        },
        Ok(LinkTarget::Empty) => (fallback(), None),
        Err(e) => (
            fallback(),
            Some(format!("{e} Showing the default scenario instead.")),
        ),
    }
}

/// Rewrites the fragment without adding a history entry.
pub fn replace_fragment(fragment: &str) {
    let window = gloo::utils::window();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("#{fragment}")),
        );
    }
}
