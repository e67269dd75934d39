//! When a restarted process comes back, worded one way for both families.
//!
//! A restart's downtime counts from the moment the old process exits: a
//! graceful restart first stops (Connect: `DistributedHerder.halt` stops the
//! work, then LeaveGroup; Streams: `KafkaStreams.close()` commits), a crash
//! exits at once. That is when an orchestrator sees the process gone and
//! starts the next one, so it is the same rule for both families.

use crate::wording::{clock, duration};

use super::recorder::TraceRecorder;

/// `"it comes back at t = 4:30.700, 30 s after it exits"` for a process that
/// exits at `exit_ms` (simulated time) and is down for `downtime_ms`.
pub(crate) fn comes_back(recorder: &TraceRecorder, exit_ms: u64, downtime_ms: u64) -> String {
    let back = (exit_ms + downtime_ms).saturating_sub(recorder.origin_ms());
    format!(
        "it comes back at t = {}, {} after it exits",
        clock(back),
        duration(downtime_ms)
    )
}
