//! `EagerAssignor`: the stop-the-world assignor used whenever the group runs
//! the `default` protocol (`EagerAssignor.performAssignment`).

use super::assignment::{MemberDelta, RoundInput, RoundOutput};
use super::ids::java_string_cmp;

/// Kafka's eager Connect assignor. Stateless: every round reassigns everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct EagerAssignor;

impl EagerAssignor {
    /// One round: members sorted by id, connectors in name order dealt
    /// round-robin, then tasks continuing with the same circular iterator
    /// (the iterator is not reset between connectors and tasks).
    /// `assigned_*` is the complete new assignment; `revoked_*` is everything
    /// the member held, since eager members release all work before joining.
    pub fn assign(&self, input: &RoundInput<'_>) -> RoundOutput {
        let mut deltas: Vec<MemberDelta> = input
            .members
            .iter()
            .map(|m| MemberDelta {
                revoked_connectors: m.connectors.clone(),
                revoked_tasks: m.tasks.clone(),
                ..MemberDelta::default()
            })
            .collect();
        if deltas.is_empty() {
            return RoundOutput::default();
        }
        let order = crate::sort_by_key::stable_order(input.members.len(), &|a, b| {
            java_string_cmp(&input.members[a].member, &input.members[b].member)
        });
        let mut next = order.iter().copied().cycle();
        for &(connector, _) in &input.configured.connectors {
            let m = next.next().expect("non-empty cycle");
            deltas[m].assigned_connectors.push(connector);
        }
        for task in input.configured.tasks() {
            let m = next.next().expect("non-empty cycle");
            deltas[m].assigned_tasks.push(task);
        }
        RoundOutput {
            deltas,
            delay_ms: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect::assignment::{ConfiguredWork, MemberHoldings};
    use crate::connect::ids::ConnectorNames;

    #[test]
    fn iterator_continues_from_connectors_into_tasks() {
        // Members [a,b,c], c1,c2 with 2 tasks each: c1→a, c2→b, c1-0→c, c1-1→a, …
        let names = ConnectorNames::new(["c1", "c2"]);
        let c1 = names.id("c1").unwrap();
        let c2 = names.id("c2").unwrap();
        let configured = ConfiguredWork::new(vec![(c1, 2), (c2, 2)]);
        let members = vec![
            MemberHoldings::empty("c"),
            MemberHoldings::empty("a"),
            MemberHoldings::empty("b"),
        ];
        let out = EagerAssignor.assign(&RoundInput {
            configured: &configured,
            members: &members,
            generation: 1,
            last_completed_generation: 0,
            now_ms: 1,
        });
        let label = |i: usize| {
            let d = &out.deltas[i];
            let mut v: Vec<String> = d
                .assigned_connectors
                .iter()
                .map(|c| names.name(*c).to_string())
                .collect();
            v.extend(d.assigned_tasks.iter().map(|t| names.task_label(*t)));
            v
        };
        assert_eq!(label(1), ["c1", "c1-1"]); // a
        assert_eq!(label(2), ["c2", "c2-0"]); // b
        assert_eq!(label(0), ["c1-0", "c2-1"]); // c
    }
}
