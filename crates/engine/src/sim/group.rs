//! The broker side of a classic group (Kafka's `ClassicGroup` and the classic
//! paths of `GroupMetadataManager`): members, generations, the join phase and
//! leader election.
//!
//! [`ClassicGroup`] is a passive state machine: every call takes the current
//! time and returns what changed ([`GroupChange`]); the caller owns the clock,
//! schedules the join-phase deadline it is handed and delivers assignments.
//! It is generic over the member key `K` (ordered: iteration order is key
//! order, our deterministic stand-in for the broker's hash-map order) and the
//! JoinGroup metadata `M`, so the Kafka Streams simulator can reuse it.
//! Protocol selection is left to the caller: it gets every member's metadata
//! at completion and votes with its own rules (Connect: `ClassicGroup.selectProtocol`).
//!
//! Heartbeats are not modelled here: a caller that knows when a member went
//! silent removes it with [`ClassicGroup::remove`] once its session expired.

use std::collections::{BTreeMap, BTreeSet};

/// The broker's group states (`ClassicGroupState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GroupState {
    /// No members.
    Empty,
    /// Collecting JoinGroups.
    PreparingRebalance,
    /// Join phase done; waiting for the leader's SyncGroup.
    CompletingRebalance,
    /// Assignment delivered.
    Stable,
}

/// What made the group start a rebalance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RebalanceTrigger<K> {
    /// The first member joined an empty group.
    FirstMember(K),
    /// A new member joined.
    NewMember(K),
    /// The leader sent JoinGroup (always starts a rebalance in a stable group).
    LeaderRejoined(K),
    /// A known member rejoined with different metadata.
    MetadataChanged(K),
    /// A member rejoined while the group waited for SyncGroup.
    RejoinDuringSync(K),
    /// A member sent LeaveGroup.
    MemberLeft(K),
    /// A member's session expired.
    SessionExpired(K),
}

impl<K> RebalanceTrigger<K> {
    /// The member that triggered the rebalance.
    pub(crate) fn member(&self) -> &K {
        match self {
            Self::FirstMember(k)
            | Self::NewMember(k)
            | Self::LeaderRejoined(k)
            | Self::MetadataChanged(k)
            | Self::RejoinDuringSync(k)
            | Self::MemberLeft(k)
            | Self::SessionExpired(k) => k,
        }
    }
}

/// Why a member is removed by [`ClassicGroup::remove`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RemovalReason {
    /// LeaveGroup (graceful close).
    LeaveGroup,
    /// No heartbeat for `session.timeout.ms`.
    SessionTimeout,
}

/// A member as the broker knows it.
#[derive(Clone, Debug)]
pub(crate) struct GroupMember<M> {
    /// Its latest JoinGroup metadata.
    pub(crate) metadata: M,
    /// The rebalance timeout it sent (Connect: `rebalance.timeout.ms`).
    pub(crate) rebalance_timeout_ms: u64,
    awaiting_join: bool,
}

/// A join-phase deadline the caller must check back at with
/// [`ClassicGroup::on_join_deadline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JoinDeadline {
    /// When.
    pub(crate) at_ms: u64,
    /// Token: a later deadline replaces an earlier one.
    pub(crate) timer: u64,
}

/// The group started a rebalance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RebalanceStarted<K> {
    /// When.
    pub(crate) at_ms: u64,
    /// Why.
    pub(crate) trigger: RebalanceTrigger<K>,
    /// The generation whose SyncGroup was abandoned, when the group was
    /// completing a rebalance (its assignment will never be delivered).
    pub(crate) aborted_generation: Option<i32>,
}

/// The join phase completed: a new generation with a leader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CompletedJoin<K, M> {
    /// The new generation.
    pub(crate) generation: i32,
    /// When the rebalance started.
    pub(crate) started_ms: u64,
    /// What started it.
    pub(crate) trigger: RebalanceTrigger<K>,
    /// The leader, which computes the assignment.
    pub(crate) leader: K,
    /// True when the leader differs from the previous generation's.
    pub(crate) leader_changed: bool,
    /// Every member with its metadata, in key order.
    pub(crate) members: Vec<(K, M)>,
    /// Members removed because they did not rejoin before the deadline.
    pub(crate) dropped: Vec<K>,
}

/// Everything a call changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GroupChange<K, M> {
    /// The group entered PreparingRebalance now: members must learn of it
    /// (heartbeat response REBALANCE_IN_PROGRESS) and rejoin.
    pub(crate) started: Option<RebalanceStarted<K>>,
    /// A join-phase deadline to schedule.
    pub(crate) deadline: Option<JoinDeadline>,
    /// The join phase completed.
    pub(crate) completed: Option<CompletedJoin<K, M>>,
    /// The leader changed outside a completion (the leader left); `Some(None)`
    /// when the group became empty.
    pub(crate) leader_moved: Option<Option<K>>,
    /// The join phase closed without any member having rejoined: every
    /// member was dropped and the group is empty (no generation to assign).
    pub(crate) emptied: Vec<K>,
}

impl<K, M> Default for GroupChange<K, M> {
    fn default() -> Self {
        Self {
            started: None,
            deadline: None,
            completed: None,
            leader_moved: None,
            emptied: Vec::new(),
        }
    }
}

/// The broker's answer to a JoinGroup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum JoinResponse<K, M> {
    /// The member id is not (any more) in the group: rejoin as a new member.
    UnknownMember,
    /// A stable group and a follower with unchanged metadata: the current
    /// generation is returned and no rebalance starts
    /// (`GroupMetadataManager.classicGroupJoinExistingMember`).
    CurrentGeneration {
        /// The generation.
        generation: i32,
    },
    /// Accepted into the join phase.
    Accepted(GroupChange<K, M>),
}

/// Why a SyncGroup failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SyncError {
    /// The group restarted the rebalance (or moved on) since that generation.
    RebalanceInProgress,
}

#[derive(Clone, Debug)]
struct PendingJoin<K> {
    started_ms: u64,
    trigger: RebalanceTrigger<K>,
    /// The empty-group initial delay (`group.initial.rebalance.delay.ms`).
    initial: bool,
    new_member_added: bool,
    remaining_ms: u64,
    timer: u64,
}

/// A classic group at the broker.
#[derive(Clone, Debug)]
pub(crate) struct ClassicGroup<K, M> {
    initial_rebalance_delay_ms: u64,
    state: GroupState,
    generation: i32,
    members: BTreeMap<K, GroupMember<M>>,
    joined: usize,
    leader: Option<K>,
    last_generation_leader: Option<K>,
    pending: Option<PendingJoin<K>>,
    next_timer: u64,
    /// Static members (`group.instance.id`, KIP-345): kept when they miss a
    /// join phase (`GroupMetadataManager.completeClassicGroupJoin`).
    static_members: BTreeSet<K>,
}

impl<K: Ord + Clone, M: Clone + PartialEq> ClassicGroup<K, M> {
    /// An empty group; `initial_rebalance_delay_ms` is the broker's
    /// `group.initial.rebalance.delay.ms`.
    pub(crate) fn new(initial_rebalance_delay_ms: u64) -> Self {
        Self {
            initial_rebalance_delay_ms,
            state: GroupState::Empty,
            generation: 0,
            members: BTreeMap::new(),
            joined: 0,
            leader: None,
            last_generation_leader: None,
            pending: None,
            next_timer: 0,
            static_members: BTreeSet::new(),
        }
    }

    /// A static member (known `group.instance.id`, new member id) rejoins
    /// after a restart (KIP-345, `updateStaticMemberThenRebalanceOrCompleteJoin`).
    /// In a stable group it simply takes its place back, no rebalance
    /// (`CurrentGeneration`: the caller hands it its stored assignment); in
    /// a join phase it counts as joined; while the group waits for SyncGroup
    /// a rebalance starts. An unknown key joins as a new member.
    pub(crate) fn rejoin_static(
        &mut self,
        key: K,
        metadata: M,
        rebalance_timeout_ms: u64,
        now: u64,
    ) -> JoinResponse<K, M> {
        self.static_members.insert(key.clone());
        let Some(member) = self.members.get_mut(&key) else {
            return self.join(key, true, metadata, rebalance_timeout_ms, now);
        };
        member.metadata = metadata;
        member.rebalance_timeout_ms = rebalance_timeout_ms;
        match self.state {
            GroupState::Stable => JoinResponse::CurrentGeneration {
                generation: self.generation,
            },
            GroupState::Empty | GroupState::PreparingRebalance => {
                let mut change = GroupChange::default();
                let member = self.members.get_mut(&key).expect("member present");
                if !member.awaiting_join {
                    member.awaiting_join = true;
                    self.joined += 1;
                }
                self.maybe_complete(now, &mut change);
                JoinResponse::Accepted(change)
            }
            GroupState::CompletingRebalance => {
                let mut change = GroupChange::default();
                self.start_rebalance(
                    RebalanceTrigger::RejoinDuringSync(key.clone()),
                    now,
                    false,
                    &mut change,
                );
                let member = self.members.get_mut(&key).expect("member present");
                member.awaiting_join = true;
                self.joined += 1;
                self.maybe_complete(now, &mut change);
                JoinResponse::Accepted(change)
            }
        }
    }

    /// The group state.
    pub(crate) fn state(&self) -> GroupState {
        self.state
    }

    /// The current generation (0 before the first completed join).
    pub(crate) fn generation(&self) -> i32 {
        self.generation
    }

    /// The current leader.
    pub(crate) fn leader(&self) -> Option<&K> {
        self.leader.as_ref()
    }

    /// True when `key` is a member.
    pub(crate) fn contains(&self, key: &K) -> bool {
        self.members.contains_key(key)
    }

    /// Members in key order.
    pub(crate) fn members(&self) -> impl Iterator<Item = (&K, &GroupMember<M>)> {
        self.members.iter()
    }

    /// True when `key` has sent JoinGroup in the current join phase.
    pub(crate) fn has_joined(&self, key: &K) -> bool {
        self.state == GroupState::PreparingRebalance
            && self.members.get(key).is_some_and(|m| m.awaiting_join)
    }

    /// A JoinGroup. `new_member` says the caller joins without a member id and
    /// `key` is the id the broker hands out (the MEMBER_ID_REQUIRED round trip
    /// is the caller's latency to model).
    pub(crate) fn join(
        &mut self,
        key: K,
        new_member: bool,
        metadata: M,
        rebalance_timeout_ms: u64,
        now: u64,
    ) -> JoinResponse<K, M> {
        let known = self.members.contains_key(&key);
        if !new_member && !known {
            return JoinResponse::UnknownMember;
        }
        let mut change = GroupChange::default();
        if !known {
            self.members.insert(
                key.clone(),
                GroupMember {
                    metadata,
                    rebalance_timeout_ms,
                    awaiting_join: false,
                },
            );
            match self.state {
                GroupState::Empty => {
                    self.leader = Some(key.clone());
                    self.start_rebalance(
                        RebalanceTrigger::FirstMember(key.clone()),
                        now,
                        true,
                        &mut change,
                    );
                }
                GroupState::PreparingRebalance => {
                    if let Some(p) = self.pending.as_mut() {
                        p.new_member_added = true;
                    }
                }
                GroupState::CompletingRebalance | GroupState::Stable => {
                    self.start_rebalance(
                        RebalanceTrigger::NewMember(key.clone()),
                        now,
                        false,
                        &mut change,
                    );
                }
            }
        } else {
            let is_leader = self.leader.as_ref() == Some(&key);
            let member = self.members.get_mut(&key).expect("known member");
            let changed = member.metadata != metadata;
            member.metadata = metadata;
            member.rebalance_timeout_ms = rebalance_timeout_ms;
            match self.state {
                GroupState::Empty => unreachable!("an empty group has no known member"),
                GroupState::PreparingRebalance => {}
                GroupState::CompletingRebalance => {
                    // Simplification: Kafka answers an unchanged member with the
                    // pending generation; a Connect worker only rejoins here when
                    // it wants a new assignment, so we restart the join phase.
                    self.start_rebalance(
                        RebalanceTrigger::RejoinDuringSync(key.clone()),
                        now,
                        false,
                        &mut change,
                    );
                }
                GroupState::Stable => {
                    if is_leader {
                        self.start_rebalance(
                            RebalanceTrigger::LeaderRejoined(key.clone()),
                            now,
                            false,
                            &mut change,
                        );
                    } else if changed {
                        self.start_rebalance(
                            RebalanceTrigger::MetadataChanged(key.clone()),
                            now,
                            false,
                            &mut change,
                        );
                    } else {
                        return JoinResponse::CurrentGeneration {
                            generation: self.generation,
                        };
                    }
                }
            }
        }
        let member = self.members.get_mut(&key).expect("member present");
        if !member.awaiting_join {
            member.awaiting_join = true;
            self.joined += 1;
        }
        self.maybe_complete(now, &mut change);
        JoinResponse::Accepted(change)
    }

    /// Removes a member (LeaveGroup or session expiry). No-op when unknown.
    pub(crate) fn remove(&mut self, key: &K, reason: RemovalReason, now: u64) -> GroupChange<K, M> {
        let mut change = GroupChange::default();
        let Some(member) = self.members.remove(key) else {
            return change;
        };
        self.static_members.remove(key);
        if member.awaiting_join && self.state == GroupState::PreparingRebalance {
            self.joined -= 1;
        }
        if self.leader.as_ref() == Some(key) {
            // Kafka takes the next member in hash-map order; we take key order.
            self.leader = self.members.keys().next().cloned();
            change.leader_moved = Some(self.leader.clone());
        }
        if self.members.is_empty() {
            self.state = GroupState::Empty;
            self.pending = None;
            self.joined = 0;
            return change;
        }
        let trigger = match reason {
            RemovalReason::LeaveGroup => RebalanceTrigger::MemberLeft(key.clone()),
            RemovalReason::SessionTimeout => RebalanceTrigger::SessionExpired(key.clone()),
        };
        match self.state {
            GroupState::Empty => {}
            GroupState::PreparingRebalance => self.maybe_complete(now, &mut change),
            GroupState::CompletingRebalance | GroupState::Stable => {
                self.start_rebalance(trigger, now, false, &mut change);
                self.maybe_complete(now, &mut change);
            }
        }
        change
    }

    /// The join-phase deadline `timer` fired: extend the initial delay if new
    /// members keep arriving, else complete the join phase, dropping members
    /// that did not rejoin.
    pub(crate) fn on_join_deadline(&mut self, timer: u64, now: u64) -> GroupChange<K, M> {
        let mut change = GroupChange::default();
        let Some(p) = self.pending.as_mut() else {
            return change;
        };
        if p.timer != timer || self.state != GroupState::PreparingRebalance {
            return change;
        }
        if p.initial && p.new_member_added && p.remaining_ms > 0 {
            // `tryCompleteInitialRebalanceElseSchedule`: each batch of new
            // members buys another initial delay, within the rebalance timeout.
            let delay = self.initial_rebalance_delay_ms.min(p.remaining_ms);
            p.remaining_ms -= delay;
            p.new_member_added = false;
            self.next_timer += 1;
            p.timer = self.next_timer;
            change.deadline = Some(JoinDeadline {
                at_ms: now + delay,
                timer: p.timer,
            });
            return change;
        }
        self.complete(now, &mut change);
        change
    }

    /// The leader's SyncGroup for `generation` arrived: the group becomes stable.
    pub(crate) fn sync(&mut self, generation: i32) -> Result<(), SyncError> {
        if self.state == GroupState::CompletingRebalance && self.generation == generation {
            self.state = GroupState::Stable;
            Ok(())
        } else {
            Err(SyncError::RebalanceInProgress)
        }
    }

    fn start_rebalance(
        &mut self,
        trigger: RebalanceTrigger<K>,
        now: u64,
        initial: bool,
        change: &mut GroupChange<K, M>,
    ) {
        let aborted = (self.state == GroupState::CompletingRebalance).then_some(self.generation);
        self.state = GroupState::PreparingRebalance;
        for m in self.members.values_mut() {
            m.awaiting_join = false;
        }
        self.joined = 0;
        let timeout = self
            .members
            .values()
            .map(|m| m.rebalance_timeout_ms)
            .max()
            .unwrap_or(0);
        self.next_timer += 1;
        let initial = initial && self.initial_rebalance_delay_ms > 0;
        let (deadline, remaining) = if initial {
            let delay = self.initial_rebalance_delay_ms.min(timeout);
            (now + delay, timeout.saturating_sub(delay))
        } else {
            (now + timeout, 0)
        };
        self.pending = Some(PendingJoin {
            started_ms: now,
            trigger: trigger.clone(),
            initial,
            new_member_added: false,
            remaining_ms: remaining,
            timer: self.next_timer,
        });
        change.started = Some(RebalanceStarted {
            at_ms: now,
            trigger,
            aborted_generation: aborted,
        });
        change.deadline = Some(JoinDeadline {
            at_ms: deadline,
            timer: self.next_timer,
        });
    }

    fn maybe_complete(&mut self, now: u64, change: &mut GroupChange<K, M>) {
        let Some(p) = self.pending.as_ref() else {
            return;
        };
        if self.state == GroupState::PreparingRebalance
            && !p.initial
            && self.joined == self.members.len()
        {
            self.complete(now, change);
        }
    }

    fn complete(&mut self, _now: u64, change: &mut GroupChange<K, M>) {
        let Some(p) = self.pending.take() else {
            return;
        };
        // Dynamic members that did not rejoin are dropped; static ones are
        // kept with their last metadata (`completeClassicGroupJoin`).
        let dropped: Vec<K> = self
            .members
            .iter()
            .filter(|(k, m)| !m.awaiting_join && !self.static_members.contains(*k))
            .map(|(k, _)| k.clone())
            .collect();
        for k in &dropped {
            self.members.remove(k);
        }
        self.joined = 0;
        if self.members.is_empty() {
            self.state = GroupState::Empty;
            self.leader = None;
            self.generation += 1;
            change.emptied = dropped;
            return;
        }
        if self
            .leader
            .as_ref()
            .is_none_or(|l| !self.members.contains_key(l))
        {
            // `maybeElectNewJoinedLeader`: some member that rejoined.
            self.leader = self.members.keys().next().cloned();
        }
        self.generation += 1;
        self.state = GroupState::CompletingRebalance;
        let leader = self.leader.clone().expect("a leader among members");
        let leader_changed = self.last_generation_leader.as_ref() != Some(&leader);
        self.last_generation_leader = Some(leader.clone());
        for m in self.members.values_mut() {
            m.awaiting_join = false;
        }
        change.completed = Some(CompletedJoin {
            generation: self.generation,
            started_ms: p.started_ms,
            trigger: p.trigger,
            leader,
            leader_changed,
            members: self
                .members
                .iter()
                .map(|(k, m)| (k.clone(), m.metadata.clone()))
                .collect(),
            dropped,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type G = ClassicGroup<&'static str, u32>;

    fn accepted(r: JoinResponse<&'static str, u32>) -> GroupChange<&'static str, u32> {
        match r {
            JoinResponse::Accepted(c) => c,
            other => panic!("not accepted: {other:?}"),
        }
    }

    #[test]
    fn first_member_leads_and_initial_delay_extends() {
        let mut g = G::new(3_000);
        let c = accepted(g.join("b", true, 0, 60_000, 0));
        assert_eq!(g.leader(), Some(&"b"));
        let d = c.deadline.unwrap();
        assert_eq!(d.at_ms, 3_000);
        accepted(g.join("a", true, 0, 60_000, 1_000));
        let c = g.on_join_deadline(d.timer, 3_000);
        let d2 = c.deadline.expect("extended: a new member arrived");
        assert_eq!(d2.at_ms, 6_000);
        let c = g.on_join_deadline(d2.timer, 6_000);
        let done = c.completed.unwrap();
        assert_eq!(done.generation, 1);
        assert_eq!(done.leader, "b", "the first member stays leader");
        assert_eq!(
            done.members.iter().map(|m| m.0).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(g.sync(1), Ok(()));
        assert_eq!(g.state(), GroupState::Stable);
    }

    #[test]
    fn rejoin_rules_in_a_stable_group() {
        let mut g = G::new(0);
        let c = accepted(g.join("a", true, 0, 60_000, 0));
        assert!(c.completed.is_some(), "no initial delay: completes at once");
        g.sync(1).unwrap();
        accepted(g.join("b", true, 0, 60_000, 10));
        let c = accepted(g.join("a", false, 0, 60_000, 20));
        assert_eq!(c.completed.unwrap().generation, 2);
        g.sync(2).unwrap();
        // A follower with unchanged metadata gets the current generation.
        assert_eq!(
            g.join("b", false, 0, 60_000, 30),
            JoinResponse::CurrentGeneration { generation: 2 }
        );
        // Changed metadata starts a rebalance.
        let c = accepted(g.join("b", false, 1, 60_000, 40));
        assert!(matches!(
            c.started.unwrap().trigger,
            RebalanceTrigger::MetadataChanged("b")
        ));
        assert!(c.completed.is_none(), "waits for the leader");
        assert_eq!(
            g.join("zombie", false, 0, 60_000, 50),
            JoinResponse::UnknownMember
        );
    }

    #[test]
    fn leader_leaving_elects_another_and_deadline_drops_laggards() {
        let mut g = G::new(0);
        accepted(g.join("a", true, 0, 60_000, 0));
        g.sync(1).unwrap();
        accepted(g.join("b", true, 0, 60_000, 0));
        accepted(g.join("c", true, 0, 60_000, 0));
        let c = accepted(g.join("a", false, 0, 60_000, 0));
        let gen = c.completed.unwrap().generation;
        g.sync(gen).unwrap();
        let c = g.remove(&"a", RemovalReason::LeaveGroup, 100);
        assert_eq!(c.leader_moved, Some(Some("b")));
        let d = c.deadline.unwrap();
        assert_eq!(d.at_ms, 60_100);
        accepted(g.join("c", false, 0, 60_000, 200));
        let c = g.on_join_deadline(d.timer, 60_100);
        let done = c.completed.unwrap();
        assert_eq!(done.dropped, vec!["b"]);
        assert_eq!(
            done.leader, "c",
            "the old leader did not rejoin: a joined member leads"
        );
        assert!(done.leader_changed);
    }

    #[test]
    fn a_static_member_returns_without_a_rebalance_and_is_kept_when_absent() {
        let mut g = G::new(0);
        accepted(g.join("a", true, 0, 60_000, 0));
        g.sync(1).unwrap();
        accepted(g.rejoin_static("s", 0, 60_000, 10));
        let c = accepted(g.join("a", false, 0, 60_000, 20));
        assert_eq!(c.completed.unwrap().generation, 2);
        g.sync(2).unwrap();
        // Restarted within the session timeout: same instance id, no rebalance.
        assert_eq!(
            g.rejoin_static("s", 1, 60_000, 30),
            JoinResponse::CurrentGeneration { generation: 2 }
        );
        // A rebalance that completes on its deadline keeps the absent static member.
        let c = accepted(g.join("a", false, 2, 60_000, 40));
        let d = c.deadline.unwrap();
        let done = g.on_join_deadline(d.timer, d.at_ms).completed.unwrap();
        assert!(done.dropped.is_empty());
        assert_eq!(done.members.len(), 2);
    }

    #[test]
    fn a_join_phase_nobody_rejoins_empties_the_group_and_names_the_dropped() {
        let mut g = G::new(0);
        accepted(g.join("a", true, 0, 1_000, 0));
        g.sync(1).unwrap();
        accepted(g.join("b", true, 0, 1_000, 10));
        let c = accepted(g.join("a", false, 0, 1_000, 20));
        g.sync(c.completed.unwrap().generation).unwrap();
        let c = g.remove(&"b", RemovalReason::LeaveGroup, 100);
        let d = c.deadline.unwrap();
        let c = g.on_join_deadline(d.timer, d.at_ms);
        assert_eq!(c.completed, None);
        assert_eq!(c.emptied, vec!["a"]);
        assert_eq!(g.state(), GroupState::Empty);
    }

    #[test]
    fn a_join_during_sync_aborts_that_generation() {
        let mut g = G::new(0);
        let c = accepted(g.join("a", true, 0, 60_000, 0));
        assert_eq!(c.completed.unwrap().generation, 1);
        let c = accepted(g.join("b", true, 0, 60_000, 5));
        assert_eq!(c.started.unwrap().aborted_generation, Some(1));
        assert_eq!(g.sync(1), Err(SyncError::RebalanceInProgress));
    }
}
