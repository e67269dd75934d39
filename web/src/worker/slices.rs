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
use engine::run::{Settled, VariantGroup};
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

/// Where a group is to get to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Goal {
    /// Every variant quiet ([`VariantGroup::settle`]).
    Settle,
    /// Every variant run to this end ([`VariantGroup::run_to`]).
    RunTo(u64),
}

/// What a group got to.
pub(crate) enum Reached {
    /// Its variants settled, like this.
    Settled(Vec<Settled>),
    /// Its variants ran to the end it was given.
    RanToEnd,
}

/// Told how far the run has got, at every observation.
pub(crate) type Progress = Box<dyn FnMut(&RunProgress)>;
/// Called with the group once it has reached its goal.
pub(crate) type Then = Box<dyn FnOnce(VariantGroup, Reached)>;

/// A group on its way to its goal.
struct Slicing {
    /// The request it serves, for a panic's report.
    id: Option<u64>,
    group: VariantGroup,
    goal: Goal,
    progress: Progress,
    then: Then,
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

/// Runs `group` to `goal` in slices, telling `progress` how far it has got,
/// and then calls `then` with it. The first slice runs now.
pub(crate) fn run(
    id: Option<u64>,
    group: VariantGroup,
    goal: Goal,
    progress: Progress,
    then: Then,
) {
    CURRENT.with(|c| {
        *c.borrow_mut() = Some(Slicing {
            id,
            group,
            goal,
            progress,
            then,
        });
    });
    slice();
}

/// Runs the current group for a slice; posts the next slice, or calls its
/// `then` when it has reached its goal.
fn slice() {
    let Some(mut slicing) = CURRENT.with(|c| c.borrow_mut().take()) else {
        return;
    };
    super::sim_worker::set_current(slicing.id);
    let deadline = profile::now() + SLICE_MS;
    let Slicing {
        group,
        goal,
        progress,
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
    let reached = match *goal {
        Goal::Settle => group.settle(&mut observe).map(Reached::Settled),
        Goal::RunTo(end) => group.run_to(end, &mut observe).map(|()| Reached::RanToEnd),
    };
    match reached {
        Some(reached) => {
            let Slicing { group, then, .. } = slicing;
            then(group, reached);
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
