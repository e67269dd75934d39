//! The work of a Connect cluster: the trace's item numbering and the config
//! topic (what is configured: the connectors of the config snapshot and
//! their task configs).

use std::collections::BTreeMap;

use crate::connect::assignment::ConfiguredWork;
use crate::connect::ids::{ConnectorId, ConnectorNames, TaskId};
use crate::trace::{ItemKind, WorkItem};

/// Item numbering for the trace: connector `c` is item `c.0`; tasks get the
/// next free number the first time they are configured, so a 100,000-task
/// scenario only numbers tasks that exist.
#[derive(Clone, Debug)]
pub(crate) struct WorkRegistry {
    names: ConnectorNames,
    task_items: Vec<Vec<u32>>,
    items: Vec<WorkItem>,
}

impl WorkRegistry {
    /// Every connector the scenario ever names, interned up front.
    pub(crate) fn new(names: ConnectorNames) -> Self {
        let items = (0..names.len() as u32)
            .map(|c| WorkItem {
                label: names.name(ConnectorId(c)).to_string(),
                kind: ItemKind::Connector,
            })
            .collect();
        Self {
            task_items: vec![Vec::new(); names.len()],
            names,
            items,
        }
    }

    /// Connector names.
    pub(crate) fn names(&self) -> &ConnectorNames {
        &self.names
    }

    /// The item of a connector instance.
    pub(crate) fn connector_item(c: ConnectorId) -> u32 {
        c.0
    }

    /// Numbers tasks `0..count` of a connector (idempotent).
    pub(crate) fn ensure_tasks(&mut self, c: ConnectorId, count: u32) {
        let have = self.task_items[c.0 as usize].len() as u32;
        for index in have..count {
            let item = self.items.len() as u32;
            self.items.push(WorkItem {
                label: self.names.task_label(TaskId {
                    connector: c,
                    index,
                }),
                kind: ItemKind::Task,
            });
            self.task_items[c.0 as usize].push(item);
        }
    }

    /// The item of a task numbered by [`WorkRegistry::ensure_tasks`].
    pub(crate) fn task_item(&self, t: TaskId) -> u32 {
        self.task_items[t.connector.0 as usize][t.index as usize]
    }

    /// Items of tasks `from..to` of a connector.
    pub(crate) fn task_items(&self, c: ConnectorId, from: u32, to: u32) -> &[u32] {
        &self.task_items[c.0 as usize][from as usize..to as usize]
    }

    /// Number of items so far.
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// True when the item is a task.
    pub(crate) fn is_task(&self, item: u32) -> bool {
        self.items[item as usize].kind == ItemKind::Task
    }

    /// The trace's item table.
    pub(crate) fn into_items(self) -> Vec<WorkItem> {
        self.items
    }
}

/// One connector in the config topic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ConnectorConfigState {
    /// `tasks.max` from the connector config: how many tasks the connector
    /// will generate next time it starts.
    pub(crate) desired_tasks: u32,
    /// Task configs written for it: the configured task count.
    pub(crate) task_configs: u32,
}

/// A record in the config topic, as workers react to it (`KafkaConfigBackingStore`
/// records, seen through `DistributedHerder`'s `ConfigUpdateListener`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConfigRecord {
    /// A new connector config.
    ConnectorAdded(ConnectorId),
    /// A connector config tombstone.
    ConnectorRemoved(ConnectorId),
    /// A changed config of an existing connector (a new `tasks.max`).
    ConnectorUpdated(ConnectorId),
    /// New task configs of a connector (with the commit record).
    TaskConfigs(ConnectorId),
}

impl ConfigRecord {
    /// The connector concerned.
    pub(crate) fn connector(self) -> ConnectorId {
        match self {
            Self::ConnectorAdded(c)
            | Self::ConnectorRemoved(c)
            | Self::ConnectorUpdated(c)
            | Self::TaskConfigs(c) => c,
        }
    }
}

/// The config topic's current content.
#[derive(Clone, Debug, Default)]
pub(crate) struct ConfigTopic {
    connectors: BTreeMap<ConnectorId, ConnectorConfigState>,
    records: Vec<ConfigRecord>,
}

impl ConfigTopic {
    /// The offset of the last record (0 before any).
    pub(crate) fn offset(&self) -> u64 {
        self.records.len() as u64
    }

    /// The record at an offset (1-based).
    pub(crate) fn record(&self, offset: u64) -> ConfigRecord {
        self.records[(offset - 1) as usize]
    }

    /// A connector's state, if configured.
    pub(crate) fn connector(&self, c: ConnectorId) -> Option<ConnectorConfigState> {
        self.connectors.get(&c).copied()
    }

    /// What the leader's snapshot holds: connectors with their task-config
    /// counts, built on demand (once per round) rather than on every write.
    pub(crate) fn configured(&self) -> ConfiguredWork {
        ConfiguredWork::new(
            self.connectors
                .iter()
                .map(|(&c, s)| (c, s.task_configs))
                .collect(),
        )
    }

    /// Writes a record and returns its offset.
    pub(crate) fn write(
        &mut self,
        record: ConfigRecord,
        state: Option<ConnectorConfigState>,
    ) -> u64 {
        let c = record.connector();
        match state {
            Some(s) => {
                self.connectors.insert(c, s);
            }
            None => {
                self.connectors.remove(&c);
            }
        }
        self.records.push(record);
        self.offset()
    }
}
