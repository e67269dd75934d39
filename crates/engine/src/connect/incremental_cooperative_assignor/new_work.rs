//! Step 9 of a round: `assignConnectors` / `assignTasks`. Created work, then
//! lost work to reassign, is water-filled over the least-loaded members.

use super::kind_round::KindRound;
use super::roster::Roster;
use crate::connect::work_slots::WorkItem;

impl<T: WorkItem> KindRound<T> {
    /// `assignConnectors` / `assignTasks` over `created` then
    /// `lost_to_reassign`: members sorted by (load, member id) once; the
    /// least-loaded level is raised one item per member, in that order, until
    /// the work runs out.
    ///
    /// Before KAFKA-12495 (`legacy`) the load is `completeWorkerAssignment`'s
    /// ([`KindRound::complete_len`]: work being revoked still counts) and the
    /// lost work joins the created work in one sorted set (`newSubmissions`).
    pub(super) fn assign_new_work(&mut self, roster: &Roster<'_>, legacy: bool) {
        let workers = self.kept.len();
        let total = self.created.len() + self.lost_to_reassign.len();
        if workers == 0 || total == 0 {
            return;
        }
        let merged: Option<Vec<T>> = (legacy && !self.lost_to_reassign.is_empty()).then(|| {
            let mut all: Vec<T> = self
                .created
                .iter()
                .chain(&self.lost_to_reassign)
                .copied()
                .collect();
            crate::connect::work_slots::sort_items(&mut all);
            all.dedup();
            all
        });
        let mut load: Vec<usize> = (0..workers)
            .map(|w| {
                if legacy {
                    self.complete_len(w)
                } else {
                    self.next_len(w)
                }
            })
            .collect();
        let mut order: Vec<usize> = (0..workers).collect();
        // Ranks are distinct, so a stable sort gives the unstable one's order.
        crate::sort_by_key::sort_stable_by_key(&mut order, |&w| (load[w], roster.rank[w]));
        for assigned in &mut self.assigned {
            assigned.reserve(total / workers + 1);
        }
        let mut work: Box<dyn Iterator<Item = T> + '_> = match &merged {
            Some(all) => Box::new(all.iter().copied()),
            None => Box::new(self.created.iter().chain(&self.lost_to_reassign).copied()),
        };
        // Loads along `order` stay non-decreasing: only a prefix of equal
        // loads is raised, by one, per pass. So the first member loaded above
        // the leader's level is found by moving `upto` forward.
        let mut upto = 0;
        'fill: loop {
            let level = load[order[0]];
            while upto < workers && load[order[upto]] <= level {
                upto += 1;
            }
            for &w in &order[..upto] {
                let Some(item) = work.next() else {
                    break 'fill;
                };
                self.assigned[w].push(item);
                load[w] += 1;
            }
        }
    }
}
