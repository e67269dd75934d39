//! An instance's process: start (one stream thread per
//! `num.stream.threads`), `KafkaStreams.close()`, crash, restart; GC pauses
//! (the whole JVM freezes); the session of a silent member.

use crate::sim::driver::Simulation;

use super::events::Ev;
use super::member::{MemberKey, Phase, Process, StreamThread, TaskPhase, Th};
use super::StreamsSimulation;
use crate::scenario::ProcessingGuarantee;
use crate::sim::group::RemovalReason;
use crate::sim::streams_script::Restart;
use crate::streams::versions::{accepted_upgrade_from, state_updater_restores, streams_release};
use crate::trace::{ItemState, StepKind, WorkerState};
use crate::wording::duration;

impl StreamsSimulation {
    pub(super) fn start_process(&mut self, lane: u32) {
        self.clean_state_dirs(lane);
        let (version, upgrade_from) = {
            let l = &self.lanes[lane as usize];
            (l.version, l.config.upgrade_from)
        };
        if let Some(u) = upgrade_from.filter(|&u| {
            streams_release(version).cooperative_only && !streams_release(u).cooperative
        }) {
            // `AssignorConfiguration.validateUpgradeFrom` (KAFKA-18839): the
            // instance cannot start.
            let name = self.name(lane);
            let allowed = accepted_upgrade_from(version);
            self.note(
                Some(lane),
                StepKind::EventSkipped,
                format!("{name} does not start: Kafka Streams {version} refuses upgrade.from={u} (ConfigException: eager rebalancing is gone since 4.0, KAFKA-18839; accepted values are {} … {}). An upgrade from 2.3 or older goes through a bridge release, 2.4 … 3.9.", allowed.first().map_or(String::new(), |v| v.to_string()), allowed.last().map_or(String::new(), |v| v.to_string())),
            );
            return;
        }
        let l = &mut self.lanes[lane as usize];
        l.incarnations += 1;
        l.started_ms = self.driver.now();
        let inc = l.incarnations;
        let threads = l.config.num_stream_threads.max(1);
        let state_updater = state_updater_restores(l.version, l.config.state_updater_enabled);
        if l.memberships.len() < threads as usize {
            l.memberships.resize(threads as usize, 0);
        }
        l.proc = Some(Process {
            inc,
            threads: (0..threads).map(|_| StreamThread::new()).collect(),
            frozen_until: None,
            stopping: false,
            state_updater,
        });
        self.recorder.set_threads(lane, threads);
        self.open_worker_span(lane, WorkerState::Up);
        let start = u64::from(self.timings.instance_start_ms);
        let statics = self.lanes[lane as usize].config.group_instance_id.is_some();
        // A dynamic member's first JoinGroup is answered MEMBER_ID_REQUIRED:
        // one extra round trip (KIP-394).
        let extra = if statics { 0 } else { 2 * self.rtt };
        for thread in 0..threads {
            self.schedule(
                self.driver.now() + start + extra,
                Ev::SendJoin {
                    th: Th { lane, inc, thread },
                },
            );
        }
    }

    /// `KafkaStreams.close()`: every thread commits and checkpoints its
    /// actives, no LeaveGroup.
    pub(super) fn close_instance(&mut self, lane: u32) {
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        p.stopping = true;
        let inc = p.inc;
        let threads = p.threads.len() as u32;
        for thread in 0..threads {
            let th = Th { lane, inc, thread };
            if self.thread_of(th).is_some_and(|x| x.out_of_group) {
                // Removed from the group: its commits fail, the tasks are
                // closed dirty at once.
                let lost: Vec<u32> = self
                    .thread_mut(th)
                    .map(|x| std::mem::take(&mut x.active).into_keys().collect())
                    .unwrap_or_default();
                for t in lost {
                    self.end_copy(th, t);
                }
            }
            let Some(x) = self.thread_mut(th) else {
                continue;
            };
            x.phase = Phase::Stopping;
            // Tasks already being revoked are stopping anyway.
            let active: Vec<u32> = x
                .active
                .iter()
                .filter(|(_, a)| a.0 != TaskPhase::Revoking)
                .map(|(&t, _)| t)
                .collect();
            self.set_copies(lane, &active, ItemState::Stopping);
        }
        let name = self.name(lane);
        let exit_ms = self.driver.now() + u64::from(self.timings.task_commit_ms);
        let back = self.comeback(lane, exit_ms);
        self.note(
            Some(lane),
            StepKind::Close,
            format!("{name} closes: its stream threads commit and checkpoint their tasks. Streams' main consumer sets internal.leave.group.on.close=false, so no LeaveGroup is sent (StreamsConfig CONSUMER_DEFAULT_OVERRIDES).{back}"),
        );
        self.schedule(exit_ms, Ev::Exit { lane, inc });
    }

    pub(super) fn on_exit(&mut self, lane: u32, inc: u32) {
        if self.proc_of(lane, inc).is_none() {
            return;
        }
        self.process_gone(lane, false);
    }

    pub(super) fn crash(&mut self, lane: u32) {
        let name = self.name(lane);
        let eos = self.lanes[lane as usize].config.processing_guarantee
            == ProcessingGuarantee::ExactlyOnceV2;
        let back = self.comeback(lane, self.driver.now());
        self.note(
            Some(lane),
            StepKind::Crash,
            if eos {
                format!("{name} crashes. Under exactly_once_v2 a running task's checkpoint was deleted at initialisation, so its local state is wiped (ProcessorStateManager, TaskCorruptedException).{back}")
            } else {
                format!("{name} crashes; its last checkpoints survive (at_least_once).{back}")
            },
        );
        self.process_gone(lane, eos);
    }

    /// `" As a restart, it comes back at t = …"` when a restart is planned
    /// for the process exiting at `exit_ms` (`sim::restart`), else nothing.
    fn comeback(&self, lane: u32, exit_ms: u64) -> String {
        Restart::comeback(
            self.lanes[lane as usize].restart.as_ref(),
            &self.recorder,
            exit_ms,
        )
    }

    /// The process is gone (clean close done, or a crash): its copies end,
    /// its state stays on disk (unless wiped), and the group notices only
    /// after `session.timeout.ms`.
    pub(super) fn process_gone(&mut self, lane: u32, wipe: bool) {
        self.clean_state_dirs(lane);
        let Some(p) = self.lanes[lane as usize].proc.take() else {
            return;
        };
        let now = self.driver.now();
        for (i, thread) in p.threads.iter().enumerate() {
            let th = Th {
                lane,
                inc: p.inc,
                thread: i as u32,
            };
            for &t in thread.active.keys().chain(thread.standby.keys()) {
                self.end_copy(th, t);
            }
        }
        if wipe {
            self.lanes[lane as usize].local.clear();
        }
        self.close_worker_span(lane, now);
        for thread in &p.threads {
            if let Some(key) = thread.member {
                if self.group.contains(&key) && !thread.out_of_group {
                    self.go_silent(key);
                }
            }
        }
        if let Some(r) = self.lanes[lane as usize].restart.take() {
            let l = &mut self.lanes[lane as usize];
            l.version = r.version;
            l.used_metadata = None;
            (l.raw_config, l.config) = r.reconfigure(&l.raw_config);
            self.schedule(now + r.downtime_ms, Ev::ProcessStart { lane });
        }
    }

    /// Deletes the unowned task directories the running process's state
    /// cleaner has removed by now (none while no process runs).
    pub(super) fn clean_state_dirs(&mut self, lane: u32) {
        let now = self.driver.now();
        let l = &mut self.lanes[lane as usize];
        if l.proc.is_none() {
            return;
        }
        let (delay, started) = (l.config.state_cleanup_delay_ms, l.started_ms);
        l.local.retain(|_, s| !s.cleaned(delay, started, now));
    }

    pub(super) fn go_silent(&mut self, key: MemberKey) {
        if self.silent.contains_key(&key) {
            // Silent already: the session runs out from the first silence.
            return;
        }
        let session = self.lanes[key.0 as usize].config.session_timeout_ms;
        self.silent.insert(key, self.driver.now());
        let since = self.driver.now();
        self.schedule(
            self.driver.now() + session,
            Ev::SessionExpiry { key, since },
        );
    }

    pub(super) fn on_session_expiry(&mut self, key: MemberKey, since: u64) {
        if self.silent.get(&key) != Some(&since) || !self.group.contains(&key) {
            return;
        }
        self.silent.remove(&key);
        let name = self.member_name(key);
        let session = self.lanes[key.0 as usize].config.session_timeout_ms;
        self.note(
            Some(key.0),
            StepKind::SessionTimeout,
            format!(
                "The coordinator removes {name}'s member: no heartbeat for session.timeout.ms ({}).",
                duration(session)
            ),
        );
        self.set_cause(format!("{name}'s session expired"));
        if let Some(th) = self.thread_of_member(key) {
            if let Some(x) = self.thread_mut(th) {
                x.out_of_group = true;
            }
        }
        let change = self
            .group
            .remove(&key, RemovalReason::SessionTimeout, self.driver.now());
        self.apply_change(change);
    }

    /// A long GC pause: the whole JVM stops, every thread with it.
    pub(super) fn freeze(&mut self, lane: u32, duration: u64) {
        let Some(p) = self.lanes[lane as usize].proc.as_mut() else {
            return;
        };
        if p.frozen_until.is_some() {
            return;
        }
        p.frozen_until = Some(self.driver.now() + duration);
        let inc = p.inc;
        let members: Vec<MemberKey> = p.threads.iter().filter_map(|t| t.member).collect();
        self.open_worker_span(lane, WorkerState::Frozen);
        for key in members {
            if self.group.contains(&key) {
                self.go_silent(key);
            }
        }
        self.replan_process(lane, inc);
        for thread in 0..self.thread_count(lane, inc) {
            self.show(Th { lane, inc, thread });
        }
        self.schedule(self.driver.now() + duration, Ev::Resume { lane, inc });
    }

    pub(super) fn on_resume(&mut self, lane: u32, inc: u32) {
        let Some(p) = self.proc_mut(lane, inc) else {
            return;
        };
        p.frozen_until = None;
        let members: Vec<MemberKey> = p.threads.iter().filter_map(|t| t.member).collect();
        self.open_worker_span(lane, WorkerState::Up);
        for key in members {
            self.silent.remove(&key);
        }
        self.replan_process(lane, inc);
        for thread in 0..self.thread_count(lane, inc) {
            let th = Th { lane, inc, thread };
            if self.thread_of(th).is_some_and(|x| x.out_of_group) {
                self.zombie_until_heartbeat(th, self.rtt);
            } else {
                self.show(th);
                self.maybe_rejoin_when_free(th);
            }
        }
    }

    /// A thread removed from the group while it was frozen or busy runs on:
    /// it still believes it owns its tasks and processes the running ones
    /// until its next heartbeat is answered UNKNOWN_MEMBER_ID
    /// (`AbstractCoordinator.HeartbeatResponseHandler`); then
    /// `onPartitionsLost`. Tasks that were not running yet never get to
    /// process before they are closed.
    pub(super) fn zombie_until_heartbeat(&mut self, th: Th, after_ms: u64) {
        if self.busy(th) {
            // Frozen or blocked: it finds out when it is free again.
            return;
        }
        let idle: Vec<u32> = self
            .thread_of(th)
            .map(|x| {
                x.active
                    .iter()
                    .filter(|(_, a)| a.0 != TaskPhase::Running)
                    .map(|(&t, _)| t)
                    .collect()
            })
            .unwrap_or_default();
        for &t in &idle {
            if let Some(x) = self.thread_mut(th) {
                x.active.remove(&t);
            }
            self.end_copy(th, t);
            self.wake_waiting(th.lane, th.inc, t);
        }
        self.replan_restore(th);
        let running = self.thread_of(th).map_or(0, |x| x.active.len());
        self.show(th);
        if running > 0 {
            let name = self.thread_name(th);
            self.note(
                Some(th.lane),
                StepKind::Zombie,
                format!("{name} runs on after the coordinator removed its member: it processes its {running} tasks as a zombie until its next heartbeat is answered UNKNOWN_MEMBER_ID (their new owners may already run them; under EOS its commit would be fenced)."),
            );
        }
        self.schedule(self.driver.now() + after_ms, Ev::ZombieEnds { th });
    }

    pub(super) fn on_zombie_ends(&mut self, th: Th) {
        // Already found out on its own (a poll after a blocked handler)?
        if !self.thread_of(th).is_some_and(|x| x.out_of_group) {
            return;
        }
        if self.busy(th) {
            return;
        }
        self.lose_tasks(th);
    }

    /// `onPartitionsLost`: the thread fell out of the group; its actives are
    /// closed dirty (under EOS that wipes their state) and it rejoins as a
    /// new member (`ConsumerCoordinator.onJoinPrepare`,
    /// `TaskManager.handleLostAll`). Its standbys stay.
    pub(super) fn lose_tasks(&mut self, th: Th) {
        let name = self.thread_name(th);
        let eos = self.lanes[th.lane as usize].config.processing_guarantee
            == ProcessingGuarantee::ExactlyOnceV2;
        let Some(x) = self.thread_mut(th) else {
            return;
        };
        let active: Vec<u32> = std::mem::take(&mut x.active).into_keys().collect();
        x.out_of_group = false;
        x.member = None;
        x.phase = Phase::Starting;
        x.suspended.clear();
        x.revoking = 0;
        x.rejoin_after_revoke = false;
        for &t in &active {
            self.end_copy(th, t);
            if eos {
                self.lanes[th.lane as usize].local.remove(&t);
            }
        }
        for &t in &active {
            self.wake_waiting(th.lane, th.inc, t);
        }
        self.replan_restore(th);
        let wiped = if eos && !active.is_empty() {
            " Under exactly_once_v2 their local state is wiped."
        } else {
            ""
        };
        self.note(
            Some(th.lane),
            StepKind::PartitionsLost,
            format!("{name} learns it is no longer a member: onPartitionsLost closes its {} active tasks dirty and it rejoins as a new member.{wiped}", active.len()),
        );
        self.send_join(th);
    }
}
