//! A pool of simulator Web Workers for a sweep: each point is an ordinary
//! [`Task::Simulate`] request to the same worker the comparison uses
//! ([`super::sim_worker`]; the simulator module gains nothing), answered
//! with the usual binary result, which the page decodes ([`super::wire`])
//! and reduces to the point's headline figures
//! ([`engine::sweep::point_result`], as the CLI does). Points go to
//! whichever worker is free (two at a time, so none waits for the page), and
//! results stream in as they finish, a few milliseconds' worth at a time.
//!
//! The pool has `navigator.hardwareConcurrency − 1` workers (the page
//! keeps a core), at most [`MAX_WORKERS`] and at least one. Cancelling
//! terminates them (a running simulation cannot be interrupted); the next
//! run starts fresh ones.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

use engine::scenario::FamilyKind;
use engine::sweep::{point_result, PointResult, SweepPoint};
use gloo::timers::callback::Timeout;
use wasm_bindgen::JsValue;
use yew::Callback;

use super::messages::{pieces_from_js, Reply, Request, Task};
use super::worker_thread::{self, Spawned};
use engine::result_wire as wire;

/// Most workers a sweep uses.
pub const MAX_WORKERS: usize = 4;
/// Points posted to a worker at once: the next is already there when one
/// finishes, so a worker does not wait for the page to read its answer.
const IN_FLIGHT: usize = 2;
/// Points that finish within this long reach the page together (one
/// redraw of the plot, not one per point).
const BATCH_MS: u32 = 30;

/// What the pool reports.
#[derive(Clone, Debug)]
pub enum PoolEvent {
    /// A point of run `run` finished.
    Point(u64, PointResult),
    /// A point of run `run` failed: its value and why.
    Failed(u64, u64, String),
}

/// The pool's size for this browser.
pub fn pool_size() -> usize {
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(2.0) as usize;
    cores.saturating_sub(1).clamp(1, MAX_WORKERS)
}

/// One point to simulate.
struct Job {
    value: u64,
    request: Request,
}

/// A live worker (dropping it terminates the worker) and what it is doing.
struct Slot {
    worker: Spawned,
    ready: bool,
    /// The jobs posted to it, oldest first: request id and value.
    busy: Vec<(u64, u64)>,
}

struct Inner {
    slots: Vec<Option<Slot>>,
    queue: VecDeque<Job>,
    run: u64,
    family: FamilyKind,
    next_request: u64,
    on_event: Callback<PoolEvent>,
    /// Answers not yet reported, and the timer that will report them.
    pending: Vec<PoolEvent>,
    flush: Option<Timeout>,
}

/// Handle to a sweep's workers; cheap to clone. Dropping the last handle
/// terminates them.
#[derive(Clone)]
pub struct SweepPool(Rc<RefCell<Inner>>);

impl PartialEq for SweepPool {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl SweepPool {
    /// A pool that reports to `on_event`; its workers start loading now, so
    /// the first run does not wait for them.
    pub fn new(on_event: Callback<PoolEvent>) -> Self {
        let pool = SweepPool(Rc::new(RefCell::new(Inner {
            slots: Vec::new(),
            queue: VecDeque::new(),
            run: 0,
            family: FamilyKind::Connect,
            next_request: 0,
            on_event,
            pending: Vec::new(),
            flush: None,
        })));
        pool.fill();
        pool
    }

    /// Runs `points` as run `run`, dropping whatever ran before.
    pub fn start(&self, run: u64, family: FamilyKind, points: &[SweepPoint]) {
        {
            let mut inner = self.0.borrow_mut();
            // Busy workers simulate an older run: stop them.
            for slot in inner.slots.iter_mut() {
                if slot.as_ref().is_some_and(|s| !s.busy.is_empty()) {
                    *slot = None;
                }
            }
            inner.run = run;
            inner.family = family;
            inner.pending.clear();
            inner.flush = None;
            let mut next = inner.next_request;
            inner.queue = points
                .iter()
                .map(|p| {
                    next += 1;
                    Job {
                        value: p.value,
                        request: Request {
                            id: next,
                            task: Task::Simulate {
                                scenario: p.scenario.to_json().into(),
                            },
                        },
                    }
                })
                .collect();
            inner.next_request = next;
        }
        self.fill();
        self.feed();
    }

    /// Stops the run: terminates every worker (the next run starts new ones).
    pub fn cancel(&self) {
        let mut inner = self.0.borrow_mut();
        inner.queue.clear();
        inner.slots.clear();
        inner.pending.clear();
        inner.flush = None;
    }

    /// Starts workers up to the pool's size.
    fn fill(&self) {
        let size = pool_size();
        let weak = Rc::downgrade(&self.0);
        let mut inner = self.0.borrow_mut();
        inner.slots.resize_with(size, || None);
        for (i, slot) in inner.slots.iter_mut().enumerate() {
            if slot.is_none() {
                *slot = spawn(weak.clone(), i);
            }
        }
    }

    /// Gives each ready, idle worker a job.
    fn feed(&self) {
        let mut inner = self.0.borrow_mut();
        let Inner { slots, queue, .. } = &mut *inner;
        for slot in slots.iter_mut().flatten() {
            while slot.ready && slot.busy.len() < IN_FLIGHT {
                let Some(job) = queue.pop_front() else { return };
                let posted = job
                    .request
                    .to_js()
                    .is_ok_and(|m| slot.worker.worker.post_message(&m).is_ok());
                if posted {
                    slot.busy.push((job.request.id, job.value));
                } else {
                    queue.push_front(job);
                    return;
                }
            }
        }
    }

    fn on_message(&self, index: usize, data: JsValue) {
        let Ok(reply) = Reply::from_js(data) else {
            return;
        };
        let event = {
            let mut inner = self.0.borrow_mut();
            let (run, family) = (inner.run, inner.family);
            let Some(Some(slot)) = inner.slots.get_mut(index) else {
                return;
            };
            // The job this reply answers (a reply to anything else is dropped).
            let answered = slot
                .busy
                .iter()
                .position(|(busy, _)| Some(*busy) == reply.id())
                .map(|i| slot.busy.remove(i));
            match reply {
                Reply::Ready => {
                    slot.ready = true;
                    None
                }
                Reply::Simulated {
                    result,
                    lists,
                    more,
                    ..
                } => answered.map(|(_, value)| {
                    match wire::decode_pieces(pieces_from_js(&result, &lists, &more)) {
                        Ok(r) => PoolEvent::Point(run, point_result(value, family, r)),
                        Err(e) => PoolEvent::Failed(run, value, e),
                    }
                }),
                Reply::Failed { message, .. } => {
                    answered.map(|(_, value)| PoolEvent::Failed(run, value, message))
                }
                Reply::Opened { .. } | Reply::Refused { .. } | Reply::Settled { .. } => None,
            }
        };
        self.feed();
        if let Some(event) = event {
            self.report(event);
        }
    }

    /// Queues `event` for the page; the first of a batch starts the timer.
    fn report(&self, event: PoolEvent) {
        let mut inner = self.0.borrow_mut();
        inner.pending.push(event);
        if inner.flush.is_none() {
            let weak = Rc::downgrade(&self.0);
            inner.flush = Some(Timeout::new(BATCH_MS, move || {
                let Some(rc) = weak.upgrade() else { return };
                let (events, on_event) = {
                    let mut inner = rc.borrow_mut();
                    inner.flush = None;
                    (std::mem::take(&mut inner.pending), inner.on_event.clone())
                };
                for event in events {
                    on_event.emit(event);
                }
            }));
        }
    }

    fn on_error(&self, index: usize, message: String) {
        let (events, respawn) = {
            let mut inner = self.0.borrow_mut();
            let run = inner.run;
            let Some(slot) = inner.slots.get_mut(index) else {
                return;
            };
            let busy = slot.as_ref().map(|s| s.busy.clone()).unwrap_or_default();
            let started = slot.as_ref().is_some_and(|s| s.ready);
            *slot = None;
            let mut events: Vec<PoolEvent> = busy
                .into_iter()
                .map(|(_, value)| {
                    PoolEvent::Failed(run, value, format!("The simulator stopped: {message}"))
                })
                .collect();
            // No worker can start here: every point left fails, with the reason.
            if inner.slots.iter().all(Option::is_none) && !started {
                events.extend(inner.queue.drain(..).map(|job| {
                    PoolEvent::Failed(
                        run,
                        job.value,
                        format!("Sweeps run in Web Workers, which could not start here: {message}"),
                    )
                }));
            }
            (events, started)
        };
        // A worker that died mid-run is replaced; one that never started is not.
        if respawn {
            self.fill();
            self.feed();
        }
        let on_event = self.0.borrow().on_event.clone();
        for event in events {
            on_event.emit(event);
        }
    }
}

/// Starts the worker of slot `index`, its messages and errors routed to the pool.
fn spawn(weak: Weak<RefCell<Inner>>, index: usize) -> Option<Slot> {
    let on_message = {
        let weak = weak.clone();
        move |data| {
            if let Some(rc) = weak.upgrade() {
                SweepPool(rc).on_message(index, data);
            }
        }
    };
    let on_error = move |message| {
        if let Some(rc) = weak.upgrade() {
            SweepPool(rc).on_error(index, message);
        }
    };
    // The serial tells the client's workers apart; the pool knows its own
    // by slot.
    let worker = worker_thread::spawn(index as u32, on_message, on_error)?;
    Some(Slot {
        worker,
        ready: false,
        busy: Vec::new(),
    })
}
