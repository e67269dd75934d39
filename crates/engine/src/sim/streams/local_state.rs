//! One instance's local state for one stateful task, Kafka's offset
//! arithmetic over it (`TaskManager.taskOffsetSums`, `ClientState.computeTaskLags`,
//! `StoreChangelogReader`; KIP-441), and how one stream thread's restore
//! throughput is shared among the copies it restores.
//!
//! A changelog grows while its task's active processes somewhere (running,
//! or as a zombie): `records_per_sec` for each such second. A copy restores
//! at the rate its thread gives it ([`share_restore_rate`]); an active
//! restores up to the end offset it saw at registration (then processes), a
//! standby or warmup has no end and follows the log continuously.

use std::collections::BTreeSet;

use crate::sim::timeline::Timeline;

/// A task's changelog.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Changelog {
    /// End-offset sum at time 0.
    pub(crate) records: u64,
    /// Records appended per second while the task's active processes.
    pub(crate) records_per_sec: u64,
    /// Milliseconds of processing folded in so far.
    pub(crate) written_ms: u64,
    /// Since when an active processes it (`None`: nobody writes now).
    pub(crate) since: Option<u64>,
}

impl Changelog {
    /// A changelog of `records` that grows by `records_per_sec` while processed.
    pub(crate) fn new(records: u64, records_per_sec: u64) -> Self {
        Self {
            records,
            records_per_sec,
            written_ms: 0,
            since: None,
        }
    }

    /// Processing time up to `ms`.
    fn processed_ms(self, ms: u64) -> u64 {
        self.written_ms + self.since.map_or(0, |s| ms.saturating_sub(s))
    }

    /// The end-offset sum at `ms`.
    pub(crate) fn end(self, ms: u64) -> u64 {
        self.records + self.records_per_sec * self.processed_ms(ms) / 1000
    }

    /// Records appended per second from now on.
    pub(crate) fn growth(self) -> u64 {
        if self.since.is_some() {
            self.records_per_sec
        } else {
            0
        }
    }

    /// The task starts or stops being processed at `now`.
    pub(crate) fn set_processing(&mut self, processing: bool, now: u64) {
        match (self.since, processing) {
            (None, true) => self.since = Some(now),
            (Some(s), false) => {
                self.written_ms += now.saturating_sub(s);
                self.since = None;
            }
            _ => {}
        }
    }

    /// `1000 ×` the exact (unrounded) end at `ms`.
    fn end_milli(self, ms: u64) -> u128 {
        u128::from(self.records) * 1000
            + u128::from(self.records_per_sec) * u128::from(self.processed_ms(ms))
    }
}

/// What an instance has on disk (or in memory) for one stateful task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LocalState {
    /// A RUNNING active: its subscription reports `LATEST_OFFSET` (−2).
    Current,
    /// Restoring from `from` since `since` at `rate` records/s (0: paused);
    /// an active stops at `target` (the end offset at registration), a
    /// standby or warmup (`target: None`) chases the changelog end.
    Catching {
        /// Offset when this stretch began.
        from: u64,
        /// When it began.
        since: u64,
        /// Records per second it gets from its thread now.
        rate: u64,
        /// The active's restore end offset.
        target: Option<u64>,
    },
    /// A standby or warmup at the changelog end, reading what is appended.
    Following {
        /// Offset when this stretch began (for the records-restored count).
        from: u64,
    },
    /// An unowned task directory with a checkpoint, cleaned after
    /// `state.cleanup.delay.ms`.
    Idle {
        /// The checkpointed offset sum.
        offset: u64,
        /// Since when it is unowned.
        since: u64,
    },
}

impl LocalState {
    /// The offset sum at `now`.
    pub(crate) fn offset(self, log: Changelog, now: u64) -> u64 {
        match self {
            LocalState::Current | LocalState::Following { .. } => log.end(now),
            LocalState::Catching {
                from,
                since,
                rate,
                target,
            } => {
                let reached = from.saturating_add(rate * now.saturating_sub(since) / 1000);
                reached.min(target.unwrap_or(u64::MAX)).min(log.end(now))
            }
            LocalState::Idle { offset, .. } => offset,
        }
    }

    /// When a catching copy reaches its target (an active) or the changelog
    /// end (a standby), at its current rate and the log's current growth:
    /// exact, without the rounding of [`Self::offset`]. `None` if never
    /// (paused, or slower than the log).
    pub(crate) fn reaches_at(self, log: Changelog, now: u64) -> Option<u64> {
        let LocalState::Catching {
            from,
            since,
            rate,
            target,
        } = self
        else {
            return None;
        };
        if rate == 0 {
            return None;
        }
        match target {
            Some(target) => Some(since + (target.saturating_sub(from) * 1000).div_ceil(rate)),
            None => {
                // from·1000 + rate·(t − since) ≥ end_milli(now) + growth·(t − now)
                let g = log.growth();
                if rate <= g {
                    return None;
                }
                let lhs = u128::from(from) * 1000
                    + u128::from(rate) * u128::from(now.saturating_sub(since));
                let need = log.end_milli(now).saturating_sub(lhs);
                let t = now
                    + (need.div_ceil(u128::from(rate - g))).min(u128::from(u64::MAX / 4)) as u64;
                Some(t)
            }
        }
    }

    /// True when a catching copy has reached its target or the log end by
    /// `now` (the exact test behind [`Self::reaches_at`]).
    pub(crate) fn reached(self, log: Changelog, now: u64) -> bool {
        match self {
            LocalState::Catching {
                from,
                since,
                rate,
                target,
            } => {
                let done = u128::from(from) * 1000
                    + u128::from(rate) * u128::from(now.saturating_sub(since));
                match target {
                    Some(target) => done >= u128::from(target) * 1000,
                    None => done >= log.end_milli(now),
                }
            }
            LocalState::Following { .. } => true,
            _ => false,
        }
    }

    /// True for an unowned directory the state cleaner of a process started
    /// at `started` has deleted by `now`. The cleaner runs every
    /// `state.cleanup.delay.ms`, first that long after start, and deletes
    /// directories unused for longer than the delay (`StateDirectory.cleanRemovedTasks`).
    pub(crate) fn cleaned(self, cleanup_delay_ms: u64, started: u64, now: u64) -> bool {
        let LocalState::Idle { since, .. } = self else {
            return false;
        };
        let delay = cleanup_delay_ms.max(1);
        if now < started.saturating_add(delay) {
            return false;
        }
        let last_run = started + (now - started) / delay * delay;
        last_run.saturating_sub(since) > delay
    }
}

/// After an event, for both Streams simulators: the stateful tasks among
/// `touched` whose processing started or stopped (a running or zombie copy
/// on some lane of `timeline`); their changelogs grow from `now`, or stop.
/// The standbys following them must be re-planned.
pub(crate) fn move_changelogs(
    touched: BTreeSet<u32>,
    stateful: &[bool],
    logs: &mut [Changelog],
    timeline: &Timeline,
    now: u64,
) -> Vec<u32> {
    let mut moved = Vec::new();
    for t in touched {
        if !stateful[t as usize] {
            continue;
        }
        let processing = timeline.copies(t).iter().any(|&(_, s)| s.is_running());
        let log = &mut logs[t as usize];
        if log.since.is_some() == processing {
            continue;
        }
        log.set_processing(processing, now);
        moved.push(t);
    }
    moved
}

/// One stream thread's restore throughput (`rate` records/s, the restore
/// consumer's `max.poll.records` per poll over all its restoring
/// partitions) shared among the copies it restores: equal shares, capped
/// for a copy that only needs `demand` (a standby at the log end reads
/// just what is appended); what a capped copy leaves goes to the others
/// (max-min fairness). `None` is an unbounded demand. Integer shares; the
/// remainder goes one record each to the first copies.
pub(crate) fn share_restore_rate(rate: u64, demands: &[Option<u64>]) -> Vec<u64> {
    let mut shares = vec![0u64; demands.len()];
    let mut open: Vec<usize> = (0..demands.len()).collect();
    let mut left = rate;
    // Capped copies whose demand is below the fair share are served first.
    loop {
        if open.is_empty() {
            return shares;
        }
        let fair = left / open.len() as u64;
        let capped: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&i| demands[i].is_some_and(|d| d <= fair))
            .collect();
        if capped.is_empty() {
            break;
        }
        for &i in &capped {
            let d = demands[i].unwrap_or(0);
            shares[i] = d;
            left -= d;
        }
        open.retain(|i| !capped.contains(i));
    }
    let n = open.len() as u64;
    let (fair, extra) = (left / n, left % n);
    for (k, &i) in open.iter().enumerate() {
        shares[i] = fair + u64::from((k as u64) < extra);
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restoring_reaches_its_target_and_standbys_follow_the_end() {
        let mut log = Changelog::new(10_000, 100);
        log.set_processing(true, 0);
        let active = LocalState::Catching {
            from: 0,
            since: 0,
            rate: 1_000,
            target: Some(10_000),
        };
        assert_eq!(active.offset(log, 5_000), 5_000);
        assert_eq!(active.offset(log, 20_000), 10_000);
        assert_eq!(active.reaches_at(log, 0), Some(10_000));
        assert!(active.reached(log, 10_000) && !active.reached(log, 9_999));
        let standby = LocalState::Catching {
            from: 0,
            since: 0,
            rate: 1_000,
            target: None,
        };
        assert_eq!(standby.offset(log, 20_000), log.end(20_000));
        // 1000·t ≥ 10,000,000 + 100·t  →  t ≥ 11,112 ms
        assert_eq!(standby.reaches_at(log, 0), Some(11_112));
        assert_eq!(standby.reaches_at(log, 5_000), Some(11_112));
        assert!(standby.reached(log, 11_112) && !standby.reached(log, 11_111));
        let slow = LocalState::Catching {
            from: 0,
            since: 0,
            rate: 100,
            target: None,
        };
        assert_eq!(slow.reaches_at(log, 0), None);
        assert_eq!(
            LocalState::Following { from: 3 }.offset(log, 1_000),
            log.end(1_000)
        );
    }

    #[test]
    fn a_changelog_grows_only_while_its_task_is_processed() {
        let mut log = Changelog::new(1_000, 10);
        assert_eq!(log.end(60_000), 1_000);
        log.set_processing(true, 60_000);
        assert_eq!(log.end(70_000), 1_100);
        log.set_processing(false, 70_000);
        assert_eq!(log.end(1_000_000), 1_100);
        assert_eq!(log.growth(), 0);
        // Nobody writes: a standby at 0 restoring at 100/s reaches 1,100 at 11 s.
        let standby = LocalState::Catching {
            from: 0,
            since: 0,
            rate: 100,
            target: None,
        };
        assert_eq!(standby.reaches_at(log, 0), Some(11_000));
    }

    #[test]
    fn a_thread_shares_its_restore_rate_fairly() {
        assert_eq!(share_restore_rate(20_000, &[None, None]), [10_000, 10_000]);
        assert_eq!(share_restore_rate(10, &[None, None, None]), [4, 3, 3]);
        // A caught-up standby needs only its write rate; the rest goes to the
        // one still catching up.
        assert_eq!(share_restore_rate(1_000, &[Some(50), None]), [50, 950]);
        // Demands above the fair share are not capped below it.
        assert_eq!(share_restore_rate(100, &[Some(80), Some(80)]), [50, 50]);
        assert!(share_restore_rate(100, &[]).is_empty());
    }

    #[test]
    fn the_cleaner_runs_every_delay_after_start_and_spares_recent_directories() {
        let idle = LocalState::Idle {
            offset: 5,
            since: 100_000,
        };
        // Started at 0, delay 600 s: runs at 600 s, 1200 s, …
        assert!(
            !idle.cleaned(600_000, 0, 650_000),
            "unused for only 500 s at the first run"
        );
        assert!(idle.cleaned(600_000, 0, 1_200_000));
        // A process that started later has not run its cleaner yet.
        assert!(!idle.cleaned(600_000, 1_000_000, 1_500_000));
        assert!(!LocalState::Current.cleaned(1, 0, u64::MAX / 2));
    }
}
