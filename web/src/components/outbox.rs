//! The playground's one way into its reducer and its simulator.
//!
//! An edit that asks for a simulation is *held*: its request goes to the
//! simulator at once, but the page shows the edit together with its result,
//! in one render and one frame, instead of re-rendering for the edit, laying
//! out and painting that frame, and only then reading the result (issue
//! #13: that frame alone cost 8–20 ms of an edit's ~55 ms). The edited
//! field already shows what was typed (the browser draws it); what follows
//! from the edit (the editor's marks, the dimmed comparison) waits for the
//! result, or [`HOLD_MS`] at most, so a slow run still says it is running.
//!
//! Every other action first lets the held edits through, in order, so the
//! reducer sees the same sequence as if nothing had been held, and gives
//! their request the same number the simulator was already asked for.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::state::edit::Edit;
use crate::state::playground::{Action, PlaygroundState};
use crate::worker::answers::SimOutcome;
use crate::worker::sim_client::SimClient;

/// How long an edit waits for its result before the page shows it anyway,
/// ms: about what people read as instant, and far longer than the small
/// presets' simulations (1–20 ms in the worker).
const HOLD_MS: u32 = 100;

/// Edits shown only with their result (see the module's doc).
#[derive(Default)]
pub(crate) struct HeldEdits {
    /// In the order they were made.
    edits: RefCell<Vec<Edit>>,
    /// The state they lead to (the next edit applies on top of it).
    next: RefCell<Option<Rc<PlaygroundState>>>,
    /// Lets them through after [`HOLD_MS`].
    timer: RefCell<Option<Timeout>>,
}

impl HeldEdits {
    /// Dispatches the held edits, oldest first; afterwards none are held.
    pub(crate) fn release(&self, dispatch: &UseReducerDispatcher<PlaygroundState>) {
        self.timer.take();
        self.next.take();
        let edits = self.edits.take();
        for edit in edits {
            dispatch.dispatch(Action::Edit(edit));
        }
    }

    /// The simulator answered: the held edits first, then the answer, so
    /// both land in one render.
    pub(crate) fn answer(
        &self,
        dispatch: &UseReducerDispatcher<PlaygroundState>,
        outcome: SimOutcome,
    ) {
        self.release(dispatch);
        dispatch.dispatch(Action::Simulated(outcome));
    }
}

/// Posts each newest simulation request once, and holds edits until their
/// result (see the module's doc).
#[derive(Clone)]
pub(crate) struct Outbox {
    pub(crate) client: SimClient,
    /// Reads the reducer's newest state, also right after a dispatch.
    pub(crate) state: UseReducerHandle<PlaygroundState>,
    /// The newest request posted.
    pub(crate) posted: Rc<Cell<u64>>,
    pub(crate) held: Rc<HeldEdits>,
}

impl Outbox {
    /// Posts the reducer's newest request, unless it went out already.
    pub(crate) fn post(&self) {
        let s = &*self.state;
        self.post_for(s);
    }

    fn post_for(&self, s: &PlaygroundState) {
        if s.request > self.posted.get() {
            self.posted.set(s.request);
            self.client.request(s.request, &s.job(), s.confirmed());
        }
    }

    /// Any action but an edit: the held edits go first.
    pub(crate) fn dispatch(&self, action: Action) {
        self.held.release(&self.state.dispatcher());
        self.state.dispatch(action);
    }

    /// An edit: held if it stands alone ([`Edit::stands_alone`]) and asks
    /// for a simulation, else (a list rebuilt from the editor's props, an
    /// invalid or an empty change) shown now, after any held before it.
    pub(crate) fn edit(&self, edit: Edit) {
        if !edit.stands_alone() {
            self.dispatch(Action::Edit(edit));
            self.post();
            return;
        }
        let base = self
            .held
            .next
            .borrow()
            .clone()
            .unwrap_or_else(|| Rc::new((*self.state).clone()));
        let next = Reducible::reduce(base.clone(), Action::Edit(edit.clone()));
        if next.request == base.request {
            self.dispatch(Action::Edit(edit));
            self.post();
            return;
        }
        self.held.edits.borrow_mut().push(edit);
        *self.held.next.borrow_mut() = Some(next.clone());
        if self.held.timer.borrow().is_none() {
            let (held, dispatch) = (self.held.clone(), self.state.dispatcher());
            *self.held.timer.borrow_mut() =
                Some(Timeout::new(HOLD_MS, move || held.release(&dispatch)));
        }
        // Last: without a worker the answer may come before this returns.
        self.post_for(&next);
    }
}
