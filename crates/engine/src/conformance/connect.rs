//! Conformance runner for family `connect`: replays a
//! scripted scenario step by step against [`IncrementalCooperativeAssignor`]
//! or [`EagerAssignor`] and compares every round with what Kafka produced.
//!
//! The runner feeds members in `input.member_order` with its *own* holdings,
//! built by applying its own outputs (holdings minus revoked, order kept,
//! then the assigned items, as Kafka's `IncrementalCooperativeAssignorTest`
//! applies them), and checks them
//! against the vector's `input.members`: a wrong item order in an earlier
//! round therefore shows up as a failure even when the sets matched. After
//! reporting such a mismatch it continues from the vector's input, so one
//! divergence does not hide later ones.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;

use serde_json::{Map, Value};

use super::{ConformanceError, VectorReport};
use crate::connect::assignment::{
    apply_delta, ConfiguredWork, MemberHoldings, RoundInput, RoundOutput,
};
use crate::connect::eager_assignor::EagerAssignor;
use crate::connect::ids::{ConnectorId, ConnectorNames, TaskId};
use crate::connect::incremental_cooperative_assignor::IncrementalCooperativeAssignor;

/// The recording clock's start (the vectors were recorded with it). Only elapsed time matters, but
/// it must be positive (`scheduledRebalance <= 0` means "none scheduled").
const T0_MS: i64 = 1_000_000_000;
/// Starting generation, last completed generation and the assignor's
/// previous generation, as in Kafka's `IncrementalCooperativeAssignorTest`.
const FIRST_GENERATION: i32 = 1000;

pub(super) fn run(vector: &Value) -> Result<VectorReport, ConformanceError> {
    let name = str_field(vector, "name", "vector")?.to_owned();
    let assignor = str_field(vector, "assignor", "vector")?.to_owned();
    let kind = match assignor.as_str() {
        "incremental-cooperative" => AssignorKind::IncrementalCooperative,
        "eager" => AssignorKind::Eager,
        other => {
            return Err(ConformanceError(format!(
                "vector `{name}`: unknown connect assignor `{other}` (expected `incremental-cooperative` or `eager`)"
            )))
        }
    };
    let max_delay_ms = match vector
        .get("config")
        .and_then(|c| c.get("scheduled_rebalance_max_delay_ms"))
    {
        Some(v) => int_in::<i32>(v, "config.scheduled_rebalance_max_delay_ms")?,
        // The eager assignor has no scheduled delay.
        None if kind == AssignorKind::Eager => 0,
        None => {
            return Err(ConformanceError(format!(
                "vector `{name}`: missing config.scheduled_rebalance_max_delay_ms"
            )))
        }
    };
    let steps = vector
        .get("steps")
        .and_then(Value::as_array)
        .ok_or_else(|| ConformanceError(format!("vector `{name}`: `steps` must be an array")))?;

    let names = ConnectorNames::new(connector_names(steps));
    let mut replay = Replay {
        names: &names,
        kind,
        max_delay_ms,
        configured: BTreeMap::new(),
        members: Vec::new(),
        clock_ms: T0_MS,
        generation: FIRST_GENERATION,
        last_completed_generation: FIRST_GENERATION,
        assignor: IncrementalCooperativeAssignor::new(max_delay_ms, FIRST_GENERATION),
        checks: 0,
        failures: Vec::new(),
    };
    for (index, step) in steps.iter().enumerate() {
        replay.step(index, step)?;
    }
    Ok(VectorReport {
        name,
        family: "connect".into(),
        assignor,
        kafka_versions: Vec::new(),
        checks: replay.checks,
        failures: replay.failures,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AssignorKind {
    IncrementalCooperative,
    Eager,
}

/// The state a replay keeps between steps: configured connectors, members
/// with ordered holdings, clock, generations and the long-lived assignor.
struct Replay<'n> {
    names: &'n ConnectorNames,
    kind: AssignorKind,
    max_delay_ms: i32,
    /// Connector → task count.
    configured: BTreeMap<ConnectorId, u32>,
    /// Members in join order, with ordered holdings.
    members: Vec<MemberHoldings>,
    clock_ms: i64,
    generation: i32,
    last_completed_generation: i32,
    /// The long-lived leader (unused for eager vectors).
    assignor: IncrementalCooperativeAssignor,
    checks: usize,
    failures: Vec<String>,
}

impl Replay<'_> {
    fn step(&mut self, index: usize, step: &Value) -> Result<(), ConformanceError> {
        let op = str_field(step, "op", &format!("step {index}"))?;
        let at = format!("step {index} ({op})");
        match op {
            "configure" => {
                let connectors = object_field(step, "connectors", &at)?;
                let mut configured = BTreeMap::new();
                for (name, count) in connectors {
                    let count = int_in::<u32>(count, &format!("{at}: task count of `{name}`"))?;
                    configured.insert(self.connector(name, &at)?, count);
                }
                self.configured = configured;
            }
            "join" => {
                let holding = match step.get("holding") {
                    Some(h) => Some(h.as_object().ok_or_else(|| {
                        ConformanceError(format!("{at}: `holding` must be an object"))
                    })?),
                    None => None,
                };
                for worker in string_list(step, "workers", &at)? {
                    if self.members.iter().any(|m| m.member == worker) {
                        return Err(ConformanceError(format!(
                            "{at}: worker `{worker}` is already a member"
                        )));
                    }
                    let mut member = MemberHoldings::empty(worker.clone());
                    if let Some(held) = holding.and_then(|h| h.get(&worker)) {
                        (member.connectors, member.tasks) =
                            self.holdings(held, &format!("{at}: holding of `{worker}`"))?;
                    }
                    self.members.push(member);
                }
            }
            "leave" => {
                for worker in string_list(step, "workers", &at)? {
                    let before = self.members.len();
                    self.members.retain(|m| m.member != worker);
                    if self.members.len() == before {
                        return Err(ConformanceError(format!(
                            "{at}: worker `{worker}` is not a member"
                        )));
                    }
                }
            }
            "sleep" => {
                let ms = int_in::<i64>(field(step, "ms", &at)?, &format!("{at}: ms"))?;
                if ms < 0 {
                    return Err(ConformanceError(format!("{at}: negative sleep {ms}")));
                }
                self.clock_ms += ms;
            }
            "new_leader" => {
                self.assignor =
                    IncrementalCooperativeAssignor::new(self.max_delay_ms, self.generation);
            }
            "rebalance" => self.rebalance(index, step)?,
            other => {
                return Err(ConformanceError(format!(
                    "step {index}: unknown op `{other}`"
                )))
            }
        }
        Ok(())
    }

    /// A `rebalance` step: one group round at the long-lived leader.
    fn rebalance(&mut self, index: usize, step: &Value) -> Result<(), ConformanceError> {
        self.generation += 1;
        let at = format!("step {index} (rebalance, generation {})", self.generation);
        let completed = bool_field(step, "completed", &at)?;
        let advance = match step.get("advance_last_completed") {
            Some(v) => v.as_bool().ok_or_else(|| {
                ConformanceError(format!("{at}: `advance_last_completed` must be a boolean"))
            })?,
            None => completed,
        };
        let input = field(step, "input", &at)?;
        let order = self.check_input(input, &at)?;
        let expect = field(step, "expect", &at)?;

        let members: Vec<MemberHoldings> = order.iter().map(|&i| self.members[i].clone()).collect();
        let configured =
            ConfiguredWork::new(self.configured.iter().map(|(&c, &n)| (c, n)).collect());
        let round = RoundInput {
            configured: &configured,
            members: &members,
            generation: self.generation,
            last_completed_generation: self.last_completed_generation,
            now_ms: self.clock_ms,
        };
        let output = match self.kind {
            AssignorKind::IncrementalCooperative => self.assignor.perform_assignment(&round),
            AssignorKind::Eager => EagerAssignor.assign(&round),
        };
        if output.deltas.len() != members.len() {
            self.failures.push(format!(
                "{at}: the assignor returned {} deltas for {} members",
                output.deltas.len(),
                members.len()
            ));
            return Ok(());
        }
        self.checks += 1;
        self.compare(&at, expect, &members, &output, completed)?;

        if completed {
            for (&i, delta) in order.iter().zip(&output.deltas) {
                apply_delta(&mut self.members[i], delta);
            }
        }
        if advance {
            self.last_completed_generation = self.generation;
        }
        Ok(())
    }

    /// Cross-checks `input` against the runner's state. Reports every
    /// difference as a failure, then adopts the vector's view so later steps
    /// stay comparable. Returns member indices in `member_order`.
    fn check_input(&mut self, input: &Value, at: &str) -> Result<Vec<usize>, ConformanceError> {
        let generation = int_in::<i32>(
            field(input, "generation", at)?,
            &format!("{at}: input.generation"),
        )?;
        let last_completed = int_in::<i32>(
            field(input, "last_completed_generation", at)?,
            &format!("{at}: input.last_completed_generation"),
        )?;
        if generation != self.generation {
            self.failures.push(format!(
                "{at}: input.generation is {generation}, the runner is at {}",
                self.generation
            ));
            self.generation = generation;
        }
        if last_completed != self.last_completed_generation {
            self.failures.push(format!(
                "{at}: input.last_completed_generation is {last_completed}, the runner has {}",
                self.last_completed_generation
            ));
            self.last_completed_generation = last_completed;
        }

        let order_names = string_list(input, "member_order", at)?;
        let reported = object_field(input, "members", at)?;
        let ours: BTreeSet<&str> = self.members.iter().map(|m| m.member.as_str()).collect();
        let theirs: BTreeSet<&str> = order_names.iter().map(String::as_str).collect();
        if theirs.len() != order_names.len() {
            return Err(ConformanceError(format!(
                "{at}: input.member_order repeats a member"
            )));
        }
        let listed: BTreeSet<&str> = reported.keys().map(String::as_str).collect();
        if listed != theirs {
            return Err(ConformanceError(format!(
                "{at}: input.member_order {} and input.members {} name different members",
                join(&theirs),
                join(&listed)
            )));
        }
        if ours != theirs {
            self.failures.push(format!(
                "{at}: members differ: vector has {}, runner has {}",
                join(&theirs),
                join(&ours)
            ));
            self.members.retain(|m| theirs.contains(m.member.as_str()));
            for name in &order_names {
                if !self.members.iter().any(|m| &m.member == name) {
                    self.members.push(MemberHoldings::empty(name.clone()));
                }
            }
        }

        let mut order = Vec::with_capacity(order_names.len());
        for name in &order_names {
            let Some(i) = self.members.iter().position(|m| &m.member == name) else {
                continue;
            };
            let held = reported
                .get(name)
                .ok_or_else(|| ConformanceError(format!("{at}: input.members lacks `{name}`")))?;
            let (connectors, tasks) =
                self.holdings(held, &format!("{at}: input.members.{name}"))?;
            let member = &mut self.members[i];
            if member.connectors != connectors {
                self.failures.push(format!(
                    "{at}: {name}: holds connectors {}, runner has {}",
                    list(connectors.iter().map(|&c| self.names.name(c))),
                    list(member.connectors.iter().map(|&c| self.names.name(c)))
                ));
                member.connectors = connectors;
            }
            if member.tasks != tasks {
                self.failures.push(format!(
                    "{at}: {name}: holds tasks {}, runner has {}",
                    list(tasks.iter().map(|&t| self.names.task_label(t))),
                    list(member.tasks.iter().map(|&t| self.names.task_label(t)))
                ));
                member.tasks = tasks;
            }
            order.push(i);
        }
        Ok(order)
    }

    /// Compares one round's output with `expect`.
    fn compare(
        &mut self,
        at: &str,
        expect: &Value,
        members: &[MemberHoldings],
        output: &RoundOutput,
        completed: bool,
    ) -> Result<(), ConformanceError> {
        let delay = int_in::<i32>(
            field(expect, "delay_ms", at)?,
            &format!("{at}: expect.delay_ms"),
        )?;
        if delay != output.delay_ms {
            self.failures.push(format!(
                "{at}: delay_ms expected {delay}, got {}",
                output.delay_ms
            ));
        }
        let workers = object_field(expect, "workers", at)?;
        for name in workers.keys() {
            if !members.iter().any(|m| &m.member == name) {
                self.failures.push(format!(
                    "{at}: expect.workers names `{name}`, which is not a member"
                ));
            }
        }
        for (member, delta) in members.iter().zip(&output.deltas) {
            let name = &member.member;
            let Some(expected) = workers.get(name) else {
                self.failures.push(format!(
                    "{at}: expect.workers has no entry for member `{name}`"
                ));
                continue;
            };
            let ctx = format!("{at}: expect.workers.{name}");
            let names = self.names;
            let connector_label = |c: &ConnectorId| names.name(*c).to_owned();
            let task_label = |t: &TaskId| names.task_label(*t);
            let checks: [(&str, Vec<String>, Vec<String>); 4] = [
                (
                    "assigned_connectors",
                    self.connector_list(field(expected, "assigned_connectors", &ctx)?, &ctx)?
                        .iter()
                        .map(connector_label)
                        .collect(),
                    delta
                        .assigned_connectors
                        .iter()
                        .map(connector_label)
                        .collect(),
                ),
                (
                    "assigned_tasks",
                    self.task_list(field(expected, "assigned_tasks", &ctx)?, &ctx)?
                        .iter()
                        .map(task_label)
                        .collect(),
                    delta.assigned_tasks.iter().map(task_label).collect(),
                ),
                (
                    "revoked_connectors",
                    self.connector_list(field(expected, "revoked_connectors", &ctx)?, &ctx)?
                        .iter()
                        .map(connector_label)
                        .collect(),
                    delta
                        .revoked_connectors
                        .iter()
                        .map(connector_label)
                        .collect(),
                ),
                (
                    "revoked_tasks",
                    self.task_list(field(expected, "revoked_tasks", &ctx)?, &ctx)?
                        .iter()
                        .map(task_label)
                        .collect(),
                    delta.revoked_tasks.iter().map(task_label).collect(),
                ),
            ];
            for (what, expected_items, actual_items) in checks {
                if let Some(diff) = set_difference(&expected_items, &actual_items) {
                    self.failures.push(format!("{at}: {name}: {what} {diff}"));
                }
            }

            let mut after = member.clone();
            if completed {
                apply_delta(&mut after, delta);
            }
            for (what, actual) in [
                ("holds_connectors", after.connectors.len()),
                ("holds_tasks", after.tasks.len()),
            ] {
                let expected =
                    int_in::<usize>(field(expected, what, &ctx)?, &format!("{ctx}.{what}"))?;
                if expected != actual {
                    self.failures.push(format!(
                        "{at}: {name}: {what} expected {expected}, got {actual}"
                    ));
                }
            }
        }
        Ok(())
    }

    fn connector(&self, name: &str, at: &str) -> Result<ConnectorId, ConformanceError> {
        self.names
            .id(name)
            .ok_or_else(|| ConformanceError(format!("{at}: unknown connector `{name}`")))
    }

    fn connector_list(
        &self,
        value: &Value,
        at: &str,
    ) -> Result<Vec<ConnectorId>, ConformanceError> {
        strings(value, at)?
            .into_iter()
            .map(|name| self.connector(name, at))
            .collect()
    }

    fn task_list(&self, value: &Value, at: &str) -> Result<Vec<TaskId>, ConformanceError> {
        strings(value, at)?
            .into_iter()
            .map(|label| {
                self.names.parse_task(label).ok_or_else(|| {
                    ConformanceError(format!(
                        "{at}: `{label}` is not a task id `<connector>-<index>` of a known connector"
                    ))
                })
            })
            .collect()
    }

    /// `{"connectors": [...], "tasks": [...]}`, order kept.
    fn holdings(
        &self,
        value: &Value,
        at: &str,
    ) -> Result<(Vec<ConnectorId>, Vec<TaskId>), ConformanceError> {
        Ok((
            self.connector_list(field(value, "connectors", at)?, &format!("{at}.connectors"))?,
            self.task_list(field(value, "tasks", at)?, &format!("{at}.tasks"))?,
        ))
    }
}

/// `None` when `expected` and `actual` hold the same items; otherwise a
/// readable "expected {..}, got {..} (missing ..; unexpected ..)".
fn set_difference(expected: &[String], actual: &[String]) -> Option<String> {
    let e: BTreeSet<&str> = expected.iter().map(String::as_str).collect();
    let a: BTreeSet<&str> = actual.iter().map(String::as_str).collect();
    if e == a {
        return None;
    }
    let missing: BTreeSet<&str> = e.difference(&a).copied().collect();
    let unexpected: BTreeSet<&str> = a.difference(&e).copied().collect();
    let mut detail = Vec::new();
    if !missing.is_empty() {
        detail.push(format!("missing {}", join(&missing)));
    }
    if !unexpected.is_empty() {
        detail.push(format!("unexpected {}", join(&unexpected)));
    }
    Some(format!(
        "expected {}, got {} ({})",
        list(expected.iter()),
        list(actual.iter()),
        detail.join("; ")
    ))
}

/// Every connector name a vector mentions, so that they can be interned in
/// Java order before the first step (deleted connectors included).
fn connector_names(steps: &[Value]) -> BTreeSet<String> {
    fn from_task(label: &str) -> Option<&str> {
        label.rsplit_once('-').map(|(name, _)| name)
    }
    fn from_holdings(value: &Value, names: &mut BTreeSet<String>) {
        let items = |key: &str| {
            value
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
        };
        for key in ["connectors", "assigned_connectors", "revoked_connectors"] {
            names.extend(items(key).map(str::to_owned));
        }
        for key in ["tasks", "assigned_tasks", "revoked_tasks"] {
            names.extend(items(key).filter_map(from_task).map(str::to_owned));
        }
    }
    let mut names = BTreeSet::new();
    for step in steps {
        if let Some(connectors) = step.get("connectors").and_then(Value::as_object) {
            names.extend(connectors.keys().cloned());
        }
        let holdings = [
            step.get("holding"),
            step.get("input").and_then(|i| i.get("members")),
            step.get("expect").and_then(|e| e.get("workers")),
        ];
        for map in holdings.into_iter().flatten().filter_map(Value::as_object) {
            for held in map.values() {
                from_holdings(held, &mut names);
            }
        }
    }
    names
}

fn field<'v>(value: &'v Value, key: &str, at: &str) -> Result<&'v Value, ConformanceError> {
    value
        .get(key)
        .ok_or_else(|| ConformanceError(format!("{at}: missing `{key}`")))
}

fn str_field<'v>(value: &'v Value, key: &str, at: &str) -> Result<&'v str, ConformanceError> {
    field(value, key, at)?
        .as_str()
        .ok_or_else(|| ConformanceError(format!("{at}: `{key}` must be a string")))
}

fn bool_field(value: &Value, key: &str, at: &str) -> Result<bool, ConformanceError> {
    field(value, key, at)?
        .as_bool()
        .ok_or_else(|| ConformanceError(format!("{at}: `{key}` must be a boolean")))
}

fn object_field<'v>(
    value: &'v Value,
    key: &str,
    at: &str,
) -> Result<&'v Map<String, Value>, ConformanceError> {
    field(value, key, at)?
        .as_object()
        .ok_or_else(|| ConformanceError(format!("{at}: `{key}` must be an object")))
}

fn string_list(value: &Value, key: &str, at: &str) -> Result<Vec<String>, ConformanceError> {
    Ok(strings(field(value, key, at)?, &format!("{at}: `{key}`"))?
        .into_iter()
        .map(str::to_owned)
        .collect())
}

fn strings<'v>(value: &'v Value, at: &str) -> Result<Vec<&'v str>, ConformanceError> {
    value
        .as_array()
        .ok_or_else(|| ConformanceError(format!("{at}: expected a list of strings")))?
        .iter()
        .map(|v| {
            v.as_str()
                .ok_or_else(|| ConformanceError(format!("{at}: expected a string, found {v}")))
        })
        .collect()
}

/// An integer that fits `N`.
fn int_in<N: TryFrom<i64>>(value: &Value, at: &str) -> Result<N, ConformanceError> {
    value
        .as_i64()
        .and_then(|v| N::try_from(v).ok())
        .ok_or_else(|| {
            ConformanceError(format!("{at}: expected an integer in range, found {value}"))
        })
}

fn list<I: IntoIterator<Item = S>, S: Display>(items: I) -> String {
    let items: Vec<String> = items.into_iter().map(|s| s.to_string()).collect();
    format!("[{}]", items.join(", "))
}

fn join(items: &BTreeSet<&str>) -> String {
    list(items.iter())
}
