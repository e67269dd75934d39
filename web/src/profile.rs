//! `?profile=1`: logs how long the page's own steps take (decoding a
//! result, laying out, drawing) to the console, for budget work. Off by
//! default, and then it costs one flag check.

use std::cell::OnceCell;

thread_local! {
    static ENABLED: OnceCell<bool> = const { OnceCell::new() };
}

fn enabled() -> bool {
    ENABLED.with(|e| *e.get_or_init(|| crate::location::query_flag("profile")))
}

/// Runs `f`, logging its wall time under `label` when profiling.
pub fn timed<T>(label: &str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let start = crate::sim_client::now();
    let out = f();
    gloo::console::log!(format!(
        "{label}: {:.1} ms",
        crate::sim_client::now() - start
    ));
    out
}
