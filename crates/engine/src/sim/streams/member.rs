//! One instance as the simulator tracks it: its lane (identity, version,
//! config, local state directories), its current process and group member,
//! the assignment it was given, and the JoinGroup subscription it sends.

use std::collections::{BTreeMap, BTreeSet};

use super::local_state::LocalState;
use super::StreamsSimulation;
use crate::scenario::{KafkaVersion, ResolvedStreamsConfig, StreamsConfig};
use crate::streams::versions::streams_release;
use crate::streams::{ProcessId, LATEST_OFFSET, UNKNOWN_OFFSET_SUM};
use crate::trace::RebalanceRound;

/// A group member: (lane, incarnation); static members keep incarnation 0
/// across restarts, as their `group.instance.id` does.
pub(super) type MemberKey = (u32, u32);

/// A member's JoinGroup metadata (the Streams `SubscriptionInfo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Subscription {
    pub(super) process_id: ProcessId,
    pub(super) capacity: u32,
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

#[derive(Clone, Debug)]
pub(super) struct Process {
    pub(super) inc: u32,
    pub(super) member: Option<MemberKey>,
    pub(super) phase: Phase,
    pub(super) generation: i32,
    pub(super) active: BTreeMap<u32, (TaskPhase, u64)>,
    /// Standby copies: true for a warmup.
    pub(super) standby: BTreeMap<u32, bool>,
    pub(super) frozen_until: Option<u64>,
    pub(super) blocked_until: Option<u64>,
    /// Out of the group while frozen or blocked (session expired, poll timeout).
    pub(super) out_of_group: bool,
    pub(super) rejoin_when_free: bool,
    pub(super) revoking: usize,
    pub(super) rejoin_after_revoke: bool,
}

impl Process {
    /// When to look again if the stream thread is not running: the end of
    /// the freeze if frozen, else the end of the block; `None` when free.
    pub(super) fn free_at(&self) -> Option<u64> {
        self.frozen_until.or(self.blocked_until)
    }

    /// Frozen or blocked (in a handler): the stream thread is not running.
    pub(super) fn is_busy(&self) -> bool {
        self.free_at().is_some()
    }
}

#[derive(Clone, Debug)]
pub(super) struct Lane {
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
    /// Dynamic memberships so far (each gets a new member id).
    pub(super) memberships: u32,
    pub(super) restart: Option<Restart>,
    /// The metadata version version probing settled on (`None`: its latest).
    pub(super) used_metadata: Option<u32>,
}

/// A planned comeback: after `downtime_ms`, with this version and config.
#[derive(Clone, Debug)]
pub(super) struct Restart {
    pub(super) downtime_ms: u64,
    pub(super) version: KafkaVersion,
    pub(super) config: StreamsConfig,
    pub(super) remove_config: Vec<String>,
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
    pub(super) fn subscription(&mut self, lane: u32) -> Subscription {
        self.unique += 1;
        let l = &self.lanes[lane as usize];
        let cooperative = l.config.cooperative(l.version);
        let p = l.proc.as_ref();
        let owned: Vec<u32> = if cooperative {
            p.map(|p| p.active.keys().copied().collect())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let cleanup = l.config.state_cleanup_delay_ms;
        let now = self.driver.now();
        let rate = u64::from(self.timings.restore_records_per_sec);
        let offset_sums: Vec<(u32, i64)> = l
            .local
            .iter()
            .filter(|(_, s)| !s.cleaned(cleanup, l.started_ms, now))
            .map(|(&t, &s)| {
                let running = matches!(s, LocalState::Current)
                    && p.is_some_and(|p| {
                        p.active.get(&t).is_some_and(|a| a.0 == TaskPhase::Running)
                    });
                let sum = if running {
                    LATEST_OFFSET
                } else {
                    s.offset(self.topology.logs[t as usize], rate, now) as i64
                };
                (t, sum)
            })
            .collect();
        let latest = streams_release(l.version).latest_subscription_version;
        let used = l.used_metadata.unwrap_or(latest).min(latest);
        // Before v7 a subscription carried task sets, which the leader maps to
        // LATEST_OFFSET (previous actives) and UNKNOWN_OFFSET_SUM (`SubscriptionInfo`, KIP-441).
        let offset_sums = if used < 7 {
            offset_sums
                .into_iter()
                .map(|(t, _sum): (u32, i64)| {
                    let active = p.is_some_and(|p| p.active.contains_key(&t));
                    (
                        t,
                        if active {
                            LATEST_OFFSET
                        } else {
                            UNKNOWN_OFFSET_SUM
                        },
                    )
                })
                .collect()
        } else {
            offset_sums
        };
        Subscription {
            process_id: l.process_id,
            capacity: l.config.num_stream_threads,
            cooperative,
            version: l.version,
            used_metadata: used,
            latest_metadata: latest,
            owned,
            offset_sums,
            unique: self.unique,
        }
    }
}
