//! A simulation run in slices of a few milliseconds, each in a task of its
//! own (issue #13: cancel superseded runs). A Web Worker's `terminate()`
//! does not stop the task it is running: Chromium lets it finish and only
//! then stops the worker (a worker terminated 30 ms into a 400 ms loop ran
//! all 400 ms; docs/performance.md, session 26). A big scenario's run in one
//! task therefore went on for hundreds of milliseconds after an edit had
//! superseded it, taking a core from the run that replaced it. In slices,
//! a terminated worker stops at the end of the current slice.
//!
//! The engine's [`VariantGroup`] goes on where it stopped
//! ([`VariantGroup::form`], [`VariantGroup::settle`],
//! [`VariantGroup::run_to`]), so a run in slices is the run in one go,
//! field for field; a group made with [`VariantGroup::forming`] forms its
//! variants in slices too. Between slices the worker posts
//! itself a message (a `MessageChannel`, which no timer clamp delays), so
//! that the page's messages, and the terminate, get their turn.
//!
//! One run slices at a time in a worker: [`super::sim_worker`] keeps the
//! requests that arrive meanwhile and answers them in order.

use std::cell::RefCell;
use std::ops::ControlFlow;

use engine::budget::RunProgress;
use engine::run::{RunResult, Settled, VariantGroup};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageChannel, MessagePort};

use crate::browser::profile;

/// How long a slice runs before it gives the thread back, ms. A slice ends
/// at the first observation after this: the engine observes a run every
/// `engine::budget::OBSERVE_EVERY` events and after it builds each variant
/// (in a 1,000 × 100,000 run, natively: most under 1 ms apart, 15–23 ms
/// across a heavy event, 20–36 ms to build a variant), so a superseded run
/// stops within a few tens of milliseconds.
const SLICE_MS: f64 = 8.0;

/// Told how far the run has got, at every observation.
pub(crate) type Progress = Box<dyn FnMut(&RunProgress)>;

/// A [`Progress`] that posts nothing (a helper's half, a run's end).
pub(crate) fn no_progress() -> Progress {
    Box::new(|_| {})
}

/// Where a group is to get to, and what is done with it there.
enum Goal {
    /// Every variant quiet ([`VariantGroup::settle`]): the group and how
    /// each variant settled go on.
    Settle(Box<dyn FnOnce(VariantGroup, Vec<Settled>)>),
    /// Every variant run to this end ([`VariantGroup::run_to`]) and closed:
    /// the result goes on.
    Finish(u64, Box<dyn FnOnce(RunResult)>),
}

/// A group on its way to its goal.
struct Slicing {
    /// The request it serves, for a panic's report.
    id: Option<u64>,
    group: VariantGroup,
    progress: Progress,
    goal: Goal,
}

/// The channel a slice posts the next one through: the port posted to,
/// the port listening, and its listener.
struct Channel {
    to: MessagePort,
    _from: MessagePort,
    _listener: Closure<dyn FnMut()>,
}

thread_local! {
    static CURRENT: RefCell<Option<Slicing>> = const { RefCell::new(None) };
    /// Made on the first slice that has a next one.
    static NEXT: RefCell<Option<Channel>> = const { RefCell::new(None) };
}

/// Settles `group` in slices, telling `progress` how far it has got, then
/// calls `then` with it and how its variants settled. The first slice
/// runs now.
pub(crate) fn settle(
    id: Option<u64>,
    group: VariantGroup,
    progress: Progress,
    then: impl FnOnce(VariantGroup, Vec<Settled>) + 'static,
) {
    start(id, group, progress, Goal::Settle(Box::new(then)));
}

/// Runs `group` to `end` in slices, telling `progress` how far it has
/// got, closes it and calls `then` with its variants' runs. The first
/// slice runs now.
pub(crate) fn finish(
    id: Option<u64>,
    group: VariantGroup,
    end: u64,
    progress: Progress,
    then: impl FnOnce(RunResult) + 'static,
) {
    start(id, group, progress, Goal::Finish(end, Box::new(then)));
}

fn start(id: Option<u64>, group: VariantGroup, progress: Progress, goal: Goal) {
    CURRENT.with(|c| {
        *c.borrow_mut() = Some(Slicing {
            id,
            group,
            progress,
            goal,
        });
    });
    slice();
}

/// Runs the current group for a slice; posts the next slice, or hands the
/// group on when it has reached its goal.
fn slice() {
    let Some(mut slicing) = CURRENT.with(|c| c.borrow_mut().take()) else {
        return;
    };
    super::sim_worker::set_current(slicing.id);
    let deadline = profile::now() + SLICE_MS;
    let Slicing {
        group,
        progress,
        goal,
        ..
    } = &mut slicing;
    let mut observe = |p: RunProgress| {
        progress(&p);
        if profile::now() >= deadline {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    // `None` while the goal is not reached (a run to the end has no `Settled`).
    let reached = match goal {
        Goal::Settle(_) => group.settle(&mut observe),
        Goal::Finish(end, _) => group.run_to(*end, &mut observe).map(|()| Vec::new()),
    };
    match reached {
        Some(settled) => {
            let Slicing { group, goal, .. } = slicing;
            match goal {
                Goal::Settle(then) => then(group, settled),
                Goal::Finish(end, then) => then(RunResult {
                    variants: group.close(end),
                }),
            }
        }
        None => {
            CURRENT.with(|c| *c.borrow_mut() = Some(slicing));
            post_next();
        }
    }
    super::sim_worker::set_current(None);
}

/// Posts this worker a message that runs the next slice (a timer where no
/// `MessageChannel` can be made).
fn post_next() {
    let posted = NEXT.with(|next| {
        let mut next = next.borrow_mut();
        if next.is_none() {
            *next = MessageChannel::new().ok().map(|channel| {
                let listener = Closure::<dyn FnMut()>::new(slice);
                let from = channel.port1();
                from.set_onmessage(Some(listener.as_ref().unchecked_ref()));
                Channel {
                    to: channel.port2(),
                    _from: from,
                    _listener: listener,
                }
            });
        }
        next.as_ref()
            .is_some_and(|c| c.to.post_message(&JsValue::NULL).is_ok())
    });
    if !posted {
        gloo::timers::callback::Timeout::new(0, slice).forget();
    }
}
