//! The leader's glue around `StreamsPartitionAssignor`: the simulator builds
//! its input from the members' subscriptions, gets a decision back from
//! [`crate::streams::partition_assignor::assign_group`], and records the
//! round. Also the steady layout an already-running application starts in.

use crate::sim::driver::Simulation;
use std::collections::{BTreeMap, BTreeSet};

use super::events::Ev;
use super::explain::protocol_label;
use super::local_state::LocalState;
use super::member::{Assigned, MemberKey, PendingRound, Subscription};
use super::StreamsSimulation;
use crate::sim::group::CompletedJoin;
use crate::streams::partition_assignor::{
    self, assign_group, task_offsets, AssignorKind, ClientSubscription, GroupDecision, GroupInput,
    LeaderContext, MemberSubscription,
};
use crate::streams::{AssignmentConfigs, StreamsTaskId};
use crate::trace::{RebalanceRound, RoundMember, StepKind};
use crate::wording::duration;

impl StreamsSimulation {
    /// An application that was already running: every initial instance has
    /// checkpoints, at the changelog end at time 0, for the tasks and standbys
    /// the leader's assignor gives it from scratch (the steady layout), so
    /// the first rebalance finds everyone caught up.
    pub(super) fn seed_steady_state(&mut self) {
        let Some(first) = self.lanes.first() else {
            return;
        };
        let cfg = first.config.clone();
        let subs: Vec<ClientSubscription> = self
            .lanes
            .iter()
            .map(|l| ClientSubscription {
                process_id: l.process_id,
                capacity: l.config.num_stream_threads.max(1),
                owned: BTreeSet::new(),
                offset_sums: BTreeMap::new(),
            })
            .collect();
        let end_offsets = self.end_offsets(0);
        let ctx = LeaderContext {
            all_tasks: &self.topology.all_tasks,
            stateful_tasks: &self.topology.stateful_tasks,
            end_offsets: &end_offsets,
            configs: AssignmentConfigs {
                acceptable_recovery_lag: i64::MAX,
                max_warmup_replicas: cfg.max_warmup_replicas,
                num_standby_replicas: cfg.num_standby_replicas,
                probing_rebalance_interval_ms: cfg.probing_rebalance_interval_ms,
            },
            assignor: AssignorKind::HighAvailability,
            cooperative_filter: true,
            leader: first.process_id,
        };
        let Ok(layout) = partition_assignor::assign(&subs, &ctx) else {
            return;
        };
        for (lane, client) in layout.clients.iter().enumerate() {
            for t in client.active.iter().chain(&client.standby) {
                let idx = self.task_index(*t);
                if self.topology.stateful[idx as usize] {
                    let offset = self.topology.logs[idx as usize].end(0);
                    self.lanes[lane]
                        .local
                        .insert(idx, LocalState::Idle { offset, since: 0 });
                }
            }
        }
    }

    /// The join phase completed: drop the laggards, ask the leader's
    /// `StreamsPartitionAssignor` for the assignment, record the round and
    /// send SyncGroup.
    pub(super) fn compute_assignment(&mut self, done: CompletedJoin<MemberKey, Subscription>) {
        for &key in &done.dropped {
            self.drop_member(key);
        }
        let leader_lane = done.leader.0;
        let leader_cfg = self.lanes[leader_lane as usize].config.clone();
        let leader_version = done
            .members
            .iter()
            .find(|(k, _)| *k == done.leader)
            .map_or(self.lanes[leader_lane as usize].version, |(_, m)| m.version);
        let members = self.member_subscriptions(&done.members);
        let end_offsets = self.end_offsets(self.driver.now());
        let input = GroupInput {
            members: &members,
            leader_version,
            leader: self.lanes[leader_lane as usize].process_id,
            configured_assignor: leader_cfg.task_assignor.into(),
            configs: AssignmentConfigs {
                acceptable_recovery_lag: i64::try_from(leader_cfg.acceptable_recovery_lag)
                    .unwrap_or(i64::MAX),
                max_warmup_replicas: leader_cfg.max_warmup_replicas,
                num_standby_replicas: leader_cfg.num_standby_replicas,
                probing_rebalance_interval_ms: leader_cfg.probing_rebalance_interval_ms,
            },
            all_tasks: &self.topology.all_tasks,
            stateful_tasks: &self.topology.stateful_tasks,
            end_offsets: &end_offsets,
        };
        let decision = match assign_group(&input) {
            Ok(d) => d,
            Err(e) => {
                self.note(
                    Some(leader_lane),
                    StepKind::AssignmentError,
                    format!("The leader cannot assign: {e}."),
                );
                return;
            }
        };
        let probing_at = self.driver.now() + leader_cfg.probing_rebalance_interval_ms;
        let (assignments, round_members) =
            self.round_assignments(&decision, probing_at, &done.members);
        // Newly placed actives, per stream thread (a move between two threads
        // of one instance counts too).
        let placed: usize = round_members.iter().map(|m| m.assigned.len as usize).sum();
        let explanation = self.round_explanation(
            &decision,
            placed,
            leader_lane,
            leader_version,
            leader_cfg.probing_rebalance_interval_ms,
        );
        self.cause.take();
        // Inserted, not collected (`collect` into a set sorts first).
        let mut protocols = BTreeSet::new();
        protocols.extend(done.members.iter().map(|(_, m)| m.cooperative));
        let now = self.driver.now();
        let round = RebalanceRound {
            generation: done.generation,
            started_ms: done.started_ms,
            joined_ms: now,
            completed_ms: now + 2 * self.rtt,
            delivered: false,
            protocol: protocol_label(&protocols).to_string(),
            leader: leader_lane,
            members: round_members,
            delay_ms: 0,
            explanation: explanation.into(),
        };
        self.pending = Some(PendingRound { round, assignments });
        self.schedule(
            now + 2 * self.rtt,
            Ev::SyncDone {
                generation: done.generation,
            },
        );
    }

    /// A member that did not rejoin within the rebalance timeout is removed.
    /// A live thread still believes it is a member: it keeps processing as
    /// a zombie until its next heartbeat is answered UNKNOWN_MEMBER_ID (a
    /// frozen or blocked one finds out when it is free again).
    pub(super) fn drop_member(&mut self, key: MemberKey) {
        let name = self.member_name(key);
        let config = &self.lanes[key.0 as usize].config;
        let (heartbeat, max_poll) = (config.heartbeat_interval_ms, config.max_poll_interval_ms);
        // A member hears of a rebalance only from its next heartbeat: slower
        // heartbeats than the rebalance timeout miss join phases routinely.
        let why = if heartbeat >= max_poll {
            format!(" Its heartbeats (heartbeat.interval.ms, {}) are further apart than the rebalance timeout ({}): it may hear of a rebalance only after the join phase closed.", duration(heartbeat), duration(max_poll))
        } else {
            String::new()
        };
        self.note(
            Some(key.0),
            StepKind::MemberDropped,
            format!("{name}'s member did not rejoin within the rebalance timeout (max.poll.interval.ms) and is removed.{why}"),
        );
        let Some(th) = self.thread_of_member(key) else {
            return;
        };
        if let Some(x) = self.thread_mut(th) {
            x.out_of_group = true;
        }
        let delay = self.heartbeat_delay(th);
        self.zombie_until_heartbeat(th, delay);
    }

    /// The leader's view of the members' JoinGroup metadata, by task id.
    pub(super) fn member_subscriptions(
        &self,
        members: &[(MemberKey, Subscription)],
    ) -> Vec<MemberSubscription<MemberKey>> {
        members
            .iter()
            .map(|(key, sub)| MemberSubscription {
                member: *key,
                member_id: self.member_ids.get(key).cloned().unwrap_or_default(),
                process_id: sub.process_id,
                capacity: 1,
                cooperative: sub.cooperative,
                used_version: sub.used_metadata,
                latest_supported_version: sub.latest_metadata,
                owned: sub
                    .owned
                    .iter()
                    .map(|&t| self.topology.task_ids[t as usize])
                    .collect(),
                offset_sums: task_offsets(
                    sub.offset_sums
                        .iter()
                        .map(|&(t, sum)| (self.topology.task_ids[t as usize], sum))
                        .collect(),
                ),
            })
            .collect()
    }

    /// Changelog end offsets of the stateful tasks at `at` (Admin listOffsets).
    pub(super) fn end_offsets(&self, at: u64) -> BTreeMap<StreamsTaskId, i64> {
        task_offsets(
            self.topology
                .stateful_tasks
                .iter()
                .map(|&t| {
                    (
                        t,
                        self.topology.logs[self.task_index(t) as usize].end(at) as i64,
                    )
                })
                .collect(),
        )
    }

    /// Each member's assignment as the simulator applies it, and the round's
    /// per-member record (owned, newly assigned, revoked) for the trace.
    pub(super) fn round_assignments(
        &mut self,
        decision: &GroupDecision<MemberKey>,
        probing_at: u64,
        subscriptions: &[(MemberKey, Subscription)],
    ) -> (BTreeMap<MemberKey, Assigned>, Vec<RoundMember>) {
        let mut assignments = BTreeMap::new();
        let mut round_members = Vec::new();
        for client in &decision.clients {
            for m in &client.members {
                let owned: BTreeSet<u32> = subscriptions
                    .iter()
                    .find(|(k, _)| *k == m.member)
                    .map(|(_, s)| s.owned.iter().copied().collect())
                    .unwrap_or_default();
                let a = Assigned {
                    active: self.indices(&m.active),
                    standby: self.indices(&m.standby),
                    warmup: self.indices(&m.warmup),
                    immediate: m.immediate_rebalance,
                    probing_at: m.probing_rebalance.then_some(probing_at),
                    metadata_version: m.metadata_version,
                };
                let revoked: Vec<u32> = owned.difference(&a.active).copied().collect();
                let added: Vec<u32> = a.active.difference(&owned).copied().collect();
                let member = self.member_index.get(&m.member).copied().unwrap_or(0);
                let owned_list = self
                    .recorder
                    .pool
                    .push(&owned.iter().copied().collect::<Vec<_>>());
                let assigned_list = self.recorder.pool.push(&added);
                let revoked_list = self.recorder.pool.push(&revoked);
                round_members.push(RoundMember {
                    worker: m.member.0,
                    member,
                    owned: owned_list,
                    assigned: assigned_list,
                    revoked: revoked_list,
                });
                assignments.insert(m.member, a);
            }
        }
        (assignments, round_members)
    }
}
