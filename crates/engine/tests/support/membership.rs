//! When a worker that ran untracked copies (a resumed zombie, a dropped
//! member) is a member of the group again: the end of the window in which
//! the guarantee checks allow its copies. Shared by the randomized tests.
//!
//! Pulled in with `#[path = "support/membership.rs"] mod membership;`, like
//! `support/rng.rs`.

use engine::trace::Trace;

/// The completion of the first delivered round at or after `from_ms` that
/// has `worker` among its members, or the end of the run.
pub fn member_again_ms(t: &Trace, worker: u32, from_ms: u64) -> u64 {
    t.rounds
        .iter()
        .filter(|r| {
            r.delivered && r.completed_ms >= from_ms && r.members.iter().any(|m| m.worker == worker)
        })
        .map(|r| r.completed_ms)
        .next()
        .unwrap_or(t.end_ms)
}
