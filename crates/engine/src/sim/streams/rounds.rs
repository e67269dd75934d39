//! The group protocol seen from each stream thread's consumer: JoinGroup,
//! the broker's answers, heartbeat notices of a rebalance, EAGER
//! `onJoinPrepare`, COOPERATIVE revocation, SyncGroup and `onAssignment`,
//! and the probing rebalance the leader's client triggers.

use crate::sim::driver::Simulation;
use crate::sim::rebalance_cause::RebalanceCause;
use std::collections::{BTreeMap, BTreeSet};

use super::events::Ev;
use super::explain::join_cause;
use super::member::{MemberKey, Phase, Subscription, TaskPhase, Th, Waiting};
use super::StreamsSimulation;
use crate::sim::group::{GroupChange, GroupState, JoinResponse};
use crate::trace::{ItemState, MemberInfo, StepKind};
use crate::wording::duration;

impl StreamsSimulation {
    pub(super) fn send_join(&mut self, th: Th) {
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        if x.phase == Phase::Stopping {
            return;
        }
        x.phase = Phase::Joining;
        let rtt = self.rtt;
        self.schedule(self.driver.now() + rtt, Ev::JoinArrives { th });
    }

    pub(super) fn on_join_arrives(&mut self, th: Th) {
        if self.thread_of(th).is_none_or(|x| x.phase != Phase::Joining) {
            return;
        }
        let key = self.key_for(th);
        let statics = key.2 == 0;
        let known = self.thread_of(th).and_then(|x| x.member) == Some(key);
        let metadata = self.subscription(th);
        let timeout = self.lanes[th.lane as usize].config.max_poll_interval_ms;
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
        if !self.member_index.contains_key(&key) || !known {
            let member_id = self.new_member_id(th, key);
            self.member_index
                .insert(key, self.recorder.members.len() as u32);
            self.member_ids.insert(key, member_id.clone());
            self.recorder.members.push(MemberInfo {
                worker: th.lane,
                member_id,
                joined_ms: self.driver.now(),
            });
        }
        self.silent.remove(&key);
        let frozen = self
            .proc_of(th.lane, th.inc)
            .is_some_and(|p| p.frozen_until.is_some());
        if let Some(x) = self.thread_mut(th) {
            x.member = Some(key);
        }
        if frozen {
            // Accepted while its process is frozen: no heartbeats follow.
            self.go_silent(key);
        }
        let name = self.thread_name(th);
        match response {
            JoinResponse::UnknownMember => {
                // Removed meanwhile: rejoin as a new member.
                if let Some(x) = self.thread_mut(th) {
                    x.member = None;
                }
                self.lose_tasks(th);
            }
            JoinResponse::CurrentGeneration { generation } => {
                if statics {
                    self.note(
                        Some(th.lane),
                        StepKind::StaticRejoin,
                        format!("{name} rejoins with its group.instance.id within session.timeout.ms: the coordinator swaps in the new member id and returns its stored assignment, no rebalance (KIP-345)."),
                    );
                }
                let at = self.driver.now() + self.rtt;
                self.schedule(at, Ev::Assignment { th, generation });
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
                let Some(th) = self.thread_of_member(key) else {
                    continue;
                };
                let joining = self
                    .thread_of(th)
                    .is_some_and(|x| x.phase == Phase::Joining);
                if started.aborted_generation.is_some() && joining {
                    // Its SyncGroup is answered REBALANCE_IN_PROGRESS: rejoin now.
                    self.schedule(self.driver.now() + self.rtt, Ev::SendJoin { th });
                } else {
                    let delay = self.heartbeat_delay(th);
                    self.schedule(self.driver.now() + delay, Ev::Notice { th });
                }
            }
        }
        if let Some(d) = change.deadline {
            self.schedule(d.at_ms, Ev::JoinDeadline { timer: d.timer });
        }
        if !change.emptied.is_empty() {
            // The join phase closed before anyone rejoined: every member was
            // removed and the group is empty, with no round to explain. The
            // dropped threads still think they are members; each learns of
            // it from its next heartbeat, as after a completed join phase.
            self.cause.take();
            for key in change.emptied {
                self.drop_member(key);
            }
        }
        if let Some(done) = change.completed {
            self.compute_assignment(done);
        }
    }

    pub(super) fn on_notice(&mut self, th: Th) {
        let Some(x) = self.thread_of(th) else {
            return;
        };
        let Some(key) = x.member else {
            return;
        };
        if x.phase != Phase::Stable || self.group.state() != GroupState::PreparingRebalance {
            return;
        }
        if self.group.has_joined(&key) {
            return;
        }
        if self.busy(th) {
            // The heartbeat thread hears REBALANCE_IN_PROGRESS, but only poll()
            // rejoins: the join phase waits for a frozen or blocked thread.
            if let Some(x) = self.thread_mut(th) {
                x.rejoin_when_free = true;
            }
            return;
        }
        self.begin_rejoin(th);
    }

    /// `onJoinPrepare` then JoinGroup: EAGER revokes every active first.
    pub(super) fn begin_rejoin(&mut self, th: Th) {
        if self.busy(th) {
            if let Some(x) = self.thread_mut(th) {
                x.rejoin_when_free = true;
            }
            return;
        }
        let cooperative = self.cooperative(th.lane);
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        if matches!(x.phase, Phase::Joining | Phase::Revoking | Phase::Stopping) {
            return;
        }
        if x.revoking > 0 {
            x.rejoin_after_revoke = true;
            return;
        }
        if cooperative || x.active.is_empty() {
            self.send_join(th);
            return;
        }
        x.phase = Phase::Revoking;
        let tasks: Vec<u32> = x.active.keys().copied().collect();
        self.revoke(th, tasks);
    }

    pub(super) fn revoke(&mut self, th: Th, tasks: Vec<u32>) {
        let token = self.next_token();
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        for t in &tasks {
            if let Some(a) = x.active.get_mut(t) {
                *a = (TaskPhase::Revoking, token);
            }
        }
        x.revoking += 1;
        self.set_copies(th.lane, &tasks, ItemState::Stopping);
        // A restoring task stops restoring.
        self.replan_restore(th);
        let at = self.driver.now() + u64::from(self.timings.task_commit_ms);
        self.schedule(at, Ev::Revoked { th, tasks, token });
    }

    pub(super) fn on_revoked(&mut self, th: Th, tasks: Vec<u32>, token: u64) {
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        x.revoking = x.revoking.saturating_sub(1);
        let mut done = Vec::new();
        for t in tasks {
            if x.active.get(&t).is_some_and(|a| a.1 == token) {
                x.active.remove(&t);
                done.push(t);
            }
        }
        let phase = x.phase;
        if phase == Phase::Revoking {
            // EAGER `onJoinPrepare`: suspended, still this thread's until the
            // next assignment.
            x.suspended.extend(done.iter().copied());
        }
        // A revoked task assigned to this thread as standby is recycled, not
        // closed (`TaskManager.handleAssignment`).
        let recycle: Vec<(u32, bool)> = done
            .iter()
            .filter_map(|t| x.standby.get(t).map(|&w| (*t, w)))
            .collect();
        for &(t, _) in &recycle {
            x.standby.remove(&t);
        }
        for &t in &done {
            self.end_copy(th, t);
        }
        for (t, warm) in recycle {
            self.start_standby_copy(th, t, warm);
        }
        for &t in &done {
            self.wake_waiting(th.lane, th.inc, t);
        }
        self.show(th);
        if phase == Phase::Revoking {
            self.send_join(th);
        } else if let Some(x) = self.thread_mut(th) {
            if x.revoking == 0 && x.rejoin_after_revoke {
                x.rejoin_after_revoke = false;
                self.begin_rejoin(th);
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
            let Some(th) = self.thread_of_member(key) else {
                continue;
            };
            self.schedule(
                self.driver.now() + self.rtt,
                Ev::Assignment { th, generation },
            );
        }
    }

    pub(super) fn on_assignment(&mut self, th: Th, generation: i32) {
        let Some(x) = self.thread_of(th) else {
            return;
        };
        let Some(key) = x.member else {
            return;
        };
        if x.phase != Phase::Joining || x.out_of_group {
            return;
        }
        if let Some(until) = self
            .proc_of(th.lane, th.inc)
            .and_then(|p| p.free_at(th.thread))
        {
            // The JoinGroup/SyncGroup answer is handled on the next poll.
            self.schedule(until, Ev::Assignment { th, generation });
            return;
        }
        if generation != self.group.generation() {
            // The group moved on meanwhile (SyncGroup answers
            // REBALANCE_IN_PROGRESS or ILLEGAL_GENERATION): rejoin.
            self.send_join(th);
            return;
        }
        let a = self.last_assignment.get(&key).cloned().unwrap_or_default();
        let cooperative = self.cooperative(th.lane);
        let x = self.thread_mut(th).expect("checked above");
        x.phase = Phase::Stable;
        x.generation = generation;
        // The rebalance is over: unowned directories are unlocked again, and
        // suspended tasks are resumed (assigned again) or closed.
        x.locked.clear();
        let suspended = std::mem::take(&mut x.suspended);
        // Inserted in key order, not collected (`collect` into a set sorts first).
        let mut current = BTreeSet::new();
        current.extend(x.active.keys().copied());
        let revoked: Vec<u32> = current.difference(&a.active).copied().collect();
        let added: Vec<u32> = a.active.difference(&current).copied().collect();
        let mut standby_now: BTreeMap<u32, bool> = BTreeMap::new();
        for &t in &a.standby {
            standby_now.insert(t, false);
        }
        for &t in &a.warmup {
            standby_now.insert(t, true);
        }
        // Tasks still waiting for a sibling's directory that are no longer
        // assigned are dropped; the others keep waiting.
        let before = x.waiting.len();
        x.waiting.retain(|t, w| match w {
            Waiting::Active => a.active.contains(t),
            Waiting::Standby(_) => standby_now.contains_key(t),
        });
        // Its consumer owned those partitions: a revocation, so a follow-up.
        let revoked_waiting = x.waiting.len() < before && revoked.is_empty();
        let old_standby = std::mem::take(&mut x.standby);
        // Standbys no longer assigned are closed (their directory stays).
        let mut closed = Vec::new();
        for (&t, &warm) in &old_standby {
            let keep = standby_now.contains_key(&t) && !a.active.contains(&t);
            if keep {
                if let Some(x) = self.thread_mut(th) {
                    x.standby.insert(t, warm);
                }
            } else if !a.active.contains(&t) {
                self.end_copy(th, t);
                closed.push(t);
            } else if let Some(x) = self.thread_mut(th) {
                // Becomes this thread's active: recycled in start_actives.
                x.standby.insert(t, warm);
            }
        }
        closed.extend(suspended.iter().filter(|t| !a.active.contains(t)));
        for &t in &closed {
            self.wake_waiting(th.lane, th.inc, t);
        }
        // New standbys and warmups start following their changelog; an
        // active this thread revokes becomes one when its revocation is done.
        for (&t, &warm) in &standby_now {
            if revoked.contains(&t) {
                if let Some(x) = self.thread_mut(th) {
                    x.standby.insert(t, warm);
                }
                continue;
            }
            if a.active.contains(&t) {
                continue;
            }
            match old_standby.get(&t) {
                Some(&was) if was == warm => {}
                Some(_) => {
                    if let Some(x) = self.thread_mut(th) {
                        x.standby.insert(t, warm);
                    }
                    let state = super::restoration::standby_copy_state(warm);
                    self.set_copies(th.lane, &[t], state);
                }
                None => {
                    let sibling = self.proc_of(th.lane, th.inc).and_then(|p| p.holder(t));
                    if sibling.is_some_and(|s| s != th.thread) {
                        if let Some(x) = self.thread_mut(th) {
                            x.waiting.insert(t, Waiting::Standby(warm));
                        }
                    } else {
                        self.start_standby_copy(th, t, warm);
                    }
                }
            }
        }
        self.replan_restore(th);
        let rejoin = a.immediate;
        if let Some(v) = a.metadata_version {
            self.lanes[th.lane as usize].used_metadata = Some(v);
        }
        if !revoked.is_empty() && cooperative {
            let name = self.thread_name(th);
            let labels = self.labels(&revoked.iter().copied().collect());
            self.note(
                Some(th.lane),
                StepKind::Revoke,
                format!("{name} revokes {labels} (commit, suspend) and then rejoins for the follow-up round (ConsumerCoordinator.onJoinComplete calls requestRejoin, KIP-429)."),
            );
            if let Some(x) = self.thread_mut(th) {
                x.rejoin_after_revoke = true;
            }
            self.revoke(th, revoked);
        }
        // An EAGER member told to rejoin at once (version probing) revokes
        // everything again in onJoinPrepare before its next poll: the tasks
        // it was just given never initialise.
        if !rejoin || cooperative {
            self.start_actives(th, added);
        }
        self.show(th);
        if let Some(at) = a.probing_at {
            self.schedule(at, Ev::Probe { th, generation });
        }
        // A rebalance that started since this answer was produced (or while
        // it waited for a frozen or blocked thread) needs this member too.
        let missed =
            self.group.state() == GroupState::PreparingRebalance && !self.group.has_joined(&key);
        if rejoin || missed || (revoked_waiting && cooperative) {
            self.begin_rejoin(th);
        }
    }

    pub(super) fn on_probe(&mut self, th: Th, generation: i32) {
        let Some(x) = self.thread_of(th) else {
            return;
        };
        if x.generation != generation
            || x.phase != Phase::Stable
            || self.group.generation() != generation
            || self.group.state() != GroupState::Stable
        {
            return;
        }
        let name = self.thread_name(th);
        let interval = self.lanes[th.lane as usize]
            .config
            .probing_rebalance_interval_ms;
        self.note(
            Some(th.lane),
            StepKind::ProbingRebalance,
            format!("{name} (on the leader's client) triggers the probing rebalance, probing.rebalance.interval.ms ({}) after the assignment that asked for it: warmups within acceptable.recovery.lag are promoted (KIP-441).", duration(interval)),
        );
        self.set_cause("probing rebalance".to_string());
        self.begin_rejoin(th);
    }
}
