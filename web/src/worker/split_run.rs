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
use web_sys::js_sys::{self, Array, Reflect};
use web_sys::DedicatedWorkerGlobalScope;

use super::messages::{piece_to_js, simulated, Reply, Request, Task, Update};
use super::worker_thread::{self, Spawned};
use crate::browser::profile;

/// The estimated page time (`engine::cost::estimate`) from which a run is
/// shared with the helper, ms. Above [`super::sim_worker`]'s brief limit,
/// so no preset is split and a preset's answer is the result the site
/// ships, byte for byte; below it, splitting would save less than the
/// second piece costs to post and read.
pub(crate) const SPLIT_FROM_MS: f64 = 30.0;

// Every preset's run is brief enough (sim_worker's tests), so none is split.
const _: () = assert!(SPLIT_FROM_MS > super::sim_worker::BRIEF_PAGE_MS);

/// The worker's helper.
enum Helper {
    /// None yet, and no run has wanted one.
    None,
    /// A run worth sharing ran alone: start one once it is answered.
    Wanted,
    /// Started; not listening yet.
    Starting(Spawned),
    /// Listening.
    Ready(Spawned),
    /// It failed to start or stopped: runs stay in one thread from now on.
    Failed,
}

/// The worker's side: its helper, and the run they share.
struct Worker {
    helper: Helper,
    shared: Option<SharedRun>,
}

/// A run this worker shares with its helper.
struct SharedRun {
    id: Option<u64>,
    started: f64,
    stage: Stage,
}

/// Where this worker's half of a shared run is.
enum Stage {
    /// Settled; waiting for the helper's half to settle.
    Settled {
        group: VariantGroup,
        settled: Vec<Settled>,
    },
    /// Run to the end and encoded, as a reply to post with its buffers;
    /// waiting for the helper's half.
    Finished { reply: Reply, transfer: Array },
}

thread_local! {
    static WORKER: RefCell<Worker> = const {
        RefCell::new(Worker { helper: Helper::None, shared: None })
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
    if cost.page_ms < SPLIT_FROM_MS || scenario.variant_labels().len() < 2 || !two_cores() {
        return false;
    }
    WORKER.with(|w| {
        let helper = &mut w.borrow_mut().helper;
        if matches!(helper, Helper::None) {
            *helper = Helper::Wanted;
        }
        matches!(helper, Helper::Ready(_))
    })
}

/// Starts the helper if a run wanted it: after that run is answered, so
/// that the helper's start (a thread, the module instantiated) does not
/// slow the run down on a machine with two cores.
pub(crate) fn start_helper_if_wanted() {
    WORKER.with(|w| {
        let helper = &mut w.borrow_mut().helper;
        if matches!(helper, Helper::Wanted) {
            *helper = match worker_thread::spawn(0, on_helper_message, on_helper_error) {
                Some(spawned) => Helper::Starting(spawned),
                None => Helper::Failed,
            };
        }
    })
}

/// Posts `request` to the helper, if it listens.
fn post_helper(request: &Request) -> Option<()> {
    WORKER.with(|w| match &w.borrow().helper {
        Helper::Ready(helper) => helper.worker.post_message(&request.to_js().ok()?).ok(),
        _ => None,
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
    notify: impl FnMut(Update),
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
    if post_helper(&part).is_none() {
        return post_page(&Reply::Failed {
            id,
            message: "The simulator could not hand half of this run to its helper.".to_string(),
        });
    }
    let mut group = VariantGroup::new(scenario, 0..first);
    let mut post_progress = super::sim_worker::progress_poster(id, started, notify);
    let settled = group.settle(&mut |progress| {
        post_progress(&progress);
        ControlFlow::Continue(())
    });
    let stage = Stage::Settled {
        group,
        settled: settled.unwrap_or_default(),
    };
    WORKER.with(|w| {
        w.borrow_mut().shared = Some(SharedRun { id, started, stage });
    });
}

/// The helper's messages to this worker.
fn on_helper_message(data: JsValue) {
    let Some(reply) = Reply::settled_from_js(&data).or_else(|| Reply::from_js(data).ok()) else {
        return;
    };
    if matches!(reply, Reply::Ready) {
        WORKER.with(|w| {
            let helper = &mut w.borrow_mut().helper;
            if let Helper::Starting(spawned) = std::mem::replace(helper, Helper::None) {
                *helper = Helper::Ready(spawned);
            }
        });
        return;
    }
    // Only the shared run's messages count; its stage is taken while it is used.
    let Some(run) = WORKER.with(|w| {
        let mut w = w.borrow_mut();
        w.shared.take_if(|run| run.id == reply.id())
    }) else {
        return;
    };
    match (reply, run.stage) {
        (
            Reply::Settled { settled, .. },
            Stage::Settled {
                group,
                settled: own,
            },
        ) => {
            let stage = finish_own_half(run.id, group, own, settled);
            WORKER.with(|w| {
                w.borrow_mut().shared = Some(SharedRun { stage, ..run });
            });
        }
        (
            Reply::Simulated { result, lists, .. },
            Stage::Finished {
                mut reply,
                transfer,
            },
        ) => {
            if let Reply::Simulated {
                more, elapsed_ms, ..
            } = &mut reply
            {
                more.push(&piece_to_js(&result, &lists, &transfer));
                *elapsed_ms = profile::now() - run.started;
            }
            post_page_with(&reply, &transfer);
        }
        (Reply::Failed { id, message }, _) => post_page(&Reply::Failed { id, message }),
        _ => post_page(&Reply::Failed {
            id: run.id,
            message: "The simulator's helper answered out of turn.".to_string(),
        }),
    }
}

/// The helper has settled its half: the end from both halves goes to the
/// helper, and this worker runs its own half to it, encoded as the reply.
fn finish_own_half(
    id: Option<u64>,
    group: VariantGroup,
    mut settled: Vec<Settled>,
    helper_settled: Vec<Settled>,
) -> Stage {
    // Runs in the helper's message handler: a panic here reports this request.
    super::sim_worker::set_current(id);
    settled.extend(helper_settled);
    let end_ms = group.end(&settled);
    let _ = post_helper(&Request {
        id: id.unwrap_or(0),
        task: Task::Finish { end_ms },
    });
    let variants = group
        .finish(end_ms, &mut |_| ControlFlow::Continue(()))
        .unwrap_or_default();
    let (reply, transfer) = simulated(id, RunResult { variants }, 0.0);
    super::sim_worker::set_current(None);
    Stage::Finished { reply, transfer }
}

/// The helper could not start, or stopped: the run it shared fails (the
/// page can run it again), and later runs stay in one thread.
fn on_helper_error(message: String) {
    let run = WORKER.with(|w| {
        let mut w = w.borrow_mut();
        w.helper = Helper::Failed;
        w.shared.take()
    });
    if let Some(run) = run {
        post_page(&Reply::Failed {
            id: run.id,
            message: format!("The simulator's helper stopped: {message}"),
        });
    }
}

/// The helper's side of [`Task::Part`]: settles the variants of `task`'s
/// scenario from `first` on and keeps them for [`finish_part`].
pub(crate) fn settle_part(
    id: Option<u64>,
    task: &Task,
    first: u32,
    mut send: impl FnMut(Reply, Array),
) {
    let scenario = match super::sim_worker::scenario_of(task) {
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

/// The helper's side of [`Task::Finish`]: runs the kept variants to
/// `end_ms` and answers with them.
pub(crate) fn finish_part(
    id: Option<u64>,
    end_ms: u64,
    started: f64,
    mut send: impl FnMut(Reply, Array),
) {
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

fn post_page(reply: &Reply) {
    post_page_with(reply, &Array::new());
}

fn post_page_with(reply: &Reply, transfer: &Array) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    super::sim_worker::post(&scope, reply, transfer);
}
