//! Task state on an instance: actives initialise, restore their changelog
//! up to its end offset at registration and run; standbys and warmups
//! follow their changelog; a stopped copy leaves a checkpoint.

use super::events::Ev;
use super::local_state::{restore_ms, LocalState};
use super::member::{Process, TaskPhase};
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
    pub(super) fn start_standby_copy(&mut self, lane: u32, t: u32, warm: bool) {
        let state = standby_copy_state(warm);
        self.recorder
            .timeline
            .place(lane, state, vec![t], None, &mut self.recorder.pool);
        let now = self.driver.now();
        let rate = u64::from(self.timings.restore_records_per_sec);
        let log = self.topology.logs[t as usize];
        let l = &mut self.lanes[lane as usize];
        let (cleanup, started) = (l.config.state_cleanup_delay_ms, l.started_ms);
        let from = match l.local.get(&t) {
            Some(s) if !s.cleaned(cleanup, started, now) => s.offset(log, rate, now),
            _ => 0,
        };
        l.local.insert(
            t,
            LocalState::Catching {
                from,
                since: now,
                target: None,
            },
        );
    }

    /// Folds a local state into a checkpoint when its copy stops, counting
    /// the records it restored.
    pub(super) fn settle_local(&mut self, lane: u32, t: u32) {
        if !self.topology.stateful[t as usize] {
            return;
        }
        let now = self.driver.now();
        let rate = u64::from(self.timings.restore_records_per_sec);
        let log = self.topology.logs[t as usize];
        let l = &mut self.lanes[lane as usize];
        if let Some(s) = l.local.get(&t).copied() {
            let offset = s.offset(log, rate, now);
            if let LocalState::Catching { from, .. } = s {
                self.records_restored += offset.saturating_sub(from);
            }
            l.local.insert(t, LocalState::Idle { offset, since: now });
        }
    }

    pub(super) fn start_actives(&mut self, lane: u32, inc: u32, tasks: Vec<u32>) {
        if tasks.is_empty() {
            return;
        }
        let token = self.next_token();
        for &t in &tasks {
            // A standby copy is recycled into the active (`TaskManager.handleAssignment`).
            if self
                .proc_of(lane, inc)
                .is_some_and(|p| p.standby.contains_key(&t))
            {
                if let Some(p) = self.proc_mut(lane, inc) {
                    p.standby.remove(&t);
                }
            }
            if self.recorder.timeline.state_on(t, lane).is_some() {
                self.recorder
                    .timeline
                    .remove_copy(t, lane, &mut self.recorder.pool);
                self.settle_local(lane, t);
            }
        }
        if let Some(p) = self.proc_mut(lane, inc) {
            for &t in &tasks {
                p.active.insert(t, (TaskPhase::Initializing, token));
            }
        }
        self.recorder.timeline.place(
            lane,
            ItemState::Starting,
            tasks.clone(),
            None,
            &mut self.recorder.pool,
        );
        let at = self.driver.now() + u64::from(self.timings.task_init_ms);
        self.schedule(
            at,
            Ev::Initialized {
                lane,
                inc,
                tasks,
                token,
            },
        );
    }

    pub(super) fn on_initialized(&mut self, lane: u32, inc: u32, tasks: Vec<u32>, token: u64) {
        if let Some(until) = self.proc_of(lane, inc).and_then(Process::free_at) {
            // Frozen or blocked: initialisation finishes when it is free again.
            self.schedule(
                until,
                Ev::Initialized {
                    lane,
                    inc,
                    tasks,
                    token,
                },
            );
            return;
        }
        if self.proc_of(lane, inc).is_some_and(|p| p.out_of_group) {
            // Removed from the group: these tasks are about to be lost.
            return;
        }
        let now = self.driver.now();
        let rate = u64::from(self.timings.restore_records_per_sec);
        let (cleanup, started) = (
            self.lanes[lane as usize].config.state_cleanup_delay_ms,
            self.lanes[lane as usize].started_ms,
        );
        let mut running = Vec::new();
        let mut restoring = Vec::new();
        for t in tasks {
            let Some(p) = self.proc_of(lane, inc) else {
                return;
            };
            if p.active.get(&t) != Some(&(TaskPhase::Initializing, token)) {
                continue;
            }
            if !self.topology.stateful[t as usize] {
                running.push(t);
                continue;
            }
            let log = self.topology.logs[t as usize];
            let end = log.end(now);
            let from = match self.lanes[lane as usize].local.get(&t) {
                Some(s) if !s.cleaned(cleanup, started, now) => s.offset(log, rate, now),
                _ => 0,
            };
            let lag = end.saturating_sub(from);
            if lag == 0 {
                running.push(t);
                self.lanes[lane as usize]
                    .local
                    .insert(t, LocalState::Current);
            } else {
                // Restore up to the end offset at registration, then process.
                self.lanes[lane as usize].local.insert(
                    t,
                    LocalState::Catching {
                        from,
                        since: now,
                        target: Some(end),
                    },
                );
                restoring.push((t, lag));
            }
        }
        let p = self.proc_mut(lane, inc).expect("checked above");
        for &t in &running {
            p.active.insert(t, (TaskPhase::Running, token));
        }
        for &(t, _) in &restoring {
            p.active.insert(t, (TaskPhase::Restoring, token));
        }
        if !running.is_empty() {
            self.recorder.timeline.split_off(
                lane,
                &running,
                ItemState::Running,
                &mut self.recorder.pool,
            );
        }
        if !restoring.is_empty() {
            let ids: Vec<u32> = restoring.iter().map(|r| r.0).collect();
            self.recorder.timeline.split_off(
                lane,
                &ids,
                ItemState::Restoring,
                &mut self.recorder.pool,
            );
            for (t, lag) in restoring {
                let at = now + restore_ms(lag, rate);
                self.schedule(
                    at,
                    Ev::Restored {
                        lane,
                        inc,
                        task: t,
                        token,
                    },
                );
            }
        }
    }

    pub(super) fn on_restored(&mut self, lane: u32, inc: u32, task: u32, token: u64) {
        if let Some(until) = self.proc_of(lane, inc).and_then(Process::free_at) {
            self.schedule(
                until,
                Ev::Restored {
                    lane,
                    inc,
                    task,
                    token,
                },
            );
            return;
        }
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        if p.active.get(&task) != Some(&(TaskPhase::Restoring, token)) || p.out_of_group {
            return;
        }
        p.active.insert(task, (TaskPhase::Running, token));
        let now = self.driver.now();
        let rate = u64::from(self.timings.restore_records_per_sec);
        let log = self.topology.logs[task as usize];
        if let Some(LocalState::Catching { from, .. }) =
            self.lanes[lane as usize].local.get(&task).copied()
        {
            let offset = self.lanes[lane as usize].local[&task].offset(log, rate, now);
            self.records_restored += offset.saturating_sub(from);
        }
        self.lanes[lane as usize]
            .local
            .insert(task, LocalState::Current);
        self.recorder.timeline.split_off(
            lane,
            &[task],
            ItemState::Running,
            &mut self.recorder.pool,
        );
    }
}
