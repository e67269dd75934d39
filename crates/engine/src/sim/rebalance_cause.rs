//! What started the join phase in progress, kept until the round it leads to
//! is explained. Both simulators record it here, so the rule for which
//! trigger a round is explained by lives in one place.

/// A trigger of a join phase, worded for the round's explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RebalanceCause {
    /// When the trigger happened.
    pub(crate) started_ms: u64,
    /// E.g. `worker-3 joins (a new process with an empty assignment)`.
    pub(crate) text: String,
}

/// The cause of the join phase in progress, if one was recorded.
#[derive(Clone, Debug, Default)]
pub(crate) struct JoinPhaseCause(Option<RebalanceCause>);

impl JoinPhaseCause {
    /// The broker started a new join phase with this trigger: it replaces any
    /// recorded cause, whose join phase the new one aborted or followed.
    pub(crate) fn join_phase_started(&mut self, cause: RebalanceCause) {
        self.0 = Some(cause);
    }

    /// A trigger seen by a member. The first trigger of a join phase wins: it
    /// is recorded when no cause is, or when no join phase is in progress
    /// (`join_phase_in_progress`: the group is `PreparingRebalance`), so a
    /// later trigger joining the same phase does not replace it.
    pub(crate) fn trigger(&mut self, cause: RebalanceCause, join_phase_in_progress: bool) {
        if self.0.is_none() || !join_phase_in_progress {
            self.0 = Some(cause);
        }
    }

    /// The recorded cause's words.
    pub(crate) fn text(&self) -> Option<&str> {
        self.0.as_ref().map(|c| c.text.as_str())
    }

    /// The recorded cause, cleared: the round it started is being explained.
    pub(crate) fn take(&mut self) -> Option<RebalanceCause> {
        self.0.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cause(at: u64, text: &str) -> RebalanceCause {
        RebalanceCause {
            started_ms: at,
            text: text.to_string(),
        }
    }

    #[test]
    fn the_first_trigger_of_a_join_phase_wins() {
        let mut c = JoinPhaseCause::default();
        c.trigger(cause(1, "a"), true);
        c.trigger(cause(2, "b"), true);
        assert_eq!(c.text(), Some("a"));
        c.trigger(cause(3, "c"), false);
        assert_eq!(c.text(), Some("c"));
        c.join_phase_started(cause(4, "d"));
        assert_eq!(c.take(), Some(cause(4, "d")));
        assert_eq!(c.text(), None);
    }
}
