//! Kafka's `IncrementalCooperativeAssignorTest` harness around one
//! long-lived leader, for the tests that replay its scenarios
//! (`connect_regressions`, `connect_versions`).
//!
//! Pulled in with `#[path = "support/connect_harness.rs"] mod connect_harness;`,
//! like `support/rng.rs`.
#![allow(dead_code)]

use engine::connect::assignment::{
    apply_delta, ConfiguredWork, MemberDelta, MemberHoldings, RoundInput, RoundOutput,
};
use engine::connect::ids::{ConnectorId, ConnectorNames, TaskId};
use engine::connect::incremental_cooperative_assignor::IncrementalCooperativeAssignor;
use engine::connect::java_hash::hash_set_iteration_order;
use engine::connect::versions::AssignorFixes;

/// Kafka's test harness around one long-lived leader
/// (`IncrementalCooperativeAssignorTest`).
pub struct Harness {
    pub names: ConnectorNames,
    pub configured: Vec<(ConnectorId, u32)>,
    /// Members in join order.
    pub members: Vec<MemberHoldings>,
    pub assignor: IncrementalCooperativeAssignor,
    /// The fixes of the release replayed (every fix unless told otherwise).
    pub fixes: AssignorFixes,
    pub max_delay: i32,
    pub generation: i32,
    pub now: i64,
}

/// What Kafka's tests assert about a round: sorted per-worker
/// counts after the round, the delay, and totals revoked / newly assigned.
#[derive(Debug, PartialEq, Eq)]
pub struct Summary {
    pub connectors: Vec<usize>,
    pub tasks: Vec<usize>,
    pub delay: i32,
    pub revoked: (usize, usize),
    pub assigned: (usize, usize),
}

impl Harness {
    /// Connectors `name → task count`; every name the test will use must be
    /// listed in `extra_names` or here, so ids can be interned in name order.
    pub fn new(max_delay: i32, connectors: &[(&str, u32)], extra_names: &[&str]) -> Self {
        let names = ConnectorNames::new(
            connectors
                .iter()
                .map(|c| c.0)
                .chain(extra_names.iter().copied()),
        );
        let mut h = Self {
            names,
            configured: Vec::new(),
            members: Vec::new(),
            assignor: IncrementalCooperativeAssignor::new(max_delay, 1000),
            fixes: AssignorFixes::ALL,
            max_delay,
            generation: 1000,
            now: 1_000_000_000,
        };
        h.configure(connectors);
        h
    }

    /// Kafka's default test setup: connector1 and connector2 with 4 tasks each.
    pub fn two_connectors(max_delay: i32) -> Self {
        Self::new(max_delay, &[("connector1", 4), ("connector2", 4)], &[])
    }

    /// Three connectors with 4 tasks each.
    pub fn three_connectors(max_delay: i32) -> Self {
        Self::new(
            max_delay,
            &[("connector1", 4), ("connector2", 4), ("connector3", 4)],
            &[],
        )
    }

    pub fn configure(&mut self, connectors: &[(&str, u32)]) {
        self.configured = connectors
            .iter()
            .map(|&(name, n)| (self.connector(name), n))
            .collect();
    }

    pub fn connector(&self, name: &str) -> ConnectorId {
        self.names
            .id(name)
            .unwrap_or_else(|| panic!("connector {name} was not interned"))
    }

    pub fn task(&self, label: &str) -> TaskId {
        self.names
            .parse_task(label)
            .unwrap_or_else(|| panic!("bad task id {label}"))
    }

    pub fn join(&mut self, worker: &str) {
        self.members.push(MemberHoldings::empty(worker));
    }

    /// A worker that joins already running work (a zombie, KAFKA-9841).
    pub fn join_holding(&mut self, worker: &str, connectors: &[&str], tasks: &[&str]) {
        let member = MemberHoldings {
            member: worker.into(),
            connectors: connectors.iter().map(|c| self.connector(c)).collect(),
            tasks: tasks.iter().map(|t| self.task(t)).collect(),
        };
        self.members.push(member);
    }

    pub fn leave(&mut self, worker: &str) {
        self.members.retain(|m| m.member != worker);
    }

    pub fn sleep(&mut self, ms: i64) {
        self.now += ms;
    }

    /// The same harness replaying a release with only `fixes`
    /// (`connect::versions`): its leader starts afresh.
    pub fn on_release(mut self, fixes: AssignorFixes) -> Self {
        self.fixes = fixes;
        self.new_leader();
        self
    }

    /// A leader bounce: a brand-new assignor (Kafka's `initAssignor()`).
    pub fn new_leader(&mut self) {
        self.assignor =
            IncrementalCooperativeAssignor::with_fixes(self.max_delay, self.generation, self.fixes);
    }

    pub fn member(&self, worker: &str) -> &MemberHoldings {
        self.members
            .iter()
            .find(|m| m.member == worker)
            .unwrap_or_else(|| panic!("{worker} is not a member"))
    }

    /// Members in Java `HashMap` iteration order of their ids.
    pub fn ordered_members(&self) -> Vec<usize> {
        let ids: Vec<&str> = self.members.iter().map(|m| m.member.as_str()).collect();
        hash_set_iteration_order(&ids)
    }

    /// Runs one round with `last_completed = generation - lag`; applies the
    /// deltas when `deliver`.
    pub fn round(&mut self, lag: i32, deliver: bool) -> (Summary, Vec<(String, MemberDelta)>) {
        self.generation += 1;
        let order = self.ordered_members();
        let members: Vec<MemberHoldings> = order.iter().map(|&i| self.members[i].clone()).collect();
        let configured = ConfiguredWork::new(self.configured.clone());
        let output: RoundOutput = self.assignor.perform_assignment(&RoundInput {
            configured: &configured,
            members: &members,
            generation: self.generation,
            last_completed_generation: self.generation - lag,
            now_ms: self.now,
        });
        assert_eq!(output.deltas.len(), members.len());
        if deliver {
            for (&i, delta) in order.iter().zip(&output.deltas) {
                apply_delta(&mut self.members[i], delta);
            }
        }
        let sum = |f: fn(&MemberDelta) -> usize| output.deltas.iter().map(f).sum::<usize>();
        let mut connectors: Vec<usize> = self.members.iter().map(|m| m.connectors.len()).collect();
        let mut tasks: Vec<usize> = self.members.iter().map(|m| m.tasks.len()).collect();
        connectors.sort_unstable();
        tasks.sort_unstable();
        let summary = Summary {
            connectors,
            tasks,
            delay: output.delay_ms,
            revoked: (
                sum(|d| d.revoked_connectors.len()),
                sum(|d| d.revoked_tasks.len()),
            ),
            assigned: (
                sum(|d| d.assigned_connectors.len()),
                sum(|d| d.assigned_tasks.len()),
            ),
        };
        let deltas = members
            .into_iter()
            .map(|m| m.member)
            .zip(output.deltas)
            .collect();
        (summary, deltas)
    }

    /// A standard rebalance (Kafka's `performStandardRebalance`).
    pub fn rebalance(&mut self) -> Summary {
        self.round(1, true).0
    }

    /// A round computed by the leader whose SyncGroup never reached the members.
    pub fn failed_rebalance(&mut self) -> Summary {
        self.round(1, false).0
    }

    /// A round whose leader did not complete the previous generation.
    pub fn mismatched_rebalance(&mut self) -> Summary {
        self.round(2, true).0
    }

    /// Every configured connector and task is held by exactly one member.
    pub fn assert_complete_and_unique(&self) {
        let mut connectors: Vec<ConnectorId> = self
            .members
            .iter()
            .flat_map(|m| m.connectors.iter().copied())
            .collect();
        let mut tasks: Vec<TaskId> = self
            .members
            .iter()
            .flat_map(|m| m.tasks.iter().copied())
            .collect();
        connectors.sort_unstable();
        tasks.sort_unstable();
        let configured = ConfiguredWork::new(self.configured.clone());
        let expected_connectors: Vec<ConnectorId> =
            configured.connectors.iter().map(|c| c.0).collect();
        let expected_tasks: Vec<TaskId> = configured.tasks().collect();
        assert_eq!(
            connectors, expected_connectors,
            "connectors held exactly once"
        );
        assert_eq!(tasks, expected_tasks, "tasks held exactly once");
    }
}

/// Shorthand for a [`Summary`] row: one round of a Kafka test, replayed.
pub fn row(
    connectors: &[usize],
    tasks: &[usize],
    delay: i32,
    revoked: (usize, usize),
    assigned: (usize, usize),
) -> Summary {
    Summary {
        connectors: connectors.to_vec(),
        tasks: tasks.to_vec(),
        delay,
        revoked,
        assigned,
    }
}

/// Compares only counts and delay, for rows whose revoked and assigned totals
/// Kafka's test does not assert.
pub fn counts(summary: &Summary) -> (Vec<usize>, Vec<usize>, i32) {
    (
        summary.connectors.clone(),
        summary.tasks.clone(),
        summary.delay,
    )
}
