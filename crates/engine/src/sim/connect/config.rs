//! The config topic as workers react to it (`DistributedHerder`'s
//! `ConfigUpdateListener`): connectors created,
//! deleted and reconfigured, task configs written by the leader or forwarded
//! to it over internal REST, and KIP-507 session keys signing those requests
//! (`InternalRequestSignature`).

use crate::connect::ids::ConnectorId;
use crate::connect::protocol::ConnectProtocol;
use crate::sim::driver::Simulation;
use crate::trace::{ItemState, StepKind};

use super::super::session_key::{
    check_signature, forward_retry_backoff_ms, needs_new_key, SessionKey, SignatureCheck,
};
use super::lifecycle::StopKind;
use super::work::{ConfigRecord, ConnectorConfigState, WorkRegistry};
use super::worker::{AfterStop, Phase, RejoinReason};
use super::{ConnectSimulation, SimEvent};
use crate::wording::{duration, plural};

impl ConnectSimulation {
    fn publish(&mut self, record: ConfigRecord, state: Option<ConnectorConfigState>) {
        let offset = self.config.write(record, state);
        self.schedule(
            self.driver.now() + self.rtt,
            SimEvent::ConfigVisible { offset },
        );
    }

    /// The connector named `name` and its config-topic state, if it exists now.
    fn existing_connector(&self, name: &str) -> Option<(ConnectorId, ConnectorConfigState)> {
        let c = self.connector_id(name)?;
        Some((c, self.config.connector(c)?))
    }

    fn connector_id(&self, name: &str) -> Option<ConnectorId> {
        self.work.names().id(name)
    }

    pub(super) fn on_connector_add(&mut self, name: &str, tasks: u32) {
        let Some(c) = self.connector_id(name) else {
            return;
        };
        if let Some(state) = self.config.connector(c) {
            self.note(
                None,
                StepKind::ConnectorConfig,
                format!(
                    "Connector {name} already exists: the new config is an update of tasks.max."
                ),
            );
            self.update_tasks_max(c, state, tasks);
            return;
        }
        self.recorder.timeline.set_configured(
            WorkRegistry::connector_item(c),
            true,
            &mut self.recorder.pool,
        );
        self.publish(
            ConfigRecord::ConnectorAdded(c),
            Some(ConnectorConfigState {
                desired_tasks: tasks,
                task_configs: 0,
            }),
        );
        self.note(
            None,
            StepKind::ConnectorCreated,
            format!(
                "Connector {name} is created: its config is written to the config topic, and every worker requests a rebalance when it reads it (a new connector needs one). Its {} appear only after the connector runs and generates task configs.",
                plural(tasks as usize, "task")
            ),
        );
    }

    pub(super) fn on_connector_remove(&mut self, name: &str) {
        let Some((c, state)) = self.existing_connector(name) else {
            self.skip(
                None,
                format!("Connector {name} does not exist; the deletion is skipped."),
            );
            return;
        };
        self.recorder.timeline.set_configured(
            WorkRegistry::connector_item(c),
            false,
            &mut self.recorder.pool,
        );
        let items: Vec<u32> = self.work.task_items(c, 0, state.task_configs).to_vec();
        for item in items {
            self.recorder
                .timeline
                .set_configured(item, false, &mut self.recorder.pool);
        }
        self.publish(ConfigRecord::ConnectorRemoved(c), None);
        self.note(
            None,
            StepKind::ConnectorDeleted,
            format!(
                "Connector {name} is deleted (a tombstone in the config topic). Workers rebalance when they read it; the leader revokes the connector and its {} as deleted work.",
                plural(state.task_configs as usize, "task")
            ),
        );
    }

    pub(super) fn on_task_count_change(&mut self, name: &str, tasks: u32) {
        let Some((c, state)) = self.existing_connector(name) else {
            self.skip(
                None,
                format!("Connector {name} does not exist; the task-count change is skipped."),
            );
            return;
        };
        self.update_tasks_max(c, state, tasks);
    }

    fn update_tasks_max(&mut self, c: ConnectorId, state: ConnectorConfigState, tasks: u32) {
        let name = self.work.names().name(c).to_string();
        if state.desired_tasks == tasks {
            self.skip(
                None,
                format!("Connector {name} already has tasks.max = {tasks}; nothing changes."),
            );
            return;
        }
        self.publish(
            ConfigRecord::ConnectorUpdated(c),
            Some(ConnectorConfigState {
                desired_tasks: tasks,
                task_configs: state.task_configs,
            }),
        );
        self.note(
            None,
            StepKind::ConnectorConfig,
            format!(
                "Connector {name}'s config changes to {}. A connector config change alone needs no rebalance: the worker running {name} restarts it, and the restarted connector generates {tasks} task configs; writing those triggers the rebalance.",
                plural(tasks as usize, "task")
            ),
        );
    }

    pub(super) fn on_config_visible(&mut self, offset: u64) {
        self.visible_offset = self.visible_offset.max(offset);
        for lane in 0..self.lanes.len() as u32 {
            let Some(w) = self.lanes[lane as usize].process.as_mut() else {
                continue;
            };
            if w.frozen.is_some() || !matches!(w.phase, Phase::Idle) {
                w.pending_config.push_back(offset);
                continue;
            }
            self.handle_config(lane, offset);
            self.after_idle(lane);
        }
    }

    /// A worker reads one config record (`ConfigUpdateListener` + the tick's
    /// `updateConfigsWith…`).
    pub(super) fn handle_config(&mut self, lane: u32, offset: u64) {
        let record = self.config.record(offset);
        let w = self.proc_mut(lane);
        w.config_offset = w.config_offset.max(offset);
        let cooperative = w.current_protocol.is_cooperative();
        let c = record.connector();
        let name = self.work.names().name(c).to_string();
        let item = WorkRegistry::connector_item(c);
        let local_connector = matches!(
            self.recorder.timeline.state_on(item, lane),
            Some(ItemState::Running | ItemState::Starting)
        );
        match record {
            ConfigRecord::ConnectorAdded(_) => {
                self.request_rejoin(
                    lane,
                    RejoinReason::ConfigChanged(format!("connector {name} was created")),
                );
            }
            ConfigRecord::ConnectorRemoved(_) => {
                let reason = RejoinReason::ConfigChanged(format!("connector {name} was deleted"));
                if cooperative && local_connector {
                    let batches = self.recorder.timeline.split_off(
                        lane,
                        &[item],
                        ItemState::Stopping,
                        &mut self.recorder.pool,
                    );
                    self.stop_blocking(
                        lane,
                        batches,
                        StopKind::Parallel,
                        AfterStop::Rejoin(reason),
                    );
                } else {
                    self.request_rejoin(lane, reason);
                }
            }
            ConfigRecord::ConnectorUpdated(_) => {
                let assigned = self.proc(lane).snapshot.connectors.contains(&c);
                if assigned && local_connector {
                    let batches = self.recorder.timeline.split_off(
                        lane,
                        &[item],
                        ItemState::Stopping,
                        &mut self.recorder.pool,
                    );
                    self.stop_blocking(
                        lane,
                        batches,
                        StopKind::Parallel,
                        AfterStop::RestartConnector(item),
                    );
                }
            }
            ConfigRecord::TaskConfigs(_) => {
                let reason =
                    RejoinReason::ConfigChanged(format!("the task configs of {name} changed"));
                if !cooperative {
                    self.request_rejoin(lane, reason);
                    return;
                }
                // Cooperative: stop the local tasks of the connector first; they
                // restart after the rebalance if still assigned
                // (`DistributedHerder.processTaskConfigUpdatesWithIncrementalCooperative`).
                let tasks: Vec<u32> = self
                    .proc(lane)
                    .snapshot
                    .tasks
                    .iter()
                    .filter(|t| t.connector == c)
                    .map(|&t| self.work.task_item(t))
                    .filter(|&i| self.recorder.timeline.state_on(i, lane).is_some())
                    .collect();
                if tasks.is_empty() {
                    self.request_rejoin(lane, reason);
                } else {
                    self.proc_mut(lane).full_start = true;
                    let batches = self.recorder.timeline.split_off(
                        lane,
                        &tasks,
                        ItemState::Stopping,
                        &mut self.recorder.pool,
                    );
                    self.stop_blocking(
                        lane,
                        batches,
                        StopKind::Parallel,
                        AfterStop::Rejoin(reason),
                    );
                }
            }
        }
    }

    /// A connector instance finished starting: it generates task configs and,
    /// when they differ from the config topic's, writes them (leader) or
    /// forwards them to the leader (`reconfigureConnectorTasksWithRetry`).
    pub(super) fn connector_started(&mut self, lane: u32, c: ConnectorId) {
        let Some(state) = self.config.connector(c) else {
            return;
        };
        if state.desired_tasks == state.task_configs {
            return;
        }
        if self.proc(lane).leader_lane == Some(lane) && self.leader_lane() == Some(lane) {
            self.write_task_configs(c, lane);
        } else {
            self.send_forward(lane, c, 1, self.driver.now());
        }
    }

    fn write_task_configs(&mut self, c: ConnectorId, leader: u32) {
        let Some(state) = self.config.connector(c) else {
            return;
        };
        if state.desired_tasks == state.task_configs {
            return;
        }
        self.set_task_configs(c, state.desired_tasks);
        let offset = self.config.offset();
        self.schedule(
            self.driver.now() + self.rtt,
            SimEvent::ConfigVisible { offset },
        );
        let (name, leader_name) = (
            self.work.names().name(c).to_string(),
            self.name(leader).to_string(),
        );
        self.note(
            Some(leader),
            StepKind::TaskConfigs,
            format!(
                "Leader {leader_name} writes {} for {name} (was {}). Every worker rebalances when it reads them; cooperative workers first stop their local tasks of {name} (DistributedHerder.processTaskConfigUpdatesWithIncrementalCooperative).",
                plural(state.desired_tasks as usize, "task config"),
                state.task_configs
            ),
        );
    }

    fn send_forward(&mut self, lane: u32, c: ConnectorId, attempt: u32, first_ms: u64) {
        let w = self.proc(lane);
        let (inc, signed_with) = (w.incarnation, w.session_key);
        let name = self.work.names().name(c).to_string();
        let me = self.name(lane).to_string();
        let leader = self
            .leader_lane()
            .map(|l| self.name(l).to_string())
            .unwrap_or_else(|| "the leader".to_string());
        let signature = match signed_with {
            Some(k) => format!("signed with session key #{k} (HMAC, KIP-507)"),
            None => "without a signature: it has not read a session key".to_string(),
        };
        let validation = match self.group_protocol {
            Some(ConnectProtocol::Sessioned) => String::new(),
            Some(p) => format!(
                " The group runs `{}`, so the leader does not verify internal requests: request validation is disabled.",
                p.wire_name()
            ),
            None => String::new(),
        };
        let text = if attempt == 1 {
            let n = self.config.connector(c).map_or(0, |s| s.desired_tasks);
            format!(
                "{me} runs {name}, which generated {}; only the leader writes the config topic, so {me} forwards them to {leader} (POST /connectors/{name}/tasks), {signature}.{validation}",
                plural(n as usize, "task config")
            )
        } else {
            format!("{me} retries forwarding the task configs of {name} to {leader} (attempt {attempt}), {signature}.")
        };
        self.note(Some(lane), StepKind::RestForward, text);
        self.schedule(
            self.driver.now() + self.rtt,
            SimEvent::ForwardArrives(Box::new(super::Forward {
                lane,
                inc,
                connector: c.0,
                attempt,
                signed_with,
                first_ms,
            })),
        );
    }

    /// The leader checks a forwarded request (`requestNotSignedProperly`).
    pub(super) fn on_forward_arrives(&mut self, f: super::Forward) {
        let super::Forward {
            lane,
            inc,
            connector,
            attempt,
            signed_with,
            first_ms,
        } = f;
        let c = ConnectorId(connector);
        let name = self.work.names().name(c).to_string();
        let me = self.name(lane).to_string();
        let retry = forward_retry_backoff_ms(attempt);
        let Some(leader) = self
            .leader_lane()
            .filter(|&l| self.lanes[l as usize].process.is_some())
        else {
            self.note(
                Some(lane),
                StepKind::RestFailed,
                format!(
                    "{me}'s request reaches no leader; it retries in {}.",
                    duration(retry)
                ),
            );
            self.schedule(
                self.driver.now() + self.rtt + retry,
                SimEvent::ForwardRetry {
                    lane,
                    inc,
                    connector,
                    attempt: attempt + 1,
                    first_ms,
                },
            );
            return;
        };
        let lw = self.proc(leader);
        let validation = lw.current_protocol == ConnectProtocol::Sessioned;
        let check = check_signature(validation, signed_with, lw.session_key);
        let leader_name = self.name(leader).to_string();
        let verdict = match check {
            SignatureCheck::NotValidated => None,
            SignatureCheck::Valid => Some(format!(
                "Leader {leader_name} verifies {me}'s signature with session key #{} and accepts the task configs of {name}.",
                signed_with.unwrap_or(0)
            )),
            SignatureCheck::Missing => Some(format!(
                "400 Bad Request from leader {leader_name}: \"Internal request missing required signature\" — {me} has not read a session key yet. It retries in {}.",
                duration(retry)
            )),
            SignatureCheck::LeaderHasNoKey => Some(format!(
                "503 from leader {leader_name}: it has not read a session key yet. {me} retries in {}.",
                duration(retry)
            )),
            SignatureCheck::Invalid { signed_with: s, leader_key: l } => {
                let soon = if self.driver.now().saturating_sub(first_ms) < 60_000 {
                    " A 403 within a minute of the first attempt is logged only as a probable key rotation."
                } else {
                    ""
                };
                Some(format!(
                    "403 Forbidden from leader {leader_name}: \"Internal request contained invalid signature\" — {me} signed with session key #{s}, but the leader already rotated to key #{l} and {me} has not read it yet.{soon} {me} retries in {}, after reading the new key. KIP-507 protects this internal REST call; group assignments are never signed.",
                    duration(retry)
                ))
            }
        };
        if let Some(v) = verdict {
            let kind = if check.accepted() {
                StepKind::RestAccepted
            } else {
                StepKind::RestRejected
            };
            self.note(Some(leader), kind, v);
        }
        if check.accepted() {
            self.write_task_configs(c, leader);
        } else {
            self.schedule(
                self.driver.now() + self.rtt + retry,
                SimEvent::ForwardRetry {
                    lane,
                    inc,
                    connector,
                    attempt: attempt + 1,
                    first_ms,
                },
            );
        }
    }

    pub(super) fn on_forward_retry(
        &mut self,
        lane: u32,
        inc: u32,
        connector: u32,
        attempt: u32,
        first_ms: u64,
    ) {
        if self.worker(lane, inc).is_none() {
            return;
        }
        let c = ConnectorId(connector);
        let running = self
            .recorder
            .timeline
            .state_on(WorkRegistry::connector_item(c), lane)
            == Some(ItemState::Running);
        let needed = self
            .config
            .connector(c)
            .is_some_and(|s| s.desired_tasks != s.task_configs);
        if running && needed {
            self.send_forward(lane, c, attempt, first_ms);
        }
    }

    /// The leader writes a session key if there is none or it expired
    /// (`checkForKeyRotation`, only while the group runs `sessioned`).
    pub(super) fn maybe_write_session_key(&mut self, lane: u32) {
        let w = self.proc(lane);
        let current = w
            .session_key
            .and_then(|id| self.keys.get(id as usize - 1).copied());
        let ttl = u64::from(w.config.inter_worker_key_ttl_ms);
        if needs_new_key(current, ttl, self.driver.now()) {
            self.write_session_key(lane);
        }
    }

    fn write_session_key(&mut self, lane: u32) {
        let id = self.keys.len() as u32 + 1;
        let key = SessionKey {
            id,
            created_ms: self.driver.now(),
        };
        self.keys.push(key);
        let w = self.proc_mut(lane);
        let previous = w.session_key.replace(id);
        let ttl = u64::from(w.config.inter_worker_key_ttl_ms);
        self.schedule(
            self.driver.now() + self.rtt,
            SimEvent::KeyVisible { key: id },
        );
        if let Some(at) = key.expires_ms(ttl) {
            self.schedule(at, SimEvent::KeyCheck { key: id });
        }
        let leader = self.name(lane).to_string();
        let text = match previous {
            Some(old) if old + 1 == id => format!(
                "Session key #{old} expired after inter.worker.key.ttl.ms ({}): leader {leader} writes key #{id} to the config topic. Followers keep signing with #{old} until they read #{id} ({} later); requests signed with #{old} from now on get 403 and are retried.",
                duration(ttl),
                duration(self.rtt)
            ),
            _ => format!(
                "Leader {leader} writes session key #{id} to the config topic (KIP-507). Followers read it and sign internal REST requests with it — task-config forwarding to the leader. It signs no group assignment: assignments are protected by generations and by revoking duplicated work, not by the key.{}",
                match key.expires_ms(ttl) {
                    Some(at) => format!(" It is rotated every inter.worker.key.ttl.ms ({}), next at {}.", duration(ttl), self.clock_at(at)),
                    None => " inter.worker.key.ttl.ms is 0: it is never rotated.".to_string(),
                }
            ),
        };
        self.note(Some(lane), StepKind::SessionKey, text);
    }

    pub(super) fn on_key_visible(&mut self, key: u32) {
        self.visible_key = self.visible_key.max(Some(key));
        for l in &mut self.lanes {
            if let Some(w) = l.process.as_mut() {
                if w.frozen.is_none() {
                    w.session_key = w.session_key.max(Some(key));
                }
            }
        }
    }

    pub(super) fn on_key_check(&mut self, key: u32) {
        if self.keys.len() as u32 != key {
            return;
        }
        let Some(leader) = self
            .leader_lane()
            .filter(|&l| self.lanes[l as usize].process.is_some())
        else {
            return;
        };
        let w = self.proc(leader);
        if w.current_protocol != ConnectProtocol::Sessioned || w.leader_lane != Some(leader) {
            return;
        }
        let ttl = u64::from(w.config.inter_worker_key_ttl_ms);
        let current = self.keys[key as usize - 1];
        if needs_new_key(Some(current), ttl, self.driver.now()) {
            self.write_session_key(leader);
        } else if let Some(at) = current.expires_ms(ttl) {
            self.schedule(at, SimEvent::KeyCheck { key });
        }
    }
}
