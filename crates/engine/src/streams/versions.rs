//! What a Kafka Streams release does and defaults to, as one table: every
//! rule the simulator and the scenario defaults take from the version an
//! instance runs. A version selector is a lookup in [`RELEASES`].
//!
//! Each row holds from its `since` release until the next row's. Only the
//! version-dependent rules are here; defaults that never changed stay with
//! the config they fill in (`StreamsConfig::resolve`).

use crate::kafka_version::{release_row, KafkaVersion, ReleaseRow};

use super::partition_assignor::AssignorKind;
use super::thread_assignment::ThreadDistribution;

/// The newest Kafka Streams release the playground models, and the default.
pub const NEWEST_RELEASE: KafkaVersion = KafkaVersion::new(4, 3);

/// Whether restoration runs on a state updater thread (KAFKA-10199).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateUpdater {
    /// Before 3.4: the stream thread restores between polls.
    Absent,
    /// 3.4–3.7: `__state.updater.enabled__` exists, default false.
    OptIn,
    /// 3.8–4.2: `__state.updater.enabled__` defaults to true.
    OptOut,
    /// 4.3: the flag is gone; the state updater always restores.
    Always,
}

/// One range of Kafka Streams releases that behave alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamsRelease {
    /// The first release of the range.
    pub since: KafkaVersion,
    /// Default `session.timeout.ms` of its consumers: 10 s, 45 s from 3.0
    /// (KIP-735).
    pub default_session_timeout_ms: u64,
    /// The task assignor `internal.task.assignor.class` defaults to:
    /// `HighAvailabilityTaskAssignor` from 2.6 (KIP-441), the hard-wired
    /// `StickyTaskAssignor` before.
    pub default_task_assignor: AssignorKind,
    /// The release ships `HighAvailabilityTaskAssignor` (2.6+, KIP-441): an
    /// older leader runs `StickyTaskAssignor` whatever its config says.
    pub has_high_availability_assignor: bool,
    /// KIP-429 (2.4+): `StreamsPartitionAssignor.supportedProtocols` includes
    /// COOPERATIVE, and as leader it holds back a task another consumer still
    /// owns (`StreamsPartitionAssignor.populateActiveTaskAndPartitionsLists`).
    /// Older leaders have no such filter.
    pub cooperative: bool,
    /// 4.0+ (KAFKA-18839): `supportedProtocols` is COOPERATIVE only, and
    /// `AssignorConfiguration.validateUpgradeFrom` refuses `upgrade.from`
    /// 0.10.0 … 2.3.
    pub cooperative_only: bool,
    /// 4.2+ (KAFKA-19703): `upgrade.from` accepts 2.4 and later only.
    pub upgrade_from_since_2_4: bool,
    /// 2.6+ (KIP-441): a consumer whose task was held back gets
    /// `nextRebalanceTime = 0` and keeps a previous standby of it meanwhile
    /// (`StreamsPartitionAssignor.addClientAssignments`, `buildStandbyTaskMap`).
    pub follow_up_for_held_back: bool,
    /// How the leader hands a client's tasks to its stream threads.
    pub thread_distribution: ThreadDistribution,
    /// The state updater (KAFKA-10199, `DefaultStateUpdater`).
    pub state_updater: StateUpdater,
    /// The latest `SubscriptionInfo` version it sends
    /// (`LATEST_SUPPORTED_VERSION`). Before 2.0 it is approximate; only its
    /// order matters for version probing.
    pub latest_subscription_version: u32,
}

/// A row of [`RELEASES`].
const fn release(
    major: u16,
    minor: u16,
    latest_subscription_version: u32,
    thread_distribution: ThreadDistribution,
    state_updater: StateUpdater,
) -> StreamsRelease {
    let since = KafkaVersion::new(major, minor);
    const fn at_least(v: KafkaVersion, major: u16, minor: u16) -> bool {
        v.major > major || (v.major == major && v.minor >= minor)
    }
    let high_availability = at_least(since, 2, 6);
    StreamsRelease {
        since,
        default_session_timeout_ms: if at_least(since, 3, 0) {
            45_000
        } else {
            10_000
        },
        default_task_assignor: if high_availability {
            AssignorKind::HighAvailability
        } else {
            AssignorKind::Sticky
        },
        has_high_availability_assignor: high_availability,
        cooperative: at_least(since, 2, 4),
        cooperative_only: at_least(since, 4, 0),
        upgrade_from_since_2_4: at_least(since, 4, 2),
        follow_up_for_held_back: high_availability,
        thread_distribution,
        state_updater,
        latest_subscription_version,
    }
}

use StateUpdater::{Absent, Always, OptIn, OptOut};
use ThreadDistribution::{
    Interleaved, StickyBalanced, StickyBalancedSharedLoad, StickyWithinClient,
};

/// Every range, oldest first: (since, `SubscriptionInfo` version, thread
/// distribution, state updater). The rules derived from the version alone
/// are derived from the version in one place (`release`).
pub const RELEASES: &[StreamsRelease] = &[
    release(0, 0, 2, Interleaved, Absent),
    release(2, 0, 3, Interleaved, Absent),
    release(2, 1, 4, Interleaved, Absent),
    release(2, 4, 5, StickyWithinClient, Absent),
    release(2, 5, 6, StickyWithinClient, Absent),
    release(2, 6, 8, StickyBalanced, Absent),
    release(2, 8, 9, StickyBalanced, Absent),
    release(3, 0, 10, StickyBalanced, Absent),
    release(3, 2, 11, StickyBalancedSharedLoad, Absent),
    release(3, 4, 11, StickyBalancedSharedLoad, OptIn),
    release(3, 8, 11, StickyBalancedSharedLoad, OptOut),
    release(4, 0, 11, StickyBalancedSharedLoad, OptOut),
    release(4, 2, 11, StickyBalancedSharedLoad, OptOut),
    release(4, 3, 11, StickyBalancedSharedLoad, Always),
];

/// Every Kafka Streams release a scenario may name, oldest first
/// (`major.minor`; 0.10.0–0.10.2 are one).
pub const KNOWN_RELEASES: &[KafkaVersion] = &[
    KafkaVersion::new(0, 10),
    KafkaVersion::new(0, 11),
    KafkaVersion::new(1, 0),
    KafkaVersion::new(1, 1),
    KafkaVersion::new(2, 0),
    KafkaVersion::new(2, 1),
    KafkaVersion::new(2, 2),
    KafkaVersion::new(2, 3),
    KafkaVersion::new(2, 4),
    KafkaVersion::new(2, 5),
    KafkaVersion::new(2, 6),
    KafkaVersion::new(2, 7),
    KafkaVersion::new(2, 8),
    KafkaVersion::new(3, 0),
    KafkaVersion::new(3, 1),
    KafkaVersion::new(3, 2),
    KafkaVersion::new(3, 3),
    KafkaVersion::new(3, 4),
    KafkaVersion::new(3, 5),
    KafkaVersion::new(3, 6),
    KafkaVersion::new(3, 7),
    KafkaVersion::new(3, 8),
    KafkaVersion::new(3, 9),
    KafkaVersion::new(4, 0),
    KafkaVersion::new(4, 1),
    KafkaVersion::new(4, 2),
    NEWEST_RELEASE,
];

impl ReleaseRow for StreamsRelease {
    fn since(&self) -> KafkaVersion {
        self.since
    }
}

/// The rules of the release `version` belongs to.
pub fn streams_release(version: KafkaVersion) -> &'static StreamsRelease {
    release_row(RELEASES, version)
}

/// The rebalance protocol an instance of `version` runs: COOPERATIVE unless
/// its code predates KIP-429, or `upgrade.from` names such a release on a
/// release that still has EAGER (`AssignorConfiguration.rebalanceProtocol`:
/// `0100` … `2.3` force EAGER up to 3.9; 4.0 has no EAGER, KAFKA-18839).
pub fn runs_cooperative(version: KafkaVersion, upgrade_from: Option<KafkaVersion>) -> bool {
    let release = streams_release(version);
    release.cooperative_only
        || (release.cooperative && upgrade_from.is_none_or(|u| streams_release(u).cooperative))
}

/// The task assignor a leader of `version` runs when its config asks for
/// `configured`: a leader without `HighAvailabilityTaskAssignor` runs
/// `StickyTaskAssignor`.
pub fn leader_task_assignor(version: KafkaVersion, configured: AssignorKind) -> AssignorKind {
    match configured {
        AssignorKind::HighAvailability
            if streams_release(version).has_high_availability_assignor =>
        {
            AssignorKind::HighAvailability
        }
        _ => AssignorKind::Sticky,
    }
}

/// The `upgrade.from` values Kafka Streams `version` accepts, oldest first
/// (`StreamsConfig`'s validator, `UpgradeFromValues`, and from 4.0
/// `AssignorConfiguration.validateUpgradeFrom`): up to 2.3 the releases
/// before 2.0, up to 3.2 also 2.0 … 2.3, from 3.3 every earlier release;
/// from 4.0 none before 2.4.
pub fn accepted_upgrade_from(version: KafkaVersion) -> Vec<KafkaVersion> {
    let release = streams_release(version);
    let highest = if version < KafkaVersion::new(2, 4) {
        KafkaVersion::new(1, 1)
    } else if version < KafkaVersion::new(3, 3) {
        KafkaVersion::new(2, 3)
    } else {
        version
    };
    KNOWN_RELEASES
        .iter()
        .copied()
        .filter(|&v| v <= highest && v < version)
        .filter(|&v| !release.cooperative_only || streams_release(v).cooperative)
        .collect()
}

/// Whether `version`'s stream threads restore on a state updater thread,
/// given `__state.updater.enabled__` (`None`: the release's default).
pub fn state_updater_restores(version: KafkaVersion, flag: Option<bool>) -> bool {
    match streams_release(version).state_updater {
        StateUpdater::Absent => false,
        StateUpdater::OptIn => flag.unwrap_or(false),
        StateUpdater::OptOut => flag.unwrap_or(true),
        StateUpdater::Always => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(major: u16, minor: u16) -> KafkaVersion {
        KafkaVersion::new(major, minor)
    }

    #[test]
    fn rows_are_in_release_order() {
        assert!(RELEASES.windows(2).all(|w| w[0].since < w[1].since));
        assert!(RELEASES
            .windows(2)
            .all(|w| w[0].latest_subscription_version <= w[1].latest_subscription_version));
        assert!(KNOWN_RELEASES.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(KNOWN_RELEASES.last(), Some(&NEWEST_RELEASE));
        assert_eq!(KafkaVersion::DEFAULT, NEWEST_RELEASE);
    }

    #[test]
    fn lookup_finds_the_range() {
        // `StreamsAssignmentProtocolVersions.LATEST_SUPPORTED_VERSION` per release.
        let latest = |major, minor| streams_release(v(major, minor)).latest_subscription_version;
        assert_eq!(latest(0, 10), 2);
        assert_eq!(latest(2, 0), 3);
        assert_eq!(latest(2, 3), 4);
        assert_eq!(latest(2, 4), 5);
        assert_eq!(latest(2, 5), 6);
        assert_eq!(latest(2, 7), 8);
        assert_eq!(latest(2, 8), 9);
        assert_eq!(latest(3, 1), 10);
        assert_eq!(latest(3, 2), 11);
        assert_eq!(latest(4, 3), 11);
        assert_eq!(streams_release(v(2, 8)).default_session_timeout_ms, 10_000);
        assert_eq!(streams_release(v(3, 0)).default_session_timeout_ms, 45_000);
        assert_eq!(
            streams_release(v(2, 5)).default_task_assignor,
            AssignorKind::Sticky
        );
        assert_eq!(
            streams_release(v(2, 6)).default_task_assignor,
            AssignorKind::HighAvailability
        );
        assert_eq!(
            streams_release(v(3, 1)).thread_distribution,
            ThreadDistribution::StickyBalanced
        );
        assert!(!streams_release(v(2, 5)).follow_up_for_held_back);
    }

    #[test]
    fn upgrade_from_up_to_2_3_forces_eager_until_4_0_drops_it_kafka_18839() {
        assert!(!runs_cooperative(v(2, 3), None));
        assert!(runs_cooperative(v(2, 4), None));
        assert!(!runs_cooperative(v(3, 9), Some(v(2, 3))));
        assert!(!runs_cooperative(v(3, 8), Some(v(0, 10))));
        assert!(runs_cooperative(v(3, 8), Some(v(2, 4))));
        assert!(runs_cooperative(v(4, 0), Some(v(2, 3))));
    }

    #[test]
    fn upgrade_from_values_per_release_kafka_19703() {
        let first_last = |r: KafkaVersion| {
            let a = accepted_upgrade_from(r);
            (a.first().copied(), a.last().copied())
        };
        assert_eq!(first_last(v(2, 3)), (Some(v(0, 10)), Some(v(1, 1))));
        assert_eq!(first_last(v(3, 2)), (Some(v(0, 10)), Some(v(2, 3))));
        assert_eq!(first_last(v(3, 9)), (Some(v(0, 10)), Some(v(3, 8))));
        assert_eq!(first_last(v(4, 0)), (Some(v(2, 4)), Some(v(3, 9))));
        assert_eq!(first_last(v(4, 3)), (Some(v(2, 4)), Some(v(4, 2))));
    }

    #[test]
    fn the_state_updater_is_opt_in_then_default_then_mandatory_kafka_10199() {
        assert!(!state_updater_restores(v(3, 3), Some(true)));
        assert!(!state_updater_restores(v(3, 7), None));
        assert!(state_updater_restores(v(3, 7), Some(true)));
        assert!(state_updater_restores(v(3, 8), None));
        assert!(!state_updater_restores(v(4, 2), Some(false)));
        assert!(state_updater_restores(v(4, 3), Some(false)));
    }

    #[test]
    fn an_old_leader_runs_the_sticky_assignor_whatever_its_config() {
        use AssignorKind::*;
        assert_eq!(leader_task_assignor(v(2, 5), HighAvailability), Sticky);
        assert_eq!(
            leader_task_assignor(v(2, 6), HighAvailability),
            HighAvailability
        );
        assert_eq!(leader_task_assignor(v(3, 8), Sticky), Sticky);
    }
}
