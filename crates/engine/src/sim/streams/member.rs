//! One instance as the simulator tracks it: its lane (identity, version,
//! config, local state directories), its current process with one
//! [`StreamThread`] per `num.stream.threads` (each its own group member),
//! the assignment a thread was given, and the JoinGroup subscription it sends.

use std::collections::{BTreeMap, BTreeSet};

use super::local_state::LocalState;
use super::StreamsSimulation;
use crate::scenario::{KafkaVersion, ResolvedStreamsConfig, StreamsConfig};
use crate::sim::streams_script::Restart;
use crate::streams::versions::streams_release;
use crate::streams::{ProcessId, LATEST_OFFSET, UNKNOWN_OFFSET_SUM};
use crate::trace::RebalanceRound;

/// A group member: (lane, stream thread index from 0, membership). Static
/// members keep membership 0 across restarts, as their `group.instance.id`
/// (`<prefix>-<instance>-<thread>`) does; a dynamic member gets a new one
/// each time it joins as a new member (a new member id).
pub(super) type MemberKey = (u32, u32, u32);

/// One stream thread of one process: what the events about a thread carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Th {
    /// The instance's lane.
    pub(crate) lane: u32,
    /// The process incarnation.
    pub(crate) inc: u32,
    /// `StreamThread-<thread + 1>`.
    pub(crate) thread: u32,
}

/// A member's JoinGroup metadata (the Streams `SubscriptionInfo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Subscription {
    pub(super) process_id: ProcessId,
    pub(super) cooperative: bool,
    pub(super) version: KafkaVersion,
    /// The metadata version it sent, and the latest it supports.
    pub(super) used_metadata: u32,
    pub(super) latest_metadata: u32,
    pub(super) owned: Vec<u32>,
    pub(super) offset_sums: Vec<(u32, i64)>,
    /// `uniqueField`: makes every JoinGroup's metadata differ.
    pub(super) unique: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Starting,
    Revoking,
    Joining,
    Stable,
    Stopping,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TaskPhase {
    Initializing,
    Restoring,
    Running,
    Revoking,
}

/// A task a thread was assigned but cannot create yet: another thread of
/// the process still holds its state directory's lock (`StateDirectory.lock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Waiting {
    Active,
    /// A standby; true for a warmup.
    Standby(bool),
}

/// One `StreamThread`: its consumer's group membership and its tasks.
#[derive(Clone, Debug)]
pub(super) struct StreamThread {
    pub(super) member: Option<MemberKey>,
    pub(super) phase: Phase,
    pub(super) generation: i32,
    pub(super) active: BTreeMap<u32, (TaskPhase, u64)>,
    /// Standby copies: true for a warmup.
    pub(super) standby: BTreeMap<u32, bool>,
    /// Assigned, waiting for a sibling thread to release the directory.
    pub(super) waiting: BTreeMap<u32, Waiting>,
    /// Unowned task directories it locked for the rebalance, so reports in
    /// its subscription (`TaskManager.tryToLockAllNonEmptyTaskDirectories`).
    pub(super) locked: BTreeSet<u32>,
    /// Actives an EAGER `onJoinPrepare` suspended: still this thread's
    /// (`TaskManager.handleRevocation` suspends, the next assignment resumes
    /// or closes them), so it reports them as its previous actives.
    pub(super) suspended: BTreeSet<u32>,
    /// Blocked in a record handler: no poll, no processing.
    pub(super) blocked_until: Option<u64>,
    /// Removed from the group without knowing yet (session expired, poll
    /// timeout, rebalance timeout).
    pub(super) out_of_group: bool,
    pub(super) rejoin_when_free: bool,
    pub(super) revoking: usize,
    pub(super) rejoin_after_revoke: bool,
    /// Token of the pending restore tick (a newer one supersedes it).
    pub(super) restore_token: u64,
}

impl StreamThread {
    pub(super) fn new() -> Self {
        Self {
            member: None,
            phase: Phase::Starting,
            generation: 0,
            active: BTreeMap::new(),
            standby: BTreeMap::new(),
            waiting: BTreeMap::new(),
            locked: BTreeSet::new(),
            suspended: BTreeSet::new(),
            blocked_until: None,
            out_of_group: false,
            rejoin_when_free: false,
            revoking: 0,
            rejoin_after_revoke: false,
            restore_token: 0,
        }
    }

    /// True when it holds a copy of `t` (active or standby).
    pub(super) fn holds(&self, t: u32) -> bool {
        self.active.contains_key(&t) || self.standby.contains_key(&t)
    }
}

#[derive(Clone, Debug)]
pub(super) struct Process {
    pub(super) inc: u32,
    pub(super) threads: Vec<StreamThread>,
    /// The JVM is paused (a long GC): every thread, heartbeat thread and
    /// state updater.
    pub(super) frozen_until: Option<u64>,
    /// `KafkaStreams.close()` is under way.
    pub(super) stopping: bool,
    /// Restoration runs on a state updater thread per stream thread (3.8+
    /// default, KAFKA-10199); otherwise the stream thread restores between
    /// polls and processes nothing while an active restores.
    pub(super) state_updater: bool,
}

impl Process {
    /// When thread `thread` can run again: the end of the JVM freeze if
    /// frozen, else the end of its block; `None` when free.
    pub(super) fn free_at(&self, thread: u32) -> Option<u64> {
        self.frozen_until.or(self
            .threads
            .get(thread as usize)
            .and_then(|t| t.blocked_until))
    }

    /// When every thread can run again (`None`: all free now).
    pub(super) fn all_free_at(&self) -> Option<u64> {
        self.frozen_until
            .or(self.threads.iter().filter_map(|t| t.blocked_until).max())
    }

    /// The thread that holds a copy of `t`, if any.
    pub(super) fn holder(&self, t: u32) -> Option<u32> {
        self.threads
            .iter()
            .position(|th| th.holds(t))
            .map(|i| i as u32)
    }
}

/// One instance: its identity, release, config and local state, and its
/// process while one runs.
#[derive(Clone, Debug)]
pub(crate) struct Lane {
    pub(super) name: String,
    pub(super) process_id: ProcessId,
    pub(super) version: KafkaVersion,
    pub(super) raw_config: StreamsConfig,
    pub(super) config: ResolvedStreamsConfig,
    pub(super) local: BTreeMap<u32, LocalState>,
    pub(super) proc: Option<Process>,
    pub(super) incarnations: u32,
    /// When the current (or last) process started: its state cleaner's clock.
    pub(super) started_ms: u64,
    /// Dynamic memberships so far, per thread (each gets a new member id).
    pub(super) memberships: Vec<u32>,
    pub(super) restart: Option<Restart>,
    /// The metadata version version probing settled on (`None`: its latest).
    pub(super) used_metadata: Option<u32>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Assigned {
    pub(super) active: BTreeSet<u32>,
    pub(super) standby: BTreeSet<u32>,
    pub(super) warmup: BTreeSet<u32>,
    pub(super) immediate: bool,
    pub(super) probing_at: Option<u64>,
    /// Version probing: the metadata version to use from now on.
    pub(super) metadata_version: Option<u32>,
}

#[derive(Clone, Debug)]
pub(super) struct PendingRound {
    pub(super) round: RebalanceRound,
    pub(super) assignments: BTreeMap<MemberKey, Assigned>,
}

impl StreamsSimulation {
    /// Thread `th.thread`'s JoinGroup metadata: what it owns, and the offset
    /// sums of its tasks and of the unowned directories it locked
    /// (`TaskManager.taskOffsetSums`).
    pub(super) fn subscription(&mut self, th: Th) -> Subscription {
        self.unique += 1;
        self.lock_unowned_dirs(th);
        let l = &self.lanes[th.lane as usize];
        let cooperative = l.config.cooperative(l.version);
        let thread = l
            .proc
            .as_ref()
            .and_then(|p| p.threads.get(th.thread as usize));
        // The consumer owns the partitions it was assigned, also of a task it
        // could not create yet (a sibling thread still holds its directory).
        let owned: Vec<u32> = match thread {
            Some(t) if cooperative => {
                let waiting = t
                    .waiting
                    .iter()
                    .filter(|(_, w)| matches!(w, Waiting::Active))
                    .map(|(&t, _)| t);
                let owned: BTreeSet<u32> = t.active.keys().copied().chain(waiting).collect();
                owned.into_iter().collect()
            }
            _ => Vec::new(),
        };
        let cleanup = l.config.state_cleanup_delay_ms;
        let now = self.driver.now();
        let reported: BTreeSet<u32> = thread
            .map(|t| {
                t.active
                    .keys()
                    .chain(t.standby.keys())
                    .chain(&t.locked)
                    .chain(&t.suspended)
                    .copied()
                    .collect()
            })
            .unwrap_or_default();
        let running = |t: u32| {
            thread.is_some_and(|th| th.active.get(&t).is_some_and(|a| a.0 == TaskPhase::Running))
        };
        let offset_sums: Vec<(u32, i64)> = reported
            .iter()
            .filter_map(|&t| {
                let s = l.local.get(&t)?;
                if s.cleaned(cleanup, l.started_ms, now) {
                    return None;
                }
                let sum = if matches!(s, LocalState::Current) && running(t) {
                    LATEST_OFFSET
                } else {
                    s.offset(self.topology.logs[t as usize], now) as i64
                };
                Some((t, sum))
            })
            .collect();
        let latest = streams_release(l.version).latest_subscription_version;
        let used = l.used_metadata.unwrap_or(latest).min(latest);
        // Before v7 a subscription carried task sets (`SubscriptionInfo`,
        // KIP-441): its previous actives, stateless ones included (the
        // leader reads them as LATEST_OFFSET), and the other tasks it has
        // state for (UNKNOWN_OFFSET_SUM).
        let offset_sums = if used < 7 {
            let previous_active: BTreeSet<u32> = thread
                .map(|th| th.active.keys().chain(&th.suspended).copied().collect())
                .unwrap_or_default();
            let mut sums: Vec<(u32, i64)> = offset_sums
                .into_iter()
                .filter(|(t, _)| !previous_active.contains(t))
                .map(|(t, _)| (t, UNKNOWN_OFFSET_SUM))
                .collect();
            sums.extend(previous_active.iter().map(|&t| (t, LATEST_OFFSET)));
            crate::sort_by_key::sort_values(&mut sums);
            sums
        } else {
            offset_sums
        };
        Subscription {
            process_id: l.process_id,
            cooperative,
            version: l.version,
            used_metadata: used,
            latest_metadata: latest,
            owned,
            offset_sums,
            unique: self.unique,
        }
    }

    /// `tryToLockAllNonEmptyTaskDirectories` at the start of a rebalance:
    /// the thread locks every directory on disk that no thread of the
    /// process holds or has locked, and reports it as a previous task.
    fn lock_unowned_dirs(&mut self, th: Th) {
        let now = self.driver.now();
        let l = &mut self.lanes[th.lane as usize];
        let (cleanup, started) = (l.config.state_cleanup_delay_ms, l.started_ms);
        let Some(p) = l.proc.as_mut() else {
            return;
        };
        let Some(me) = p.threads.get_mut(th.thread as usize) else {
            return;
        };
        me.locked.clear();
        let me = th.thread as usize;
        let taken: BTreeSet<u32> = p
            .threads
            .iter()
            .flat_map(|t| {
                t.active
                    .keys()
                    .chain(t.standby.keys())
                    .chain(t.waiting.keys())
                    .chain(&t.locked)
                    .chain(&t.suspended)
                    .copied()
            })
            .collect();
        let free: BTreeSet<u32> = l
            .local
            .iter()
            .filter(|(t, s)| !taken.contains(t) && !s.cleaned(cleanup, started, now))
            .map(|(&t, _)| t)
            .collect();
        p.threads[me].locked = free;
    }
}
