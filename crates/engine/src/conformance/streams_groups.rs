//! Conformance runner for family `streams-groups`: multi-step sequences of
//! calls to the broker's `StickyTaskAssignor` (KIP-1071), replayed against
//! [`StickyTaskAssignor`] once per Kafka version the file names
//! (`kafka_versions`), each under that version's rules.
//!
//! The runner keeps the present members in join order with their previous
//! targets (each member's `expect` entry of the last assignment). At every
//! `assign` step it checks, under each version:
//!
//! * that `input.members` repeats that state;
//! * that the iteration orders Java's `HashMap`s give for the ids, derived by
//!   [`StickyTaskAssignor::iteration_orders`], equal the recorded
//!   `member_order` and `process_order`;
//! * each member's active and standby set, as sets, with the assignor run on
//!   the derived orders (not the recorded ones, so the orders are checked, not
//!   copied).

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_json::Value;

use super::{ConformanceError, VectorReport};
use crate::streams_group::{
    AssignmentMember, GroupSpec, StickyTaskAssignor, StickyTaskAssignorVersion, Subtopology,
    TaskId, Topology,
};

#[derive(Deserialize)]
struct Vector {
    name: String,
    assignor: String,
    kafka_versions: Vec<String>,
    config: Config,
    topology: Vec<SubtopologyJson>,
    steps: Vec<Step>,
}

#[derive(Deserialize)]
struct Config {
    num_standby_replicas: u32,
}

#[derive(Deserialize)]
struct SubtopologyJson {
    subtopology: String,
    partitions: u32,
    stateful: bool,
}

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Step {
    Join {
        members: Vec<JoiningMember>,
    },
    Leave {
        members: Vec<String>,
    },
    Assign {
        input: Option<Input>,
        expect: Expect,
    },
}

#[derive(Deserialize)]
struct JoiningMember {
    member_id: String,
    process_id: String,
}

#[derive(Deserialize)]
struct Input {
    members: Option<Vec<InputMember>>,
    member_order: Option<Vec<String>>,
    process_order: Option<Vec<ProcessOrderJson>>,
}

#[derive(Deserialize)]
struct InputMember {
    member_id: String,
    process_id: String,
    previous_active: BTreeSet<String>,
    previous_standby: BTreeSet<String>,
    /// Not in Kafka's recorded vectors: task offset sums the member reported,
    /// which only the 4.4 assignor reads (KAFKA-20719). Absent means none.
    #[serde(default)]
    task_offsets: BTreeMap<String, i64>,
}

impl InputMember {
    /// Whether this entry repeats `present` (id, process, previous target).
    fn repeats(&self, present: &Present) -> bool {
        let names = |tasks: &BTreeSet<TaskId>| -> BTreeSet<String> {
            tasks.iter().map(ToString::to_string).collect()
        };
        self.member_id == present.member_id
            && self.process_id == present.process_id
            && self.previous_active == names(&present.active)
            && self.previous_standby == names(&present.standby)
    }
}

#[derive(Deserialize, PartialEq, Eq)]
struct ProcessOrderJson {
    process_id: String,
    member_order: Vec<String>,
}

#[derive(Deserialize)]
struct Expect {
    members: serde_json::Map<String, Value>,
}

#[derive(Deserialize)]
struct ExpectedMember {
    active: Vec<String>,
    standby: Vec<String>,
}

/// A present member: id, process and previous target.
#[derive(Clone)]
struct Present {
    member_id: String,
    process_id: String,
    active: BTreeSet<TaskId>,
    standby: BTreeSet<TaskId>,
}

pub(super) fn run(vector: &Value) -> Result<VectorReport, ConformanceError> {
    let name = vector
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_owned();
    let fail = |message: String| ConformanceError(format!("vector `{name}`: {message}"));
    let parsed: Vector = serde_json::from_value(vector.clone())
        .map_err(|e| fail(format!("not a streams-groups vector (FORMAT.md §9): {e}")))?;
    if parsed.assignor != "sticky" {
        return Err(fail(format!(
            "unknown streams-groups assignor `{}` (expected `sticky`)",
            parsed.assignor
        )));
    }
    if parsed.kafka_versions.is_empty() {
        return Err(fail("`kafka_versions` lists no version".into()));
    }
    let topology = Topology::new(
        parsed
            .topology
            .iter()
            .map(|s| Subtopology {
                id: s.subtopology.clone(),
                partitions: s.partitions,
                stateful: s.stateful,
            })
            .collect(),
    )
    .map_err(|e| fail(format!("topology: {e}")))?;

    let mut checks = 0;
    let mut failures = Vec::new();
    for label in &parsed.kafka_versions {
        let version = StickyTaskAssignorVersion::from_label(label).ok_or_else(|| {
            fail(format!(
                "kafka_versions: `{label}` is not a version with the streams-group sticky assignor (4.2.0 or later, `4.4`, `trunk`)"
            ))
        })?;
        let mut replay = Replay {
            label,
            assignor: StickyTaskAssignor::new(version),
            topology: &topology,
            num_standby_replicas: parsed.config.num_standby_replicas,
            present: Vec::new(),
            checks: 0,
            failures: Vec::new(),
        };
        for (index, step) in parsed.steps.iter().enumerate() {
            replay.step(index, step).map_err(|e| fail(e.0))?;
        }
        checks += replay.checks;
        failures.extend(replay.failures);
    }
    Ok(VectorReport {
        name: parsed.name,
        family: "streams-groups".to_owned(),
        assignor: parsed.assignor,
        kafka_versions: parsed.kafka_versions,
        checks,
        failures,
    })
}

struct Replay<'a> {
    label: &'a str,
    assignor: StickyTaskAssignor,
    topology: &'a Topology,
    num_standby_replicas: u32,
    present: Vec<Present>,
    checks: usize,
    failures: Vec<String>,
}

impl Replay<'_> {
    fn failure(&mut self, index: usize, message: String) {
        self.failures
            .push(format!("[{}] step {index} (assign): {message}", self.label));
    }

    fn step(&mut self, index: usize, step: &Step) -> Result<(), ConformanceError> {
        match step {
            Step::Join { members } => {
                for m in members {
                    if self.present.iter().any(|p| p.member_id == m.member_id) {
                        return Err(ConformanceError(format!(
                            "step {index} (join): member `{}` is already present",
                            m.member_id
                        )));
                    }
                    self.present.push(Present {
                        member_id: m.member_id.clone(),
                        process_id: m.process_id.clone(),
                        active: BTreeSet::new(),
                        standby: BTreeSet::new(),
                    });
                }
            }
            Step::Leave { members } => {
                for id in members {
                    let at = self
                        .present
                        .iter()
                        .position(|p| &p.member_id == id)
                        .ok_or_else(|| {
                            ConformanceError(format!(
                                "step {index} (leave): member `{id}` is not present"
                            ))
                        })?;
                    self.present.remove(at);
                }
            }
            Step::Assign { input, expect } => self.assign(index, input.as_ref(), expect)?,
        }
        Ok(())
    }

    fn assign(
        &mut self,
        index: usize,
        input: Option<&Input>,
        expect: &Expect,
    ) -> Result<(), ConformanceError> {
        let input_members = input.and_then(|i| i.members.as_ref());
        let mut members = Vec::with_capacity(self.present.len());
        for p in &self.present {
            let mut task_offsets = BTreeMap::new();
            if let Some(entry) =
                input_members.and_then(|list| list.iter().find(|m| m.member_id == p.member_id))
            {
                for (task, &offset) in &entry.task_offsets {
                    let task = task.parse::<TaskId>().map_err(|e| {
                        ConformanceError(format!(
                            "step {index} (assign): input.members.{}.task_offsets: {e}",
                            p.member_id
                        ))
                    })?;
                    task_offsets.insert(task, offset);
                }
            }
            members.push(AssignmentMember {
                member_id: p.member_id.clone(),
                process_id: p.process_id.clone(),
                previous_active: p.active.clone(),
                previous_standby: p.standby.clone(),
                task_offsets,
            });
        }
        let spec = GroupSpec {
            members,
            num_standby_replicas: self.num_standby_replicas,
        };
        let orders = self.assignor.iteration_orders(&spec);
        let id = |m: usize| spec.members[m].member_id.clone();

        if let Some(members) = input_members {
            self.checks += 1;
            let same = members.len() == self.present.len()
                && members.iter().zip(&self.present).all(|(m, p)| m.repeats(p));
            if !same {
                self.failure(
                    index,
                    "input.members differs from the replayed members (join order, previous targets)"
                        .into(),
                );
            }
        }
        if let Some(recorded) = input.and_then(|i| i.member_order.as_ref()) {
            self.checks += 1;
            let derived: Vec<String> = orders.members.iter().map(|&m| id(m)).collect();
            if recorded != &derived {
                self.failure(
                    index,
                    format!("member_order: recorded {recorded:?}, derived {derived:?}"),
                );
            }
        }
        if let Some(recorded) = input.and_then(|i| i.process_order.as_ref()) {
            self.checks += 1;
            let derived: Vec<ProcessOrderJson> = orders
                .processes
                .iter()
                .map(|p| ProcessOrderJson {
                    process_id: spec.members[p.first_member].process_id.clone(),
                    member_order: p.members.iter().map(|&m| id(m)).collect(),
                })
                .collect();
            if recorded != &derived {
                let show = |list: &[ProcessOrderJson]| {
                    list.iter()
                        .map(|p| format!("{}{:?}", p.process_id, p.member_order))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                self.failure(
                    index,
                    format!(
                        "process_order: recorded {}, derived {}",
                        show(recorded),
                        show(&derived)
                    ),
                );
            }
        }

        let result = self
            .assignor
            .assign_in_order(&spec, self.topology, &orders)
            .map_err(|e| ConformanceError(format!("step {index} (assign): {e}")))?;

        for key in expect.members.keys() {
            if !self.present.iter().any(|p| &p.member_id == key) {
                return Err(ConformanceError(format!(
                    "step {index} (assign): expect.members names `{key}`, which is not present"
                )));
            }
        }
        for (m, got) in result.members.iter().enumerate() {
            let member_id = got.member_id.clone();
            let Some(value) = expect.members.get(&member_id) else {
                return Err(ConformanceError(format!(
                    "step {index} (assign): expect.members has no entry for present member `{member_id}`"
                )));
            };
            let expected: ExpectedMember = serde_json::from_value(value.clone()).map_err(|e| {
                ConformanceError(format!(
                    "step {index} (assign): expect.members.{member_id}: {e}"
                ))
            })?;
            let active = parse_tasks(&expected.active, index, &member_id)?;
            let standby = parse_tasks(&expected.standby, index, &member_id)?;
            for (role, want, have) in [
                ("active", &active, &got.active),
                ("standby", &standby, &got.standby),
            ] {
                self.checks += 1;
                if want != have {
                    self.failure(
                        index,
                        format!(
                            "member `{member_id}` {role}: expected {} got {}",
                            show(want),
                            show(have)
                        ),
                    );
                }
            }
            self.present[m].active = active;
            self.present[m].standby = standby;
        }
        Ok(())
    }
}

fn parse_tasks(
    list: &[String],
    index: usize,
    member: &str,
) -> Result<BTreeSet<TaskId>, ConformanceError> {
    list.iter()
        .map(|t| {
            t.parse::<TaskId>().map_err(|e| {
                ConformanceError(format!(
                    "step {index} (assign): expect.members.{member}: {e}"
                ))
            })
        })
        .collect()
}

fn show(tasks: &BTreeSet<TaskId>) -> String {
    let list: Vec<String> = tasks.iter().map(ToString::to_string).collect();
    format!("[{}]", list.join(", "))
}
