//! `StreamsPartitionAssignor.assign` over a whole classic group, consumer by
//! consumer: every stream thread is a group member. The leader groups the
//! consumers by client (`ProcessId`, capacity = its consumers), runs the task
//! assignor per client ([`super::partition_assignor`]), hands each client's
//! tasks to its threads ([`super::thread_assignment`]), then, per consumer,
//! holds back an active whose partitions another consumer still owns (the
//! cooperative filter, `populateActiveTaskAndPartitionsLists`: a move
//! between two threads of one client waits too), keeps a previous standby
//! of it meanwhile (`buildStandbyTaskMap`) and encodes the follow-up
//! (`addClientAssignments`). Version probing settles the metadata version.

use std::collections::{BTreeMap, BTreeSet};

use crate::kafka_version::KafkaVersion;

use super::java::{hash_set_order, spread};
use super::partition_assignor::{
    client_states, run_task_assignor, AssignorKind, ClientResult, ClientSubscription, LeaderContext,
};
use super::thread_assignment::{
    assign_tasks_to_threads, ClientTasks, ThreadConsumer, ThreadDistribution,
};
use super::versions::{leader_task_assignor, streams_release};
use super::{AssignmentConfigs, AssignmentError, ProcessId, StreamsTaskId};

/// One consumer's subscription as the leader decodes it from its JoinGroup
/// metadata (`SubscriptionInfo`), keyed by the caller's member key `K`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberSubscription<K> {
    /// The group member.
    pub member: K,
    /// Its member id: a client's consumers are ordered by it.
    pub member_id: String,
    /// Its client's `ProcessId`: consumers of one client share it.
    pub process_id: ProcessId,
    /// Stream threads it stands for: 1 for a stream thread's consumer.
    pub capacity: u32,
    /// It runs the COOPERATIVE protocol.
    pub cooperative: bool,
    /// The `SubscriptionInfo` version it sent.
    pub used_version: u32,
    /// The latest `SubscriptionInfo` version it supports.
    pub latest_supported_version: u32,
    /// Tasks whose partitions it reports owning (`ownedPartitions`).
    pub owned: BTreeSet<StreamsTaskId>,
    /// `taskOffsetSums`. Kafka omits stateless tasks, except that a pre-v7
    /// subscription's previous actives come as LATEST_OFFSET, stateless or
    /// not (the leader reads its task sets so).
    pub offset_sums: BTreeMap<StreamsTaskId, i64>,
}

/// What `StreamsPartitionAssignor.assign` reads besides the subscriptions.
#[derive(Clone, Debug)]
pub struct GroupInput<'a, K> {
    /// Every member's subscription, in the group's member order.
    pub members: &'a [MemberSubscription<K>],
    /// The leader's Kafka Streams version: it decides which task assignor
    /// runs, whether the cooperative filter exists and how tasks go to threads.
    pub leader_version: KafkaVersion,
    /// The leader's client.
    pub leader: ProcessId,
    /// `internal.task.assignor.class` in the leader's config.
    pub configured_assignor: AssignorKind,
    /// Assignor configs from the leader's own config.
    pub configs: AssignmentConfigs,
    /// Every task.
    pub all_tasks: &'a BTreeSet<StreamsTaskId>,
    /// The stateful ones.
    pub stateful_tasks: &'a BTreeSet<StreamsTaskId>,
    /// Changelog end-offset sums per stateful task (see [`LeaderContext`]).
    pub end_offsets: &'a BTreeMap<StreamsTaskId, i64>,
}

/// What one member is told in its `AssignmentInfo`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberAssignment<K> {
    /// The member.
    pub member: K,
    /// Actives.
    pub active: BTreeSet<StreamsTaskId>,
    /// Hot standbys.
    pub standby: BTreeSet<StreamsTaskId>,
    /// Warmup replicas.
    pub warmup: BTreeSet<StreamsTaskId>,
    /// Actives held back from it until their owner revokes them.
    pub held_back: BTreeSet<StreamsTaskId>,
    /// `nextRebalanceTime = 0`: rejoin at once (a held-back task, or version probing).
    pub immediate_rebalance: bool,
    /// It schedules the probing rebalance `probing.rebalance.interval.ms` from now.
    pub probing_rebalance: bool,
    /// Version probing: the `SubscriptionInfo` version to send from now on.
    pub metadata_version: Option<u32>,
}

/// One client (all members sharing a `ProcessId`) and what it got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientDecision<K> {
    /// Its `ProcessId`.
    pub process_id: ProcessId,
    /// The tasks its members report owning.
    pub owned: BTreeSet<StreamsTaskId>,
    /// The client-level result: the union of its members'.
    pub result: ClientResult,
    /// Per member, in the group's member order.
    pub members: Vec<MemberAssignment<K>>,
}

/// A member whose `SubscriptionInfo` version differs from the group's
/// commonly supported one: it switches and rejoins at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionProbe<K> {
    /// The member.
    pub member: K,
    /// The version it sent.
    pub from: u32,
    /// The version it switches to.
    pub to: u32,
}

/// Everything the leader decided in one `StreamsPartitionAssignor.assign`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupDecision<K> {
    /// The task assignor that ran.
    pub assignor: AssignorKind,
    /// The leader held back tasks still owned elsewhere (KIP-429); without it
    /// a moved task is [`Self::doubly_owned`].
    pub cooperative_filter: bool,
    /// How the leader handed each client's tasks to its threads.
    pub thread_distribution: ThreadDistribution,
    /// Per client, in `ProcessId` order.
    pub clients: Vec<ClientDecision<K>>,
    /// The task assignor asked for a probing rebalance.
    pub probing_rebalance_needed: bool,
    /// Tasks given to one consumer while another still owns them.
    pub doubly_owned: BTreeSet<StreamsTaskId>,
    /// Version probing: members that switch `SubscriptionInfo` version.
    pub version_probing: Vec<VersionProbe<K>>,
}

/// The leader's `StreamsPartitionAssignor.assign` over a whole group: groups
/// the members by client, picks the task assignor, the cooperative filter
/// and the thread distribution from the leader's release
/// ([`super::versions`]), and settles version probing.
pub fn assign_group<K: Clone + PartialEq>(
    input: &GroupInput<'_, K>,
) -> Result<GroupDecision<K>, AssignmentError> {
    let release = streams_release(input.leader_version);
    let assignor = leader_task_assignor(input.leader_version, input.configured_assignor);
    let (subscriptions, member_lists) = clients_of(input.members, input.stateful_tasks);
    let ctx = LeaderContext {
        all_tasks: input.all_tasks,
        stateful_tasks: input.stateful_tasks,
        end_offsets: input.end_offsets,
        configs: input.configs,
        assignor,
        cooperative_filter: release.cooperative,
        leader: input.leader,
    };
    let states = client_states(&subscriptions, &ctx, false);
    let assignment = run_task_assignor(&states, &ctx)?;
    let version_probing = version_probes(input.members);
    // Who owns each task's partitions, by member index (a later claim wins,
    // as in `ClientState.addOwnedPartitions`).
    let mut owner: BTreeMap<StreamsTaskId, usize> = BTreeMap::new();
    for (i, m) in input.members.iter().enumerate() {
        for &t in &m.owned {
            owner.insert(t, i);
        }
    }
    let mut doubly_owned = BTreeSet::new();
    let mut decisions: Vec<Option<ClientDecision<K>>> = vec![None; subscriptions.len()];
    // 2.4–2.5 walk the clients in `HashMap<UUID, …>` order, and one that
    // cannot keep its threads' tasks makes the later ones interleave.
    let mut order: Vec<u32> = (0..subscriptions.len() as u32).collect();
    if release.thread_distribution == ThreadDistribution::StickyWithinClient {
        let hashes: Vec<u32> = subscriptions
            .iter()
            .map(|s| spread(s.process_id.java_hash_code()))
            .collect();
        hash_set_order(&mut order, &hashes);
    }
    let mut interleave_only = false;
    for c in order.into_iter().map(|c| c as usize) {
        let sub = &subscriptions[c];
        let members = &member_lists[c];
        let client = assignment.client(sub.process_id);
        let empty = BTreeSet::new();
        let active = client.map_or(&empty, |a| &a.active);
        let warmup = client.map_or(&empty, |a| &a.warmup);
        let standby: BTreeSet<StreamsTaskId> = client
            .map(|a| a.standby.union(&a.warmup).copied().collect())
            .unwrap_or_default();
        let (stateful_active, stateless_active): (BTreeSet<_>, BTreeSet<_>) = active
            .iter()
            .partition(|t| input.stateful_tasks.contains(t));
        // Only 2.4–2.5's sticky attempt asks which tasks another client owns.
        let owned_elsewhere: BTreeSet<StreamsTaskId> =
            if release.thread_distribution == ThreadDistribution::StickyWithinClient {
                owner
                    .iter()
                    .filter(|(_, m)| !members.contains(m))
                    .map(|(&t, _)| t)
                    .collect()
            } else {
                BTreeSet::new()
            };
        let previous: Vec<BTreeSet<StreamsTaskId>> = members
            .iter()
            .map(|&m| {
                input.members[m]
                    .offset_sums
                    .keys()
                    .filter(|t| input.stateful_tasks.contains(t))
                    .copied()
                    .collect()
            })
            .collect();
        let consumers: Vec<ThreadConsumer<'_>> = members
            .iter()
            .zip(&previous)
            .map(|(&m, previous)| ThreadConsumer {
                member_id: &input.members[m].member_id,
                previous,
                owned: &input.members[m].owned,
            })
            .collect();
        let tasks = ClientTasks {
            stateful_active: &stateful_active,
            stateless_active: &stateless_active,
            standby: &standby,
            owned_elsewhere: &owned_elsewhere,
        };
        let state = &states[c];
        let (threads, failed) = assign_tasks_to_threads(
            release.thread_distribution,
            &consumers,
            &tasks,
            &|t| state.lag_for(t),
            interleave_only,
        );
        interleave_only |= failed;
        // The probing deadline goes to the first consumer of the leader's
        // client (member-id order) that is not told to rejoin at once; an
        // earlier immediate rejoin drops it (the immediate round re-runs the
        // assignor).
        let mut encode_probing = assignment.probing_rebalance_needed
            && release.has_high_availability_assignor
            && sub.process_id == input.leader;
        let by_id = crate::sort_by_key::stable_order(members.len(), &|a, b| {
            consumers[a].member_id.cmp(consumers[b].member_id)
        });
        let mut assigned: Vec<Option<MemberAssignment<K>>> = vec![None; members.len()];
        for i in by_id {
            let m = members[i];
            let mut a = MemberAssignment {
                member: input.members[m].member.clone(),
                active: BTreeSet::new(),
                standby: threads[i].standby.difference(warmup).copied().collect(),
                warmup: threads[i].standby.intersection(warmup).copied().collect(),
                held_back: BTreeSet::new(),
                immediate_rebalance: false,
                probing_rebalance: false,
                metadata_version: None,
            };
            for &t in &threads[i].active {
                let owned_by_other = owner.get(&t).is_some_and(|&o| o != m);
                if owned_by_other && release.cooperative {
                    a.held_back.insert(t);
                    if release.follow_up_for_held_back
                        && state.previous_standby.contains(&t)
                        && input.stateful_tasks.contains(&t)
                    {
                        a.standby.insert(t);
                    }
                } else {
                    if owned_by_other {
                        doubly_owned.insert(t);
                    }
                    a.active.insert(t);
                }
            }
            if !a.held_back.is_empty() && release.follow_up_for_held_back {
                a.immediate_rebalance = true;
                encode_probing = false;
            } else if encode_probing {
                a.probing_rebalance = true;
                encode_probing = false;
            }
            if let Some(p) = version_probing.iter().find(|p| p.member == a.member) {
                a.metadata_version = Some(p.to);
                a.immediate_rebalance = true;
                a.probing_rebalance = false;
            }
            assigned[i] = Some(a);
        }
        let members: Vec<MemberAssignment<K>> = assigned.into_iter().flatten().collect();
        let mut result = ClientResult::default();
        for a in &members {
            result.active.extend(a.active.iter().copied());
            result.standby.extend(a.standby.iter().copied());
            result.warmup.extend(a.warmup.iter().copied());
            result.held_back.extend(a.held_back.iter().copied());
            result.immediate_rebalance |= a.immediate_rebalance;
            result.probing_rebalance |= a.probing_rebalance;
        }
        decisions[c] = Some(ClientDecision {
            process_id: sub.process_id,
            owned: sub.owned.clone(),
            result,
            members,
        });
    }
    Ok(GroupDecision {
        assignor,
        cooperative_filter: release.cooperative,
        thread_distribution: release.thread_distribution,
        clients: decisions.into_iter().flatten().collect(),
        probing_rebalance_needed: assignment.probing_rebalance_needed,
        doubly_owned,
        version_probing,
    })
}

/// Clients by `ProcessId` (a client's consumers share it), each with the
/// indices of its members in the group's order: capacities add up, owned
/// tasks and stateful offset sums merge.
fn clients_of<K>(
    members: &[MemberSubscription<K>],
    stateful_tasks: &BTreeSet<StreamsTaskId>,
) -> (Vec<ClientSubscription>, Vec<Vec<usize>>) {
    let mut by_process: BTreeMap<ProcessId, (ClientSubscription, Vec<usize>)> = BTreeMap::new();
    for (i, m) in members.iter().enumerate() {
        let (client, list) = by_process.entry(m.process_id).or_insert_with(|| {
            (
                ClientSubscription {
                    process_id: m.process_id,
                    capacity: 0,
                    owned: BTreeSet::new(),
                    offset_sums: BTreeMap::new(),
                },
                Vec::new(),
            )
        });
        client.capacity += m.capacity;
        client.owned.extend(m.owned.iter().copied());
        // Stateless tasks have no offset sums; a pre-v7 subscription's
        // previous actives (LATEST_OFFSET) still name them.
        for (&t, &sum) in &m.offset_sums {
            if stateful_tasks.contains(&t) || sum == super::LATEST_OFFSET {
                client.offset_sums.insert(t, sum);
            }
        }
        list.push(i);
    }
    by_process.into_values().unzip()
}

/// Version probing (KIP-268, 2.0): the leader answers at the lowest used
/// version with `commonlySupportedVersion`, the lowest latest-supported one.
/// A member that sent another version switches to it and rejoins at once,
/// so the group converges on the highest version every member supports.
fn version_probes<K: Clone>(members: &[MemberSubscription<K>]) -> Vec<VersionProbe<K>> {
    let common = members
        .iter()
        .map(|m| m.latest_supported_version)
        .min()
        .unwrap_or(0);
    members
        .iter()
        .filter(|m| m.used_version != common)
        .map(|m| VersionProbe {
            member: m.member.clone(),
            from: m.used_version,
            to: common,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streams::LATEST_OFFSET;

    fn t(p: u32) -> StreamsTaskId {
        StreamsTaskId::new(0, p)
    }

    fn member(
        member: u32,
        process: u32,
        owned: &[u32],
        versions: (u32, u32),
    ) -> MemberSubscription<u32> {
        let owned: BTreeSet<_> = owned.iter().map(|&p| t(p)).collect();
        MemberSubscription {
            member,
            member_id: format!("client-{process}-StreamThread-{member}-consumer"),
            process_id: ProcessId::from_position(process.into()),
            capacity: 1,
            cooperative: true,
            used_version: versions.0,
            latest_supported_version: versions.1,
            offset_sums: owned.iter().map(|&x| (x, LATEST_OFFSET)).collect(),
            owned,
        }
    }

    /// Runs [`assign_group`] over tasks `0_0..0_n` (all stateful, caught up).
    fn decide(
        members: &[MemberSubscription<u32>],
        leader_version: KafkaVersion,
        configured_assignor: AssignorKind,
        n: u32,
    ) -> GroupDecision<u32> {
        let all: BTreeSet<_> = (0..n).map(t).collect();
        let ends: BTreeMap<_, _> = all.iter().map(|&x| (x, 1_000)).collect();
        assign_group(&GroupInput {
            members,
            leader_version,
            leader: members[0].process_id,
            configured_assignor,
            configs: AssignmentConfigs::default(),
            all_tasks: &all,
            stateful_tasks: &all,
            end_offsets: &ends,
        })
        .unwrap()
    }

    #[test]
    fn a_leader_before_2_6_runs_the_sticky_assignor_whatever_its_config() {
        let members = [member(1, 1, &[], (11, 11)), member(2, 2, &[], (11, 11))];
        let v = KafkaVersion::new;
        let ha = AssignorKind::HighAvailability;
        assert_eq!(
            decide(&members, v(2, 5), ha, 2).assignor,
            AssignorKind::Sticky
        );
        assert_eq!(decide(&members, v(2, 6), ha, 2).assignor, ha);
        let sticky = decide(&members, v(3, 8), AssignorKind::Sticky, 2);
        assert_eq!(sticky.assignor, AssignorKind::Sticky);
    }

    #[test]
    fn a_leader_from_2_4_holds_back_a_task_still_owned_elsewhere() {
        // Client 1 owns both tasks; the assignor gives one of them to client 2.
        let members = [member(1, 1, &[0, 1], (11, 11)), member(2, 2, &[], (11, 11))];
        let d = decide(&members, KafkaVersion::new(2, 6), AssignorKind::Sticky, 2);
        assert!(d.cooperative_filter);
        assert!(d.doubly_owned.is_empty());
        let newcomer = &d.clients[1].members[0];
        assert!(newcomer.active.is_empty());
        assert!(newcomer.immediate_rebalance);
        assert_eq!(d.clients[1].result.held_back.len(), 1);
        // 2.4 holds back too, but the newcomer waits for the owner's rejoin.
        let d = decide(&members, KafkaVersion::new(2, 4), AssignorKind::Sticky, 2);
        assert_eq!(d.clients[1].members[0].held_back.len(), 1);
        assert!(!d.clients[1].members[0].immediate_rebalance);
        // A 2.3 leader has no filter: the task is owned twice.
        let d = decide(&members, KafkaVersion::new(2, 3), AssignorKind::Sticky, 2);
        assert!(!d.cooperative_filter);
        assert_eq!(d.doubly_owned.len(), 1);
        assert_eq!(d.clients[1].members[0].active, d.doubly_owned);
    }

    #[test]
    fn version_probing_moves_every_member_to_the_common_version() {
        // Member 1 sent v11; member 2 supports only v9: member 1 downgrades
        // and rejoins at once instead of scheduling the probing rebalance.
        let members = [member(1, 1, &[], (11, 11)), member(2, 2, &[], (9, 9))];
        let d = decide(
            &members,
            KafkaVersion::new(3, 8),
            AssignorKind::HighAvailability,
            4,
        );
        assert_eq!(
            d.version_probing,
            vec![VersionProbe {
                member: 1,
                from: 11,
                to: 9
            }]
        );
        let first = &d.clients[0].members[0];
        assert_eq!(first.metadata_version, Some(9));
        assert!(first.immediate_rebalance && !first.probing_rebalance);
        assert_eq!(d.clients[1].members[0].metadata_version, None);
        // Once everyone supports v11, a member still on v9 upgrades.
        let members = [member(1, 1, &[], (9, 11)), member(2, 2, &[], (11, 11))];
        let d = decide(
            &members,
            KafkaVersion::new(3, 8),
            AssignorKind::HighAvailability,
            4,
        );
        assert_eq!(d.version_probing.len(), 1);
        assert_eq!(d.version_probing[0].to, 11);
    }

    #[test]
    fn a_clients_tasks_are_shared_by_its_threads() {
        // Two threads of client 1; no history: the four tasks split 2/2,
        // interleaved in TaskId order over the threads in member-id order.
        let members = [member(1, 1, &[], (11, 11)), member(2, 1, &[], (11, 11))];
        let d = decide(
            &members,
            KafkaVersion::new(4, 3),
            AssignorKind::HighAvailability,
            4,
        );
        assert_eq!(d.clients.len(), 1);
        let [first, second] = &d.clients[0].members[..] else {
            panic!("two members");
        };
        assert_eq!((first.member, second.member), (1, 2));
        assert_eq!(first.active, [t(0), t(2)].into_iter().collect());
        assert_eq!(second.active, [t(1), t(3)].into_iter().collect());
    }

    #[test]
    fn a_move_between_two_threads_of_one_client_is_held_back() {
        // Thread 1 owns all four tasks; balance moves two to thread 2, which
        // must wait until thread 1 has revoked them (consumer granularity).
        let members = [
            member(1, 1, &[0, 1, 2, 3], (11, 11)),
            member(2, 1, &[], (11, 11)),
        ];
        let d = decide(
            &members,
            KafkaVersion::new(4, 3),
            AssignorKind::HighAvailability,
            4,
        );
        let [first, second] = &d.clients[0].members[..] else {
            panic!("two members");
        };
        assert_eq!(first.active.len(), 2);
        assert!(second.active.is_empty());
        assert_eq!(second.held_back.len(), 2);
        assert!(second.immediate_rebalance);
        // The probing deadline (none needed here) never goes to both.
        assert!(!(first.probing_rebalance && second.probing_rebalance));
    }
}
