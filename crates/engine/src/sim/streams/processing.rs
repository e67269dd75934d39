//! Where each task is processed: the Streams simulator's edits to the
//! trace's copies go through here, so that a changelog grows exactly while
//! its task's active processes somewhere (running, or as a zombie) and the
//! standbys chasing it are re-planned when that starts or stops.

use std::collections::BTreeSet;

use super::local_state::move_changelogs;
use super::member::Th;
use super::StreamsSimulation;
use crate::trace::ItemState;

impl StreamsSimulation {
    /// New copies of `tasks` on `lane` in `state`.
    pub(super) fn place_copies(&mut self, lane: u32, state: ItemState, tasks: Vec<u32>) {
        self.touched.extend(tasks.iter().copied());
        self.recorder
            .timeline
            .place(lane, state, tasks, None, &mut self.recorder.pool);
    }

    /// `tasks`' copies on `lane` are in `state` from now on.
    pub(super) fn set_copies(&mut self, lane: u32, tasks: &[u32], state: ItemState) {
        self.touched.extend(tasks.iter().copied());
        self.recorder
            .timeline
            .split_off(lane, tasks, state, &mut self.recorder.pool);
    }

    /// `t`'s copy on `lane` ends.
    pub(super) fn remove_copy(&mut self, t: u32, lane: u32) {
        self.touched.insert(t);
        self.recorder
            .timeline
            .remove_copy(t, lane, &mut self.recorder.pool);
    }

    /// After each event: every task whose processing started or stopped
    /// moves its changelog's growth, and the standbys that follow it are
    /// re-planned (their catch-up time changed).
    pub(super) fn settle_processing(&mut self) {
        // Re-planning can change what is shown (and so processed) again;
        // each pass settles the tasks the previous one touched.
        for _ in 0..8 {
            if self.touched.is_empty() {
                return;
            }
            let moved = move_changelogs(
                std::mem::take(&mut self.touched),
                &self.topology.stateful,
                &mut self.topology.logs,
                &self.recorder.timeline,
                self.driver.now(),
            );
            let mut followers: BTreeSet<(u32, u32, u32)> = BTreeSet::new();
            for t in moved {
                for (lane, l) in self.lanes.iter().enumerate() {
                    let Some(p) = l.proc.as_ref() else { continue };
                    for (i, x) in p.threads.iter().enumerate() {
                        if x.standby.contains_key(&t) {
                            followers.insert((lane as u32, p.inc, i as u32));
                        }
                    }
                }
            }
            for (lane, inc, thread) in followers {
                self.replan_restore(Th { lane, inc, thread });
            }
        }
    }
}
