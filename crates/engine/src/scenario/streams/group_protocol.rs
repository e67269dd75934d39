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
    // The simulator's streams-group model (membership, heartbeats, target
    // assignment, reconciliation) is not in place yet: refuse rather than
    // silently simulate the classic protocol.
    Err(ScenarioError::invalid(
        field,
        "is `streams`: the streams rebalance protocol (KIP-1071) is not simulated yet; its broker-side StickyTaskAssignor is in the engine and `rebalance conformance`, the simulator follows",
    ))
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
