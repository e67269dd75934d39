//! Identities in Kafka Streams' assignment: `TaskId` and `ProcessId`.
//!
//! Both orders matter for the result, because Kafka's assignors walk tasks
//! and clients in sorted order and break ties by them (`TaskId.compareTo`, `UUID.compareTo`).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A Streams task: `TaskId(subtopology, partition)`.
///
/// Ordering is (subtopology, partition), as Kafka's `TaskId.compareTo` for
/// tasks without a named topology. Named topologies are not modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamsTaskId {
    /// The subtopology, Kafka's `topicGroupId`.
    pub subtopology: u32,
    /// The input partition the task reads (and its changelog partition).
    pub partition: u32,
}

impl StreamsTaskId {
    /// The task `subtopology_partition`.
    pub const fn new(subtopology: u32, partition: u32) -> Self {
        Self {
            subtopology,
            partition,
        }
    }
}

impl StreamsTaskId {
    /// Java's `TaskId.hashCode()`: `Objects.hash(subtopology, partition,
    /// topologyName)` with no named topology. Kafka iterates
    /// `HashSet<TaskId>`s in an order derived from it.
    pub const fn java_hash_code(self) -> i32 {
        let h = 31i32.wrapping_add(self.subtopology as i32);
        let h = h.wrapping_mul(31).wrapping_add(self.partition as i32);
        h.wrapping_mul(31)
    }
}

impl fmt::Display for StreamsTaskId {
    /// Kafka's `TaskId.toString`: `<subtopology>_<partition>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.subtopology, self.partition)
    }
}

/// Why a string is not a task id or a process id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseIdError(pub String);

impl fmt::Display for ParseIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseIdError {}

impl FromStr for StreamsTaskId {
    type Err = ParseIdError;

    /// Parses `<subtopology>_<partition>`, e.g. `1_3`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            ParseIdError(format!(
                "`{s}` is not a task id `<subtopology>_<partition>`"
            ))
        };
        let (subtopology, partition) = s.split_once('_').ok_or_else(bad)?;
        let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        if !digits(subtopology) || !digits(partition) {
            return Err(bad());
        }
        Ok(Self {
            subtopology: subtopology.parse().map_err(|_| bad())?,
            partition: partition.parse().map_err(|_| bad())?,
        })
    }
}

/// A Streams client's `ProcessId`: a `java.util.UUID`.
///
/// Kafka keeps clients in a `TreeMap<ProcessId, ClientState>`, so this order
/// decides the round-robin and every tie. It is Java's `UUID.compareTo`: the
/// most- and least-significant 64-bit halves compared as **signed** longs,
/// not the lexicographic order of the UUID string (`UUID.compareTo`). For example
/// `80000000-…` sorts before `00000000-…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProcessId {
    most_significant_bits: i64,
    least_significant_bits: i64,
}

impl ProcessId {
    /// `new UUID(mostSigBits, leastSigBits)`.
    pub const fn new(most_significant_bits: i64, least_significant_bits: i64) -> Self {
        Self {
            most_significant_bits,
            least_significant_bits,
        }
    }

    /// `new UUID(0, n)`: the ids used by Kafka's tests and the conformance
    /// vectors (`Pn`), which sort in numeric order.
    pub const fn from_position(n: i64) -> Self {
        Self::new(0, n)
    }

    /// The UUID's most significant 64 bits.
    pub const fn most_significant_bits(self) -> i64 {
        self.most_significant_bits
    }

    /// The UUID's least significant 64 bits.
    pub const fn least_significant_bits(self) -> i64 {
        self.least_significant_bits
    }

    /// Java's `UUID.hashCode()` (and `ProcessId.hashCode()`, which delegates
    /// to it). Kafka iterates `HashSet<ProcessId>`s in an order derived from it.
    pub const fn java_hash_code(self) -> i32 {
        let hilo = self.most_significant_bits ^ self.least_significant_bits;
        ((hilo >> 32) as i32) ^ (hilo as i32)
    }
}

impl Ord for ProcessId {
    /// Java's `UUID.compareTo`: signed comparison of the two halves.
    fn cmp(&self, other: &Self) -> Ordering {
        self.most_significant_bits
            .cmp(&other.most_significant_bits)
            .then(
                self.least_significant_bits
                    .cmp(&other.least_significant_bits),
            )
    }
}

impl PartialOrd for ProcessId {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for ProcessId {
    /// The canonical `8-4-4-4-12` lower-case hex form, as `UUID.toString`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msb = self.most_significant_bits as u64;
        let lsb = self.least_significant_bits as u64;
        write!(
            f,
            "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            msb >> 32,
            (msb >> 16) & 0xffff,
            msb & 0xffff,
            lsb >> 48,
            lsb & 0xffff_ffff_ffff
        )
    }
}

impl FromStr for ProcessId {
    type Err = ParseIdError;

    /// Parses the canonical `8-4-4-4-12` hex form (either case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            ParseIdError(format!(
                "`{s}` is not a UUID `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`"
            ))
        };
        let groups: Vec<&str> = s.split('-').collect();
        let widths = [8, 4, 4, 4, 12];
        if groups.len() != widths.len()
            || groups
                .iter()
                .zip(widths)
                .any(|(g, w)| g.len() != w || !g.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            return Err(bad());
        }
        let hex = |g: &str| u64::from_str_radix(g, 16).map_err(|_| bad());
        let msb = (hex(groups[0])? << 32) | (hex(groups[1])? << 16) | hex(groups[2])?;
        let lsb = (hex(groups[3])? << 48) | hex(groups[4])?;
        Ok(Self::new(msb as i64, lsb as i64))
    }
}

impl serde::Serialize for ProcessId {
    /// As its UUID string.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for ProcessId {
    /// From its UUID string.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_ids_sort_by_subtopology_then_partition() {
        let mut ids: Vec<StreamsTaskId> = ["1_0", "0_10", "0_2", "2_1"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        ids.sort();
        let shown: Vec<String> = ids.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["0_2", "0_10", "1_0", "2_1"]);
        assert!("0-1".parse::<StreamsTaskId>().is_err());
        assert!("_1".parse::<StreamsTaskId>().is_err());
        assert!("1_".parse::<StreamsTaskId>().is_err());
    }

    #[test]
    fn process_ids_compare_as_signed_halves() {
        let high: ProcessId = "80000000-0000-0000-0000-000000000000".parse().unwrap();
        let zero: ProcessId = "00000000-0000-0000-0000-000000000000".parse().unwrap();
        let one = ProcessId::from_position(1);
        assert!(high < zero, "the sign bit makes 8000… negative");
        assert!(zero < one);
        let low_negative: ProcessId = "00000000-0000-0000-8000-000000000000".parse().unwrap();
        assert!(low_negative < zero);
        assert_eq!(one.to_string(), "00000000-0000-0000-0000-000000000001");
        let round: ProcessId = "0123abcd-4567-89ab-cdef-0123456789ab".parse().unwrap();
        assert_eq!(round.to_string(), "0123abcd-4567-89ab-cdef-0123456789ab");
        assert!("0123abcd-4567-89ab-cdef-0123456789a"
            .parse::<ProcessId>()
            .is_err());
    }

    #[test]
    fn task_id_hash_code_is_objects_hash() {
        // new TaskId(0, 0).hashCode() == 29791; new TaskId(1, 2).hashCode() == 30814.
        assert_eq!(StreamsTaskId::new(0, 0).java_hash_code(), 29_791);
        assert_eq!(StreamsTaskId::new(1, 2).java_hash_code(), 30_814);
    }

    #[test]
    fn java_hash_code_matches_uuid_hash_code() {
        // new UUID(0, 5).hashCode() == 5; new UUID(1L << 32, 0).hashCode() == 1.
        assert_eq!(ProcessId::from_position(5).java_hash_code(), 5);
        assert_eq!(ProcessId::new(1 << 32, 0).java_hash_code(), 1);
        assert_eq!(ProcessId::new(-1, 0).java_hash_code(), 0);
    }
}
