//! The leader's side of `StreamsPartitionAssignor.assign()` around the task
//! assignor, per client: lags from the subscriptions' offset sums (step 4)
//! and the task assignor (step 5). [`assign`] also applies a client-level
//! cooperative filter (a task still owned by another client is held back)
//! and the follow-up schedule, for a caller that has one subscription per
//! client. The whole group, consumer by consumer (threads, Kafka's
//! granularity), is [`super::group_assignment::assign_group`].

use std::collections::{BTreeMap, BTreeSet};

pub use super::group_assignment::{
    assign_group, ClientDecision, GroupDecision, GroupInput, MemberAssignment, MemberSubscription,
    VersionProbe,
};
use super::{
    task_lag, AssignmentConfigs, AssignmentError, ClientState, HighAvailabilityTaskAssignor,
    ProcessId, StickyTaskAssignor, StreamsAssignment, StreamsTaskId, TaskAssignor, LATEST_OFFSET,
};

/// A task → offset map (offset sums, end offsets, lags) from its pairs, as
/// `collect()` builds it (a later pair for the same task wins). Every such
/// map the engine builds comes through here: `BTreeMap`'s `collect` is a
/// copy of the standard sort and the bulk build per iterator type (about
/// 4.5 KB of WebAssembly each), and a `Vec` source shares one.
#[inline(never)]
pub(crate) fn task_offsets(pairs: Vec<(StreamsTaskId, i64)>) -> BTreeMap<StreamsTaskId, i64> {
    pairs.into_iter().collect()
}

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
    let clients = client_states(subscriptions, ctx, all_lags);
    let assignment = run_task_assignor(&clients, ctx)?;
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

/// Step 4 of `StreamsPartitionAssignor.assign`: each client's `ClientState`
/// (capacity, previous tasks and lags) from its subscription.
/// `all_lags` gives every client a lag for every stateful task (Kafka's
/// literal input), for the differential test of the sparse input.
pub(crate) fn client_states(
    subscriptions: &[ClientSubscription],
    ctx: &LeaderContext<'_>,
    all_lags: bool,
) -> Vec<ClientState> {
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
            let mut lags = task_offsets(
                s.offset_sums
                    .iter()
                    .filter(|(t, _)| ctx.stateful_tasks.contains(t))
                    .map(|(&t, &sum)| (t, task_lag(Some(sum), end_of(&t))))
                    .collect(),
            );
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
    clients
}

/// Step 5: the task assignor over the clients.
pub(crate) fn run_task_assignor(
    clients: &[ClientState],
    ctx: &LeaderContext<'_>,
) -> Result<StreamsAssignment, AssignmentError> {
    Ok(match ctx.assignor {
        AssignorKind::HighAvailability => HighAvailabilityTaskAssignor::new().assign(
            clients,
            ctx.all_tasks,
            ctx.stateful_tasks,
            &ctx.configs,
        )?,
        AssignorKind::Sticky => StickyTaskAssignor::new().assign(
            clients,
            ctx.all_tasks,
            ctx.stateful_tasks,
            &ctx.configs,
        )?,
    })
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
}
