//! `HighAvailabilityTaskAssignor` (KIP-441), Kafka Streams' default task
//! assignor since 2.6, with rack awareness off (strategy `none`) and the
//! default, non-tag-aware standby assignor (KIP-441).
//!
//! The algorithm, in Kafka's order:
//! 1. deal the stateful tasks round-robin over the clients, ignoring
//!    history, then `balanceTasksOverThreads` on the actives;
//! 2. place `num.standby.replicas` standbys per stateful task on the least
//!    loaded clients (`DefaultStandbyTaskAssignor`), then balance them;
//! 3. `TaskMovement.assignActiveTaskMovements`: every active placed on a
//!    client that is not caught up moves to a caught-up (or the most
//!    caught-up) client, leaving a warmup behind while the
//!    `max.warmup.replicas` budget lasts;
//! 4. `TaskMovement.assignStandbyTaskMovements`: the same for standbys;
//! 5. stateless tasks go to the client with the lowest *active* load;
//! 6. a probing rebalance is needed iff step 3 or 4 planned any movement.
//!
//! Ties are broken exactly as Kafka's Java collections break them: movements
//! leave their `PriorityQueue` in Java's poll order (see [`super::java`]),
//! and the clients' `ConstrainedPrioritySet` reproduces Java's heap layout,
//! including the out-of-order states a load change can leave behind (see
//! [`super::priority_set`]).
//!
//! Cost. Kafka sorts every client by lag for every stateful task up front
//! (`tasksToClientByLag`), O(tasks × clients log clients); only the head of
//! each order is ever read, so here each task keeps just the clients with a
//! lag below `Long.MAX_VALUE`, sorted, and the rest of the order (clients at
//! `Long.MAX_VALUE`, by `ProcessId`) is derived on demand. The caught-up
//! test is O(1) per client through a per-task mark. Polls of the priority
//! set are answered from the keys while the heap is provably in order. The
//! results are identical.

use std::collections::BTreeSet;

use super::assignment::{AssignmentConfigs, AssignmentError, StreamsAssignment};
use super::client_state::{ClientState, LATEST_OFFSET, NO_STATE_LAG};
use super::ids::StreamsTaskId;
use super::java::JavaPriorityQueue;
use super::model::{Indexed, Load, Placement};
use super::priority_set::ConstrainedPrioritySet;
use super::TaskAssignor;

/// Kafka Streams' `HighAvailabilityTaskAssignor` (KIP-441).
///
/// Deterministic and side-effect free: the same input always gives the
/// same [`StreamsAssignment`], identical to what Kafka's Java class returns
/// (with `rack.aware.assignment.strategy=none` and no
/// `rack.aware.assignment.tags`).
#[derive(Clone, Copy, Debug, Default)]
pub struct HighAvailabilityTaskAssignor;

impl HighAvailabilityTaskAssignor {
    /// Creates the assignor. It keeps no state between assignments.
    pub fn new() -> Self {
        Self
    }
}

impl TaskAssignor for HighAvailabilityTaskAssignor {
    fn assign(
        &self,
        clients: &[ClientState],
        all_tasks: &BTreeSet<StreamsTaskId>,
        stateful_tasks: &BTreeSet<StreamsTaskId>,
        configs: &AssignmentConfigs,
    ) -> Result<StreamsAssignment, AssignmentError> {
        let input = Indexed::new(clients, all_tasks, stateful_tasks)?;
        Ok(assign(&input, configs))
    }
}

fn assign(input: &Indexed<'_>, configs: &AssignmentConfigs) -> StreamsAssignment {
    assign_with(input, configs, false)
}

/// [`assign`], optionally with the literal (reference) priority sets.
fn assign_with(
    input: &Indexed<'_>,
    configs: &AssignmentConfigs,
    literal_sets: bool,
) -> StreamsAssignment {
    let n = input.client_count();
    let mut placement = Placement::new(input.capacities());
    if n == 0 {
        return placement.into_assignment(input, &[], false);
    }
    let stateful = input.stateful_tasks();

    assign_active_stateful_tasks(&mut placement, &stateful);
    assign_standby_replica_tasks(&mut placement, &stateful, configs.num_standby_replicas);

    let lags = LagIndex::new(input, configs.acceptable_recovery_lag);
    let mut movements = Movements {
        placement,
        lags: &lags,
        spread_hashes: input.spread_hashes(),
        // An AtomicInteger in Kafka; `getAndDecrement() > 0` keeps
        // decrementing below zero, which is harmless.
        remaining_warmup_replicas: i64::from(configs.max_warmup_replicas),
        warmups: vec![BTreeSet::new(); n],
        standby_warmups: vec![BTreeSet::new(); n],
        caught_up_mark: vec![0; n],
        mark_stamp: 0,
        literal_sets,
    };
    let needed_active_task_movements = movements.assign_active_task_movements();
    let needed_standby_task_movements = movements.assign_standby_task_movements();

    let Movements {
        mut placement,
        mut warmups,
        standby_warmups,
        ..
    } = movements;
    assign_stateless_active_tasks(&mut placement, &input.stateless_tasks());

    for (warm, kept) in warmups.iter_mut().zip(standby_warmups) {
        warm.extend(kept);
    }
    let probing = needed_active_task_movements + needed_standby_task_movements > 0;
    placement.into_assignment(input, &warmups, probing)
}

/// `assignActiveStatefulTasks`: round-robin over sorted clients, then
/// balance by load.
fn assign_active_stateful_tasks(placement: &mut Placement, stateful: &[u32]) {
    let n = placement.capacity.len();
    for (i, &task) in stateful.iter().enumerate() {
        placement.active[i % n].insert(task);
    }
    balance_tasks_over_threads(placement, Role::Active);
}

/// `assignStandbyReplicaTasks` with the `DefaultStandbyTaskAssignor`: each
/// replica of each stateful task (in task order) goes to the least loaded
/// client that holds no copy of the task yet. Kafka polls a
/// `ConstrainedPrioritySet` whose clients never change load while queued,
/// so its heap stays ordered and a sorted set gives the same choices.
fn assign_standby_replica_tasks(placement: &mut Placement, stateful: &[u32], replicas: u32) {
    if replicas == 0 {
        return;
    }
    let n = placement.capacity.len() as u32;
    // Filled by `extend`, not `collect`: a set's `collect` sorts first, a
    // copy of the standard sort for `(Load, u32)` that the inserts below
    // do not need (one entry per client).
    let mut by_load: BTreeSet<(Load, u32)> = BTreeSet::new();
    by_load.extend((0..n).map(|c| (Load(placement.assigned_load(c)), c)));
    for &task in stateful {
        for _ in 0..replicas {
            let Some(&(load, client)) = by_load
                .iter()
                .find(|&&(_, c)| !placement.has_assigned(c, task))
            else {
                // Kafka logs "Unable to assign … standby tasks" and moves on.
                break;
            };
            by_load.remove(&(load, client));
            placement.standby[client as usize].insert(task);
            by_load.insert((Load(placement.assigned_load(client)), client));
        }
    }
    balance_tasks_over_threads(placement, Role::Standby);
}

/// `assignStatelessActiveTasks`: each stateless task, in order, to the
/// client with the lowest active load (ties by `ProcessId`). Standbys do not
/// count here (`HighAvailabilityTaskAssignor.assignStatelessActiveTasks`).
fn assign_stateless_active_tasks(placement: &mut Placement, stateless: &[u32]) {
    let n = placement.capacity.len() as u32;
    // Filled by `extend`, not `collect`: a set's `collect` sorts first, a
    // copy of the standard sort for `(Load, u32)` that the inserts below
    // do not need (one entry per client).
    let mut by_load: BTreeSet<(Load, u32)> = BTreeSet::new();
    by_load.extend((0..n).map(|c| (Load(placement.active_load(c)), c)));
    for &task in stateless {
        let Some((_, client)) = by_load.pop_first() else {
            return;
        };
        placement.active[client as usize].insert(task);
        by_load.insert((Load(placement.active_load(client)), client));
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Active,
    Standby,
}

/// `balanceTasksOverThreads`: sweep (source, destination) pairs in client
/// order, moving the source's tasks (in task order) while that lowers the
/// per-thread skew, until a full sweep moves nothing.
fn balance_tasks_over_threads(placement: &mut Placement, role: Role) {
    let n = placement.capacity.len() as u32;
    let mut tasks_to_try: Vec<u32> = Vec::new();
    loop {
        let mut moved_any = false;
        for source in 0..n {
            for destination in 0..n {
                if source == destination || !should_move_a_task(placement, source, destination) {
                    continue;
                }
                // Kafka iterates a snapshot (`new TreeSet<>(…)`) of the source's tasks.
                let set = match role {
                    Role::Active => &placement.active[source as usize],
                    Role::Standby => &placement.standby[source as usize],
                };
                tasks_to_try.clear();
                tasks_to_try.extend(set.iter().copied());
                for &task in &tasks_to_try {
                    if !should_move_a_task(placement, source, destination) {
                        break;
                    }
                    if placement.has_assigned(destination, task) {
                        continue;
                    }
                    let (s, d) = (source as usize, destination as usize);
                    match role {
                        Role::Active => {
                            placement.active[s].remove(&task);
                            placement.active[d].insert(task);
                        }
                        Role::Standby => {
                            placement.standby[s].remove(&task);
                            placement.standby[d].insert(task);
                        }
                    }
                    moved_any = true;
                }
            }
        }
        if !moved_any {
            return;
        }
    }
}

/// `shouldMoveATask`, in the same double arithmetic as Kafka.
fn should_move_a_task(placement: &Placement, source: u32, destination: u32) -> bool {
    let skew = placement.assigned_load(source) - placement.assigned_load(destination);
    if skew <= 0.0 {
        return false;
    }
    let at_destination = (placement.assigned_count(destination) as f64 + 1.0)
        / f64::from(placement.capacity[destination as usize]);
    let at_source = (placement.assigned_count(source) as f64 - 1.0)
        / f64::from(placement.capacity[source as usize]);
    let proposed_skew = at_source - at_destination;
    // A negative proposal would only create an imbalance the other way.
    proposed_skew >= 0.0 && proposed_skew < skew
}

/// Per-task lag facts: Kafka's `tasksToCaughtUpClients` and
/// `tasksToClientByLag`, stored sparsely.
struct LagIndex {
    /// `acceptable.recovery.lag == Long.MAX_VALUE`: everyone is caught up.
    unbounded: bool,
    acceptable_recovery_lag: i64,
    client_count: usize,
    /// Per client: (task, lag) for stateful tasks with a lag below
    /// `Long.MAX_VALUE`, sorted by task.
    client_lags: Vec<Vec<(u32, i64)>>,
    /// Per task: (lag, client) for every client whose lag is below
    /// `Long.MAX_VALUE`, sorted. This is the head of Kafka's
    /// `tasksToClientByLag` order; the clients at `Long.MAX_VALUE` follow in
    /// `ProcessId` order.
    by_lag: Vec<Vec<(i64, u32)>>,
    /// Per task: the caught-up clients, in `ProcessId` order (unused when
    /// `unbounded`).
    caught_up: Vec<Vec<u32>>,
}

impl LagIndex {
    fn new(input: &Indexed<'_>, acceptable_recovery_lag: i64) -> Self {
        let unbounded = acceptable_recovery_lag == i64::MAX;
        let tasks = input.tasks.len();
        let mut client_lags = Vec::with_capacity(input.client_count());
        let mut by_lag: Vec<Vec<(i64, u32)>> = vec![Vec::new(); tasks];
        for (c, state) in input.clients.iter().enumerate() {
            let mut lags = Vec::new();
            for (&task, &lag) in &state.lags {
                let Some(t) = input.task_index(task) else {
                    continue;
                };
                if !input.stateful[t as usize] || lag == NO_STATE_LAG {
                    continue;
                }
                lags.push((t, lag));
                by_lag[t as usize].push((lag, c as u32));
            }
            client_lags.push(lags);
        }
        let mut caught_up = vec![Vec::new(); tasks];
        for (t, order) in by_lag.iter_mut().enumerate() {
            crate::sort_by_key::sort_values(order);
            if !unbounded {
                let mut clients: Vec<u32> = order
                    .iter()
                    .filter(|&&(lag, _)| caught_up_lag(lag, acceptable_recovery_lag))
                    .map(|&(_, c)| c)
                    .collect();
                clients.sort_unstable();
                caught_up[t] = clients;
            }
        }
        Self {
            unbounded,
            acceptable_recovery_lag,
            client_count: input.client_count(),
            client_lags,
            by_lag,
            caught_up,
        }
    }

    /// `ClientState.lagFor`.
    fn lag(&self, client: u32, task: u32) -> i64 {
        let lags = &self.client_lags[client as usize];
        match lags.binary_search_by_key(&task, |&(t, _)| t) {
            Ok(i) => lags[i].1,
            Err(_) => NO_STATE_LAG,
        }
    }

    /// Membership in `tasksToCaughtUpClients.get(task)`.
    fn is_caught_up(&self, client: u32, task: u32) -> bool {
        self.unbounded || caught_up_lag(self.lag(client, task), self.acceptable_recovery_lag)
    }

    /// `tasksToCaughtUpClients.get(task).size()`.
    fn num_caught_up(&self, task: u32) -> usize {
        if self.unbounded {
            self.client_count
        } else {
            self.caught_up[task as usize].len()
        }
    }

    /// The lag of `tasksToClientByLag.get(task).first()`.
    fn most_caught_up_lag(&self, task: u32) -> i64 {
        self.by_lag[task as usize]
            .first()
            .map_or(NO_STATE_LAG, |&(lag, _)| lag)
    }

    /// `taskIsNotCaughtUpOnClientAndOtherMoreCaughtUpClientsExist`.
    fn should_move(&self, client: u32, task: u32) -> bool {
        !self.is_caught_up(client, task) && self.most_caught_up_lag(task) < self.lag(client, task)
    }

    /// `mostCaughtUpEligibleClient`: walk clients by (lag, `ProcessId`) and
    /// return the first eligible one, giving up on reaching `destination`.
    fn most_caught_up_eligible_client(
        &self,
        task: u32,
        destination: u32,
        mut eligible: impl FnMut(u32) -> bool,
    ) -> Option<u32> {
        let head = &self.by_lag[task as usize];
        for &(_, client) in head {
            if client == destination {
                return None;
            }
            if eligible(client) {
                return Some(client);
            }
        }
        // The rest of the order: clients at Long.MAX_VALUE, by ProcessId.
        let at_max = (0..self.client_count as u32).filter(|&c| self.lag(c, task) == NO_STATE_LAG);
        for client in at_max {
            if client == destination {
                return None;
            }
            if eligible(client) {
                return Some(client);
            }
        }
        None
    }
}

/// `activeRunning(lag) || acceptable(acceptableRecoveryLag, lag)`.
fn caught_up_lag(lag: i64, acceptable_recovery_lag: i64) -> bool {
    lag == LATEST_OFFSET || (lag >= 0 && lag <= acceptable_recovery_lag)
}

/// Kafka's `TaskMovement`: a task placed on `destination`, which is not
/// caught up, to be moved to a more caught-up client.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct TaskMovement {
    task: u32,
    destination: u32,
    num_caught_up_clients: usize,
}

/// The movement queue's comparator: fewest caught-up clients first, then task.
fn movement_order(a: TaskMovement, b: TaskMovement) -> std::cmp::Ordering {
    a.num_caught_up_clients
        .cmp(&b.num_caught_up_clients)
        .then(a.task.cmp(&b.task))
}

/// The state of `TaskMovement`'s two phases.
struct Movements<'a> {
    placement: Placement,
    lags: &'a LagIndex,
    spread_hashes: Vec<u32>,
    remaining_warmup_replicas: i64,
    /// Kafka's `warmups` map: warmups left on the destination of an active
    /// movement. The standby phase does not move them.
    warmups: Vec<BTreeSet<u32>>,
    /// Copies kept on the destination of a standby movement while the warmup
    /// budget lasts. Kafka does not record them separately; they are
    /// warmups all the same.
    standby_warmups: Vec<BTreeSet<u32>>,
    /// `caught_up_mark[c] == mark_stamp` iff `c` is caught up on the task
    /// being moved: an O(1) form of the set's caught-up constraint.
    caught_up_mark: Vec<u32>,
    mark_stamp: u32,
    /// Use the literal reference sets (differential tests).
    literal_sets: bool,
}

impl<'a> Movements<'a> {
    fn mark_caught_up(&mut self, task: u32) {
        self.mark_stamp += 1;
        let stamp = self.mark_stamp;
        if self.lags.unbounded {
            self.caught_up_mark.fill(stamp);
        } else {
            for &c in &self.lags.caught_up[task as usize] {
                self.caught_up_mark[c as usize] = stamp;
            }
        }
    }

    fn is_marked(&self, client: u32) -> bool {
        self.caught_up_mark[client as usize] == self.mark_stamp
    }

    /// The clients caught up on `task`: every valid answer of the movement
    /// polls is among them.
    fn caught_up_clients(&self, task: u32) -> impl Iterator<Item = u32> + 'a {
        let lags: &'a LagIndex = self.lags;
        let (everyone, listed) = if lags.unbounded {
            (0..lags.client_count as u32, &[][..])
        } else {
            (0..0, &lags.caught_up[task as usize][..])
        };
        everyone.chain(listed.iter().copied())
    }

    fn new_priority_set(&self) -> ConstrainedPrioritySet {
        if self.literal_sets {
            ConstrainedPrioritySet::literal_only(self.spread_hashes.clone())
        } else {
            ConstrainedPrioritySet::new(self.spread_hashes.clone())
        }
    }

    fn offer(&self, set: &mut ConstrainedPrioritySet, client: u32) {
        set.offer(client, self.placement.assigned_load(client));
    }

    /// After a movement: `offerAll(asList(source, destination))` with both
    /// clients' new loads.
    fn reoffer(&self, set: &mut ConstrainedPrioritySet, source: u32, destination: u32) {
        set.reoffer(
            source,
            self.placement.assigned_load(source),
            destination,
            self.placement.assigned_load(destination),
        );
    }

    fn take_warmup(&mut self) -> bool {
        let granted = self.remaining_warmup_replicas > 0;
        self.remaining_warmup_replicas -= 1;
        granted
    }

    /// `assignActiveTaskMovements`; returns the number of movements needed.
    fn assign_active_task_movements(&mut self) -> usize {
        let n = self.placement.capacity.len() as u32;
        let mut set = self.new_priority_set();
        let mut task_movements = JavaPriorityQueue::new();
        for client in 0..n {
            for &task in &self.placement.active[client as usize] {
                if self.lags.should_move(client, task) {
                    let movement = TaskMovement {
                        task,
                        destination: client,
                        num_caught_up_clients: self.lags.num_caught_up(task),
                    };
                    task_movements.offer(movement, &mut movement_order);
                }
            }
            self.offer(&mut set, client);
        }

        let movements_needed = task_movements.len();
        while let Some(movement) = task_movements.poll(&mut movement_order) {
            let TaskMovement {
                task, destination, ..
            } = movement;
            self.mark_caught_up(task);
            // 1. A caught-up client holding a standby takes over; no warmup.
            let standby_holder = set.poll(self.caught_up_clients(task), |c| {
                self.is_marked(c) && self.placement.has_standby(c, task)
            });
            if let Some(source) = standby_holder {
                self.swap_standby_and_active(task, source, destination);
                self.reoffer(&mut set, source, destination);
                continue;
            }
            // 2. Any caught-up client takes over; the destination warms up.
            let caught_up = set.poll(self.caught_up_clients(task), |c| self.is_marked(c));
            if let Some(source) = caught_up {
                self.move_active_and_try_to_warm_up(task, source, destination);
                self.reoffer(&mut set, source, destination);
                continue;
            }
            // 3. (3.3+, KAFKA-13600) Nobody is caught up: the most caught-up
            // client takes over. A movement exists only if one is strictly
            // more caught up than the destination, so this always finds one.
            let Some(source) = self
                .lags
                .most_caught_up_eligible_client(task, destination, |_| true)
            else {
                continue;
            };
            if self.placement.has_standby(source, task) {
                self.swap_standby_and_active(task, source, destination);
            } else {
                self.move_active_and_try_to_warm_up(task, source, destination);
            }
            self.reoffer(&mut set, source, destination);
        }
        movements_needed
    }

    /// `assignStandbyTaskMovements`; returns the number of movements that
    /// found a more caught-up client.
    fn assign_standby_task_movements(&mut self) -> usize {
        let n = self.placement.capacity.len() as u32;
        let mut set = self.new_priority_set();
        let mut task_movements = JavaPriorityQueue::new();
        for client in 0..n {
            for &task in &self.placement.standby[client as usize] {
                // Warmups planned by the active phase stay where they are.
                if self.warmups[client as usize].contains(&task) {
                    continue;
                }
                if self.lags.should_move(client, task) {
                    let movement = TaskMovement {
                        task,
                        destination: client,
                        num_caught_up_clients: self.lags.num_caught_up(task),
                    };
                    task_movements.offer(movement, &mut movement_order);
                }
            }
            self.offer(&mut set, client);
        }

        let mut movements_needed = 0;
        while let Some(movement) = task_movements.poll(&mut movement_order) {
            let TaskMovement {
                task, destination, ..
            } = movement;
            self.mark_caught_up(task);
            let placement = &self.placement;
            let eligible = |c: u32| !placement.has_assigned(c, task);
            let mut source = set.poll(self.caught_up_clients(task), |c| {
                self.is_marked(c) && eligible(c)
            });
            if source.is_none() {
                source = self
                    .lags
                    .most_caught_up_eligible_client(task, destination, eligible);
            }
            // Without a source there is nowhere to move the standby to.
            let Some(source) = source else {
                continue;
            };
            self.placement.standby[source as usize].insert(task);
            if self.take_warmup() {
                // The destination keeps its copy as a warmup.
                self.standby_warmups[destination as usize].insert(task);
            } else {
                self.placement.standby[destination as usize].remove(&task);
            }
            self.reoffer(&mut set, source, destination);
            movements_needed += 1;
        }
        movements_needed
    }

    /// `moveActiveAndTryToWarmUp`.
    fn move_active_and_try_to_warm_up(&mut self, task: u32, source: u32, destination: u32) {
        self.placement.active[source as usize].insert(task);
        self.placement.active[destination as usize].remove(&task);
        if self.take_warmup() {
            self.placement.standby[destination as usize].insert(task);
            self.warmups[destination as usize].insert(task);
        }
    }

    /// `swapStandbyAndActive`: the source's standby becomes active and the
    /// destination keeps a (hot) standby. No warmup budget is used.
    fn swap_standby_and_active(&mut self, task: u32, source: u32, destination: u32) {
        self.placement.standby[source as usize].remove(&task);
        self.placement.active[source as usize].insert(task);
        self.placement.active[destination as usize].remove(&task);
        self.placement.standby[destination as usize].insert(task);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streams::client_state::LATEST_OFFSET;
    use crate::streams::ids::ProcessId;

    use crate::test_rng::SplitMix64;

    /// Random inputs in the shape of the conformance vectors (and larger):
    /// the lazy priority sets must give exactly what literal ones give.
    #[test]
    fn lazy_sets_match_literal_sets() {
        for seed in 0..400 {
            let mut rng = SplitMix64::new(seed);
            let big = seed % 4 == 0;
            let n = 1 + rng.below(if big { 40 } else { 6 });
            let subtopologies = 1 + rng.below(3) as u32;
            let mut all = BTreeSet::new();
            let mut stateful = BTreeSet::new();
            for s in 0..subtopologies {
                let is_stateful = rng.below(3) != 0;
                for p in 0..1 + rng.below(if big { 30 } else { 6 }) as u32 {
                    all.insert(StreamsTaskId::new(s, p));
                    if is_stateful {
                        stateful.insert(StreamsTaskId::new(s, p));
                    }
                }
            }
            let clients: Vec<ClientState> = (0..n)
                .map(|i| {
                    let id = if rng.below(2) == 0 {
                        ProcessId::from_position(i as i64)
                    } else {
                        ProcessId::new(rng.next() as i64, rng.next() as i64)
                    };
                    let lags: Vec<(StreamsTaskId, i64)> = stateful
                        .iter()
                        .map(|&t| {
                            let lag = match rng.below(5) {
                                0 => LATEST_OFFSET,
                                1 => i64::MAX,
                                2 => rng.below(200) as i64,
                                _ => rng.below(100_000) as i64,
                            };
                            (t, lag)
                        })
                        .collect();
                    ClientState::new(id, 1 + rng.below(4) as u32).with_lags(lags)
                })
                .collect();
            let configs = AssignmentConfigs {
                acceptable_recovery_lag: [0, 100, 10_000][rng.below(3) as usize],
                max_warmup_replicas: 1 + rng.below(3) as u32,
                num_standby_replicas: rng.below(3) as u32,
                probing_rebalance_interval_ms: 600_000,
            };
            let input = Indexed::new(&clients, &all, &stateful).unwrap();
            assert_eq!(
                assign_with(&input, &configs, false),
                assign_with(&input, &configs, true),
                "seed {seed}"
            );
        }
    }
}
