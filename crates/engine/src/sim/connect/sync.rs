//! SyncGroup and what each worker does with its assignment
//! (`WorkerCoordinator.onJoinComplete`, `DistributedHerder.handleRebalanceCompleted`):
//! revocations, starts, the cooperative → eager downgrade and the group
//! protocol the members' vote chose.

use crate::connect::assignment::{MemberDelta, MemberHoldings};
use crate::connect::ids::ConnectorId;
use crate::connect::protocol::ConnectProtocol;
use crate::connect::wire_order::{snapshot_after, wire_order};
use crate::sim::driver::Simulation;
use crate::trace::{ItemList, ItemState, StepKind};

use super::lifecycle::StopKind;
use super::member::MemberKey;
use super::work::WorkRegistry;
use super::worker::{AfterStop, Delivery, Phase, RejoinReason};
use super::{ConnectSimulation, SimEvent};
use crate::wording::{names, plural};

impl ConnectSimulation {
    /// The leader's SyncGroup arrives: the group is stable and every member
    /// gets its assignment.
    pub(super) fn on_sync(&mut self, generation: i32) {
        let Some(mut p) = self.pending.take() else {
            return;
        };
        if p.generation != generation {
            self.pending = Some(p);
            return;
        }
        if self.group.sync(generation).is_err() {
            let r = &mut self.recorder.rounds[p.round];
            r.completed_ms = self.driver.now();
            return;
        }
        {
            let r = &mut self.recorder.rounds[p.round];
            r.completed_ms = self.driver.now();
            r.delivered = true;
        }
        self.protocol_switch(p.protocol, &p.members);
        self.previous_round_lanes = self.recorder.rounds[p.round]
            .members
            .iter()
            .map(|m| m.worker)
            .collect();
        for (i, key) in p.members.iter().enumerate() {
            let Some(m) = self.member_ref(key).copied() else {
                continue;
            };
            let Some(w) = self.worker(m.lane, m.inc) else {
                continue;
            };
            if w.member.as_ref().map(|(k, _)| k) != Some(key)
                || !matches!(w.phase, Phase::AwaitingSync(g) if g == generation)
            {
                continue;
            }
            let d = Delivery {
                generation,
                protocol: p.protocol,
                leader_lane: p.leader_lane,
                delay_ms: p.delay_ms,
                delta: std::mem::take(&mut p.deltas[i]),
                assigned_list: p.assigned_lists[i],
            };
            if w.frozen.is_some() {
                self.proc_mut(m.lane).held_delivery = Some(d);
            } else {
                self.apply_delivery(m.lane, d);
            }
        }
    }

    /// A held delivery (the worker was frozen when SyncGroup answered).
    pub(super) fn deliver(&mut self, lane: u32, d: Delivery) {
        self.apply_delivery(lane, d);
    }

    /// `onJoinComplete` + `onAssigned` + `handleRebalanceCompleted`
    /// (`WorkerCoordinator`, `DistributedHerder`).
    fn apply_delivery(&mut self, lane: u32, d: Delivery) {
        let now = self.driver.now();
        let w = self.proc_mut(lane);
        w.hb_anchor = now;
        w.last_contact = now;
        w.last_completed_generation = d.generation;
        let previous = w.current_protocol;
        w.current_protocol = d.protocol;
        w.leader_lane = Some(d.leader_lane);
        w.scheduled_rebalance = None;
        w.timer_token += 1;
        w.phase = Phase::Idle;
        w.rejoin_reason = None;
        let was_zombie = std::mem::replace(&mut w.zombie, false);
        if d.protocol.is_cooperative() {
            if !d.delta.is_empty() {
                let snapshot =
                    snapshot_after(&self.proc(lane).snapshot, &d.delta, self.work.names());
                let w = self.proc_mut(lane);
                w.snapshot = snapshot;
                w.snapshot_version += 1;
            }
            let w = self.proc_mut(lane);
            if was_zombie || previous == ConnectProtocol::Eager {
                w.full_start = true;
            }
            let revoked = self.items_of(&d.delta.revoked_connectors, &d.delta.revoked_tasks);
            let running: Vec<u32> = revoked
                .into_iter()
                .filter(|&i| self.recorder.timeline.state_on(i, lane).is_some())
                .collect();
            if running.is_empty() {
                self.finish_round(lane, d.delay_ms, &d.delta);
            } else {
                let batches = self.recorder.timeline.split_off(
                    lane,
                    &running,
                    ItemState::Stopping,
                    &mut self.recorder.pool,
                );
                self.stop_blocking(
                    lane,
                    batches,
                    StopKind::Pool,
                    AfterStop::FinishRound {
                        delay_ms: d.delay_ms,
                        delta: d.delta,
                    },
                );
            }
        } else {
            if previous.is_cooperative() && !self.recorder.timeline.lane_batches(lane).is_empty() {
                self.orphan_downgrade(lane, &d.delta);
            }
            // The full assignment as the wire delivers it becomes the snapshot.
            let assignment = MemberHoldings {
                member: self.proc(lane).snapshot.member.clone(),
                connectors: d.delta.assigned_connectors.clone(),
                tasks: d.delta.assigned_tasks.clone(),
            };
            let snapshot = wire_order(&assignment, self.work.names());
            let w = self.proc_mut(lane);
            w.snapshot = snapshot;
            w.snapshot_version += 1;
            // The round record already holds the assignment as items
            // (connectors, then tasks): start from that list.
            let nc = d.delta.assigned_connectors.len();
            let assigned = self.recorder.pool.get(d.assigned_list);
            let connectors: Vec<u32> = assigned[..nc].to_vec();
            let tasks: Vec<u32> = assigned[nc..].to_vec();
            let nc = nc as u32;
            let shared = (
                ItemList {
                    start: d.assigned_list.start,
                    len: nc,
                },
                ItemList {
                    start: d.assigned_list.start + nc,
                    len: d.assigned_list.len - nc,
                },
            );
            self.start_items(lane, connectors, tasks, Some(shared));
        }
        if lane == d.leader_lane && d.protocol == ConnectProtocol::Sessioned {
            self.maybe_write_session_key(lane);
        }
        self.after_idle(lane);
    }

    /// A cooperative→eager switch: `onJoinPrepare` followed
    /// the previous, cooperative generation, so nothing was revoked before
    /// joining, and the full eager assignment replaces the snapshot while
    /// `startWork` only starts what is not running. Work missing from the new
    /// assignment keeps running untracked; we show it as zombie copies. This
    /// follows the code (WorkerCoordinator, DistributedHerder.startWork); no
    /// Kafka test covers it.
    fn orphan_downgrade(&mut self, lane: u32, delta: &MemberDelta) {
        let mut keep: Vec<u32> = self.items_of(&delta.assigned_connectors, &delta.assigned_tasks);
        keep.sort_unstable();
        let mut orphans = Vec::new();
        for &b in self.recorder.timeline.lane_batches(lane) {
            for item in self.recorder.timeline.batch_items(b) {
                if keep.binary_search(&item).is_err() {
                    orphans.push(item);
                }
            }
        }
        if orphans.is_empty() {
            return;
        }
        orphans.sort_unstable();
        self.recorder.timeline.split_off(
            lane,
            &orphans,
            ItemState::Zombie,
            &mut self.recorder.pool,
        );
        self.proc_mut(lane).orphans = true;
        let name = self.name(lane).to_string();
        self.note(
            Some(lane),
            StepKind::DowngradeOrphans,
            format!(
                "Cooperative → eager: {name} entered this first eager generation without revoking anything (onJoinPrepare follows the previous generation's protocol) and its new full assignment lacks {} it runs. Nothing in Kafka stops them (code reading of WorkerCoordinator.onJoinPrepare and DistributedHerder.startWork; no Kafka test covers it): they keep running untracked, shown as zombie copies.",
                plural(orphans.len(), "item")
            ),
        );
    }

    /// After the revocation stop: arm the delay, start new work, and rejoin
    /// at once if anything was revoked (`DistributedHerder.handleRebalanceCompleted`).
    pub(super) fn finish_round(&mut self, lane: u32, delay_ms: i32, delta: &MemberDelta) {
        let (connectors, tasks) = (delta.revoked_connectors.len(), delta.revoked_tasks.len());
        let now = self.driver.now();
        let w = self.proc_mut(lane);
        if delay_ms > 0 {
            let at = now + delay_ms as u64;
            w.scheduled_rebalance = Some(at);
            w.timer_token += 1;
            let (inc, token) = (w.incarnation, w.timer_token);
            self.schedule(at, SimEvent::RejoinTimer { lane, inc, token });
        }
        let w = self.proc_mut(lane);
        if std::mem::take(&mut w.full_start) {
            let snapshot = w.snapshot.clone();
            let connectors: Vec<u32> = snapshot
                .connectors
                .iter()
                .map(|&c| WorkRegistry::connector_item(c))
                .collect();
            let tasks: Vec<u32> = snapshot
                .tasks
                .iter()
                .map(|&t| self.work.task_item(t))
                .collect();
            self.start_items(lane, connectors, tasks, None);
        } else {
            let connectors: Vec<u32> = delta
                .assigned_connectors
                .iter()
                .map(|&c| WorkRegistry::connector_item(c))
                .collect();
            let tasks: Vec<u32> = delta
                .assigned_tasks
                .iter()
                .map(|&t| self.work.task_item(t))
                .collect();
            self.start_items(lane, connectors, tasks, None);
        }
        if connectors + tasks > 0 {
            self.request_rejoin(lane, RejoinReason::FollowUp { connectors, tasks });
        }
    }

    /// `startWork`: starts what is assigned and not yet running here (a copy
    /// still running here, e.g. a zombie kept by the assignor, is adopted).
    /// `shared` are pool lists equal to the inputs, reused when nothing is
    /// filtered out.
    pub(super) fn start_items(
        &mut self,
        lane: u32,
        connectors: Vec<u32>,
        tasks: Vec<u32>,
        shared: Option<(ItemList, ItemList)>,
    ) {
        let mut adopt = Vec::new();
        // A worker with nothing on its lane (every eager round) starts all.
        let nothing_here = self.recorder.timeline.lane_batches(lane).is_empty();
        let filter = |items: Vec<u32>,
                      shared: Option<ItemList>,
                      adopt: &mut Vec<u32>|
         -> (Vec<u32>, Option<ItemList>) {
            if nothing_here {
                return (items, shared);
            }
            let before = items.len();
            let fresh: Vec<u32> = items
                .into_iter()
                .filter(|&item| match self.recorder.timeline.state_on(item, lane) {
                    None => true,
                    Some(state) => {
                        if state == ItemState::Zombie {
                            adopt.push(item);
                        }
                        false
                    }
                })
                .collect();
            let unchanged = fresh.len() == before;
            (fresh, shared.filter(|_| unchanged))
        };
        let (connectors, shared_c) = filter(connectors, shared.map(|s| s.0), &mut adopt);
        let (tasks, shared_t) = filter(tasks, shared.map(|s| s.1), &mut adopt);
        // A worker dropped again since this assignment was delivered keeps
        // its copies untracked: they stay zombie copies.
        if !adopt.is_empty() && !self.proc(lane).zombie {
            self.recorder.timeline.split_off(
                lane,
                &adopt,
                ItemState::Running,
                &mut self.recorder.pool,
            );
        }
        let starts = [
            (
                connectors,
                shared_c,
                u64::from(self.timings.connector_start_ms),
            ),
            (tasks, shared_t, u64::from(self.timings.task_start_ms)),
        ];
        let inc = self.proc(lane).incarnation;
        for (items, pooled, took) in starts {
            if items.is_empty() {
                continue;
            }
            let batch = self.recorder.timeline.place(
                lane,
                ItemState::Starting,
                items,
                pooled,
                &mut self.recorder.pool,
            );
            let token = self.recorder.timeline.batch_token(batch);
            self.schedule(
                self.driver.now() + took,
                SimEvent::Started {
                    lane,
                    inc,
                    batch,
                    token,
                },
            );
        }
    }

    pub(super) fn on_started(&mut self, lane: u32, inc: u32, batch: u32, token: u32) {
        if !self.recorder.timeline.is_current(batch, token)
            || self.recorder.timeline.batch_lane(batch) != lane
        {
            return;
        }
        if self.recorder.timeline.batch_state(batch) != ItemState::Starting {
            return;
        }
        let Some(w) = self.worker(lane, inc) else {
            return;
        };
        let state = if w.zombie {
            ItemState::Zombie
        } else {
            ItemState::Running
        };
        self.recorder
            .timeline
            .set_state(batch, state, &mut self.recorder.pool);
        // Task batches (nearly all) have nothing more to do.
        if self.recorder.timeline.batch_kinds(batch).0 == 0 {
            return;
        }
        let connectors: Vec<u32> = self
            .recorder
            .timeline
            .batch_items(batch)
            .filter(|&i| !self.work.is_task(i))
            .collect();
        for c in connectors {
            self.connector_started(lane, ConnectorId(c));
        }
    }

    /// A connector whose config changed was stopped; start it again if it is
    /// still assigned here (`processConnectorConfigUpdates`).
    pub(super) fn restart_connector(&mut self, lane: u32, c: u32) {
        let assigned = self
            .proc(lane)
            .snapshot
            .connectors
            .contains(&ConnectorId(c));
        if assigned && self.recorder.timeline.is_configured(c) {
            self.start_items(lane, vec![c], Vec::new(), None);
        }
    }

    fn protocol_switch(&mut self, protocol: ConnectProtocol, members: &[MemberKey]) {
        let previous = self.group_protocol.replace(protocol);
        if previous == Some(protocol) {
            return;
        }
        let modes: Vec<(String, ConnectProtocol)> = members
            .iter()
            .filter_map(|k| {
                let m = self.member_ref(k)?;
                Some((
                    self.name(m.lane).to_string(),
                    self.lanes[m.lane as usize]
                        .config
                        .resolve()
                        .connect_protocol,
                ))
            })
            .collect();
        let holders: Vec<&str> = modes
            .iter()
            .filter(|(_, p)| *p == protocol)
            .map(|(n, _)| n.as_str())
            .collect();
        let wire = protocol.wire_name();
        let signing = match protocol {
            ConnectProtocol::Sessioned => "Internal REST requests (task-config forwarding) will be signed with a session key the leader distributes (KIP-507).",
            ConnectProtocol::Compatible => "No session key is used: internal request validation is disabled (KIP-507 needs every worker on sessioned).",
            ConnectProtocol::Eager => "Eager: every rebalance stops all work on every worker, and request validation is disabled.",
        };
        let text = match previous {
            None => format!(
                "The broker selects group protocol `{wire}`: the members vote for their first choice among the protocols every member supports (ClassicGroup.selectProtocol). {signing}"
            ),
            Some(old) if protocol < old => format!(
                "The group protocol drops from `{}` to `{wire}`: {} advertise{} nothing newer, and the broker only picks a protocol every member supports (ClassicGroup.selectProtocol). {signing}",
                old.wire_name(),
                names(&holders),
                if holders.len() == 1 { "s" } else { "" }
            ),
            Some(old) => format!(
                "The group protocol switches from `{}` to `{wire}`: the last worker that could not speak it is gone, so every member now supports `{wire}`. {signing}",
                old.wire_name()
            ),
        };
        self.note(None, StepKind::GroupProtocol, text);
    }
}
