//! A Kafka release, shared by both families: scenarios name the version
//! their instances or workers run, and each family's release table
//! (`streams::versions` for Kafka Streams, `connect::versions` for Kafka
//! Connect) maps it to behaviour with one lookup, [`release_row`].

use serde::{Deserialize, Serialize};

/// A Kafka version, `major.minor` or `major.minor.patch` (e.g. `2.3`,
/// `2.6.2`). `major.minor` is the line's first release (`2.6` is `2.6.0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KafkaVersion {
    /// Major.
    pub major: u16,
    /// Minor.
    pub minor: u16,
    /// Patch (0 for `major.minor`).
    pub patch: u16,
}

impl KafkaVersion {
    /// The version the playground assumes when a scenario names none.
    pub const DEFAULT: KafkaVersion = KafkaVersion::new(4, 3);

    /// The newest Kafka release the playground models.
    pub const NEWEST: KafkaVersion = KafkaVersion::new(4, 3);

    /// `major.minor`, the line's first release.
    pub const fn new(major: u16, minor: u16) -> Self {
        Self::release(major, minor, 0)
    }

    /// `major.minor.patch`.
    pub const fn release(major: u16, minor: u16, patch: u16) -> Self {
        Self {
            major,
            minor,
            patch,
        }
    }

    /// Parses `2.3`, `2.6.2`, or `0100`-style `upgrade.from` values (`0100` → 0.10).
    pub fn parse(text: &str) -> Option<KafkaVersion> {
        let legacy = match text {
            "0100" => Some((0, 10)),
            "0101" | "0102" | "0110" => Some((0, 11)),
            _ => None,
        };
        if let Some((major, minor)) = legacy {
            return Some(Self::new(major, minor));
        }
        let mut parts = text.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        let patch = match parts.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        if parts.next().is_some() {
            return None;
        }
        Some(Self::release(major, minor, patch))
    }

    /// Earlier than `major.minor`.
    pub fn before(self, major: u16, minor: u16) -> bool {
        self < Self::new(major, minor)
    }

    /// The release line, `major.minor`.
    pub fn line(self) -> KafkaVersion {
        Self::new(self.major, self.minor)
    }
}

impl std::fmt::Display for KafkaVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.patch == 0 {
            write!(f, "{}.{}", self.major, self.minor)
        } else {
            write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
        }
    }
}

impl Serialize for KafkaVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for KafkaVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        KafkaVersion::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{text}` is not a Kafka version like 2.3, 3.8 or 2.6.2"
            ))
        })
    }
}

/// A row of a family's release table: the rules that hold from its first
/// release until the next row's.
pub(crate) trait ReleaseRow {
    /// The first release the row describes.
    fn since(&self) -> KafkaVersion;
}

/// The row of `rows` (oldest first, a row at every release where a rule
/// changes) that `version` belongs to: the last one it is not older than,
/// or the first row for anything older.
pub(crate) fn release_row<R: ReleaseRow>(rows: &[R], version: KafkaVersion) -> &R {
    let after = rows.partition_point(|r| r.since() <= version);
    &rows[after.saturating_sub(1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_patches_and_legacy_values() {
        assert_eq!(
            KafkaVersion::parse("2.6.2"),
            Some(KafkaVersion::release(2, 6, 2))
        );
        assert_eq!(KafkaVersion::parse("2.6"), Some(KafkaVersion::new(2, 6)));
        assert_eq!(KafkaVersion::parse("2.6.0"), KafkaVersion::parse("2.6"));
        assert_eq!(KafkaVersion::parse("0100"), Some(KafkaVersion::new(0, 10)));
        for bad in ["", "2", "2.x", "2.6.x", "2.6.2.1", "v2.6"] {
            assert_eq!(KafkaVersion::parse(bad), None, "{bad}");
        }
        assert_eq!(KafkaVersion::release(3, 5, 2).to_string(), "3.5.2");
        assert_eq!(KafkaVersion::release(3, 8, 0).to_string(), "3.8");
        assert!(KafkaVersion::release(2, 5, 1) < KafkaVersion::new(2, 6));
        assert!(KafkaVersion::new(2, 5) < KafkaVersion::release(2, 5, 1));
    }

    struct Row(KafkaVersion);
    impl ReleaseRow for Row {
        fn since(&self) -> KafkaVersion {
            self.0
        }
    }

    #[test]
    fn a_version_belongs_to_the_last_row_it_reached() {
        let rows = [
            Row(KafkaVersion::new(2, 3)),
            Row(KafkaVersion::release(2, 6, 2)),
            Row(KafkaVersion::new(2, 7)),
        ];
        let row = |v| release_row(&rows, v).0;
        assert_eq!(row(KafkaVersion::new(2, 0)), KafkaVersion::new(2, 3));
        assert_eq!(row(KafkaVersion::release(2, 6, 1)), KafkaVersion::new(2, 3));
        assert_eq!(
            row(KafkaVersion::release(2, 6, 2)),
            KafkaVersion::release(2, 6, 2)
        );
        assert_eq!(row(KafkaVersion::new(2, 7)), KafkaVersion::new(2, 7));
        assert_eq!(row(KafkaVersion::new(4, 3)), KafkaVersion::new(2, 7));
    }
}
