//! Small hooks shared by components.

use engine::fixed::clamp;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, ResizeObserver};
use yew::prelude::*;

/// The CSS pixel width of the element behind `node`, following resizes.
///
/// Charts draw in their real pixel width (the SVG `viewBox` equals the box),
/// so text and rows keep their size on a phone and on a wide screen instead
/// of being scaled. Until the first measurement it is `fallback`.
#[hook]
pub fn use_element_width(node: NodeRef, fallback: f64) -> f64 {
    let width = use_state_eq(|| fallback);
    {
        let width = width.clone();
        use_effect_with(node, move |node| {
            let element = node.cast::<Element>();
            let measure = {
                let width = width.clone();
                move |el: &Element| {
                    let w = f64::from(el.client_width());
                    if w > 0.0 {
                        width.set(w);
                    }
                }
            };
            let mut observer = None;
            let mut closure = None;
            if let Some(el) = element {
                measure(&el);
                let target = el.clone();
                let cb = Closure::<dyn FnMut(JsValue)>::new(move |_entries: JsValue| {
                    measure(&target);
                });
                if let Ok(ro) = ResizeObserver::new(cb.as_ref().unchecked_ref()) {
                    ro.observe(&el);
                    observer = Some(ro);
                }
                closure = Some(cb);
            }
            move || {
                if let Some(ro) = observer {
                    ro.disconnect();
                }
                drop(closure);
            }
        });
    }
    *width
}

/// False in a component's first render, true from the next, which follows
/// at once. A part drawn only once it is true is drawn in the task after
/// the first render when that render was long (Yew yields to the browser
/// between a render that took 16 ms and its effects): a big first view is
/// then two shorter main-thread tasks instead of one long one.
#[hook]
pub fn use_mounted() -> bool {
    let mounted = use_state_eq(|| false);
    {
        let mounted = mounted.clone();
        use_effect_with((), move |_| mounted.set(true));
    }
    *mounted
}

/// `value` as a part drawn after the timelines shows it: a new `value`
/// reaches the part in the task after the next frame, so the frame that
/// shows an edit's timelines does not also lay out and paint that part
/// (React's `useDeferredValue`, one frame long; issue #13). The first value
/// shows at once. A hidden tab draws no frames: a change then shows after
/// [`AFTER_FRAME_AT_THE_LATEST_MS`].
#[hook]
pub fn use_after_frame<T: Clone + PartialEq + 'static>(value: T) -> T {
    let shown = use_mut_ref(|| value.clone());
    let newest = use_mut_ref(|| None::<T>);
    let redraw = use_state(|| 0u32);
    if *shown.borrow() != value {
        // Whether a frame is awaited already.
        let waiting = newest.replace(Some(value)).is_some();
        if !waiting {
            let (shown, newest, redraw) = (shown.clone(), newest.clone(), redraw.clone());
            crate::browser::frame::after_next_frame(AFTER_FRAME_AT_THE_LATEST_MS, move || {
                if let Some(v) = newest.take() {
                    *shown.borrow_mut() = v;
                    redraw.set(redraw.wrapping_add(1));
                }
            });
        }
    } else {
        // Back to what is shown: nothing to wait for.
        newest.take();
    }
    let shown = shown.borrow().clone();
    shown
}

/// A change [`use_after_frame`] holds back shows after at most this long,
/// frame or not.
pub const AFTER_FRAME_AT_THE_LATEST_MS: u32 = 200;

/// Whether a `<details>` has been unfolded yet, and its `ontoggle`: a
/// folded part's body is built the first time it is unfolded and kept
/// from then on, so that what nobody opened costs neither the first render
/// nor every result's (issue #13).
#[hook]
pub fn use_unfolded() -> (bool, Callback<Event>) {
    let unfolded = use_state_eq(|| false);
    let on_toggle = {
        let unfolded = unfolded.clone();
        use_callback((), move |e: Event, _| {
            let details: web_sys::Element = e.target_unchecked_into();
            if details.has_attribute("open") {
                unfolded.set(true);
            }
        })
    };
    (*unfolded, on_toggle)
}

/// Calls `on_frame` with the frame time on every animation frame while
/// `active`. (One closure re-requests itself; the effect's cleanup stops it.)
#[hook]
pub fn use_animation_frames(active: bool, on_frame: Callback<f64>) {
    use std::cell::{Cell, RefCell};
    use_effect_with(active, move |active| {
        type FrameFn = Closure<dyn FnMut(f64)>;
        let slot: Rc<RefCell<Option<FrameFn>>> = Rc::new(RefCell::new(None));
        let alive = Rc::new(Cell::new(*active));
        let request = Rc::new(Cell::new(0));
        if *active {
            let (slot2, alive2, request2) = (slot.clone(), alive.clone(), request.clone());
            *slot.borrow_mut() = Some(Closure::new(move |ts: f64| {
                if !alive2.get() {
                    return;
                }
                on_frame.emit(ts);
                if alive2.get() {
                    if let Some(f) = slot2.borrow().as_ref() {
                        if let Ok(id) = gloo::utils::window()
                            .request_animation_frame(f.as_ref().unchecked_ref())
                        {
                            request2.set(id);
                        }
                    }
                }
            }));
            if let Some(f) = slot.borrow().as_ref() {
                if let Ok(id) =
                    gloo::utils::window().request_animation_frame(f.as_ref().unchecked_ref())
                {
                    request.set(id);
                }
            }
        }
        move || {
            alive.set(false);
            let _ = gloo::utils::window().cancel_animation_frame(request.get());
            // Breaks the closure's reference to itself.
            slot.borrow_mut().take();
        }
    });
}

/// The part of a tall element that is on screen (plus a margin), in the
/// element's own pixels, in blocks of [`WINDOW_BLOCK`] so that scrolling
/// redraws only when a block boundary is crossed. `None` while `enabled` is
/// false (then everything is drawn).
#[hook]
pub fn use_visible_window(node: NodeRef, enabled: bool) -> Option<(f64, f64)> {
    let window = use_state_eq(|| None::<(f64, f64)>);
    {
        let window = window.clone();
        use_effect_with((node, enabled), move |(node, enabled)| {
            let mut listeners = Vec::new();
            if *enabled {
                let node = node.clone();
                let measure = Rc::new(move || {
                    let Some(el) = node.cast::<Element>() else {
                        return;
                    };
                    let rect = el.get_bounding_client_rect();
                    let vh = gloo::utils::window()
                        .inner_height()
                        .ok()
                        .and_then(|h| h.as_f64())
                        .unwrap_or(800.0);
                    let top = (-rect.top()).max(0.0);
                    let bottom = clamp(vh - rect.top(), 0.0, rect.height());
                    let lo = ((top - WINDOW_BLOCK / 2.0) / WINDOW_BLOCK).floor() * WINDOW_BLOCK;
                    let hi = ((bottom + WINDOW_BLOCK / 2.0) / WINDOW_BLOCK).ceil() * WINDOW_BLOCK;
                    window.set(Some((lo.max(0.0), hi)));
                });
                measure();
                for event in ["scroll", "resize"] {
                    let measure = measure.clone();
                    listeners.push(gloo::events::EventListener::new(
                        &gloo::utils::window(),
                        event,
                        move |_| measure(),
                    ));
                }
            } else {
                window.set(None);
            }
            move || drop(listeners)
        });
    }
    *window
}

/// Granularity of [`use_visible_window`], in pixels.
pub const WINDOW_BLOCK: f64 = 800.0;

/// Calls the latest `on_wheel` for wheel events over the element behind
/// `node`, with the page's scrolling prevented (a listener of our own:
/// passive listeners cannot prevent it). Registered when `ready` turns
/// true (the element is rendered); the callback may change on every render.
#[hook]
pub fn use_wheel(node: NodeRef, ready: bool, on_wheel: Callback<web_sys::WheelEvent>) {
    let latest = use_mut_ref(|| on_wheel.clone());
    *latest.borrow_mut() = on_wheel;
    use_effect_with((node, ready), move |(node, _)| {
        let listener = node.cast::<Element>().map(|el| {
            gloo::events::EventListener::new_with_options(
                &el,
                "wheel",
                gloo::events::EventListenerOptions::enable_prevent_default(),
                move |e| {
                    if let Some(e) = e.dyn_ref::<web_sys::WheelEvent>() {
                        e.prevent_default();
                        latest.borrow().emit(e.clone());
                    }
                },
            )
        });
        move || drop(listener)
    });
}

/// Scrolls `el` into view only as far as needed (`block: nearest`).
pub fn scroll_into_view_nearest(el: &Element) {
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
    el.scroll_into_view_with_scroll_into_view_options(&options);
}

/// Keeps `?t=…&view=from-to` in the address bar in step with the playhead
/// and the zoom, once they rest for a moment (never while playing: browsers
/// throttle rapid history writes). `t=0` and the default window are left
/// out, so an untouched view keeps a clean link.
#[hook]
pub fn use_view_link(
    t_ms: Option<u64>,
    zoom: Option<crate::state::viewport::Window>,
    playing: bool,
) {
    use_effect_with((t_ms, zoom, playing), |(t_ms, zoom, playing)| {
        let pending = (!*playing && t_ms.is_some()).then(|| {
            let (t, view) = (t_ms.filter(|t| *t > 0), zoom.map(|w| w.to_query()));
            gloo::timers::callback::Timeout::new(250, move || {
                crate::browser::location::write_view_query(t, view);
            })
        });
        move || drop(pending)
    });
}
