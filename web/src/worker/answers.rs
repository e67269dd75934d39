//! What the page asks of the simulator and what it answers, as the page's
//! parts use them ([`super::sim_client`] turns them into and out of
//! [`super::messages`]), and the reading of the simulator's replies, from
//! the worker or from its module on the main thread.

use std::rc::Rc;

use engine::run::RunResult;
use engine::scenario::Scenario;
use wasm_bindgen::prelude::*;

use crate::browser::profile;
use crate::worker::messages::{pieces_from_js, Reply, Update};
use engine::result_wire as wire;

/// A scenario only the simulator's module can parse (the page's holds no
/// scenario parser): a link's JSON or a file the user opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// The JSON a `#s=` link carries (`engine::link::decode_payload`).
    Link {
        /// The scenario's JSON.
        json: String,
    },
    /// A scenario file.
    File {
        /// Its name, for messages.
        name: String,
        /// Its text.
        text: String,
    },
}

/// What a request asks of the simulator.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// Simulate a (valid) scenario.
    Simulate(Rc<Scenario>),
    /// Parse a scenario, answer with it, then simulate it.
    Open(Rc<Opening>),
}

/// What the simulator answered.
#[derive(Clone, Debug)]
pub enum Answer {
    /// An opened link or file holds this valid scenario; its result follows.
    Opened(Box<Scenario>),
    /// An opened link or file holds no scenario the playground can use: why.
    Refused(String),
    /// The simulation's result, or why there is none.
    Simulated(Result<Rc<RunResult>, String>),
    /// How far a long simulation has got, in words; its result follows.
    Progress(Rc<str>),
    /// Not simulated: the scenario is far above the interactive range, and
    /// the page should ask first (then send the job again, confirmed).
    Expensive(Rc<str>),
}

/// One answer to a request.
#[derive(Clone, Debug)]
pub struct SimOutcome {
    /// The request it answers.
    pub id: u64,
    /// What the simulator said.
    pub answer: Answer,
    /// Wall time from request to result, ms.
    pub elapsed_ms: f64,
    /// Where the answer was computed.
    pub ran_in: RanIn,
}

/// Where a result was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RanIn {
    /// The simulator's Web Worker.
    Worker,
    /// The simulator's Web Worker and its helper, half of the compared
    /// variants each (a big scenario; `split_run`).
    Workers,
    /// The simulator's module on the main thread: no worker could start.
    MainThread,
    /// The simulator's module on the main thread, in the task of the edit
    /// that asked: a brief simulation ([`crate::worker::brief_sim`]).
    Inline,
    /// When the site was built: a preset's shipped result
    /// ([`super::sim_client::SimClient::prefetch`]).
    SiteBuild,
}

impl RanIn {
    /// For `data-ran-in`.
    pub fn as_str(self) -> &'static str {
        match self {
            RanIn::Worker => "worker",
            RanIn::Workers => "workers",
            RanIn::MainThread => "main-thread",
            RanIn::Inline => "inline",
            RanIn::SiteBuild => "site-build",
        }
    }
}

/// Where simulations run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerStatus {
    /// The worker is loading.
    Starting,
    /// The worker answers requests.
    Ready,
    /// No worker could start; everything runs on the main thread.
    Unavailable,
}

impl WorkerStatus {
    /// For `data-worker`.
    pub fn as_str(self) -> &'static str {
        match self {
            WorkerStatus::Starting => "starting",
            WorkerStatus::Ready => "ready",
            WorkerStatus::Unavailable => "unavailable",
        }
    }
}

/// What a worker update says.
pub(crate) fn read_update(update: Update) -> Answer {
    match update {
        Update::Progress { summary, .. } => Answer::Progress(summary.into()),
        Update::Expensive { question, .. } => Answer::Expensive(question.into()),
    }
}

/// What a worker reply (or the main-thread simulator's) says.
pub(crate) fn read_reply(reply: Reply) -> Answer {
    match reply {
        Reply::Opened { scenario, .. } => {
            match engine::binary::from_bytes::<Scenario>(&scenario.to_vec()) {
                Ok(scenario) => Answer::Opened(Box::new(scenario)),
                Err(e) => Answer::Refused(format!("The simulator's answer is unreadable: {e}")),
            }
        }
        Reply::Refused { message, .. } => Answer::Refused(message),
        Reply::Simulated {
            result,
            lists,
            more,
            ..
        } => Answer::Simulated(
            profile::timed("decode result", || {
                wire::decode_pieces(pieces_from_js(&result, &lists, &more))
            })
            .map(Rc::new),
        ),
        Reply::Failed { message, .. } => Answer::Simulated(Err(message)),
        Reply::Ready | Reply::Settled { .. } => {
            Answer::Simulated(Err("The simulator sent no result.".to_string()))
        }
    }
}

/// The simulator module's replies (`answerForPage`, `answerBriefly`), read
/// as the worker's are.
pub(crate) fn read_replies(list: &JsValue) -> Vec<Answer> {
    web_sys::js_sys::Array::from(list)
        .iter()
        .map(|reply| match Update::from_js(&reply) {
            Some(update) => read_update(update),
            None => match Reply::from_js(reply) {
                Ok(reply) => read_reply(reply),
                Err(e) => {
                    Answer::Simulated(Err(format!("The simulator's answer is unreadable: {e}")))
                }
            },
        })
        .collect()
}
