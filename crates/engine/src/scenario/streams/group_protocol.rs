//! Streams' `group.protocol` (KIP-1071): `classic` (the consumer group
//! protocol with `StreamsPartitionAssignor` on a client leader) or `streams`
//! (the broker computes the assignment), and which Kafka Streams versions
//! accept which.

use serde::{Deserialize, Serialize};

use super::{KafkaVersion, ResolvedStreamsConfig};
use crate::scenario::ScenarioError;

/// `group.protocol` (`StreamsConfig.GROUP_PROTOCOL_CONFIG`, 4.1+; default `classic`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GroupProtocol {
    /// The classic consumer group protocol: JoinGroup/SyncGroup rounds, the
    /// leader's `StreamsPartitionAssignor` decides.
    #[default]
    Classic,
    /// The streams rebalance protocol (KIP-1071): `StreamsGroupHeartbeat`,
    /// the group coordinator's `StickyTaskAssignor` decides.
    Streams,
}

/// How far a Kafka Streams version supports `group.protocol=streams`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamsProtocolSupport {
    /// Before 4.1: no KIP-1071 code; Streams forces its consumers to
    /// `group.protocol=classic` (`StreamsConfig` `NON_CONFIGURABLE_CONSUMER_DEFAULT_CONFIGS`).
    Unsupported,
    /// 4.1: early access. Kafka's docs say not to use it in production; the
    /// broker needs `unstable.api.versions.enable` and feature `streams.version=1`,
    /// and the client logs "The streams rebalance protocol is still in development".
    EarlyAccess,
    /// 4.2 and later: generally available for a core feature set.
    GenerallyAvailable,
}

impl StreamsProtocolSupport {
    /// The support in Kafka Streams `version`.
    pub fn of(version: KafkaVersion) -> Self {
        if version.before(4, 1) {
            Self::Unsupported
        } else if version.before(4, 2) {
            Self::EarlyAccess
        } else {
            Self::GenerallyAvailable
        }
    }
}

/// Kafka's refusals of `group.protocol` for a member of `version`
/// (`StreamsConfig#verifyStreamsProtocolCompatibility`); `field` names the
/// config being checked, e.g. `compare[1].config`.
pub(crate) fn check(
    resolved: &ResolvedStreamsConfig,
    version: KafkaVersion,
    at: &str,
) -> Result<(), ScenarioError> {
    if resolved.group_protocol != GroupProtocol::Streams {
        return Ok(());
    }
    let field = format!("{at}.group.protocol");
    if StreamsProtocolSupport::of(version) == StreamsProtocolSupport::Unsupported {
        return Err(ScenarioError::invalid(
            field,
            format!(
                "is `streams`, which needs Kafka Streams 4.1 or later (KIP-1071); {version} forces its consumers to `classic`. Set `kafka_version` to 4.1 or later, or remove the key"
            ),
        ));
    }
    if resolved.group_instance_id.is_some() && version.before(4, 4) {
        return Err(ScenarioError::invalid(
            field,
            format!(
                "is `streams` together with `group.instance.id`: Kafka Streams {version} refuses static membership with the streams protocol (ConfigException; supported from 4.4). Remove `group.instance.id` or use `classic`"
            ),
        ));
    }
    Ok(())
}

/// An event's instances must run the column's protocol: a group is either a
/// classic or a streams group (`Group.GroupType`), and Kafka has no online
/// migration between them (an empty group can be converted offline, 4.2+;
/// a classic member's JoinGroup to a streams group, or a streams heartbeat
/// to a classic group, is refused). A streams column's instances must also
/// run 4.1 or later, which [`check`] refuses otherwise.
pub(crate) fn check_same_protocol(
    column: &super::StreamsConfig,
    event: &super::StreamsConfig,
    at: &str,
) -> Result<(), ScenarioError> {
    let of = |c: &super::StreamsConfig| c.group_protocol.unwrap_or_default();
    if of(column) == of(event) {
        return Ok(());
    }
    Err(ScenarioError::invalid(
        format!("{at}.config.group.protocol"),
        format!(
            "switches an instance to `{}` in a `{}` column: a group is either a classic or a streams group and Kafka has no online migration between them (only an empty group converts, offline, 4.2+). Use one protocol per column, or a second column",
            protocol_name(of(event)),
            protocol_name(of(column))
        ),
    ))
}

fn protocol_name(p: GroupProtocol) -> &'static str {
    match p {
        GroupProtocol::Classic => "classic",
        GroupProtocol::Streams => "streams",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_by_version() {
        let v = |s: &str| KafkaVersion::parse(s).unwrap();
        assert_eq!(
            StreamsProtocolSupport::of(v("3.9")),
            StreamsProtocolSupport::Unsupported
        );
        assert_eq!(
            StreamsProtocolSupport::of(v("4.0")),
            StreamsProtocolSupport::Unsupported
        );
        assert_eq!(
            StreamsProtocolSupport::of(v("4.1")),
            StreamsProtocolSupport::EarlyAccess
        );
        assert_eq!(
            StreamsProtocolSupport::of(v("4.2")),
            StreamsProtocolSupport::GenerallyAvailable
        );
        assert_eq!(
            StreamsProtocolSupport::of(v("4.3")),
            StreamsProtocolSupport::GenerallyAvailable
        );
        assert_eq!(
            StreamsProtocolSupport::of(v("4.4")),
            StreamsProtocolSupport::GenerallyAvailable
        );
    }

    #[test]
    fn serde_names_are_kafkas() {
        assert_eq!(
            serde_json::to_string(&GroupProtocol::Streams).unwrap(),
            "\"streams\""
        );
        assert_eq!(
            serde_json::from_str::<GroupProtocol>("\"classic\"").unwrap(),
            GroupProtocol::Classic
        );
        assert!(serde_json::from_str::<GroupProtocol>("\"consumer\"").is_err());
    }
}
