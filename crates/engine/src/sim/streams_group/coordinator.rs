//! The broker side of a streams group (KIP-1071): Kafka's group coordinator
//! handling `StreamsGroupHeartbeat` (`GroupMetadataManager#streamsGroupHeartbeat`),
//! as a passive state machine. The caller owns the clock: every call takes
//! `now`, and the timers the coordinator wants (session, rebalance timeout,
//! initial delay) come back as [`Timer`]s for the caller to schedule and hand
//! back when they fire; a timer that was re-armed or cancelled meanwhile is
//! recognised by its token and ignored.
//!
//! One heartbeat, in Kafka's order: the member is created or checked (a new
//! member bumps the group epoch), the initial-delay timer of an empty group
//! is started (4.2+), the target assignment is computed if the group epoch is
//! ahead of it and the assignment interval allows (4.3+, KIP-1263), the member
//! is reconciled toward its target (`CurrentAssignmentBuilder`), and its
//! session is rescheduled. A leave or a fence only bumps the group epoch:
//! the next heartbeat of any member computes.

use crate::streams_group::current_assignment_builder::{
    last_name_per_task, named_for, reconcile, MemberReconciliation, MemberState, TaskOwnership,
    TasksTuple,
};
use crate::streams_group::sticky_task_assignor::legacy_4_1::StickyTaskAssignor41;
use crate::streams_group::{
    AssignmentMember, GroupSpec, StickyTaskAssignor, StickyTaskAssignorVersion, Topology,
};

/// Which broker assignor computes the targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BrokerAssignor {
    /// Kafka 4.1's `StickyTaskAssignor` (its policy; ties deterministic).
    Legacy41,
    /// The 4.2+ `StickyTaskAssignor` of one code line.
    Sticky(StickyTaskAssignorVersion),
}

/// The group's configuration (broker `group.streams.*`, group overrides
/// `streams.*`) as the coordinator of one release applies it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StreamsGroupConfig {
    /// `streams.heartbeat.interval.ms`, returned in every response.
    pub(crate) heartbeat_interval_ms: u64,
    /// `streams.session.timeout.ms`.
    pub(crate) session_timeout_ms: u64,
    /// `streams.initial.rebalance.delay.ms` (4.2+; `None` in 4.1).
    pub(crate) initial_rebalance_delay_ms: Option<u64>,
    /// `streams.assignment.interval.ms` (4.3+; 0 before).
    pub(crate) assignment_interval_ms: u64,
    /// `streams.num.standby.replicas`.
    pub(crate) num_standby_replicas: u32,
    /// The group epoch of a new group: 0 up to 4.2, 1 from 4.3 (KAFKA-20268).
    pub(crate) initial_epoch: i32,
    /// The group epoch after the first bump: 1 in 4.1, 2 from 4.2 (4.2
    /// starts at 0 and jumps to 2).
    pub(crate) first_bumped_epoch: i32,
    /// The assignor.
    pub(crate) assignor: BrokerAssignor,
}

/// A timer the caller schedules at `at_ms` and hands back with its token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Timer {
    /// `scheduleStreamsGroupSessionTimeout`.
    Session {
        member_id: String,
        token: u64,
        at_ms: u64,
    },
    /// `scheduleStreamsGroupRebalanceTimeout`: armed while the member revokes.
    Rebalance {
        member_id: String,
        token: u64,
        at_ms: u64,
    },
    /// The initial rebalance delay of an empty group (4.2+).
    InitialDelay { token: u64, at_ms: u64 },
}

/// What a member's heartbeat carries that matters here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HeartbeatRequest {
    pub(crate) member_id: String,
    /// 0 to join, its epoch otherwise (a leave is [`StreamsGroupCoordinator::leave`]).
    pub(crate) member_epoch: i32,
    pub(crate) process_id: String,
    /// `max.poll.interval.ms`, sent on join.
    pub(crate) rebalance_timeout_ms: u64,
    /// The tasks it reconciled, when they changed since its last heartbeat.
    pub(crate) owned: Option<TasksTuple>,
}

/// A target assignment the heartbeat (or the initial-delay timer) computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TargetComputed {
    /// The new assignment epoch (the group epoch).
    pub(crate) epoch: i32,
    /// Every member's target, in member-table order.
    pub(crate) targets: Vec<(String, TasksTuple)>,
    /// Tasks whose active owner changed from the previous target.
    pub(crate) moved: usize,
}

/// The answer to a heartbeat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum HeartbeatResponse {
    /// Accepted.
    Ok(Box<HeartbeatOk>),
    /// `UNKNOWN_MEMBER_ID` or `FENCED_MEMBER_EPOCH`: the member is fenced
    /// and rejoins with epoch 0.
    Fenced { unknown_member: bool },
}

/// An accepted heartbeat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HeartbeatOk {
    pub(crate) member_epoch: i32,
    pub(crate) heartbeat_interval_ms: u64,
    /// The member's tasks, present when it joined or they changed.
    pub(crate) assignment: Option<TasksTuple>,
    /// Status `ASSIGNMENT_DELAYED` (4.2+).
    pub(crate) assignment_delayed: bool,
    /// The member's reconciliation state after this heartbeat.
    pub(crate) state: MemberState,
    /// Tasks it must revoke (state `UNREVOKED_TASKS`).
    pub(crate) pending_revocation: TasksTuple,
    /// Set when this heartbeat bumped the group epoch (a new member).
    pub(crate) bumped_to: Option<i32>,
    /// Set when this heartbeat computed a new target assignment.
    pub(crate) computed: Option<TargetComputed>,
    /// Timers to (re)schedule.
    pub(crate) timers: Vec<Timer>,
}

#[derive(Clone, Debug)]
struct Member {
    member_id: String,
    process_id: String,
    rec: MemberReconciliation,
    rebalance_timeout_ms: u64,
    /// Its target assignment (the assignor's "previous" input, 4.1–4.3).
    target: TasksTuple,
    session_token: u64,
    rebalance_token: Option<u64>,
}

/// A streams group on the group coordinator.
#[derive(Clone, Debug)]
pub(crate) struct StreamsGroupCoordinator {
    config: StreamsGroupConfig,
    topology: Topology,
    group_epoch: i32,
    assignment_epoch: i32,
    assignment_timestamp: Option<u64>,
    /// The member table, in insertion order (Kafka's `TimelineHashMap`;
    /// only ids that share a `HashMap` bucket keep this order there).
    members: Vec<Member>,
    initial_delay: Option<u64>,
    tokens: u64,
}

impl StreamsGroupCoordinator {
    /// An empty group for `topology`.
    pub(crate) fn new(config: StreamsGroupConfig, topology: Topology) -> Self {
        let epoch = config.initial_epoch;
        Self {
            config,
            topology,
            group_epoch: epoch,
            assignment_epoch: epoch,
            assignment_timestamp: None,
            members: Vec::new(),
            initial_delay: None,
            tokens: 0,
        }
    }

    /// The group epoch.
    pub(crate) fn group_epoch(&self) -> i32 {
        self.group_epoch
    }

    /// The epoch of the current target assignment.
    pub(crate) fn assignment_epoch(&self) -> i32 {
        self.assignment_epoch
    }

    /// The group's configuration.
    pub(crate) fn config(&self) -> &StreamsGroupConfig {
        &self.config
    }

    /// True when `member_id` is a member.
    pub(crate) fn contains(&self, member_id: &str) -> bool {
        self.index(member_id).is_some()
    }

    /// The member's reconciliation, if it is a member.
    pub(crate) fn reconciliation(&self, member_id: &str) -> Option<&MemberReconciliation> {
        self.index(member_id).map(|i| &self.members[i].rec)
    }

    /// `STABLE`: every member reconciled to a target as new as the group.
    pub(crate) fn is_stable(&self) -> bool {
        self.initial_delay.is_none()
            && self.assignment_epoch >= self.group_epoch
            && self.members.iter().all(|m| {
                m.rec.state == MemberState::Stable && m.rec.member_epoch == self.assignment_epoch
            })
    }

    /// The initial rebalance delay of an empty group is running.
    pub(crate) fn initial_delay_pending(&self) -> bool {
        self.initial_delay.is_some()
    }

    /// The member's target assignment, if it is a member.
    pub(crate) fn target_of(&self, member_id: &str) -> Option<&TasksTuple> {
        self.index(member_id).map(|i| &self.members[i].target)
    }

    fn index(&self, member_id: &str) -> Option<usize> {
        self.members.iter().position(|m| m.member_id == member_id)
    }

    fn bump(&mut self) {
        self.group_epoch = (self.group_epoch + 1).max(self.config.first_bumped_epoch);
    }

    fn token(&mut self) -> u64 {
        self.tokens += 1;
        self.tokens
    }

    /// One `StreamsGroupHeartbeat` of a member (not a leave).
    pub(crate) fn heartbeat(&mut self, req: HeartbeatRequest, now: u64) -> HeartbeatResponse {
        let mut timers = Vec::new();
        let mut bumped_to = None;
        let was_empty = self.members.is_empty();
        let i = match (self.index(&req.member_id), req.member_epoch) {
            (Some(i), 0) => {
                // A rejoin with epoch 0 is accepted (KAFKA-19233): it starts over.
                let m = &mut self.members[i];
                m.rec = MemberReconciliation::default();
                i
            }
            (None, 0) => {
                self.members.push(Member {
                    member_id: req.member_id.clone(),
                    process_id: req.process_id.clone(),
                    rec: MemberReconciliation::default(),
                    rebalance_timeout_ms: req.rebalance_timeout_ms,
                    target: TasksTuple::default(),
                    session_token: 0,
                    rebalance_token: None,
                });
                self.bump();
                bumped_to = Some(self.group_epoch);
                self.members.len() - 1
            }
            (None, _) => {
                return HeartbeatResponse::Fenced {
                    unknown_member: true,
                }
            }
            (Some(i), epoch) => {
                let m = &self.members[i];
                if epoch != m.rec.member_epoch {
                    return HeartbeatResponse::Fenced {
                        unknown_member: false,
                    };
                }
                i
            }
        };
        // The initial delay of an empty group (4.2+): scheduled once, not
        // extended by later joiners.
        if was_empty && self.initial_delay.is_none() {
            if let Some(delay) = self.config.initial_rebalance_delay_ms.filter(|&d| d > 0) {
                let token = self.token();
                self.initial_delay = Some(token);
                timers.push(Timer::InitialDelay {
                    token,
                    at_ms: now + delay,
                });
            }
        }
        let mut delayed = false;
        let mut computed = None;
        if self.initial_delay.is_some() {
            delayed = true;
        } else if self.assignment_epoch < self.group_epoch {
            let interval = self.config.assignment_interval_ms;
            let too_soon = interval > 0
                && self
                    .assignment_timestamp
                    .is_some_and(|ts| now < ts + interval);
            if too_soon {
                delayed = true;
            } else {
                computed = Some(self.compute_target(now));
            }
        }
        let member = &self.members[i];
        // While the initial delay runs the member reconciles to an empty
        // target at epoch max(1, assignment epoch) (4.2; 4.3 starts at 1).
        let (target, target_epoch) = if self.initial_delay.is_some() {
            (TasksTuple::default(), self.assignment_epoch.max(1))
        } else {
            (member.target.clone(), self.assignment_epoch)
        };
        let before = member.rec.clone();
        let after = if before.state == MemberState::Stable && before.member_epoch == target_epoch {
            // `StreamsGroupMember#isReconciledTo`: nothing to reconcile, so
            // no ownership maps to build (a settled group's every heartbeat).
            before.clone()
        } else {
            // Reconcile this member (`CurrentAssignmentBuilder#build`): the
            // ownership maps are the group's before this heartbeat's records.
            let ownership =
                TaskOwnership::of(self.members.iter().map(|m| (m.process_id.as_str(), &m.rec)));
            reconcile(
                &before,
                &member.process_id,
                target_epoch,
                &target,
                req.owned.as_ref(),
                &ownership,
            )
        };
        let entered_unrevoked = after.state == MemberState::UnrevokedTasks
            && (before.state != MemberState::UnrevokedTasks
                || before.member_epoch != after.member_epoch);
        let left_unrevoked = after.state != MemberState::UnrevokedTasks;
        let rebalance_token = if entered_unrevoked {
            Some(self.token())
        } else {
            None
        };
        let session_token = self.token();
        let m = &mut self.members[i];
        if let Some(token) = rebalance_token {
            m.rebalance_token = Some(token);
            timers.push(Timer::Rebalance {
                member_id: m.member_id.clone(),
                token,
                at_ms: now + m.rebalance_timeout_ms,
            });
        } else if left_unrevoked {
            m.rebalance_token = None;
        }
        let changed = before.assigned != after.assigned;
        let joining = req.member_epoch == 0;
        m.rec = after;
        m.session_token = session_token;
        timers.push(Timer::Session {
            member_id: m.member_id.clone(),
            token: session_token,
            at_ms: now + self.config.session_timeout_ms,
        });
        HeartbeatResponse::Ok(Box::new(HeartbeatOk {
            member_epoch: m.rec.member_epoch,
            heartbeat_interval_ms: self.config.heartbeat_interval_ms,
            assignment: (joining || changed).then(|| m.rec.assigned.clone()),
            assignment_delayed: delayed,
            state: m.rec.state,
            pending_revocation: m.rec.pending_revocation.clone(),
            bumped_to,
            computed,
            timers,
        }))
    }

    fn assign(
        &self,
        spec: &GroupSpec,
    ) -> Result<crate::streams_group::GroupAssignment, crate::streams_group::StickyTaskAssignorError>
    {
        match self.config.assignor {
            BrokerAssignor::Legacy41 => StickyTaskAssignor41.assign(spec, &self.topology),
            BrokerAssignor::Sticky(v) => StickyTaskAssignor::new(v).assign(spec, &self.topology),
        }
    }

    /// The first target a group of these (member id, process id) members
    /// would get, in this order, with no history: the layout of a running
    /// application whose state the instances have on disk.
    pub(crate) fn fresh_layout(&self, members: &[(String, String)]) -> Vec<TasksTuple> {
        let spec = GroupSpec {
            members: members
                .iter()
                .map(|(m, p)| AssignmentMember::new(m.clone(), p.clone()))
                .collect(),
            num_standby_replicas: self.config.num_standby_replicas,
        };
        match self.assign(&spec) {
            Ok(a) => a
                .members
                .into_iter()
                .map(|m| TasksTuple {
                    active: m.active,
                    standby: m.standby,
                    warmup: Default::default(),
                })
                .collect(),
            Err(_) => vec![TasksTuple::default(); members.len()],
        }
    }

    /// Runs the assignor over every member (`TargetAssignmentBuilder#build`).
    fn compute_target(&mut self, now: u64) -> TargetComputed {
        let spec = GroupSpec {
            members: self
                .members
                .iter()
                .map(|m| AssignmentMember {
                    previous_active: m.target.active.clone(),
                    previous_standby: m.target.standby.clone(),
                    ..AssignmentMember::new(m.member_id.clone(), m.process_id.clone())
                })
                .collect(),
            num_standby_replicas: self.config.num_standby_replicas,
        };
        let result = self.assign(&spec);
        // Each task's member in the previous target (a list built once and
        // searched: no B-tree keyed by `TaskId` with `String` values).
        let previous_owner = last_name_per_task(
            self.members
                .iter()
                .flat_map(|m| {
                    m.target
                        .active
                        .iter()
                        .map(move |t| (t.clone(), m.member_id.clone()))
                })
                .collect(),
        );
        let mut moved = 0;
        // Member ids are unique and the group is never empty here (a
        // heartbeat or the timer of a non-empty group computes); should the
        // assignor still refuse, every member keeps its target.
        if let Ok(assignment) = result {
            for m in &mut self.members {
                if let Some(a) = assignment.member(&m.member_id) {
                    moved += a
                        .active
                        .iter()
                        .filter(|t| named_for(&previous_owner, t).is_some_and(|o| o != m.member_id))
                        .count();
                    m.target = TasksTuple {
                        active: a.active.clone(),
                        standby: a.standby.clone(),
                        warmup: Default::default(),
                    };
                }
            }
        }
        self.assignment_epoch = self.group_epoch;
        self.assignment_timestamp = Some(now);
        TargetComputed {
            epoch: self.assignment_epoch,
            targets: self
                .members
                .iter()
                .map(|m| (m.member_id.clone(), m.target.clone()))
                .collect(),
            moved,
        }
    }

    /// The initial-delay timer fired: the target for the whole group
    /// (`computeDelayedTargetAssignment`), if the timer is still the group's.
    pub(crate) fn on_initial_delay(&mut self, token: u64, now: u64) -> Option<TargetComputed> {
        if self.initial_delay != Some(token) {
            return None;
        }
        self.initial_delay = None;
        if self.members.is_empty() {
            return None;
        }
        Some(self.compute_target(now))
    }

    /// A heartbeat with epoch −1 (`streamsGroupLeave`): fenced, group epoch +1.
    /// Returns the new group epoch, `None` for an unknown member.
    pub(crate) fn leave(&mut self, member_id: &str) -> Option<i32> {
        self.fence(member_id)
    }

    /// The session timer fired: the member is fenced unless it heartbeat since.
    pub(crate) fn on_session_timer(&mut self, member_id: &str, token: u64) -> Option<i32> {
        let i = self.index(member_id)?;
        (self.members[i].session_token == token).then(|| self.fence(member_id))?
    }

    /// The rebalance timer fired: fenced if it is still revoking at that epoch.
    pub(crate) fn on_rebalance_timer(&mut self, member_id: &str, token: u64) -> Option<i32> {
        let i = self.index(member_id)?;
        let m = &self.members[i];
        let armed = m.rebalance_token == Some(token) && m.rec.state == MemberState::UnrevokedTasks;
        armed.then(|| self.fence(member_id))?
    }

    /// `streamsGroupFenceMember`: removes the member and its target; the
    /// group epoch goes up by one; nothing is computed.
    fn fence(&mut self, member_id: &str) -> Option<i32> {
        let i = self.index(member_id)?;
        self.members.remove(i);
        self.bump();
        if self.members.is_empty() {
            // An empty group waits out a new initial delay when someone joins.
            self.initial_delay = None;
        }
        Some(self.group_epoch)
    }
}

#[cfg(test)]
#[path = "coordinator_tests.rs"]
mod tests;
