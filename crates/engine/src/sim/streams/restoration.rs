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
use super::local_state::LocalState;
use super::member::{TaskPhase, Th};
use super::restore_plan::{LocalStore, ThreadRestore};
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
        let from = self.local_offset(th.lane, t);
        self.store(th.lane).start_following(t, from);
        self.replan_restore(th);
    }

    /// Folds a local state into a checkpoint when its copy stops, counting
    /// the records it restored.
    pub(super) fn settle_local(&mut self, lane: u32, t: u32) {
        self.store(lane).checkpoint(t);
    }

    /// The lane's local state with the application's changelogs, now.
    fn store(&mut self, lane: u32) -> LocalStore<'_> {
        LocalStore {
            local: &mut self.lanes[lane as usize].local,
            logs: &self.topology.logs,
            stateful: &self.topology.stateful,
            restored: &mut self.records_restored,
            now: self.driver.now(),
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
        for t in tasks {
            if self.thread_of(th).and_then(|x| x.active.get(&t))
                != Some(&(TaskPhase::Initializing, token))
            {
                continue;
            }
            // Restore up to the end offset at registration, then process.
            let from = self.local_offset(th.lane, t);
            let phase = if self.store(th.lane).register_active(t, from) {
                TaskPhase::Restoring
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
        let mut store = self.store(th.lane);
        for &t in &stopped {
            store.fold(t, 0);
        }
        let plan = store.replan(&ThreadRestore {
            restoring: &restoring,
            followers: &followers,
            rate,
            reads: restores,
            // Restored, but only the stream thread moves it to RUNNING.
            can_finish: !(blocked || frozen),
        });
        if let Some(x) = self.thread_mut(th) {
            for t in &plan.done {
                if let Some(a) = x.active.get_mut(t) {
                    a.0 = TaskPhase::Running;
                }
            }
        }
        let token = self.next_token();
        if let Some(x) = self.thread_mut(th) {
            x.restore_token = token;
        }
        if let Some(at) = plan.next_ms {
            self.schedule(at, Ev::RestoreTick { th, token });
        }
        if !plan.done.is_empty() {
            self.show(th);
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
