//! Sharing: the clipboard, scenario files (download and open) and the
//! iframe snippet. The parts that decide something are pure functions,
//! tested natively; the rest are thin browser calls.

use engine::fixed::Fixed;
use engine::scenario::Scenario;

use crate::worker::answers::Opening;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{Array, Promise, Reflect};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// Links longer than this are offered as a file instead (RFC 9110 asks
/// for at least 8,000 octets; chat apps allow far less).
pub const MAX_SHARE_LINK: usize = 8_000;

/// Scenario files larger than this are refused unread (the same bound the
/// link codec puts on an unpacked scenario).
pub const MAX_FILE_BYTES: f64 = engine::link::MAX_DECODED_BYTES as f64;

/// A scenario file's text, validated exactly like a link's payload (by the
/// simulator's module, which parses what the page opens).
pub fn parse_scenario_file(name: &str, text: &str) -> Result<Scenario, String> {
    let shown: String = name.chars().take(80).collect();
    Scenario::from_json(text)
        .map_err(|e| format!("“{shown}” is not a scenario the playground can open. {e}"))
}

/// The message for a file too large to read.
pub fn file_too_large(name: &str, bytes: f64) -> String {
    let shown: String = name.chars().take(80).collect();
    format!(
        "“{shown}” is {:.1} MiB; scenario files are at most {} KiB, so it was not opened.",
        Fixed(bytes / 1_048_576.0),
        engine::link::MAX_DECODED_BYTES / 1024
    )
}

/// A file name for a scenario: its title, lowercased, dashes for the rest.
pub fn file_name(s: &Scenario) -> String {
    let mut slug = String::new();
    for c in s.title.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
        if slug.len() >= 60 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    format!("{}.json", if slug.is_empty() { "scenario" } else { slug })
}

fn attr_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The iframe snippet for an embed address, with the listener that sizes
/// it to the height the embed reports (one listener serves every
/// playground iframe on the host page).
pub fn iframe_snippet(src: &str, title: &str, height: u32) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"960\" height=\"{height}\" loading=\"lazy\" style=\"border:0;max-width:100%\"></iframe>\n{RESIZE_LISTENER}",
        attr_escape(src),
        attr_escape(&format!("Rebalance Playground: {title}"))
    )
}

/// Sizes each playground iframe on the host page to the height it posts
/// (`crate::browser::embed::HEIGHT_MESSAGE`); safe to paste more than once.
pub const RESIZE_LISTENER: &str = "<script>\n\
window.rebalancePlaygroundSizer || window.addEventListener(\"message\", window.rebalancePlaygroundSizer = function (e) {\n\
  if (!e.data || e.data.type !== \"rebalance-playground:height\" || typeof e.data.height !== \"number\") return;\n\
  document.querySelectorAll(\"iframe\").forEach(function (f) {\n\
    if (f.contentWindow === e.source) f.style.height = Math.max(120, Math.min(10000, Math.ceil(e.data.height))) + \"px\";\n\
  });\n\
});\n\
</script>";

/// Copies `text`; `done` gets whether it worked (the clipboard needs a
/// secure context and, in some browsers, a permission).
pub fn copy_text(text: &str, done: impl FnOnce(bool) + 'static) {
    let navigator = gloo::utils::window().navigator();
    let has_clipboard = Reflect::get(&navigator, &"clipboard".into())
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !has_clipboard {
        done(false);
        return;
    }
    let promise: Promise = navigator.clipboard().write_text(text);
    let done = std::rc::Rc::new(std::cell::RefCell::new(Some(done)));
    let ok = {
        let done = done.clone();
        Closure::<dyn FnMut(JsValue)>::once(move |_: JsValue| {
            if let Some(f) = done.borrow_mut().take() {
                f(true);
            }
        })
    };
    let err = Closure::<dyn FnMut(JsValue)>::once(move |_: JsValue| {
        if let Some(f) = done.borrow_mut().take() {
            f(false);
        }
    });
    let _ = promise.then2(&ok, &err);
    // Each runs at most once; a copy click is rare, so they are not tracked.
    ok.forget();
    err.forget();
}

/// Offers `text` as a downloaded file.
pub fn download(name: &str, text: &str) -> Result<(), JsValue> {
    let parts = Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let a: HtmlAnchorElement = gloo::utils::document()
        .create_element("a")?
        .dyn_into()
        .map_err(JsValue::from)?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    Url::revoke_object_url(&url)?;
    Ok(())
}

/// A scenario file as read (the simulator parses it: the page's module
/// holds no scenario parser), or why it could not be read.
pub type FileRead = Result<Opening, String>;

/// Reads a scenario file picked or dropped by the user; keep the returned
/// reader alive until `done` runs (dropping it aborts).
pub fn read_scenario_file(
    file: web_sys::File,
    done: yew::Callback<FileRead>,
) -> Option<gloo::file::callbacks::FileReader> {
    let name = file.name();
    let size = file.size();
    if size > MAX_FILE_BYTES {
        done.emit(Err(file_too_large(&name, size)));
        return None;
    }
    let file = gloo::file::File::from(file);
    Some(gloo::file::callbacks::read_as_text(&file, move |text| {
        done.emit(match text {
            Ok(text) => Ok(Opening::File { name, text }),
            Err(e) => Err(format!("“{name}” could not be read: {e}")),
        });
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_validated_like_links() {
        let s = engine::presets::default_preset().scenario();
        assert_eq!(
            parse_scenario_file("a.json", &s.to_json_pretty()).unwrap(),
            s
        );
        let err = parse_scenario_file("a.json", "{\"version\": 1}").unwrap_err();
        assert!(err.contains("a.json") && err.len() > 40, "{err}");
        let err = parse_scenario_file("b.json", "not json").unwrap_err();
        assert!(err.contains("b.json"), "{err}");
        assert!(file_too_large("big.json", 5e6).contains("not opened"));
    }

    #[test]
    fn names_and_snippets() {
        let s = engine::presets::default_preset().scenario();
        assert_eq!(file_name(&s), "a-worker-joins.json");
        let snippet = iframe_snippet("https://x/?embed=1#p=a", "Say \"hi\" <b>", 600);
        assert!(snippet.contains("loading=\"lazy\""));
        assert!(snippet.contains("title=\"Rebalance Playground: Say &quot;hi&quot; &lt;b&gt;\""));
        assert!(snippet.contains("height=\"600\""));
        assert!(
            snippet.contains(super::super::embed::HEIGHT_MESSAGE),
            "the listener knows the message"
        );
        assert!(snippet.trim_end().ends_with("</script>"));
    }
}
