//! The streams protocol's per-target view (KIP-1071 has no rounds): which
//! target assignment epochs a column has, what each member did to reach one
//! (revoke, wait for a release, get its tasks) and the reconciliation bands
//! drawn on the lanes. Everything is read from the trace's
//! `target_assignments` and `member_reconciliation`; nothing here decides
//! protocol behaviour.

use engine::trace::{
    EpochBumpCause, ItemList, MemberReconciliationState, ReconciliationSpan, TargetAssignmentEpoch,
    TargetTrigger, Trace,
};

/// How a reconciliation band is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BandKind {
    /// `UNREVOKED_TASKS`: revoking.
    Revoking,
    /// `UNRELEASED_TASKS`: waiting for tasks another process holds.
    Pending,
    /// `STABLE` at the newest target.
    Assigned,
    /// `STABLE` at an older epoch: a newer target it has not heartbeated since.
    Behind,
}

impl BandKind {
    /// Of a span.
    pub fn of(span: &ReconciliationSpan) -> Self {
        match span.state {
            MemberReconciliationState::UnrevokedTasks => Self::Revoking,
            MemberReconciliationState::UnreleasedTasks => Self::Pending,
            MemberReconciliationState::Stable if span.is_reconciled() => Self::Assigned,
            MemberReconciliationState::Stable => Self::Behind,
        }
    }

    /// The CSS class.
    pub fn class(self) -> &'static str {
        match self {
            Self::Revoking => "recon-revoking",
            Self::Pending => "recon-pending",
            Self::Assigned => "recon-assigned",
            Self::Behind => "recon-behind",
        }
    }
}

/// True when the trace is a streams-protocol run (target assignments, no rounds).
pub fn has_targets(trace: &Trace) -> bool {
    trace.rounds.is_empty() && !trace.target_assignments.is_empty()
}

/// The target assignment epoch in force at `t`: the newest computed by then.
pub fn target_epoch_at(trace: &Trace, t: u64) -> Option<i32> {
    trace
        .target_assignments
        .iter()
        .filter(|a| a.computed_ms <= t)
        .map(|a| a.epoch)
        .next_back()
}

/// `instance-2 StreamThread-1`.
pub fn thread_name(trace: &Trace, worker: u32, thread: u32) -> String {
    let lane = trace
        .workers
        .get(worker as usize)
        .map_or("instance", String::as_str);
    format!("{lane} StreamThread-{}", thread + 1)
}

/// `instance-2 StreamThread-1` of a member index, or its index.
fn member_name(trace: &Trace, a: &TargetAssignmentEpoch, member: u32) -> String {
    match a.members.iter().find(|m| m.member == member) {
        Some(m) => thread_name(trace, m.worker, m.thread),
        None => match trace
            .member_reconciliation
            .iter()
            .find(|s| s.member == member)
        {
            Some(s) => thread_name(trace, s.worker, s.thread),
            None => format!("member #{member}"),
        },
    }
}

/// Why the broker computed this target, in one line.
pub fn why(trace: &Trace, a: &TargetAssignmentEpoch) -> String {
    let causes: Vec<String> = a
        .causes
        .iter()
        .map(|c| {
            let who = c
                .member
                .map_or_else(|| "a member".to_string(), |m| member_name(trace, a, m));
            let what = match c.cause {
                EpochBumpCause::MemberJoined => "joined",
                EpochBumpCause::MemberLeft => "left the group",
                EpochBumpCause::SessionTimeout => {
                    "was fenced: no heartbeat for streams.session.timeout.ms"
                }
                EpochBumpCause::RebalanceTimeout => {
                    "was fenced: it did not revoke within max.poll.interval.ms"
                }
            };
            format!("{who} {what} (group epoch {})", c.group_epoch)
        })
        .collect();
    let on = match (a.trigger, a.trigger_member) {
        (TargetTrigger::InitialDelay, _) => {
            "computed when streams.initial.rebalance.delay.ms elapsed".to_string()
        }
        (TargetTrigger::MemberHeartbeat, Some(m)) => {
            format!("computed on {}'s heartbeat", member_name(trace, a, m))
        }
        (TargetTrigger::MemberHeartbeat, None) => "computed on a heartbeat".to_string(),
    };
    if causes.is_empty() {
        on
    } else {
        format!("{}; {on}", causes.join("; "))
    }
}

/// What one member did toward one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberProgress {
    /// `instance-2 StreamThread-1`.
    pub name: String,
    /// Index into the trace's members.
    pub member: u32,
    /// Its target actives.
    pub active: ItemList,
    /// Its target standbys.
    pub standby: ItemList,
    /// Item indices it had to revoke first (`UNREVOKED_TASKS`), sorted.
    pub revoked: Vec<u32>,
    /// Item indices it waited for (`UNRELEASED_TASKS`), sorted.
    pub awaited: Vec<u32>,
    /// When it reached the target (`STABLE` at its epoch or later); `None`
    /// when it never did (it left, or a newer target came first).
    pub reached_ms: Option<u64>,
}

/// Every member's progress toward target `index` of the trace.
pub fn progress(trace: &Trace, index: usize) -> Vec<MemberProgress> {
    let Some(a) = trace.target_assignments.get(index) else {
        return Vec::new();
    };
    let next_ms = trace
        .target_assignments
        .get(index + 1)
        .map_or(u64::MAX, |n| n.computed_ms);
    a.members
        .iter()
        .map(|m| {
            let mut spans: Vec<&ReconciliationSpan> = trace
                .member_reconciliation
                .iter()
                .filter(|s| s.member == m.member && s.target_epoch == a.epoch)
                .collect();
            engine::sort_by_key::sort_by_u64_key(&mut spans, |s| s.start_ms);
            let mut revoked: Vec<u32> = Vec::new();
            let mut awaited: Vec<u32> = Vec::new();
            for s in &spans {
                revoked.extend_from_slice(trace.list(s.revoking));
                awaited.extend_from_slice(trace.list(s.awaiting));
            }
            revoked.sort_unstable();
            revoked.dedup();
            awaited.sort_unstable();
            awaited.dedup();
            let reached_ms = spans
                .iter()
                .find(|s| s.state == MemberReconciliationState::Stable && s.member_epoch >= a.epoch)
                .map(|s| s.start_ms)
                .filter(|&t| t < next_ms);
            MemberProgress {
                name: thread_name(trace, m.worker, m.thread),
                member: m.member,
                active: m.active,
                standby: m.standby,
                revoked,
                awaited,
                reached_ms,
            }
        })
        .collect()
}

/// The time range a target's highlight covers: from its computation until
/// the last member reached it (or the next target, or the run's end).
pub fn target_span(trace: &Trace, index: usize) -> Option<(u64, u64)> {
    let a = trace.target_assignments.get(index)?;
    let until = trace
        .target_assignments
        .get(index + 1)
        .map_or(trace.end_ms, |n| n.computed_ms);
    let done = progress(trace, index)
        .iter()
        .map(|p| p.reached_ms.unwrap_or(until))
        .max()
        .unwrap_or(a.computed_ms);
    Some((a.computed_ms, done.max(a.computed_ms)))
}

/// The time range the selected stop `index` of a column highlights: a
/// round from its start to SyncGroup, a target assignment until every
/// member reached it ([`target_span`]).
pub fn selected_span(trace: &Trace, index: usize) -> Option<(u64, u64)> {
    if has_targets(trace) {
        target_span(trace, index)
    } else {
        trace
            .rounds
            .get(index)
            .map(|r| (r.started_ms, r.completed_ms))
    }
}

/// When stop `index` of a column is: a round's start, or (a streams-protocol
/// column) when a target assignment was computed.
pub fn stop_at(trace: &Trace, index: usize) -> Option<u64> {
    if has_targets(trace) {
        trace.target_assignments.get(index).map(|a| a.computed_ms)
    } else {
        trace.rounds.get(index).map(|r| r.started_ms)
    }
}

/// The hover text of a band: Kafka's state, the epochs and the tasks.
pub fn band_title(trace: &Trace, span: &ReconciliationSpan) -> String {
    let names = |l: ItemList| {
        trace
            .list(l)
            .iter()
            .filter_map(|&i| trace.items.get(i as usize).map(|it| it.label.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let who = thread_name(trace, span.worker, span.thread);
    let state = span.state.kafka_name();
    match BandKind::of(span) {
        BandKind::Revoking => format!(
            "{who}: {state}, member epoch {}, target epoch {}: revoking {}",
            span.member_epoch,
            span.target_epoch,
            names(span.revoking)
        ),
        BandKind::Pending => format!(
            "{who}: {state}, member epoch {}: waiting for {} (still held by another process)",
            span.member_epoch,
            names(span.awaiting)
        ),
        BandKind::Assigned => format!(
            "{who}: {state}, at target epoch {}",
            span.member_epoch
        ),
        BandKind::Behind => format!(
            "{who}: {state} at member epoch {}; target epoch {} is computed, it gets it at its next heartbeat",
            span.member_epoch, span.target_epoch
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joins() -> Trace {
        let preset = engine::presets::find("streams/streams-protocol-instance-joins").unwrap();
        engine::run::run(&preset.scenario())
            .variants
            .into_iter()
            .find(|v| v.label == "streams protocol")
            .unwrap()
            .trace
    }

    #[test]
    fn a_joiner_waits_while_the_old_owners_revoke() {
        let t = joins();
        assert!(has_targets(&t));
        assert_eq!(target_epoch_at(&t, 0), Some(3));
        let joined = &t.target_assignments[1];
        assert_eq!(target_epoch_at(&t, joined.computed_ms - 1), Some(3));
        assert_eq!(target_epoch_at(&t, joined.computed_ms), Some(4));
        assert!(why(&t, joined).contains("instance-3 StreamThread-1 joined (group epoch 4)"));
        assert!(why(&t, joined).contains("computed on instance-3 StreamThread-1's heartbeat"));

        let p = progress(&t, 1);
        assert_eq!(p.len(), 3);
        let new = p.iter().find(|m| m.name.starts_with("instance-3")).unwrap();
        assert_eq!(new.awaited.len(), 2);
        assert!(new.revoked.is_empty());
        let old: Vec<&MemberProgress> = p
            .iter()
            .filter(|m| !m.name.starts_with("instance-3"))
            .collect();
        let mut revoked: Vec<u32> = old.iter().flat_map(|m| m.revoked.clone()).collect();
        revoked.sort_unstable();
        assert_eq!(
            revoked, new.awaited,
            "what the joiner waits for, the others revoke"
        );
        // The joiner reaches the target last: after both releases.
        let last = old.iter().map(|m| m.reached_ms.unwrap()).max().unwrap();
        assert!(new.reached_ms.unwrap() >= last);
        let (from, to) = target_span(&t, 1).unwrap();
        assert_eq!((from, to), (joined.computed_ms, new.reached_ms.unwrap()));
    }

    #[test]
    fn bands_name_kafkas_states() {
        let t = joins();
        let kinds: Vec<BandKind> = t.member_reconciliation.iter().map(BandKind::of).collect();
        for k in [
            BandKind::Revoking,
            BandKind::Pending,
            BandKind::Assigned,
            BandKind::Behind,
        ] {
            assert!(kinds.contains(&k), "{k:?}");
        }
        let revoking = t
            .member_reconciliation
            .iter()
            .find(|s| BandKind::of(s) == BandKind::Revoking)
            .unwrap();
        let title = band_title(&t, revoking);
        assert!(
            title.contains("UNREVOKED_TASKS") && title.contains("revoking 0_"),
            "{title}"
        );
        let pending = t
            .member_reconciliation
            .iter()
            .find(|s| BandKind::of(s) == BandKind::Pending)
            .unwrap();
        assert!(band_title(&t, pending).contains("UNRELEASED_TASKS"));
    }

    #[test]
    fn a_classic_trace_has_no_targets() {
        let preset = engine::presets::find("streams/streams-protocol-instance-joins").unwrap();
        let result = engine::run::run(&preset.scenario());
        let classic = &result.variants[0].trace;
        assert!(!has_targets(classic));
        assert_eq!(target_epoch_at(classic, u64::MAX), None);
        assert!(progress(classic, 0).is_empty());
    }
}
