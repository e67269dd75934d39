//! The leader's side of `StreamsPartitionAssignor.assign()` around the task
//! assignor: lags from the subscriptions' offset sums
//! (step 4), the task assignor (step 5), the cooperative filter that holds
//! back a task still owned by another consumer (step 8) and the follow-up
//! schedule (immediate for held-back tasks, probing for the leader's client).
//!
//! Granularity: one subscription per client (all its stream threads join
//! together in the simulator), so the filter compares clients; Kafka
//! compares consumers, which also holds back a move between two threads of
//! one client.

use std::collections::{BTreeMap, BTreeSet};

use crate::kafka_version::KafkaVersion;

use super::versions::{leader_task_assignor, streams_release};
use super::{
    task_lag, AssignmentConfigs, AssignmentError, ClientState, HighAvailabilityTaskAssignor,
    ProcessId, StickyTaskAssignor, StreamsTaskId, TaskAssignor, LATEST_OFFSET,
};

/// One client's subscription as the leader decodes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientSubscription {
    /// Its `ProcessId`.
    pub process_id: ProcessId,
    /// Stream threads (capacity).
    pub capacity: u32,
    /// Tasks whose partitions it reports owning (`ownedPartitions`; empty
    /// under EAGER, where everything was revoked before JoinGroup).
    pub owned: BTreeSet<StreamsTaskId>,
    /// `taskOffsetSums`: −2 for a RUNNING active, else the offset sum.
    pub offset_sums: BTreeMap<StreamsTaskId, i64>,
}

/// Which task assignor the leader runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignorKind {
    /// `HighAvailabilityTaskAssignor` (2.6+).
    HighAvailability,
    /// The legacy `StickyTaskAssignor` (before 2.6).
    Sticky,
}

/// The leader's inputs besides the subscriptions.
#[derive(Clone, Debug)]
pub struct LeaderContext<'a> {
    /// Every task.
    pub all_tasks: &'a BTreeSet<StreamsTaskId>,
    /// The stateful ones.
    pub stateful_tasks: &'a BTreeSet<StreamsTaskId>,
    /// Changelog end-offset sums per stateful task (Admin listOffsets); a
    /// stateful task without one has an empty changelog.
    pub end_offsets: &'a BTreeMap<StreamsTaskId, i64>,
    /// Assignor configs from the leader's own config.
    pub configs: AssignmentConfigs,
    /// The task assignor.
    pub assignor: AssignorKind,
    /// False for a pre-2.4 leader: it has no cooperative filter (KIP-429).
    pub cooperative_filter: bool,
    /// The leader's client.
    pub leader: ProcessId,
}

/// One client's result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientResult {
    /// Actives to run now.
    pub active: BTreeSet<StreamsTaskId>,
    /// Hot standbys (including tasks held back from a previous standby holder).
    pub standby: BTreeSet<StreamsTaskId>,
    /// Warmup replicas.
    pub warmup: BTreeSet<StreamsTaskId>,
    /// Actives held back because another client still owns them.
    pub held_back: BTreeSet<StreamsTaskId>,
    /// `nextRebalanceTime = 0`: rejoin at once.
    pub immediate_rebalance: bool,
    /// The probing rebalance: this client rejoins after `probing.rebalance.interval.ms`.
    pub probing_rebalance: bool,
}

/// The leader's whole result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeaderResult {
    /// Per client, in the subscriptions' order.
    pub clients: Vec<ClientResult>,
    /// The task assignor asked for a probing rebalance.
    pub probing_rebalance_needed: bool,
    /// Tasks given to one client while another still owns them (only
    /// without the cooperative filter): double ownership.
    pub doubly_owned: BTreeSet<StreamsTaskId>,
}

/// Runs the leader's assignment over `subscriptions` (distinct process ids).
pub fn assign(
    subscriptions: &[ClientSubscription],
    ctx: &LeaderContext<'_>,
) -> Result<LeaderResult, AssignmentError> {
    assign_with(subscriptions, ctx, false)
}

/// [`assign`]; `all_lags` gives every client a lag for every stateful task
/// (Kafka's literal input), for the differential test of the sparse input.
fn assign_with(
    subscriptions: &[ClientSubscription],
    ctx: &LeaderContext<'_>,
    all_lags: bool,
) -> Result<LeaderResult, AssignmentError> {
    // Step 4: lags. A client without an offset sum for a task lags by the
    // whole changelog (endOffsetSum); a RUNNING active reports LATEST_OFFSET.
    //
    // The assignors read a missing lag as Long.MAX_VALUE and skip such
    // entries (HighAvailabilityTaskAssignor's lag index is sparse), so a
    // client without state is left out where that gives the same answer:
    // when the task's changelog is longer than acceptable.recovery.lag (no
    // one is caught up without state either way) and every client with state
    // lags strictly less than the whole changelog (so the order by lag,
    // ties by ProcessId, is the same with endOffsetSum or MAX). Otherwise
    // every client gets its lag. This keeps a round over hundreds of clients
    // and tens of thousands of tasks proportional to the state that exists.
    let end_of = |t: &StreamsTaskId| ctx.end_offsets.get(t).copied().unwrap_or(0);
    let mut dense: BTreeSet<StreamsTaskId> = ctx
        .end_offsets
        .iter()
        .filter(|&(_, &end)| end <= ctx.configs.acceptable_recovery_lag)
        .map(|(&t, _)| t)
        .collect();
    dense.extend(
        ctx.stateful_tasks
            .iter()
            .filter(|t| !ctx.end_offsets.contains_key(t)),
    );
    for s in subscriptions {
        for (&t, &sum) in &s.offset_sums {
            let end = end_of(&t);
            if task_lag(Some(sum), end) >= end {
                dense.insert(t);
            }
        }
    }
    if all_lags {
        dense.extend(ctx.stateful_tasks.iter().copied());
    }
    let clients: Vec<ClientState> = subscriptions
        .iter()
        .map(|s| {
            let mut previous_active: BTreeSet<StreamsTaskId> = s.owned.clone();
            let mut previous_standby = BTreeSet::new();
            for (&t, &sum) in &s.offset_sums {
                if sum == LATEST_OFFSET {
                    previous_active.insert(t);
                } else if !s.owned.contains(&t) {
                    previous_standby.insert(t);
                }
            }
            let mut lags: BTreeMap<StreamsTaskId, i64> = s
                .offset_sums
                .iter()
                .filter(|(t, _)| ctx.stateful_tasks.contains(t))
                .map(|(&t, &sum)| (t, task_lag(Some(sum), end_of(&t))))
                .collect();
            for &t in &dense {
                lags.entry(t).or_insert_with(|| task_lag(None, end_of(&t)));
            }
            let mut client = ClientState::new(s.process_id, s.capacity)
                .with_previous_active(previous_active)
                .with_previous_standby(previous_standby);
            client.lags = lags;
            client
        })
        .collect();
    // Step 5: the task assignor.
    let assignment = match ctx.assignor {
        AssignorKind::HighAvailability => HighAvailabilityTaskAssignor::new().assign(
            &clients,
            ctx.all_tasks,
            ctx.stateful_tasks,
            &ctx.configs,
        )?,
        AssignorKind::Sticky => StickyTaskAssignor::new().assign(
            &clients,
            ctx.all_tasks,
            ctx.stateful_tasks,
            &ctx.configs,
        )?,
    };
    let mut owner_of: BTreeMap<StreamsTaskId, ProcessId> = BTreeMap::new();
    for s in subscriptions {
        for &t in &s.owned {
            owner_of.insert(t, s.process_id);
        }
    }
    let mut result = LeaderResult {
        clients: Vec::with_capacity(subscriptions.len()),
        probing_rebalance_needed: assignment.probing_rebalance_needed,
        doubly_owned: BTreeSet::new(),
    };
    for (s, client) in subscriptions.iter().zip(&clients) {
        let mut out = ClientResult::default();
        if let Some(a) = assignment.client(s.process_id) {
            out.standby = a.standby.clone();
            out.warmup = a.warmup.clone();
            for &t in &a.active {
                let other_owner = owner_of.get(&t).is_some_and(|&o| o != s.process_id);
                if other_owner && ctx.cooperative_filter {
                    // Step 8: "removed pending revocation"; a previous standby
                    // holder keeps the task as a standby meanwhile.
                    out.held_back.insert(t);
                    out.immediate_rebalance = true;
                    if client.previous_standby.contains(&t) && ctx.stateful_tasks.contains(&t) {
                        out.standby.insert(t);
                    }
                } else {
                    if other_owner {
                        result.doubly_owned.insert(t);
                    }
                    out.active.insert(t);
                }
            }
        }
        // The probing deadline goes to the leader's client, unless it rejoins
        // at once anyway (the immediate round re-runs the assignor).
        out.probing_rebalance = assignment.probing_rebalance_needed
            && s.process_id == ctx.leader
            && !out.immediate_rebalance;
        result.clients.push(out);
    }
    Ok(result)
}

/// One consumer's subscription as the leader decodes it from its JoinGroup
/// metadata (`SubscriptionInfo`), keyed by the caller's member key `K`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberSubscription<K> {
    /// The group member.
    pub member: K,
    /// Its client's `ProcessId`: consumers of one client share it.
    pub process_id: ProcessId,
    /// Stream threads it stands for (capacity).
    pub capacity: u32,
    /// It runs the COOPERATIVE protocol.
    pub cooperative: bool,
    /// The `SubscriptionInfo` version it sent.
    pub used_version: u32,
    /// The latest `SubscriptionInfo` version it supports.
    pub latest_supported_version: u32,
    /// Tasks whose partitions it reports owning (`ownedPartitions`).
    pub owned: BTreeSet<StreamsTaskId>,
    /// `taskOffsetSums` (stateless tasks are ignored, as Kafka omits them).
    pub offset_sums: BTreeMap<StreamsTaskId, i64>,
}

/// What `StreamsPartitionAssignor.assign` reads besides the subscriptions.
#[derive(Clone, Debug)]
pub struct GroupInput<'a, K> {
    /// Every member's subscription, in the group's member order.
    pub members: &'a [MemberSubscription<K>],
    /// The leader's Kafka Streams version: it decides which task assignor
    /// runs and whether the cooperative filter exists.
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
    /// The client-level result of the task assignor and the filter.
    pub result: ClientResult,
    /// Per member, in the group's member order: the whole client's tasks go
    /// to its first member (the simulator's instances join as one member).
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
    /// Per client, in `ProcessId` order.
    pub clients: Vec<ClientDecision<K>>,
    /// The task assignor asked for a probing rebalance.
    pub probing_rebalance_needed: bool,
    /// Tasks given to one client while another still owns them.
    pub doubly_owned: BTreeSet<StreamsTaskId>,
    /// Version probing: members that switch `SubscriptionInfo` version.
    pub version_probing: Vec<VersionProbe<K>>,
}

/// The leader's `StreamsPartitionAssignor.assign` over a whole group: groups
/// the members by client, picks the task assignor and the cooperative filter
/// from the leader's release ([`super::versions`]), runs [`assign`] and
/// settles version probing.
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
    let result = assign(&subscriptions, &ctx)?;
    let version_probing = version_probes(input.members);
    let clients = subscriptions
        .into_iter()
        .zip(member_lists)
        .zip(result.clients)
        .map(|((sub, members), res)| {
            let members = members
                .into_iter()
                .enumerate()
                .map(|(n, member)| {
                    let probe = version_probing.iter().find(|p| p.member == member);
                    member_assignment(member, n == 0, &res, probe)
                })
                .collect();
            ClientDecision {
                process_id: sub.process_id,
                owned: sub.owned,
                result: res,
                members,
            }
        })
        .collect();
    Ok(GroupDecision {
        assignor,
        cooperative_filter: release.cooperative,
        clients,
        probing_rebalance_needed: result.probing_rebalance_needed,
        doubly_owned: result.doubly_owned,
        version_probing,
    })
}

/// Clients by `ProcessId` (a client's consumers share it), each with its
/// members in the group's order: capacities add up, owned tasks and
/// stateful offset sums merge.
fn clients_of<K: Clone>(
    members: &[MemberSubscription<K>],
    stateful_tasks: &BTreeSet<StreamsTaskId>,
) -> (Vec<ClientSubscription>, Vec<Vec<K>>) {
    let mut by_process: BTreeMap<ProcessId, (ClientSubscription, Vec<K>)> = BTreeMap::new();
    for m in members {
        let (client, keys) = by_process.entry(m.process_id).or_insert_with(|| {
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
        for (&t, &sum) in &m.offset_sums {
            if stateful_tasks.contains(&t) {
                client.offset_sums.insert(t, sum);
            }
        }
        keys.push(m.member.clone());
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

/// One member's `AssignmentInfo`: the client's tasks if it is the client's
/// first member; a version-probing member rejoins at once instead of
/// scheduling the probing rebalance.
fn member_assignment<K: Clone>(
    member: K,
    first_of_client: bool,
    client: &ClientResult,
    probe: Option<&VersionProbe<K>>,
) -> MemberAssignment<K> {
    let empty = ClientResult::default();
    let tasks = if first_of_client { client } else { &empty };
    let mut a = MemberAssignment {
        member,
        active: tasks.active.clone(),
        standby: tasks.standby.clone(),
        warmup: tasks.warmup.clone(),
        immediate_rebalance: tasks.immediate_rebalance,
        probing_rebalance: tasks.probing_rebalance,
        metadata_version: None,
    };
    if let Some(p) = probe {
        a.metadata_version = Some(p.to);
        a.immediate_rebalance = true;
        a.probing_rebalance = false;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_rng::SplitMix64;

    /// The sparse lag input gives exactly the assignment of Kafka's literal
    /// input (every client, every stateful task) on random groups: offset
    /// sums at, near and far from the end, zero, LATEST, UNKNOWN and corrupt.
    #[test]
    fn sparse_lags_assign_exactly_like_full_lags() {
        for seed in 0..400u64 {
            let mut rng = SplitMix64::new(seed);
            let tasks: BTreeSet<StreamsTaskId> = (0..1 + rng.below(3) as u32)
                .flat_map(|s| (0..1 + rng.below(6) as u32).map(move |p| StreamsTaskId::new(s, p)))
                .collect();
            let stateful: BTreeSet<StreamsTaskId> =
                tasks.iter().copied().filter(|_| rng.below(3) > 0).collect();
            let ends: BTreeMap<StreamsTaskId, i64> = stateful
                .iter()
                .map(|&t| (t, [0, 50, 100, 5_000, 100_000][rng.below(5) as usize]))
                .collect();
            let clients = 1 + rng.below(5);
            let subs: Vec<ClientSubscription> = (0..clients)
                .map(|c| {
                    let mut offset_sums = BTreeMap::new();
                    let mut owned = BTreeSet::new();
                    for &t in &stateful {
                        let end = ends[&t];
                        let sum = match rng.below(8) {
                            0 => Some(LATEST_OFFSET),
                            1 => Some(0),
                            2 => Some(end),
                            3 => Some(end - end / 3),
                            4 => Some(end + 7),
                            5 => Some(crate::streams::UNKNOWN_OFFSET_SUM),
                            _ => None,
                        };
                        if let Some(sum) = sum {
                            offset_sums.insert(t, sum);
                            if sum == LATEST_OFFSET && rng.below(2) == 0 {
                                owned.insert(t);
                            }
                        }
                    }
                    ClientSubscription {
                        process_id: ProcessId::new(rng.next() as i64, c as i64),
                        capacity: 1 + rng.below(3) as u32,
                        owned,
                        offset_sums,
                    }
                })
                .collect();
            let ctx = LeaderContext {
                all_tasks: &tasks,
                stateful_tasks: &stateful,
                end_offsets: &ends,
                configs: AssignmentConfigs {
                    acceptable_recovery_lag: [0, 100, 10_000][rng.below(3) as usize],
                    max_warmup_replicas: 1 + rng.below(3) as u32,
                    num_standby_replicas: rng.below(3) as u32,
                    probing_rebalance_interval_ms: 600_000,
                },
                assignor: AssignorKind::HighAvailability,
                cooperative_filter: true,
                leader: subs[0].process_id,
            };
            assert_eq!(
                assign_with(&subs, &ctx, false),
                assign_with(&subs, &ctx, true),
                "seed {seed}"
            );
        }
    }

    fn t(p: u32) -> StreamsTaskId {
        StreamsTaskId::new(0, p)
    }

    #[test]
    fn a_task_owned_elsewhere_is_held_back_and_its_standby_kept() {
        let all: BTreeSet<_> = (0..2).map(t).collect();
        let ends: BTreeMap<_, _> = all.iter().map(|&x| (x, 1_000)).collect();
        let p1 = ProcessId::from_position(1);
        let p2 = ProcessId::from_position(2);
        // P1 owns both; P2 holds a caught-up standby of 0_1.
        let subs = vec![
            ClientSubscription {
                process_id: p1,
                capacity: 1,
                owned: all.clone(),
                offset_sums: all.iter().map(|&x| (x, LATEST_OFFSET)).collect(),
            },
            ClientSubscription {
                process_id: p2,
                capacity: 1,
                owned: BTreeSet::new(),
                offset_sums: [(t(1), 1_000)].into_iter().collect(),
            },
        ];
        let ctx = LeaderContext {
            all_tasks: &all,
            stateful_tasks: &all,
            end_offsets: &ends,
            configs: AssignmentConfigs::default(),
            assignor: AssignorKind::HighAvailability,
            cooperative_filter: true,
            leader: p1,
        };
        let r = assign(&subs, &ctx).unwrap();
        assert_eq!(r.clients[0].active, [t(0)].into_iter().collect());
        assert!(r.clients[1].active.is_empty());
        assert_eq!(r.clients[1].held_back, [t(1)].into_iter().collect());
        assert!(r.clients[1].standby.contains(&t(1)));
        assert!(r.clients[1].immediate_rebalance);
        let no_filter = LeaderContext {
            cooperative_filter: false,
            ..ctx
        };
        let r = assign(&subs, &no_filter).unwrap();
        assert_eq!(r.doubly_owned, [t(1)].into_iter().collect());
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
        let d = decide(&members, KafkaVersion::new(2, 4), AssignorKind::Sticky, 2);
        assert!(d.cooperative_filter);
        assert!(d.doubly_owned.is_empty());
        let newcomer = &d.clients[1].members[0];
        assert!(newcomer.active.is_empty());
        assert!(newcomer.immediate_rebalance);
        assert_eq!(d.clients[1].result.held_back.len(), 1);
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
    fn members_sharing_a_process_id_are_one_client() {
        // An old member of client 1 still in the group beside its new one.
        let members = [member(1, 1, &[], (11, 11)), member(2, 1, &[], (11, 11))];
        let d = decide(
            &members,
            KafkaVersion::new(3, 8),
            AssignorKind::HighAvailability,
            2,
        );
        assert_eq!(d.clients.len(), 1);
        let [first, second] = &d.clients[0].members[..] else {
            panic!("two members");
        };
        assert_eq!((first.member, second.member), (1, 2));
        assert_eq!(
            first.active.len(),
            2,
            "the client's tasks go to its first member"
        );
        assert!(second.active.is_empty());
    }
}
