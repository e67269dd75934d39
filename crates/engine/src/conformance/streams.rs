//! Conformance runner for family `streams`: one call of
//! Kafka Streams' `HighAvailabilityTaskAssignor.assign`, replayed against
//! [`HighAvailabilityTaskAssignor`] and compared client by client.
//!
//! Kafka reports warmups as standbys, so a client's expected `standby` set
//! is compared with hot standbys ∪ warmups. Sets are compared as sets; list
//! order means nothing. Every malformed input becomes a [`ConformanceError`]
//! naming the offending field.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{ConformanceError, VectorReport};
use crate::streams::{
    AssignmentConfigs, ClientState, HighAvailabilityTaskAssignor, ProcessId, StreamsTaskId,
    TaskAssignor,
};

pub(super) fn run(vector: &Value) -> Result<VectorReport, ConformanceError> {
    let name = str_field(vector, "name", "vector")?.to_owned();
    let fail = |message: String| ConformanceError(format!("vector `{name}`: {message}"));
    let assignor = str_field(vector, "assignor", "vector").map_err(|e| fail(e.0))?;
    if assignor != "high-availability" {
        return Err(fail(format!(
            "unknown streams assignor `{assignor}` (expected `high-availability`)"
        )));
    }
    let parsed = parse(vector).map_err(|e| fail(e.0))?;

    let result = HighAvailabilityTaskAssignor::new()
        .assign(
            &parsed.clients,
            &parsed.all_tasks,
            &parsed.stateful_tasks,
            &parsed.configs,
        )
        .map_err(|e| fail(format!("the assignor rejected the input: {e}")))?;

    let mut checks = 0;
    let mut failures = Vec::new();
    checks += 1;
    if result.probing_rebalance_needed != parsed.expected_probing {
        failures.push(format!(
            "probing_rebalance_needed: expected {} got {}",
            parsed.expected_probing, result.probing_rebalance_needed
        ));
    }
    for (client_name, process_id) in &parsed.client_names {
        let expected = &parsed.expected[client_name];
        let Some(actual) = result.client(*process_id) else {
            failures.push(format!("client `{client_name}`: missing from the result"));
            continue;
        };
        checks += 2;
        compare(
            &mut failures,
            client_name,
            "active",
            &expected.active,
            &actual.active,
        );
        compare(
            &mut failures,
            client_name,
            "standby (hot standbys + warmups)",
            &expected.standby,
            &actual.standby_and_warmup(),
        );
    }
    Ok(VectorReport {
        name,
        family: "streams".to_owned(),
        assignor: assignor.to_owned(),
        kafka_versions: Vec::new(),
        checks,
        failures,
    })
}

/// One vector, parsed and checked for consistency.
struct Parsed {
    configs: AssignmentConfigs,
    all_tasks: BTreeSet<StreamsTaskId>,
    stateful_tasks: BTreeSet<StreamsTaskId>,
    clients: Vec<ClientState>,
    /// Client names in vector order, with their process ids.
    client_names: Vec<(String, ProcessId)>,
    expected_probing: bool,
    expected: BTreeMap<String, Expected>,
}

struct Expected {
    active: BTreeSet<StreamsTaskId>,
    standby: BTreeSet<StreamsTaskId>,
}

fn parse(vector: &Value) -> Result<Parsed, ConformanceError> {
    let config = object_field(vector, "config", "vector")?;
    let configs = AssignmentConfigs {
        acceptable_recovery_lag: int_field(config, "acceptable_recovery_lag", "config")?,
        max_warmup_replicas: int_field(config, "max_warmup_replicas", "config")?,
        num_standby_replicas: int_field(config, "num_standby_replicas", "config")?,
        probing_rebalance_interval_ms: match config.get("probing_rebalance_interval_ms") {
            Some(v) => int_value(v, "config.probing_rebalance_interval_ms")?,
            None => AssignmentConfigs::default().probing_rebalance_interval_ms,
        },
    };

    let mut all_tasks = BTreeSet::new();
    let mut stateful_tasks = BTreeSet::new();
    for (i, task) in array_field(vector, "tasks", "vector")?.iter().enumerate() {
        let at = format!("tasks[{i}]");
        let task = task
            .as_object()
            .ok_or_else(|| ConformanceError(format!("{at} must be an object")))?;
        let id = parse_task(
            task.get("id")
                .ok_or_else(|| ConformanceError(format!("{at}: missing `id`")))?,
            &format!("{at}.id"),
        )?;
        let stateful = task
            .get("stateful")
            .and_then(Value::as_bool)
            .ok_or_else(|| ConformanceError(format!("{at}.stateful must be true or false")))?;
        if !all_tasks.insert(id) {
            return Err(ConformanceError(format!("{at}: task {id} is listed twice")));
        }
        if stateful {
            stateful_tasks.insert(id);
        }
    }
    let known = |task: StreamsTaskId, at: &str| {
        if all_tasks.contains(&task) {
            Ok(task)
        } else {
            Err(ConformanceError(format!("{at}: unknown task {task}")))
        }
    };

    let mut clients = Vec::new();
    let mut client_names: Vec<(String, ProcessId)> = Vec::new();
    for (i, client) in array_field(vector, "clients", "vector")?.iter().enumerate() {
        let client = client
            .as_object()
            .ok_or_else(|| ConformanceError(format!("clients[{i}] must be an object")))?;
        let name = client
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| ConformanceError(format!("clients[{i}].name must be a string")))?;
        let at = format!("client `{name}`");
        if client_names.iter().any(|(n, _)| n == name) {
            return Err(ConformanceError(format!("{at} is listed twice")));
        }
        let process_id: ProcessId = client
            .get("process_id")
            .and_then(Value::as_str)
            .ok_or_else(|| ConformanceError(format!("{at}: process_id must be a string")))?
            .parse()
            .map_err(|e| ConformanceError(format!("{at}: process_id: {e}")))?;
        if let Some((other, _)) = client_names.iter().find(|(_, p)| *p == process_id) {
            return Err(ConformanceError(format!(
                "{at}: process_id {process_id} is also client `{other}`'s"
            )));
        }
        let capacity: u32 = int_field(client, "capacity", &at)?;
        if capacity == 0 {
            return Err(ConformanceError(format!(
                "{at}: capacity must be at least 1"
            )));
        }
        let mut state = ClientState::new(process_id, capacity);
        for task in task_list(client, "previous_active", &at)? {
            state
                .previous_active
                .insert(known(task, &format!("{at}.previous_active"))?);
        }
        for task in task_list(client, "previous_standby", &at)? {
            state
                .previous_standby
                .insert(known(task, &format!("{at}.previous_standby"))?);
        }
        let lags = client
            .get("lags")
            .and_then(Value::as_object)
            .ok_or_else(|| ConformanceError(format!("{at}: lags must be an object")))?;
        for (task, lag) in lags {
            let task = task
                .parse::<StreamsTaskId>()
                .map_err(|e| ConformanceError(format!("{at}.lags: {e}")))?;
            let task = known(task, &format!("{at}.lags"))?;
            let lag: i64 = int_value(lag, &format!("{at}.lags.{task}"))?;
            state.lags.insert(task, lag);
        }
        client_names.push((name.to_owned(), process_id));
        clients.push(state);
    }

    let expect = object_field(vector, "expect", "vector")?;
    let expected_probing = expect
        .get("probing_rebalance_needed")
        .and_then(Value::as_bool)
        .ok_or_else(|| {
            ConformanceError("expect.probing_rebalance_needed must be true or false".into())
        })?;
    let expected_clients = expect
        .get("clients")
        .and_then(Value::as_object)
        .ok_or_else(|| ConformanceError("expect.clients must be an object".into()))?;
    let mut expected = BTreeMap::new();
    for (name, sets) in expected_clients {
        let at = format!("expect.clients.{name}");
        if !client_names.iter().any(|(n, _)| n == name) {
            return Err(ConformanceError(format!("{at}: no such client")));
        }
        let sets = sets
            .as_object()
            .ok_or_else(|| ConformanceError(format!("{at} must be an object")))?;
        let read = |field: &str| -> Result<BTreeSet<StreamsTaskId>, ConformanceError> {
            task_list(sets, field, &at)?
                .into_iter()
                .map(|task| known(task, &format!("{at}.{field}")))
                .collect()
        };
        let active = read("active")?;
        let standby = read("standby")?;
        expected.insert(name.clone(), Expected { active, standby });
    }
    if let Some((missing, _)) = client_names.iter().find(|(n, _)| !expected.contains_key(n)) {
        return Err(ConformanceError(format!(
            "expect.clients has no entry for client `{missing}`"
        )));
    }

    Ok(Parsed {
        configs,
        all_tasks,
        stateful_tasks,
        clients,
        client_names,
        expected_probing,
        expected,
    })
}

/// Records a readable mismatch between two task sets.
fn compare(
    failures: &mut Vec<String>,
    client: &str,
    what: &str,
    expected: &BTreeSet<StreamsTaskId>,
    actual: &BTreeSet<StreamsTaskId>,
) {
    if expected == actual {
        return;
    }
    let missing: BTreeSet<StreamsTaskId> = expected.difference(actual).copied().collect();
    let unexpected: BTreeSet<StreamsTaskId> = actual.difference(expected).copied().collect();
    failures.push(format!(
        "client `{client}` {what}: expected {} got {} (missing {}, unexpected {})",
        show(expected),
        show(actual),
        show(&missing),
        show(&unexpected)
    ));
}

fn show(tasks: &BTreeSet<StreamsTaskId>) -> String {
    let names: Vec<String> = tasks.iter().map(ToString::to_string).collect();
    format!("{{{}}}", names.join(", "))
}

fn str_field<'a>(value: &'a Value, field: &str, at: &str) -> Result<&'a str, ConformanceError> {
    value
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| ConformanceError(format!("{at}: `{field}` must be a string")))
}

fn object_field<'a>(
    value: &'a Value,
    field: &str,
    at: &str,
) -> Result<&'a Map<String, Value>, ConformanceError> {
    value
        .get(field)
        .and_then(Value::as_object)
        .ok_or_else(|| ConformanceError(format!("{at}: `{field}` must be an object")))
}

fn array_field<'a>(
    value: &'a Value,
    field: &str,
    at: &str,
) -> Result<&'a [Value], ConformanceError> {
    value
        .get(field)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| ConformanceError(format!("{at}: `{field}` must be an array")))
}

fn int_field<T: TryFrom<i64> + TryFrom<u64>>(
    object: &Map<String, Value>,
    field: &str,
    at: &str,
) -> Result<T, ConformanceError> {
    let value = object
        .get(field)
        .ok_or_else(|| ConformanceError(format!("{at}: missing `{field}`")))?;
    int_value(value, &format!("{at}.{field}"))
}

/// An integer that fits `T` (JSON numbers may be up to `Long.MAX_VALUE`).
fn int_value<T: TryFrom<i64> + TryFrom<u64>>(
    value: &Value,
    at: &str,
) -> Result<T, ConformanceError> {
    let out_of_range = || ConformanceError(format!("{at}: {value} is not an integer in range"));
    if let Some(v) = value.as_i64() {
        T::try_from(v).map_err(|_| out_of_range())
    } else if let Some(v) = value.as_u64() {
        T::try_from(v).map_err(|_| out_of_range())
    } else {
        Err(out_of_range())
    }
}

fn parse_task(value: &Value, at: &str) -> Result<StreamsTaskId, ConformanceError> {
    value
        .as_str()
        .ok_or_else(|| ConformanceError(format!("{at} must be a task id string")))?
        .parse()
        .map_err(|e| ConformanceError(format!("{at}: {e}")))
}

fn task_list(
    object: &Map<String, Value>,
    field: &str,
    at: &str,
) -> Result<Vec<StreamsTaskId>, ConformanceError> {
    let list = object
        .get(field)
        .and_then(Value::as_array)
        .ok_or_else(|| ConformanceError(format!("{at}: `{field}` must be an array")))?;
    list.iter()
        .enumerate()
        .map(|(i, task)| parse_task(task, &format!("{at}.{field}[{i}]")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::run_vector;

    const VECTOR: &str = r#"{
      "format": "rebalance-conformance/1", "family": "streams", "assignor": "high-availability",
      "kafka": "trunk-2024-10", "name": "ha14", "description": "HighAvailabilityTaskAssignorTest shouldComputeNewAssignmentIfActiveTasksWasNotOnCaughtUpClient",
      "config": { "acceptable_recovery_lag": 100, "max_warmup_replicas": 2, "num_standby_replicas": 0 },
      "tasks": [ {"id": "0_0", "stateful": true}, {"id": "0_1", "stateful": false} ],
      "clients": [
        {"name": "client1", "process_id": "00000000-0000-0000-0000-000000000001", "capacity": 1,
         "previous_active": ["0_0"], "previous_standby": [], "lags": {"0_0": 500}},
        {"name": "client2", "process_id": "00000000-0000-0000-0000-000000000002", "capacity": 1,
         "previous_active": ["0_1"], "previous_standby": [], "lags": {"0_0": 0}}
      ],
      "expect": { "probing_rebalance_needed": true, "clients": {
        "client1": {"active": ["0_1"], "standby": ["0_0"]},
        "client2": {"active": ["0_0"], "standby": []} } }
    }"#;

    #[test]
    fn a_matching_vector_passes() {
        let report = run_vector(VECTOR).unwrap();
        assert!(report.passed(), "{:?}", report.failures);
        assert_eq!(report.checks, 5);
        assert_eq!(report.family, "streams");
    }

    #[test]
    fn a_mismatch_names_the_client_and_both_sets() {
        let wrong = VECTOR.replace(
            r#""client2": {"active": ["0_0"]"#,
            r#""client2": {"active": ["0_0", "0_1"]"#,
        );
        let report = run_vector(&wrong).unwrap();
        assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
        let failure = &report.failures[0];
        assert!(failure.contains("client2"), "{failure}");
        assert!(
            failure.contains("expected {0_0, 0_1} got {0_0}"),
            "{failure}"
        );
    }

    #[test]
    fn malformed_vectors_are_errors_not_panics() {
        let cases = [
            VECTOR.replace(
                r#""capacity": 1,
         "previous_active": ["0_0"]"#,
                r#""capacity": 0,
         "previous_active": ["0_0"]"#,
            ),
            VECTOR.replace("00000000-0000-0000-0000-000000000002", "not-a-uuid"),
            VECTOR.replace(r#"{"0_0": 500}"#, r#"{"0_0": "lots"}"#),
            VECTOR.replace(r#"{"0_0": 500}"#, r#"{"9_9": 5}"#),
            VECTOR.replace(
                r#""assignor": "high-availability""#,
                r#""assignor": "sticky""#,
            ),
            VECTOR.replace(r#""client1": {"active": ["0_1"], "standby": ["0_0"]},"#, ""),
            VECTOR.replace(
                r#""tasks": ["#,
                r#""tasks": [ {"id": "0_0", "stateful": true},"#,
            ),
            VECTOR.replace(
                r#""max_warmup_replicas": 2"#,
                r#""max_warmup_replicas": -2"#,
            ),
            VECTOR.replace(r#""expect""#, r#""expected""#),
        ];
        for case in cases {
            let error = run_vector(&case).expect_err(&case);
            assert!(error.0.contains("ha14"), "{error}");
        }
    }
}
