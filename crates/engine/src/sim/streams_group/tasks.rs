//! A stream thread's tasks on the timeline and their restoration, with the
//! classic simulator's restore mechanism (`sim::streams::restore_plan` over
//! `sim::streams::local_state`): a new active initialises, restores its
//! changelog up to the end offset it saw then runs; a standby follows its
//! changelog; a stopped copy leaves a checkpoint. The state updater restores
//! (always on for the streams protocol's releases here), so a thread keeps
//! processing its running tasks meanwhile; its standbys wait while one of its
//! actives restores. A thread that is blocked, or whose group is not ready
//! (`ASSIGNMENT_DELAYED`, 4.2+), does not process; a paused JVM neither
//! processes nor restores.

use std::collections::{BTreeMap, BTreeSet};

use super::events::Ev;
use super::{StreamsGroupSimulation, TaskPhase, Th};
use crate::sim::driver::Simulation;
use crate::sim::streams::local_state::move_changelogs;
use crate::sim::streams::restore_plan::{LocalStore, ThreadRestore};
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
        self.store(lane).checkpoint(t);
    }

    /// The lane's local state with the application's changelogs, now.
    fn store(&mut self, lane: u32) -> LocalStore<'_> {
        LocalStore {
            local: &mut self.lanes[lane as usize].local,
            logs: &self.tasks.logs,
            stateful: &self.tasks.stateful,
            restored: &mut self.records_restored,
            now: self.driver.now(),
        }
    }

    pub(super) fn start_standby(&mut self, th: Th, t: u32) {
        self.place_copies(th.lane, ItemState::Standby, vec![t]);
        if let Some(x) = self.thread_mut(th) {
            x.standby.insert(t);
        }
        let mut store = self.store(th.lane);
        let from = store.offset(t);
        store.start_following(t, from);
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
        for t in tasks {
            if self.thread(th).and_then(|x| x.active.get(&t))
                != Some(&(TaskPhase::Initializing, token))
            {
                continue;
            }
            let mut store = self.store(th.lane);
            let from = store.offset(t);
            let phase = if store.register_active(t, from) {
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

    /// Re-plans `th`'s restoration now: folds progress, moves actives that
    /// reached their end offset to running and standbys at the log end to
    /// following it, shares the rate and schedules the next completion.
    pub(super) fn replan_restore(&mut self, th: Th) {
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
        // A paused JVM reads nothing and runs nothing; the resume re-plans.
        let frozen = self.frozen_until(th).is_some();
        let plan = self.store(th.lane).replan(&ThreadRestore {
            restoring: &restoring,
            followers: &followers,
            rate,
            reads: !frozen,
            can_finish: !frozen,
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
            let moved = move_changelogs(
                std::mem::take(&mut self.touched),
                &self.tasks.stateful,
                &mut self.tasks.logs,
                &self.recorder.timeline,
                self.driver.now(),
            );
            let mut followers: BTreeSet<Th> = BTreeSet::new();
            for t in moved {
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
