//! A Kafka release as `major.minor`, shared by both families: scenarios name
//! the version their instances or workers run, and each family's version
//! table (`streams::versions` for Kafka Streams) maps it to behaviour.

use serde::{Deserialize, Serialize};

/// A Kafka version, `major.minor` (e.g. `2.3`, `3.8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KafkaVersion {
    /// Major.
    pub major: u16,
    /// Minor.
    pub minor: u16,
}

impl KafkaVersion {
    /// The version the playground assumes when a scenario names none.
    pub const DEFAULT: KafkaVersion = KafkaVersion::new(4, 3);

    /// `major.minor`.
    pub const fn new(major: u16, minor: u16) -> Self {
        Self { major, minor }
    }

    /// Parses `2.3`, `3.8` or `0100`-style `upgrade.from` values (`0100` → 0.10).
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
        if parts.next().is_some_and(|p| p.parse::<u16>().is_err()) {
            return None;
        }
        Some(Self::new(major, minor))
    }

    /// Earlier than `major.minor`.
    pub fn before(self, major: u16, minor: u16) -> bool {
        self < Self::new(major, minor)
    }
}

impl std::fmt::Display for KafkaVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
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
            serde::de::Error::custom(format!("`{text}` is not a Kafka version like 2.3 or 3.8"))
        })
    }
}
