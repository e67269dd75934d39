//! A round's explanation: what the leader's assignor decided, in one line.

use crate::connect::incremental_cooperative_assignor::{
    ConnectorsAndTasks, LoadBalancing, LostHandling, RoundExplanation,
};
use crate::connect::versions::AssignorFixes;

use super::explain::work;
use super::{ConnectSimulation, ASSIGNOR_EPOCH_MS};
use crate::wording::{duration, names, plural};

impl ConnectSimulation {
    /// Membership by lane: `true` at each lane in `lanes` (a `contains`
    /// without the scan, for filters over every member).
    pub(super) fn lane_set(&self, lanes: &[u32]) -> Vec<bool> {
        let mut set = vec![false; self.lanes.len()];
        for &l in lanes {
            set[l as usize] = true;
        }
        set
    }

    pub(super) fn explain_round(&self, f: &RoundFacts) -> String {
        let leader = self.name(f.leader).to_string();
        let (cc, ct) = f.configured;
        if !f.cooperative {
            let prepare = if self.group_protocol.is_some_and(|p| p.is_cooperative()) {
                "this first eager generation follows a cooperative one, so nobody stopped anything before joining (onJoinPrepare follows the previous generation's protocol); members report no assignment (V0 metadata)"
            } else if f.anything_ran {
                "every worker stopped all its work before joining (onJoinPrepare) and reports no assignment (V0 metadata)"
            } else {
                "members report no assignment (V0 metadata)"
            };
            return format!(
                "Eager (protocol `default`): {prepare}; leader {leader} deals {} round-robin over {} sorted by member id, connectors first.",
                work(cc, ct),
                plural(f.members, "member")
            );
        }
        let lane_names = |lanes: &[u32]| -> String {
            let v: Vec<&str> = lanes.iter().map(|&l| self.name(l)).collect();
            names(&v)
        };
        let mut parts: Vec<String> = Vec::new();
        let is_member = self.lane_set(&f.member_lanes);
        let departed: Vec<u32> = self
            .previous_round_lanes
            .iter()
            .copied()
            .filter(|&l| !is_member[l as usize])
            .collect();
        let Some(why) = f.why else {
            return "Cooperative round.".to_string();
        };
        let size = |ct: &ConnectorsAndTasks| work(ct.connectors.len(), ct.tasks.len());
        let at_clock = |deadline: i64| self.clock_at((deadline - ASSIGNOR_EPOCH_MS).max(0) as u64);
        // Before KAFKA-9848 nothing is discarded, but a new leader's
        // assignor is fresh all the same.
        let fresh =
            !f.fixes.kafka_9848_generation_check && (f.leader_changed || f.first_cooperative_round);
        if why.history_discarded || fresh {
            let who = if f.leader_changed {
                format!("new leader {leader} has no assignment history (it lived in the old leader's assignor)")
            } else if f.first_cooperative_round {
                format!("leader {leader}'s cooperative assignor has computed no round before")
            } else {
                format!("leader {leader} discards its history: the last round it computed did not complete (KAFKA-9848)")
            };
            parts.push(format!(
                "{who}; nothing counts as lost, so work nobody reports is assigned at once"
            ));
        }
        if why.revocation_undone {
            parts.push("work revoked last round is still reported by a member (the revocation never arrived): the leader trusts what members report".to_string());
        }
        if !why.duplicated.is_empty() && why.duplicates_revoked {
            parts.push(format!(
                "{} reported by two workers at once (a zombie came back): every copy is revoked (KAFKA-9841) and placed once in a later round",
                size(&why.duplicated)
            ));
        } else if !why.duplicated.is_empty() {
            parts.push(format!(
                "{} reported by two workers at once (a zombie came back): this release predates KAFKA-9841 (2.5.1, 2.6.0), so the leader revokes neither copy and both keep running",
                size(&why.duplicated)
            ));
        }
        if !why.deleted.is_empty() {
            parts.push(format!(
                "{} of deleted connectors are revoked",
                size(&why.deleted)
            ));
        }
        let lost = size(&why.lost);
        let gone = lane_names(&departed);
        match &why.lost_handling {
            LostHandling::NothingLost | LostHandling::DelayExpired => {}
            LostHandling::StaleDelayKept => parts.push(format!(
                "nothing is lost, but this release (before KAFKA-9184, 2.4.0) does not clear the delay of an earlier round: every member gets {} again and rejoins when it runs out",
                duration(f.delay_ms.max(0) as u64)
            )),
            LostHandling::Postponed { deadline_ms } if why.lost.is_empty() => {
                parts.push(format!("a backoff delay is pending until {}: no revocations before then", at_clock(*deadline_ms)));
            }
            // The branches below only say something when work was lost.
            _ if why.lost.is_empty() => {}
            LostHandling::ReassignedNoDeparture => parts.push(format!(
                "{lost} assigned in a round that never completed are reassigned at once: no member left (KAFKA-9848)"
            )),
            LostHandling::ReassignedDelayDisabled => parts.push(format!(
                "the {lost} of {gone} move at once: scheduled.rebalance.max.delay.ms is 0 (KAFKA-15693)"
            )),
            LostHandling::DealtToCandidates { candidates } => {
                let names_of: Vec<String> = candidates.iter().map(|id| self.member_name_by_id(id)).collect();
                let refs: Vec<&str> = names_of.iter().map(String::as_str).collect();
                if f.fixes.kafka_10413_spread {
                    parts.push(format!(
                        "the scheduled delay expired: the {lost} of departed workers are dealt round-robin to {}, the workers seen empty during the delay (KAFKA-10413) — not necessarily the ones that left",
                        names(&refs)
                    ));
                } else {
                    parts.push(format!(
                        "the scheduled delay expired: all {lost} of departed workers go to {}, the first worker seen empty during the delay (this release predates KAFKA-10413, which spreads them over every such worker)",
                        names(&refs)
                    ));
                }
            }
            LostHandling::ReassignedNoCandidates => parts.push(format!(
                "the scheduled delay expired with no empty worker to take them: the {lost} are spread over everybody as new work"
            )),
            LostHandling::Postponed { .. } if f.max_delay_ms == 0 => parts.push(format!(
                "scheduled.rebalance.max.delay.ms is 0, yet this release (before KAFKA-15693) only marks the loss: the {lost} of {gone} stay unassigned until some other rebalance happens"
            )),
            LostHandling::Postponed { deadline_ms } => {
                if f.delay_ms as u64 == f.max_delay_ms && !departed.is_empty() {
                    parts.push(format!(
                        "{gone} was lost: its {lost} wait for scheduled.rebalance.max.delay.ms ({}) until {}, in case it comes back",
                        duration(f.max_delay_ms),
                        at_clock(*deadline_ms)
                    ));
                } else {
                    parts.push(format!(
                        "the {lost} of departed workers wait until the deadline {} ({} left): it was fixed when the loss was first seen and does not move as workers leave or return",
                        at_clock(*deadline_ms),
                        duration(f.delay_ms.max(0) as u64)
                    ));
                }
            }
        }
        match &why.load_balancing {
            LoadBalancing::Revoked | LoadBalancing::RevokedWithoutBackoff => {
                let (rc, rt) = f.revoked;
                parts.push(format!(
                    "revokes {} from {} to balance the load; they are placed in the follow-up round",
                    work(rc, rt),
                    lane_names(&f.revoked_from)
                ));
            }
            LoadBalancing::PostponedByBackoff { attempt, delay_ms } => parts.push(format!(
                "{} revoking round in a row: revocations postponed by the KAFKA-12495 backoff, {}",
                ordinal(*attempt + 1),
                duration((*delay_ms).max(0) as u64)
            )),
            LoadBalancing::HeldBack => parts.push(
                "the load is uneven, but this leader does not revoke in the round after one that revoked or waited for a delay (canRevoke; KAFKA-12495 replaced it in 3.4.0)".to_string(),
            ),
            LoadBalancing::NoEmptyWorker => parts.push(
                "the load is uneven, but no worker is empty, and before KAFKA-12495 (3.4.0) the leader revokes only to make room for an empty worker".to_string(),
            ),
            LoadBalancing::SuppressedByDelay
            | LoadBalancing::Balanced
            | LoadBalancing::BalancedBackoffReset => {}
        }
        let (ac, at) = f.assigned;
        if ac + at > 0 {
            parts.push(format!(
                "assigns {} to {}",
                work(ac, at),
                lane_names(&f.assigned_to)
            ));
        }
        if why.load_balancing == LoadBalancing::BalancedBackoffReset {
            parts.push(
                "the load is balanced again, so the consecutive-revocation backoff resets"
                    .to_string(),
            );
        }
        if parts.is_empty() {
            parts.push("nothing to change".to_string());
        }
        format!("{}.", sentence(&parts.join("; ")))
    }
}

/// What a round decided, for its explanation.
pub(super) struct RoundFacts<'a> {
    pub(super) cooperative: bool,
    pub(super) leader: u32,
    pub(super) leader_changed: bool,
    pub(super) first_cooperative_round: bool,
    pub(super) anything_ran: bool,
    pub(super) members: usize,
    /// Configured connectors and tasks (the leader's config snapshot).
    pub(super) configured: (usize, usize),
    pub(super) revoked: (usize, usize),
    pub(super) assigned: (usize, usize),
    pub(super) revoked_from: Vec<u32>,
    pub(super) assigned_to: Vec<u32>,
    /// The assignor's own account of the round (cooperative only).
    pub(super) why: Option<&'a RoundExplanation>,
    /// The fixes of the leader's release.
    pub(super) fixes: AssignorFixes,
    pub(super) delay_ms: i32,
    pub(super) max_delay_ms: u64,
    pub(super) member_lanes: Vec<u32>,
}

/// `Second`, `Third`, `4th` …
fn ordinal(n: i32) -> String {
    match n {
        1 => "First".to_string(),
        2 => "Second".to_string(),
        3 => "Third".to_string(),
        n => format!("{n}th"),
    }
}

/// Capitalizes a sentence unless it starts with a name (`worker-2`, a
/// connector, a config key), which keeps its spelling.
pub(super) fn sentence(s: &str) -> String {
    let first = s.split(' ').next().unwrap_or("");
    if first.contains(['-', '.', '_']) || first.chars().any(|c| c.is_ascii_digit()) {
        return s.to_string();
    }
    capitalize(s)
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
