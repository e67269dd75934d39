//! The page state: one scenario and its simulated result, changed only by
//! [`Action`]s (reducer pattern, as in Yew's `function_todomvc`).

use std::rc::Rc;

use engine::run::RunResult;
use engine::scenario::Scenario;
use yew::Reducible;

/// What the page shows.
pub struct PlaygroundState {
    /// The scenario being shown.
    pub scenario: Rc<Scenario>,
    /// Its simulation, one run per compared variant.
    pub result: Rc<RunResult>,
    /// A message for the user (a bad link, an edit that was refused).
    pub notice: Option<String>,
}

/// Everything the user (or the address bar) can do to the state.
pub enum Action {
    /// Show this scenario; `notice` explains why, if it replaced a bad link.
    Open(Box<Scenario>, Option<String>),
    /// Change the number of workers at time 0.
    SetWorkers(u32),
    /// Change every connector's task count.
    SetTasks(u32),
}

impl PlaygroundState {
    /// Simulates `scenario` and shows it.
    pub fn open(scenario: Scenario, notice: Option<String>) -> Self {
        let result = Rc::new(engine::run::run(&scenario));
        Self {
            scenario: Rc::new(scenario),
            result,
            notice,
        }
    }

    /// Applies an edit; an edit that makes the scenario invalid is refused with a notice.
    fn edited(&self, edit: impl FnOnce(&mut Scenario)) -> Self {
        let mut scenario = (*self.scenario).clone();
        edit(&mut scenario);
        match scenario.validate() {
            Ok(()) => Self::open(scenario, None),
            Err(e) => Self {
                scenario: self.scenario.clone(),
                result: self.result.clone(),
                notice: Some(e.to_string()),
            },
        }
    }
}

impl Reducible for PlaygroundState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Open(scenario, notice) => Rc::new(Self::open(*scenario, notice)),
            Action::SetWorkers(n) if n == self.scenario.connect.workers => self,
            Action::SetWorkers(n) => Rc::new(self.edited(|s| s.connect.workers = n)),
            Action::SetTasks(n) => Rc::new(self.edited(|s| {
                for c in &mut s.connect.connectors {
                    c.tasks = n;
                }
            })),
        }
    }
}
