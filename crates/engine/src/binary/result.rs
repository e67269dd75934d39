//! The binary form of a simulation result: [`RunResult`], its traces and
//! metrics.

use super::{binary_enum, binary_struct, Binary, BinaryError, Reader};
use crate::budget::{BudgetKind, RunCut};
use crate::metrics::{EventRecovery, FamilyMetrics, Metrics, StreamsMetrics, TaskOutage};
use crate::run::{RunResult, VariantRun};
use crate::trace::{
    ConfiguredSpan, EpochBump, EpochBumpCause, EventMarker, ItemKind, ItemList, ItemState,
    MemberInfo, MemberReconciliationState, ProtocolStep, RebalanceRound, ReconciliationSpan,
    RoundMember, StateSpan, StepKind, TargetAssignmentEpoch, TargetMember, TargetTrigger, Trace,
    WorkItem, WorkerSpan, WorkerState,
};

binary_struct!(RunResult { variants });
binary_struct!(VariantRun {
    label,
    trace,
    metrics,
    fingerprint
});
binary_struct!(Trace {
    label,
    end_ms,
    workers,
    members,
    items,
    item_lists,
    spans,
    configured,
    worker_spans,
    rounds,
    steps,
    events,
    target_assignments,
    member_reconciliation,
    cut,
    formed_generation,
});
binary_struct!(WorkItem { label, kind });
binary_enum!(ItemKind {
    Connector = 0,
    Task = 1
});
binary_enum!(ItemState {
    Starting = 0,
    Running = 1,
    Stopping = 2,
    Unassigned = 3,
    Zombie = 4,
    Frozen = 5,
    Restoring = 6,
    Warmup = 7,
    Standby = 8,
});
binary_struct!(ItemList { start, len });
binary_struct!(StateSpan {
    worker,
    state,
    start_ms,
    end_ms,
    items,
    continues,
});
binary_struct!(ConfiguredSpan {
    start_ms,
    end_ms,
    items
});
binary_enum!(WorkerState {
    Up = 0,
    Frozen = 1
});
binary_struct!(WorkerSpan {
    worker,
    state,
    start_ms,
    end_ms,
    threads
});
binary_struct!(MemberInfo {
    worker,
    member_id,
    joined_ms
});
binary_struct!(RebalanceRound {
    generation,
    started_ms,
    joined_ms,
    completed_ms,
    delivered,
    protocol,
    leader,
    members,
    delay_ms,
    explanation,
});
binary_struct!(RoundMember {
    worker,
    member,
    owned,
    assigned,
    revoked,
});
binary_struct!(ProtocolStep {
    at_ms,
    worker,
    kind,
    explanation
});
binary_struct!(EventMarker {
    at_ms,
    worker,
    label,
    applied
});
binary_struct!(TargetAssignmentEpoch {
    epoch,
    computed_ms,
    trigger,
    trigger_member,
    causes,
    members,
    moved,
});
binary_enum!(TargetTrigger {
    MemberHeartbeat = 0,
    InitialDelay = 1,
});
binary_struct!(EpochBump {
    at_ms,
    group_epoch,
    cause,
    member,
});
binary_enum!(EpochBumpCause {
    MemberJoined = 0,
    MemberLeft = 1,
    SessionTimeout = 2,
    RebalanceTimeout = 3,
});
binary_struct!(TargetMember {
    member,
    worker,
    thread,
    active,
    standby,
});
binary_enum!(MemberReconciliationState {
    Stable = 0,
    UnrevokedTasks = 1,
    UnreleasedTasks = 2,
});
binary_struct!(ReconciliationSpan {
    worker,
    member,
    thread,
    state,
    start_ms,
    end_ms,
    member_epoch,
    target_epoch,
    revoking,
    awaiting,
});
binary_enum!(BudgetKind {
    Rounds = 0,
    Events = 1,
    TraceSize = 2,
    SteadyHeartbeats = 3,
});
binary_struct!(RunCut {
    reason,
    at_ms,
    rounds,
    events,
    trace_entries,
});

/// A step kind as its place in [`StepKind::ALL`].
impl Binary for StepKind {
    fn write(&self, out: &mut Vec<u8>) {
        let index = StepKind::ALL.iter().position(|k| k == self).unwrap_or(0);
        (index as u32).write(out);
    }
    fn read(input: &mut Reader<'_>) -> Result<Self, BinaryError> {
        let index = u32::read(input)? as usize;
        StepKind::ALL.get(index).copied().ok_or(BinaryError)
    }
}

binary_struct!(Metrics {
    measured_from_ms,
    task_ms_not_running,
    tasks_stopped,
    tasks_started,
    rebalance_rounds,
    recovery,
    longest_task_outage,
    peak_imbalance,
    duplicate_task_ms,
    settled_ms,
    cut,
    family,
});
binary_enum!(FamilyMetrics {
    Connect = 0,
    Streams(streams) = 1,
});
binary_struct!(StreamsMetrics {
    processing_downtime_ms,
    restoring_ms,
    records_restored,
    warmups_started,
    warmups_promoted,
    probing_rebalances,
    caught_up_and_stable_ms,
});
binary_struct!(EventRecovery {
    at_ms,
    label,
    recovered_after_ms
});
binary_struct!(TaskOutage {
    task,
    item,
    start_ms,
    end_ms,
    duration_ms,
});

#[cfg(test)]
mod tests {
    use crate::binary::{from_bytes, to_bytes};
    use crate::run::{run, RunResult};

    #[test]
    fn every_preset_result_round_trips() {
        for preset in crate::presets::all() {
            let result = run(&preset.scenario());
            let bytes = to_bytes(&result);
            assert_eq!(from_bytes::<RunResult>(&bytes), Ok(result), "{}", preset.id);
        }
    }

    #[test]
    fn a_damaged_result_is_an_error_not_a_panic() {
        let result = run(&crate::presets::default_preset().scenario());
        let bytes = to_bytes(&result);
        for n in (0..bytes.len()).step_by(97) {
            assert!(from_bytes::<RunResult>(&bytes[..n]).is_err(), "cut at {n}");
        }
        let mut flipped = bytes.clone();
        for i in (0..flipped.len()).step_by(13) {
            flipped[i] ^= 0x5a;
            // Any outcome but a panic: a flip may still decode.
            let _ = from_bytes::<RunResult>(&flipped);
            flipped[i] ^= 0x5a;
        }
    }
}
