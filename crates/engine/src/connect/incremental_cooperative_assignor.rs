//! `IncrementalCooperativeAssignor` as Kafka trunk runs it (spec §3).

use super::assignment::{RoundInput, RoundOutput};

/// Kafka's incremental cooperative Connect assignor. Keeps the leader's
/// memory between rounds (spec §3.2); a new leader starts a fresh one.
#[derive(Clone, Debug)]
pub struct IncrementalCooperativeAssignor {
    max_delay_ms: i32,
    previous_generation_id: i32,
}

impl IncrementalCooperativeAssignor {
    /// A fresh assignor (a new leader) with `scheduled.rebalance.max.delay.ms`
    /// and the generation it starts from (Kafka's tests use the current generation).
    pub fn new(max_delay_ms: i32, previous_generation_id: i32) -> Self {
        Self {
            max_delay_ms,
            previous_generation_id,
        }
    }

    /// One round at the leader (spec §3.3).
    pub fn perform_assignment(&mut self, _input: &RoundInput<'_>) -> RoundOutput {
        let _ = (self.max_delay_ms, self.previous_generation_id);
        todo!("spec §3.3")
    }
}
