//! The timed event script of a scenario.

use serde::{Deserialize, Serialize};

use super::{
    connect_config, limits, ranges, worker_name, ConnectConfig, ConnectScenario, ScenarioError,
};

/// An event at a point in simulated time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimedEvent {
    /// When it happens, in ms from the start.
    pub at_ms: u64,
    /// What happens.
    #[serde(flatten)]
    pub event: Event,
}

/// Something that happens to the cluster. Worker names are `worker-<n>`;
/// workers that join later continue the numbering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// New workers start and join the group.
    WorkerJoin {
        /// How many (default 1).
        #[serde(default = "one", skip_serializing_if = "is_one")]
        count: u32,
        /// Their config, if it differs from the cluster's (e.g. a newer version).
        #[serde(default, skip_serializing_if = "is_default")]
        config: ConnectConfig,
    },
    /// Graceful shutdown: stop all work, then LeaveGroup.
    WorkerStop {
        /// The worker.
        worker: String,
    },
    /// The process dies; the broker notices after `session.timeout.ms`.
    WorkerCrash {
        /// The worker.
        worker: String,
    },
    /// The worker goes away and comes back as a new member after `downtime_ms`
    /// (a bounce or a redeploy, optionally with new config: an upgrade).
    WorkerRestart {
        /// The worker.
        worker: String,
        /// How long the process is down, counted from the moment it exits:
        /// after its graceful stop (it stops its work, then sends LeaveGroup),
        /// or at the crash. The trace says when it comes back.
        downtime_ms: u64,
        /// Killed rather than shut down gracefully.
        #[serde(default, skip_serializing_if = "is_false")]
        crash: bool,
        /// Config keys the restarted process runs with.
        #[serde(default, skip_serializing_if = "is_default")]
        config: ConnectConfig,
    },
    /// Every worker running at `at_ms` is restarted in name order, one every
    /// `interval_ms`, each down for `downtime_ms`.
    RollingRestart {
        /// How long each process is down, counted from the moment it exits
        /// (after its graceful stop).
        downtime_ms: u64,
        /// Time between two workers' restarts.
        interval_ms: u64,
        /// Restart only the first this many workers (default: all).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u32>,
        /// Config keys the restarted processes run with (a rolling upgrade).
        #[serde(default, skip_serializing_if = "is_default")]
        config: ConnectConfig,
    },
    /// The worker's JVM freezes (a long GC pause): no heartbeats, no work done,
    /// and it resumes still believing it runs its tasks.
    GcPause {
        /// The worker.
        worker: String,
        /// How long it is frozen.
        duration_ms: u64,
    },
    /// A connector is created.
    ConnectorAdd {
        /// Its name.
        name: String,
        /// Its task count.
        tasks: u32,
    },
    /// A connector is deleted.
    ConnectorRemove {
        /// Its name.
        name: String,
    },
    /// A connector's task count changes (new task configs written).
    TaskCountChange {
        /// The connector.
        connector: String,
        /// The new count.
        tasks: u32,
    },
}

fn one() -> u32 {
    1
}
fn is_one(v: &u32) -> bool {
    *v == 1
}
fn is_false(v: &bool) -> bool {
    !*v
}
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

impl Event {
    /// A short label for markers, e.g. `worker-2 crashes`.
    pub fn label(&self) -> String {
        match self {
            Event::WorkerJoin { count: 1, .. } => "a worker joins".to_string(),
            Event::WorkerJoin { count, .. } => format!("{count} workers join"),
            Event::WorkerStop { worker } => format!("{worker} stops"),
            Event::WorkerCrash { worker } => format!("{worker} crashes"),
            Event::WorkerRestart { worker, .. } => format!("{worker} restarts"),
            Event::RollingRestart { .. } => "rolling restart".to_string(),
            Event::GcPause { worker, .. } => format!("{worker} freezes (GC)"),
            Event::ConnectorAdd { name, .. } => format!("{name} added"),
            Event::ConnectorRemove { name } => format!("{name} removed"),
            Event::TaskCountChange { connector, tasks } => format!("{connector} → {tasks} tasks"),
        }
    }
}

/// Bounds on the event script. Events that cannot apply at their time (a
/// worker already gone) are not errors: the simulator skips them and says so.
pub(super) fn validate_events(s: &ConnectScenario) -> Result<(), ScenarioError> {
    let mut workers_ever = u64::from(s.cluster.workers);
    let initial = s.initial_connectors();
    // Every connector name the cluster and the script mention, sorted: a
    // name's place in it indexes the per-name counts below (no map keyed by
    // `String`, whose B-tree code the simulator module would carry).
    let mut names: Vec<&str> = initial.iter().map(|(name, _)| name.as_str()).collect();
    names.extend(s.events.iter().filter_map(|e| match &e.event {
        Event::ConnectorAdd { name, .. } | Event::ConnectorRemove { name } => Some(name.as_str()),
        Event::TaskCountChange { connector, .. } => Some(connector.as_str()),
        _ => None,
    }));
    crate::sort_by_key::sort_values(&mut names);
    names.dedup();
    let slot = |name: &str| {
        names
            .binary_search(&name)
            .expect("every connector name the scenario mentions is listed")
    };
    // Each name's task count while it is configured.
    let mut connectors: Vec<Option<u32>> = vec![None; names.len()];
    for (name, count) in &initial {
        connectors[slot(name)] = Some(*count);
    }
    let mut configured = connectors.iter().flatten().count();
    let mut tasks: u64 = connectors.iter().flatten().map(|&t| u64::from(t)).sum();
    // The largest task count each connector name ever has (trace rows).
    let mut most: Vec<u32> = connectors.iter().map(|c| c.unwrap_or(0)).collect();
    let mut tasks_ever = tasks;
    let mut grow = |slot: usize, count: u32, tasks_ever: &mut u64| {
        let m = &mut most[slot];
        if count > *m {
            *tasks_ever += u64::from(count - *m);
            *m = count;
        }
    };
    let mut set = |slot: usize, count: Option<u32>, configured: &mut usize| {
        let old = std::mem::replace(&mut connectors[slot], count);
        *configured = *configured + usize::from(count.is_some()) - usize::from(old.is_some());
        old.unwrap_or(0)
    };
    let mut expanded_events: usize = 0;
    let mut order: Vec<usize> = (0..s.events.len()).collect();
    crate::sort_by_key::sort_by_u64_key(&mut order, |&i| s.events[i].at_ms);
    for i in order {
        let e = &s.events[i];
        let at = format!("events[{i}]");
        ranges::PLAYGROUND_TIME_MS.check(&format!("{at}.at_ms"), e.at_ms, " ms")?;
        expanded_events += 1;
        let worker_ref = |w: &str, workers_ever: u64| -> Result<(), ScenarioError> {
            let known = w
                .strip_prefix("worker-")
                .and_then(|n| n.parse::<u64>().ok())
                .is_some_and(|n| n >= 1 && n <= workers_ever && worker_name(n as u32) == w);
            if known {
                Ok(())
            } else {
                Err(ScenarioError::invalid(
                    format!("{at}.worker"),
                    format!("names `{w}`, but the workers are worker-1 … worker-{workers_ever} at that time"),
                ))
            }
        };
        let duration = |field: &str, ms: u64| -> Result<(), ScenarioError> {
            ranges::PLAYGROUND_TIME_MS.check(&format!("{at}.{field}"), ms, " ms")
        };
        match &e.event {
            Event::WorkerJoin { count, config } => {
                if *count == 0 {
                    return Err(ScenarioError::invalid(
                        format!("{at}.count"),
                        "must be at least 1",
                    ));
                }
                workers_ever += u64::from(*count);
                connect_config::validate(
                    &s.cluster.config.merged(config),
                    &format!("{at}.config"),
                )?;
            }
            Event::WorkerStop { worker } | Event::WorkerCrash { worker } => {
                worker_ref(worker, workers_ever)?
            }
            Event::WorkerRestart {
                worker,
                downtime_ms,
                config,
                ..
            } => {
                worker_ref(worker, workers_ever)?;
                duration("downtime_ms", *downtime_ms)?;
                connect_config::validate(
                    &s.cluster.config.merged(config),
                    &format!("{at}.config"),
                )?;
            }
            Event::RollingRestart {
                downtime_ms,
                interval_ms,
                limit,
                config,
            } => {
                duration("downtime_ms", *downtime_ms)?;
                duration("interval_ms", *interval_ms)?;
                let n = limit.map_or(workers_ever, |l| u64::from(l).min(workers_ever));
                if interval_ms.saturating_mul(n) > limits::MAX_TIME_MS {
                    return Err(ScenarioError::invalid(
                        format!("{at}.interval_ms"),
                        "makes the rolling restart last longer than one day",
                    ));
                }
                expanded_events += n as usize;
                connect_config::validate(
                    &s.cluster.config.merged(config),
                    &format!("{at}.config"),
                )?;
            }
            Event::GcPause {
                worker,
                duration_ms,
            } => {
                worker_ref(worker, workers_ever)?;
                duration("duration_ms", *duration_ms)?;
            }
            Event::ConnectorAdd { name, tasks: count } => {
                super::check_name(&format!("{at}.name"), name)?;
                let old = set(slot(name), Some(*count), &mut configured);
                tasks = tasks - u64::from(old) + u64::from(*count);
                grow(slot(name), *count, &mut tasks_ever);
            }
            Event::ConnectorRemove { name } => {
                super::check_name(&format!("{at}.name"), name)?;
                tasks -= u64::from(set(slot(name), None, &mut configured));
            }
            Event::TaskCountChange {
                connector,
                tasks: count,
            } => {
                super::check_name(&format!("{at}.connector"), connector)?;
                let old = set(slot(connector), Some(*count), &mut configured);
                tasks = tasks - u64::from(old) + u64::from(*count);
                grow(slot(connector), *count, &mut tasks_ever);
            }
        }
        if workers_ever > u64::from(limits::MAX_WORKERS) {
            return Err(ScenarioError::invalid(
                at,
                format!(
                    "brings the number of workers over {}, the most the playground simulates",
                    limits::MAX_WORKERS
                ),
            ));
        }
        if configured > limits::MAX_CONNECTORS as usize {
            return Err(ScenarioError::invalid(
                at,
                format!("brings the connectors over {}", limits::MAX_CONNECTORS),
            ));
        }
        if tasks > limits::MAX_TASKS {
            return Err(ScenarioError::invalid(
                at,
                format!(
                    "brings the tasks over {}, the most the playground simulates",
                    limits::MAX_TASKS
                ),
            ));
        }
        if tasks_ever > limits::MAX_TASKS_EVER {
            return Err(ScenarioError::invalid(
                at,
                format!(
                    "brings the tasks ever configured over {}: each connector name counts with its largest task count",
                    limits::MAX_TASKS_EVER
                ),
            ));
        }
        if expanded_events > limits::MAX_EVENTS {
            return Err(ScenarioError::invalid(
                "events",
                format!("more than {} events", limits::MAX_EVENTS),
            ));
        }
    }
    Ok(())
}
