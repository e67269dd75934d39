//! Inside one client: the leader hands the client's tasks to its stream
//! threads, each a consumer of the group (`StreamsPartitionAssignor`, after
//! the task assignor has decided per client). The rule changed twice:
//!
//! * up to 2.3 (`interleaveTasksByGroupId`): sorted tasks dealt round-robin
//!   over the client's consumers in `HashSet<String>` order of their member
//!   ids, actives and standbys alike, ignoring history;
//! * 2.4 and 2.5 (`tryStickyAndBalancedTaskAssignmentWithinClient`): every
//!   active goes back to the consumer that owned its partitions when that
//!   keeps the client balanced; otherwise (or after a client that could not
//!   be sticky) `interleaveConsumerTasksByGroupId`, round-robin in member-id
//!   order;
//! * from 2.6 (`assignTasksToThreads`): stateful tasks return to the thread
//!   that reported state for them, least lag first, up to the per-thread
//!   minimum; the rest are interleaved over unfilled threads in `TaskId`
//!   order, leftovers to their previous owner if it sits at the minimum.
//!   2.6–3.1 balances actives (stateless after stateful) and standbys in two
//!   independent passes; from 3.2 stateful actives, standbys and stateless
//!   actives are three passes over one running per-thread count.
//!
//! The heap and queue orders are Kafka's: a `PriorityQueue` built from a
//! `HashSet` is heapified in hash order, and the last loop walks the heap's
//! array (`streams::java`).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::java::{hash_set_order, spread, string_hash_code, JavaPriorityQueue};
use super::StreamsTaskId;

/// How a release's leader hands a client's tasks to its threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadDistribution {
    /// Up to 2.3: `interleaveTasksByGroupId`.
    Interleaved,
    /// 2.4–2.5: `tryStickyAndBalancedTaskAssignmentWithinClient`, else
    /// `interleaveConsumerTasksByGroupId`.
    StickyWithinClient,
    /// 2.6–3.1: `assignTasksToThreads` for actives, then for standbys.
    StickyBalanced,
    /// 3.2 and later: `assignTasksToThreads` three times (stateful actives,
    /// standbys, stateless actives) over one per-thread load.
    StickyBalancedSharedLoad,
}

/// One consumer (stream thread) of the client, as the leader sees it.
#[derive(Clone, Copy, Debug)]
pub struct ThreadConsumer<'a> {
    /// Its member id: consumers are ordered by it.
    pub member_id: &'a str,
    /// Stateful tasks it reported offset sums for
    /// (`ClientState.prevOwnedStatefulTasksByConsumer`).
    pub previous: &'a BTreeSet<StreamsTaskId>,
    /// Tasks whose partitions it reported owning (`ownedPartitions`).
    pub owned: &'a BTreeSet<StreamsTaskId>,
}

/// What one client's threads are to run.
#[derive(Clone, Debug)]
pub struct ClientTasks<'a> {
    /// Stateful actives the task assignor gave the client.
    pub stateful_active: &'a BTreeSet<StreamsTaskId>,
    /// Stateless actives.
    pub stateless_active: &'a BTreeSet<StreamsTaskId>,
    /// Standbys and warmups.
    pub standby: &'a BTreeSet<StreamsTaskId>,
    /// Tasks whose partitions a consumer of another client owns (2.4–2.5:
    /// such a task cannot be kept sticky inside this client).
    pub owned_elsewhere: &'a BTreeSet<StreamsTaskId>,
}

/// One thread's share.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadTasks {
    /// Actives.
    pub active: BTreeSet<StreamsTaskId>,
    /// Standbys (and warmups).
    pub standby: BTreeSet<StreamsTaskId>,
}

/// Hands a client's tasks to its `consumers` (any order; the result is in
/// the same order). `lag` is the client's lag per stateful task.
/// `interleave_only` is 2.4–2.5's "a rebalance is required anyway" (an
/// earlier client could not be sticky); the second value says this client
/// could not be sticky either, so later clients interleave.
pub fn assign_tasks_to_threads(
    rule: ThreadDistribution,
    consumers: &[ThreadConsumer<'_>],
    tasks: &ClientTasks<'_>,
    lag: &dyn Fn(StreamsTaskId) -> i64,
    interleave_only: bool,
) -> (Vec<ThreadTasks>, bool) {
    let mut out = vec![ThreadTasks::default(); consumers.len()];
    if consumers.is_empty() {
        return (out, false);
    }
    let actives: BTreeSet<StreamsTaskId> = tasks
        .stateful_active
        .union(tasks.stateless_active)
        .copied()
        .collect();
    let mut sticky_failed = false;
    match rule {
        ThreadDistribution::Interleaved => {
            let order = hash_set_iteration(consumers);
            for (slot, &c) in interleave(&actives, order.len()).iter().zip(&order) {
                out[c].active = slot.iter().copied().collect();
            }
            for (slot, &c) in interleave(tasks.standby, order.len()).iter().zip(&order) {
                out[c].standby = slot.iter().copied().collect();
            }
        }
        ThreadDistribution::StickyWithinClient => {
            let sorted = sorted_by_member_id(consumers);
            let any_owned = consumers.iter().any(|c| !c.owned.is_empty());
            let sticky = (!interleave_only && any_owned)
                .then(|| sticky_within_client(consumers, &actives, tasks.owned_elsewhere))
                .flatten();
            sticky_failed = !interleave_only && any_owned && sticky.is_none();
            match sticky {
                Some(lists) => {
                    for (c, list) in lists.into_iter().enumerate() {
                        out[c].active = list;
                    }
                }
                None => {
                    for (slot, &c) in interleave(&actives, sorted.len()).iter().zip(&sorted) {
                        out[c].active = slot.iter().copied().collect();
                    }
                }
            }
            for (slot, &c) in interleave(tasks.standby, sorted.len()).iter().zip(&sorted) {
                out[c].standby = slot.iter().copied().collect();
            }
        }
        ThreadDistribution::StickyBalanced => {
            let sorted = sorted_by_member_id(consumers);
            let prev = previous_by_lag(consumers, lag);
            let active = balanced_pass_2_6(
                hash_set_of(tasks.stateful_active),
                tasks.stateless_active,
                &sorted,
                &prev,
            );
            let standby = balanced_pass_2_6(
                tasks.standby.iter().copied().collect(),
                &BTreeSet::new(),
                &sorted,
                &prev,
            );
            for c in 0..consumers.len() {
                out[c].active = active[c].iter().copied().collect();
                out[c].standby = standby[c].iter().copied().collect();
            }
        }
        ThreadDistribution::StickyBalancedSharedLoad => {
            let sorted = sorted_by_member_id(consumers);
            let prev = previous_by_lag(consumers, lag);
            let mut load = vec![0usize; consumers.len()];
            let stateful = shared_load_pass(
                hash_set_of(tasks.stateful_active),
                Some(&prev),
                &sorted,
                &mut load,
            );
            let standby = shared_load_pass(
                tasks.standby.iter().copied().collect(),
                Some(&prev),
                &sorted,
                &mut load,
            );
            let stateless = shared_load_pass(
                hash_set_of(tasks.stateless_active),
                None,
                &sorted,
                &mut load,
            );
            for c in 0..consumers.len() {
                out[c].active = stateful[c].iter().chain(&stateless[c]).copied().collect();
                out[c].standby = standby[c].iter().copied().collect();
            }
        }
    }
    (out, sticky_failed)
}

/// Consumer indices in member-id order (`SortedSet<String>`, `TreeMap`).
fn sorted_by_member_id(consumers: &[ThreadConsumer<'_>]) -> Vec<usize> {
    crate::sort_by_key::stable_order(consumers.len(), &|a, b| {
        consumers[a].member_id.cmp(consumers[b].member_id)
    })
}

/// Consumer indices in the iteration order of a `new HashSet<String>()` of
/// their member ids, added in member-id order.
fn hash_set_iteration(consumers: &[ThreadConsumer<'_>]) -> Vec<usize> {
    let sorted = sorted_by_member_id(consumers);
    let spread_hash: Vec<u32> = consumers
        .iter()
        .map(|c| spread(string_hash_code(c.member_id)))
        .collect();
    let mut order: Vec<u32> = sorted.iter().map(|&c| c as u32).collect();
    hash_set_order(&mut order, &spread_hash);
    order.into_iter().map(|c| c as usize).collect()
}

/// `tasks` (a sorted set) collected into a `HashSet`, in its iteration order.
fn hash_set_of(tasks: &BTreeSet<StreamsTaskId>) -> Vec<StreamsTaskId> {
    let list: Vec<StreamsTaskId> = tasks.iter().copied().collect();
    let spread_hash: Vec<u32> = list.iter().map(|t| spread(t.java_hash_code())).collect();
    let mut order: Vec<u32> = (0..list.len() as u32).collect();
    hash_set_order(&mut order, &spread_hash);
    order.into_iter().map(|i| list[i as usize]).collect()
}

/// Sorted tasks dealt round-robin into `n` lists.
fn interleave(tasks: &BTreeSet<StreamsTaskId>, n: usize) -> Vec<Vec<StreamsTaskId>> {
    let mut lists = vec![Vec::new(); n];
    for (i, &t) in tasks.iter().enumerate() {
        lists[i % n].push(t);
    }
    lists
}

/// Per consumer, its previous stateful tasks by (lag, `TaskId`)
/// (`ClientState.prevTasksByLag`).
fn previous_by_lag(
    consumers: &[ThreadConsumer<'_>],
    lag: &dyn Fn(StreamsTaskId) -> i64,
) -> Vec<Vec<StreamsTaskId>> {
    consumers
        .iter()
        .map(|c| {
            let mut tasks: Vec<StreamsTaskId> = c.previous.iter().copied().collect();
            crate::sort_by_key::sort_stable_by_key(&mut tasks, |&t| (lag(t), t));
            tasks
        })
        .collect()
}

/// 2.4–2.5's sticky attempt: every active back to the consumer that owned
/// it, at most ⌈tasks / consumers⌉ each, new tasks interleaved over the
/// consumers with room in `HashSet` order; `None` when a task must move
/// (owned by another client, or its owner already has its share).
fn sticky_within_client(
    consumers: &[ThreadConsumer<'_>],
    actives: &BTreeSet<StreamsTaskId>,
    owned_elsewhere: &BTreeSet<StreamsTaskId>,
) -> Option<Vec<BTreeSet<StreamsTaskId>>> {
    let n = consumers.len();
    let max_per_consumer = actives.len().div_ceil(n);
    let mut lists: Vec<BTreeSet<StreamsTaskId>> = vec![BTreeSet::new(); n];
    let mut new_tasks = Vec::new();
    for &t in actives {
        match consumers.iter().position(|c| c.owned.contains(&t)) {
            Some(c) => {
                if lists[c].len() >= max_per_consumer {
                    return None;
                }
                lists[c].insert(t);
            }
            None if owned_elsewhere.contains(&t) => return None,
            None => new_tasks.push(t),
        }
    }
    let mut unfilled: Vec<usize> = hash_set_iteration(consumers)
        .into_iter()
        .filter(|&c| lists[c].len() < max_per_consumer)
        .collect();
    let mut new_tasks = new_tasks.into_iter();
    loop {
        if new_tasks.len() == 0 {
            return Some(lists);
        }
        if unfilled.is_empty() {
            // Kafka throws "Some tasks could not be distributed"; it cannot
            // happen when the quota is a ceiling.
            return None;
        }
        let mut kept = Vec::with_capacity(unfilled.len());
        for c in unfilled {
            let Some(t) = new_tasks.next() else {
                kept.push(c);
                continue;
            };
            lists[c].insert(t);
            if lists[c].len() < max_per_consumer {
                kept.push(c);
            }
        }
        unfilled = kept;
    }
}

/// Removes the first occurrence of `c` (`LinkedList.remove(Object)`).
fn remove_first(queue: &mut VecDeque<usize>, c: usize) {
    if let Some(i) = queue.iter().position(|&x| x == c) {
        queue.remove(i);
    }
}

/// 2.6–3.1's `assignTasksToThreads(stateful, stateless, consumers, state)`.
/// `stateful` is in the iteration order of the collection Kafka builds the
/// queue from.
fn balanced_pass_2_6(
    stateful: Vec<StreamsTaskId>,
    stateless: &BTreeSet<StreamsTaskId>,
    sorted: &[usize],
    prev: &[Vec<StreamsTaskId>],
) -> Vec<Vec<StreamsTaskId>> {
    let n = sorted.len();
    let mut assigned: Vec<Vec<StreamsTaskId>> = vec![Vec::new(); prev.len()];
    let mut stateless = stateless.iter().copied().peekable();
    let min = stateful.len() / n;
    let mut cmp = |a: StreamsTaskId, b: StreamsTaskId| a.cmp(&b);
    let mut queue = JavaPriorityQueue::heapified(stateful, &mut cmp);
    let mut to_fill: VecDeque<usize> = VecDeque::new();
    let mut to_previous_owner: BTreeMap<StreamsTaskId, usize> = BTreeMap::new();
    if !queue.is_empty() {
        for &c in sorted {
            for &t in &prev[c] {
                if queue.contains(t) {
                    if assigned[c].len() < min {
                        assigned[c].push(t);
                        queue.remove(t, &mut cmp);
                    } else {
                        to_previous_owner.insert(t, c);
                    }
                }
            }
            if assigned[c].len() < min {
                to_fill.push_back(c);
            }
        }
        while let Some(c) = to_fill.pop_front() {
            let Some(t) = queue.poll(&mut cmp) else { break };
            assigned[c].push(t);
            if assigned[c].len() < min {
                to_fill.push_back(c);
            }
        }
        if !queue.is_empty() {
            to_fill.extend(sorted.iter().copied());
            for (&t, &c) in &to_previous_owner {
                if to_fill.contains(&c) && queue.contains(t) {
                    assigned[c].push(t);
                    queue.remove(t, &mut cmp);
                    remove_first(&mut to_fill, c);
                }
            }
            for &t in queue.array_order() {
                let c = to_fill.pop_front().unwrap_or(sorted[0]);
                assigned[c].push(t);
            }
            while stateless.peek().is_some() {
                let Some(c) = to_fill.pop_front() else { break };
                if let Some(t) = stateless.next() {
                    assigned[c].push(t);
                }
            }
        }
    }
    to_fill.extend(sorted.iter().copied());
    for t in stateless {
        let c = to_fill.pop_front().unwrap_or(sorted[0]);
        assigned[c].push(t);
        to_fill.push_back(c);
    }
    assigned
}

/// 3.2+'s `assignTasksToThreads(tasks, isStateful, consumers, state,
/// threadLoad)`: one pass, `load` carried over from the previous passes.
/// `prev` is `None` for stateless tasks (no stickiness).
fn shared_load_pass(
    tasks: Vec<StreamsTaskId>,
    prev: Option<&[Vec<StreamsTaskId>]>,
    sorted: &[usize],
    load: &mut [usize],
) -> Vec<Vec<StreamsTaskId>> {
    let n = sorted.len();
    let mut assigned: Vec<Vec<StreamsTaskId>> = vec![Vec::new(); load.len()];
    let total = tasks.len() + load.iter().sum::<usize>();
    let min = total / n;
    let mut cmp = |a: StreamsTaskId, b: StreamsTaskId| a.cmp(&b);
    let mut queue = JavaPriorityQueue::heapified(tasks, &mut cmp);
    let mut to_fill: VecDeque<usize> = VecDeque::new();
    let mut to_previous_owner: BTreeMap<StreamsTaskId, usize> = BTreeMap::new();
    if !queue.is_empty() {
        for &c in sorted {
            let target = min.saturating_sub(load[c]);
            if let Some(prev) = prev {
                for &t in &prev[c] {
                    if queue.contains(t) {
                        if assigned[c].len() < target {
                            assigned[c].push(t);
                            queue.remove(t, &mut cmp);
                        } else {
                            to_previous_owner.insert(t, c);
                        }
                    }
                }
            }
            if assigned[c].len() < target {
                to_fill.push_back(c);
            }
        }
        while let Some(c) = to_fill.pop_front() {
            let Some(t) = queue.poll(&mut cmp) else { break };
            assigned[c].push(t);
            if assigned[c].len() + load[c] < min {
                to_fill.push_back(c);
            }
        }
        if !queue.is_empty() {
            for &c in sorted {
                if assigned[c].len() + load[c] == min {
                    to_fill.push_back(c);
                }
            }
            for (&t, &c) in &to_previous_owner {
                if to_fill.contains(&c) && queue.contains(t) {
                    assigned[c].push(t);
                    queue.remove(t, &mut cmp);
                    remove_first(&mut to_fill, c);
                }
            }
            for &t in queue.array_order() {
                // Kafka has always a consumer at the minimum left here.
                let c = to_fill.pop_front().unwrap_or(sorted[0]);
                assigned[c].push(t);
            }
        }
    }
    for (c, list) in assigned.iter().enumerate() {
        load[c] += list.len();
    }
    assigned
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: u32, p: u32) -> StreamsTaskId {
        StreamsTaskId::new(s, p)
    }

    fn set(tasks: &[StreamsTaskId]) -> BTreeSet<StreamsTaskId> {
        tasks.iter().copied().collect()
    }

    struct Client {
        ids: Vec<String>,
        previous: Vec<BTreeSet<StreamsTaskId>>,
        owned: Vec<BTreeSet<StreamsTaskId>>,
    }

    impl Client {
        fn new(previous: &[&[StreamsTaskId]]) -> Self {
            Self {
                ids: (1..=previous.len())
                    .map(|i| format!("consumer{i}"))
                    .collect(),
                previous: previous.iter().map(|p| set(p)).collect(),
                owned: previous.iter().map(|p| set(p)).collect(),
            }
        }

        fn consumers(&self) -> Vec<ThreadConsumer<'_>> {
            (0..self.ids.len())
                .map(|i| ThreadConsumer {
                    member_id: &self.ids[i],
                    previous: &self.previous[i],
                    owned: &self.owned[i],
                })
                .collect()
        }

        fn assign(
            &self,
            rule: ThreadDistribution,
            stateful: &[StreamsTaskId],
            stateless: &[StreamsTaskId],
            standby: &[StreamsTaskId],
        ) -> Vec<ThreadTasks> {
            let (stateful, stateless, standby) = (set(stateful), set(stateless), set(standby));
            let none = BTreeSet::new();
            let tasks = ClientTasks {
                stateful_active: &stateful,
                stateless_active: &stateless,
                standby: &standby,
                owned_elsewhere: &none,
            };
            assign_tasks_to_threads(rule, &self.consumers(), &tasks, &|_| 0, false).0
        }
    }

    fn eight() -> Vec<StreamsTaskId> {
        vec![
            t(0, 0),
            t(0, 1),
            t(0, 2),
            t(0, 3),
            t(1, 0),
            t(1, 1),
            t(1, 2),
            t(1, 3),
        ]
    }

    /// `StreamsPartitionAssignorTest.shouldInterleaveTasksByGroupIdDuringNewAssignment`.
    #[test]
    fn new_tasks_are_interleaved_by_subtopology() {
        let client = Client::new(&[&[], &[], &[]]);
        let all = [
            t(0, 0),
            t(0, 1),
            t(0, 2),
            t(0, 3),
            t(1, 0),
            t(1, 1),
            t(1, 2),
            t(2, 0),
            t(2, 1),
        ];
        for rule in [
            ThreadDistribution::StickyBalanced,
            ThreadDistribution::StickyBalancedSharedLoad,
        ] {
            let out = client.assign(rule, &all, &[], &[]);
            assert_eq!(out[0].active, set(&[t(0, 0), t(0, 3), t(1, 2)]), "{rule:?}");
            assert_eq!(out[1].active, set(&[t(0, 1), t(1, 0), t(2, 0)]), "{rule:?}");
            assert_eq!(out[2].active, set(&[t(0, 2), t(1, 1), t(2, 1)]), "{rule:?}");
        }
    }

    /// `…shouldProduceStickyAndBalancedAssignmentWhenNothingChanges` and
    /// `…WhenNewTasksAreAdded`.
    #[test]
    fn threads_keep_their_tasks_and_a_new_task_goes_to_the_short_thread() {
        let prev: [&[StreamsTaskId]; 3] = [
            &[t(0, 0), t(1, 1), t(1, 3)],
            &[t(0, 3), t(1, 0)],
            &[t(0, 1), t(0, 2), t(1, 2)],
        ];
        let client = Client::new(&prev);
        for rule in [
            ThreadDistribution::StickyBalanced,
            ThreadDistribution::StickyBalancedSharedLoad,
        ] {
            let out = client.assign(rule, &eight(), &[], &[]);
            for c in 0..3 {
                assert_eq!(out[c].active, set(prev[c]), "{rule:?} consumer {c}");
            }
            let mut more = eight();
            more.push(t(2, 0));
            let out = client.assign(rule, &more, &[], &[]);
            assert_eq!(out[1].active, set(&[t(0, 3), t(1, 0), t(2, 0)]), "{rule:?}");
        }
    }

    /// `…shouldProduceStickyEnoughAssignmentWhenNewMemberJoins`.
    #[test]
    fn a_new_thread_takes_one_task_from_each_fuller_thread() {
        let prev: [&[StreamsTaskId]; 4] = [
            &[t(0, 0), t(1, 1), t(1, 3)],
            &[t(0, 3), t(1, 0)],
            &[t(0, 1), t(0, 2), t(1, 2)],
            &[],
        ];
        let client = Client::new(&prev);
        let out = client.assign(
            ThreadDistribution::StickyBalancedSharedLoad,
            &eight(),
            &[],
            &[],
        );
        assert!(out.iter().all(|c| c.active.len() == 2));
        assert!(out[0].active.is_subset(&set(prev[0])));
        assert!(out[2].active.is_subset(&set(prev[2])));
        assert_eq!(out[1].active, set(prev[1]));
    }

    #[test]
    fn from_3_2_standbys_and_stateless_tasks_fill_the_threads_with_fewer_actives() {
        let client = Client::new(&[&[t(0, 0), t(0, 1)], &[t(0, 2)]]);
        let stateful = [t(0, 0), t(0, 1), t(0, 2)];
        let standby = [t(1, 0)];
        let stateless = [t(2, 0), t(2, 1), t(2, 2)];
        let shared = client.assign(
            ThreadDistribution::StickyBalancedSharedLoad,
            &stateful,
            &stateless,
            &standby,
        );
        let count = |c: &ThreadTasks| c.active.len() + c.standby.len();
        assert_eq!((count(&shared[0]), count(&shared[1])), (4, 3));
        // 2.6–3.1 balances actives and standbys separately.
        let split = client.assign(
            ThreadDistribution::StickyBalanced,
            &stateful,
            &stateless,
            &standby,
        );
        assert_eq!(split[0].active.len() + split[1].active.len(), 6);
        assert_eq!(split[0].active.len(), 3);
        assert_eq!(split[0].standby.len() + split[1].standby.len(), 1);
    }

    #[test]
    fn up_to_2_5_tasks_are_dealt_round_robin_and_2_4_keeps_owners_when_balanced() {
        let client = Client::new(&[&[t(0, 1)], &[t(0, 0)]]);
        let interleaved = client.assign(
            ThreadDistribution::Interleaved,
            &[t(0, 0), t(0, 1)],
            &[],
            &[],
        );
        assert_eq!(interleaved[0].active.len(), 1);
        let sticky = client.assign(
            ThreadDistribution::StickyWithinClient,
            &[t(0, 0), t(0, 1)],
            &[],
            &[],
        );
        assert_eq!(sticky[0].active, set(&[t(0, 1)]));
        assert_eq!(sticky[1].active, set(&[t(0, 0)]));
        // Both tasks on one thread is over its share: interleave by member id.
        let client = Client::new(&[&[t(0, 0), t(0, 1)], &[]]);
        let none = BTreeSet::new();
        let all = set(&[t(0, 0), t(0, 1)]);
        let tasks = ClientTasks {
            stateful_active: &all,
            stateless_active: &none,
            standby: &none,
            owned_elsewhere: &none,
        };
        let (out, failed) = assign_tasks_to_threads(
            ThreadDistribution::StickyWithinClient,
            &client.consumers(),
            &tasks,
            &|_| 0,
            false,
        );
        assert!(failed);
        assert_eq!(out[0].active, set(&[t(0, 0)]));
        assert_eq!(out[1].active, set(&[t(0, 1)]));
    }
}
