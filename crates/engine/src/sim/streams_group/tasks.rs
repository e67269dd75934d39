//! A stream thread's tasks on the timeline and their restoration, with the
//! changelog and local-state arithmetic of the classic simulator
//! (`sim::streams::local_state`): a new active initialises, restores its
//! changelog up to the end offset it saw then runs; a standby follows its
//! changelog; a stopped copy leaves a checkpoint. The state updater restores
//! (always on for the streams protocol's releases here), so a thread keeps
//! processing its running tasks meanwhile; its standbys wait while one of its
//! actives restores. A thread that is blocked, or whose group is not ready
//! (`ASSIGNMENT_DELAYED`, 4.2+), does not process.

use std::collections::{BTreeMap, BTreeSet};

use super::events::Ev;
use super::{StreamsGroupSimulation, TaskPhase, Th};
use crate::sim::driver::Simulation;
use crate::sim::streams::local_state::{share_restore_rate, LocalState};
use crate::trace::ItemState;

impl StreamsGroupSimulation {
    pub(super) fn set_copies(&mut self, lane: u32, tasks: &[u32], state: ItemState) {
        self.touched.extend(tasks.iter().copied());
        self.recorder
            .timeline
            .split_off(lane, tasks, state, &mut self.recorder.pool);
    }

    fn place_copies(&mut self, lane: u32, state: ItemState, tasks: Vec<u32>) {
        self.touched.extend(tasks.iter().copied());
        self.recorder
            .timeline
            .place(lane, state, tasks, None, &mut self.recorder.pool);
    }

    /// `t`'s copy on `lane` ends; its state becomes a checkpoint.
    pub(super) fn end_copy(&mut self, lane: u32, t: u32) {
        self.touched.insert(t);
        self.recorder
            .timeline
            .remove_copy(t, lane, &mut self.recorder.pool);
        if !self.tasks.stateful[t as usize] {
            return;
        }
        let now = self.driver.now();
        let log = self.tasks.logs[t as usize];
        let l = &mut self.lanes[lane as usize];
        if let Some(s) = l.local.get(&t).copied() {
            let offset = s.offset(log, now);
            if let LocalState::Catching { from, .. } | LocalState::Following { from } = s {
                self.records_restored += offset.saturating_sub(from);
            }
            l.local.insert(t, LocalState::Idle { offset, since: now });
        }
    }

    fn local_offset(&self, lane: u32, t: u32) -> u64 {
        let now = self.driver.now();
        self.lanes[lane as usize]
            .local
            .get(&t)
            .map_or(0, |s| s.offset(self.tasks.logs[t as usize], now))
    }

    pub(super) fn start_standby(&mut self, th: Th, t: u32) {
        self.place_copies(th.lane, ItemState::Standby, vec![t]);
        if let Some(x) = self.thread_mut(th) {
            x.standby.insert(t);
        }
        if self.tasks.stateful[t as usize] {
            let from = self.local_offset(th.lane, t);
            let since = self.driver.now();
            self.lanes[th.lane as usize].local.insert(
                t,
                LocalState::Catching {
                    from,
                    since,
                    rate: 0,
                    target: None,
                },
            );
        }
        self.replan_restore(th);
    }

    pub(super) fn start_actives(&mut self, th: Th, tasks: Vec<u32>) {
        if tasks.is_empty() {
            return;
        }
        let token = self.next_token();
        if let Some(x) = self.thread_mut(th) {
            for &t in &tasks {
                x.active.insert(t, (TaskPhase::Initializing, token));
            }
        }
        self.place_copies(th.lane, ItemState::Starting, tasks.clone());
        let at = self.driver.now() + u64::from(self.timings.task_init_ms);
        self.schedule(at, Ev::Initialized { th, tasks, token });
    }

    pub(super) fn on_initialized(&mut self, th: Th, tasks: Vec<u32>, token: u64) {
        let Some(x) = self.thread(th) else {
            return;
        };
        if let Some(until) = x.blocked_until {
            self.schedule(until, Ev::Initialized { th, tasks, token });
            return;
        }
        let now = self.driver.now();
        for t in tasks {
            if self.thread(th).and_then(|x| x.active.get(&t))
                != Some(&(TaskPhase::Initializing, token))
            {
                continue;
            }
            let mut phase = TaskPhase::Running;
            if self.tasks.stateful[t as usize] {
                let end = self.tasks.logs[t as usize].end(now);
                let from = self.local_offset(th.lane, t);
                let state = if end > from {
                    phase = TaskPhase::Restoring;
                    LocalState::Catching {
                        from,
                        since: now,
                        rate: 0,
                        target: Some(end),
                    }
                } else {
                    LocalState::Current
                };
                self.lanes[th.lane as usize].local.insert(t, state);
            }
            if let Some(x) = self.thread_mut(th) {
                x.active.insert(t, (phase, token));
            }
        }
        self.replan_restore(th);
        self.show(th);
    }

    /// Re-plans `th`'s restoration now: folds progress, moves actives that
    /// reached their end offset to running and standbys at the log end to
    /// following it, shares the rate and schedules the next completion.
    pub(super) fn replan_restore(&mut self, th: Th) {
        let now = self.driver.now();
        let rate = u64::from(self.timings.restore_records_per_sec);
        let Some(x) = self.thread(th) else {
            return;
        };
        let restoring: Vec<u32> = x
            .active
            .iter()
            .filter(|(_, a)| a.0 == TaskPhase::Restoring)
            .map(|(&t, _)| t)
            .collect();
        let followers: Vec<u32> = x
            .standby
            .iter()
            .copied()
            .filter(|&t| self.tasks.stateful[t as usize])
            .collect();
        if self.frozen_until(th).is_some() {
            // A paused JVM reads nothing; the resume re-plans.
            for &t in restoring.iter().chain(&followers) {
                self.fold(th.lane, t, 0);
            }
            let token = self.next_token();
            if let Some(x) = self.thread_mut(th) {
                x.restore_token = token;
            }
            return;
        }
        let mut still = Vec::new();
        let mut done = false;
        for &t in &restoring {
            let log = self.tasks.logs[t as usize];
            match self.lanes[th.lane as usize].local.get(&t).copied() {
                Some(s @ LocalState::Catching { .. }) if !s.reached(log, now) => still.push(t),
                s => {
                    if let Some(s @ LocalState::Catching { from, .. }) = s {
                        self.records_restored += s.offset(log, now).saturating_sub(from);
                    }
                    self.lanes[th.lane as usize]
                        .local
                        .insert(t, LocalState::Current);
                    if let Some(x) = self.thread_mut(th) {
                        if let Some(a) = x.active.get_mut(&t) {
                            a.0 = TaskPhase::Running;
                        }
                    }
                    done = true;
                }
            }
        }
        let demands: Vec<Option<u64>> = followers
            .iter()
            .map(|&t| {
                let log = self.tasks.logs[t as usize];
                match self.lanes[th.lane as usize].local.get(&t) {
                    Some(s) if s.reached(log, now) => Some(log.records_per_sec),
                    _ => None,
                }
            })
            .collect();
        let active_shares = share_restore_rate(rate, &vec![None; still.len()]);
        let follower_shares = if still.is_empty() {
            share_restore_rate(rate, &demands)
        } else {
            vec![0; followers.len()]
        };
        for (&t, &share) in still.iter().zip(&active_shares) {
            self.fold(th.lane, t, share);
        }
        for ((&t, &share), demand) in followers.iter().zip(&follower_shares).zip(&demands) {
            self.fold(th.lane, t, share);
            if demand.is_some_and(|d| share >= d) {
                let from = self.tasks.logs[t as usize].end(now);
                self.lanes[th.lane as usize]
                    .local
                    .insert(t, LocalState::Following { from });
            }
        }
        let next = still
            .iter()
            .chain(&followers)
            .filter_map(|&t| {
                let log = self.tasks.logs[t as usize];
                self.lanes[th.lane as usize]
                    .local
                    .get(&t)?
                    .reaches_at(log, now)
            })
            .filter(|&at| at > now)
            .min();
        let token = self.next_token();
        if let Some(x) = self.thread_mut(th) {
            x.restore_token = token;
        }
        if let Some(at) = next {
            self.schedule(at, Ev::RestoreTick { th, token });
        }
        if done {
            self.show(th);
        }
    }

    fn fold(&mut self, lane: u32, t: u32, rate: u64) {
        let now = self.driver.now();
        let log = self.tasks.logs[t as usize];
        let l = &mut self.lanes[lane as usize];
        let Some(s) = l.local.get(&t).copied() else {
            return;
        };
        let (from, target) = match s {
            LocalState::Catching { from, target, .. } => (from, target),
            LocalState::Following { from } => (from, None),
            _ => return,
        };
        let offset = s.offset(log, now);
        self.records_restored += offset.saturating_sub(from);
        l.local.insert(
            t,
            LocalState::Catching {
                from: offset,
                since: now,
                rate,
                target,
            },
        );
    }

    /// Brings `th`'s actives on the timeline into the state the thread is in:
    /// paused (`frozen`) while its JVM is paused, it is blocked or its group
    /// is not ready; a zombie while it runs on after being fenced unawares.
    pub(super) fn show(&mut self, th: Th) {
        let Some(x) = self.thread(th) else {
            return;
        };
        let frozen = self.frozen_until(th).is_some();
        let paused = x.blocked_until.is_some() || !x.ready;
        let mut by_state: BTreeMap<ItemState, Vec<u32>> = BTreeMap::new();
        for (&t, &(phase, _)) in &x.active {
            let want = match phase {
                _ if frozen => ItemState::Frozen,
                TaskPhase::Initializing => ItemState::Starting,
                TaskPhase::Restoring => ItemState::Restoring,
                TaskPhase::Running if paused => ItemState::Frozen,
                TaskPhase::Running if x.zombie => ItemState::Zombie,
                TaskPhase::Running => ItemState::Running,
            };
            let now_state = self.recorder.timeline.state_on(t, th.lane);
            if now_state != Some(want) && now_state != Some(ItemState::Stopping) {
                by_state.entry(want).or_default().push(t);
            }
        }
        for (state, tasks) in by_state {
            self.set_copies(th.lane, &tasks, state);
        }
    }

    /// After each event: a changelog grows exactly while its task's active
    /// runs somewhere; the standbys that follow a task whose processing
    /// started or stopped are re-planned.
    pub(super) fn settle_processing(&mut self) {
        for _ in 0..8 {
            if self.touched.is_empty() {
                return;
            }
            let touched = std::mem::take(&mut self.touched);
            let now = self.driver.now();
            let mut followers: BTreeSet<Th> = BTreeSet::new();
            for t in touched {
                if !self.tasks.stateful[t as usize] {
                    continue;
                }
                let processing = self
                    .recorder
                    .timeline
                    .copies(t)
                    .iter()
                    .any(|&(_, s)| s.is_running());
                let log = &mut self.tasks.logs[t as usize];
                if log.since.is_some() == processing {
                    continue;
                }
                log.set_processing(processing, now);
                for th in self.all_threads() {
                    if self.thread(th).is_some_and(|x| x.standby.contains(&t)) {
                        followers.insert(th);
                    }
                }
            }
            for th in followers {
                self.replan_restore(th);
            }
        }
    }
}
