//! What a Kafka Connect release does and defaults to, as one table: the
//! `connect.protocol` default and which of the assignor fixes the simulator
//! models it contains. A version selector is a lookup in [`RELEASES`], with
//! the same mechanism as Kafka Streams' table (`kafka_version::release_row`).
//!
//! Rows sit at every release where something changes, from the release
//! tags that contain each fix: a fix backported to older lines shows up in
//! their patch release (KAFKA-10413 in 2.6.2 and 2.7.1, so 2.7.0 lacks it).
//! `IncrementalCooperativeAssignor` and `WorkerCoordinator` have not changed
//! behaviour since 3.7 (4.x only refactored them).

use crate::kafka_version::{release_row, KafkaVersion, ReleaseRow};

use super::protocol::ConnectProtocol;

/// The oldest release the playground models: 2.3.0 shipped incremental
/// cooperative rebalancing (KIP-415), the assignor everything else here
/// changes.
pub const OLDEST: KafkaVersion = KafkaVersion::new(2, 3);

/// The newest release line the playground models (any patch of it).
pub const NEWEST: KafkaVersion = KafkaVersion::NEWEST;

/// Which assignor fixes a release contains, each named by its JIRA issue.
/// Everything not listed behaves as in the newest release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssignorFixes {
    /// KAFKA-9184 (2.4.0): a round with nothing lost clears a pending delay
    /// (`resetDelay`); before, the last delay was sent again and again.
    pub kafka_9184_reset_delay: bool,
    /// KAFKA-9848 (2.5.1, 2.6.0): a leader whose last computed round did not
    /// complete discards its history, and work lost while no member left is
    /// reassigned at once instead of waiting for the delay.
    pub kafka_9848_generation_check: bool,
    /// KAFKA-9841 (2.5.1, 2.6.0, shipped with KAFKA-9848): every copy of work
    /// two members report is revoked.
    pub kafka_9841_revoke_duplicates: bool,
    /// KAFKA-10413 (2.6.2, 2.7.1, 2.8.0): lost work is dealt round-robin over
    /// every candidate worker (before: all to the first), and a revocation
    /// leaves each worker the ceiling of the average (before: one floor
    /// average in total was revoked).
    pub kafka_10413_spread: bool,
    /// KAFKA-12495 (3.4.0): load-balancing revocations over configured
    /// totals, allowed in consecutive rounds behind an exponential backoff.
    /// Before, the leader revoked only when an empty worker was present, over
    /// active totals, and never in two rounds in a row (`canRevoke`).
    pub kafka_12495_backoff: bool,
    /// KAFKA-15693 (3.5.2, 3.6.1, 3.7.0): with
    /// `scheduled.rebalance.max.delay.ms` 0, lost work is reassigned at once.
    /// Before, it waited for the next rebalance.
    pub kafka_15693_zero_delay: bool,
}

impl AssignorFixes {
    /// Every fix: the newest release.
    pub const ALL: AssignorFixes = AssignorFixes {
        kafka_9184_reset_delay: true,
        kafka_9848_generation_check: true,
        kafka_9841_revoke_duplicates: true,
        kafka_10413_spread: true,
        kafka_12495_backoff: true,
        kafka_15693_zero_delay: true,
    };
}

impl Default for AssignorFixes {
    fn default() -> Self {
        Self::ALL
    }
}

/// One range of Kafka Connect releases that behave alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectRelease {
    /// The first release of the range.
    pub since: KafkaVersion,
    /// `connect.protocol`'s default (`DistributedConfig`): `compatible` in
    /// 2.3, `sessioned` from 2.4 (KIP-507).
    pub default_connect_protocol: ConnectProtocol,
    /// The assignor fixes it contains.
    pub fixes: AssignorFixes,
}

impl ReleaseRow for ConnectRelease {
    fn since(&self) -> KafkaVersion {
        self.since
    }
}

const fn row(
    since: KafkaVersion,
    default_connect_protocol: ConnectProtocol,
    [k9184, k9848, k10413, k12495, k15693]: [bool; 5],
) -> ConnectRelease {
    ConnectRelease {
        since,
        default_connect_protocol,
        fixes: AssignorFixes {
            kafka_9184_reset_delay: k9184,
            kafka_9848_generation_check: k9848,
            kafka_9841_revoke_duplicates: k9848,
            kafka_10413_spread: k10413,
            kafka_12495_backoff: k12495,
            kafka_15693_zero_delay: k15693,
        },
    }
}

const fn v(major: u16, minor: u16, patch: u16) -> KafkaVersion {
    KafkaVersion::release(major, minor, patch)
}

use ConnectProtocol::{Compatible, Sessioned};

/// Every range, oldest first: (since, default `connect.protocol`,
/// [KAFKA-9184, KAFKA-9848 with KAFKA-9841, KAFKA-10413, KAFKA-12495, KAFKA-15693]).
pub const RELEASES: &[ConnectRelease] = &[
    row(v(2, 3, 0), Compatible, [false, false, false, false, false]),
    row(v(2, 4, 0), Sessioned, [true, false, false, false, false]),
    row(v(2, 5, 1), Sessioned, [true, true, false, false, false]),
    row(v(2, 6, 2), Sessioned, [true, true, true, false, false]),
    // 2.7.0 was released before KAFKA-10413 reached the 2.7 branch.
    row(v(2, 7, 0), Sessioned, [true, true, false, false, false]),
    row(v(2, 7, 1), Sessioned, [true, true, true, false, false]),
    row(v(3, 4, 0), Sessioned, [true, true, true, true, false]),
    row(v(3, 5, 2), Sessioned, [true, true, true, true, true]),
    // 3.6.0 was released before KAFKA-15693 reached the 3.6 branch.
    row(v(3, 6, 0), Sessioned, [true, true, true, true, false]),
    row(v(3, 6, 1), Sessioned, [true, true, true, true, true]),
];

/// The rules of the release `version` belongs to.
pub fn connect_release(version: KafkaVersion) -> &'static ConnectRelease {
    release_row(RELEASES, version)
}

/// Whether the playground models `version` of Kafka Connect: 2.3.0 to any
/// 4.3 release.
pub fn is_modelled(version: KafkaVersion) -> bool {
    version >= OLDEST && version.line() <= NEWEST
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_release_order_and_the_newest_has_every_fix() {
        assert!(RELEASES.windows(2).all(|w| w[0].since < w[1].since));
        assert_eq!(connect_release(NEWEST).fixes, AssignorFixes::ALL);
        assert_eq!(RELEASES[0].since, OLDEST);
    }

    /// The table against the first release of each line that contains
    /// each fix (its release tags): a release has the fix when it is at or
    /// past the fix's first release of its own line, or of an older line
    /// than the newest listed, at least the line's first release.
    #[test]
    fn each_fix_is_in_exactly_the_releases_whose_tags_contain_it() {
        type Fix = fn(&AssignorFixes) -> bool;
        let shipped: [(&str, Fix, &[KafkaVersion]); 5] = [
            ("KAFKA-9184", |f| f.kafka_9184_reset_delay, &[v(2, 4, 0)]),
            (
                "KAFKA-9848",
                |f| f.kafka_9848_generation_check && f.kafka_9841_revoke_duplicates,
                &[v(2, 5, 1), v(2, 6, 0)],
            ),
            (
                "KAFKA-10413",
                |f| f.kafka_10413_spread,
                &[v(2, 6, 2), v(2, 7, 1), v(2, 8, 0)],
            ),
            ("KAFKA-12495", |f| f.kafka_12495_backoff, &[v(3, 4, 0)]),
            (
                "KAFKA-15693",
                |f| f.kafka_15693_zero_delay,
                &[v(3, 5, 2), v(3, 6, 1), v(3, 7, 0)],
            ),
        ];
        let contains = |first: &[KafkaVersion], version: KafkaVersion| {
            let newest_line = first.iter().map(|f| f.line()).max().expect("listed");
            first
                .iter()
                .any(|f| f.line() == version.line() && version >= *f)
                || version.line() > newest_line
        };
        for minor_line in [
            (2, 3),
            (2, 4),
            (2, 5),
            (2, 6),
            (2, 7),
            (2, 8),
            (3, 0),
            (3, 3),
            (3, 4),
            (3, 5),
            (3, 6),
            (3, 7),
            (3, 9),
            (4, 0),
            (4, 3),
        ] {
            for patch in 0..=3 {
                let version = v(minor_line.0, minor_line.1, patch);
                let fixes = connect_release(version).fixes;
                for (jira, has, first) in &shipped {
                    assert_eq!(has(&fixes), contains(first, version), "{jira} in {version}");
                }
            }
        }
    }

    #[test]
    fn connect_protocol_defaults_to_compatible_in_2_3_and_sessioned_after() {
        assert_eq!(
            connect_release(v(2, 3, 1)).default_connect_protocol,
            Compatible
        );
        assert_eq!(
            connect_release(v(2, 4, 0)).default_connect_protocol,
            Sessioned
        );
        assert_eq!(connect_release(NEWEST).default_connect_protocol, Sessioned);
    }

    #[test]
    fn the_modelled_range_is_2_3_to_4_3() {
        assert!(!is_modelled(v(2, 2, 2)));
        assert!(is_modelled(v(2, 3, 0)));
        assert!(is_modelled(v(4, 3, 5)));
        assert!(!is_modelled(v(4, 4, 0)));
    }
}
