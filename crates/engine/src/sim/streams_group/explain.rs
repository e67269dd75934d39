//! Wording of a target assignment for the trace.

use super::coordinator::TargetComputed;
use super::StreamsGroupSimulation;

impl StreamsGroupSimulation {
    /// `"instance-1 StreamThread-1's heartbeat: GroupMetadataManager computes
    /// target assignment epoch 3 with StickyTaskAssignor …"`.
    pub(super) fn describe_target(&self, c: &TargetComputed, trigger: &str) -> String {
        let standbys = self.coordinator.config().num_standby_replicas;
        let per_member: Vec<String> = c
            .targets
            .iter()
            .map(|(member_id, t)| {
                let who = self
                    .threads_by_member
                    .get(member_id)
                    .map_or_else(|| member_id.clone(), |&th| self.thread_name(th));
                format!("{who} {}", super::client::describe(t))
            })
            .collect();
        let moves = match c.moved {
            0 => "no active task changes owner".to_string(),
            1 => "1 active task changes owner".to_string(),
            n => format!("{n} active tasks change owner"),
        };
        let assignor = match self.coordinator.config().assignor {
            super::coordinator::BrokerAssignor::Legacy41 => {
                "4.1's StickyTaskAssignor (its policy; Kafka's ties there follow identity hash codes)"
            }
            super::coordinator::BrokerAssignor::Sticky(_) => "StickyTaskAssignor",
        };
        format!(
            "On {trigger}: GroupMetadataManager computes target assignment epoch {} with {assignor} (previous owner by member id, then previous standby, then least-loaded process; no lag, no warmups; streams.num.standby.replicas = {standbys}): {moves}. Targets: {}. Each member moves toward its target at its own heartbeats; there is no group-wide barrier.",
            c.epoch,
            per_member.join("; ")
        )
    }
}
