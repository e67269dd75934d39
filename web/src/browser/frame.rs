//! Work that waits for the next frame to be drawn: a task posted from an
//! animation-frame callback runs after that frame's style, layout and paint,
//! so what it does is not in the frame that shows an edit's result (issue
//! #13). A hidden tab draws no frames, so the work also runs after a
//! deadline.

use std::cell::Cell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Runs `f` once: in the task after the next frame, or `at_the_latest_ms`
/// from now if no frame comes first.
pub(crate) fn after_next_frame<F: FnOnce() + 'static>(at_the_latest_ms: u32, f: F) {
    after_next_frame_boxed(at_the_latest_ms, Box::new(f));
}

/// [`after_next_frame`], one copy for every caller: each copy of this
/// function's closures and their JavaScript glue costs the page's module
/// about half a kilobyte.
fn after_next_frame_boxed(at_the_latest_ms: u32, f: Box<dyn FnOnce()>) {
    let once = Rc::new(Cell::new(Some(f)));
    let run_in = |ms: u32| {
        let once = once.clone();
        move || {
            Timeout::new(ms, move || {
                if let Some(f) = once.take() {
                    f();
                }
            })
            .forget();
        }
    };
    let after_frame = Closure::once_into_js(run_in(0));
    if gloo::utils::window()
        .request_animation_frame(after_frame.unchecked_ref())
        .is_err()
    {
        run_in(0)();
    }
    run_in(at_the_latest_ms)();
}
