//! A Streams scenario's script (`StreamsEvent`s) applied to a run's
//! instances, one mechanism for both Streams simulators: the classic group
//! protocol (`sim::streams`) and `group.protocol=streams` (`sim::streams_group`).
//!
//! What an event means for the process is the same under both protocols
//! (`KafkaStreams.close()`, a crash, a restart with a new release or config, a
//! rolling restart, a JVM pause, a blocked record handler); what the group
//! sees of it is each simulator's own ([`StreamsScript`]'s required methods).

use crate::scenario::{KafkaVersion, ResolvedStreamsConfig, StreamsConfig, StreamsEvent};
use crate::sim::driver::Simulation;
use crate::sim::recorder::TraceRecorder;
use crate::sim::restart::comes_back;
use crate::trace::StepKind;
use crate::wording::duration;

/// A scenario event at its time, with the note a generated one carries
/// (`rolling restart 2/3`).
pub(crate) type PlannedEvent = (u64, StreamsEvent, Option<String>);

/// The script's events in time order (a stable sort: events at one time keep
/// the scenario's order).
pub(crate) fn planned_events(events: &[crate::scenario::StreamsTimedEvent]) -> Vec<PlannedEvent> {
    let mut planned: Vec<PlannedEvent> = events
        .iter()
        .map(|e| (e.at_ms, e.event.clone(), None))
        .collect();
    crate::sort_by_key::sort_stable_by_key(&mut planned, |p| p.0);
    planned
}

/// A restart planned for an instance's process: once the process has exited
/// it comes back after `downtime_ms` with `version` and its config changed.
#[derive(Clone, Debug)]
pub(crate) struct Restart {
    pub(crate) downtime_ms: u64,
    pub(crate) version: KafkaVersion,
    pub(crate) config: StreamsConfig,
    pub(crate) remove_config: Vec<String>,
}

impl Restart {
    /// The instance's config after the restart, raw and resolved for the
    /// restart's release.
    pub(crate) fn reconfigure(
        &self,
        raw: &StreamsConfig,
    ) -> (StreamsConfig, ResolvedStreamsConfig) {
        let raw = raw.merged(&self.config).without(&self.remove_config);
        let resolved = raw.resolve(self.version);
        (raw, resolved)
    }

    /// `" As a restart, it comes back at t = …"` for a process exiting at
    /// `exit_ms` (`sim::restart`).
    pub(crate) fn comeback(
        restart: Option<&Self>,
        recorder: &TraceRecorder,
        exit_ms: u64,
    ) -> String {
        match restart {
            Some(r) => format!(
                " As a restart, {}.",
                comes_back(recorder, exit_ms, r.downtime_ms)
            ),
            None => String::new(),
        }
    }
}

/// What the script reads of an instance (one lane of the trace).
pub(crate) trait InstanceLane {
    fn name(&self) -> &str;
    /// Its release now (a restart can change it).
    fn version(&self) -> KafkaVersion;
    /// Whether a process runs, and whether that process is closing.
    fn process(&self) -> Option<ProcessRuns>;
}

/// A lane's process as the script sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProcessRuns {
    Running,
    Closing,
}

/// A Streams simulator the script runs on: the process side of each event is
/// the simulator's, the script's order, skipping and deferral are shared.
pub(crate) trait StreamsScript: Simulation {
    type Lane: InstanceLane;

    /// How a rolling restart's note says when an instance exits.
    const EXITS_AFTER: &'static str;
    /// Why a clean close waits ([`StreamsScript::close_waits_until`]).
    const CLOSE_WAITS: &'static str;

    /// The script's events, with the ones it generated (rolling restarts).
    fn planned_mut(&mut self) -> &mut Vec<PlannedEvent>;
    /// The event that applies `planned[index]` (`deferred`: its marker is
    /// recorded already).
    fn planned_event(index: usize, deferred: bool) -> Self::Event;
    fn recorder_mut(&mut self) -> &mut TraceRecorder;
    /// The run's instances, in lane order.
    fn instances(&self) -> &[Self::Lane];
    fn base_version(&self) -> KafkaVersion;
    /// A clean close of the lane's process cannot start before this time.
    fn close_waits_until(&self, lane: u32) -> Option<u64>;
    fn plan_restart(&mut self, lane: u32, restart: Restart);
    /// A new instance (a new lane) starts.
    fn join_instance(&mut self, version: KafkaVersion, config: &StreamsConfig);
    /// `KafkaStreams.close()`.
    fn stop_instance(&mut self, lane: u32);
    fn crash_instance(&mut self, lane: u32);
    /// The JVM stops for `duration_ms` (a long GC pause).
    fn pause_instance(&mut self, lane: u32, duration_ms: u64);
    /// `StreamThread-<thread + 1>` blocks in a record handler.
    fn block_thread(&mut self, lane: u32, thread: u32, duration_ms: u64);

    /// Schedules the script's events once the group has formed at
    /// `origin_ms` (their times count from there).
    fn schedule_script(&mut self, origin_ms: u64) {
        for index in 0..self.planned_mut().len() {
            self.planned_mut()[index].0 += origin_ms;
            let at = self.planned_mut()[index].0;
            self.schedule(at, Self::planned_event(index, false));
        }
    }

    /// The lane of the instance named `name`.
    fn lane_named(&self, name: &str) -> Option<u32> {
        let lanes = self.instances();
        lanes
            .iter()
            .position(|l| l.name() == name)
            .map(|l| l as u32)
    }

    fn lane_name(&self, lane: u32) -> String {
        self.instances()[lane as usize].name().to_string()
    }

    /// The lanes whose process runs (closing or not), in lane order.
    fn lanes_with_process(&self) -> Vec<u32> {
        let lanes = self.instances();
        (0..lanes.len() as u32)
            .filter(|&l| lanes[l as usize].process().is_some())
            .collect()
    }

    /// The lane's process runs and is not closing.
    fn takes_events(&self, lane: u32) -> bool {
        self.instances()[lane as usize].process() == Some(ProcessRuns::Running)
    }

    /// The event was not applied: its marker says so, a step says why.
    fn skip_event(&mut self, lane: Option<u32>, text: String) {
        if let Some(m) = self.recorder_mut().markers.last_mut() {
            m.applied = false;
        }
        self.note(lane, StepKind::EventSkipped, text);
    }

    /// Applies `planned[index]` now: marks it on the timeline, skips it when
    /// its instance does not run, defers a clean close while the process
    /// cannot close, and hands it to the simulator.
    fn apply_planned(&mut self, index: usize, deferred: bool) {
        let (_, event, note) = self.planned_mut()[index].clone();
        let lane = event.instance().and_then(|n| self.lane_named(n));
        let now = self.driver().now();
        if !deferred {
            self.recorder_mut()
                .mark_event(now, lane, event.label(), note.as_deref());
        }
        if let Some(name) = event.instance() {
            if !lane.is_some_and(|l| self.takes_events(l)) {
                self.skip_event(
                    lane,
                    format!("{name} is not running; the event is skipped."),
                );
                return;
            }
        }
        let clean_close = matches!(
            event,
            StreamsEvent::InstanceStop { .. } | StreamsEvent::InstanceRestart { crash: false, .. }
        );
        if let Some(l) = lane.filter(|_| clean_close) {
            if let Some(until) = self.close_waits_until(l) {
                let name = self.lane_name(l);
                self.note(
                    Some(l),
                    StepKind::EventDeferred,
                    format!("{name} {}", Self::CLOSE_WAITS),
                );
                self.schedule(until, Self::planned_event(index, true));
                return;
            }
        }
        // Every event but a join and a rolling restart names a running instance.
        let on = || lane.expect("an instance's event names a running instance");
        match event {
            StreamsEvent::InstanceJoin {
                count,
                kafka_version,
                config,
            } => {
                for _ in 0..count {
                    self.join_instance(kafka_version.unwrap_or(self.base_version()), &config);
                }
            }
            StreamsEvent::InstanceStop { .. } => self.stop_instance(on()),
            StreamsEvent::InstanceCrash { .. } => self.crash_instance(on()),
            StreamsEvent::InstanceRestart {
                downtime_ms,
                crash,
                kafka_version,
                config,
                remove_config,
                ..
            } => {
                let lane = on();
                let version = kafka_version.unwrap_or(self.instances()[lane as usize].version());
                self.plan_restart(
                    lane,
                    Restart {
                        downtime_ms,
                        version,
                        config,
                        remove_config,
                    },
                );
                if crash {
                    self.crash_instance(lane);
                } else {
                    self.stop_instance(lane);
                }
            }
            StreamsEvent::RollingRestart {
                downtime_ms,
                interval_ms,
                limit,
                reverse_order,
                kafka_version,
                config,
                remove_config,
            } => {
                let mut alive = self.lanes_with_process();
                if reverse_order {
                    alive.reverse();
                }
                let n = limit.map_or(alive.len(), |l| (l as usize).min(alive.len()));
                for (k, &l) in alive.iter().take(n).enumerate() {
                    let at = now + k as u64 * interval_ms;
                    let instance = self.lane_name(l);
                    self.planned_mut().push((
                        at,
                        StreamsEvent::InstanceRestart {
                            instance,
                            downtime_ms,
                            crash: false,
                            kafka_version,
                            config: config.clone(),
                            remove_config: remove_config.clone(),
                        },
                        Some(format!("rolling restart {}/{n}", k + 1)),
                    ));
                    let index = self.planned_mut().len() - 1;
                    self.schedule(at, Self::planned_event(index, false));
                }
                self.note(
                    None,
                    StepKind::RollingRestart,
                    format!(
                        "Rolling restart of {n} instances: one every {}, each down for {} from the moment it exits ({}).",
                        duration(interval_ms),
                        duration(downtime_ms),
                        Self::EXITS_AFTER
                    ),
                );
            }
            StreamsEvent::GcPause { duration_ms, .. } => self.pause_instance(on(), duration_ms),
            StreamsEvent::SlowProcessing {
                duration_ms,
                thread,
                ..
            } => self.block_thread(on(), thread.unwrap_or(1).saturating_sub(1), duration_ms),
        }
    }
}
