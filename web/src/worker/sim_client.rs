//! The page side of the simulator: sends each scenario to the Web Worker
//! ([`crate::worker::sim_worker`]) and hands back the newest result. The
//! messages are [`crate::worker::messages`]'s.
//!
//! * One worker serves every request (warm: its WebAssembly compiled and
//!   instantiated once). Its loader keeps what the page posts before the
//!   module listens (`web/rebalance-worker_loader.js`), so the first request
//!   goes out at once instead of after the worker's `ready`, which would
//!   wait behind the page's own start-up on the main thread. A request that arrives while it is busy with an
//!   older one supersedes it: the busy worker is terminated (its result
//!   would be stale anyway; it stops at the end of its current slice,
//!   `worker/slices.rs`) and a spare, started in the background
//!   after the first result, takes over at once instead of a cold worker.
//! * Results of superseded requests are dropped, here and in the reducer.
//! * Links' and files' scenarios are parsed there too ([`Job::Open`]): the
//!   page's module holds no scenario parser. The worker answers with the
//!   scenario ([`Answer::Opened`]) before it simulates it.
//! * A preset link's first request is answered by the result the site
//!   ships for it, when it arrives first ([`SimClient::prefetch`]); the
//!   worker runs the request after that result is drawn, and its answer
//!   checks it.
//! * The simulator is not part of the page's WebAssembly. Where no worker
//!   can run (a missing worker file, a strict CSP, no WebAssembly in
//!   workers), the page loads the simulator module on the main thread
//!   ([`crate::worker::sim_module`]) and simulates there after it has drawn its
//!   "simulating" state.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use gloo::timers::callback::Timeout;
use wasm_bindgen::prelude::*;
use yew::Callback;

use crate::browser::profile;
use crate::worker::answers::{
    read_replies, read_reply, read_update, Answer, Job, Opening, RanIn, SimOutcome, WorkerStatus,
};
use crate::worker::brief_sim::BriefSimulator;
use crate::worker::messages::{pieces_from_js, Reply, Request, ScenarioJson, Task, Update};
use crate::worker::shipped::{fetch_bytes, take_early_result, Shipped};
use crate::worker::worker_thread::{self, take_early_worker, Spawned};
use engine::result_wire as wire;

/// Handle to the simulator; cheap to clone.
#[derive(Clone)]
pub struct SimClient(Rc<RefCell<Inner>>);

impl PartialEq for SimClient {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

struct Inner {
    worker: Option<Spawned>,
    ready: bool,
    /// The request posted to a worker that has not said `ready` yet: if it
    /// never starts, the main thread runs it instead.
    unconfirmed: Option<Request>,
    /// A second worker, idle, to take over from a terminated busy one.
    spare: Option<Spawned>,
    spare_ready: bool,
    /// Tells workers apart in their message handlers.
    next_serial: u32,
    running: Option<u64>,
    /// The next job for the worker.
    queued: Option<Request>,
    /// The next job for the main thread.
    here: Option<Request>,
    latest: u64,
    started_at: f64,
    main_thread: bool,
    fallback: Option<Timeout>,
    on_done: Callback<SimOutcome>,
    on_status: Callback<WorkerStatus>,
    /// Busy workers terminated because a newer request arrived.
    superseded: u32,
    /// The site's result for the first request, if it ships one.
    shipped: Shipped,
    /// Answers brief requests on the main thread.
    brief: BriefSimulator,
}

/// What to do once the `RefCell` borrow is released: emitting while
/// borrowed could re-enter [`SimClient::request`] through Yew's scheduler.
enum After {
    Nothing,
    Emit(SimOutcome),
    /// A fresh result whose traces' parts are still to be read.
    Decode {
        id: u64,
        elapsed_ms: f64,
        ran_in: RanIn,
        /// When its reading began (`profile::now`).
        since: f64,
        decoding: wire::Decoding,
    },
    RunOnMainThread,
    Status(WorkerStatus),
}

impl SimClient {
    /// A client that reports every fresh result to `on_done` and the
    /// worker's status to `on_status`, and simulates brief requests with
    /// `brief` once the worker has answered. The worker starts loading now.
    pub(crate) fn new(
        on_done: Callback<SimOutcome>,
        on_status: Callback<WorkerStatus>,
        brief: BriefSimulator,
    ) -> Self {
        let client = SimClient(Rc::new(RefCell::new(Inner {
            worker: None,
            ready: false,
            unconfirmed: None,
            spare: None,
            spare_ready: false,
            next_serial: 0,
            running: None,
            queued: None,
            here: None,
            latest: 0,
            started_at: 0.0,
            main_thread: false,
            fallback: None,
            on_done,
            on_status,
            superseded: 0,
            shipped: Shipped::None,
            brief,
        })));
        let weak = Rc::downgrade(&client.0);
        // Adopt the worker `index.html` started while this module loaded.
        let status = match take_early_worker() {
            Some(early) => match early.error {
                Some(message) => {
                    early.worker.terminate();
                    gloo::console::warn!(format!(
                        "Simulating on the main thread; the worker did not start: {message}"
                    ));
                    None
                }
                None => {
                    let mut inner = client.0.borrow_mut();
                    let serial = inner.serial();
                    inner.worker = Some(worker_thread::attach(
                        early.worker,
                        serial,
                        on_message(weak.clone(), serial),
                        on_error(weak, serial),
                    ));
                    inner.ready = early.ready;
                    Some(if early.ready {
                        WorkerStatus::Ready
                    } else {
                        WorkerStatus::Starting
                    })
                }
            },
            None => {
                let serial = client.0.borrow_mut().serial();
                spawn(weak, serial).map(|spawned| {
                    client.0.borrow_mut().worker = Some(spawned);
                    WorkerStatus::Starting
                })
            }
        };
        let status = status.unwrap_or_else(|| {
            client.0.borrow_mut().main_thread = true;
            WorkerStatus::Unavailable
        });
        if status != WorkerStatus::Starting {
            let on_status = client.0.borrow().on_status.clone();
            on_status.emit(status);
        }
        client
    }

    /// Runs `job` as request `id`, superseding every earlier request; when
    /// `confirmed`, the simulator runs it even if it is far above the
    /// interactive range (the user said "Run it").
    pub fn request(&self, id: u64, job: &Job, confirmed: bool) {
        let task = match job {
            Job::Simulate(scenario) => Task::Simulate {
                scenario: ScenarioJson::of(scenario.clone()),
            },
            Job::Open(opening) => match &**opening {
                Opening::Link { json } => Task::OpenLink { json: json.clone() },
                Opening::File { name, text } => Task::OpenFile {
                    name: name.clone(),
                    text: text.clone(),
                },
            },
        };
        let task = if confirmed {
            Task::Confirmed(Box::new(task))
        } else {
            task
        };
        let simulates = matches!(task, Task::Simulate { .. });
        let job = Request { id, task };
        let brief = {
            let mut inner = self.0.borrow_mut();
            inner.latest = id;
            inner.started_at = profile::now();
            inner.queued = None;
            inner.here = None;
            // A shipped result is on screen and the worker is simulating its
            // scenario (warming up): let it finish rather than start cold.
            let warming = inner.shipped.shown_for(inner.running);
            // Unless its shipped result is on its way (the worker gets the
            // request once that is drawn: SimClient::prefetch), a shipped
            // result is an older request's.
            if !inner.shipped.fetching(id) {
                inner.shipped = Shipped::None;
            }
            if inner.running.is_some() && inner.ready && !warming {
                // Busy with a stale scenario: stop it rather than wait for
                // it, and hand over to the spare. (A worker still starting
                // has not begun it: it answers it, dropped as stale, and then
                // the newer one, rather than start cold.)
                inner.worker = inner.spare.take();
                inner.ready = std::mem::take(&mut inner.spare_ready);
                inner.running = None;
                inner.superseded += 1;
            }
            if simulates {
                inner.brief.offer_warm_up(&job);
            }
            (simulates && !inner.main_thread).then(|| inner.brief.clone())
        };
        if let Some(answers) = brief.and_then(|brief| brief.answer(&job)) {
            let started = self.0.borrow().started_at;
            for answer in answers {
                self.emit_now(SimOutcome {
                    id,
                    answer,
                    elapsed_ms: profile::now() - started,
                    ran_in: RanIn::Inline,
                });
            }
            return;
        }
        let run_here = {
            let mut inner = self.0.borrow_mut();
            if !inner.main_thread && inner.worker.is_none() {
                let serial = inner.serial();
                match spawn(Rc::downgrade(&self.0), serial) {
                    Some(w) => inner.worker = Some(w),
                    None => inner.main_thread = true,
                }
            }
            if inner.main_thread {
                inner.here = Some(job);
                true
            } else {
                inner.queued = Some(job);
                post_queued(&mut inner);
                false
            }
        };
        if run_here {
            self.run_on_main_thread();
        }
    }

    /// Hands a brief simulation's answer to the page at once, in the task
    /// of the edit that asked for it, so that both are drawn in one frame.
    fn emit_now(&self, outcome: SimOutcome) {
        prepare(&outcome.answer);
        let on_done = self.0.borrow().on_done.clone();
        on_done.emit(outcome);
    }

    /// Takes `index.html`'s fetch of the site's own result for request `id`
    /// from `url` (a preset's, computed when the site was built: `rebalance
    /// presets --results`), if it started one, and answers with it if the
    /// simulator has not answered yet: a cold simulator answers its first
    /// request 100 ms or more after the page's first render (issue #13).
    /// Call it before [`Self::request`] of `id`: the worker gets that
    /// request once the shipped result is drawn (or at once if it cannot be
    /// read), so that the first edit finds it warm, and its answer checks
    /// the one shown: the same bytes are dropped; other bytes (a stale
    /// cached file) replace it.
    pub fn prefetch(&self, id: u64, url: &str) {
        let Some(fetched) = take_early_result(url) else {
            return;
        };
        self.0.borrow_mut().shipped = Shipped::Fetching(id);
        let weak = self.weak();
        wasm_bindgen_futures::spawn_local(async move {
            let file = fetch_bytes(fetched).await;
            if let Some(rc) = weak.upgrade() {
                SimClient(rc).on_shipped(id, file);
            }
        });
    }

    /// Posts request `id`, held while its shipped result was fetched and
    /// drawn, after the frame that draws it: the cold simulator's first run
    /// (its functions compiled as they are first called) would otherwise
    /// take one of the two cores from that frame.
    fn post_after_frame(&self, id: u64) {
        let weak = self.weak();
        crate::browser::frame::after_next_frame(POST_AT_THE_LATEST_MS, move || {
            if let Some(rc) = weak.upgrade() {
                let mut inner = rc.borrow_mut();
                if inner.shipped.drawn(id) {
                    post_queued(&mut inner);
                }
            }
        });
    }

    fn on_shipped(&self, id: u64, file: Option<Vec<u8>>) {
        let after = {
            let mut inner = self.0.borrow_mut();
            // Answered by the simulator meanwhile, or superseded.
            if !inner.shipped.fetching(id) || inner.latest != id {
                return;
            }
            match inner.shipped.read(id, file) {
                Ok(result) => After::Emit(SimOutcome {
                    id,
                    answer: Answer::Simulated(Ok(Rc::new(result))),
                    elapsed_ms: profile::now() - inner.started_at,
                    ran_in: RanIn::SiteBuild,
                }),
                // The simulator answers instead.
                Err(message) => {
                    gloo::console::warn!(format!(
                        "Not using the site's precomputed result for this preset: {message}."
                    ));
                    post_queued(&mut inner);
                    After::Nothing
                }
            }
        };
        self.finish(after);
    }

    /// Stops the running simulation (the user pressed Cancel): the busy
    /// worker is terminated, as when a newer request supersedes it, and the
    /// spare (or a fresh worker) waits for the next request. Nothing is
    /// answered for the cancelled request. On the main thread a running
    /// simulation cannot be stopped; its answer is dropped by the reducer.
    pub fn cancel(&self) {
        let mut inner = self.0.borrow_mut();
        inner.queued = None;
        if inner.running.take().is_none() {
            return;
        }
        inner.worker = inner.spare.take();
        inner.ready = std::mem::take(&mut inner.spare_ready);
        inner.unconfirmed = None;
        if !inner.main_thread && inner.worker.is_none() {
            let serial = inner.serial();
            inner.worker = spawn(Rc::downgrade(&self.0), serial);
        }
    }

    fn weak(&self) -> Weak<RefCell<Inner>> {
        Rc::downgrade(&self.0)
    }

    /// How many busy simulations newer requests have cut short.
    pub fn superseded(&self) -> u32 {
        self.0.borrow().superseded
    }

    /// Runs the queued request on the main thread, after the page has painted.
    fn run_on_main_thread(&self) {
        let weak = Rc::downgrade(&self.0);
        let timeout = Timeout::new(0, move || {
            wasm_bindgen_futures::spawn_local(async move {
                let simulator = crate::worker::sim_module::load().await;
                let Some(rc) = weak.upgrade() else { return };
                let (job, started) = {
                    let mut inner = rc.borrow_mut();
                    (inner.here.take(), inner.started_at)
                };
                // A newer request took this one's place while the module loaded.
                let Some(job) = job else { return };
                // The site's own result answers it: no check on the main thread
                // (a long task for nothing new), but a simulator that cannot
                // load is still said.
                let shipped = std::mem::take(&mut rc.borrow_mut().shipped);
                if shipped.shown_for(Some(job.id)) && simulator.is_ok() {
                    return;
                }
                let replies = simulator.and_then(|bindings| {
                    let request = job.to_js()?;
                    crate::worker::sim_module::call(&bindings, "answerForPage", &request).map_err(
                        |e| {
                            format!(
                                "The simulator failed: {}",
                                e.as_string().unwrap_or_default()
                            )
                        },
                    )
                });
                let answers: Vec<Answer> = match replies {
                    Ok(list) => read_replies(&list),
                    Err(message) => vec![Answer::Simulated(Err(message))],
                };
                let client = SimClient(rc);
                for answer in answers {
                    client.finish(After::Emit(SimOutcome {
                        id: job.id,
                        answer,
                        elapsed_ms: profile::now() - started,
                        ran_in: RanIn::MainThread,
                    }));
                }
            });
        });
        self.0.borrow_mut().fallback = Some(timeout);
    }

    fn on_message(&self, serial: u32, data: JsValue) {
        if let Some(update) = Update::from_js(&data) {
            return self.on_update(serial, update);
        }
        // Not one of the worker's replies: nothing to do.
        let Ok(reply) = Reply::from_js(data) else {
            return;
        };
        if !matches!(reply, Reply::Ready) {
            let brief = self.0.borrow().brief.clone();
            brief.worker_answered();
        }
        let after = {
            let mut inner = self.0.borrow_mut();
            if inner.spare.as_ref().is_some_and(|s| s.serial == serial) {
                inner.spare_ready |= matches!(reply, Reply::Ready);
                return;
            }
            if inner.worker.as_ref().is_none_or(|w| w.serial != serial) {
                // A worker already let go of.
                return;
            }
            match reply {
                Reply::Ready => {
                    inner.ready = true;
                    inner.unconfirmed = None;
                    post_queued(&mut inner);
                    After::Status(WorkerStatus::Ready)
                }
                Reply::Opened { .. } => {
                    // The request goes on: its simulation follows.
                    if reply.id() == Some(inner.latest) && inner.running == reply.id() {
                        After::Emit(SimOutcome {
                            id: inner.latest,
                            answer: read_reply(reply),
                            elapsed_ms: profile::now() - inner.started_at,
                            ran_in: RanIn::Worker,
                        })
                    } else {
                        After::Nothing
                    }
                }
                // Only a worker's helper settles (`split_run`).
                Reply::Settled { .. } => After::Nothing,
                Reply::Refused { .. } | Reply::Simulated { .. } | Reply::Failed { .. } => {
                    // An answer to an older request posted before the
                    // worker started leaves the newer one running.
                    if reply.id().is_none() || reply.id() == inner.running {
                        inner.running = None;
                    }
                    let fresh = reply.id() == Some(inner.latest) && !inner.shipped.settle(&reply);
                    let elapsed_ms = profile::now() - inner.started_at;
                    post_queued(&mut inner);
                    // A worker answers: start the spare now, off the
                    // first timeline's path, if there is none yet.
                    if inner.spare.is_none() {
                        let serial = inner.serial();
                        inner.spare = spawn(self.weak(), serial);
                        inner.spare_ready = false;
                    }
                    match reply {
                        _ if !fresh => After::Nothing,
                        Reply::Simulated {
                            result,
                            lists,
                            more,
                            ..
                        } => {
                            let since = profile::now();
                            let ran_in = if more.length() > 0 {
                                RanIn::Workers
                            } else {
                                RanIn::Worker
                            };
                            match profile::timed("decode result", || {
                                wire::Decoding::start_pieces(pieces_from_js(&result, &lists, &more))
                            }) {
                                Ok(decoding) => After::Decode {
                                    id: inner.latest,
                                    elapsed_ms,
                                    ran_in,
                                    since,
                                    decoding,
                                },
                                Err(message) => After::Emit(SimOutcome {
                                    id: inner.latest,
                                    answer: Answer::Simulated(Err(message)),
                                    elapsed_ms,
                                    ran_in: RanIn::Worker,
                                }),
                            }
                        }
                        reply => After::Emit(SimOutcome {
                            id: inner.latest,
                            answer: read_reply(reply),
                            elapsed_ms,
                            ran_in: RanIn::Worker,
                        }),
                    }
                }
            }
        };
        self.finish(after);
    }

    /// Progress of the running request, or the question that ends it.
    fn on_update(&self, serial: u32, update: Update) {
        let after = {
            let mut inner = self.0.borrow_mut();
            let (id, ends) = match &update {
                Update::Progress { id, .. } => (*id, false),
                Update::Expensive { id, .. } => (*id, true),
            };
            let current = inner.worker.as_ref().is_some_and(|w| w.serial == serial)
                && id == Some(inner.latest)
                && inner.running == id
                && !inner.shipped.shown_for(id);
            if !current {
                return;
            }
            if ends {
                inner.running = None;
                post_queued(&mut inner);
            }
            After::Emit(SimOutcome {
                id: inner.latest,
                answer: read_update(update),
                elapsed_ms: profile::now() - inner.started_at,
                ran_in: RanIn::Worker,
            })
        };
        self.finish(after);
    }

    fn on_error(&self, serial: u32, message: String) {
        let after = {
            let mut inner = self.0.borrow_mut();
            if inner.spare.as_ref().is_some_and(|s| s.serial == serial) {
                // The spare failed: do without it.
                inner.spare = None;
                inner.spare_ready = false;
                return;
            }
            if inner.worker.as_ref().is_none_or(|w| w.serial != serial) {
                return;
            }
            let was_ready = inner.ready;
            let running = inner.running.take();
            inner.worker = None;
            inner.ready = false;
            if !was_ready {
                // It never started (no worker file, no WebAssembly in workers …):
                // simulate here from now on.
                gloo::console::warn!(format!(
                    "Simulating on the main thread; the worker did not start: {message}"
                ));
                inner.main_thread = true;
                // The newest request: still queued, or posted and lost with the worker.
                inner.here = inner.queued.take().or(inner.unconfirmed.take());
                After::RunOnMainThread
            } else if running == Some(inner.latest) {
                After::Emit(SimOutcome {
                    id: inner.latest,
                    answer: Answer::Simulated(Err(format!(
                        "The simulator stopped unexpectedly: {message}"
                    ))),
                    elapsed_ms: profile::now() - inner.started_at,
                    ran_in: RanIn::Worker,
                })
            } else {
                After::Nothing
            }
        };
        self.finish(after);
    }

    fn finish(&self, after: After) {
        match after {
            After::Nothing => {}
            After::Emit(outcome) => {
                let on_done = self.0.borrow().on_done.clone();
                // A result is decoded in the message's task, counted in a
                // task of its own (state::newest) and drawn in a third:
                // together they made one long main-thread task of a big
                // result (issue #13: none over 50 ms). Every other answer
                // takes the same two tasks, so that answers reach the page
                // in the order they were given: a failure given after a
                // result must not reach the page before it.
                let client = self.clone();
                Timeout::new(0, move || {
                    prepare(&outcome.answer);
                    Timeout::new(0, move || {
                        let (id, shipped) = (outcome.id, outcome.ran_in == RanIn::SiteBuild);
                        on_done.emit(outcome);
                        if shipped {
                            client.post_after_frame(id);
                        }
                    })
                    .forget();
                })
                .forget();
            }
            After::Decode {
                id,
                elapsed_ms,
                ran_in,
                since,
                decoding,
            } => self.read_parts(id, elapsed_ms, ran_in, decoding, since),
            After::RunOnMainThread => {
                let on_status = self.0.borrow().on_status.clone();
                on_status.emit(WorkerStatus::Unavailable);
                self.run_on_main_thread();
            }
            After::Status(status) => {
                let on_status = self.0.borrow().on_status.clone();
                on_status.emit(status);
            }
        }
    }
}

/// A request held for its shipped result's frame is posted this long after
/// that result at the latest, ms.
const POST_AT_THE_LATEST_MS: u32 = 500;

/// How long one main-thread task goes on reading a result's parts.
const READ_FOR_MS: f64 = 8.0;

impl SimClient {
    /// Reads a result's parts until they are all read or [`READ_FOR_MS`]
    /// has passed since `since`, then hands the whole on, or goes on in a
    /// task of its own: a small result is read in the task its message came
    /// in, a big one over several (a storm's traces read in one go made one
    /// 45–55 ms main-thread task; issue #13). Each further task would cost a
    /// preset's edit a few milliseconds (nested timeouts wait at least
    /// 4 ms). A newer request makes the rest moot.
    fn read_parts(
        &self,
        id: u64,
        elapsed_ms: f64,
        ran_in: RanIn,
        mut decoding: wire::Decoding,
        since: f64,
    ) {
        let mut read = Ok(());
        while read.is_ok() && !decoding.done() && profile::now() < since + READ_FOR_MS {
            read = profile::timed("decode part", || decoding.step());
        }
        if read.is_ok() && !decoding.done() {
            let weak = self.weak();
            Timeout::new(0, move || {
                if let Some(rc) = weak.upgrade().filter(|rc| rc.borrow().latest == id) {
                    SimClient(rc).read_parts(id, elapsed_ms, ran_in, decoding, profile::now());
                }
            })
            .forget();
            return;
        }
        self.finish(After::Emit(SimOutcome {
            id,
            answer: Answer::Simulated(read.and_then(|()| decoding.finish()).map(Rc::new)),
            elapsed_ms,
            ran_in,
        }));
    }
}

/// Posts the queued request when the worker is idle; a worker that has not
/// said `ready` gets it too (its loader keeps it until the module listens),
/// one request at a time.
fn post_queued(inner: &mut Inner) {
    if inner.running.is_some() || inner.shipped.holds_request() {
        return;
    }
    let (Some(worker), Some(job)) = (&inner.worker, inner.queued.take()) else {
        return;
    };
    let posted = job
        .to_js()
        .is_ok_and(|message| worker.worker.post_message(&message).is_ok());
    if posted {
        inner.running = Some(job.id);
        if !inner.ready {
            inner.unconfirmed = Some(job);
        }
    }
}

impl Inner {
    /// A new worker's serial.
    fn serial(&mut self) -> u32 {
        self.next_serial += 1;
        self.next_serial
    }
}

/// Counts a result's series and lane heights for every part that draws it
/// (`state::newest`); nothing for any other answer.
fn prepare(answer: &Answer) {
    if let Answer::Simulated(Ok(result)) = answer {
        profile::timed("series and lane heights", || {
            crate::state::newest::prepare(result)
        });
    }
}

/// Starts a worker whose messages and errors go to the client.
fn spawn(weak: Weak<RefCell<Inner>>, serial: u32) -> Option<Spawned> {
    worker_thread::spawn(
        serial,
        on_message(weak.clone(), serial),
        on_error(weak, serial),
    )
}

/// A worker's messages, for the client behind `weak`.
fn on_message(weak: Weak<RefCell<Inner>>, serial: u32) -> impl FnMut(JsValue) {
    move |data| {
        if let Some(rc) = weak.upgrade() {
            SimClient(rc).on_message(serial, data);
        }
    }
}

/// A worker's errors, for the client behind `weak`.
fn on_error(weak: Weak<RefCell<Inner>>, serial: u32) -> impl FnMut(String) {
    move |message| {
        if let Some(rc) = weak.upgrade() {
            SimClient(rc).on_error(serial, message);
        }
    }
}
