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

use engine::cost::CostEstimate;
use engine::run::{Settled, VariantGroup};
use engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use web_sys::js_sys::{self, Array, Reflect};

use super::messages::{piece_to_js, simulated, Reply, Request, Task};
use super::sim_worker::{answered_now, post_to_page, post_update, Answered};
use super::slices;
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

/// Where this worker's half of a shared run is. Its half runs in slices
/// ([`super::slices`]), so the helper's answer can come before or after.
enum Stage {
    /// Settling; the helper's half's [`Settled`], if it came first.
    Settling { helper: Option<Vec<Settled>> },
    /// Settled; waiting for the helper's half to settle.
    Settled {
        group: Box<VariantGroup>,
        settled: Vec<Settled>,
    },
    /// Running to the end; the helper's [`Reply::Simulated`], if it came first.
    Finishing { helper: Option<Reply> },
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
/// first half in slices, posting progress. The answer follows when both
/// halves have run to their end ([`Answered::Later`]), or at once if the
/// helper cannot be asked.
pub(crate) fn start(id: Option<u64>, task: Task, scenario: &Scenario, started: f64) -> Answered {
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
        post_page(&Reply::Failed {
            id,
            message: "The simulator could not hand half of this run to its helper.".to_string(),
        });
        return Answered::Yes;
    }
    WORKER.with(|w| {
        w.borrow_mut().shared = Some(SharedRun {
            id,
            started,
            stage: Stage::Settling { helper: None },
        });
    });
    let group = VariantGroup::forming(scenario, 0..first);
    let progress = super::sim_worker::progress_poster(id, started, post_update);
    slices::settle(id, group, Box::new(progress), move |group, settled| {
        own_half_settled(id, group, settled)
    });
    Answered::Later
}

/// This worker's half of run `id` has settled: on to the end if the
/// helper's has too.
fn own_half_settled(id: Option<u64>, group: VariantGroup, settled: Vec<Settled>) {
    let Some(run) = take_shared(id) else { return };
    let stage = match run.stage {
        Stage::Settling {
            helper: Some(helper),
        } => return finish_own_half(run.id, run.started, group, settled, helper),
        _ => Stage::Settled {
            group: Box::new(group),
            settled,
        },
    };
    put_shared(SharedRun { stage, ..run });
}

/// The shared run, if it is run `id`, taken while it changes stage.
fn take_shared(id: Option<u64>) -> Option<SharedRun> {
    WORKER.with(|w| w.borrow_mut().shared.take_if(|run| run.id == id))
}

fn put_shared(run: SharedRun) {
    WORKER.with(|w| w.borrow_mut().shared = Some(run));
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
    let Some(run) = take_shared(reply.id()) else {
        return;
    };
    match (reply, run.stage) {
        (Reply::Settled { settled, .. }, Stage::Settling { helper: None }) => {
            put_shared(SharedRun {
                stage: Stage::Settling {
                    helper: Some(settled),
                },
                ..run
            })
        }
        (
            Reply::Settled { settled, .. },
            Stage::Settled {
                group,
                settled: own,
            },
        ) => finish_own_half(run.id, run.started, *group, own, settled),
        (reply @ Reply::Simulated { .. }, Stage::Finishing { helper: None }) => {
            put_shared(SharedRun {
                stage: Stage::Finishing {
                    helper: Some(reply),
                },
                ..run
            })
        }
        (helper @ Reply::Simulated { .. }, Stage::Finished { reply, transfer }) => {
            post_both_halves(run.started, reply, &transfer, &helper)
        }
        (Reply::Failed { id, message }, _) => post_page(&Reply::Failed { id, message }),
        _ => post_page(&Reply::Failed {
            id: run.id,
            message: "The simulator's helper answered out of turn.".to_string(),
        }),
    }
}

/// Both halves have settled: the end from both goes to the helper, and this
/// worker runs its own half to it in slices, then encodes it.
fn finish_own_half(
    id: Option<u64>,
    started: f64,
    group: VariantGroup,
    mut settled: Vec<Settled>,
    helper_settled: Vec<Settled>,
) {
    settled.extend(helper_settled);
    let end_ms = group.end(&settled);
    let _ = post_helper(&Request {
        id: id.unwrap_or(0),
        task: Task::Finish { end_ms },
    });
    put_shared(SharedRun {
        id,
        started,
        stage: Stage::Finishing { helper: None },
    });
    let ran = move |result| {
        let Some(run) = take_shared(id) else { return };
        let (reply, transfer) = simulated(id, result, 0.0);
        match run.stage {
            Stage::Finishing {
                helper: Some(helper),
            } => post_both_halves(run.started, reply, &transfer, &helper),
            _ => put_shared(SharedRun {
                stage: Stage::Finished { reply, transfer },
                ..run
            }),
        }
    };
    slices::finish(id, group, end_ms, slices::no_progress(), ran);
}

/// Posts the page this worker's half as `reply`, with the helper's half
/// (its [`Reply::Simulated`]) as a second piece.
fn post_both_halves(started: f64, mut reply: Reply, transfer: &Array, helper: &Reply) {
    if let (
        Reply::Simulated {
            more, elapsed_ms, ..
        },
        Reply::Simulated { result, lists, .. },
    ) = (&mut reply, helper)
    {
        more.push(&piece_to_js(result, lists, transfer));
        *elapsed_ms = profile::now() - started;
    }
    post_page_with(&reply, transfer);
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
/// scenario from `first` on in slices, answers how they settled, and keeps
/// them for [`finish_part`].
pub(crate) fn settle_part(
    id: Option<u64>,
    task: &Task,
    first: u32,
    mut send: impl FnMut(Reply, Array),
) -> Answered {
    let scenario = match super::sim_worker::scenario_of(task) {
        Ok(scenario) => scenario,
        Err(message) => {
            send(Reply::Failed { id, message }, Array::new());
            return Answered::Yes;
        }
    };
    let group = VariantGroup::forming(&scenario, first as usize..usize::MAX);
    slices::settle(id, group, slices::no_progress(), move |group, settled| {
        PART.with(|p| *p.borrow_mut() = Some((id, group)));
        post_page_with(&Reply::Settled { id, settled }, &Array::new());
    });
    Answered::Later
}

/// The helper's side of [`Task::Finish`]: runs the kept variants to
/// `end_ms` in slices and answers with them.
pub(crate) fn finish_part(
    id: Option<u64>,
    end_ms: u64,
    started: f64,
    mut send: impl FnMut(Reply, Array),
) -> Answered {
    let part = PART.with(|p| p.borrow_mut().take());
    let Some((_, group)) = part.filter(|(part_id, _)| *part_id == id) else {
        let message = "The simulator's helper has no part of this run.".to_string();
        send(Reply::Failed { id, message }, Array::new());
        return Answered::Yes;
    };
    slices::finish(id, group, end_ms, slices::no_progress(), move |result| {
        let (reply, transfer) = simulated(id, result, profile::now() - started);
        post_page_with(&reply, &transfer);
    });
    Answered::Later
}

fn post_page(reply: &Reply) {
    post_page_with(reply, &Array::new());
}

/// The last reply to a request (the shared run's to the page, the
/// helper's to its worker): the next waiting request is answered now.
fn post_page_with(reply: &Reply, transfer: &Array) {
    post_to_page(reply, transfer);
    answered_now();
}
