//! A stream thread's restoration, one mechanism for both Streams simulators
//! (the classic group protocol and `group.protocol=streams`): what a copy
//! leaves on disk when it stops, how a new active registers (restore up to
//! the end offset it sees, `StoreChangelogReader`), and the re-plan at a
//! moment: fold every copy's progress, finish the actives that reached their
//! end offset, move standbys at the log end to following it, share the
//! thread's restore rate ([`share_restore_rate`]) among what is left and say
//! when the next copy is done. Standbys wait while an active of the thread
//! restores (`ACTIVE_RESTORING`). What a thread is doing (its task phases,
//! blocked, paused) stays each simulator's.

use std::collections::BTreeMap;

use super::local_state::{share_restore_rate, Changelog, LocalState};

/// One instance's local state with the application's changelogs, at `now`.
pub(crate) struct LocalStore<'a> {
    pub(crate) local: &'a mut BTreeMap<u32, LocalState>,
    pub(crate) logs: &'a [Changelog],
    pub(crate) stateful: &'a [bool],
    /// The run's count of records replayed from changelogs.
    pub(crate) restored: &'a mut u64,
    pub(crate) now: u64,
}

/// What one thread restores now and how.
pub(crate) struct ThreadRestore<'a> {
    /// Its actives in the restoring phase.
    pub(crate) restoring: &'a [u32],
    /// Its standby (and warmup) copies that read their changelog.
    pub(crate) followers: &'a [u32],
    /// `restore_records_per_sec`.
    pub(crate) rate: u64,
    /// The thread's restore consumer reads now.
    pub(crate) reads: bool,
    /// A restored active may go to RUNNING now (the stream thread moves it,
    /// so not while the thread is blocked or its JVM paused).
    pub(crate) can_finish: bool,
}

/// What a re-plan decided.
pub(crate) struct RestorePlan {
    /// Actives that reached their end offset: they run now.
    pub(crate) done: Vec<u32>,
    /// When the next copy reaches its end, if one does.
    pub(crate) next_ms: Option<u64>,
}

impl LocalStore<'_> {
    /// The offset on disk for `t` (0 without state).
    pub(crate) fn offset(&self, t: u32) -> u64 {
        self.local
            .get(&t)
            .map_or(0, |s| s.offset(self.logs[t as usize], self.now))
    }

    /// A copy of `t` stopped: its state becomes a checkpoint, and what it
    /// restored is counted.
    pub(crate) fn checkpoint(&mut self, t: u32) {
        if !self.stateful[t as usize] {
            return;
        }
        let log = self.logs[t as usize];
        if let Some(s) = self.local.get(&t).copied() {
            let offset = s.offset(log, self.now);
            if let LocalState::Catching { from, .. } | LocalState::Following { from } = s {
                *self.restored += offset.saturating_sub(from);
            }
            self.local.insert(
                t,
                LocalState::Idle {
                    offset,
                    since: self.now,
                },
            );
        }
    }

    /// A standby (or warmup) of `t` starts reading its changelog from `from`.
    pub(crate) fn start_following(&mut self, t: u32, from: u64) {
        if !self.stateful[t as usize] {
            return;
        }
        self.local.insert(
            t,
            LocalState::Catching {
                from,
                since: self.now,
                rate: 0,
                target: None,
            },
        );
    }

    /// An initialised active of `t` with `from` on disk registers its
    /// stores: it restores up to the changelog's end offset now, or runs at
    /// once when it has it. True when it restores.
    pub(crate) fn register_active(&mut self, t: u32, from: u64) -> bool {
        if !self.stateful[t as usize] {
            return false;
        }
        let end = self.logs[t as usize].end(self.now);
        if end > from {
            self.local.insert(
                t,
                LocalState::Catching {
                    from,
                    since: self.now,
                    rate: 0,
                    target: Some(end),
                },
            );
            true
        } else {
            self.local.insert(t, LocalState::Current);
            false
        }
    }

    /// Folds a copy's progress up to now into `from` and continues at
    /// `rate` (a following standby becomes a catching one from the log end).
    pub(crate) fn fold(&mut self, t: u32, rate: u64) {
        let log = self.logs[t as usize];
        let Some(s) = self.local.get(&t).copied() else {
            return;
        };
        let (from, target) = match s {
            LocalState::Catching { from, target, .. } => (from, target),
            LocalState::Following { from } => (from, None),
            _ => return,
        };
        let offset = s.offset(log, self.now);
        *self.restored += offset.saturating_sub(from);
        self.local.insert(
            t,
            LocalState::Catching {
                from: offset,
                since: self.now,
                rate,
                target,
            },
        );
    }

    /// A restoring active reached its end offset: its state is current.
    fn finish(&mut self, t: u32) {
        let log = self.logs[t as usize];
        if let Some(s @ LocalState::Catching { from, .. }) = self.local.get(&t).copied() {
            *self.restored += s.offset(log, self.now).saturating_sub(from);
        }
        self.local.insert(t, LocalState::Current);
    }

    /// Re-plans one thread's restoration now.
    pub(crate) fn replan(&mut self, thread: &ThreadRestore<'_>) -> RestorePlan {
        let now = self.now;
        let mut still = Vec::new();
        let mut done = Vec::new();
        for &t in thread.restoring {
            let log = self.logs[t as usize];
            match self.local.get(&t).copied() {
                Some(s @ LocalState::Catching { .. }) if s.reached(log, now) => {
                    if thread.can_finish {
                        done.push(t);
                    } else {
                        self.fold(t, 0);
                    }
                }
                Some(LocalState::Catching { .. }) => still.push(t),
                _ => done.push(t),
            }
        }
        for &t in &done {
            self.finish(t);
        }
        let demands: Vec<Option<u64>> = thread
            .followers
            .iter()
            .map(|&t| {
                let log = self.logs[t as usize];
                match self.local.get(&t) {
                    Some(s) if s.reached(log, now) => Some(log.records_per_sec),
                    _ => None,
                }
            })
            .collect();
        let active_shares = if thread.reads {
            share_restore_rate(thread.rate, &vec![None; still.len()])
        } else {
            vec![0; still.len()]
        };
        let follower_shares = if thread.reads && still.is_empty() {
            share_restore_rate(thread.rate, &demands)
        } else {
            vec![0; thread.followers.len()]
        };
        for (&t, &share) in still.iter().zip(&active_shares) {
            self.fold(t, share);
        }
        for ((&t, &share), demand) in thread.followers.iter().zip(&follower_shares).zip(&demands) {
            self.fold(t, share);
            if demand.is_some_and(|d| share >= d) {
                let from = self.logs[t as usize].end(now);
                self.local.insert(t, LocalState::Following { from });
            }
        }
        let next_ms = still
            .iter()
            .chain(thread.followers)
            .filter_map(|&t| self.local.get(&t)?.reaches_at(self.logs[t as usize], now))
            .filter(|&at| at > now)
            .min();
        RestorePlan { done, next_ms }
    }
}
