//! Identities of Connect work: connectors, tasks and group members.
//!
//! Kafka sorts connectors by name and tasks by (connector name, task index)
//! (`IncrementalCooperativeAssignor.performTaskAssignment` sorts new work
//! that way; names compare as Java's `String.compareTo`). To keep the assignor fast at 100,000
//! tasks, connector names are interned once, up front, in that order: a
//! [`ConnectorId`] compares exactly as its name does, so sorting ids sorts
//! names without touching a string.

use std::cmp::Ordering;
use std::fmt;

/// A connector, interned by [`ConnectorNames`]. Ordering equals name ordering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConnectorId(pub u32);

/// A task: (connector, index). Ordering is (connector name, numeric index),
/// as Kafka's `ConnectorTaskId` sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaskId {
    /// The connector the task belongs to.
    pub connector: ConnectorId,
    /// The task index, 0-based.
    pub index: u32,
}

impl TaskId {
    /// Packs the id into one integer with the same ordering, for dense sets.
    pub fn packed(self) -> u64 {
        (u64::from(self.connector.0) << 32) | u64::from(self.index)
    }
}

/// Compares two strings as Java's `String.compareTo` does (UTF-16 code units).
pub fn java_string_cmp(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        return a.cmp(b);
    }
    a.encode_utf16().cmp(b.encode_utf16())
}

/// The interned connector names of one scenario or vector, sorted as Java sorts them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConnectorNames {
    names: Vec<String>,
}

impl ConnectorNames {
    /// Interns every distinct name, in Java string order.
    pub fn new<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut names: Vec<String> = names.into_iter().map(Into::into).collect();
        crate::sort_by_key::sort_stable_by(&mut names, |a, b| java_string_cmp(a, b));
        names.dedup();
        Self { names }
    }

    /// The id of `name`, if it was interned.
    pub fn id(&self, name: &str) -> Option<ConnectorId> {
        self.names
            .binary_search_by(|n| java_string_cmp(n, name))
            .ok()
            .map(|i| ConnectorId(i as u32))
    }

    /// The name of an interned connector.
    pub fn name(&self, id: ConnectorId) -> &str {
        &self.names[id.0 as usize]
    }

    /// The number of interned names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when nothing was interned.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Kafka's textual task id, `<connector>-<index>`.
    pub fn task_label(&self, task: TaskId) -> String {
        format!("{}-{}", self.name(task.connector), task.index)
    }

    /// Parses `<connector>-<index>`, splitting at the last `-` (connector names may contain `-`).
    pub fn parse_task(&self, label: &str) -> Option<TaskId> {
        let (name, index) = label.rsplit_once('-')?;
        let index = index.parse().ok()?;
        Some(TaskId {
            connector: self.id(name)?,
            index,
        })
    }
}

/// A group member id as the broker hands it out. Connect has no static
/// membership, so a restarted worker comes back with a new member id.
pub type MemberId = String;

impl fmt::Display for ConnectorId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "connector#{}", self.0)
    }
}
