//! `connect.protocol` and how the broker picks the group protocol:
//! `ConnectProtocolCompatibility`, `WorkerCoordinator.metadata` and the
//! classic group's vote (`ClassicGroup.selectProtocol`, `ClassicGroupMember.vote`).

use serde::{Deserialize, Serialize};

/// A worker's `connect.protocol` setting. Ordered from oldest to newest, so the
/// minimum over the group is the mode the group runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConnectProtocol {
    /// Stop-the-world; advertised in JoinGroup as `default` (V0).
    Eager,
    /// Incremental cooperative without request signing (V1). Default in 2.3.x.
    Compatible,
    /// Incremental cooperative with KIP-507 session keys (V2). Default since 2.4.0.
    Sessioned,
}

impl ConnectProtocol {
    /// The protocol name in JoinGroup (eager is `default` on the wire).
    pub fn wire_name(self) -> &'static str {
        match self {
            Self::Eager => "default",
            Self::Compatible => "compatible",
            Self::Sessioned => "sessioned",
        }
    }

    /// The value as written in a worker config.
    pub fn config_value(self) -> &'static str {
        match self {
            Self::Eager => "eager",
            Self::Compatible => "compatible",
            Self::Sessioned => "sessioned",
        }
    }

    /// The Connect protocol version (header of metadata and assignments).
    pub fn version(self) -> i16 {
        match self {
            Self::Eager => 0,
            Self::Compatible => 1,
            Self::Sessioned => 2,
        }
    }

    /// True for the incremental cooperative modes.
    pub fn is_cooperative(self) -> bool {
        self != Self::Eager
    }

    /// The protocols a worker in this mode advertises, most preferred first
    /// (`WorkerCoordinator.metadata`).
    pub fn advertised(self) -> &'static [ConnectProtocol] {
        match self {
            Self::Eager => &[Self::Eager],
            Self::Compatible => &[Self::Compatible, Self::Eager],
            Self::Sessioned => &[Self::Sessioned, Self::Compatible, Self::Eager],
        }
    }
}

/// The broker's choice (`ClassicGroup.selectProtocol`): candidates are the protocols every member
/// supports; each member votes for its first candidate; most votes wins.
/// Connect workers share one preference order, so the vote is unanimous and the
/// group runs the lowest mode present. `None` when there are no members.
pub fn select_group_protocol<I>(members: I) -> Option<ConnectProtocol>
where
    I: IntoIterator<Item = ConnectProtocol>,
{
    let modes: Vec<ConnectProtocol> = members.into_iter().collect();
    if modes.is_empty() {
        return None;
    }
    let supported_by_all = |p: ConnectProtocol| modes.iter().all(|m| m.advertised().contains(&p));
    let mut votes = [0usize; 3];
    for m in &modes {
        if let Some(first) = m
            .advertised()
            .iter()
            .copied()
            .find(|p| supported_by_all(*p))
        {
            votes[first as usize] += 1;
        }
    }
    // Most votes wins; Connect's unanimous votes make tie-breaking moot.
    [
        ConnectProtocol::Sessioned,
        ConnectProtocol::Compatible,
        ConnectProtocol::Eager,
    ]
    .into_iter()
    .max_by_key(|p| votes[*p as usize])
    .filter(|p| votes[*p as usize] > 0)
}

#[cfg(test)]
mod tests {
    use super::ConnectProtocol::*;
    use super::*;

    #[test]
    fn one_eager_worker_makes_the_group_eager() {
        assert_eq!(
            select_group_protocol([Sessioned, Sessioned, Eager]),
            Some(Eager)
        );
    }

    #[test]
    fn one_compatible_worker_turns_session_keys_off() {
        assert_eq!(
            select_group_protocol([Sessioned, Compatible]),
            Some(Compatible)
        );
        assert_eq!(
            select_group_protocol([Sessioned, Sessioned]),
            Some(Sessioned)
        );
    }

    #[test]
    fn eager_is_called_default_on_the_wire() {
        assert_eq!(Eager.wire_name(), "default");
        assert_eq!(select_group_protocol([]), None);
    }
}
