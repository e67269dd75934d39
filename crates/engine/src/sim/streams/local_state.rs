//! One instance's local state for one stateful task, and Kafka's offset
//! arithmetic over it (`TaskManager.taskOffsetSums`, `ClientState.computeTaskLags`,
//! `StoreChangelogReader`; KIP-441).
//!
//! Changelogs grow linearly: task `t`'s end offset at time `ms` is
//! `records + records_per_sec · ms / 1000`. A copy restores at the
//! simulator's restore rate; an active restores up to the end offset it saw
//! at registration (then processes), a standby or warmup has no end and
//! follows the log continuously.

/// A task's changelog.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Changelog {
    /// End-offset sum at time 0.
    pub(crate) records: u64,
    /// Records appended per second.
    pub(crate) records_per_sec: u64,
}

impl Changelog {
    /// The end-offset sum at `ms`.
    pub(crate) fn end(self, ms: u64) -> u64 {
        self.records + self.records_per_sec * ms / 1000
    }
}

/// What an instance has on disk (or in memory) for one stateful task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LocalState {
    /// A RUNNING active: its subscription reports `LATEST_OFFSET` (−2).
    Current,
    /// Restoring from `from` since `since` at `rate` records/s; an active
    /// stops at `target` (the end offset at registration), a standby or
    /// warmup (`target: None`) follows the changelog end.
    Catching {
        /// Offset when restoration began.
        from: u64,
        /// When it began.
        since: u64,
        /// The active's restore end offset.
        target: Option<u64>,
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
    pub(crate) fn offset(self, log: Changelog, rate: u64, now: u64) -> u64 {
        match self {
            LocalState::Current => log.end(now),
            LocalState::Catching {
                from,
                since,
                target,
            } => {
                let reached = from.saturating_add(rate * now.saturating_sub(since) / 1000);
                reached.min(target.unwrap_or(u64::MAX)).min(log.end(now))
            }
            LocalState::Idle { offset, .. } => offset,
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

/// How long an active restoring `lag` records takes at `rate` records/s.
pub(crate) fn restore_ms(lag: u64, rate: u64) -> u64 {
    (lag * 1000).div_ceil(rate.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restoring_reaches_its_target_and_standbys_follow_the_end() {
        let log = Changelog {
            records: 10_000,
            records_per_sec: 100,
        };
        let active = LocalState::Catching {
            from: 0,
            since: 0,
            target: Some(10_000),
        };
        assert_eq!(active.offset(log, 1_000, 5_000), 5_000);
        assert_eq!(active.offset(log, 1_000, 20_000), 10_000);
        let standby = LocalState::Catching {
            from: 0,
            since: 0,
            target: None,
        };
        assert_eq!(standby.offset(log, 1_000, 20_000), log.end(20_000));
        assert_eq!(restore_ms(10_000, 1_000), 10_000);
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
