//! The group protocol seen from the members: JoinGroup, the broker's
//! answers, heartbeat notices of a rebalance, EAGER `onJoinPrepare`,
//! COOPERATIVE revocation, SyncGroup and `onAssignment`, and the probing
//! rebalance the leader's client triggers.

use crate::sim::driver::Simulation;
use crate::sim::rebalance_cause::RebalanceCause;
use std::collections::{BTreeMap, BTreeSet};

use super::events::Ev;
use super::explain::join_cause;
use super::member::{MemberKey, Phase, Subscription, TaskPhase};
use super::StreamsSimulation;
use crate::sim::group::{GroupChange, GroupState, JoinResponse};
use crate::trace::{ItemState, MemberInfo, StepKind};
use crate::wording::duration;

impl StreamsSimulation {
    pub(super) fn send_join(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if p.phase == Phase::Stopping {
            return;
        }
        p.phase = Phase::Joining;
        let rtt = self.rtt;
        self.schedule(self.driver.now() + rtt, Ev::JoinArrives { lane, inc });
    }

    pub(super) fn on_join_arrives(&mut self, lane: u32, inc: u32) {
        if self
            .proc_of(lane, inc)
            .is_none_or(|p| p.phase != Phase::Joining)
        {
            return;
        }
        let key = self.key_for(lane, inc);
        let statics = key.1 == 0;
        let known = self.proc_of(lane, inc).and_then(|p| p.member) == Some(key);
        let metadata = self.subscription(lane);
        let timeout = self.lanes[lane as usize].config.max_poll_interval_ms;
        let name = self.name(lane);
        // Only a new process (unknown member id) takes the static replacement
        // path; a known static member rejoins like any other (KIP-345,
        // `GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin`).
        let response = if statics && !known {
            self.group
                .rejoin_static(key, metadata, timeout, self.driver.now())
        } else {
            self.group
                .join(key, !known, metadata, timeout, self.driver.now())
        };
        if !self.member_index.contains_key(&key) || (statics && !known) {
            self.member_index
                .insert(key, self.recorder.members.len() as u32);
            self.recorder.members.push(MemberInfo {
                worker: lane,
                member_id: match &self.lanes[lane as usize].config.group_instance_id {
                    Some(prefix) => format!("{prefix}-{}", lane + 1),
                    None => format!("{name}-consumer-{}", key.1),
                },
                joined_ms: self.driver.now(),
            });
        }
        self.silent.remove(&key);
        let frozen = self
            .proc_of(lane, inc)
            .is_some_and(|p| p.frozen_until.is_some());
        if let Some(p) = self.proc_mut(lane, inc) {
            p.member = Some(key);
        }
        if frozen {
            // Accepted while its process is frozen: no heartbeats follow.
            self.go_silent(key);
        }
        match response {
            JoinResponse::UnknownMember => {
                // Removed meanwhile: rejoin as a new member.
                if let Some(p) = self.proc_mut(lane, inc) {
                    p.member = None;
                }
                self.lose_tasks(lane, inc);
            }
            JoinResponse::CurrentGeneration { generation } => {
                if statics {
                    self.note(
                        Some(lane),
                        StepKind::StaticRejoin,
                        format!("{name} rejoins with its group.instance.id within session.timeout.ms: the coordinator swaps in the new member id and returns its stored assignment, no rebalance (KIP-345)."),
                    );
                }
                let at = self.driver.now() + self.rtt;
                self.schedule(
                    at,
                    Ev::Assignment {
                        lane,
                        inc,
                        generation,
                    },
                );
            }
            JoinResponse::Accepted(change) => {
                let cause = change
                    .started
                    .as_ref()
                    .and_then(|s| join_cause(&s.trigger, &name));
                if let Some(text) = cause {
                    // First trigger wins, whatever the group's state.
                    let cause = RebalanceCause {
                        started_ms: self.driver.now(),
                        text,
                    };
                    self.cause.trigger(cause, true);
                }
                self.apply_change(change);
            }
        }
    }

    pub(super) fn apply_change(&mut self, change: GroupChange<MemberKey, Subscription>) {
        if let Some(started) = &change.started {
            if started.aborted_generation.is_some() {
                self.pending = None;
            }
            let trigger_key = *started.trigger.member();
            let keys: Vec<MemberKey> = self.group.members().map(|(k, _)| *k).collect();
            for key in keys {
                if key == trigger_key {
                    continue;
                }
                let (lane, _) = key;
                let Some(p) = self.lanes[lane as usize].proc.as_ref() else {
                    continue;
                };
                if p.member != Some(key) {
                    continue;
                }
                let inc = p.inc;
                let delay = if started.aborted_generation.is_some() && p.phase == Phase::Joining {
                    // Its SyncGroup is answered REBALANCE_IN_PROGRESS: rejoin now.
                    self.rtt
                } else {
                    self.heartbeat_delay(lane)
                };
                if started.aborted_generation.is_some() && p.phase == Phase::Joining {
                    self.schedule(self.driver.now() + delay, Ev::SendJoin { lane, inc });
                } else {
                    self.schedule(self.driver.now() + delay, Ev::Notice { lane, inc });
                }
            }
        }
        if let Some(d) = change.deadline {
            self.schedule(d.at_ms, Ev::JoinDeadline { timer: d.timer });
        }
        if let Some(done) = change.completed {
            self.compute_assignment(done);
        }
    }

    pub(super) fn on_notice(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_of(lane, inc) else {
            return;
        };
        let Some(key) = p.member else {
            return;
        };
        if p.phase != Phase::Stable || self.group.state() != GroupState::PreparingRebalance {
            return;
        }
        if self.group.has_joined(&key) {
            return;
        }
        if p.frozen_until.is_some() {
            if let Some(p) = self.proc_mut(lane, inc) {
                p.rejoin_when_free = true;
            }
            return;
        }
        if p.blocked_until.is_some() {
            // The heartbeat thread hears REBALANCE_IN_PROGRESS, but only poll()
            // rejoins: the join phase waits for the blocked thread.
            if let Some(p) = self.proc_mut(lane, inc) {
                p.rejoin_when_free = true;
            }
            return;
        }
        self.begin_rejoin(lane, inc);
    }

    /// `onJoinPrepare` then JoinGroup: EAGER revokes every active first.
    pub(super) fn begin_rejoin(&mut self, lane: u32, inc: u32) {
        if self.busy(lane, inc) {
            if let Some(p) = self.proc_mut(lane, inc) {
                p.rejoin_when_free = true;
            }
            return;
        }
        let cooperative = self.cooperative(lane);
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if matches!(p.phase, Phase::Joining | Phase::Revoking | Phase::Stopping) {
            return;
        }
        if p.revoking > 0 {
            p.rejoin_after_revoke = true;
            return;
        }
        if cooperative || p.active.is_empty() {
            self.send_join(lane, inc);
            return;
        }
        p.phase = Phase::Revoking;
        let tasks: Vec<u32> = p.active.keys().copied().collect();
        self.revoke(lane, inc, tasks);
    }

    pub(super) fn revoke(&mut self, lane: u32, inc: u32, tasks: Vec<u32>) {
        let token = self.next_token();
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        for t in &tasks {
            if let Some(a) = p.active.get_mut(t) {
                *a = (TaskPhase::Revoking, token);
            }
        }
        p.revoking += 1;
        self.recorder.timeline.split_off(
            lane,
            &tasks,
            ItemState::Stopping,
            &mut self.recorder.pool,
        );
        let at = self.driver.now() + u64::from(self.timings.task_commit_ms);
        self.schedule(
            at,
            Ev::Revoked {
                lane,
                inc,
                tasks,
                token,
            },
        );
    }

    pub(super) fn on_revoked(&mut self, lane: u32, inc: u32, tasks: Vec<u32>, token: u64) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        p.revoking = p.revoking.saturating_sub(1);
        let mut done = Vec::new();
        for t in tasks {
            if p.active.get(&t).is_some_and(|a| a.1 == token) {
                p.active.remove(&t);
                done.push(t);
            }
        }
        let phase = p.phase;
        let recycle: Vec<u32> = done
            .iter()
            .copied()
            .filter(|t| p.standby.contains_key(t))
            .collect();
        for &t in &done {
            self.recorder
                .timeline
                .remove_copy(t, lane, &mut self.recorder.pool);
            self.settle_local(lane, t);
        }
        // A revoked task assigned as standby is recycled, not closed
        // (`TaskManager.handleAssignment`).
        for t in recycle {
            let warm = self.lanes[lane as usize]
                .proc
                .as_ref()
                .and_then(|p| p.standby.get(&t).copied())
                .unwrap_or(false);
            self.start_standby_copy(lane, t, warm);
        }
        if phase == Phase::Revoking {
            self.send_join(lane, inc);
        } else if let Some(p) = self.proc_mut(lane, inc) {
            if p.revoking == 0 && p.rejoin_after_revoke {
                p.rejoin_after_revoke = false;
                self.begin_rejoin(lane, inc);
            }
        }
    }

    pub(super) fn on_sync(&mut self, generation: i32) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        if pending.round.generation != generation {
            self.pending = Some(pending);
            return;
        }
        let mut round = pending.round;
        if self.group.sync(generation).is_err() {
            round.completed_ms = self.driver.now();
            self.recorder.rounds.push(round);
            return;
        }
        round.delivered = true;
        round.completed_ms = self.driver.now();
        self.recorder.rounds.push(round);
        for (key, a) in pending.assignments {
            self.last_assignment.insert(key, a);
            let (lane, _) = key;
            let Some(p) = self.lanes[lane as usize].proc.as_ref() else {
                continue;
            };
            if p.member != Some(key) {
                continue;
            }
            let inc = p.inc;
            self.schedule(
                self.driver.now() + self.rtt,
                Ev::Assignment {
                    lane,
                    inc,
                    generation,
                },
            );
        }
    }

    pub(super) fn on_assignment(&mut self, lane: u32, inc: u32, generation: i32) {
        let Some(p) = self.proc_of(lane, inc) else {
            return;
        };
        let Some(key) = p.member else {
            return;
        };
        if p.phase != Phase::Joining || p.out_of_group {
            return;
        }
        if let Some(until) = p.free_at() {
            // The JoinGroup/SyncGroup answer is handled on the next poll.
            self.schedule(
                until,
                Ev::Assignment {
                    lane,
                    inc,
                    generation,
                },
            );
            return;
        }
        if generation != self.group.generation() {
            // The group moved on meanwhile (SyncGroup answers
            // REBALANCE_IN_PROGRESS or ILLEGAL_GENERATION): rejoin.
            self.send_join(lane, inc);
            return;
        }
        let a = self.last_assignment.get(&key).cloned().unwrap_or_default();
        let cooperative = self.cooperative(lane);
        let p = self.proc_mut(lane, inc).expect("checked above");
        p.phase = Phase::Stable;
        p.generation = generation;
        let current: BTreeSet<u32> = p.active.keys().copied().collect();
        let revoked: Vec<u32> = current.difference(&a.active).copied().collect();
        let added: Vec<u32> = a.active.difference(&current).copied().collect();
        let mut standby_now: BTreeMap<u32, bool> = BTreeMap::new();
        for &t in &a.standby {
            standby_now.insert(t, false);
        }
        for &t in &a.warmup {
            standby_now.insert(t, true);
        }
        let old_standby = std::mem::replace(&mut p.standby, standby_now.clone());
        // Standbys no longer assigned are closed (their directory stays).
        for (&t, _) in old_standby.iter() {
            if !standby_now.contains_key(&t) || a.active.contains(&t) {
                self.recorder
                    .timeline
                    .remove_copy(t, lane, &mut self.recorder.pool);
                self.settle_local(lane, t);
            }
        }
        // New standbys and warmups start following their changelog.
        for (&t, &warm) in &standby_now {
            if a.active.contains(&t) || revoked.contains(&t) {
                continue;
            }
            match old_standby.get(&t) {
                Some(&was) if was == warm => {}
                Some(_) => {
                    let state = super::restoration::standby_copy_state(warm);
                    self.recorder
                        .timeline
                        .split_off(lane, &[t], state, &mut self.recorder.pool);
                }
                None => self.start_standby_copy(lane, t, warm),
            }
        }
        let rejoin = a.immediate;
        if let Some(v) = a.metadata_version {
            self.lanes[lane as usize].used_metadata = Some(v);
        }
        if !revoked.is_empty() && cooperative {
            let name = self.name(lane);
            let labels = self.labels(&revoked.iter().copied().collect());
            self.note(
                Some(lane),
                StepKind::Revoke,
                format!("{name} revokes {labels} (commit, suspend) and then rejoins for the follow-up round (ConsumerCoordinator.onJoinComplete calls requestRejoin, KIP-429)."),
            );
            if let Some(p) = self.proc_mut(lane, inc) {
                p.rejoin_after_revoke = true;
            }
            self.revoke(lane, inc, revoked);
        }
        // An EAGER member told to rejoin at once (version probing) revokes
        // everything again in onJoinPrepare before its next poll: the tasks
        // it was just given never initialise.
        if !rejoin || cooperative {
            self.start_actives(lane, inc, added);
        }
        if let Some(at) = a.probing_at {
            self.schedule(
                at,
                Ev::Probe {
                    lane,
                    inc,
                    generation,
                },
            );
        }
        // A rebalance that started since this answer was produced (or while
        // it waited for a frozen or blocked thread) needs this member too.
        let missed =
            self.group.state() == GroupState::PreparingRebalance && !self.group.has_joined(&key);
        if rejoin || missed {
            self.begin_rejoin(lane, inc);
        }
    }

    pub(super) fn on_probe(&mut self, lane: u32, inc: u32, generation: i32) {
        let Some(p) = self.proc_of(lane, inc) else {
            return;
        };
        if p.generation != generation
            || p.phase != Phase::Stable
            || self.group.generation() != generation
            || self.group.state() != GroupState::Stable
        {
            return;
        }
        let name = self.name(lane);
        let interval = self.lanes[lane as usize]
            .config
            .probing_rebalance_interval_ms;
        self.note(
            Some(lane),
            StepKind::ProbingRebalance,
            format!("{name} (the leader's client) triggers the probing rebalance, probing.rebalance.interval.ms ({}) after the assignment that asked for it: warmups within acceptable.recovery.lag are promoted (KIP-441).", duration(interval)),
        );
        self.set_cause("probing rebalance".to_string());
        self.begin_rejoin(lane, inc);
    }
}
