//! The member side of the streams protocol (`StreamsMembershipManager`,
//! `StreamsGroupHeartbeatRequestManager`): heartbeats, the broker's answers,
//! the rebalance callbacks on the StreamThread's next poll, acknowledging,
//! fencing; and the coordinator's timers as the run fires them.

use std::collections::BTreeSet;

use super::coordinator::{HeartbeatOk, HeartbeatRequest, HeartbeatResponse, Timer};
use super::events::Ev;
use super::{ClientState, StreamsGroupSimulation, Th};
use crate::scenario::ProcessingGuarantee;
use crate::sim::driver::Simulation;
use crate::streams_group::current_assignment_builder::{
    MemberReconciliation, MemberState, TasksTuple,
};
use crate::trace::{EpochBumpCause, ItemState, MemberInfo, StepKind};
use crate::wording::duration;

impl StreamsGroupSimulation {
    /// What the thread owns now, as broker task ids.
    fn owned(&self, th: Th) -> TasksTuple {
        let Some(x) = self.thread(th) else {
            return TasksTuple::default();
        };
        TasksTuple {
            active: self.task_ids(&x.active.keys().copied().collect()),
            standby: self.task_ids(&x.standby),
            warmup: BTreeSet::new(),
        }
    }

    /// Sends a heartbeat now (regular, or immediate while joining or
    /// acknowledging); the next regular one is due a heartbeat interval after.
    pub(super) fn send_heartbeat(&mut self, th: Th) {
        let now = self.driver.now();
        let interval = self.coordinator.config().heartbeat_interval_ms;
        let owned_now = self.owned(th);
        let sets = self
            .thread(th)
            .map(|x| (x.active.keys().copied().collect(), x.standby.clone()));
        let background = self.settled();
        let token = self.next_token();
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        // A stale or fenced member sends nothing until its StreamThread has
        // run onAllTasksLost; a leaving one only its leave.
        if matches!(
            x.state,
            ClientState::Stale | ClientState::Fenced | ClientState::Leaving
        ) {
            return;
        }
        if x.in_flight {
            // Sent when the answer is in (one request at a time).
            x.hb_at = now;
            return;
        }
        let joining = x.state == ClientState::Joining;
        let epoch = if joining { 0 } else { x.epoch };
        // Owned tasks are sent on join and whenever they changed.
        let owned = if joining || x.reported != sets {
            Some(owned_now)
        } else {
            None
        };
        x.reported = sets;
        if x.state == ClientState::Acknowledging {
            x.state = ClientState::Stable;
        }
        x.in_flight = true;
        x.hb_token = token;
        x.hb_at = now + interval;
        x.hb_background = background;
        let member_id = x.member_id.clone();
        self.schedule(
            now + interval,
            Ev::HeartbeatTimer {
                th,
                token,
                background,
            },
        );
        self.schedule(
            now + self.rtt / 2,
            Ev::HeartbeatArrives {
                th,
                member_id,
                epoch,
                owned,
                leave: false,
                quiet: background.then_some(self.quiet_period),
            },
        );
    }

    pub(super) fn on_heartbeat_arrives(
        &mut self,
        th: Th,
        member_id: String,
        epoch: i32,
        owned: Option<TasksTuple>,
        leave: bool,
        quiet: Option<u64>,
    ) {
        let now = self.driver.now();
        if leave {
            if let Some(e) = self.coordinator.leave(&member_id) {
                self.sessions.remove(&member_id);
                self.record_bump(&member_id, e, EpochBumpCause::MemberLeft);
                let name = self.thread_name(th);
                self.note(
                    Some(th.lane),
                    StepKind::StreamsGroupLeave,
                    format!("{name}'s member leaves the streams group (heartbeat with member epoch −1): GroupMetadataManager removes it and its target and bumps the group epoch to {e}. Its tasks are free at once, but no new target is computed until a remaining member's next heartbeat."),
                );
            }
            return;
        }
        if self.thread(th).is_none_or(|x| x.member_id != member_id) {
            // Its process is gone; the request is lost with it.
            return;
        }
        let process_id = self.lanes[th.lane as usize].process_id.to_string();
        let rebalance_timeout_ms = self.lanes[th.lane as usize].config.max_poll_interval_ms;
        let before = self.coordinator.reconciliation(&member_id).cloned();
        let response = self.coordinator.heartbeat(
            HeartbeatRequest {
                member_id: member_id.clone(),
                member_epoch: epoch,
                process_id,
                rebalance_timeout_ms,
                owned,
            },
            now,
        );
        if let HeartbeatResponse::Ok(ok) = &response {
            if epoch == 0 {
                self.threads_by_member.insert(member_id.clone(), th);
                self.recorder.members.push(MemberInfo {
                    worker: th.lane,
                    member_id: member_id.clone(),
                    joined_ms: now,
                });
                self.record_join(th, &member_id);
            }
            self.schedule_timers(&ok.timers);
            if let Some(until) = self.frozen_until(th) {
                // Sent just before the JVM paused: the new session runs out
                // while it cannot heartbeat.
                self.watch_session(&member_id, until);
            }
            self.note_heartbeat(th, &member_id, epoch, before.as_ref(), ok);
        }
        let back = self.rtt - self.rtt / 2;
        self.schedule(
            now + back,
            Ev::HeartbeatResponse {
                th,
                response,
                quiet,
            },
        );
    }

    fn schedule_timers(&mut self, timers: &[Timer]) {
        for timer in timers {
            match timer {
                Timer::Session {
                    member_id,
                    token,
                    at_ms,
                } => {
                    // A live member heartbeats before its session runs out,
                    // so its timer only matters once its process is gone:
                    // the crash schedules it from here (`events::crash`).
                    self.sessions.insert(member_id.clone(), (*token, *at_ms));
                }
                Timer::Rebalance {
                    member_id,
                    token,
                    at_ms,
                } => self.schedule(
                    *at_ms,
                    Ev::RebalanceTimer {
                        member_id: member_id.clone(),
                        token: *token,
                    },
                ),
                Timer::InitialDelay { token, at_ms } => {
                    self.schedule(*at_ms, Ev::InitialDelay { token: *token })
                }
            }
        }
    }

    /// The steps one accepted heartbeat is worth: a join's epoch bump, a new
    /// target, a delay, and the member's reconciliation moving on.
    fn note_heartbeat(
        &mut self,
        th: Th,
        member_id: &str,
        epoch: i32,
        before: Option<&MemberReconciliation>,
        ok: &HeartbeatOk,
    ) {
        let name = self.thread_name(th);
        if let Some(e) = ok.bumped_to {
            self.record_bump(member_id, e, EpochBumpCause::MemberJoined);
            let pid = self.lanes[th.lane as usize].process_id;
            self.note(
                Some(th.lane),
                StepKind::StreamsGroupJoin,
                format!("{name} joins the streams group as member {member_id} (StreamsGroupHeartbeat with member epoch 0, process id {pid} shared by the instance's threads): GroupMetadataManager bumps the group epoch to {e}."),
            );
        }
        let delay_started = ok
            .timers
            .iter()
            .any(|t| matches!(t, Timer::InitialDelay { .. }));
        let interval_delay = ok.assignment_delayed
            && !self.coordinator.initial_delay_pending()
            && self.delay_noted != self.coordinator.group_epoch();
        if delay_started || interval_delay {
            self.delay_noted = self.coordinator.group_epoch();
            let cfg = self.coordinator.config().clone();
            let why = if delay_started {
                format!("the group was empty, so GroupMetadataManager waits streams.initial.rebalance.delay.ms ({}) before its first target; later joiners do not extend it, and every heartbeat meanwhile gets this status", duration(cfg.initial_rebalance_delay_ms.unwrap_or(0)))
            } else {
                format!("the group is at epoch {} but the target of epoch {} was computed less than streams.assignment.interval.ms ({}) ago (KIP-1263), so it is kept; no timer is set, the first heartbeat after that computes", self.coordinator.group_epoch(), self.coordinator.assignment_epoch(), duration(cfg.assignment_interval_ms))
            };
            self.note(
                Some(th.lane),
                StepKind::AssignmentDelayed,
                format!("{name}'s heartbeat is answered ASSIGNMENT_DELAYED: {why}. A 4.2+ member treats the group as not ready and its StreamThread stops processing until an answer without it (StreamsMembershipManager.isGroupReady)."),
            );
        }
        if let Some(c) = &ok.computed {
            self.record_target(c, Some(member_id));
            let text = self.describe_target(c, &format!("{name}'s heartbeat"));
            self.note(Some(th.lane), StepKind::TargetAssignment, text);
        }
        self.record_member(member_id);
        let Some(after) = self.coordinator.reconciliation(member_id).cloned() else {
            return;
        };
        let empty = MemberReconciliation::default();
        let before = before.unwrap_or(&empty);
        if *before == after && epoch != 0 {
            return;
        }
        let target = self
            .coordinator
            .target_of(member_id)
            .cloned()
            .unwrap_or_default();
        let added = TasksTuple {
            active: &after.assigned.active - &before.assigned.active,
            standby: &after.assigned.standby - &before.assigned.standby,
            warmup: BTreeSet::new(),
        };
        let gets = describe(&added);
        let e = after.member_epoch;
        match after.state {
            MemberState::UnrevokedTasks if before.state != MemberState::UnrevokedTasks => {
                let revoke = describe(&after.pending_revocation);
                let timeout = self.lanes[th.lane as usize].config.max_poll_interval_ms;
                self.note(
                    Some(th.lane),
                    StepKind::MemberRevoking,
                    format!("CurrentAssignmentBuilder: {name} must revoke {revoke} (UNREVOKED_TASKS, member epoch stays {e}); what it should get is withheld until a heartbeat no longer reports them. Its StreamThread revokes at its next poll (onTasksRevoked: commit, close) and acknowledges at once; the rebalance timeout (max.poll.interval.ms, {}) runs until then.", duration(timeout)),
                );
            }
            MemberState::UnreleasedTasks => {
                let withheld = TasksTuple {
                    active: &target.active - &after.assigned.active,
                    standby: &target.standby - &after.assigned.standby,
                    warmup: BTreeSet::new(),
                };
                if added.is_empty() && before.state == MemberState::UnreleasedTasks {
                    return;
                }
                let own_standby = !withheld.active.is_disjoint(&before.assigned.standby);
                let why = if own_standby {
                    " (its own process still holds a task it should run as active as a standby: in 4.1–4.3 it drops the standby first and gets the active one heartbeat later)"
                } else {
                    ""
                };
                self.note(
                    Some(th.lane),
                    StepKind::MemberPending,
                    format!("CurrentAssignmentBuilder: {name} reaches member epoch {e} with {gets}, but {} still belong to another process (UNRELEASED_TASKS){why}. Nothing pushes them: it gets each at its first regular heartbeat after the owner released it.", describe(&withheld)),
                );
            }
            MemberState::Stable if !added.is_empty() || before.member_epoch != e => {
                let text = if before.state == MemberState::UnrevokedTasks && added.is_empty() {
                    format!("{name} acknowledged the revocation of {} (its heartbeat no longer reports them): CurrentAssignmentBuilder moves it to its target of epoch {e} (STABLE). The tasks are free from now on; their new owners get them at their own next heartbeats.", describe(&before.pending_revocation))
                } else if added.is_empty() {
                    // Reconciled to a target that changes nothing for it.
                    return;
                } else {
                    format!("CurrentAssignmentBuilder: {name} reaches its target of epoch {e} (STABLE) and gets {gets}; StreamsMembershipManager runs onTasksAssigned on its StreamThread's next poll (a new active initialises and restores its changelog before it processes) and acknowledges.")
                };
                self.note(Some(th.lane), StepKind::MemberAssigned, text);
            }
            _ => {}
        }
    }

    pub(super) fn on_heartbeat_response(&mut self, th: Th, response: HeartbeatResponse) {
        let version = self.lanes[th.lane as usize].version;
        let now = self.driver.now();
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        x.in_flight = false;
        if matches!(x.state, ClientState::Stale | ClientState::Leaving) {
            return;
        }
        let ok = match response {
            HeartbeatResponse::Fenced { unknown_member } => {
                x.state = ClientState::Fenced;
                x.callback_token = None;
                let blocked = x.blocked_until.is_some();
                let name = self.thread_name(th);
                let code = if unknown_member {
                    "UNKNOWN_MEMBER_ID"
                } else {
                    "FENCED_MEMBER_EPOCH"
                };
                self.note(
                    Some(th.lane),
                    StepKind::UnknownMember,
                    format!("{name}'s heartbeat is answered {code}: the member was fenced (StreamsMembershipManager.onFenced). Its tasks are lost at its StreamThread's next poll and it rejoins with member epoch 0."),
                );
                if !blocked {
                    self.lose_all_tasks(th);
                }
                return;
            }
            HeartbeatResponse::Ok(ok) => ok,
        };
        x.epoch = ok.member_epoch;
        let ready = !ok.assignment_delayed || version.before(4, 2);
        let ready_changed = x.ready != ready;
        x.ready = ready;
        if let Some(a) = &ok.assignment {
            x.target = a.clone();
        }
        if x.state == ClientState::Joining {
            x.state = ClientState::Stable;
        }
        let due = x.hb_at <= now;
        let target = x.target.clone();
        let owned = self.owned(th);
        if target != owned
            && self
                .thread(th)
                .is_some_and(|x| x.callback_token.is_none() && x.state == ClientState::Stable)
        {
            if let Some(x) = self.thread_mut(th) {
                x.state = ClientState::Reconciling;
            }
            self.run_callbacks_at_poll(th);
        }
        if ready_changed {
            self.show(th);
        }
        let acknowledging = self
            .thread(th)
            .is_some_and(|x| x.state == ClientState::Acknowledging);
        if acknowledging || due {
            self.send_heartbeat(th);
        }
    }

    /// Queues `onTasksRevoked` / `onTasksAssigned` for the StreamThread's next
    /// poll: now, unless it is blocked; revoking commits first.
    pub(super) fn run_callbacks_at_poll(&mut self, th: Th) {
        let token = self.next_token();
        let revoking: Vec<u32> = match self.thread(th) {
            Some(x) => {
                let keep = self.indices(&x.target.active);
                x.active
                    .keys()
                    .filter(|t| !keep.contains(t))
                    .copied()
                    .collect()
            }
            None => return,
        };
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        x.callback_token = Some(token);
        if x.blocked_until.is_some() {
            // Runs when the handler returns (`on_unblock`).
            return;
        }
        let delay = if revoking.is_empty() {
            0
        } else {
            u64::from(self.timings.task_commit_ms)
        };
        self.set_copies(th.lane, &revoking, ItemState::Stopping);
        self.schedule(self.driver.now() + delay, Ev::Callbacks { th, token });
    }

    /// The callbacks ran: the thread's tasks are its target now, and it
    /// acknowledges with an immediate heartbeat.
    pub(super) fn on_callbacks(&mut self, th: Th, token: u64) {
        let Some(x) = self.thread(th) else {
            return;
        };
        if x.callback_token != Some(token) || x.blocked_until.is_some() {
            return;
        }
        let target_active = self.indices(&x.target.active);
        let target_standby: BTreeSet<u32> = &self.indices(&x.target.standby) - &target_active;
        // Inserted in key order, not collected (`collect` into a set sorts first).
        let mut current_active = BTreeSet::new();
        current_active.extend(x.active.keys().copied());
        let current_standby = x.standby.clone();
        for &t in current_active.difference(&target_active) {
            if let Some(x) = self.thread_mut(th) {
                x.active.remove(&t);
            }
            self.end_copy(th.lane, t);
        }
        for &t in current_standby.difference(&target_standby) {
            if let Some(x) = self.thread_mut(th) {
                x.standby.remove(&t);
            }
            self.end_copy(th.lane, t);
        }
        for &t in target_standby.difference(&current_standby) {
            self.start_standby(th, t);
        }
        let new: Vec<u32> = target_active.difference(&current_active).copied().collect();
        self.start_actives(th, new);
        if let Some(x) = self.thread_mut(th) {
            x.callback_token = None;
            x.state = ClientState::Acknowledging;
        }
        self.show(th);
        self.send_heartbeat(th);
    }

    /// `onAllTasksLost` (`TaskManager#handleLostAll`): the thread closes its
    /// tasks dirty and rejoins with member epoch 0 and the same member id.
    pub(super) fn lose_all_tasks(&mut self, th: Th) {
        let eos = self.lanes[th.lane as usize].config.processing_guarantee
            == ProcessingGuarantee::ExactlyOnceV2;
        let name = self.thread_name(th);
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        let active: Vec<u32> = std::mem::take(&mut x.active).into_keys().collect();
        let standby: Vec<u32> = std::mem::take(&mut x.standby).into_iter().collect();
        x.state = ClientState::Joining;
        x.epoch = 0;
        x.reported = None;
        x.target = TasksTuple::default();
        x.callback_token = None;
        x.ready = false;
        x.zombie = false;
        for &t in active.iter().chain(&standby) {
            self.end_copy(th.lane, t);
        }
        if eos {
            for t in &active {
                self.lanes[th.lane as usize].local.remove(t);
            }
        }
        let wiped = if eos && !active.is_empty() {
            " Under exactly_once_v2 their local state is wiped."
        } else {
            ""
        };
        self.note(
            Some(th.lane),
            StepKind::PartitionsLost,
            format!("{name} runs onAllTasksLost: it closes its {} active tasks dirty and rejoins the streams group with member epoch 0 (same member id, a new member for the broker).{wiped}", active.len()),
        );
        self.send_heartbeat(th);
    }

    pub(super) fn on_session_timer(&mut self, member_id: &str, token: u64) {
        let Some(e) = self.coordinator.on_session_timer(member_id, token) else {
            return;
        };
        self.sessions.remove(member_id);
        self.record_bump(member_id, e, EpochBumpCause::SessionTimeout);
        let session = self.coordinator.config().session_timeout_ms;
        let (lane, who) = self.member_label(member_id);
        self.note(
            lane,
            StepKind::SessionTimeout,
            format!("GroupMetadataManager fences {who}: no heartbeat for streams.session.timeout.ms ({}). Group epoch {e}; its tasks are free, and the next heartbeat of any remaining member computes the new target (no scheduled delay).", duration(session)),
        );
    }

    pub(super) fn on_rebalance_timer(&mut self, member_id: &str, token: u64) {
        let Some(e) = self.coordinator.on_rebalance_timer(member_id, token) else {
            return;
        };
        self.sessions.remove(member_id);
        self.record_bump(member_id, e, EpochBumpCause::RebalanceTimeout);
        let (lane, who) = self.member_label(member_id);
        self.note(
            lane,
            StepKind::MemberDropped,
            format!("GroupMetadataManager fences {who}: it did not revoke its tasks within its rebalance timeout (max.poll.interval.ms). Group epoch {e}."),
        );
    }

    pub(super) fn on_initial_delay(&mut self, token: u64) {
        let now = self.driver.now();
        let Some(c) = self.coordinator.on_initial_delay(token, now) else {
            return;
        };
        self.record_target(&c, None);
        let text = self.describe_target(&c, "the initial-delay timer");
        self.note(None, StepKind::TargetAssignment, text);
    }

    /// The lane and name of a member's thread, or its id when its process is gone.
    fn member_label(&self, member_id: &str) -> (Option<u32>, String) {
        for (lane, l) in self.lanes.iter().enumerate() {
            if let Some(p) = &l.proc {
                if let Some(i) = p.threads.iter().position(|x| x.member_id == member_id) {
                    return (
                        Some(lane as u32),
                        format!("{} StreamThread-{}", l.name, i + 1),
                    );
                }
            }
        }
        match self
            .recorder
            .members
            .iter()
            .rev()
            .find(|m| m.member_id == member_id)
        {
            Some(m) => (
                Some(m.worker),
                format!("{}'s member {member_id}", self.name(m.worker)),
            ),
            None => (None, format!("member {member_id}")),
        }
    }

    /// Regular heartbeats scheduled in a quiet moment are background; once
    /// something is under way again they must keep the run going.
    pub(super) fn keep_heartbeats_in_view(&mut self) {
        if self.settled() {
            return;
        }
        self.quiet_period += 1;
        for th in self.all_threads() {
            let Some(x) = self.thread(th) else { continue };
            if !x.hb_background || x.hb_token == 0 {
                continue;
            }
            let at = x.hb_at;
            let token = self.next_token();
            if let Some(x) = self.thread_mut(th) {
                x.hb_token = token;
                x.hb_background = false;
            }
            self.schedule(
                at,
                Ev::HeartbeatTimer {
                    th,
                    token,
                    background: false,
                },
            );
        }
    }
}

/// `0_1, 0_4 and standbys 0_2` or `nothing`.
pub(super) fn describe(tasks: &TasksTuple) -> String {
    let active = StreamsGroupSimulation::labels(&tasks.active);
    if tasks.standby.is_empty() {
        return active;
    }
    let standby = StreamsGroupSimulation::labels(&tasks.standby);
    if tasks.active.is_empty() {
        format!("standbys {standby}")
    } else {
        format!("{active} and standbys {standby}")
    }
}
