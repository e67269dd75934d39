//! The members of one round sorted by member id in Java string order, as
//! `performTaskAssignment` compares them (`activeMembers`, `previousMembers`,
//! the tie-break of `assignConnectors` / `assignTasks`).

use crate::connect::assignment::MemberHoldings;
use crate::connect::ids::{java_string_cmp, MemberId};

/// The members of one round, sorted once by member id (Java string order).
pub(super) struct Roster<'a> {
    members: &'a [MemberHoldings],
    /// Member indices sorted by id.
    by_id: Vec<usize>,
    /// `rank[w]`: position of member `w` in `by_id`.
    pub(super) rank: Vec<usize>,
}

impl<'a> Roster<'a> {
    pub(super) fn new(members: &'a [MemberHoldings]) -> Self {
        let by_id = crate::sort_by_key::stable_order(members.len(), &|a, b| {
            java_string_cmp(&members[a].member, &members[b].member)
        });
        let mut rank = vec![0; members.len()];
        for (r, &w) in by_id.iter().enumerate() {
            rank[w] = r;
        }
        Self {
            members,
            by_id,
            rank,
        }
    }

    /// The index of the member with this id, if present.
    pub(super) fn position(&self, id: &str) -> Option<usize> {
        self.by_id
            .binary_search_by(|&w| java_string_cmp(&self.members[w].member, id))
            .ok()
            .map(|r| self.by_id[r])
    }

    /// `activeMembers.containsAll(previous)`, with `previous` sorted.
    pub(super) fn contains_all(&self, previous: &[MemberId]) -> bool {
        let mut present = self
            .by_id
            .iter()
            .map(|&w| self.members[w].member.as_str())
            .peekable();
        previous.iter().all(|id| {
            while present
                .next_if(|p| java_string_cmp(p, id).is_lt())
                .is_some()
            {}
            present.peek().is_some_and(|p| *p == id)
        })
    }

    /// The member ids, sorted and without repeats.
    pub(super) fn sorted_ids(&self) -> Vec<MemberId> {
        let mut ids: Vec<MemberId> = self
            .by_id
            .iter()
            .map(|&w| self.members[w].member.clone())
            .collect();
        ids.dedup();
        ids
    }
}
