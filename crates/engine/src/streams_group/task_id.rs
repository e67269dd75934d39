//! Tasks and topologies as the broker sees them in a streams group
//! (KIP-1071): subtopology ids are strings, ordered as Java `String`s.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// A task of a streams group: `TaskId(subtopologyId, partition)` of
/// `org.apache.kafka.coordinator.group.streams.assignor`.
///
/// Unlike the client's `TaskId` the subtopology id is a string
/// (`String.valueOf(nodeGroupId)` on the client), and the broker orders it as
/// a Java `String`: `"10"` sorts before `"2"`. The derived `Ord` (bytes, then
/// partition) is only a storage order; [`java_string_cmp`] is the broker's.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaskId {
    /// The subtopology id, e.g. `"0"`.
    pub subtopology: String,
    /// The input partition the task reads.
    pub partition: u32,
}

impl TaskId {
    /// The task `<subtopology>_<partition>`.
    pub fn new(subtopology: impl Into<String>, partition: u32) -> Self {
        Self {
            subtopology: subtopology.into(),
            partition,
        }
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.subtopology, self.partition)
    }
}

/// Why a string is not a streams-group task id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTaskIdError(pub String);

impl fmt::Display for ParseTaskIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseTaskIdError {}

impl FromStr for TaskId {
    type Err = ParseTaskIdError;

    /// Parses `<subtopology>_<partition>`, splitting at the **last** `_`
    /// (a subtopology id may itself contain `_`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            ParseTaskIdError(format!(
                "`{s}` is not a task id `<subtopology>_<partition>`"
            ))
        };
        let (subtopology, partition) = s.rsplit_once('_').ok_or_else(bad)?;
        if subtopology.is_empty()
            || partition.is_empty()
            || !partition.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        Ok(Self::new(
            subtopology,
            partition.parse().map_err(|_| bad())?,
        ))
    }
}

/// Java's `String.compareTo`: UTF-16 code units, lexicographically.
pub fn java_string_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// One subtopology as the broker's `TopologyDescriber` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtopology {
    /// The subtopology id.
    pub id: String,
    /// Its number of tasks: the largest partition count of its source and
    /// repartition source topics (`maxNumInputPartitions`).
    pub partitions: u32,
    /// Whether it has at least one changelog topic (`isStateful`): only
    /// stateful tasks get standby replicas.
    pub stateful: bool,
}

/// The most tasks one topology may have here. Kafka has no such limit; it
/// bounds the work an untrusted scenario or vector can ask for.
pub const MAX_TASKS: u32 = 100_000;

/// Why a topology cannot be assigned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TopologyError {
    /// Two subtopologies share an id.
    DuplicateSubtopology(String),
    /// More than [`MAX_TASKS`] tasks in total.
    TooManyTasks(u64),
}

impl fmt::Display for TopologyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateSubtopology(id) => {
                write!(f, "subtopology `{id}` is listed twice; ids must be unique")
            }
            Self::TooManyTasks(n) => write!(
                f,
                "the topology has {n} tasks; at most {MAX_TASKS} are supported (lower the partition counts)"
            ),
        }
    }
}

impl std::error::Error for TopologyError {}

/// A configured topology: its subtopologies in the broker's order (ids as
/// Java `String`s, as in the `TreeMap` of `ConfiguredTopology`), with every
/// task numbered densely: subtopology by subtopology, partition by partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topology {
    subtopologies: Vec<Subtopology>,
    /// Index of each subtopology's first task.
    first_task: Vec<u32>,
    task_count: u32,
}

impl Topology {
    /// Sorts `subtopologies` by id (Java `String` order) and numbers their tasks.
    pub fn new(mut subtopologies: Vec<Subtopology>) -> Result<Self, TopologyError> {
        crate::sort_by_key::sort_stable_by(&mut subtopologies, |a, b| {
            java_string_cmp(&a.id, &b.id)
        });
        if let Some(pair) = subtopologies.windows(2).find(|w| w[0].id == w[1].id) {
            return Err(TopologyError::DuplicateSubtopology(pair[0].id.clone()));
        }
        let total: u64 = subtopologies.iter().map(|s| u64::from(s.partitions)).sum();
        if total > u64::from(MAX_TASKS) {
            return Err(TopologyError::TooManyTasks(total));
        }
        let mut first_task = Vec::with_capacity(subtopologies.len());
        let mut next = 0u32;
        for s in &subtopologies {
            first_task.push(next);
            next += s.partitions;
        }
        Ok(Self {
            subtopologies,
            first_task,
            task_count: next,
        })
    }

    /// The subtopologies, sorted by id.
    pub fn subtopologies(&self) -> &[Subtopology] {
        &self.subtopologies
    }

    /// Number of tasks (active tasks to place).
    pub fn task_count(&self) -> u32 {
        self.task_count
    }

    /// Every task of the topology, subtopology by subtopology.
    pub fn tasks(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.subtopologies
            .iter()
            .flat_map(|s| (0..s.partitions).map(move |p| TaskId::new(s.id.clone(), p)))
    }

    /// The stateful tasks, which get standby replicas.
    pub fn stateful_tasks(&self) -> BTreeSet<TaskId> {
        self.subtopologies
            .iter()
            .filter(|s| s.stateful)
            .flat_map(|s| (0..s.partitions).map(move |p| TaskId::new(s.id.clone(), p)))
            .collect()
    }

    /// The dense index of `task`, or `None` if the topology has no such task.
    pub(crate) fn index_of(&self, task: &TaskId) -> Option<u32> {
        let rank = self
            .subtopologies
            .binary_search_by(|s| java_string_cmp(&s.id, &task.subtopology))
            .ok()?;
        (task.partition < self.subtopologies[rank].partitions)
            .then(|| self.first_task[rank] + task.partition)
    }

    /// The task at dense index `index`.
    pub(crate) fn task_at(&self, index: u32) -> TaskId {
        let (rank, partition) = self.rank_and_partition(index);
        TaskId::new(self.subtopologies[rank].id.clone(), partition)
    }

    /// The subtopology rank (its place in id order) and partition of `index`.
    pub(crate) fn rank_and_partition(&self, index: u32) -> (usize, u32) {
        let rank = self.first_task.partition_point(|&first| first <= index) - 1;
        (rank, index - self.first_task[rank])
    }

    /// Whether the task at `index` belongs to a stateful subtopology.
    pub(crate) fn is_stateful(&self, index: u32) -> bool {
        self.subtopologies[self.rank_and_partition(index).0].stateful
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(id: &str, partitions: u32, stateful: bool) -> Subtopology {
        Subtopology {
            id: id.to_owned(),
            partitions,
            stateful,
        }
    }

    #[test]
    fn parses_at_the_last_underscore() {
        assert_eq!("0_3".parse::<TaskId>(), Ok(TaskId::new("0", 3)));
        assert_eq!("a_b_12".parse::<TaskId>(), Ok(TaskId::new("a_b", 12)));
        assert!("3".parse::<TaskId>().is_err());
        assert!("_3".parse::<TaskId>().is_err());
        assert!("0_".parse::<TaskId>().is_err());
        assert!("0_-1".parse::<TaskId>().is_err());
        assert!("0_99999999999".parse::<TaskId>().is_err());
        assert_eq!(TaskId::new("1", 2).to_string(), "1_2");
    }

    #[test]
    fn subtopologies_sort_as_java_strings() {
        let topology = Topology::new(vec![
            sub("2", 1, true),
            sub("10", 2, false),
            sub("1", 1, true),
        ])
        .unwrap();
        let ids: Vec<&str> = topology
            .subtopologies()
            .iter()
            .map(|s| s.id.as_str())
            .collect();
        assert_eq!(ids, ["1", "10", "2"]);
        assert_eq!(topology.task_count(), 4);
        assert_eq!(topology.index_of(&TaskId::new("10", 1)), Some(2));
        assert_eq!(topology.index_of(&TaskId::new("10", 2)), None);
        assert_eq!(topology.index_of(&TaskId::new("3", 0)), None);
        assert_eq!(topology.task_at(3), TaskId::new("2", 0));
        assert!(!topology.is_stateful(1));
        assert!(topology.is_stateful(3));
        // U+FF5E sorts after U+1F600 in UTF-16 but before it in UTF-8.
        assert_eq!(java_string_cmp("\u{FF5E}", "\u{1F600}"), Ordering::Greater);
    }

    #[test]
    fn rejects_duplicates_and_huge_topologies() {
        assert_eq!(
            Topology::new(vec![sub("0", 1, true), sub("0", 2, true)]),
            Err(TopologyError::DuplicateSubtopology("0".into()))
        );
        assert!(matches!(
            Topology::new(vec![sub("0", MAX_TASKS, true), sub("1", 1, true)]),
            Err(TopologyError::TooManyTasks(_))
        ));
    }
}
