//! `?profile=1`: logs how long the page's own steps take (decoding a
//! result, laying out, drawing) to the console, for budget work. Off by
//! default, and then it costs one flag check. Also the clock every timing
//! in this crate reads (page, worker and the simulator's JS API).

use engine::fixed::Fixed;
use std::cell::OnceCell;

thread_local! {
    static ENABLED: OnceCell<bool> = const { OnceCell::new() };
}

fn enabled() -> bool {
    ENABLED.with(|e| *e.get_or_init(|| crate::browser::location::query_flag("profile")))
}

/// Milliseconds from the time origin of whichever global this runs in (a
/// page or a worker): `performance.now()`, or `Date.now()` where there is none.
pub fn now() -> f64 {
    use wasm_bindgen::JsCast;
    web_sys::js_sys::Reflect::get(&web_sys::js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or_else(web_sys::js_sys::Date::now, |p| p.now())
}

/// Runs `f`, logging its wall time under `label` when profiling.
pub fn timed<T>(label: &str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let start = now();
    let out = f();
    gloo::console::log!(format!("{label}: {:.1} ms", Fixed(now() - start)));
    out
}
