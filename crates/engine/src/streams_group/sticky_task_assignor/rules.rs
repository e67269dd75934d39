//! Which Kafka code a `StickyTaskAssignor` run follows.
//!
//! One algorithm since 4.2 (`StickyTaskAssignor`, `ProcessState`); the
//! releases differ in two rules that change placements:
//!
//! * the pick among a task's previous standby owners when a *standby* replica
//!   is placed (`findPrevMemberWithLeastLoad`, changed by KAFKA-20899, in the
//!   4.2 and 4.3 branches from August 2026 and in 4.4);
//! * how the process map is filled (`putIfAbsent` up to 4.3,
//!   `computeIfAbsent` in 4.4 since KAFKA-20719), which changes the map's
//!   iteration order and so which of two equally loaded processes is met first.
//!
//! 4.4 also ranks the previous standby owners of a task by the task offsets
//! members report (KAFKA-20719); with no offsets reported the order is the
//! members-map order, as before.

use std::fmt;

/// The pick among a task's previous standby owners for a standby replica.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandbyOwnerPick {
    /// 4.2.0–4.3.1: start with the first candidate even if its process holds
    /// the task; if the first candidate's process holds the task, pick nobody.
    Released,
    /// KAFKA-20899: skip candidates whose process holds the task.
    SkipHolders,
}

/// How `StickyTaskAssignor#initialize` fills its process map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcessMapFill {
    /// `HashMap.putIfAbsent` (4.2, 4.3).
    PutIfAbsent,
    /// `HashMap.computeIfAbsent` (4.4, KAFKA-20719).
    ComputeIfAbsent,
}

/// The `StickyTaskAssignor` of one Kafka code line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StickyTaskAssignorVersion {
    /// Apache Kafka 4.2.0, 4.2.1, 4.3.0 and 4.3.1 (every release up to 4.3.1;
    /// the 4.2 and 4.3 assignors differ only in a comment).
    Released4_3,
    /// The 4.2 and 4.3 branches after KAFKA-20899 (10 Aug 2026): the future
    /// 4.2.2 and 4.3.2. New standby pick, old process map.
    Patched4_3,
    /// The 4.4 branch and trunk (4.4.0 unreleased when modelled): KAFKA-20899
    /// and KAFKA-20719.
    Kafka4_4,
}

impl StickyTaskAssignorVersion {
    /// The newest released code.
    pub const NEWEST_RELEASE: Self = Self::Released4_3;

    /// The code a Kafka version label names: `4.2.0` … `4.3.1`, `4.2.2`,
    /// `4.3.2` (and later patches of 4.2/4.3), `4.4`, `4.4.x`, `trunk`.
    /// `None` for versions without this assignor (before 4.2) or unknown labels.
    pub fn from_label(label: &str) -> Option<Self> {
        if label == "trunk" {
            return Some(Self::Kafka4_4);
        }
        let mut parts = label.split('.');
        let major: u32 = parts.next()?.parse().ok()?;
        let minor: u32 = parts.next()?.parse().ok()?;
        let patch: Option<u32> = match parts.next() {
            Some(p) => Some(p.parse().ok()?),
            None => None,
        };
        if parts.next().is_some() {
            return None;
        }
        match (major, minor, patch) {
            (4, 2 | 3, Some(0 | 1)) => Some(Self::Released4_3),
            (4, 2 | 3, Some(_)) => Some(Self::Patched4_3),
            // A bare `4.2` / `4.3` means the line's newest release.
            (4, 2 | 3, None) => Some(Self::Released4_3),
            (4, 4.., _) | (5.., _, _) => Some(Self::Kafka4_4),
            _ => None,
        }
    }

    /// Its rule for picking among previous standby owners.
    pub fn standby_owner_pick(self) -> StandbyOwnerPick {
        match self {
            Self::Released4_3 => StandbyOwnerPick::Released,
            Self::Patched4_3 | Self::Kafka4_4 => StandbyOwnerPick::SkipHolders,
        }
    }

    /// How it fills its process map.
    pub fn process_map_fill(self) -> ProcessMapFill {
        match self {
            Self::Released4_3 | Self::Patched4_3 => ProcessMapFill::PutIfAbsent,
            Self::Kafka4_4 => ProcessMapFill::ComputeIfAbsent,
        }
    }

    /// Whether previous standby owners are ranked by reported task offsets
    /// (KAFKA-20719).
    pub fn ranks_standby_owners_by_offsets(self) -> bool {
        self == Self::Kafka4_4
    }
}

impl fmt::Display for StickyTaskAssignorVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Released4_3 => "4.2.0–4.3.1",
            Self::Patched4_3 => "4.2/4.3 with KAFKA-20899",
            Self::Kafka4_4 => "4.4",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::StickyTaskAssignorVersion as V;

    #[test]
    fn labels_map_to_code_lines() {
        for label in ["4.2.0", "4.2.1", "4.3.0", "4.3.1", "4.3"] {
            assert_eq!(V::from_label(label), Some(V::Released4_3), "{label}");
        }
        for label in ["4.2.2", "4.3.2"] {
            assert_eq!(V::from_label(label), Some(V::Patched4_3), "{label}");
        }
        for label in ["4.4", "4.4.0", "trunk", "4.5"] {
            assert_eq!(V::from_label(label), Some(V::Kafka4_4), "{label}");
        }
        for label in ["4.1", "4.1.2", "4.0.0", "3.9", "x", "4.3.1.1", "4"] {
            assert_eq!(V::from_label(label), None, "{label}");
        }
    }

    #[test]
    fn rules_per_version() {
        use super::{ProcessMapFill, StandbyOwnerPick};
        assert_eq!(
            V::Released4_3.standby_owner_pick(),
            StandbyOwnerPick::Released
        );
        assert_eq!(
            V::Patched4_3.standby_owner_pick(),
            StandbyOwnerPick::SkipHolders
        );
        assert_eq!(
            V::Patched4_3.process_map_fill(),
            ProcessMapFill::PutIfAbsent
        );
        assert_eq!(
            V::Kafka4_4.process_map_fill(),
            ProcessMapFill::ComputeIfAbsent
        );
        assert!(V::Kafka4_4.ranks_standby_owners_by_offsets());
        assert!(!V::Patched4_3.ranks_standby_owners_by_offsets());
    }
}
