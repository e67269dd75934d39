//! The join phase: JoinGroup at the broker (`GroupCoordinator.handleJoinGroup`),
//! what a group change means for the members (a leader change, a join phase
//! that starts or aborts a round) and the join phase completing.

use crate::sim::driver::Simulation;
use crate::sim::rebalance_cause::RebalanceCause;
use crate::trace::{ItemState, StepKind};

use super::super::group::{CompletedJoin, GroupChange, JoinResponse};
use super::super::timeline::BatchId;
use super::member::{member_id, MemberKey};
use super::worker::{ConnectMetadata, Phase, RejoinReason};
use super::{ConnectSimulation, MemberRef, SimEvent};

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
        if !change.emptied.is_empty() {
            // The group is empty: the next JoinGroup starts a new one.
            let generation = self.group.generation();
            self.on_members_dropped(&change.emptied, generation);
        }
        if let Some(c) = change.completed {
            self.on_join_completed(c);
        }
    }

    /// Members the join phase closed without: each learns of it at its next
    /// heartbeat, and until then runs its work untracked.
    fn on_members_dropped(&mut self, dropped: &[MemberKey], generation: i32) {
        for key in dropped {
            let name = self.member_name(key);
            let lane = self.member_ref(key).map(|m| m.lane);
            self.note(
                lane,
                StepKind::Dropped,
                format!("{name} did not rejoin within rebalance.timeout.ms; the broker drops it from generation {generation}."),
            );
            if let Some(zombie) = self.drop_alive_member(key) {
                self.note(lane, StepKind::Zombie, zombie);
            }
            self.silent.remove(key);
            if let Some(m) = self.member_ref(key).copied() {
                if self.worker(m.lane, m.inc).is_some() {
                    self.schedule_notice(m.lane);
                }
            }
        }
    }

    /// A member the join phase dropped while its process lives on (busy
    /// stopping revoked work, or frozen) does not know it: nothing tells it
    /// until its next heartbeat or JoinGroup is answered UNKNOWN_MEMBER_ID.
    /// Until then it runs its work untracked, so its running copies become
    /// zombie copies (a frozen one's turn zombie when it resumes). Returns
    /// the `zombie` step's explanation when it runs anything now.
    fn drop_alive_member(&mut self, key: &MemberKey) -> Option<String> {
        let m = self.member_ref(key).copied()?;
        let w = self.worker_mut(m.lane, m.inc)?;
        if w.member.map(|(k, _)| k) != Some(*key) || matches!(w.phase, Phase::Halting) {
            return None;
        }
        w.zombie = true;
        if w.frozen.is_some() {
            return None;
        }
        let running: Vec<BatchId> = self
            .recorder
            .timeline
            .lane_batches(m.lane)
            .iter()
            .copied()
            .filter(|&b| self.recorder.timeline.batch_state(b) == ItemState::Running)
            .collect();
        let (mut c, mut t) = (0, 0);
        for b in running {
            let (bc, bt) = self.recorder.timeline.batch_kinds(b);
            c += bc;
            t += bt;
            self.recorder
                .timeline
                .set_state(b, ItemState::Zombie, &mut self.recorder.pool);
        }
        if c + t == 0 {
            return None;
        }
        let name = self.name(m.lane).to_string();
        Some(format!(
            "{name} does not know it was dropped: its {} run on as zombie copies, which the new generation may hand to other workers, until its next heartbeat or JoinGroup is answered UNKNOWN_MEMBER_ID.",
            super::explain::work(c, t)
        ))
    }

    fn abort_round(&mut self, generation: i32) {
        if let Some(p) = self.pending.take() {
            if p.generation == generation {
                let r = &mut self.recorder.rounds[p.round];
                r.completed_ms = self.driver.now();
                r.delivered = false;
                r.explanation = format!(
                    "{} Never delivered: the group restarted the rebalance before SyncGroup completed.",
                    r.explanation
                )
                .into();
            } else {
                self.pending = Some(p);
            }
        }
    }

    fn on_join_completed(&mut self, c: CompletedJoin<MemberKey, ConnectMetadata>) {
        self.on_members_dropped(&c.dropped, c.generation);
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
}
