//! Brief simulations on the main thread: a small scenario's edit simulated
//! in the edit's own task, so that the typed value and its result share one
//! frame (issue #13). Through the worker the result misses the frame that
//! shows the typed value, and Chromium draws the next one a display frame
//! later: on a 2-core machine an edit answered at once by a worker takes
//! 13 ms to draw, the same work done in the `change` handler 5 ms
//! (`web/tests/page_bench.mjs`, the floor rows).
//!
//! The simulator's module (`web/src/worker/sim_module.rs`) is loaded on the
//! main thread once the worker has answered, after the frame that shows
//! that answer. It answers a request only if it is brief
//! (`answerBriefly`, `sim_worker::replies_brief`: a small estimate, and no
//! progress report in the run); anything else still goes to the worker.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use yew::Callback;

use crate::worker::answers::{read_replies, Answer};
use crate::worker::messages::Request;
use crate::worker::sim_module;

/// Where the brief simulator stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BriefStatus {
    /// Not wanted (an embed: nothing there edits) or not loaded yet.
    Off,
    /// Its module is loading.
    Loading,
    /// It simulates brief requests.
    Ready,
    /// Its module could not load, or failed: the worker simulates everything.
    Unavailable,
}

impl BriefStatus {
    /// For `data-brief`.
    pub fn as_str(self) -> &'static str {
        match self {
            BriefStatus::Off => "off",
            BriefStatus::Loading => "loading",
            BriefStatus::Ready => "ready",
            BriefStatus::Unavailable => "unavailable",
        }
    }
}

enum Module {
    /// Not wanted.
    Off,
    Unloaded,
    Loading,
    /// The module's bindings.
    Ready(JsValue),
    Broken,
}

/// The simulator's module on the main thread, for brief requests; cheap to
/// clone.
#[derive(Clone)]
pub(crate) struct BriefSimulator {
    module: Rc<RefCell<Module>>,
    on_status: Callback<BriefStatus>,
}

impl BriefSimulator {
    /// One that loads its module when asked to if `wanted`, else never
    /// simulates; `on_status` hears where it stands.
    pub(crate) fn new(wanted: bool, on_status: Callback<BriefStatus>) -> Self {
        let module = if wanted {
            Module::Unloaded
        } else {
            Module::Off
        };
        BriefSimulator {
            module: Rc::new(RefCell::new(module)),
            on_status,
        }
    }

    /// Loads the module after the next frame, unless it is loaded, loading
    /// or not wanted.
    pub(crate) fn load_after_frame(&self) {
        {
            let mut module = self.module.borrow_mut();
            if !matches!(*module, Module::Unloaded) {
                return;
            }
            *module = Module::Loading;
        }
        self.on_status.emit(BriefStatus::Loading);
        let this = self.clone();
        crate::browser::frame::after_next_frame(LOAD_AT_THE_LATEST_MS, move || {
            wasm_bindgen_futures::spawn_local(async move {
                let (module, status) = match sim_module::load().await {
                    Ok(bindings) => (Module::Ready(bindings), BriefStatus::Ready),
                    Err(message) => {
                        gloo::console::warn!(format!(
                            "Every edit simulates in the worker: {message}"
                        ));
                        (Module::Broken, BriefStatus::Unavailable)
                    }
                };
                *this.module.borrow_mut() = module;
                this.on_status.emit(status);
            });
        });
    }

    /// The answers to `request`, simulated here and now if the module is
    /// loaded and the request brief; `None` when the worker should answer.
    pub(crate) fn answer(&self, request: &Request) -> Option<Vec<Answer>> {
        let bindings = match &*self.module.borrow() {
            Module::Ready(bindings) => bindings.clone(),
            _ => return None,
        };
        let replies = request
            .to_js()
            .ok()
            .map(|request| sim_module::call(&bindings, "answerBriefly", &request));
        match replies? {
            Ok(list) if list.is_null() => None,
            Ok(list) => Some(read_replies(&list)),
            Err(e) => {
                // A trap leaves the module's instance unusable: the worker
                // answers from now on.
                gloo::console::warn!(format!(
                    "Every edit simulates in the worker from now on; the simulator failed on the main thread: {}",
                    e.as_string().unwrap_or_default()
                ));
                *self.module.borrow_mut() = Module::Broken;
                self.on_status.emit(BriefStatus::Unavailable);
                None
            }
        }
    }
}

/// The module is loaded this long after the worker's answer at the latest
/// (a hidden tab draws no frames), ms.
const LOAD_AT_THE_LATEST_MS: u32 = 500;
