//! The leader's assignment (`WorkerCoordinator.onLeaderElected`): the
//! members' snapshots in, `EagerAssignor` or the incremental cooperative
//! assignor, and the round recorded with its explanation.

use crate::connect::assignment::{MemberHoldings, RoundInput};
use crate::connect::eager_assignor::EagerAssignor;
use crate::connect::ids::ConnectorId;
use crate::connect::incremental_cooperative_assignor::IncrementalCooperativeAssignor;
use crate::connect::protocol::{select_group_protocol, ConnectProtocol};
use crate::connect::wire_order::wire_order;
use crate::sim::driver::Simulation;
use crate::sim::rebalance_cause::RebalanceCause;
use crate::trace::{ItemList, RebalanceRound, RoundMember};

use super::super::group::GroupState;
use super::round_explain::{sentence, RoundFacts};
use super::work::WorkRegistry;
use super::{ConnectSimulation, MemberRef, PendingRound, SimEvent, ASSIGNOR_EPOCH_MS};
use crate::wording::names;

impl ConnectSimulation {
    pub(super) fn items_of(
        &self,
        connectors: &[ConnectorId],
        tasks: &[crate::connect::ids::TaskId],
    ) -> Vec<u32> {
        let mut v: Vec<u32> = connectors
            .iter()
            .map(|&c| WorkRegistry::connector_item(c))
            .collect();
        v.extend(tasks.iter().map(|&t| self.work.task_item(t)));
        v
    }

    /// The leader runs the assignor for `generation` (`onLeaderElected`).
    pub(super) fn on_assign(&mut self, lane: u32, _inc: u32, generation: i32) {
        if self.group.generation() != generation
            || self.group.state() != GroupState::CompletingRebalance
        {
            return;
        }
        let Some(join) = self.completed.take().filter(|c| c.generation == generation) else {
            return;
        };
        // Connect workers share one preference order, so the vote is
        // unanimous for the oldest mode present: voting over the distinct
        // modes gives the broker's answer without a members² scan.
        // Inserted, not collected: `collect` into a set sorts first (another
        // copy of the standard sort in the WebAssembly).
        let mut modes = std::collections::BTreeSet::new();
        modes.extend(join.members.iter().map(|(_, m)| m.mode));
        let protocol = select_group_protocol(modes).unwrap_or(ConnectProtocol::Eager);
        let cooperative = protocol.is_cooperative();
        // The assignor reads the holdings each member reported (V1/V2
        // metadata); they are moved out of the workers and back, not copied.
        let mut holdings: Vec<MemberHoldings> = Vec::with_capacity(join.members.len());
        for (key, _) in &join.members {
            let m = self.member_ref(key).copied();
            let mut h = match m {
                // V0 (`default`) metadata carries no assignment (`ConnectProtocol`).
                _ if !cooperative => MemberHoldings::default(),
                // In the order its metadata carries them (`connect::wire_order`).
                Some(m) => {
                    let names = self.work.names();
                    match self.lanes[m.lane as usize]
                        .process
                        .as_mut()
                        .filter(|w| w.incarnation == m.inc)
                    {
                        Some(w) => w.take_reported(names),
                        None => wire_order(&self.lanes[m.lane as usize].last_snapshot, names),
                    }
                }
                None => MemberHoldings::default(),
            };
            // A worker's snapshot carries its member id already; set it only
            // when it differs (a dead member, or eager's empty holdings).
            if let Some(m) = m {
                let id = &self.recorder.members[m.no as usize].member_id;
                if h.member != *id {
                    h.member = id.clone();
                }
            }
            holdings.push(h);
        }
        let now = self.driver.now();
        let w = self.proc_mut(lane);
        let last_completed = w.last_completed_generation;
        let first_cooperative_round = w.assignor_generation == -1;
        let max_delay = w.config.scheduled_rebalance_max_delay_ms;
        let mut assignor =
            std::mem::replace(&mut w.assignor, IncrementalCooperativeAssignor::new(0, -1));
        let configured = self.config.configured();
        let input = RoundInput {
            configured: &configured,
            members: &holdings,
            generation,
            last_completed_generation: last_completed,
            now_ms: now as i64 + ASSIGNOR_EPOCH_MS,
        };
        let output = if cooperative {
            assignor.perform_assignment(&input)
        } else {
            EagerAssignor.assign(&input)
        };
        if cooperative {
            self.proc_mut(lane).assignor_generation = generation;
        }

        // Record the round.
        let mut members = Vec::with_capacity(holdings.len());
        let mut assigned_lists = Vec::with_capacity(holdings.len());
        let (mut revoked_from, mut assigned_to) = (Vec::new(), Vec::new());
        let (mut rc, mut rt, mut ac, mut at) = (0usize, 0usize, 0usize, 0usize);
        for (i, (key, _)) in join.members.iter().enumerate() {
            let m = self
                .member_ref(key)
                .copied()
                .expect("every member has a lane");
            let delta = &output.deltas[i];
            let owned = if cooperative {
                self.owned_list(m, &holdings[i])
            } else {
                ItemList::EMPTY
            };
            // Straight into the pool, connectors then tasks.
            let assigned = self.recorder.pool.extend(items_iter(
                &self.work,
                &delta.assigned_connectors,
                &delta.assigned_tasks,
            ));
            let revoked = self.recorder.pool.extend(items_iter(
                &self.work,
                &delta.revoked_connectors,
                &delta.revoked_tasks,
            ));
            assigned_lists.push(assigned);
            members.push(RoundMember {
                worker: m.lane,
                member: m.no,
                owned,
                assigned,
                revoked,
            });
            if !revoked.is_empty() {
                revoked_from.push(m.lane);
            }
            if !assigned.is_empty() {
                assigned_to.push(m.lane);
            }
            rc += delta.revoked_connectors.len();
            rt += delta.revoked_tasks.len();
            ac += delta.assigned_connectors.len();
            at += delta.assigned_tasks.len();
        }
        let cause = self.cause.take().unwrap_or(RebalanceCause {
            started_ms: join.started_ms,
            text: "a rebalance".to_string(),
        });
        let member_lanes: Vec<u32> = members.iter().map(|m| m.worker).collect();
        let facts = RoundFacts {
            cooperative,
            leader: lane,
            leader_changed: join.leader_changed,
            first_cooperative_round,
            anything_ran: !self.recorder.rounds.is_empty(),
            members: members.len(),
            configured: (configured.connectors.len(), configured.task_count()),
            revoked: (rc, rt),
            assigned: (ac, at),
            revoked_from,
            assigned_to,
            // Borrowed from the assignor, which goes back to the leader once
            // the round is explained.
            why: if cooperative {
                assignor.last_round()
            } else {
                None
            },
            fixes: assignor.fixes(),
            delay_ms: output.delay_ms,
            max_delay_ms: u64::from(max_delay),
            member_lanes,
        };
        // Several workers can join in one join phase; name them all.
        let mut cause_text = cause.text.clone();
        if !self.previous_round_lanes.is_empty() {
            let was_member = self.lane_set(&self.previous_round_lanes);
            let fresh: Vec<&str> = facts
                .member_lanes
                .iter()
                .filter(|&&l| !was_member[l as usize])
                .map(|&l| self.name(l))
                .collect();
            if fresh.len() > 1 {
                cause_text.push_str(&format!("; new in this round: {}", names(&fresh)));
            }
        }
        let explanation = format!("{}. {}", sentence(&cause_text), self.explain_round(&facts));
        self.proc_mut(lane).assignor = assignor;
        self.recorder.rounds.push(RebalanceRound {
            generation,
            started_ms: cause.started_ms,
            joined_ms: now,
            completed_ms: now,
            delivered: false,
            protocol: protocol.wire_name().to_string(),
            leader: lane,
            members,
            delay_ms: output.delay_ms,
            explanation: explanation.into(),
        });
        self.pending = Some(PendingRound {
            round: self.recorder.rounds.len() - 1,
            generation,
            protocol,
            leader_lane: lane,
            delay_ms: output.delay_ms,
            members: join.members.iter().map(|(k, _)| *k).collect(),
            deltas: output.deltas,
            assigned_lists,
        });
        if cooperative {
            for (h, (key, _)) in holdings.into_iter().zip(&join.members) {
                if let Some(m) = self.member_ref(key).copied() {
                    if let Some(w) = self.worker_mut(m.lane, m.inc) {
                        w.keep_reported(h);
                    }
                }
            }
        }
        self.schedule(now + self.rtt, SimEvent::Sync { generation });
    }

    /// The pooled list of a member's reported holdings, reused while its
    /// snapshot is unchanged so quiet members cost nothing per round.
    fn owned_list(&mut self, m: MemberRef, holdings: &MemberHoldings) -> ItemList {
        if holdings.total() == 0 {
            return ItemList::EMPTY;
        }
        let live = self
            .worker(m.lane, m.inc)
            .map(|w| (w.snapshot_version, w.owned_list));
        if let Some((version, Some((cached_version, list)))) = live {
            if version == cached_version {
                return list;
            }
        }
        let items = self.items_of(&holdings.connectors, &holdings.tasks);
        let list = self.recorder.pool.push(&items);
        if let Some(w) = self.worker_mut(m.lane, m.inc) {
            w.owned_list = Some((w.snapshot_version, list));
        }
        list
    }
}

/// Connectors then tasks, as trace items.
fn items_iter<'a>(
    work: &'a WorkRegistry,
    connectors: &'a [ConnectorId],
    tasks: &'a [crate::connect::ids::TaskId],
) -> impl Iterator<Item = u32> + 'a {
    connectors
        .iter()
        .map(|&c| WorkRegistry::connector_item(c))
        .chain(tasks.iter().map(|&t| work.task_item(t)))
}
