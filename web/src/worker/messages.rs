//! The messages between the page ([`super::sim_client`]) and the
//! simulator's Web Worker ([`super::sim_worker`]), as typed structs that
//! `serde-wasm-bindgen` turns into plain JS objects and back:
//!
//! * worker → page `"ready"` once it listens (the worker's loader keeps
//!   what the page posts before that, so the page need not wait for it;
//!   `index.html` records it too, for the worker it starts early);
//! * page → worker `{id, task}` ([`Request`]): simulate a scenario (JSON
//!   text), or open a link's scenario JSON or a file's text, parsing it
//!   first (the page's module holds no scenario parser);
//! * worker → page, for an open, `{opened: {id, scenario}}` (the scenario in
//!   the engine's binary form) or `{refused: {id, message}}`, then for every
//!   request `{simulated: {id, result, lists, elapsed_ms}}` or
//!   `{failed: {id, message}}` ([`Reply`]);
//! * worker → page, while a long simulation runs, `{progress: {id,
//!   summary}}` at most every 100 ms, and for a scenario far above the
//!   interactive range (`engine::cost::CostClass::VeryLarge`) `{expensive:
//!   {id, question}}` instead of a simulation: the page asks, and sends the
//!   task again as `{confirmed: task}` ([`Task::Confirmed`]) to run it.
//!   These are [`Update`]s.
//!
//! The worker reads requests and writes replies and updates through serde
//! (`serde-wasm-bindgen`); the page writes requests and reads replies and
//! updates by hand, field by field with `Reflect`, to the same shapes: every
//! serde-derived (de)serialiser costs the page's module code (the derives
//! stay, for the worker and for the tests that pin the shapes).
//!
//! A result does not go through serde: `result` is a `Uint8Array` of its
//! binary form and `lists` one `Uint32Array` per variant, passed through as
//! is (`serde_wasm_bindgen::preserve`), and the worker transfers their
//! buffers (see [`super::wire`]).
//!
//! `Reply` is externally tagged (`{simulated: …}`), not tagged by a field:
//! serde reads a field-tagged enum through a buffer that would lose the
//! preserved arrays.

use std::cell::LazyCell;
use std::rc::Rc;

use engine::result_wire as wire;
use engine::scenario::Scenario;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::js_sys::{Array, Object, Reflect, Uint32Array, Uint8Array};

/// Field `name` of a JS object (`undefined` when absent or not an object).
fn field(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// A message's `id` field (absent, `null` or not a number: none).
fn id_field(object: &JsValue) -> Option<u64> {
    field(object, "id").as_f64().map(|id| id as u64)
}

/// A message's text field `name`, or why it has none.
fn text_field(object: &JsValue, name: &str) -> Result<String, String> {
    field(object, name)
        .as_string()
        .ok_or_else(|| format!("its `{name}` is not text"))
}

/// A new JS object with these fields.
fn object(fields: &[(&str, &JsValue)]) -> JsValue {
    let object = Object::new();
    for (name, value) in fields {
        let _ = Reflect::set(&object, &JsValue::from_str(name), value);
    }
    object.into()
}

/// Page → worker: `task`, as request `id`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Request {
    /// The request, so the page can drop answers to superseded ones.
    pub id: u64,
    /// What to do.
    pub task: Task,
}

/// What the worker is asked to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Task {
    /// Simulate a scenario the page holds (JSON text; the worker validates it again).
    Simulate {
        /// The scenario's JSON.
        scenario: ScenarioJson,
    },
    /// Parse a link's scenario JSON, answer [`Reply::Opened`] or
    /// [`Reply::Refused`], then simulate it.
    OpenLink {
        /// The JSON the link carries (`engine::link::decode_payload`).
        json: String,
    },
    /// The same for a scenario file the user opened.
    OpenFile {
        /// The file's name, for messages.
        name: String,
        /// Its text.
        text: String,
    },
    /// The task, run even if it is far above the interactive range (the
    /// user said "Run it"; no [`Reply::Expensive`] question).
    Confirmed(Box<Task>),
    /// Worker → its helper ([`super::split_run`]): run the variants of
    /// `task`'s scenario from index `first` on until they are quiet, answer
    /// [`Reply::Settled`], then wait for [`Task::Finish`].
    Part {
        /// The simulation, open or file the worker was asked for.
        task: Box<Task>,
        /// The first variant the helper runs.
        first: u32,
    },
    /// Worker → its helper: run the settled variants to `end_ms` and answer
    /// [`Reply::Simulated`] with them.
    Finish {
        /// The end every variant of the scenario shares.
        end_ms: u64,
    },
}

/// A [`Task::Simulate`]'s scenario JSON: the text a message carried, or
/// the page's scenario, written the first time the request is posted (and
/// kept). A preset link's request waits for its shipped result's frame
/// (`SimClient::prefetch`), so the JSON writer is not compiled in the
/// page's first task, where V8 compiles each function on its first call
/// (issue #13; docs/performance.md, session 27).
#[derive(Clone)]
pub(crate) struct ScenarioJson(Rc<LazyCell<String, WriteJson>>);

/// Writes the JSON once. For the page's scenario, a closure made where the
/// page asks ([`ScenarioJson::of`]), so the simulator's module, which only
/// reads this text, does not hold the JSON writer (5.8 KB gzip).
type WriteJson = Box<dyn FnOnce() -> String>;

impl ScenarioJson {
    /// `scenario`'s JSON, written when first read.
    pub(crate) fn of(scenario: Rc<Scenario>) -> Self {
        Self(Rc::new(LazyCell::new(Box::new(move || scenario.to_json()))))
    }

    /// The JSON text.
    pub(crate) fn text(&self) -> &str {
        LazyCell::force(&self.0).as_str()
    }
}

impl From<String> for ScenarioJson {
    fn from(text: String) -> Self {
        Self(Rc::new(LazyCell::new(Box::new(move || text))))
    }
}

impl PartialEq for ScenarioJson {
    fn eq(&self, other: &Self) -> bool {
        self.text() == other.text()
    }
}

impl std::fmt::Debug for ScenarioJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("ScenarioJson").field(&self.text()).finish()
    }
}

impl Serialize for ScenarioJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.text())
    }
}

impl<'de> Deserialize<'de> for ScenarioJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self::from)
    }
}

/// Worker → page.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Reply {
    /// The worker listens now.
    Ready,
    /// An opened link or file holds this scenario (valid); its simulation follows.
    Opened {
        /// The request it answers.
        id: Option<u64>,
        /// The scenario in the engine's binary form (`engine::binary`).
        #[serde(with = "serde_wasm_bindgen::preserve")]
        scenario: Uint8Array,
    },
    /// An opened link or file holds no scenario the playground can use.
    Refused {
        /// The request it answers.
        id: Option<u64>,
        /// Why, as the page shows it.
        message: String,
    },
    /// A simulation finished.
    Simulated {
        /// The request it answers (none for the page's main-thread fallback).
        id: Option<u64>,
        /// The result without its item lists, as [`super::wire`] encodes it.
        #[serde(with = "serde_wasm_bindgen::preserve")]
        result: Uint8Array,
        /// Each variant's item-list pool, a `Uint32Array` each, in order.
        #[serde(with = "serde_wasm_bindgen::preserve")]
        lists: Array,
        /// The rest of the variants, when a helper simulated them
        /// ([`super::split_run`]): `{result, lists}` pieces in order, each
        /// encoded as `result` and `lists` are. Usually empty.
        #[serde(with = "serde_wasm_bindgen::preserve")]
        more: Array,
        /// Time the worker spent, ms.
        elapsed_ms: f64,
    },
    /// Helper → worker ([`Task::Part`]): how each of its variants settled.
    Settled {
        /// The request it answers.
        id: Option<u64>,
        /// One per variant the helper runs, in order.
        settled: Vec<engine::run::Settled>,
    },
    /// The scenario was invalid, or the simulator stopped on it.
    Failed {
        /// The request it answers (none when no request was running).
        id: Option<u64>,
        /// What the page shows.
        message: String,
    },
}

/// Worker → page, besides the [`Reply`]s.
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Update {
    /// How far a long simulation has got
    /// (`engine::budget::RunProgress::summary`).
    Progress {
        /// The request it answers.
        id: Option<u64>,
        /// Where the run stands, in words.
        summary: String,
    },
    /// Not simulated: the scenario is far above the interactive range.
    Expensive {
        /// The request it answers.
        id: Option<u64>,
        /// What the page asks (`engine::cost::CostEstimate::question`).
        question: String,
    },
}

impl Update {
    /// As a JS value to post.
    pub(crate) fn to_js(&self) -> Result<JsValue, String> {
        serde_wasm_bindgen::to_value(self).map_err(|e| e.to_string())
    }

    /// A posted update, or `None` when `value` is not one (then it is a [`Reply`]).
    pub(crate) fn from_js(value: &JsValue) -> Option<Self> {
        if !value.is_object() {
            return None;
        }
        let p = field(value, "progress");
        if p.is_object() {
            return Some(Update::Progress {
                id: id_field(&p),
                summary: text_field(&p, "summary").ok()?,
            });
        }
        let e = Some(field(value, "expensive")).filter(JsValue::is_object)?;
        Some(Update::Expensive {
            id: id_field(&e),
            question: text_field(&e, "question").ok()?,
        })
    }
}

impl Request {
    /// As a JS value to post (by hand, the shape serde gives it).
    pub(crate) fn to_js(&self) -> Result<JsValue, String> {
        // Ids count up from 0 in one page session; past 2^53 a number
        // would round, which serde-wasm-bindgen refuses too.
        if self.id > (1 << 53) {
            return Err(format!("request id {} is too large for JS", self.id));
        }
        Ok(object(&[
            ("id", &JsValue::from_f64(self.id as f64)),
            ("task", &self.task.to_js()),
        ]))
    }

    /// A posted request, or why it is not one.
    pub(crate) fn from_js(value: JsValue) -> Result<Self, String> {
        serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
    }
}

impl Reply {
    /// The request a result or failure answers.
    pub(crate) fn id(&self) -> Option<u64> {
        match self {
            Reply::Ready => None,
            Reply::Opened { id, .. }
            | Reply::Refused { id, .. }
            | Reply::Simulated { id, .. }
            | Reply::Settled { id, .. }
            | Reply::Failed { id, .. } => *id,
        }
    }

    /// As a JS value to post.
    pub(crate) fn to_js(&self) -> Result<JsValue, String> {
        serde_wasm_bindgen::to_value(self).map_err(|e| e.to_string())
    }

    /// A posted reply, or why it is not one (read by hand, the shape serde
    /// gives it).
    pub(crate) fn from_js(value: JsValue) -> Result<Self, String> {
        if value.as_string().as_deref() == Some("ready") {
            return Ok(Reply::Ready);
        }
        let array = |object: &JsValue, name: &str| {
            field(object, name)
                .dyn_into::<Uint8Array>()
                .map_err(|_| format!("its `{name}` is not a Uint8Array"))
        };
        let variant = |name: &str| Some(field(&value, name)).filter(JsValue::is_object);
        if let Some(o) = variant("simulated") {
            return Ok(Reply::Simulated {
                id: id_field(&o),
                result: array(&o, "result")?,
                lists: field(&o, "lists")
                    .dyn_into::<Array>()
                    .map_err(|_| "its `lists` is not an array".to_string())?,
                // Absent: the one piece.
                more: field(&o, "more").dyn_into::<Array>().unwrap_or_default(),
                elapsed_ms: field(&o, "elapsed_ms")
                    .as_f64()
                    .ok_or("its `elapsed_ms` is not a number")?,
            });
        }
        if let Some(o) = variant("opened") {
            return Ok(Reply::Opened {
                id: id_field(&o),
                scenario: array(&o, "scenario")?,
            });
        }
        if let Some(o) = variant("refused") {
            return Ok(Reply::Refused {
                id: id_field(&o),
                message: text_field(&o, "message")?,
            });
        }
        if let Some(o) = variant("failed") {
            return Ok(Reply::Failed {
                id: id_field(&o),
                message: text_field(&o, "message")?,
            });
        }
        Err("it is none of ready, opened, refused, simulated or failed".to_string())
    }

    /// A helper's [`Reply::Settled`] (only a worker reads one, so it is not
    /// in [`Self::from_js`], which the page's module holds too).
    pub(crate) fn settled_from_js(value: &JsValue) -> Option<Self> {
        let o = Some(field(value, "settled")).filter(JsValue::is_object)?;
        let settled = field(&o, "settled")
            .dyn_into::<Array>()
            .ok()?
            .iter()
            .map(|s| {
                let at = |name| field(&s, name).as_f64().map(|ms| ms as u64);
                match (at("quiet"), at("cut")) {
                    (Some(ms), _) => Some(engine::run::Settled::Quiet(ms)),
                    (_, Some(ms)) => Some(engine::run::Settled::Cut(ms)),
                    _ => None,
                }
            })
            .collect::<Option<_>>()?;
        Some(Reply::Settled {
            id: id_field(&o),
            settled,
        })
    }
}

impl Task {
    /// As a JS value (externally tagged, as serde writes it).
    fn to_js(&self) -> JsValue {
        let text = |s: &str| JsValue::from_str(s);
        let (tag, body) = match self {
            Task::Simulate { scenario } => {
                ("simulate", object(&[("scenario", &text(scenario.text()))]))
            }
            Task::OpenLink { json } => ("open_link", object(&[("json", &text(json))])),
            Task::OpenFile { name, text: t } => (
                "open_file",
                object(&[("name", &text(name)), ("text", &text(t))]),
            ),
            Task::Confirmed(task) => ("confirmed", task.to_js()),
            Task::Part { task, first } => (
                "part",
                object(&[
                    ("task", &task.to_js()),
                    ("first", &JsValue::from_f64(f64::from(*first))),
                ]),
            ),
            // Simulated times stay below one day (`limits::MAX_TIME_MS`): exact.
            Task::Finish { end_ms } => (
                "finish",
                object(&[("end_ms", &JsValue::from_f64(*end_ms as f64))]),
            ),
        };
        object(&[(tag, &body)])
    }
}

/// A result's bytes and item-list pools as typed arrays for
/// [`Reply::Simulated`], and the buffers to transfer with it (moved, not
/// copied).
pub(crate) fn result_to_js(bytes: &[u8], lists: &[Vec<u32>]) -> (Uint8Array, Array, Array) {
    let result = Uint8Array::from(bytes);
    let typed = Array::new();
    let transfer = Array::new();
    transfer.push(&result.buffer());
    for list in lists {
        let array = Uint32Array::from(list.as_slice());
        transfer.push(&array.buffer());
        typed.push(&array);
    }
    (result, typed, transfer)
}

/// A [`Reply::Simulated`] of `result` in one piece, and the buffers to
/// transfer with it.
pub(crate) fn simulated(
    id: Option<u64>,
    result: engine::run::RunResult,
    elapsed_ms: f64,
) -> (Reply, Array) {
    let wire = wire::encode(result);
    let (result, lists, transfer) = result_to_js(&wire.bytes, &wire.lists);
    let reply = Reply::Simulated {
        id,
        result,
        lists,
        more: Array::new(),
        elapsed_ms,
    };
    (reply, transfer)
}

/// A piece of [`Reply::Simulated`]'s `more`: another worker's `result` and
/// `lists` as it posted them, their buffers added to `transfer` (what
/// [`pieces_from_js`] reads).
pub(crate) fn piece_to_js(result: &Uint8Array, lists: &Array, transfer: &Array) -> JsValue {
    transfer.push(&result.buffer());
    for list in lists.iter() {
        if let Some(list) = list.dyn_ref::<Uint32Array>() {
            transfer.push(&list.buffer());
        }
    }
    object(&[("result", result), ("lists", lists)])
}

/// A [`Reply::Simulated`]'s result as the pieces it came in: `result` and
/// `lists`, then each of `more` (an entry without a `Uint8Array` result is
/// skipped; decoding then reports what is missing).
pub(crate) fn pieces_from_js(result: &Uint8Array, lists: &Array, more: &Array) -> Vec<wire::Wire> {
    let mut pieces = vec![wire::Wire {
        bytes: result.to_vec(),
        lists: lists_from_js(lists),
    }];
    for piece in more.iter() {
        if let Ok(bytes) = field(&piece, "result").dyn_into::<Uint8Array>() {
            let lists = field(&piece, "lists")
                .dyn_into::<Array>()
                .unwrap_or_default();
            pieces.push(wire::Wire {
                bytes: bytes.to_vec(),
                lists: lists_from_js(&lists),
            });
        }
    }
    pieces
}

/// The item-list pools of [`Reply::Simulated`] back in Rust (an entry that
/// is not a `Uint32Array` is skipped; decoding then reports the mismatch).
pub(crate) fn lists_from_js(lists: &Array) -> Vec<Vec<u32>> {
    lists
        .iter()
        .filter_map(|l| l.dyn_into::<Uint32Array>().ok())
        .map(|l| l.to_vec())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // serde_json writes the same shapes serde-wasm-bindgen builds (the
    // preserved arrays aside), so the documented shapes are checked natively.

    #[test]
    fn ready_is_the_string_index_html_checks_for() {
        assert_eq!(serde_json::to_string(&Reply::Ready).unwrap(), "\"ready\"");
    }

    #[test]
    fn a_scenario_written_when_posted_is_its_json() {
        let scenario = Rc::new(engine::presets::all()[0].scenario());
        let written_later = ScenarioJson::of(scenario.clone());
        let written_now = ScenarioJson::from(scenario.to_json());
        assert_eq!(written_later.text(), scenario.to_json());
        assert_eq!(written_later, written_now);
        let json = |scenario| serde_json::to_string(&Task::Simulate { scenario }).unwrap();
        assert_eq!(json(written_later), json(written_now));
    }

    #[test]
    fn requests_and_failures_have_the_documented_shape() {
        let request = Request {
            id: 7,
            task: Task::Simulate {
                scenario: "{}".to_string().into(),
            },
        };
        let json = serde_json::to_string(&request).unwrap();
        assert_eq!(json, r#"{"id":7,"task":{"simulate":{"scenario":"{}"}}}"#);
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), request);
        let failed = Reply::Failed {
            id: Some(7),
            message: "no".to_string(),
        };
        assert_eq!(
            serde_json::to_string(&failed).unwrap(),
            r#"{"failed":{"id":7,"message":"no"}}"#
        );
        let read: Reply = serde_json::from_str(r#"{"failed":{"id":null,"message":"no"}}"#).unwrap();
        assert_eq!(read.id(), None);
    }

    #[test]
    fn a_confirmed_task_wraps_the_task() {
        let request = Request {
            id: 3,
            task: Task::Confirmed(Box::new(Task::OpenLink {
                json: "{}".to_string(),
            })),
        };
        let json = serde_json::to_string(&request).unwrap();
        assert_eq!(
            json,
            r#"{"id":3,"task":{"confirmed":{"open_link":{"json":"{}"}}}}"#
        );
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), request);
    }

    /// The worker's messages to its helper and the helper's settling, in
    /// the shapes `settled_from_js` and `Task::to_js` read and write.
    #[test]
    fn a_shared_run_has_the_documented_shape() {
        let part = Request {
            id: 5,
            task: Task::Part {
                task: Box::new(Task::Simulate {
                    scenario: "{}".to_string().into(),
                }),
                first: 1,
            },
        };
        let json = serde_json::to_string(&part).unwrap();
        assert_eq!(
            json,
            r#"{"id":5,"task":{"part":{"task":{"simulate":{"scenario":"{}"}},"first":1}}}"#
        );
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), part);
        let finish = serde_json::to_string(&Task::Finish { end_ms: 90_000 }).unwrap();
        assert_eq!(finish, r#"{"finish":{"end_ms":90000}}"#);
        let settled = Reply::Settled {
            id: Some(5),
            settled: vec![
                engine::run::Settled::Quiet(60_000),
                engine::run::Settled::Cut(7),
            ],
        };
        assert_eq!(
            serde_json::to_string(&settled).unwrap(),
            r#"{"settled":{"id":5,"settled":[{"quiet":60000},{"cut":7}]}}"#
        );
    }

    #[test]
    fn progress_and_the_cost_question_have_the_documented_shape() {
        let progress = Update::Progress {
            id: Some(4),
            summary: "variant 1 of 2".to_string(),
        };
        assert_eq!(
            serde_json::to_string(&progress).unwrap(),
            r#"{"progress":{"id":4,"summary":"variant 1 of 2"}}"#
        );
        let expensive = Update::Expensive {
            id: Some(5),
            question: "q".to_string(),
        };
        assert_eq!(
            serde_json::to_string(&expensive).unwrap(),
            r#"{"expensive":{"id":5,"question":"q"}}"#
        );
    }
}
