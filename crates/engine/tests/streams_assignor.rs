//! Exact outputs of Kafka Streams' task assignors, as recorded by running
//! Kafka's own classes on the scenarios of `HighAvailabilityTaskAssignorTest`
//! and a few extra ones, and as asserted by Kafka's
//! `LegacyStickyTaskAssignorTest`.
//!
//! Notation: `Pn` = `ProcessId(new UUID(0, n))`, `a_b` =
//! `TaskId(a, b)`, `MAX` = `Long.MAX_VALUE`, `LATEST` = −2. Expected standby
//! sets are Kafka's, i.e. hot standbys and warmups together.

use std::collections::{BTreeMap, BTreeSet};

use engine::streams::{
    AssignmentConfigs, ClientState, HighAvailabilityTaskAssignor, ProcessId, StickyTaskAssignor,
    StreamsAssignment, StreamsTaskId, TaskAssignor, LATEST_OFFSET, NO_STATE_LAG,
};

const MAX: i64 = NO_STATE_LAG;
const LATEST: i64 = LATEST_OFFSET;

fn t(s: &str) -> StreamsTaskId {
    s.parse().unwrap()
}

/// A task set from a space-separated list such as `"0_0 0_1"`.
fn set(list: &str) -> BTreeSet<StreamsTaskId> {
    list.split_whitespace().map(t).collect()
}

/// Tasks `{subtopologies} × {partitions}`.
fn grid(subtopologies: u32, partitions: u32) -> BTreeSet<StreamsTaskId> {
    (0..subtopologies)
        .flat_map(|s| (0..partitions).map(move |p| StreamsTaskId::new(s, p)))
        .collect()
}

fn pid(n: i64) -> ProcessId {
    ProcessId::from_position(n)
}

fn client(n: i64, capacity: u32) -> ClientState {
    ClientState::new(pid(n), capacity)
}

/// The same lag for every task in `tasks`.
fn lags(tasks: &BTreeSet<StreamsTaskId>, lag: i64) -> Vec<(StreamsTaskId, i64)> {
    tasks.iter().map(|&task| (task, lag)).collect()
}

/// Kafka's `getMockClientWithPreviousCaughtUpTasks`: capacity 1, previous
/// active `caught_up` with lag 0, lag MAX for the other stateful tasks.
fn mock(n: i64, caught_up: &str, stateful: &BTreeSet<StreamsTaskId>) -> ClientState {
    let caught_up = set(caught_up);
    client(n, 1)
        .with_previous_active(caught_up.iter().copied())
        .with_lags(
            stateful
                .iter()
                .map(|&task| (task, if caught_up.contains(&task) { 0 } else { MAX })),
        )
}

fn configs(
    acceptable_recovery_lag: i64,
    max_warmup_replicas: u32,
    num_standby_replicas: u32,
) -> AssignmentConfigs {
    AssignmentConfigs {
        acceptable_recovery_lag,
        max_warmup_replicas,
        num_standby_replicas,
        probing_rebalance_interval_ms: 60_000,
    }
}

/// `getConfigWithoutStandbys`: acc 100, warm 2, sb 0.
fn without_standbys() -> AssignmentConfigs {
    configs(100, 2, 0)
}

/// `getConfigWithStandbys`: acc 100, warm 2, sb 1.
fn with_standbys() -> AssignmentConfigs {
    configs(100, 2, 1)
}

fn hata(
    clients: &[ClientState],
    all: &BTreeSet<StreamsTaskId>,
    stateful: &BTreeSet<StreamsTaskId>,
    configs: AssignmentConfigs,
) -> StreamsAssignment {
    HighAvailabilityTaskAssignor::new()
        .assign(clients, all, stateful, &configs)
        .unwrap()
}

fn sticky(
    clients: &[ClientState],
    tasks: &BTreeSet<StreamsTaskId>,
    standbys: u32,
) -> StreamsAssignment {
    StickyTaskAssignor::new()
        .assign(clients, tasks, tasks, &configs(0, 1, standbys))
        .unwrap()
}

fn show(tasks: &BTreeSet<StreamsTaskId>) -> String {
    let names: Vec<String> = tasks.iter().map(ToString::to_string).collect();
    format!("{{{}}}", names.join(","))
}

/// Asserts the whole result: `expected` lists `(n, active, standby)` for every
/// client `Pn`, standby meaning hot standbys plus warmups.
#[track_caller]
fn assert_assignment(result: &StreamsAssignment, expected: &[(i64, &str, &str)], probing: bool) {
    let mut problems = Vec::new();
    for &(n, active, standby) in expected {
        let Some(actual) = result.client(pid(n)) else {
            problems.push(format!("P{n}: missing from the result"));
            continue;
        };
        if actual.active != set(active) {
            problems.push(format!(
                "P{n} active: expected {} got {}",
                show(&set(active)),
                show(&actual.active)
            ));
        }
        let standby_and_warmup = actual.standby_and_warmup();
        if standby_and_warmup != set(standby) {
            problems.push(format!(
                "P{n} standby: expected {} got {}",
                show(&set(standby)),
                show(&standby_and_warmup)
            ));
        }
    }
    if result.clients.len() != expected.len() {
        problems.push(format!(
            "expected {} clients, got {}",
            expected.len(),
            result.clients.len()
        ));
    }
    if result.probing_rebalance_needed != probing {
        problems.push(format!(
            "probing_rebalance_needed: expected {probing} got {}",
            result.probing_rebalance_needed
        ));
    }
    assert!(
        problems.is_empty(),
        "{}\nfull result: {result:#?}",
        problems.join("\n")
    );
}

// ------------------------------------ HighAvailabilityTaskAssignorTest ---

#[test]
fn ha01_should_be_sticky_for_active_and_standby_tasks_while_warming_up() {
    let tasks = grid(3, 3);
    let clients = [
        client(1, 1)
            .with_previous_active(tasks.clone())
            .with_lags(lags(&tasks, 0)),
        client(2, 1)
            .with_previous_standby(tasks.clone())
            .with_lags(lags(&tasks, 10)),
        client(3, 1).with_lags(lags(&tasks, MAX)),
    ];
    let result = hata(&clients, &tasks, &tasks, configs(11, 2, 1));
    assert_assignment(
        &result,
        &[
            (1, "0_0 0_2 1_0 2_0 2_2", "0_1 1_1 1_2 2_1"),
            (2, "0_1 1_1 1_2 2_1", "0_0 0_2 1_0 2_0 2_2"),
            (3, "", "0_1 0_2"),
        ],
        true,
    );
    // The two copies on P3 are warmups, not hot standbys.
    let p3 = result.client(pid(3)).unwrap();
    assert_eq!(p3.warmup, set("0_1 0_2"));
    assert!(p3.standby.is_empty());
}

#[test]
fn ha02_should_skip_warmups_when_acceptable_lag_is_max() {
    let tasks = grid(3, 3);
    let clients = [
        client(1, 1)
            .with_previous_active(tasks.clone())
            .with_lags(lags(&tasks, 0)),
        client(2, 1).with_lags(lags(&tasks, MAX)),
        client(3, 1).with_lags(lags(&tasks, MAX)),
    ];
    let result = hata(&clients, &tasks, &tasks, configs(MAX, 1, 1));
    assert_assignment(
        &result,
        &[
            (1, "0_0 1_0 2_0", "0_2 2_1 2_2"),
            (2, "0_1 1_1 2_1", "0_0 1_2 2_0"),
            (3, "0_2 1_2 2_2", "0_1 1_0 1_1"),
        ],
        false,
    );
}

fn lag_ten_clients(capacities: &[u32], tasks: &BTreeSet<StreamsTaskId>) -> Vec<ClientState> {
    capacities
        .iter()
        .enumerate()
        .map(|(i, &cap)| client(i as i64 + 1, cap).with_lags(lags(tasks, 10)))
        .collect()
}

#[test]
fn ha03_ha04_ha08_evenly_over_clients_whatever_the_thread_count() {
    let tasks = grid(3, 3);
    for capacity in [1, 3, 9] {
        let clients = lag_ten_clients(&[capacity; 3], &tasks);
        let result = hata(&clients, &tasks, &tasks, configs(0, 1, 0));
        assert_assignment(
            &result,
            &[
                (1, "0_0 1_0 2_0", ""),
                (2, "0_1 1_1 2_1", ""),
                (3, "0_2 1_2 2_2", ""),
            ],
            false,
        );
    }
}

#[test]
fn ha05_clients_not_an_integral_divisor_of_tasks() {
    let tasks = grid(3, 3);
    let clients = lag_ten_clients(&[1, 1], &tasks);
    let result = hata(&clients, &tasks, &tasks, configs(0, 1, 0));
    assert_assignment(
        &result,
        &[(1, "0_0 0_2 1_1 2_0 2_2", ""), (2, "0_1 1_0 1_2 2_1", "")],
        false,
    );
}

#[test]
fn ha06_unevenly_distributed_stream_threads() {
    let tasks = grid(2, 3);
    let clients = lag_ten_clients(&[1, 2, 3], &tasks);
    let result = hata(&clients, &tasks, &tasks, configs(0, 1, 0));
    assert_assignment(
        &result,
        &[(1, "1_0", ""), (2, "0_1 1_1", ""), (3, "0_0 0_2 1_2", "")],
        false,
    );
}

#[test]
fn ha07_more_clients_than_tasks() {
    let tasks = grid(1, 2);
    let clients = lag_ten_clients(&[1, 1, 1], &tasks);
    let result = hata(&clients, &tasks, &tasks, configs(0, 1, 0));
    assert_assignment(
        &result,
        &[(1, "0_0", ""), (2, "0_1", ""), (3, "", "")],
        false,
    );
}

#[test]
fn ha09_warmups_when_balanced_over_threads_but_not_over_clients() {
    let tasks = grid(2, 2);
    let clients = [
        client(1, 5)
            .with_previous_active(tasks.clone())
            .with_lags(lags(&tasks, 0)),
        client(2, 5).with_lags(lags(&tasks, MAX)),
        client(3, 5).with_lags(lags(&tasks, MAX)),
    ];
    let result = hata(&clients, &tasks, &tasks, configs(0, 2, 0));
    assert_assignment(
        &result,
        &[(1, "0_0 0_1 1_0 1_1", ""), (2, "", "0_1"), (3, "", "1_0")],
        true,
    );
}

#[test]
fn ha10_warmed_up_clients_take_their_share() {
    let tasks = grid(2, 2);
    let warmed = |n: i64, task: &str| {
        client(n, 5).with_previous_standby(set(task)).with_lags(
            tasks
                .iter()
                .map(|&x| (x, if x == t(task) { 0 } else { MAX })),
        )
    };
    let clients = [
        client(1, 5)
            .with_previous_active(tasks.clone())
            .with_lags(lags(&tasks, 0)),
        warmed(2, "0_1"),
        warmed(3, "1_0"),
    ];
    let result = hata(&clients, &tasks, &tasks, configs(0, 2, 0));
    assert_assignment(
        &result,
        &[(1, "0_0 1_1", ""), (2, "0_1", ""), (3, "1_0", "")],
        false,
    );
}

#[test]
fn ha11_evenly_over_threads_best_effort_over_clients() {
    let tasks = grid(3, 3);
    let clients = lag_ten_clients(&[6, 3], &tasks);
    let result = hata(&clients, &tasks, &tasks, configs(0, 1, 0));
    assert_assignment(
        &result,
        &[(1, "0_0 0_1 0_2 1_1 2_0 2_2", ""), (2, "1_0 1_2 2_1", "")],
        false,
    );
}

#[test]
fn ha12_unassigned_active_tasks() {
    let all = set("0_0 0_1");
    let stateful = set("0_0");
    let clients = [mock(1, "0_0", &stateful)];
    let result = hata(&clients, &all, &stateful, without_standbys());
    assert_assignment(&result, &[(1, "0_0 0_1", "")], false);
}

#[test]
fn ha13_unassigned_standby_tasks() {
    let tasks = set("0_0");
    let clients = [
        mock(1, "0_0", &tasks),
        client(2, 1).with_lags(lags(&tasks, 0)),
    ];
    let result = hata(&clients, &tasks, &tasks, with_standbys());
    assert_assignment(&result, &[(1, "0_0", ""), (2, "", "0_0")], false);
}

#[test]
fn ha14_active_task_was_not_on_caught_up_client() {
    let all = set("0_0 0_1");
    let stateful = set("0_0");
    let clients = [
        client(1, 1)
            .with_previous_active(set("0_0"))
            .with_lags([(t("0_0"), 500)]),
        client(2, 1)
            .with_previous_active(set("0_1"))
            .with_lags([(t("0_0"), 0)]),
    ];
    let result = hata(&clients, &all, &stateful, without_standbys());
    assert_assignment(&result, &[(1, "0_1", "0_0"), (2, "0_0", "")], true);
    assert_eq!(result.client(pid(1)).unwrap().warmup, set("0_0"));
}

#[test]
fn ha15_most_caught_up_when_nobody_is_caught_up() {
    let tasks = set("0_0");
    let clients = [
        client(1, 1).with_lags([(t("0_0"), MAX)]),
        client(2, 1).with_lags([(t("0_0"), 1000)]),
        client(3, 1).with_lags([(t("0_0"), 500)]),
    ];
    let result = hata(&clients, &tasks, &tasks, with_standbys());
    assert_assignment(
        &result,
        &[(1, "", "0_0"), (2, "", "0_0"), (3, "0_0", "")],
        true,
    );
    // P2 is the hot standby, P1 the warmup.
    assert_eq!(result.client(pid(2)).unwrap().standby, set("0_0"));
    assert_eq!(result.client(pid(1)).unwrap().warmup, set("0_0"));
}

#[test]
fn ha16_standbys_for_stateful_tasks() {
    let tasks = set("0_0 0_1");
    let clients = [mock(1, "0_0", &tasks), mock(2, "0_1", &tasks)];
    let result = hata(&clients, &tasks, &tasks, with_standbys());
    assert_assignment(&result, &[(1, "0_0", "0_1"), (2, "0_1", "0_0")], false);
}

#[test]
fn ha17_no_standbys_for_stateless_tasks() {
    let all = set("0_0 0_1");
    let stateful = BTreeSet::new();
    let clients = [mock(1, "", &stateful), mock(2, "", &stateful)];
    let result = hata(&clients, &all, &stateful, with_standbys());
    assert_assignment(&result, &[(1, "0_0", ""), (2, "0_1", "")], false);
}

#[test]
fn ha18_ha28_warmups_even_without_standbys() {
    let tasks = set("0_0 0_1");
    let clients = [mock(1, "0_0 0_1", &tasks), mock(2, "", &tasks)];
    let result = hata(&clients, &tasks, &tasks, without_standbys());
    assert_assignment(&result, &[(1, "0_0 0_1", ""), (2, "", "0_1")], true);
}

#[test]
fn ha19_no_more_than_max_warmup_replicas() {
    let tasks = grid(1, 4);
    let clients = [mock(1, "0_0 0_1 0_2 0_3", &tasks), mock(2, "", &tasks)];
    let result = hata(&clients, &tasks, &tasks, configs(100, 1, 0));
    assert_assignment(&result, &[(1, "0_0 0_1 0_2 0_3", ""), (2, "", "0_1")], true);
}

#[test]
fn ha20_no_warmup_and_standby_on_the_same_client() {
    let tasks = grid(1, 4);
    let clients = [mock(1, "0_0 0_1 0_2 0_3", &tasks), mock(2, "", &tasks)];
    let result = hata(&clients, &tasks, &tasks, configs(100, 1, 1));
    assert_assignment(
        &result,
        &[(1, "0_0 0_1 0_2 0_3", ""), (2, "", "0_0 0_1 0_2 0_3")],
        true,
    );
    // These are hot standbys: the warmup budget went to nobody.
    assert!(result.client(pid(2)).unwrap().warmup.is_empty());
}

#[test]
fn ha21_no_standbys_with_insufficient_capacity() {
    let tasks = set("0_0 0_1");
    let clients = [mock(1, "0_0 0_1", &tasks)];
    let result = hata(&clients, &tasks, &tasks, with_standbys());
    assert_assignment(&result, &[(1, "0_0 0_1", "")], false);
}

#[test]
fn ha22_active_tasks_to_a_client_that_is_not_caught_up_if_none_is() {
    let tasks = set("0_0 0_1");
    let clients = [client(1, 1).with_lags(lags(&tasks, MAX))];
    let result = hata(&clients, &tasks, &tasks, with_standbys());
    assert_assignment(&result, &[(1, "0_0 0_1", "")], false);
}

#[test]
fn ha23_no_more_than_max_warmup_replicas_with_standbys() {
    let tasks = grid(1, 4);
    let clients = [
        mock(1, "0_0 0_1 0_2 0_3", &tasks),
        mock(2, "", &tasks),
        mock(3, "", &tasks),
    ];
    let result = hata(&clients, &tasks, &tasks, configs(100, 2, 1));
    assert_assignment(
        &result,
        &[
            (1, "0_0 0_1 0_2 0_3", ""),
            (2, "", "0_0 0_1 0_2 0_3"),
            (3, "", "0_1 0_2"),
        ],
        true,
    );
}

#[test]
fn ha24_stateless_tasks_balance_total_load() {
    let all = set("0_0 0_1 0_2 0_3 1_0 1_1 1_2");
    let stateful = set("0_0 0_1 0_2 0_3");
    let clients = [
        mock(1, "0_0 0_1 0_2 0_3", &stateful),
        mock(2, "", &stateful),
    ];
    let result = hata(&clients, &all, &stateful, with_standbys());
    assert_assignment(
        &result,
        &[
            (1, "0_0 0_1 0_2 0_3", ""),
            (2, "1_0 1_1 1_2", "0_0 0_1 0_2 0_3"),
        ],
        true,
    );
}

#[test]
fn ha25_stateful_active_tasks_to_all_clients() {
    let tasks = set("0_0 0_1 0_2 0_3 1_0 1_1 1_2 1_3 2_0");
    let clients = [
        client(1, 100).with_lags(lags(&tasks, 0)),
        client(2, 50).with_lags(lags(&tasks, 0)),
        client(3, 1).with_lags(lags(&tasks, 0)),
    ];
    let result = hata(&clients, &tasks, &tasks, without_standbys());
    assert_assignment(
        &result,
        &[
            (1, "0_0 0_1 0_2 0_3 1_1 1_2", ""),
            (2, "1_0 1_3", ""),
            (3, "2_0", ""),
        ],
        false,
    );
}

#[test]
fn ha26_previous_assignment_reused() {
    let tasks = grid(1, 4);
    let clients = [mock(1, "0_0 0_2", &tasks), mock(2, "0_1 0_3", &tasks)];
    let result = hata(&clients, &tasks, &tasks, without_standbys());
    assert_assignment(&result, &[(1, "0_0 0_2", ""), (2, "0_1 0_3", "")], false);
}

#[test]
fn ha26b_churn_toward_the_canonical_layout() {
    let tasks = grid(1, 4);
    let clients = [mock(1, "0_0 0_1", &tasks), mock(2, "0_2 0_3", &tasks)];
    let result = hata(&clients, &tasks, &tasks, without_standbys());
    assert_assignment(
        &result,
        &[(1, "0_0 0_1", "0_2"), (2, "0_2 0_3", "0_1")],
        true,
    );
}

#[test]
fn ha27_no_warmups_for_stateless_tasks() {
    let all = grid(1, 4);
    let stateful = BTreeSet::new();
    let clients = [mock(1, "", &stateful), mock(2, "", &stateful)];
    let result = hata(&clients, &all, &stateful, without_standbys());
    assert_assignment(&result, &[(1, "0_0 0_2", ""), (2, "0_1 0_3", "")], false);
}

#[test]
fn ha29_to_ha32_stateless_tasks_ignore_history_and_follow_capacity() {
    let all = set("0_0 0_1 0_2 0_3 1_0 1_1 1_2");
    let stateful = BTreeSet::new();
    let even = [
        (1, "0_0 0_3 1_2", ""),
        (2, "0_1 1_0", ""),
        (3, "0_2 1_1", ""),
    ];
    for capacity in [7, 2] {
        let clients: Vec<ClientState> = (1..=3).map(|n| client(n, capacity)).collect();
        assert_assignment(
            &hata(&clients, &all, &stateful, without_standbys()),
            &even,
            false,
        );
    }
    let clients = [client(1, 1), client(2, 2), client(3, 3)];
    assert_assignment(
        &hata(&clients, &all, &stateful, without_standbys()),
        &[
            (1, "0_0 1_2", ""),
            (2, "0_1 1_0", ""),
            (3, "0_2 0_3 1_1", ""),
        ],
        false,
    );
    let clients = [
        client(1, 3).with_previous_active(all.clone()),
        client(2, 3),
        client(3, 3),
    ];
    assert_assignment(
        &hata(&clients, &all, &stateful, without_standbys()),
        &even,
        false,
    );
}

// --------------- extra HATA scenarios, run on Kafka's classes (not its tests) ---

/// The extra scenarios' common setup: 6 stateful tasks, caps 1, acc 10000,
/// warm 2; running actives report LATEST, standbys lag 50, the rest 100000.
struct Cluster {
    tasks: BTreeSet<StreamsTaskId>,
    clients: Vec<ClientState>,
}

impl Cluster {
    fn new() -> Self {
        Self {
            tasks: grid(1, 6),
            clients: Vec::new(),
        }
    }

    fn client(mut self, n: i64, active: &str, standby: &str) -> Self {
        let (active, standby) = (set(active), set(standby));
        let lags = self.tasks.iter().map(|task| {
            let lag = if active.contains(task) {
                LATEST
            } else if standby.contains(task) {
                50
            } else {
                100_000
            };
            (*task, lag)
        });
        let state = client(n, 1)
            .with_previous_active(active.iter().copied())
            .with_previous_standby(standby.iter().copied())
            .with_lags(lags);
        self.clients.push(state);
        self
    }

    fn with_lag(mut self, n: i64, task: &str, lag: i64) -> Self {
        let state = self
            .clients
            .iter_mut()
            .find(|c| c.process_id == pid(n))
            .unwrap();
        state.lags.insert(t(task), lag);
        self
    }

    fn assign(&self, standbys: u32) -> StreamsAssignment {
        hata(
            &self.clients,
            &self.tasks,
            &self.tasks,
            configs(10_000, 2, standbys),
        )
    }
}

fn three_running() -> Cluster {
    Cluster::new()
        .client(1, "0_0 0_3", "")
        .client(2, "0_1 0_4", "")
        .client(3, "0_2 0_5", "")
}

fn chained_standbys() -> Cluster {
    Cluster::new()
        .client(1, "0_0 0_3", "0_1 0_4")
        .client(2, "0_1 0_4", "0_2 0_5")
        .client(3, "0_2 0_5", "0_0 0_3")
}

#[test]
fn x01_new_client_sorting_last() {
    let result = three_running().client(4, "", "").assign(0);
    assert_assignment(
        &result,
        &[
            (1, "0_0 0_3", "0_4"),
            (2, "0_1 0_4", ""),
            (3, "0_2 0_5", ""),
            (4, "", "0_3"),
        ],
        true,
    );
}

#[test]
fn x02_new_client_sorting_first() {
    let result = three_running().client(0, "", "").assign(0);
    assert_assignment(
        &result,
        &[
            (0, "", "0_0"),
            (1, "0_0 0_3", "0_1"),
            (2, "0_1 0_4", ""),
            (3, "0_2 0_5", ""),
        ],
        true,
    );
}

#[test]
fn x03_new_client_sorting_first_with_chained_standbys() {
    let result = chained_standbys().client(0, "", "").assign(1);
    assert_assignment(
        &result,
        &[
            (0, "", "0_0"),
            (1, "0_0 0_1", "0_3 0_4"),
            (2, "0_2 0_4", "0_0 0_1 0_5"),
            (3, "0_3 0_5", "0_0 0_2"),
        ],
        true,
    );
}

#[test]
fn x04_steady_state_with_chained_standbys_still_probes() {
    let result = chained_standbys().assign(1);
    let owners: Vec<(StreamsTaskId, ProcessId)> = result.active_owners().into_iter().collect();
    let expected: Vec<(StreamsTaskId, ProcessId)> = [
        ("0_0", 1),
        ("0_1", 2),
        ("0_2", 3),
        ("0_3", 1),
        ("0_4", 2),
        ("0_5", 3),
    ]
    .iter()
    .map(|&(task, n)| (t(task), pid(n)))
    .collect();
    assert_eq!(owners, expected, "actives stay where they are");
    assert!(result.probing_rebalance_needed);
}

#[test]
fn x05_restart_with_checkpoints_returns_at_once() {
    let result = Cluster::new()
        .client(1, "0_0 0_3", "")
        .client(2, "", "0_1 0_4")
        .client(3, "0_2 0_5", "")
        .with_lag(2, "0_1", 30)
        .with_lag(2, "0_4", 30)
        .assign(0);
    assert_assignment(
        &result,
        &[(1, "0_0 0_3", ""), (2, "0_1 0_4", ""), (3, "0_2 0_5", "")],
        false,
    );
}

#[test]
fn x06_client_gone() {
    let result = Cluster::new()
        .client(1, "0_0 0_3", "")
        .client(3, "0_2 0_5", "")
        .assign(0);
    assert_assignment(
        &result,
        &[(1, "0_0 0_3 0_4", "0_2"), (3, "0_1 0_2 0_5", "0_3")],
        true,
    );
}

/// One round of the convergence loop the extra scenarios were run with: what each client ran
/// becomes its new state. Actives report LATEST, standbys and warmups lag 0,
/// everything else lags 100000.
fn next_round(
    previous: &[ClientState],
    result: &StreamsAssignment,
    tasks: &BTreeSet<StreamsTaskId>,
) -> Vec<ClientState> {
    previous
        .iter()
        .map(|state| {
            let got = result.client(state.process_id).unwrap();
            let copies = got.standby_and_warmup();
            let lags: Vec<(StreamsTaskId, i64)> = tasks
                .iter()
                .map(|task| {
                    let lag = if got.active.contains(task) {
                        LATEST
                    } else if copies.contains(task) {
                        0
                    } else {
                        100_000
                    };
                    (*task, lag)
                })
                .collect();
            ClientState::new(state.process_id, state.capacity)
                .with_previous_active(got.active.iter().copied())
                .with_previous_standby(copies)
                .with_lags(lags)
        })
        .collect()
}

/// Runs assignments until one needs no probing rebalance; returns every
/// round's result and, per round, the number of actives not on their
/// previous holder (a task whose holder is gone counts as moved).
fn converge(
    mut clients: Vec<ClientState>,
    tasks: &BTreeSet<StreamsTaskId>,
    standbys: u32,
) -> (Vec<StreamsAssignment>, Vec<usize>) {
    let mut rounds = Vec::new();
    let mut moved = Vec::new();
    for _ in 0..20 {
        let result = hata(&clients, tasks, tasks, configs(10_000, 2, standbys));
        let previous_owner: BTreeMap<StreamsTaskId, ProcessId> = clients
            .iter()
            .flat_map(|c| {
                c.previous_active
                    .iter()
                    .map(move |task| (*task, c.process_id))
            })
            .collect();
        moved.push(
            result
                .active_owners()
                .iter()
                .filter(|(task, owner)| previous_owner.get(task) != Some(*owner))
                .count(),
        );
        let done = !result.probing_rebalance_needed;
        clients = next_round(&clients, &result, tasks);
        rounds.push(result);
        if done {
            return (rounds, moved);
        }
    }
    panic!("no convergence within 20 rounds: {rounds:#?}");
}

fn assert_actives(result: &StreamsAssignment, expected: &[(i64, &str)]) {
    for &(n, active) in expected {
        assert_eq!(
            show(&result.client(pid(n)).unwrap().active),
            show(&set(active)),
            "P{n} active"
        );
    }
}

#[test]
fn c1_after_a_crash_two_survivors_still_swap_toward_canonical() {
    let cluster = Cluster::new()
        .client(1, "0_0 0_3", "")
        .client(3, "0_2 0_5", "");
    let (rounds, moved) = converge(cluster.clients, &cluster.tasks, 0);
    assert_eq!(moved, [2, 2]);
    assert_assignment(
        &rounds[0],
        &[(1, "0_0 0_3 0_4", "0_2"), (3, "0_1 0_2 0_5", "0_3")],
        true,
    );
    assert_assignment(
        &rounds[1],
        &[(1, "0_0 0_2 0_4", ""), (3, "0_1 0_3 0_5", "")],
        false,
    );
}

#[test]
fn c2_chained_standbys_converge_without_active_moves() {
    let cluster = chained_standbys();
    let (rounds, moved) = converge(cluster.clients, &cluster.tasks, 1);
    assert_eq!(moved, [0, 0, 0]);
    assert_assignment(
        &rounds[2],
        &[
            (1, "0_0 0_3", "0_1 0_2"),
            (2, "0_1 0_4", "0_0 0_5"),
            (3, "0_2 0_5", "0_3 0_4"),
        ],
        false,
    );
}

fn fresh(clients: &[i64]) -> Cluster {
    clients
        .iter()
        .fold(Cluster::new(), |c, &n| c.client(n, "", ""))
}

#[test]
fn c3_c4_c5_fresh_start_then_clients_join_with_standbys() {
    let cluster = fresh(&[1, 2, 3]);
    let (rounds, _) = converge(cluster.clients.clone(), &cluster.tasks, 1);
    assert_eq!(rounds.len(), 1);
    assert_assignment(
        &rounds[0],
        &[
            (1, "0_0 0_3", "0_1 0_2"),
            (2, "0_1 0_4", "0_0 0_5"),
            (3, "0_2 0_5", "0_3 0_4"),
        ],
        false,
    );

    // C4: P4 (sorting last) joins the converged C3.
    let mut clients = next_round(&cluster.clients, &rounds[0], &cluster.tasks);
    clients.push(client(4, 1).with_lags(lags(&cluster.tasks, 100_000)));
    let (rounds, moved) = converge(clients.clone(), &cluster.tasks, 1);
    assert_eq!(moved, [2, 1, 1, 0]);
    let last = rounds.last().unwrap();
    assert_actives(
        last,
        &[(1, "0_0 0_4"), (2, "0_1 0_5"), (3, "0_2"), (4, "0_3")],
    );

    // C5: P0 (sorting first) joins the converged C4.
    let mut clients = next_round(&clients, last, &cluster.tasks);
    clients.push(client(0, 1).with_lags(lags(&cluster.tasks, 100_000)));
    let (rounds, moved) = converge(clients, &cluster.tasks, 1);
    assert_eq!(moved, [1, 2, 2, 2, 0]);
    assert_actives(
        rounds.last().unwrap(),
        &[
            (0, "0_0 0_5"),
            (1, "0_1"),
            (2, "0_2"),
            (3, "0_3"),
            (4, "0_4"),
        ],
    );
}

#[test]
fn c6_c7_a_client_sorting_first_cascades_without_standbys() {
    let cluster = fresh(&[1, 2, 3]);
    let (rounds, _) = converge(cluster.clients.clone(), &cluster.tasks, 0);
    assert_eq!(rounds.len(), 1);
    assert_assignment(
        &rounds[0],
        &[(1, "0_0 0_3", ""), (2, "0_1 0_4", ""), (3, "0_2 0_5", "")],
        false,
    );

    let mut clients = next_round(&cluster.clients, &rounds[0], &cluster.tasks);
    clients.push(client(0, 1).with_lags(lags(&cluster.tasks, 100_000)));
    let (rounds, moved) = converge(clients, &cluster.tasks, 0);
    assert_eq!(moved, [0, 2, 2, 2]);
    assert_assignment(
        &rounds[0],
        &[
            (0, "", "0_0"),
            (1, "0_0 0_3", "0_1"),
            (2, "0_1 0_4", ""),
            (3, "0_2 0_5", ""),
        ],
        true,
    );
    assert_actives(
        rounds.last().unwrap(),
        &[(0, "0_0 0_4"), (1, "0_1 0_5"), (2, "0_2"), (3, "0_3")],
    );
}

// -------------------------------------- LegacyStickyTaskAssignorTest ---

fn assert_active_counts(result: &StreamsAssignment, expected: &[(i64, usize)]) {
    for &(n, count) in expected {
        assert_eq!(
            result.client(pid(n)).unwrap().active.len(),
            count,
            "P{n} active count"
        );
    }
}

fn prev(n: i64, capacity: u32, active: &str) -> ClientState {
    client(n, capacity).with_previous_active(set(active))
}

#[test]
fn sticky_one_active_task_per_process() {
    let clients = [client(1, 1), client(2, 1), client(3, 1)];
    let result = sticky(&clients, &grid(1, 3), 0);
    assert_active_counts(&result, &[(1, 1), (2, 1), (3, 1)]);
    assert!(!result.probing_rebalance_needed);
}

#[test]
fn sticky_spreads_each_topic_group_over_clients() {
    let tasks = set("1_0 1_1 1_2 2_0 2_1 2_2");
    for standbys in [0, 1] {
        let clients = [client(1, 2), client(2, 2), client(3, 2)];
        let result = sticky(&clients, &tasks, standbys);
        assert_eq!(result.clients.len(), 3, "one assignment per client");
        for c in &result.clients {
            let groups: Vec<u32> = c.active.iter().map(|task| task.subtopology).collect();
            assert_eq!(groups, [1, 2], "{c:?}");
        }
    }
}

#[test]
fn sticky_does_not_migrate_active_tasks() {
    let tasks = grid(1, 3);
    let result = sticky(&[prev(1, 1, "0_0"), prev(2, 1, "0_1")], &tasks, 0);
    assert!(result.client(pid(1)).unwrap().active.contains(&t("0_0")));
    assert!(result.client(pid(2)).unwrap().active.contains(&t("0_1")));
    assert_eq!(result.active_owners().len(), 3);

    let result = sticky(&[prev(1, 1, "0_1"), prev(2, 1, "0_2")], &tasks, 0);
    assert!(result.client(pid(1)).unwrap().active.contains(&t("0_1")));
    assert!(result.client(pid(2)).unwrap().active.contains(&t("0_2")));
    assert_eq!(result.active_owners().len(), 3);
}

#[test]
fn sticky_migrates_to_a_new_process_without_changing_all_assignments() {
    let result = sticky(
        &[prev(1, 1, "0_0 0_2"), prev(2, 1, "0_1"), client(3, 1)],
        &grid(1, 3),
        0,
    );
    assert_eq!(result.client(pid(2)).unwrap().active, set("0_1"));
    assert_active_counts(&result, &[(1, 1), (3, 1)]);
}

#[test]
fn sticky_assigns_based_on_capacity() {
    let result = sticky(&[client(1, 1), client(2, 2)], &grid(1, 3), 0);
    assert_active_counts(&result, &[(1, 1), (2, 2)]);
}

#[test]
fn sticky_unequal_topic_group_sizes() {
    let tasks = set("0_0 0_1 0_2 0_3 0_4 0_5 1_0");
    let result = sticky(
        &[prev(1, 1, "0_0 0_1 0_2 0_3 0_4 0_5 1_0"), client(2, 1)],
        &tasks,
        0,
    );
    let p1 = &result.client(pid(1)).unwrap().active;
    let p2 = &result.client(pid(2)).unwrap().active;
    assert!((p1.len(), p2.len()) == (3, 4) || (p1.len(), p2.len()) == (4, 3));
    assert_eq!(*p2, tasks.difference(p1).copied().collect());
}

#[test]
fn sticky_keeps_stickiness_with_more_clients_than_tasks() {
    let tasks = grid(1, 3);
    let result = sticky(
        &[
            prev(1, 1, "0_0"),
            prev(2, 1, "0_2"),
            prev(3, 1, "0_1"),
            client(4, 1),
            client(5, 1),
        ],
        &tasks,
        0,
    );
    assert_eq!(result.client(pid(1)).unwrap().active, set("0_0"));
    assert_eq!(result.client(pid(2)).unwrap().active, set("0_2"));
    assert_eq!(result.client(pid(3)).unwrap().active, set("0_1"));

    let result = sticky(
        &[
            client(1, 1),
            prev(2, 1, "0_0"),
            client(3, 1),
            prev(4, 1, "0_2"),
            prev(5, 1, "0_1"),
        ],
        &tasks,
        0,
    );
    assert_eq!(result.client(pid(2)).unwrap().active, set("0_0"));
    assert_eq!(result.client(pid(4)).unwrap().active, set("0_2"));
    assert_eq!(result.client(pid(5)).unwrap().active, set("0_1"));
}

#[test]
fn sticky_prefers_clients_with_previous_standby_tasks() {
    let clients = [
        client(1, 1).with_previous_standby(set("0_2")),
        client(2, 1).with_previous_standby(set("0_1")),
        client(3, 1).with_previous_standby(set("0_0")),
    ];
    let result = sticky(&clients, &grid(1, 3), 0);
    assert_eq!(result.client(pid(1)).unwrap().active, set("0_2"));
    assert_eq!(result.client(pid(2)).unwrap().active, set("0_1"));
    assert_eq!(result.client(pid(3)).unwrap().active, set("0_0"));
}

#[test]
fn sticky_capacity_decides_between_standby_holders() {
    let clients = [
        prev(1, 1, "0_0").with_previous_standby(set("0_1")),
        prev(2, 2, "0_2").with_previous_standby(set("0_1")),
    ];
    let result = sticky(&clients, &grid(1, 3), 0);
    assert_eq!(result.client(pid(1)).unwrap().active, set("0_0"));
    assert_eq!(result.client(pid(2)).unwrap().active, set("0_1 0_2"));
}

#[test]
fn sticky_standbys_go_to_other_clients_than_their_actives() {
    let clients = [
        prev(1, 1, "0_0"),
        prev(2, 1, "0_1"),
        prev(3, 1, "0_2"),
        prev(4, 1, "0_3"),
    ];
    let result = sticky(&clients, &grid(1, 4), 1);
    let mut with_standbys = 0;
    let mut all_standbys = Vec::new();
    assert_eq!(result.clients.len(), 4, "one assignment per client");
    for c in &result.clients {
        assert!(c.standby.is_disjoint(&c.active), "{c:?}");
        assert!(c.standby.len() <= 2, "{c:?}");
        with_standbys += usize::from(!c.standby.is_empty());
        all_standbys.extend(c.standby.iter().copied());
    }
    assert!(with_standbys >= 3);
    all_standbys.sort();
    assert_eq!(all_standbys, grid(1, 4).into_iter().collect::<Vec<_>>());
}

#[test]
fn sticky_multiple_standby_replicas() {
    let clients = [prev(1, 1, "0_0"), prev(2, 1, "0_1"), prev(3, 1, "0_2")];
    let result = sticky(&clients, &grid(1, 3), 2);
    assert_eq!(result.client(pid(1)).unwrap().standby, set("0_1 0_2"));
    assert_eq!(result.client(pid(2)).unwrap().standby, set("0_0 0_2"));
    assert_eq!(result.client(pid(3)).unwrap().standby, set("0_0 0_1"));
}

#[test]
fn sticky_no_standby_on_a_single_client() {
    let result = sticky(&[client(1, 1)], &set("0_0"), 1);
    assert!(result.clients[0].standby.is_empty());
}

#[test]
fn sticky_assigns_every_active_and_standby() {
    let result = sticky(&[client(1, 1), client(2, 1), client(3, 1)], &grid(1, 3), 1);
    assert_eq!(result.active_owners().len(), 3);
    let standbys: usize = result.clients.iter().map(|c| c.standby.len()).sum();
    assert_eq!(standbys, 3);
}

#[test]
fn sticky_at_least_one_task_per_client() {
    let result = sticky(&[client(1, 3), client(2, 1), client(3, 1)], &grid(1, 3), 0);
    assert_active_counts(&result, &[(1, 1), (2, 1), (3, 1)]);
}

#[test]
fn sticky_more_clients_than_tasks() {
    let clients: Vec<ClientState> = (1..=6).map(|n| client(n, 1)).collect();
    let result = sticky(&clients, &grid(1, 3), 0);
    assert_eq!(result.active_owners().len(), 3);
    let result = sticky(&clients, &grid(1, 3), 1);
    assert_eq!(result.clients.len(), 6, "one assignment per client");
    for c in &result.clients {
        assert_eq!(c.assigned_task_count(), 1, "{c:?}");
    }
}

#[test]
fn sticky_more_tasks_to_the_client_with_more_capacity() {
    let result = sticky(&[client(2, 2), client(1, 1)], &grid(4, 3), 0);
    assert_active_counts(&result, &[(2, 8), (1, 4)]);
}

#[test]
fn sticky_evenly_distributes_by_task_id_and_partition() {
    let tasks = grid(2, 8);
    let clients: Vec<ClientState> = (1..=4).map(|n| client(n, 4)).collect();
    let result = sticky(&clients, &tasks, 1);
    let sorted: Vec<StreamsTaskId> = tasks.iter().copied().collect();
    for k in 0..4 {
        let expected: BTreeSet<StreamsTaskId> = [k, k + 4, k + 8, k + 12]
            .iter()
            .map(|&i| sorted[i])
            .collect();
        assert_eq!(result.clients[k].active, expected, "client {}", k + 1);
    }
}

fn assert_no_two_hosts_alike(result: &StreamsAssignment) {
    for (i, a) in result.clients.iter().enumerate() {
        for b in &result.clients[i + 1..] {
            let tasks = |c: &engine::streams::ClientAssignment| -> BTreeSet<StreamsTaskId> {
                c.active.union(&c.standby).copied().collect()
            };
            assert_ne!(tasks(a), tasks(b), "{a:?} and {b:?}");
        }
    }
}

#[test]
fn sticky_no_two_hosts_with_the_same_tasks() {
    let tasks = grid(1, 4);
    let clients: Vec<ClientState> = (1..=4).map(|n| client(n, 1)).collect();
    assert_no_two_hosts_alike(&sticky(&clients, &tasks, 1));

    let clients = [
        prev(1, 1, "0_1 0_2"),
        prev(2, 1, "0_3"),
        prev(3, 1, "0_0"),
        client(4, 1),
    ];
    assert_no_two_hosts_alike(&sticky(&clients, &tasks, 1));

    let clients = [
        prev(1, 1, "0_1 0_2").with_previous_standby(set("0_3 0_0")),
        prev(2, 1, "0_3 0_0").with_previous_standby(set("0_1 0_2")),
        client(3, 1),
        client(4, 1),
    ];
    assert_no_two_hosts_alike(&sticky(&clients, &tasks, 1));
}

#[test]
fn sticky_rebalances_away_from_one_overloaded_client() {
    let tasks = grid(1, 4);
    let result = sticky(
        &[
            prev(3, 1, "0_0 0_1 0_2 0_3"),
            client(1, 1),
            client(2, 1),
            client(4, 1),
        ],
        &tasks,
        0,
    );
    assert_eq!(result.clients.len(), 4, "one assignment per client");
    for c in &result.clients {
        assert_eq!(c.assigned_task_count(), 1, "{c:?}");
    }

    let result = sticky(
        &[prev(3, 1, "0_0 0_1 0_2 0_3"), client(1, 1), client(2, 1)],
        &tasks,
        0,
    );
    assert_active_counts(&result, &[(3, 2), (1, 1), (2, 1)]);

    let result = sticky(
        &[prev(2, 1, "0_0 0_3 0_2"), client(3, 2)],
        &set("0_0 0_2 0_3"),
        0,
    );
    assert_active_counts(&result, &[(2, 1), (3, 2)]);
}

#[test]
fn sticky_moves_minimal_tasks_to_a_new_client() {
    let result = sticky(
        &[prev(1, 1, "0_0 0_2"), prev(2, 1, "0_1 0_3"), client(3, 1)],
        &grid(1, 4),
        0,
    );
    let p3 = &result.client(pid(3)).unwrap().active;
    assert_eq!(p3.len(), 1);
    if set("0_0 0_2").is_superset(p3) {
        assert_eq!(result.client(pid(2)).unwrap().active, set("0_1 0_3"));
    } else {
        assert_eq!(result.client(pid(1)).unwrap().active, set("0_0 0_2"));
    }
}

#[test]
fn sticky_new_tasks_do_not_move_old_ones() {
    let tasks = grid(1, 6);
    let result = sticky(&[prev(1, 1, "0_0 0_1"), prev(2, 1, "0_2 0_3")], &tasks, 0);
    assert!(result
        .client(pid(1))
        .unwrap()
        .active
        .is_superset(&set("0_0 0_1")));
    assert!(result
        .client(pid(2))
        .unwrap()
        .active
        .is_superset(&set("0_2 0_3")));

    let result = sticky(
        &[prev(1, 1, "0_2 0_1"), prev(2, 1, "0_0 0_3"), client(3, 1)],
        &tasks,
        0,
    );
    assert!(result
        .client(pid(1))
        .unwrap()
        .active
        .is_superset(&set("0_2 0_1")));
    assert!(result
        .client(pid(2))
        .unwrap()
        .active
        .is_superset(&set("0_0 0_3")));
    assert!(result
        .client(pid(3))
        .unwrap()
        .active
        .is_superset(&set("0_4 0_5")));
}

#[test]
fn sticky_tasks_not_previously_active_go_to_the_new_client() {
    let tasks = grid(3, 4);
    let clients = [
        prev(1, 1, "0_1 1_2 1_3").with_previous_standby(set("0_0 1_1 2_0 2_1 2_3")),
        prev(2, 1, "0_0 1_1 2_2").with_previous_standby(set("0_1 1_0 0_2 2_0 0_3 1_2 2_1 1_3 2_3")),
        prev(3, 1, "2_0 2_1 2_3").with_previous_standby(set("0_2 1_2")),
        client(4, 1).with_previous_standby(tasks.clone()),
    ];
    let result = sticky(&clients, &tasks, 0);
    assert_actives(
        &result,
        &[
            (1, "0_1 1_2 1_3"),
            (2, "0_0 1_1 2_2"),
            (3, "2_0 2_1 2_3"),
            (4, "0_2 0_3 1_0"),
        ],
    );

    // Two bounced clients that only kept standbys get the same sets.
    let clients = [
        prev(1, 1, "0_1 1_2 1_3").with_previous_standby(set("0_0 1_1 2_0 2_1 2_3")),
        prev(2, 1, "0_0 1_1 2_2").with_previous_standby(set("0_1 1_0 0_2 2_0 0_3 1_2 2_1 1_3 2_3")),
        client(3, 1).with_previous_standby(set("2_0 2_1 2_3")),
        client(4, 1).with_previous_standby(set("0_2 0_3 1_0")),
    ];
    let result = sticky(&clients, &tasks, 0);
    assert_actives(
        &result,
        &[
            (1, "0_1 1_2 1_3"),
            (2, "0_0 1_1 2_2"),
            (3, "2_0 2_1 2_3"),
            (4, "0_2 0_3 1_0"),
        ],
    );
}

#[test]
fn sticky_does_not_flip_tasks_between_existing_clients() {
    let tasks = grid(1, 6);
    let result = sticky(
        &[
            prev(1, 1, "0_0 0_1 0_2"),
            prev(2, 1, "0_3 0_4 0_5"),
            client(3, 1),
        ],
        &tasks,
        0,
    );
    let p1 = &result.client(pid(1)).unwrap().active;
    let p2 = &result.client(pid(2)).unwrap().active;
    assert!(p1.is_disjoint(&set("0_3 0_4 0_5")) && p1.len() == 2);
    assert!(p2.is_disjoint(&set("0_0 0_1 0_2")) && p2.len() == 2);
    assert_active_counts(&result, &[(3, 2)]);

    let tasks = grid(1, 7);
    let clients = [
        prev(1, 1, "0_0 0_1 0_2 0_6"),
        client(2, 1).with_previous_standby(set("0_3 0_4 0_5")),
        client(3, 1),
    ];
    let result = sticky(&clients, &tasks, 0);
    let p1 = &result.client(pid(1)).unwrap().active;
    let p2 = &result.client(pid(2)).unwrap().active;
    assert!(p1.is_disjoint(&set("0_3 0_4 0_5")) && p1.len() >= 2);
    assert!(p2.is_disjoint(&set("0_0 0_1 0_2")) && p2.len() >= 2);
    assert_active_counts(&result, &[(3, 2)]);
}

#[test]
fn sticky_violates_balance_to_preserve_active_stickiness() {
    let tasks = grid(1, 3);
    let result = StickyTaskAssignor::preserving_active_tasks()
        .assign(
            &[prev(1, 1, "0_0 0_1 0_2"), client(2, 1)],
            &tasks,
            &tasks,
            &configs(0, 1, 0),
        )
        .unwrap();
    assert_eq!(result.client(pid(1)).unwrap().active, tasks);
    assert!(result.client(pid(2)).unwrap().active.is_empty());
    assert!(!result.probing_rebalance_needed);
}
