//! What a Kafka Streams release does and defaults to, as one table: every
//! rule the simulator and the scenario defaults take from the version an
//! instance runs. A version selector is a lookup in [`RELEASES`].
//!
//! Each row holds from its `since` release until the next row's. Only the
//! version-dependent rules are here; defaults that never changed stay with
//! the config they fill in (`StreamsConfig::resolve`).

use crate::kafka_version::{release_row, KafkaVersion, ReleaseRow};

use super::partition_assignor::AssignorKind;

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
    /// The latest `SubscriptionInfo` version it sends (`LATEST_SUPPORTED_VERSION`):
    /// v7 came with 2.6, v11 is 3.4's. Earlier steps are approximate; only
    /// their order matters for version probing.
    pub latest_subscription_version: u32,
}

const fn release(
    major: u16,
    minor: u16,
    latest_subscription_version: u32,
    cooperative: bool,
    high_availability: bool,
    default_session_timeout_ms: u64,
) -> StreamsRelease {
    StreamsRelease {
        since: KafkaVersion::new(major, minor),
        default_session_timeout_ms,
        default_task_assignor: if high_availability {
            AssignorKind::HighAvailability
        } else {
            AssignorKind::Sticky
        },
        has_high_availability_assignor: high_availability,
        cooperative,
        latest_subscription_version,
    }
}

/// Every range, oldest first: (since, subscription version, KIP-429
/// cooperative, KIP-441 assignor, default session timeout).
pub const RELEASES: &[StreamsRelease] = &[
    release(0, 0, 2, false, false, 10_000),
    release(2, 0, 3, false, false, 10_000),
    release(2, 1, 4, false, false, 10_000),
    release(2, 3, 5, false, false, 10_000),
    release(2, 4, 6, true, false, 10_000),
    release(2, 6, 7, true, true, 10_000),
    release(2, 7, 8, true, true, 10_000),
    release(2, 8, 9, true, true, 10_000),
    release(3, 0, 10, true, true, 45_000),
    release(3, 4, 11, true, true, 45_000),
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
/// its code predates KIP-429 or `upgrade.from` names such a release
/// (`AssignorConfiguration.rebalanceProtocol`: `0100` … `2.3` force EAGER,
/// later values have no effect on the protocol).
pub fn runs_cooperative(version: KafkaVersion, upgrade_from: Option<KafkaVersion>) -> bool {
    streams_release(version).cooperative
        && upgrade_from.is_none_or(|u| streams_release(u).cooperative)
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
            .all(|w| w[0].latest_subscription_version < w[1].latest_subscription_version));
    }

    #[test]
    fn lookup_finds_the_range() {
        let latest = |major, minor| streams_release(v(major, minor)).latest_subscription_version;
        assert_eq!(latest(0, 10), 2);
        assert_eq!(latest(1, 1), 2);
        assert_eq!(latest(2, 2), 4);
        assert_eq!(latest(2, 5), 6);
        assert_eq!(latest(2, 6), 7);
        assert_eq!(latest(2, 9), 9);
        assert_eq!(latest(3, 3), 10);
        assert_eq!(latest(3, 8), 11);
        assert_eq!(latest(4, 1), 11);
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
    }

    #[test]
    fn upgrade_from_up_to_2_3_forces_eager() {
        assert!(!runs_cooperative(v(2, 3), None));
        assert!(runs_cooperative(v(2, 4), None));
        assert!(!runs_cooperative(v(3, 8), Some(v(2, 3))));
        assert!(!runs_cooperative(v(3, 8), Some(v(0, 10))));
        assert!(runs_cooperative(v(3, 8), Some(v(2, 4))));
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
