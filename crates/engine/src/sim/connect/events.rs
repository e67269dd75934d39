//! The scenario's events on a Connect cluster: each planned event applied
//! at its time (or skipped, or deferred while its worker is frozen), and
//! rolling restarts expanded into one restart per worker.

use crate::scenario::{ConnectConfig, Event};
use crate::sim::driver::Simulation;
use crate::trace::StepKind;

use super::worker::Phase;
use super::{ConnectSimulation, Planned, SimEvent};
use crate::wording::{duration, plural};

impl ConnectSimulation {
    pub(super) fn on_planned(&mut self, index: usize, deferred: bool) {
        let Planned { event, note, .. } = self.planned[index].clone();
        let worker = match &event {
            Event::WorkerStop { worker }
            | Event::WorkerCrash { worker }
            | Event::GcPause { worker, .. } => Some(worker.clone()),
            Event::WorkerRestart { worker, .. } => Some(worker.clone()),
            _ => None,
        };
        let lane = worker.as_deref().and_then(|w| self.lane_by_name(w));
        if !deferred {
            let now = self.driver.now();
            self.recorder
                .mark_event(now, lane, event.label(), note.as_deref());
        }
        // Events on a worker that is not running are skipped, never fatal.
        if let Some(name) = &worker {
            let running = lane.is_some_and(|l| self.lanes[l as usize].process.is_some());
            let halting = lane.is_some_and(|l| {
                matches!(
                    self.lanes[l as usize].process.as_ref().map(|w| &w.phase),
                    Some(Phase::Halting)
                )
            });
            if !running || halting {
                let why = if halting {
                    "is already shutting down"
                } else {
                    "is not running"
                };
                self.skip(
                    lane,
                    format!("{name} {why}; the event \"{}\" is skipped.", event.label()),
                );
                return;
            }
        }
        match event {
            Event::WorkerJoin { count, config } => {
                for _ in 0..count {
                    let name = crate::scenario::worker_name(self.lanes.len() as u32 + 1);
                    let lane = self.add_lane(name, &config);
                    self.start_process(lane);
                }
            }
            Event::WorkerStop { .. } => {
                let lane = lane.expect("checked above");
                if self.defer_if_frozen(lane, index) {
                    return;
                }
                self.begin_halt(lane);
            }
            Event::WorkerCrash { .. } => self.crash(lane.expect("checked above")),
            Event::WorkerRestart {
                downtime_ms,
                crash,
                config,
                ..
            } => {
                let lane = lane.expect("checked above");
                if !crash && self.defer_if_frozen(lane, index) {
                    return;
                }
                self.lanes[lane as usize].restart_after = Some((downtime_ms, config));
                if crash {
                    self.crash(lane);
                    self.restart_if_planned(lane);
                } else {
                    self.begin_halt(lane);
                }
            }
            Event::RollingRestart {
                downtime_ms,
                interval_ms,
                limit,
                config,
            } => self.plan_rolling_restart(downtime_ms, interval_ms, limit, config),
            Event::GcPause { duration_ms, .. } => {
                let lane = lane.expect("checked above");
                if self.proc(lane).frozen.is_some() {
                    let name = self.name(lane).to_string();
                    self.skip(
                        Some(lane),
                        format!("{name} is already frozen; the second pause is skipped."),
                    );
                    return;
                }
                self.freeze(lane, duration_ms);
            }
            Event::ConnectorAdd { name, tasks } => self.on_connector_add(&name, tasks),
            Event::ConnectorRemove { name } => self.on_connector_remove(&name),
            Event::TaskCountChange { connector, tasks } => {
                self.on_task_count_change(&connector, tasks)
            }
        }
    }

    pub(super) fn skip(&mut self, lane: Option<u32>, explanation: String) {
        if let Some(m) = self.recorder.markers.last_mut() {
            if m.at_ms == self.driver.now() {
                m.applied = false;
            }
        }
        self.note(lane, StepKind::EventSkipped, explanation);
    }

    fn defer_if_frozen(&mut self, lane: u32, index: usize) -> bool {
        let Some(until) = self.proc(lane).frozen.as_ref().map(|f| f.until) else {
            return false;
        };
        let name = self.name(lane).to_string();
        self.note(
            Some(lane),
            StepKind::EventDeferred,
            format!(
                "{name} is frozen (GC pause until {}); it handles the shutdown when it resumes.",
                self.clock_at(until)
            ),
        );
        self.schedule(
            until,
            SimEvent::Planned {
                index,
                deferred: true,
            },
        );
        true
    }

    fn plan_rolling_restart(
        &mut self,
        downtime_ms: u64,
        interval_ms: u64,
        limit: Option<u32>,
        config: ConnectConfig,
    ) {
        let alive: Vec<u32> = (0..self.lanes.len() as u32)
            .filter(|&l| self.lanes[l as usize].process.is_some())
            .collect();
        let n = limit.map_or(alive.len(), |l| (l as usize).min(alive.len()));
        for (k, &lane) in alive.iter().take(n).enumerate() {
            let at = self.driver.now() + k as u64 * interval_ms;
            self.planned.push(Planned {
                at_ms: at,
                event: Event::WorkerRestart {
                    worker: self.name(lane).to_string(),
                    downtime_ms,
                    crash: false,
                    config: config.clone(),
                },
                note: Some(format!("rolling restart {}/{n}", k + 1)),
            });
            let index = self.planned.len() - 1;
            self.schedule(
                at,
                SimEvent::Planned {
                    index,
                    deferred: false,
                },
            );
        }
        self.note(
            None,
            StepKind::RollingRestart,
            format!(
                "Rolling restart of {}: one every {}, each down for {} from the moment it exits (after its graceful stop).",
                plural(n, "worker"),
                duration(interval_ms),
                duration(downtime_ms)
            ),
        );
    }
}
