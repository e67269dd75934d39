//! Brief simulations on the main thread: a small scenario's edit simulated
//! in the edit's own task, so that the typed value and its result share one
//! frame (issue #13). Through the worker the result misses the frame that
//! shows the typed value, and Chromium draws the next one a display frame
//! later: on a 2-core machine an edit answered at once by a worker takes
//! 13 ms to draw, the same work done in the `change` handler 5 ms
//! (`web/tests/page_bench.mjs`, the floor rows).
//!
//! The simulator's module (`web/src/worker/sim_module.rs`) is loaded on the
//! main thread once the worker has answered and the editor has been opened
//! (someone who only watches never pays for it, and playback right after a
//! load keeps its frames), after the next frame, and warmed up with the
//! scenario on screen. It answers a request only if it is brief
//! (`answerBriefly`, `sim_worker::replies_brief`: a small estimate, and no
//! progress report in the run); anything else still goes to the worker.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use yew::Callback;

use crate::worker::answers::{read_replies, Answer};
use crate::worker::messages::Request;
use crate::worker::sim_module;

/// Where the brief simulator stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BriefStatus {
    /// Not loaded (yet): the editor has not been opened, or the worker has
    /// not answered. Always in an embed, which has no editor.
    Off,
    /// Its module is loading.
    Loading,
    /// It simulates brief requests, warmed up by the scenario on screen
    /// ([`BriefSimulator::offer_warm_up`]).
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
    /// A request to simulate once the module has loaded, its answer
    /// dropped: see [`Self::offer_warm_up`].
    warm_up: Rc<RefCell<Option<Request>>>,
    /// The editor has been opened.
    editing: Rc<Cell<bool>>,
    /// The worker has answered.
    answered: Rc<Cell<bool>>,
    on_status: Callback<BriefStatus>,
}

impl BriefSimulator {
    /// One that loads its module once the worker has answered and the
    /// editor has been opened; `on_status` hears where it stands.
    pub(crate) fn new(on_status: Callback<BriefStatus>) -> Self {
        BriefSimulator {
            module: Rc::new(RefCell::new(Module::Unloaded)),
            warm_up: Rc::default(),
            editing: Rc::default(),
            answered: Rc::default(),
            on_status,
        }
    }

    /// The editor has been opened: edits may follow.
    pub(crate) fn editor_opened(&self) {
        self.editing.set(true);
        self.load_when_due();
    }

    /// The worker has answered: the first timeline is up, or about to be.
    pub(crate) fn worker_answered(&self) {
        self.answered.set(true);
        self.load_when_due();
    }

    /// Keeps `request` (a simulation, the newest one before the module
    /// loads) to run once the module has loaded, in a task of its own after
    /// a frame, and drop its answer. A module's functions are compiled on
    /// their first call and run unoptimised for a while, so the first edit
    /// after a load is the slow one (29-107 ms against 13-45 ms for the
    /// next, docs/performance.md, session 19). Simulating the scenario on
    /// screen warms the paths its edits take: first edits 62.0 -> 57.3 ms.
    pub(crate) fn offer_warm_up(&self, request: &Request) {
        if matches!(*self.module.borrow(), Module::Unloaded | Module::Loading) {
            *self.warm_up.borrow_mut() = Some(request.clone());
        }
    }

    /// Loads the module after the next frame once both have happened,
    /// unless it is loaded or loading.
    fn load_when_due(&self) {
        if !(self.editing.get() && self.answered.get()) {
            return;
        }
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
                match sim_module::load().await {
                    Ok(bindings) => {
                        *this.module.borrow_mut() = Module::Ready(bindings);
                        this.warm_up_then_say_ready();
                    }
                    Err(message) => {
                        gloo::console::warn!(format!(
                            "Every edit simulates in the worker: {message}"
                        ));
                        *this.module.borrow_mut() = Module::Broken;
                        this.on_status.emit(BriefStatus::Unavailable);
                    }
                }
            });
        });
    }

    /// Runs the warm-up request, if one was offered, in a task of its own
    /// after the next frame, then says ready.
    fn warm_up_then_say_ready(&self) {
        let Some(request) = self.warm_up.take() else {
            return self.on_status.emit(BriefStatus::Ready);
        };
        let this = self.clone();
        crate::browser::frame::after_next_frame(LOAD_AT_THE_LATEST_MS, move || {
            // Answered or not, nobody waits for it.
            let _ = this.answer(&request);
            this.on_status.emit(BriefStatus::Ready);
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

/// The module is loaded, and warmed up, this long after it is due at the
/// latest (a hidden tab draws no frames), ms.
const LOAD_AT_THE_LATEST_MS: u32 = 500;
