//! Task state on a stream thread: actives initialise, restore their
//! changelog up to its end offset at registration and run; standbys and
//! warmups follow their changelog; a stopped copy leaves a checkpoint.
//!
//! Restoration runs per thread: one restore consumer per `StreamThread`
//! (`StoreChangelogReader`) reads for every copy the thread restores, so
//! they share `restore_records_per_sec`. While an active restores, the
//! thread's standbys are paused (`ACTIVE_RESTORING`), and resume once all
//! actives run (`transitToUpdateStandby`). From 3.8 a state updater thread
//! per stream thread does this (`DefaultStateUpdater`, KAFKA-10199): the
//! stream thread keeps processing its running tasks, and a blocked stream
//! thread's restoration goes on. Before, the stream thread restores between
//! polls: it processes nothing while one of its actives initialises or
//! restores (`StreamThread.runOnce` processes only in `RUNNING`), and a
//! blocked thread restores nothing.

use super::events::Ev;
use super::local_state::{share_restore_rate, LocalState};
use super::member::{TaskPhase, Th};
use super::StreamsSimulation;
use crate::sim::driver::Simulation;
use crate::trace::ItemState;

/// A copy kept beside an active elsewhere: a warmup replica (KIP-441) or a
/// standby.
pub(super) fn standby_copy_state(warm: bool) -> ItemState {
    if warm {
        ItemState::Warmup
    } else {
        ItemState::Standby
    }
}

impl StreamsSimulation {
    /// The offset the instance has on disk for `t` now (0 without state).
    fn local_offset(&self, lane: u32, t: u32) -> u64 {
        let now = self.driver.now();
        let l = &self.lanes[lane as usize];
        let (cleanup, started) = (l.config.state_cleanup_delay_ms, l.started_ms);
        match l.local.get(&t) {
            Some(s) if !s.cleaned(cleanup, started, now) => {
                s.offset(self.topology.logs[t as usize], now)
            }
            _ => 0,
        }
    }

    /// A standby or warmup starts following its changelog on `th`.
    pub(super) fn start_standby_copy(&mut self, th: Th, t: u32, warm: bool) {
        let state = standby_copy_state(warm);
        self.place_copies(th.lane, state, vec![t]);
        if let Some(thread) = self.thread_mut(th) {
            thread.standby.insert(t, warm);
        }
        if self.topology.stateful[t as usize] {
            let from = self.local_offset(th.lane, t);
            let now = self.driver.now();
            self.lanes[th.lane as usize].local.insert(
                t,
                LocalState::Catching {
                    from,
                    since: now,
                    rate: 0,
                    target: None,
                },
            );
        }
        self.replan_restore(th);
    }

    /// Folds a local state into a checkpoint when its copy stops, counting
    /// the records it restored.
    pub(super) fn settle_local(&mut self, lane: u32, t: u32) {
        if !self.topology.stateful[t as usize] {
            return;
        }
        let now = self.driver.now();
        let log = self.topology.logs[t as usize];
        let l = &mut self.lanes[lane as usize];
        if let Some(s) = l.local.get(&t).copied() {
            let offset = s.offset(log, now);
            if let LocalState::Catching { from, .. } | LocalState::Following { from } = s {
                self.records_restored += offset.saturating_sub(from);
            }
            l.local.insert(t, LocalState::Idle { offset, since: now });
        }
    }

    /// Ends thread `th`'s copy of `t` on the timeline and leaves a checkpoint.
    pub(super) fn end_copy(&mut self, th: Th, t: u32) {
        self.remove_copy(t, th.lane);
        self.settle_local(th.lane, t);
    }

    /// Creates the actives `tasks` on `th` (they initialise for
    /// `task_init_ms`); a task whose directory a sibling thread still holds
    /// waits for it.
    pub(super) fn start_actives(&mut self, th: Th, tasks: Vec<u32>) {
        let mut now_tasks = Vec::new();
        for t in tasks {
            let sibling = self.proc_of(th.lane, th.inc).and_then(|p| p.holder(t));
            if sibling.is_some_and(|s| s != th.thread) {
                if let Some(thread) = self.thread_mut(th) {
                    thread.waiting.insert(t, super::member::Waiting::Active);
                }
                continue;
            }
            // A standby copy on this thread is recycled into the active
            // (`TaskManager.handleAssignment`).
            if self
                .thread_of(th)
                .is_some_and(|x| x.standby.contains_key(&t))
            {
                if let Some(thread) = self.thread_mut(th) {
                    thread.standby.remove(&t);
                }
                self.end_copy(th, t);
            }
            now_tasks.push(t);
        }
        if now_tasks.is_empty() {
            return;
        }
        let token = self.next_token();
        if let Some(thread) = self.thread_mut(th) {
            for &t in &now_tasks {
                thread.active.insert(t, (TaskPhase::Initializing, token));
            }
        }
        self.place_copies(th.lane, ItemState::Starting, now_tasks.clone());
        self.replan_restore(th);
        self.show(th);
        let at = self.driver.now() + u64::from(self.timings.task_init_ms);
        self.schedule(
            at,
            Ev::Initialized {
                th,
                tasks: now_tasks,
                token,
            },
        );
    }

    /// A sibling thread released `t`: a thread waiting for its directory
    /// creates the task now.
    pub(super) fn wake_waiting(&mut self, lane: u32, inc: u32, t: u32) {
        let Some(p) = self.proc_of(lane, inc) else {
            return;
        };
        if p.holder(t).is_some() {
            return;
        }
        let Some((thread, w)) = p
            .threads
            .iter()
            .enumerate()
            .find_map(|(i, x)| x.waiting.get(&t).map(|&w| (i as u32, w)))
        else {
            return;
        };
        let th = Th { lane, inc, thread };
        if let Some(x) = self.thread_mut(th) {
            x.waiting.remove(&t);
        }
        match w {
            super::member::Waiting::Active => self.start_actives(th, vec![t]),
            super::member::Waiting::Standby(warm) => self.start_standby_copy(th, t, warm),
        }
    }

    pub(super) fn on_initialized(&mut self, th: Th, tasks: Vec<u32>, token: u64) {
        let Some(p) = self.proc_of(th.lane, th.inc) else {
            return;
        };
        if let Some(until) = p.free_at(th.thread) {
            // Frozen or blocked: the stream thread initialises when free.
            self.schedule(until, Ev::Initialized { th, tasks, token });
            return;
        }
        if self.thread_of(th).is_some_and(|x| x.out_of_group) {
            // Removed from the group: these tasks are about to be lost.
            return;
        }
        let now = self.driver.now();
        for t in tasks {
            if self.thread_of(th).and_then(|x| x.active.get(&t))
                != Some(&(TaskPhase::Initializing, token))
            {
                continue;
            }
            let phase = if self.topology.stateful[t as usize] {
                let log = self.topology.logs[t as usize];
                let end = log.end(now);
                let from = self.local_offset(th.lane, t);
                if end > from {
                    // Restore up to the end offset at registration, then process.
                    self.lanes[th.lane as usize].local.insert(
                        t,
                        LocalState::Catching {
                            from,
                            since: now,
                            rate: 0,
                            target: Some(end),
                        },
                    );
                    TaskPhase::Restoring
                } else {
                    self.lanes[th.lane as usize]
                        .local
                        .insert(t, LocalState::Current);
                    TaskPhase::Running
                }
            } else {
                TaskPhase::Running
            };
            if let Some(x) = self.thread_mut(th) {
                x.active.insert(t, (phase, token));
            }
        }
        self.replan_restore(th);
        self.show(th);
    }

    /// Re-plans `th`'s restoration at the current time: folds every copy's
    /// progress, moves actives that reached their end offset to RUNNING and
    /// standbys that reached the log end to following it, shares the
    /// thread's restore rate among what is left and schedules the next
    /// moment a copy is done.
    pub(super) fn replan_restore(&mut self, th: Th) {
        let now = self.driver.now();
        let rate = u64::from(self.timings.restore_records_per_sec);
        let Some(p) = self.proc_of(th.lane, th.inc) else {
            return;
        };
        let Some(thread) = p.threads.get(th.thread as usize) else {
            return;
        };
        let blocked = thread.blocked_until.is_some();
        let frozen = p.frozen_until.is_some();
        let restores = !frozen && (p.state_updater || !blocked);
        let restoring: Vec<u32> = thread
            .active
            .iter()
            .filter(|(_, a)| a.0 == TaskPhase::Restoring)
            .map(|(&t, _)| t)
            .collect();
        let catching = |t: &u32| {
            matches!(
                self.lanes[th.lane as usize].local.get(t),
                Some(LocalState::Catching { .. } | LocalState::Following { .. })
            )
        };
        let followers: Vec<u32> = thread
            .standby
            .keys()
            .copied()
            .filter(|t| !thread.active.contains_key(t) && catching(t))
            .collect();
        // A restoring active being revoked stops reading.
        let stopped: Vec<u32> = thread
            .active
            .iter()
            .filter(|(t, a)| a.0 == TaskPhase::Revoking && catching(t))
            .map(|(&t, _)| t)
            .collect();
        for &t in &stopped {
            self.fold(th.lane, t, 0);
        }
        // Fold what each copy restored so far; finish what is done.
        let mut still_restoring = Vec::new();
        let mut done = Vec::new();
        for &t in &restoring {
            let log = self.topology.logs[t as usize];
            let s = self.lanes[th.lane as usize].local.get(&t).copied();
            match s {
                Some(s @ LocalState::Catching { .. }) if s.reached(log, now) => {
                    if blocked || frozen {
                        // Restored, but only the stream thread moves it to RUNNING.
                        self.fold(th.lane, t, 0);
                    } else {
                        done.push(t);
                    }
                }
                Some(LocalState::Catching { .. }) => still_restoring.push(t),
                _ => done.push(t),
            }
        }
        for &t in &done {
            self.settle_restored(th, t);
        }
        let demands: Vec<Option<u64>> = followers
            .iter()
            .map(|&t| {
                let log = self.topology.logs[t as usize];
                let s = self.lanes[th.lane as usize].local.get(&t).copied();
                match s {
                    Some(s) if s.reached(log, now) => Some(log.records_per_sec),
                    _ => None,
                }
            })
            .collect();
        let active_shares = if restores {
            share_restore_rate(rate, &vec![None; still_restoring.len()])
        } else {
            vec![0; still_restoring.len()]
        };
        let follower_shares = if restores && still_restoring.is_empty() {
            share_restore_rate(rate, &demands)
        } else {
            vec![0; followers.len()]
        };
        for (&t, &share) in still_restoring.iter().zip(&active_shares) {
            self.fold(th.lane, t, share);
        }
        for ((&t, &share), demand) in followers.iter().zip(&follower_shares).zip(&demands) {
            let log = self.topology.logs[t as usize];
            match demand {
                Some(d) if share >= *d => {
                    self.fold(th.lane, t, share);
                    let from = log.end(now);
                    self.lanes[th.lane as usize]
                        .local
                        .insert(t, LocalState::Following { from });
                }
                _ => self.fold(th.lane, t, share),
            }
        }
        // The next moment a copy reaches its end.
        let next = still_restoring
            .iter()
            .chain(&followers)
            .filter_map(|&t| {
                let log = self.topology.logs[t as usize];
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
        if !done.is_empty() {
            self.show(th);
        }
    }

    /// Folds a copy's progress up to now into `from` and continues at
    /// `rate` (a following standby becomes a catching one from the log end).
    fn fold(&mut self, lane: u32, t: u32, rate: u64) {
        let now = self.driver.now();
        let log = self.topology.logs[t as usize];
        let l = &mut self.lanes[lane as usize];
        let Some(s) = l.local.get(&t).copied() else {
            return;
        };
        let offset = s.offset(log, now);
        let (from, target) = match s {
            LocalState::Catching { from, target, .. } => (from, target),
            LocalState::Following { from } => (from, None),
            _ => return,
        };
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

    /// A restoring active reached its end offset: it runs.
    fn settle_restored(&mut self, th: Th, t: u32) {
        let now = self.driver.now();
        let log = self.topology.logs[t as usize];
        let l = &mut self.lanes[th.lane as usize];
        if let Some(s @ LocalState::Catching { from, .. }) = l.local.get(&t).copied() {
            self.records_restored += s.offset(log, now).saturating_sub(from);
        }
        l.local.insert(t, LocalState::Current);
        if let Some(x) = self.thread_mut(th) {
            if let Some(a) = x.active.get_mut(&t) {
                a.0 = TaskPhase::Running;
            }
        }
    }

    pub(super) fn on_restore_tick(&mut self, th: Th, token: u64) {
        if self.thread_of(th).is_some_and(|x| x.restore_token == token) {
            self.replan_restore(th);
        }
    }

    /// Re-plans every thread of a process (it froze or resumed).
    pub(super) fn replan_process(&mut self, lane: u32, inc: u32) {
        let threads = self.proc_of(lane, inc).map_or(0, |p| p.threads.len());
        for thread in 0..threads as u32 {
            self.replan_restore(Th { lane, inc, thread });
        }
    }

    /// Brings `th`'s actives on the timeline into the state the thread is
    /// in: frozen while the JVM is paused or the thread is blocked, a zombie
    /// while it runs without knowing it was removed, paused (frozen) while a
    /// pre-3.8 thread initialises or restores another active.
    pub(super) fn show(&mut self, th: Th) {
        let Some(p) = self.proc_of(th.lane, th.inc) else {
            return;
        };
        let Some(thread) = p.threads.get(th.thread as usize) else {
            return;
        };
        let busy = p.frozen_until.is_some() || thread.blocked_until.is_some();
        let restoring_pause = !p.state_updater
            && thread
                .active
                .values()
                .any(|a| matches!(a.0, TaskPhase::Initializing | TaskPhase::Restoring));
        let mut by_state: std::collections::BTreeMap<ItemState, Vec<u32>> = Default::default();
        for (&t, &(phase, _)) in &thread.active {
            let want = if busy {
                ItemState::Frozen
            } else {
                match phase {
                    TaskPhase::Initializing => ItemState::Starting,
                    TaskPhase::Restoring => ItemState::Restoring,
                    TaskPhase::Revoking => ItemState::Stopping,
                    TaskPhase::Running if thread.out_of_group => ItemState::Zombie,
                    TaskPhase::Running if restoring_pause => ItemState::Frozen,
                    TaskPhase::Running => ItemState::Running,
                }
            };
            if self.recorder.timeline.state_on(t, th.lane) != Some(want) {
                by_state.entry(want).or_default().push(t);
            }
        }
        for (state, tasks) in by_state {
            self.set_copies(th.lane, &tasks, state);
        }
    }
}
