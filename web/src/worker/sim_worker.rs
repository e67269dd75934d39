//! The Web Worker side of the simulator: it receives requests, parses what
//! the page cannot (a link's or a file's scenario JSON: the page's module
//! holds no scenario parser), runs the engine and posts the result back in
//! binary ([`super::wire`]). Running here keeps the page responsive while a
//! big scenario simulates. The messages are [`super::messages`]'s.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ops::ControlFlow;

use engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{self, Array, Uint8Array};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::messages::{simulated, Reply, Request, Task, Update};
use super::slices;
use super::split_run;
use crate::browser::{profile, share};

thread_local! {
    /// The request being simulated, so a panic can say which one failed.
    static CURRENT: Cell<Option<u64>> = const { Cell::new(None) };
    /// True while a request is being answered over several tasks (a run in
    /// slices, a run shared with the helper).
    static ANSWERING: Cell<bool> = const { Cell::new(false) };
    /// Requests that arrived meanwhile (a sweep posts a worker its next
    /// point before the last is answered), answered in order.
    static WAITING: RefCell<VecDeque<Request>> = const { RefCell::new(VecDeque::new()) };
}

/// Starts serving requests; called once by the worker binary.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    install_panic_report(scope.clone());
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        match Request::from_js(e.data()) {
            Ok(request) if ANSWERING.with(Cell::get) => {
                WAITING.with(|w| w.borrow_mut().push_back(request));
            }
            Ok(request) => serve_request(request),
            Err(e) => post_to_page(
                &Reply::Failed {
                    id: None,
                    message: format!("The simulator cannot read this request: {e}"),
                },
                &Array::new(),
            ),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker does.
    on_message.forget();
    post(&scope, &Reply::Ready, &Array::new());
}

/// Answers `request`, now or over several tasks (then [`answered_now`]
/// follows).
fn serve_request(request: Request) {
    set_current(Some(request.id));
    ANSWERING.with(|a| a.set(true));
    let send = |reply: Reply, transfer: Array| post_to_page(&reply, &transfer);
    let answered = answer(
        Some(request.id),
        request.task,
        Runner::Worker,
        send,
        post_update,
    );
    if answered != Answered::Later {
        answered_now();
    }
}

/// The request being answered over several tasks has had its last reply:
/// the next waiting request, if any, is answered now.
pub(crate) fn answered_now() {
    set_current(None);
    ANSWERING.with(|a| a.set(false));
    // After the answer, so that its start does not slow the run down.
    split_run::start_helper_if_wanted();
    if let Some(next) = WAITING.with(|w| w.borrow_mut().pop_front()) {
        serve_request(next);
    }
}

/// Posts `reply` to whoever started this worker (the page, or for a helper
/// its worker), moving the buffers in `transfer`.
pub(crate) fn post_to_page(reply: &Reply, transfer: &Array) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    post(&scope, reply, transfer);
}

/// Posts a progress report or a question to the page.
pub(crate) fn post_update(update: Update) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    if let Ok(message) = update.to_js() {
        let _ = scope.post_message(&message);
    }
}

/// The request being simulated, for a panic's report to name; `None` once
/// it is answered.
pub(crate) fn set_current(id: Option<u64>) {
    CURRENT.with(|c| c.set(id));
}

/// True when this module runs in a dedicated Web Worker (not on a page).
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

/// What the worker would post for a request (`{id, task}`), as an array of
/// JS values in order: the page's main-thread fallback (`answerForPage`)
/// reads them exactly as it reads the worker's replies. Nothing is
/// transferred on the main thread.
pub fn replies_here(request: JsValue) -> Result<JsValue, JsValue> {
    replies(request, Runner::Here)
}

/// [`replies_here`] for a scenario small enough to simulate in the page's
/// edit task ([`Runner::Brief`]), or `null` when it is not: the page sends
/// it to the worker instead (`answerBriefly`).
pub fn replies_brief(request: JsValue) -> Result<JsValue, JsValue> {
    replies(request, Runner::Brief)
}

fn replies(request: JsValue, runner: Runner) -> Result<JsValue, JsValue> {
    let request = Request::from_js(request).map_err(|e| JsValue::from_str(&e))?;
    let out = Array::new();
    let mut failed = None;
    let mut updates = Vec::new();
    let answered = answer(
        None,
        request.task,
        runner,
        |reply, _transfer| match reply.to_js() {
            Ok(value) => {
                out.push(&value);
            }
            Err(e) => failed = Some(e),
        },
        // The question comes last (after `Opened`), so it goes last.
        |update| updates.push(update),
    );
    if answered == Answered::GaveUp {
        return Ok(JsValue::NULL);
    }
    for update in updates {
        match update.to_js() {
            Ok(value) => {
                out.push(&value);
            }
            Err(e) => failed = Some(e),
        }
    }
    match failed {
        Some(e) => Err(JsValue::from_str(&e)),
        None => Ok(out.into()),
    }
}

/// Where and how a task is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Runner {
    /// In the Web Worker: progress is posted as the run goes, which runs in
    /// slices ([`slices`]) so that a terminated worker stops soon.
    Worker,
    /// On the main thread, where no worker could start: every reply at the
    /// end, so progress would say nothing.
    Here,
    /// On the main thread, in the task of the edit that asked for it, so
    /// that the edit and its result share one frame (issue #13). Only a
    /// plain simulation whose estimate is under [`BRIEF_PAGE_MS`], and it
    /// gives up once a variant has processed [`BRIEF_EVENTS`] events (the
    /// presets need under 270): a storm or a long run goes to the worker
    /// instead.
    Brief,
}

/// The events a variant of a [`Runner::Brief`] run may process before it
/// gives up.
const BRIEF_EVENTS: u64 = 4096;

/// Whether [`answer`] answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answered {
    Yes,
    /// A [`Runner::Worker`] task that goes on in later tasks (a run in
    /// slices, or shared with the helper): its last reply calls
    /// [`answered_now`].
    Later,
    /// A [`Runner::Brief`] task that is not brief: nothing was sent.
    GaveUp,
}

/// The estimated page time (`engine::cost::estimate`) under which a
/// scenario may be simulated in an edit's own task, ms. The estimate is
/// calibrated on large scenarios and is pessimistic for small ones: it
/// reads 0.01–11.6 ms for the presets and their edits (a worker or an
/// instance more), whose runs take 0.2–1.3 ms natively. What it keeps on
/// the worker is its accurate end, a few thousand workers and tasks, where
/// a run would hold the main thread as long as a worker's round trip and a
/// frame together.
pub(crate) const BRIEF_PAGE_MS: f64 = 20.0;

/// True when a scenario's estimate lets it run as a [`Runner::Brief`].
fn small_enough_for_brief(cost: &engine::cost::CostEstimate) -> bool {
    cost.page_ms <= BRIEF_PAGE_MS
}

/// Posts progress at most this often, ms of wall time.
const PROGRESS_INTERVAL_MS: f64 = 100.0;

/// Tells `notify` how far request `id`'s run (started at `started`) has
/// got, at most every [`PROGRESS_INTERVAL_MS`].
pub(crate) fn progress_poster(
    id: Option<u64>,
    started: f64,
    mut notify: impl FnMut(Update),
) -> impl FnMut(&engine::budget::RunProgress) {
    let mut last_post = started;
    move |progress| {
        let now = profile::now();
        if now - last_post >= PROGRESS_INTERVAL_MS {
            last_post = now;
            notify(Update::Progress {
                id,
                summary: progress.summary(),
            });
        }
    }
}

/// Answers one task: for an open, [`Reply::Opened`] (or [`Reply::Refused`])
/// first, so the page can show the scenario while it simulates; then the
/// simulation's [`Reply::Simulated`] (or [`Reply::Failed`]), with
/// [`Update::Progress`] on the way from a [`Runner::Worker`]. A scenario
/// far above the interactive range is not simulated unless the task is
/// [`Task::Confirmed`]: [`Update::Expensive`] says what it would cost, for
/// the page to ask. A [`Runner::Brief`] answers only a brief simulation.
fn answer(
    id: Option<u64>,
    task: Task,
    runner: Runner,
    mut send: impl FnMut(Reply, Array),
    mut notify: impl FnMut(Update),
) -> Answered {
    let started = profile::now();
    let (task, confirmed) = match task {
        Task::Confirmed(task) => (*task, true),
        task => (task, false),
    };
    let brief = runner == Runner::Brief;
    if brief && !matches!(task, Task::Simulate { .. }) {
        return Answered::GaveUp;
    }
    match task {
        Task::Part { task, first } => return split_run::settle_part(id, &task, first, send),
        Task::Finish { end_ms } => return split_run::finish_part(id, end_ms, started, send),
        _ => {}
    }
    let parsed = scenario_of(&task);
    let scenario = if matches!(task, Task::OpenLink { .. } | Task::OpenFile { .. }) {
        let Some(scenario) = open(id, parsed, &mut send) else {
            return Answered::Yes;
        };
        scenario
    } else {
        match parsed {
            Ok(scenario) => scenario,
            Err(message) => {
                send(Reply::Failed { id, message }, Array::new());
                return Answered::Yes;
            }
        }
    };
    let cost = engine::cost::estimate(&scenario);
    if brief && (confirmed || !small_enough_for_brief(&cost)) {
        return Answered::GaveUp;
    }
    if !confirmed && cost.class == engine::cost::CostClass::VeryLarge {
        let question = cost.question();
        notify(Update::Expensive { id, question });
        return Answered::Yes;
    }
    if runner == Runner::Worker {
        if split_run::shares(&scenario, &cost) {
            return split_run::start(id, task, &scenario, started);
        }
        run_in_slices(id, &scenario, started);
        return Answered::Later;
    }
    let result = engine::run::run_steered(&scenario, &mut |progress| {
        if brief && progress.events >= BRIEF_EVENTS {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    let Some(result) = result else {
        return Answered::GaveUp;
    };
    let (reply, transfer) = simulated(id, result, profile::now() - started);
    send(reply, transfer);
    Answered::Yes
}

/// A [`Runner::Worker`]'s run of `scenario` in one thread, in slices: its
/// variants settle, then run to their shared end; the result is posted to
/// the page, and the next waiting request answered ([`answered_now`]).
fn run_in_slices(id: Option<u64>, scenario: &Scenario, started: f64) {
    let group = engine::run::VariantGroup::forming(scenario, 0..usize::MAX);
    let progress = move || Box::new(progress_poster(id, started, post_update)) as slices::Progress;
    slices::settle(id, group, progress(), move |group, settled| {
        let end = group.end(&settled);
        slices::finish(id, group, end, progress(), move |result| {
            let (reply, transfer) = simulated(id, result, profile::now() - started);
            post_to_page(&reply, &transfer);
            answered_now();
        });
    });
}

/// The scenario a simulation, open or part asks for, or why there is none
/// (as the page shows it).
pub(crate) fn scenario_of(task: &Task) -> Result<Scenario, String> {
    match task {
        // The page already validated it, but the worker trusts nobody.
        Task::Simulate { scenario } => {
            Scenario::from_json(scenario.text()).map_err(|e| e.to_string())
        }
        Task::OpenLink { json } => engine::link::parse_scenario(json).map_err(|e| e.to_string()),
        Task::OpenFile { name, text } => share::parse_scenario_file(name, text),
        Task::Part { task, .. } => scenario_of(task),
        // Nested confirmations read as one.
        Task::Confirmed(_) => Err(
            "The simulator cannot read this request: a confirmation of a confirmation".to_string(),
        ),
        Task::Finish { .. } => {
            Err("The simulator cannot read this request: it names no scenario".to_string())
        }
    }
}

/// Tells the page what an open found: the scenario (then simulated), or why
/// there is none (and nothing to simulate).
fn open(
    id: Option<u64>,
    parsed: Result<Scenario, String>,
    send: &mut impl FnMut(Reply, Array),
) -> Option<Scenario> {
    match parsed {
        Ok(scenario) => {
            let bytes = Uint8Array::from(engine::binary::to_bytes(&scenario).as_slice());
            let transfer = Array::of1(&bytes.buffer());
            send(
                Reply::Opened {
                    id,
                    scenario: bytes,
                },
                transfer,
            );
            Some(scenario)
        }
        Err(message) => {
            send(Reply::Refused { id, message }, Array::new());
            None
        }
    }
}

/// Posts a reply, moving the buffers in `transfer`; a reply that cannot be
/// converted goes as a failure of the same request instead.
pub(crate) fn post(scope: &DedicatedWorkerGlobalScope, reply: &Reply, transfer: &Array) {
    match reply.to_js() {
        Ok(message) => {
            let _ = scope.post_message_with_transfer(&message, transfer);
        }
        Err(e) => {
            let failed = Reply::Failed {
                id: reply.id(),
                message: format!("The simulator could not send its answer: {e}"),
            };
            if let Ok(message) = failed.to_js() {
                let _ = scope.post_message(&message);
            }
        }
    }
}

/// A panic in the engine is a bug; tell the page which request hit it, so
/// it can show a message instead of waiting forever.
fn install_panic_report(scope: DedicatedWorkerGlobalScope) {
    std::panic::set_hook(Box::new(move |info| {
        let failed = Reply::Failed {
            id: CURRENT.with(Cell::get),
            message: format!(
                "The simulator stopped on this scenario (a bug in the engine): {info}"
            ),
        };
        post(&scope, &failed, &Array::new());
        // The run that panicked will not go on: the next request is served
        // at once, and the ones waiting behind it are told to ask again.
        ANSWERING.with(|a| a.set(false));
        let waiting = WAITING.with(|w| {
            w.try_borrow_mut()
                .map(|mut w| std::mem::take(&mut *w))
                .unwrap_or_default()
        });
        for request in waiting {
            let failed = Reply::Failed {
                id: Some(request.id),
                message: "The simulator stopped on an earlier scenario (a bug in the engine); run this one again.".to_string(),
            };
            post(&scope, &failed, &Array::new());
        }
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::scenario::Family;

    /// The presets, and each with a worker or an instance more (the edit
    /// the bench makes), are small enough; a big cluster is not.
    #[test]
    fn presets_and_their_edits_are_small_enough_for_a_brief_run() {
        for preset in engine::presets::all() {
            let mut scenario = preset.scenario();
            assert!(
                small_enough_for_brief(&engine::cost::estimate(&scenario)),
                "{}",
                preset.id
            );
            match &mut scenario.family {
                Family::Connect(c) => c.cluster.workers += 1,
                Family::Streams(s) => s.app.instances += 1,
            }
            assert!(
                small_enough_for_brief(&engine::cost::estimate(&scenario)),
                "{} edited",
                preset.id
            );
        }
        let big = Scenario::from_json(
            r#"{"version": 1, "title": "big", "seed": 1,
                "connect": {"workers": 300, "connectors": [{"name": "c", "tasks": 100, "count": 300}]},
                "events": [{"at_ms": 30000, "type": "worker_join"}]}"#,
        )
        .expect("a valid scenario");
        assert!(!small_enough_for_brief(&engine::cost::estimate(&big)));
        // The browser tests split this one between the worker and its helper.
        assert!(engine::cost::estimate(&big).page_ms >= split_run::SPLIT_FROM_MS);
    }
}
