//! What the leader knows about each Streams client before assigning: its
//! `ProcessId`, its capacity (stream threads), its previous tasks and its
//! per-task lags (`StreamsPartitionAssignor.populateClientStatesMap`).

use std::collections::{BTreeMap, BTreeSet};

use super::ids::{ProcessId, StreamsTaskId};

/// `Task.LATEST_OFFSET`: the client ran the task as a RUNNING active, so it
/// is fully caught up (`Task.LATEST_OFFSET`). Used both as offset sum and as lag.
pub const LATEST_OFFSET: i64 = -2;

/// `SubscriptionInfo.UNKNOWN_OFFSET_SUM`: reported by pre-2.6 subscriptions
/// for previous standbys (`SubscriptionInfo` before v7). Not caught up, yet it sorts before
/// every other lag when Kafka looks for the "most caught-up" client.
pub const UNKNOWN_OFFSET_SUM: i64 = -3;

/// `Long.MAX_VALUE`: the conformance vectors' lag for "no state at all".
/// [`ClientState::lag_for`] returns it for tasks without a recorded lag.
pub const NO_STATE_LAG: i64 = i64::MAX;

/// Kafka's lag for one (client, stateful task), as the leader computes it in
/// `ClientState.computeTaskLags`.
///
/// `offset_sum` is what the client reported for the task in its
/// subscription (`None` when it reported nothing, which Kafka reads as 0);
/// `end_offset_sum` is the sum of the task's changelog end offsets.
/// A client without state therefore lags by the whole changelog, and a
/// corrupt offset sum above the end is treated like no state.
pub fn task_lag(offset_sum: Option<i64>, end_offset_sum: i64) -> i64 {
    match offset_sum.unwrap_or(0) {
        LATEST_OFFSET => LATEST_OFFSET,
        UNKNOWN_OFFSET_SUM => UNKNOWN_OFFSET_SUM,
        sum if end_offset_sum < sum => end_offset_sum,
        sum => end_offset_sum - sum,
    }
}

/// The assignor's input for one Streams client (one `KafkaStreams`
/// instance): Kafka's `ClientState` before assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientState {
    /// The client's `ProcessId`; clients are ordered by it.
    pub process_id: ProcessId,
    /// The number of stream threads (consumers) of the client. Task load is
    /// "tasks per thread", so this weights the balance. Must be at least 1.
    pub capacity: u32,
    /// Tasks the client previously owned as active. The
    /// `HighAvailabilityTaskAssignor` ignores them (only lags matter); the
    /// `StickyTaskAssignor` returns them to their owner.
    pub previous_active: BTreeSet<StreamsTaskId>,
    /// Tasks the client previously held as standby (or had state for).
    pub previous_standby: BTreeSet<StreamsTaskId>,
    /// The lag per stateful task: [`LATEST_OFFSET`] (−2) for a running
    /// active, [`UNKNOWN_OFFSET_SUM`] (−3), or the summed changelog lag.
    /// A stateful task missing here counts as [`NO_STATE_LAG`]
    /// (`Long.MAX_VALUE`); entries for stateless tasks are ignored.
    pub lags: BTreeMap<StreamsTaskId, i64>,
}

impl ClientState {
    /// A client with no history: every lag is [`NO_STATE_LAG`].
    pub fn new(process_id: ProcessId, capacity: u32) -> Self {
        Self {
            process_id,
            capacity,
            previous_active: BTreeSet::new(),
            previous_standby: BTreeSet::new(),
            lags: BTreeMap::new(),
        }
    }

    /// Kafka's `ClientState.lagFor`, with [`NO_STATE_LAG`] for tasks that
    /// have no recorded lag.
    pub fn lag_for(&self, task: StreamsTaskId) -> i64 {
        self.lags.get(&task).copied().unwrap_or(NO_STATE_LAG)
    }

    /// Builder: adds previous active tasks.
    pub fn with_previous_active(mut self, tasks: impl IntoIterator<Item = StreamsTaskId>) -> Self {
        self.previous_active.extend(tasks);
        self
    }

    /// Builder: adds previous standby tasks.
    pub fn with_previous_standby(mut self, tasks: impl IntoIterator<Item = StreamsTaskId>) -> Self {
        self.previous_standby.extend(tasks);
        self
    }

    /// Builder: sets lags.
    pub fn with_lags(mut self, lags: impl IntoIterator<Item = (StreamsTaskId, i64)>) -> Self {
        self.lags.extend(lags);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lags_follow_compute_task_lags() {
        assert_eq!(task_lag(Some(LATEST_OFFSET), 500), LATEST_OFFSET);
        assert_eq!(task_lag(Some(UNKNOWN_OFFSET_SUM), 500), UNKNOWN_OFFSET_SUM);
        assert_eq!(task_lag(None, 500), 500, "no state: the whole changelog");
        assert_eq!(task_lag(Some(450), 500), 50);
        assert_eq!(
            task_lag(Some(900), 500),
            500,
            "corrupt: treated as no state"
        );
    }

    #[test]
    fn missing_lag_means_no_state() {
        let client = ClientState::new(ProcessId::from_position(1), 1)
            .with_lags([(StreamsTaskId::new(0, 0), 7)]);
        assert_eq!(client.lag_for(StreamsTaskId::new(0, 0)), 7);
        assert_eq!(client.lag_for(StreamsTaskId::new(0, 1)), NO_STATE_LAG);
    }
}
