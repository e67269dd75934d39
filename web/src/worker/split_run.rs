//! A big scenario's run shared between the simulator's Web Worker and a
//! helper worker it starts (issue #13): the compared variants simulate on
//! their own, so on two cores half of them can run in the helper at the
//! same time. Only the end they all run to ties them
//! (`engine::run::VariantGroup`), so the worker and its helper each settle
//! their half ([`Task::Part`], [`Reply::Settled`]), the worker picks the end
//! from both and tells the helper ([`Task::Finish`]), and each runs its half
//! to it. The worker posts the page its own half and the helper's as pieces
//! of one [`Reply::Simulated`] (`more`), which the page reads as one result:
//! the same result, field for field, as a run in one thread.
//!
//! The helper starts the first time this worker is asked for a scenario
//! worth splitting, which itself runs in one thread; the next ones split.
//! It is the same module, started from the worker (a nested worker), and
//! ends with it: a busy worker the page terminates takes its helper along.

use std::cell::RefCell;
use std::ops::ControlFlow;

use engine::cost::CostEstimate;
use engine::run::{RunResult, Settled, VariantGroup};
use engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{self, Array, Object, Reflect, Uint32Array, Uint8Array};
use web_sys::DedicatedWorkerGlobalScope;

use super::messages::{result_to_js, simulated, Reply, Request, Task, Update};
use super::worker_thread::{self, Spawned};
use crate::browser::profile;
use engine::result_wire as wire;

/// The estimated page time (`engine::cost::estimate`) from which a run is
/// shared with the helper, ms. Above [`super::sim_worker`]'s brief limit,
/// so no preset is split and a preset's answer is the result the site
/// ships, byte for byte; below it, splitting would save less than the
/// second piece costs to post and read.
pub(crate) const SPLIT_FROM_MS: f64 = 30.0;

// Every preset's run is brief enough (sim_worker's tests), so none is split.
const _: () = assert!(SPLIT_FROM_MS > super::sim_worker::BRIEF_PAGE_MS);

/// The worker's side: its helper, and the run they share.
struct Worker {
    /// A run worth sharing ran alone: start the helper once it is answered.
    helper_wanted: bool,
    helper: Option<Spawned>,
    helper_ready: bool,
    /// The helper failed to start or stopped: run in one thread from now on.
    helper_failed: bool,
    shared: Option<SharedRun>,
}

/// A run this worker shares with its helper.
struct SharedRun {
    id: Option<u64>,
    started: f64,
    /// This worker's half, until it has run to the end.
    group: Option<VariantGroup>,
    settled: Vec<Settled>,
    /// This worker's half, run and encoded, until the helper's arrives:
    /// the result and lists to post, and their buffers.
    done: Option<(Uint8Array, Array, Array)>,
}

thread_local! {
    static WORKER: RefCell<Worker> = const {
        RefCell::new(Worker {
            helper_wanted: false,
            helper: None,
            helper_ready: false,
            helper_failed: false,
            shared: None,
        })
    };
    /// The helper's side: its half of the run it was given, settled.
    static PART: RefCell<Option<(Option<u64>, VariantGroup)>> = const { RefCell::new(None) };
}

/// True when this machine has a second core for a helper to use.
fn two_cores() -> bool {
    let navigator = Reflect::get(&js_sys::global(), &JsValue::from_str("navigator"))
        .unwrap_or(JsValue::UNDEFINED);
    Reflect::get(&navigator, &JsValue::from_str("hardwareConcurrency"))
        .ok()
        .and_then(|n| n.as_f64())
        .is_some_and(|n| n >= 2.0)
}

/// Whether a run of `scenario`, estimated at `cost`, is shared with the
/// helper. The first run worth sharing runs alone, and the helper starts
/// once it is answered ([`start_helper_if_wanted`]).
pub(crate) fn shares(scenario: &Scenario, cost: &CostEstimate) -> bool {
    if cost.page_ms < SPLIT_FROM_MS || scenario.variant_labels().len() < 2 {
        return false;
    }
    WORKER.with(|w| {
        let mut w = w.borrow_mut();
        if w.helper_failed || !two_cores() {
            return false;
        }
        if w.helper.is_none() {
            w.helper_wanted = true;
            return false;
        }
        w.helper_ready
    })
}

/// Starts the helper if a run wanted it: after that run is answered, so
/// that the helper's start (a thread, the module instantiated) does not
/// slow the run down on a machine with two cores.
pub(crate) fn start_helper_if_wanted() {
    WORKER.with(|w| {
        let mut w = w.borrow_mut();
        if std::mem::take(&mut w.helper_wanted) && w.helper.is_none() {
            w.helper = worker_thread::spawn(0, on_helper_message, on_helper_error);
            w.helper_failed = w.helper.is_none();
        }
    })
}

/// Starts a shared run of `task` (its scenario already read as `scenario`):
/// the helper gets the second half of the variants, this worker settles the
/// first half, posting progress with `notify`. The answer follows when the
/// helper has settled its half ([`on_helper_message`]).
pub(crate) fn start(
    id: Option<u64>,
    task: Task,
    scenario: &Scenario,
    started: f64,
    mut notify: impl FnMut(Update),
) {
    // Forming a group is work (each variant forms its own): count, don't build.
    let first = scenario.variant_labels().len().div_ceil(2);
    let part = Request {
        id: id.unwrap_or(0),
        task: Task::Part {
            task: Box::new(task),
            first: first as u32,
        },
    };
    let posted = WORKER.with(|w| {
        let w = w.borrow();
        let helper = w.helper.as_ref()?;
        let message = part.to_js().ok()?;
        helper.worker.post_message(&message).ok()
    });
    if posted.is_none() {
        return post_page(&Reply::Failed {
            id,
            message: "The simulator could not hand half of this run to its helper.".to_string(),
        });
    }
    let mut group = VariantGroup::new(scenario, 0..first);
    let mut last_post = started;
    let settled = group.settle(&mut |progress| {
        let now = profile::now();
        if now - last_post >= super::sim_worker::PROGRESS_INTERVAL_MS {
            last_post = now;
            notify(Update::Progress {
                id,
                summary: progress.summary(),
            });
        }
        ControlFlow::Continue(())
    });
    let settled = settled.unwrap_or_default();
    WORKER.with(|w| {
        w.borrow_mut().shared = Some(SharedRun {
            id,
            started,
            group: Some(group),
            settled,
            done: None,
        })
    });
}

/// The helper's messages to this worker.
fn on_helper_message(data: JsValue) {
    let Some(reply) = Reply::settled_from_js(&data).or_else(|| Reply::from_js(data).ok()) else {
        return;
    };
    if matches!(reply, Reply::Ready) {
        WORKER.with(|w| w.borrow_mut().helper_ready = true);
        return;
    }
    let current = WORKER.with(|w| {
        w.borrow()
            .shared
            .as_ref()
            .is_some_and(|s| s.id == reply.id())
    });
    if !current {
        return;
    }
    match reply {
        Reply::Settled { settled, .. } => finish_own_half(settled),
        Reply::Simulated { result, lists, .. } => {
            let Some(run) = WORKER.with(|w| w.borrow_mut().shared.take()) else {
                return;
            };
            let Some((own, own_lists, transfer)) = run.done else {
                return post_page(&Reply::Failed {
                    id: run.id,
                    message: "The simulator's helper answered before it was told the end."
                        .to_string(),
                });
            };
            transfer.push(&result.buffer());
            for list in lists.iter() {
                if let Some(list) = list.dyn_ref::<Uint32Array>() {
                    transfer.push(&list.buffer());
                }
            }
            let piece = Object::new();
            let _ = Reflect::set(&piece, &JsValue::from_str("result"), &result);
            let _ = Reflect::set(&piece, &JsValue::from_str("lists"), &lists);
            let reply = Reply::Simulated {
                id: run.id,
                result: own,
                lists: own_lists,
                more: Array::of1(&piece),
                elapsed_ms: profile::now() - run.started,
            };
            post_page_with(&reply, &transfer);
        }
        Reply::Failed { id, message } => {
            WORKER.with(|w| w.borrow_mut().shared = None);
            post_page(&Reply::Failed { id, message });
        }
        Reply::Ready | Reply::Opened { .. } | Reply::Refused { .. } => {}
    }
}

/// The helper has settled its half: the end from both halves goes to the
/// helper, and this worker runs its own half to it.
fn finish_own_half(helper_settled: Vec<Settled>) {
    let Some((id, group, mut settled)) = WORKER.with(|w| {
        let mut w = w.borrow_mut();
        let run = w.shared.as_mut()?;
        Some((run.id, run.group.take()?, std::mem::take(&mut run.settled)))
    }) else {
        return;
    };
    // Runs in the helper's message handler: a panic here reports this request.
    super::sim_worker::set_current(id);
    settled.extend(helper_settled);
    let end_ms = group.end(&settled);
    let finish = Request {
        id: id.unwrap_or(0),
        task: Task::Finish { end_ms },
    };
    WORKER.with(|w| {
        if let (Some(helper), Ok(message)) = (&w.borrow().helper, finish.to_js()) {
            let _ = helper.worker.post_message(&message);
        }
    });
    let variants = group
        .finish(end_ms, &mut |_| ControlFlow::Continue(()))
        .unwrap_or_default();
    let wire = wire::encode(RunResult { variants });
    let done = result_to_js(&wire.bytes, &wire.lists);
    WORKER.with(|w| {
        if let Some(run) = w.borrow_mut().shared.as_mut() {
            run.done = Some(done);
        }
    });
    super::sim_worker::set_current(None);
}

/// The helper could not start, or stopped: the run it shared fails (the
/// page can run it again), and later runs stay in one thread.
fn on_helper_error(message: String) {
    let run = WORKER.with(|w| {
        let mut w = w.borrow_mut();
        w.helper = None;
        w.helper_ready = false;
        w.helper_failed = true;
        w.shared.take()
    });
    if let Some(run) = run {
        post_page(&Reply::Failed {
            id: run.id,
            message: format!("The simulator's helper stopped: {message}"),
        });
    }
}

/// The helper's side of [`Task::Part`] and [`Task::Finish`].
pub(crate) fn answer_part(
    id: Option<u64>,
    task: Task,
    started: f64,
    mut send: impl FnMut(Reply, Array),
) {
    match task {
        Task::Part { first, .. } => {
            let scenario = match super::sim_worker::scenario_of(&task) {
                Ok(scenario) => scenario,
                Err(message) => return send(Reply::Failed { id, message }, Array::new()),
            };
            let mut group = VariantGroup::new(&scenario, first as usize..usize::MAX);
            let settled = group
                .settle(&mut |_| ControlFlow::Continue(()))
                .unwrap_or_default();
            PART.with(|p| *p.borrow_mut() = Some((id, group)));
            send(Reply::Settled { id, settled }, Array::new());
        }
        Task::Finish { end_ms } => {
            let part = PART.with(|p| p.borrow_mut().take());
            let Some((_, group)) = part.filter(|(part_id, _)| *part_id == id) else {
                let message = "The simulator's helper has no part of this run.".to_string();
                return send(Reply::Failed { id, message }, Array::new());
            };
            let variants = group
                .finish(end_ms, &mut |_| ControlFlow::Continue(()))
                .unwrap_or_default();
            let (reply, transfer) = simulated(id, RunResult { variants }, profile::now() - started);
            send(reply, transfer);
        }
        _ => {}
    }
}

fn post_page(reply: &Reply) {
    post_page_with(reply, &Array::new());
}

fn post_page_with(reply: &Reply, transfer: &Array) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    super::sim_worker::post(&scope, reply, transfer);
}
