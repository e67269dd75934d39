//! Rebalance rounds: JoinGroup at the broker, the leader's assignment
//! (EagerAssignor or the incremental cooperative assignor), SyncGroup, and
//! each worker applying what it was told (`WorkerCoordinator.onJoinComplete`,
//! `DistributedHerder.handleRebalanceCompleted`).

use crate::connect::assignment::{apply_delta, MemberDelta, MemberHoldings, RoundInput};
use crate::connect::eager_assignor::EagerAssignor;
use crate::connect::ids::ConnectorId;
use crate::connect::incremental_cooperative_assignor::{
    ConnectorsAndTasks, IncrementalCooperativeAssignor, LoadBalancing, LostHandling,
    RoundExplanation,
};
use crate::connect::protocol::{select_group_protocol, ConnectProtocol};
use crate::sim::driver::Simulation;
use crate::sim::rebalance_cause::RebalanceCause;
use crate::trace::StepKind;
use crate::trace::{ItemList, ItemState, RebalanceRound, RoundMember};

use super::super::group::{CompletedJoin, GroupChange, GroupState, JoinResponse};
use super::explain::work;
use super::lifecycle::StopKind;
use super::member::{member_id, MemberKey};
use super::work::WorkRegistry;
use super::worker::{AfterStop, ConnectMetadata, Delivery, Phase, RejoinReason};
use super::{ConnectSimulation, MemberRef, PendingRound, SimEvent, ASSIGNOR_EPOCH_MS};
use crate::wording::{clock, duration, names, plural};

impl ConnectSimulation {
    /// A fresh member id for a process on `lane` (see [`super::member`]).
    fn new_member_id(&self, lane: u32) -> (MemberKey, String) {
        let rank = self
            .name_ranks
            .get(lane as usize)
            .copied()
            .unwrap_or(u32::MAX);
        member_id(
            self.seed,
            self.recorder.members.len() as u32,
            self.name(lane),
            rank,
        )
    }

    pub(super) fn on_join_arrives(&mut self, lane: u32, inc: u32, token: u32) {
        let Some(w) = self.worker(lane, inc) else {
            return;
        };
        if w.join_token != token || !matches!(w.phase, Phase::Joining) {
            return;
        }
        let new = w.member.is_none();
        let metadata = w.metadata();
        let timeout = u64::from(w.config.rebalance_timeout_ms);
        let key = match w.member {
            Some((k, _)) => k,
            None => {
                let (key, id) = self.new_member_id(lane);
                let no = self.recorder.members.len() as u32;
                self.recorder.members.push(crate::trace::MemberInfo {
                    worker: lane,
                    member_id: id,
                    joined_ms: self.driver.now(),
                });
                self.member_refs.push(MemberRef { lane, inc, no });
                let id = self.recorder.members[no as usize].member_id.clone();
                let w = self.proc_mut(lane);
                w.member = Some((key, no));
                w.snapshot.member = id;
                key
            }
        };
        let now = self.driver.now();
        let w = self.proc_mut(lane);
        w.last_contact = now;
        match self.group.join(key, new, metadata, timeout, now) {
            JoinResponse::UnknownMember => {
                let w = self.proc_mut(lane);
                w.phase = Phase::Idle;
                self.learned_unknown_member(lane);
            }
            JoinResponse::CurrentGeneration { .. } => {
                // A follower with unchanged metadata in a stable group: the
                // broker returns the current generation, nothing moves
                // (`GroupMetadataManager.classicGroupJoinExistingMember`).
                let w = self.proc_mut(lane);
                w.phase = Phase::Idle;
                w.rejoin_reason = None;
                self.after_idle(lane);
            }
            JoinResponse::Accepted(change) => {
                self.proc_mut(lane).phase = Phase::AwaitingJoin;
                self.apply_group_change(change);
            }
        }
    }

    pub(super) fn apply_group_change(&mut self, change: GroupChange<MemberKey, ConnectMetadata>) {
        if let Some(Some(new_leader)) = &change.leader_moved {
            let name = self.member_name(new_leader);
            self.note(
                self.member_ref(new_leader).map(|m| m.lane),
                StepKind::LeaderChange,
                format!("The leader left the group; the broker makes {name} leader. Its assignor holds no history of the last rounds: Kafka keeps it in the leader's IncrementalCooperativeAssignor object only."),
            );
        }
        if let Some(started) = change.started {
            let text = self.describe_trigger(&started.trigger);
            self.cause.join_phase_started(RebalanceCause {
                started_ms: started.at_ms,
                text,
            });
            if let Some(g) = started.aborted_generation {
                self.abort_round(g);
            }
            let keys: Vec<MemberKey> = self
                .group
                .members()
                .map(|(k, _)| *k)
                .filter(|k| !self.group.has_joined(k))
                .collect();
            let mut notices: std::collections::BTreeMap<u64, Vec<(u32, u32, u32)>> =
                std::collections::BTreeMap::new();
            for key in keys {
                let Some(m) = self.member_ref(&key).copied() else {
                    continue;
                };
                let Some(w) = self.worker(m.lane, m.inc) else {
                    continue;
                };
                if w.member.as_ref().map(|(k, _)| k) != Some(&key) {
                    continue;
                }
                match w.phase {
                    Phase::AwaitingSync(_) => {
                        self.proc_mut(m.lane).phase = Phase::Idle;
                        self.request_rejoin(m.lane, RejoinReason::SyncFailed);
                    }
                    Phase::Idle | Phase::Busy { .. } => {
                        if let Some((at, inc, token)) = self.arm_notice(m.lane) {
                            notices.entry(at).or_default().push((m.lane, inc, token));
                        }
                    }
                    _ => {}
                }
            }
            for (at, members) in notices {
                self.schedule(
                    at,
                    SimEvent::Notices {
                        members: members.into_boxed_slice(),
                    },
                );
            }
        }
        if let Some(d) = change.deadline {
            self.schedule(d.at_ms, SimEvent::JoinDeadline { timer: d.timer });
        }
        if let Some(c) = change.completed {
            self.on_join_completed(c);
        }
    }

    fn abort_round(&mut self, generation: i32) {
        if let Some(p) = self.pending.take() {
            if p.generation == generation {
                let r = &mut self.recorder.rounds[p.round];
                r.completed_ms = self.driver.now();
                r.delivered = false;
                r.explanation.push_str(" Never delivered: the group restarted the rebalance before SyncGroup completed.");
            } else {
                self.pending = Some(p);
            }
        }
    }

    fn on_join_completed(&mut self, c: CompletedJoin<MemberKey, ConnectMetadata>) {
        for key in &c.dropped {
            let name = self.member_name(key);
            let lane = self.member_ref(key).map(|m| m.lane);
            self.note(
                lane,
                StepKind::Dropped,
                format!("{name} did not rejoin within rebalance.timeout.ms; the broker drops it from generation {}.", c.generation),
            );
            self.silent.remove(key);
            if let Some(m) = self.member_ref(key).copied() {
                if self.worker(m.lane, m.inc).is_some() {
                    self.schedule_notice(m.lane);
                }
            }
        }
        for (key, _) in &c.members {
            if let Some(s) = self.silent.get_mut(key) {
                // The broker expires a silent member only after its join completes.
                s.expires_ms = s.expires_ms.max(self.driver.now() + s.session_ms);
                let at = s.expires_ms;
                self.schedule(
                    at,
                    SimEvent::Expire {
                        member: Box::new(*key),
                    },
                );
            }
            let Some(m) = self.member_ref(key).copied() else {
                continue;
            };
            let now = self.driver.now();
            if let Some(w) = self.worker_mut(m.lane, m.inc) {
                if matches!(w.phase, Phase::AwaitingJoin) {
                    w.phase = Phase::AwaitingSync(c.generation);
                    w.last_contact = now;
                }
            }
        }
        let leader = self.member_ref(&c.leader).copied();
        let generation = c.generation;
        self.completed = Some(c);
        if let Some(m) = leader {
            if self.worker(m.lane, m.inc).is_some() {
                self.schedule(
                    self.driver.now(),
                    SimEvent::Assign {
                        lane: m.lane,
                        inc: m.inc,
                        generation,
                    },
                );
            }
        }
    }

    fn items_of(
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
        let modes: std::collections::BTreeSet<ConnectProtocol> =
            join.members.iter().map(|(_, m)| m.mode).collect();
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
                Some(m) => match self.worker_mut(m.lane, m.inc) {
                    Some(w) => std::mem::take(&mut w.snapshot),
                    None => self.lanes[m.lane as usize].last_snapshot.clone(),
                },
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
            explanation,
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
                        w.snapshot = h;
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

    /// The leader's SyncGroup arrives: the group is stable and every member
    /// gets its assignment.
    pub(super) fn on_sync(&mut self, generation: i32) {
        let Some(mut p) = self.pending.take() else {
            return;
        };
        if p.generation != generation {
            self.pending = Some(p);
            return;
        }
        if self.group.sync(generation).is_err() {
            let r = &mut self.recorder.rounds[p.round];
            r.completed_ms = self.driver.now();
            return;
        }
        {
            let r = &mut self.recorder.rounds[p.round];
            r.completed_ms = self.driver.now();
            r.delivered = true;
        }
        self.protocol_switch(p.protocol, &p.members);
        self.previous_round_lanes = self.recorder.rounds[p.round]
            .members
            .iter()
            .map(|m| m.worker)
            .collect();
        for (i, key) in p.members.iter().enumerate() {
            let Some(m) = self.member_ref(key).copied() else {
                continue;
            };
            let Some(w) = self.worker(m.lane, m.inc) else {
                continue;
            };
            if w.member.as_ref().map(|(k, _)| k) != Some(key)
                || !matches!(w.phase, Phase::AwaitingSync(g) if g == generation)
            {
                continue;
            }
            let d = Delivery {
                generation,
                protocol: p.protocol,
                leader_lane: p.leader_lane,
                delay_ms: p.delay_ms,
                delta: std::mem::take(&mut p.deltas[i]),
                assigned_list: p.assigned_lists[i],
            };
            if w.frozen.is_some() {
                self.proc_mut(m.lane).held_delivery = Some(d);
            } else {
                self.apply_delivery(m.lane, d);
            }
        }
    }

    /// A held delivery (the worker was frozen when SyncGroup answered).
    pub(super) fn deliver(&mut self, lane: u32, d: Delivery) {
        self.apply_delivery(lane, d);
    }

    /// `onJoinComplete` + `onAssigned` + `handleRebalanceCompleted`
    /// (`WorkerCoordinator`, `DistributedHerder`).
    fn apply_delivery(&mut self, lane: u32, d: Delivery) {
        let now = self.driver.now();
        let w = self.proc_mut(lane);
        w.hb_anchor = now;
        w.last_contact = now;
        w.last_completed_generation = d.generation;
        let previous = w.current_protocol;
        w.current_protocol = d.protocol;
        w.leader_lane = Some(d.leader_lane);
        w.scheduled_rebalance = None;
        w.timer_token += 1;
        w.phase = Phase::Idle;
        w.rejoin_reason = None;
        let was_zombie = std::mem::replace(&mut w.zombie, false);
        if d.protocol.is_cooperative() {
            if !d.delta.is_empty() {
                apply_delta(&mut w.snapshot, &d.delta);
                w.snapshot_version += 1;
            }
            if was_zombie || previous == ConnectProtocol::Eager {
                w.full_start = true;
            }
            let revoked = self.items_of(&d.delta.revoked_connectors, &d.delta.revoked_tasks);
            let running: Vec<u32> = revoked
                .into_iter()
                .filter(|&i| self.recorder.timeline.state_on(i, lane).is_some())
                .collect();
            if running.is_empty() {
                self.finish_round(lane, d.delay_ms, &d.delta);
            } else {
                let batches = self.recorder.timeline.split_off(
                    lane,
                    &running,
                    ItemState::Stopping,
                    &mut self.recorder.pool,
                );
                self.stop_blocking(
                    lane,
                    batches,
                    StopKind::Pool,
                    AfterStop::FinishRound {
                        delay_ms: d.delay_ms,
                        delta: d.delta,
                    },
                );
            }
        } else {
            if previous.is_cooperative() && !self.recorder.timeline.lane_batches(lane).is_empty() {
                self.orphan_downgrade(lane, &d.delta);
            }
            let w = self.proc_mut(lane);
            w.snapshot = MemberHoldings {
                member: String::new(),
                connectors: d.delta.assigned_connectors.clone(),
                tasks: d.delta.assigned_tasks.clone(),
            };
            w.snapshot_version += 1;
            // The round record already holds the assignment as items
            // (connectors, then tasks): start from that list.
            let nc = d.delta.assigned_connectors.len();
            let assigned = self.recorder.pool.get(d.assigned_list);
            let connectors: Vec<u32> = assigned[..nc].to_vec();
            let tasks: Vec<u32> = assigned[nc..].to_vec();
            let nc = nc as u32;
            let shared = (
                ItemList {
                    start: d.assigned_list.start,
                    len: nc,
                },
                ItemList {
                    start: d.assigned_list.start + nc,
                    len: d.assigned_list.len - nc,
                },
            );
            self.start_items(lane, connectors, tasks, Some(shared));
        }
        if lane == d.leader_lane && d.protocol == ConnectProtocol::Sessioned {
            self.maybe_write_session_key(lane);
        }
        self.after_idle(lane);
    }

    /// A cooperative→eager switch: `onJoinPrepare` followed
    /// the previous, cooperative generation, so nothing was revoked before
    /// joining, and the full eager assignment replaces the snapshot while
    /// `startWork` only starts what is not running. Work missing from the new
    /// assignment keeps running untracked; we show it as zombie copies. This
    /// follows the code (WorkerCoordinator, DistributedHerder.startWork); no
    /// Kafka test covers it.
    fn orphan_downgrade(&mut self, lane: u32, delta: &MemberDelta) {
        let mut keep: Vec<u32> = self.items_of(&delta.assigned_connectors, &delta.assigned_tasks);
        keep.sort_unstable();
        let mut orphans = Vec::new();
        for &b in self.recorder.timeline.lane_batches(lane) {
            for item in self.recorder.timeline.batch_items(b) {
                if keep.binary_search(&item).is_err() {
                    orphans.push(item);
                }
            }
        }
        if orphans.is_empty() {
            return;
        }
        orphans.sort_unstable();
        self.recorder.timeline.split_off(
            lane,
            &orphans,
            ItemState::Zombie,
            &mut self.recorder.pool,
        );
        self.proc_mut(lane).orphans = true;
        let name = self.name(lane).to_string();
        self.note(
            Some(lane),
            StepKind::DowngradeOrphans,
            format!(
                "Cooperative → eager: {name} entered this first eager generation without revoking anything (onJoinPrepare follows the previous generation's protocol) and its new full assignment lacks {} it runs. Nothing in Kafka stops them (code reading of WorkerCoordinator.onJoinPrepare and DistributedHerder.startWork; no Kafka test covers it): they keep running untracked, shown as zombie copies.",
                plural(orphans.len(), "item")
            ),
        );
    }

    /// After the revocation stop: arm the delay, start new work, and rejoin
    /// at once if anything was revoked (`DistributedHerder.handleRebalanceCompleted`).
    pub(super) fn finish_round(&mut self, lane: u32, delay_ms: i32, delta: &MemberDelta) {
        let (connectors, tasks) = (delta.revoked_connectors.len(), delta.revoked_tasks.len());
        let now = self.driver.now();
        let w = self.proc_mut(lane);
        if delay_ms > 0 {
            let at = now + delay_ms as u64;
            w.scheduled_rebalance = Some(at);
            w.timer_token += 1;
            let (inc, token) = (w.incarnation, w.timer_token);
            self.schedule(at, SimEvent::RejoinTimer { lane, inc, token });
        }
        let w = self.proc_mut(lane);
        if std::mem::take(&mut w.full_start) {
            let snapshot = w.snapshot.clone();
            let connectors: Vec<u32> = snapshot
                .connectors
                .iter()
                .map(|&c| WorkRegistry::connector_item(c))
                .collect();
            let tasks: Vec<u32> = snapshot
                .tasks
                .iter()
                .map(|&t| self.work.task_item(t))
                .collect();
            self.start_items(lane, connectors, tasks, None);
        } else {
            let connectors: Vec<u32> = delta
                .assigned_connectors
                .iter()
                .map(|&c| WorkRegistry::connector_item(c))
                .collect();
            let tasks: Vec<u32> = delta
                .assigned_tasks
                .iter()
                .map(|&t| self.work.task_item(t))
                .collect();
            self.start_items(lane, connectors, tasks, None);
        }
        if connectors + tasks > 0 {
            self.request_rejoin(lane, RejoinReason::FollowUp { connectors, tasks });
        }
    }

    /// `startWork`: starts what is assigned and not yet running here (a copy
    /// still running here, e.g. a zombie kept by the assignor, is adopted).
    /// `shared` are pool lists equal to the inputs, reused when nothing is
    /// filtered out.
    pub(super) fn start_items(
        &mut self,
        lane: u32,
        connectors: Vec<u32>,
        tasks: Vec<u32>,
        shared: Option<(ItemList, ItemList)>,
    ) {
        let mut adopt = Vec::new();
        // A worker with nothing on its lane (every eager round) starts all.
        let nothing_here = self.recorder.timeline.lane_batches(lane).is_empty();
        let filter = |items: Vec<u32>,
                      shared: Option<ItemList>,
                      adopt: &mut Vec<u32>|
         -> (Vec<u32>, Option<ItemList>) {
            if nothing_here {
                return (items, shared);
            }
            let before = items.len();
            let fresh: Vec<u32> = items
                .into_iter()
                .filter(|&item| match self.recorder.timeline.state_on(item, lane) {
                    None => true,
                    Some(state) => {
                        if state == ItemState::Zombie {
                            adopt.push(item);
                        }
                        false
                    }
                })
                .collect();
            let unchanged = fresh.len() == before;
            (fresh, shared.filter(|_| unchanged))
        };
        let (connectors, shared_c) = filter(connectors, shared.map(|s| s.0), &mut adopt);
        let (tasks, shared_t) = filter(tasks, shared.map(|s| s.1), &mut adopt);
        if !adopt.is_empty() {
            self.recorder.timeline.split_off(
                lane,
                &adopt,
                ItemState::Running,
                &mut self.recorder.pool,
            );
        }
        let starts = [
            (
                connectors,
                shared_c,
                u64::from(self.timings.connector_start_ms),
            ),
            (tasks, shared_t, u64::from(self.timings.task_start_ms)),
        ];
        let inc = self.proc(lane).incarnation;
        for (items, pooled, took) in starts {
            if items.is_empty() {
                continue;
            }
            let batch = self.recorder.timeline.place(
                lane,
                ItemState::Starting,
                items,
                pooled,
                &mut self.recorder.pool,
            );
            let token = self.recorder.timeline.batch_token(batch);
            self.schedule(
                self.driver.now() + took,
                SimEvent::Started {
                    lane,
                    inc,
                    batch,
                    token,
                },
            );
        }
    }

    pub(super) fn on_started(&mut self, lane: u32, inc: u32, batch: u32, token: u32) {
        if !self.recorder.timeline.is_current(batch, token)
            || self.recorder.timeline.batch_lane(batch) != lane
        {
            return;
        }
        if self.recorder.timeline.batch_state(batch) != ItemState::Starting {
            return;
        }
        let Some(w) = self.worker(lane, inc) else {
            return;
        };
        let state = if w.zombie {
            ItemState::Zombie
        } else {
            ItemState::Running
        };
        self.recorder
            .timeline
            .set_state(batch, state, &mut self.recorder.pool);
        // Task batches (nearly all) have nothing more to do.
        if self.recorder.timeline.batch_kinds(batch).0 == 0 {
            return;
        }
        let connectors: Vec<u32> = self
            .recorder
            .timeline
            .batch_items(batch)
            .filter(|&i| !self.work.is_task(i))
            .collect();
        for c in connectors {
            self.connector_started(lane, ConnectorId(c));
        }
    }

    /// A connector whose config changed was stopped; start it again if it is
    /// still assigned here (`processConnectorConfigUpdates`).
    pub(super) fn restart_connector(&mut self, lane: u32, c: u32) {
        let assigned = self
            .proc(lane)
            .snapshot
            .connectors
            .contains(&ConnectorId(c));
        if assigned && self.recorder.timeline.is_configured(c) {
            self.start_items(lane, vec![c], Vec::new(), None);
        }
    }

    fn protocol_switch(&mut self, protocol: ConnectProtocol, members: &[MemberKey]) {
        let previous = self.group_protocol.replace(protocol);
        if previous == Some(protocol) {
            return;
        }
        let modes: Vec<(String, ConnectProtocol)> = members
            .iter()
            .filter_map(|k| {
                let m = self.member_ref(k)?;
                Some((
                    self.name(m.lane).to_string(),
                    self.lanes[m.lane as usize]
                        .config
                        .resolve()
                        .connect_protocol,
                ))
            })
            .collect();
        let holders: Vec<&str> = modes
            .iter()
            .filter(|(_, p)| *p == protocol)
            .map(|(n, _)| n.as_str())
            .collect();
        let wire = protocol.wire_name();
        let signing = match protocol {
            ConnectProtocol::Sessioned => "Internal REST requests (task-config forwarding) will be signed with a session key the leader distributes (KIP-507).",
            ConnectProtocol::Compatible => "No session key is used: internal request validation is disabled (KIP-507 needs every worker on sessioned).",
            ConnectProtocol::Eager => "Eager: every rebalance stops all work on every worker, and request validation is disabled.",
        };
        let text = match previous {
            None => format!(
                "The broker selects group protocol `{wire}`: the members vote for their first choice among the protocols every member supports (ClassicGroup.selectProtocol). {signing}"
            ),
            Some(old) if protocol < old => format!(
                "The group protocol drops from `{}` to `{wire}`: {} advertise{} nothing newer, and the broker only picks a protocol every member supports (ClassicGroup.selectProtocol). {signing}",
                old.wire_name(),
                names(&holders),
                if holders.len() == 1 { "s" } else { "" }
            ),
            Some(old) => format!(
                "The group protocol switches from `{}` to `{wire}`: the last worker that could not speak it is gone, so every member now supports `{wire}`. {signing}",
                old.wire_name()
            ),
        };
        self.note(None, StepKind::GroupProtocol, text);
    }

    /// Membership by lane: `true` at each lane in `lanes` (a `contains`
    /// without the scan, for filters over every member).
    fn lane_set(&self, lanes: &[u32]) -> Vec<bool> {
        let mut set = vec![false; self.lanes.len()];
        for &l in lanes {
            set[l as usize] = true;
        }
        set
    }

    fn explain_round(&self, f: &RoundFacts) -> String {
        let leader = self.name(f.leader).to_string();
        let (cc, ct) = f.configured;
        if !f.cooperative {
            let prepare = if self.group_protocol.is_some_and(|p| p.is_cooperative()) {
                "this first eager generation follows a cooperative one, so nobody stopped anything before joining (onJoinPrepare follows the previous generation's protocol); members report no assignment (V0 metadata)"
            } else if f.anything_ran {
                "every worker stopped all its work before joining (onJoinPrepare) and reports no assignment (V0 metadata)"
            } else {
                "members report no assignment (V0 metadata)"
            };
            return format!(
                "Eager (protocol `default`): {prepare}; leader {leader} deals {} round-robin over {} sorted by member id, connectors first.",
                work(cc, ct),
                plural(f.members, "member")
            );
        }
        let lane_names = |lanes: &[u32]| -> String {
            let v: Vec<&str> = lanes.iter().map(|&l| self.name(l)).collect();
            names(&v)
        };
        let mut parts: Vec<String> = Vec::new();
        let is_member = self.lane_set(&f.member_lanes);
        let departed: Vec<u32> = self
            .previous_round_lanes
            .iter()
            .copied()
            .filter(|&l| !is_member[l as usize])
            .collect();
        let Some(why) = f.why else {
            return "Cooperative round.".to_string();
        };
        let size = |ct: &ConnectorsAndTasks| work(ct.connectors.len(), ct.tasks.len());
        let at_clock = |deadline: i64| clock((deadline - ASSIGNOR_EPOCH_MS).max(0) as u64);
        if why.history_discarded {
            let who = if f.leader_changed {
                format!("new leader {leader} has no assignment history (it lived in the old leader's assignor)")
            } else if f.first_cooperative_round {
                format!("leader {leader}'s cooperative assignor has computed no round before")
            } else {
                format!("leader {leader} discards its history: the last round it computed did not complete (KAFKA-9848)")
            };
            parts.push(format!(
                "{who}; nothing counts as lost, so work nobody reports is assigned at once"
            ));
        }
        if why.revocation_undone {
            parts.push("work revoked last round is still reported by a member (the revocation never arrived): the leader trusts what members report".to_string());
        }
        if !why.duplicated.is_empty() {
            parts.push(format!(
                "{} reported by two workers at once (a zombie came back): every copy is revoked (KAFKA-9841) and placed once in a later round",
                size(&why.duplicated)
            ));
        }
        if !why.deleted.is_empty() {
            parts.push(format!(
                "{} of deleted connectors are revoked",
                size(&why.deleted)
            ));
        }
        let lost = size(&why.lost);
        let gone = lane_names(&departed);
        match &why.lost_handling {
            LostHandling::NothingLost | LostHandling::DelayExpired => {}
            LostHandling::Postponed { deadline_ms } if why.lost.is_empty() => {
                parts.push(format!("a backoff delay is pending until {}: no revocations before then", at_clock(*deadline_ms)));
            }
            // The branches below only say something when work was lost.
            _ if why.lost.is_empty() => {}
            LostHandling::ReassignedNoDeparture => parts.push(format!(
                "{lost} assigned in a round that never completed are reassigned at once: no member left (KAFKA-9848)"
            )),
            LostHandling::ReassignedDelayDisabled => parts.push(format!(
                "the {lost} of {gone} move at once: scheduled.rebalance.max.delay.ms is 0 (KAFKA-15693)"
            )),
            LostHandling::DealtToCandidates { candidates } => {
                let names_of: Vec<String> = candidates.iter().map(|id| self.member_name_by_id(id)).collect();
                let refs: Vec<&str> = names_of.iter().map(String::as_str).collect();
                parts.push(format!(
                    "the scheduled delay expired: the {lost} of departed workers are dealt round-robin to {}, the workers seen empty during the delay (KAFKA-10413) — not necessarily the ones that left",
                    names(&refs)
                ));
            }
            LostHandling::ReassignedNoCandidates => parts.push(format!(
                "the scheduled delay expired with no empty worker to take them: the {lost} are spread over everybody as new work"
            )),
            LostHandling::Postponed { deadline_ms } => {
                if f.delay_ms as u64 == f.max_delay_ms && !departed.is_empty() {
                    parts.push(format!(
                        "{gone} was lost: its {lost} wait for scheduled.rebalance.max.delay.ms ({}) until {}, in case it comes back",
                        duration(f.max_delay_ms),
                        at_clock(*deadline_ms)
                    ));
                } else {
                    parts.push(format!(
                        "the {lost} of departed workers wait until the deadline {} ({} left): it was fixed when the loss was first seen and does not move as workers leave or return",
                        at_clock(*deadline_ms),
                        duration(f.delay_ms.max(0) as u64)
                    ));
                }
            }
        }
        match &why.load_balancing {
            LoadBalancing::Revoked | LoadBalancing::RevokedWithoutBackoff => {
                let (rc, rt) = f.revoked;
                parts.push(format!(
                    "revokes {} from {} to balance the load; they are placed in the follow-up round",
                    work(rc, rt),
                    lane_names(&f.revoked_from)
                ));
            }
            LoadBalancing::PostponedByBackoff { attempt, delay_ms } => parts.push(format!(
                "{} revoking round in a row: revocations postponed by the KAFKA-12495 backoff, {}",
                ordinal(*attempt + 1),
                duration((*delay_ms).max(0) as u64)
            )),
            LoadBalancing::SuppressedByDelay
            | LoadBalancing::Balanced
            | LoadBalancing::BalancedBackoffReset => {}
        }
        let (ac, at) = f.assigned;
        if ac + at > 0 {
            parts.push(format!(
                "assigns {} to {}",
                work(ac, at),
                lane_names(&f.assigned_to)
            ));
        }
        if why.load_balancing == LoadBalancing::BalancedBackoffReset {
            parts.push(
                "the load is balanced again, so the consecutive-revocation backoff resets"
                    .to_string(),
            );
        }
        if parts.is_empty() {
            parts.push("nothing to change".to_string());
        }
        format!("{}.", sentence(&parts.join("; ")))
    }
}

/// What a round decided, for its explanation.
struct RoundFacts<'a> {
    cooperative: bool,
    leader: u32,
    leader_changed: bool,
    first_cooperative_round: bool,
    anything_ran: bool,
    members: usize,
    /// Configured connectors and tasks (the leader's config snapshot).
    configured: (usize, usize),
    revoked: (usize, usize),
    assigned: (usize, usize),
    revoked_from: Vec<u32>,
    assigned_to: Vec<u32>,
    /// The assignor's own account of the round (cooperative only).
    why: Option<&'a RoundExplanation>,
    delay_ms: i32,
    max_delay_ms: u64,
    member_lanes: Vec<u32>,
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

/// `Second`, `Third`, `4th` …
fn ordinal(n: i32) -> String {
    match n {
        1 => "First".to_string(),
        2 => "Second".to_string(),
        3 => "Third".to_string(),
        n => format!("{n}th"),
    }
}

/// Capitalizes a sentence unless it starts with a name (`worker-2`, a
/// connector, a config key), which keeps its spelling.
fn sentence(s: &str) -> String {
    let first = s.split(' ').next().unwrap_or("");
    if first.contains(['-', '.', '_']) || first.chars().any(|c| c.is_ascii_digit()) {
        return s.to_string();
    }
    capitalize(s)
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
