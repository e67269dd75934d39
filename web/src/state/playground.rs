//! The page state: which view, which scenario, its newest simulation, and
//! what the address bar should say. Changed only by [`Action`]s (reducer
//! pattern, as in Yew's `function_todomvc`); side effects (simulating,
//! writing the address bar) happen in effects that watch this state.

use std::rc::Rc;

use engine::link::{self, LinkPayload};
use engine::run::RunResult;
use engine::scenario::{FamilyKind, Scenario};
use yew::Reducible;

use crate::presets;
use crate::shared::Shared;
use crate::state::edit::{self, text_is_stale, Edit};
use crate::state::error_names::page_error;
use crate::worker::answers::{Answer, Job, Opening, RanIn, SimOutcome};

/// What fills the page below the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The preset gallery (the landing view).
    Gallery,
    /// The scenario, simulated, one column per compared protocol.
    Compare,
}

/// How the address bar follows a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    /// Leave the address bar alone (it already says this, or it holds a bad
    /// link the user should be able to see and fix).
    Keep,
    /// Add an entry (an edit, opening a preset or a file), so Back undoes
    /// it and Forward redoes it.
    Push,
}

/// A simulation shown in the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// The request it answered.
    pub id: u64,
    /// The result.
    pub result: Shared<RunResult>,
    /// Wall time from request to result.
    pub elapsed_ms: f64,
    /// Where it was computed.
    pub ran_in: RanIn,
}

/// A link's or a file's scenario that the simulator is reading (the page's
/// module holds no scenario parser); the newest request is its.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingOpen {
    /// What is being read.
    pub opening: Rc<Opening>,
    /// The result on screen was complete for the scenario on screen when
    /// the open started: if the open is refused, it still is.
    shown_was_current: bool,
    /// Back or Forward within the comparison on screen: if the scenario is
    /// of the same family, the playhead stays (like undo and redo).
    continues: bool,
}

/// What the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaygroundState {
    /// Gallery or compare view.
    pub view: View,
    /// The scenario as edited (it may be invalid; see [`Self::invalid`]).
    /// While [`Self::opening`] is set, the one before (not shown).
    pub scenario: Rc<Scenario>,
    /// A link's or a file's scenario the simulator is reading.
    pub opening: Option<PendingOpen>,
    /// The preset, while the scenario is an unedited preset.
    pub preset: Option<&'static str>,
    /// Why the edited scenario cannot be simulated.
    pub invalid: Option<String>,
    /// A link or file that could not be opened, said plainly.
    pub notice: Option<String>,
    /// The newest simulation request; each valid change gets a new one.
    pub request: u64,
    /// The newest simulation result (possibly for an older request).
    pub shown: Option<Shown>,
    /// Why the newest simulation failed.
    pub failure: Option<String>,
    /// The fragment (without `#`) that is a permalink of the scenario.
    pub fragment: String,
    /// How the address bar should follow the newest change.
    pub history: History,
    /// Counts scenarios opened (not edits), so playback can restart.
    pub opened: u64,
    /// Embedded in another page (`?embed=1`): no gallery, no editor.
    pub embed: bool,
    /// The scenario as it was when its title and description were last
    /// written (by a preset's author or in the editor); see [`Self::text_stale`].
    pub text_basis: Rc<Scenario>,
    /// Where a request stands, beyond "running" (its progress, the
    /// question about it, or that it was cancelled): (request, status).
    run: Option<(u64, RunStatus)>,
    /// The request the user confirmed ("Run it", "Run anyway"): the
    /// simulator runs it whatever it costs.
    confirmed: Option<u64>,
    /// The scenarios behind the links this page wrote into the address bar
    /// (newest last, at most [`WRITTEN_LINKS`]): Back and Forward to one of
    /// them open it at once, without asking the simulator to read it.
    written: Rc<Vec<(String, Rc<Scenario>)>>,
}

/// How many of its own links the page remembers for Back and Forward.
const WRITTEN_LINKS: usize = 100;

/// Everything the user, the address bar or the simulator can do to the state.
#[derive(Clone, Debug)]
pub enum Action {
    /// The address bar changed (load, Back, a pasted link): open what it names.
    Navigate(String),
    /// Open a preset from the gallery.
    OpenPreset(&'static str),
    /// Open a scenario file (read, not parsed), or say why it could not be read.
    OpenFile(Result<Opening, String>),
    /// Open a blank scenario of a family.
    OpenBlank(FamilyKind),
    /// Change the scenario.
    Edit(Edit),
    /// Show the gallery.
    ShowGallery,
    /// Back from the gallery to the scenario.
    ShowCompare,
    /// A simulation finished.
    Simulated(SimOutcome),
    /// Dismiss the notice.
    DismissNotice,
    /// Stop the running simulation, or decline an expensive one.
    Cancel,
    /// Simulate the newest scenario whatever it costs (after the cost
    /// question, or after a Cancel).
    RunAnyway,
}

/// Where the newest request's simulation stands, beyond "done".
#[derive(Clone, Debug, PartialEq)]
pub enum RunStatus {
    /// Running, with its latest progress (in words) once a long run
    /// reports some.
    Running(Option<Rc<str>>),
    /// Not run yet: the page asks first (the question).
    Asking(Rc<str>),
    /// The user cancelled it.
    Cancelled,
}

impl PlaygroundState {
    /// The state for a fresh page at `fragment`.
    pub fn load(fragment: &str, embed: bool) -> Self {
        let default = Rc::new(presets::default_preset().scenario());
        let blank = Self {
            view: View::Gallery,
            scenario: default.clone(),
            opening: None,
            preset: Some(presets::default_preset().id),
            invalid: None,
            notice: None,
            request: 0,
            shown: None,
            failure: None,
            fragment: String::new(),
            history: History::Keep,
            opened: 0,
            embed,
            text_basis: default,
            run: None,
            confirmed: None,
            written: Rc::default(),
        };
        blank.navigate(fragment)
    }

    /// True when the scenario simulates something else than it did when its
    /// title and description were written: they may not describe it any more.
    pub fn text_stale(&self) -> bool {
        text_is_stale(&self.text_basis, &self.scenario)
    }

    /// What the title and description of `scenario`, arriving from a link,
    /// were written for: the preset they come from, the scenario they were
    /// last written for in this page (Back and Forward), or else itself.
    fn basis_for(&self, scenario: &Scenario) -> Rc<Scenario> {
        let same_words =
            |b: &Scenario| b.title == scenario.title && b.description == scenario.description;
        if same_words(&self.text_basis) {
            return self.text_basis.clone();
        }
        presets::all()
            .iter()
            .map(|p| p.scenario())
            .find(|p| same_words(p))
            .map_or_else(|| Rc::new(scenario.clone()), Rc::new)
    }

    /// Remembers that `fragment`, written by this page, names `scenario`.
    fn remember(&self, fragment: &str, scenario: &Rc<Scenario>) -> Rc<Vec<(String, Rc<Scenario>)>> {
        let mut written: Vec<_> = self
            .written
            .iter()
            .filter(|(f, _)| f != fragment)
            .cloned()
            .collect();
        written.push((fragment.to_string(), scenario.clone()));
        let excess = written.len().saturating_sub(WRITTEN_LINKS);
        written.drain(..excess);
        Rc::new(written)
    }

    /// True once a scenario has been opened (an open the simulator is still
    /// reading does not count yet).
    pub fn has_scenario(&self) -> bool {
        self.opened > 0
    }

    /// True while the simulator reads a link's or a file's scenario: the
    /// page has no scenario to show yet.
    pub fn loading(&self) -> bool {
        self.opening.is_some()
    }

    /// What the newest request asks of the simulator.
    pub fn job(&self) -> Job {
        match &self.opening {
            Some(pending) => Job::Open(pending.opening.clone()),
            None => Job::Simulate(self.scenario.clone()),
        }
    }

    /// True while the newest valid scenario has no result yet and the
    /// simulator is working on it (not asking first, not cancelled).
    pub fn simulating(&self) -> bool {
        matches!(self.run_status(), Some(RunStatus::Running(_)))
    }

    /// The newest valid scenario has no result (running, asked about or
    /// cancelled): a result on screen is an older scenario's.
    pub fn unanswered(&self) -> bool {
        self.view == View::Compare
            && self.invalid.is_none()
            && self.failure.is_none()
            && self.shown.as_ref().map(|s| s.id) != Some(self.request)
    }

    /// The newest request was confirmed: simulate it whatever it costs.
    pub fn confirmed(&self) -> bool {
        self.confirmed == Some(self.request)
    }

    /// Where the newest request stands, while it has no result.
    #[inline(never)]
    pub fn run_status(&self) -> Option<RunStatus> {
        if !self.unanswered() {
            return None;
        }
        Some(match &self.run {
            Some((id, status)) if *id == self.request => status.clone(),
            _ => RunStatus::Running(None),
        })
    }

    /// The user pressed Cancel: a running simulation stops (the page tells
    /// the simulator), a question is declined.
    #[inline(never)] // see `reduce`
    fn cancel(&self) -> Self {
        if !self.unanswered() {
            return self.clone();
        }
        Self {
            run: Some((self.request, RunStatus::Cancelled)),
            history: History::Keep,
            ..self.clone()
        }
    }

    /// "Run it" / "Run anyway": the same job again, confirmed.
    #[inline(never)] // see `reduce`
    fn run_anyway(&self) -> Self {
        if !self.unanswered() || self.simulating() {
            return self.clone();
        }
        Self {
            request: self.request + 1,
            confirmed: Some(self.request + 1),
            history: History::Keep,
            ..self.clone()
        }
    }

    /// Opens a valid scenario: a new simulation request and a fresh playhead.
    #[inline(never)] // see `reduce`
    fn open(&self, scenario: Scenario, preset: Option<&'static str>, history: History) -> Self {
        let fragment = match preset {
            Some(id) => link::preset_fragment(id),
            None => link::encode(&scenario),
        };
        let text_basis = self.basis_for(&scenario);
        Self {
            view: View::Compare,
            text_basis,
            scenario: Rc::new(scenario),
            opening: None,
            preset,
            invalid: None,
            notice: None,
            request: self.request + 1,
            failure: None,
            fragment,
            history,
            opened: self.opened + 1,
            ..self.clone()
        }
    }

    /// Asks the simulator to read a scenario: a new request whose first
    /// answer is the scenario (or why there is none).
    #[inline(never)] // see `reduce`
    fn start_open(&self, opening: Opening, continues: bool) -> Self {
        Self {
            opening: Some(PendingOpen {
                opening: Rc::new(opening),
                shown_was_current: self.shown.as_ref().map(|s| s.id) == Some(self.request),
                continues,
            }),
            request: self.request + 1,
            failure: None,
            history: History::Keep,
            ..self.clone()
        }
    }

    /// The scenario the simulator read for the pending open.
    fn opened_scenario(&self, scenario: Scenario) -> Self {
        let Some(pending) = &self.opening else {
            return self.clone();
        };
        let (fragment, history) = match &*pending.opening {
            // Keep the link as the user has it; it names this scenario.
            Opening::Link { .. } => (self.fragment.clone(), History::Keep),
            Opening::File { .. } => (link::encode(&scenario), History::Push),
        };
        let opened = if pending.continues && scenario.family_kind() == self.scenario.family_kind() {
            self.opened
        } else {
            self.opened + 1
        };
        let text_basis = self.basis_for(&scenario);
        Self {
            view: View::Compare,
            text_basis,
            scenario: Rc::new(scenario),
            opening: None,
            preset: None,
            invalid: None,
            notice: None,
            failure: None,
            fragment,
            history,
            opened,
            ..self.clone()
        }
    }

    /// The pending open found no scenario: say why, and keep what was there.
    fn refused(&self, message: String) -> Self {
        let Some(pending) = &self.opening else {
            return self.clone();
        };
        let mut next = Self {
            opening: None,
            ..self.clone()
        };
        if pending.shown_was_current {
            // The result on screen is still the scenario's.
            if let Some(shown) = &mut next.shown {
                shown.id = next.request;
            }
        } else if self.has_scenario() {
            // Its simulation was superseded by the open: run it again.
            next.request += 1;
        }
        match &*pending.opening {
            Opening::Link { .. } => next.refuse(format!(
                "{message} Pick a scenario from the gallery instead."
            )),
            Opening::File { .. } => Self {
                notice: Some(message),
                history: History::Keep,
                ..next
            },
        }
    }

    /// The gallery with a message; an embed has no gallery, so it shows the
    /// default preset under the message instead (and the message says so,
    /// without the advice to pick from a gallery).
    #[inline(never)] // see `reduce`
    fn refuse(&self, message: String) -> Self {
        if self.embed {
            let mut next = self.open(
                presets::default_preset().scenario(),
                Some(presets::default_preset().id),
                History::Keep,
            );
            let reason = message
                .replace(" Pick a scenario from the gallery instead.", "")
                .replace(" Pick one from the gallery.", "");
            next.notice = Some(format!(
                "{reason} Showing “{}” instead.",
                next.scenario.title
            ));
            next
        } else {
            Self {
                view: View::Gallery,
                history: History::Keep,
                notice: Some(message),
                ..self.clone()
            }
        }
    }

    /// Opens what an address-bar fragment names. Back and Forward between
    /// edits of one scenario (the same family, the comparison on screen)
    /// undo and redo like edits: the playhead stays where it is.
    #[inline(never)] // see `reduce`
    fn navigate(&self, fragment: &str) -> Self {
        if !fragment.is_empty() && fragment == self.fragment && self.view == View::Compare {
            return self.clone();
        }
        // Back and Forward within the comparison on screen.
        let continues = self.view == View::Compare && self.has_scenario();
        let keep_playhead = |next: Self| {
            if continues && next.scenario.family_kind() == self.scenario.family_kind() {
                Self {
                    opened: self.opened,
                    ..next
                }
            } else {
                next
            }
        };
        if let Some((_, scenario)) = self.written.iter().find(|(f, _)| f == fragment) {
            // A link this page wrote (an edit): undo and redo at once.
            let next = self.open((**scenario).clone(), None, History::Keep);
            return keep_playhead(Self {
                fragment: fragment.to_string(),
                ..next
            });
        }
        match link::decode_payload(fragment) {
            Ok(LinkPayload::Json(json)) => Self {
                view: View::Compare,
                preset: None,
                invalid: None,
                notice: None,
                fragment: fragment.to_string(),
                ..self.start_open(Opening::Link { json }, continues)
            },
            Ok(LinkPayload::Preset(id)) => match presets::resolve(&id) {
                Ok(p) => keep_playhead(self.open(p.scenario(), Some(p.id), History::Keep)),
                Err(message) => self.refuse(message),
            },
            Ok(LinkPayload::Empty) if self.embed => self.open(
                presets::default_preset().scenario(),
                Some(presets::default_preset().id),
                History::Keep,
            ),
            Ok(LinkPayload::Empty) => Self {
                view: View::Gallery,
                notice: None,
                history: History::Keep,
                ..self.clone()
            },
            Err(e) => self.refuse(format!("{e} Pick a scenario from the gallery instead.")),
        }
    }

    /// Applies an edit. An invalid result is kept for the editor (with the
    /// reason) but not simulated; the last good result stays on screen.
    #[inline(never)] // see `reduce`
    fn edited(&self, edit: Edit) -> Self {
        let words = edit.is_text();
        let scenario = Rc::new(edit.apply(&self.scenario));
        if scenario == self.scenario {
            return self.clone();
        }
        let text_basis = if words {
            scenario.clone()
        } else {
            self.text_basis.clone()
        };
        match scenario.validate() {
            Ok(()) => {
                let fragment = link::encode(&scenario);
                Self {
                    written: self.remember(&fragment, &scenario),
                    fragment,
                    scenario,
                    opening: None,
                    preset: None,
                    invalid: None,
                    request: self.request + 1,
                    failure: None,
                    history: History::Push,
                    text_basis,
                    ..self.clone()
                }
            }
            Err(e) => Self {
                invalid: Some(page_error(&e, &scenario)),
                scenario,
                preset: None,
                history: History::Keep,
                text_basis,
                ..self.clone()
            },
        }
    }

    #[inline(never)] // see `reduce`
    fn simulated(&self, outcome: SimOutcome) -> Self {
        if outcome.id != self.request || self.run_status() == Some(RunStatus::Cancelled) {
            // Superseded by a newer edit, or cancelled: drop the stale result.
            return self.clone();
        }
        let result = match outcome.answer {
            Answer::Opened(scenario) => return self.opened_scenario(*scenario),
            Answer::Refused(message) => return self.refused(message),
            Answer::Progress(words) => {
                return Self {
                    run: Some((outcome.id, RunStatus::Running(Some(words)))),
                    ..self.clone()
                }
            }
            Answer::Expensive(question) => {
                return Self {
                    run: Some((outcome.id, RunStatus::Asking(question))),
                    ..self.clone()
                }
            }
            Answer::Simulated(result) => result,
        };
        // `history` stays: a result does not move the address bar, and the
        // scenario's own change (an opened file's Push) may not have been
        // written yet when the result comes in the same render.
        match result {
            Ok(result) => Self {
                shown: Some(Shown {
                    id: outcome.id,
                    result: result.into(),
                    elapsed_ms: outcome.elapsed_ms,
                    ran_in: outcome.ran_in,
                }),
                failure: None,
                ..self.clone()
            },
            // A pending open stays pending: there is no scenario to show
            // (or edit) under the message.
            Err(message) => Self {
                failure: Some(message),
                ..self.clone()
            },
        }
    }
}

impl Reducible for PlaygroundState {
    type Action = Action;

    // Each arm's method is out of line (`#[inline(never)]`): V8 compiles a
    // WebAssembly function whole the first time it is called, so with every
    // arm inlined here the first result's task compiled all of them (issue
    // #13; docs/performance.md, session 27).
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = match action {
            Action::Navigate(fragment) => self.navigate(&fragment),
            Action::OpenPreset(id) => match presets::resolve(id) {
                Ok(p) => self.open(p.scenario(), Some(p.id), History::Push),
                Err(message) => self.refuse(message),
            },
            Action::OpenFile(Ok(file)) => self.start_open(file, false),
            Action::OpenBlank(kind) => self.open(edit::blank(kind), None, History::Push),
            Action::OpenFile(Err(message)) => Self {
                notice: Some(message),
                history: History::Keep,
                ..(*self).clone()
            },
            Action::Edit(edit) => self.edited(edit),
            Action::ShowGallery => Self {
                view: View::Gallery,
                history: History::Keep,
                ..(*self).clone()
            },
            Action::ShowCompare => Self {
                view: View::Compare,
                history: History::Keep,
                ..(*self).clone()
            },
            Action::Simulated(outcome) => self.simulated(outcome),
            Action::DismissNotice => Self {
                notice: None,
                history: History::Keep,
                ..(*self).clone()
            },
            Action::Cancel => self.cancel(),
            Action::RunAnyway => self.run_anyway(),
        };
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

#[cfg(test)]
#[path = "playground_tests.rs"]
mod tests;
