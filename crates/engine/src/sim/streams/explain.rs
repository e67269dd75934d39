//! English for the trace: the round's explanation, what started it, and
//! task lists.

use crate::sim::driver::Simulation;
use crate::trace::StepKind;
use std::collections::BTreeSet;

use super::member::MemberKey;
use super::StreamsSimulation;
use crate::scenario::KafkaVersion;
use crate::sim::group::RebalanceTrigger;
use crate::streams::partition_assignor::{AssignorKind, GroupDecision};
use crate::wording::duration;

impl StreamsSimulation {
    /// The round's explanation (`moved`: actives newly placed on a thread),
    /// with a step per version-probing member and one for double ownership.
    pub(super) fn round_explanation(
        &mut self,
        decision: &GroupDecision<MemberKey>,
        moved: usize,
        leader_lane: u32,
        leader_version: KafkaVersion,
        probing_interval_ms: u64,
    ) -> String {
        let (mut held, mut warm, mut standby) = (0usize, 0usize, 0usize);
        for c in &decision.clients {
            held += c.result.held_back.len();
            warm += c.result.warmup.len();
            standby += c.result.standby.len();
        }
        let leader_name = self.name(leader_lane);
        let assignor_name = match decision.assignor {
            AssignorKind::HighAvailability => "HighAvailabilityTaskAssignor",
            AssignorKind::Sticky => "StickyTaskAssignor",
        };
        let threads: usize = decision.clients.iter().map(|c| c.members.len()).sum();
        let mut explanation = format!(
            "{}: {assignor_name} on leader {leader_name} ({} clients, {threads} stream threads): {moved} actives newly placed",
            self.cause.text().unwrap_or("rebalance"),
            decision.clients.len()
        );
        if held > 0 {
            explanation.push_str(&format!(
                ", {held} held back until their owners revoke them (follow-up round)"
            ));
        }
        if warm > 0 {
            explanation.push_str(&format!(", {warm} warmup replicas"));
        }
        if standby > 0 {
            explanation.push_str(&format!(", {standby} standbys"));
        }
        if decision.probing_rebalance_needed {
            explanation.push_str(&format!(
                "; probing rebalance in {}",
                duration(probing_interval_ms)
            ));
        }
        for p in &decision.version_probing {
            let name = self.name(p.member.0);
            let (from, to) = (p.from, p.to);
            let what = if to < from { "downgrades" } else { "upgrades" };
            self.note(
                Some(p.member.0),
                StepKind::VersionProbing,
                format!("Version probing: {name} sent subscription v{from}; the group's common version is v{to}, so it {what} and rejoins at once (version probing, KIP-268: StreamsPartitionAssignor.onAssignment)."),
            );
        }
        if !decision.version_probing.is_empty() {
            explanation.push_str(&format!(
                "; version probing: {} members rejoin with another metadata version",
                decision.version_probing.len()
            ));
        }
        if !decision.doubly_owned.is_empty() {
            let tasks = self.indices(&decision.doubly_owned);
            let labels = self.labels(&tasks);
            self.note(
                Some(leader_lane),
                StepKind::DoubleOwnership,
                format!("Leader {leader_name} runs Streams {leader_version}, which has no cooperative filter: it gives {labels} to a new owner while a cooperative member still owns them. Both own them until the old owner revokes on its SyncGroup response; this is why an upgrade from 2.3 or older needs upgrade.from and two bounces (KIP-429)."),
            );
            explanation.push_str(&format!(
                "; {} tasks doubly owned (no cooperative filter on a {leader_version} leader)",
                tasks.len()
            ));
        }
        explanation.push('.');
        explanation
    }

    pub(super) fn labels(&self, tasks: &BTreeSet<u32>) -> String {
        let shown: Vec<String> = tasks
            .iter()
            .take(6)
            .map(|&t| self.topology.task_ids[t as usize].to_string())
            .collect();
        if tasks.len() > 6 {
            format!("{} … ({} tasks)", shown.join(", "), tasks.len())
        } else {
            shown.join(", ")
        }
    }
}

/// The round's protocol: what its members run.
pub(super) fn protocol_label(cooperative: &BTreeSet<bool>) -> &'static str {
    match (cooperative.contains(&false), cooperative.contains(&true)) {
        (true, true) => "mixed",
        (false, true) => "cooperative",
        _ => "eager",
    }
}

/// What a JoinGroup that started a rebalance did, for the round's
/// explanation (`None`: the trigger is worded where it happens).
pub(super) fn join_cause(trigger: &RebalanceTrigger<MemberKey>, name: &str) -> Option<String> {
    match trigger {
        RebalanceTrigger::FirstMember(_) => Some("the first instance joined".into()),
        RebalanceTrigger::NewMember(_) => Some(format!("{name} joined as a new member")),
        RebalanceTrigger::LeaderRejoined(_) => Some(format!("the leader {name} rejoined")),
        RebalanceTrigger::MetadataChanged(_) => Some(format!("{name} rejoined")),
        RebalanceTrigger::RejoinDuringSync(_) => Some(format!("{name} rejoined during SyncGroup")),
        _ => None,
    }
}
