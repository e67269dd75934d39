//! Kafka Streams stream threads as Kafka runs them: each `StreamThread` is
//! its own member of the classic group, restores its tasks with its own
//! restore consumer (from 3.8 its state updater thread), finds out on its
//! own when it was removed, and "balanced" means balanced by thread capacity.

use engine::metrics::{FamilyMetrics, StreamsMetrics};
use engine::run::{run, RunResult, VariantRun};
use engine::scenario::Scenario;
use engine::trace::{ItemState, StepKind, Trace};

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}"))
}

fn variant<'a>(r: &'a RunResult, label: &str) -> &'a VariantRun {
    r.variants
        .iter()
        .find(|v| v.label == label)
        .unwrap_or_else(|| panic!("no variant {label}"))
}

fn streams(v: &VariantRun) -> &StreamsMetrics {
    match &v.metrics.family {
        FamilyMetrics::Streams(m) => m,
        FamilyMetrics::Connect => panic!("no Streams metrics"),
    }
}

/// The intervals of `item` in `state` on `lane`.
fn pieces(t: &Trace, item: &str, lane: u32, state: ItemState) -> Vec<(u64, u64)> {
    let item = t.item_index(item).expect("item");
    t.item_intervals(item)
        .into_iter()
        .filter(|iv| iv.worker == Some(lane) && iv.state == state)
        .map(|iv| (iv.start_ms, iv.end_ms))
        .collect()
}

/// Tasks of `lane` running at `at`.
fn running_at(t: &Trace, lane: u32, at: u64) -> usize {
    t.intervals()
        .filter(|iv| {
            iv.worker == Some(lane)
                && iv.state == ItemState::Running
                && iv.start_ms <= at
                && at < iv.end_ms
        })
        .count()
}

const TWO_BY_TWO: &str = r#"{"version":1,"title":"threads","seed":3,
  "streams":{"instances":2,"subtopologies":[{"partitions":8,"stateful":true,"changelog_records":2000}],
    "config":{"num.stream.threads":2,"max.poll.interval.ms":60000}},
  "compare":[{"label":"cooperative"}],
  "events":[{"at_ms":30000,"type":"slow_processing","instance":"instance-1","thread":2,"duration_ms":90000}]}"#;

#[test]
fn each_stream_thread_is_a_group_member_and_the_leader_spreads_a_clients_tasks_over_its_threads() {
    let r = run(&scenario(TWO_BY_TWO));
    let t = &variant(&r, "cooperative").trace;
    // Four consumers, named as Kafka names a stream thread's consumer.
    let first: Vec<&str> = t
        .members
        .iter()
        .take(4)
        .map(|m| m.member_id.as_str())
        .collect();
    for (lane, thread) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
        let prefix = format!("instance-{lane}-StreamThread-{thread}-consumer-");
        assert!(
            first.iter().any(|id| id.starts_with(&prefix)),
            "{prefix} in {first:?}"
        );
    }
    // The worker span says how many threads (capacity) the process has.
    assert!(t.worker_spans.iter().all(|w| w.threads == 2));
    // The first round after the eviction: each instance's tasks go to its
    // threads, balanced (the evicted thread is no member then).
    let round = t.rounds.first().expect("a round");
    assert_eq!(round.members.len(), 3, "{}", round.explanation);
    // Every thread ran its share before the event: 8 tasks, 4 threads.
    assert_eq!(running_at(t, 0, 29_000) + running_at(t, 1, 29_000), 8);
}

#[test]
fn max_poll_interval_evicts_one_thread_not_the_instance() {
    let r = run(&scenario(TWO_BY_TWO));
    let v = variant(&r, "cooperative");
    let t = &v.trace;
    let timeouts: Vec<_> = t
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::PollTimeout)
        .collect();
    assert_eq!(timeouts.len(), 1);
    assert!(
        timeouts[0]
            .explanation
            .contains("instance-1 StreamThread-2"),
        "{}",
        timeouts[0].explanation
    );
    assert_eq!(timeouts[0].at_ms, 90_000);
    // instance-1's other thread keeps processing: some task runs on lane 0
    // without a break from before the block to after the thread's return.
    let kept = t.items.iter().any(|item| {
        pieces(t, &item.label, 0, ItemState::Running)
            .iter()
            .any(|&(s, e)| s <= 29_000 && e >= 125_000)
    });
    assert!(kept, "instance-1's StreamThread-1 kept its tasks running");
    // The blocked thread's tasks stop (frozen), move on at the timeout, and
    // the thread rejoins as a new member when its handler returns.
    assert!(t
        .steps
        .iter()
        .any(|s| s.kind == StepKind::PartitionsLost && s.at_ms == 120_000));
    assert!(v.metrics.settled_ms.is_some());
}

/// One instance, one or two threads, restoring `tasks` tasks of 20,000
/// records each at the default 20,000 records/s per thread.
fn restore(threads: u32, version: &str) -> Scenario {
    scenario(&format!(
        r#"{{"version":1,"title":"restore","seed":1,"start":"empty",
  "streams":{{"instances":1,"kafka_version":"{version}","cold_start":true,
    "subtopologies":[{{"partitions":2,"stateful":true,"changelog_records":20000}},{{"partitions":2}}],
    "config":{{"num.stream.threads":{threads}}}}},
  "compare":[{{"label":"run"}}],"events":[]}}"#
    ))
}

/// When each stateful task of the trace started running.
fn restored_at(t: &Trace) -> Vec<u64> {
    ["0_0", "0_1"]
        .iter()
        .map(|task| pieces(t, task, 0, ItemState::Running)[0].0)
        .collect()
}

#[test]
fn tasks_restoring_on_one_thread_share_its_restore_rate() {
    // One thread restores both 20,000-record changelogs at 20,000 records/s
    // in total: both run after 2 s; two threads take 1 s each.
    let one = run(&restore(1, "4.3"));
    let two = run(&restore(2, "4.3"));
    let (a, b) = (
        restored_at(&one.variants[0].trace),
        restored_at(&two.variants[0].trace),
    );
    let restoring = |t: &Trace| pieces(t, "0_0", 0, ItemState::Restoring)[0];
    let (s1, e1) = restoring(&one.variants[0].trace);
    let (s2, e2) = restoring(&two.variants[0].trace);
    assert_eq!(e1 - s1, 2_000, "{a:?}");
    assert_eq!(e2 - s2, 1_000, "{b:?}");
    assert_eq!(streams(&one.variants[0]).records_restored, 40_000);
}

#[test]
fn before_the_state_updater_a_restoring_thread_processes_nothing_kafka_10199() {
    // 3.7: the stream thread restores between polls and, while an active
    // restores, processes none of its tasks (the stateless ones wait: paused).
    // 3.8: the state updater restores; the thread processes its stateless
    // tasks meanwhile.
    let old = run(&restore(1, "3.7"));
    let new = run(&restore(1, "3.8"));
    let t_old = &old.variants[0].trace;
    let t_new = &new.variants[0].trace;
    let (s, e) = pieces(t_old, "0_0", 0, ItemState::Restoring)[0];
    assert!(!pieces(t_old, "1_0", 0, ItemState::Frozen).is_empty());
    assert!(
        pieces(t_old, "1_0", 0, ItemState::Running)
            .iter()
            .all(|&(a, _)| a >= e),
        "3.7: stateless tasks run only after restoration ({s}..{e})"
    );
    let (s, e) = pieces(t_new, "0_0", 0, ItemState::Restoring)[0];
    assert!(
        pieces(t_new, "1_0", 0, ItemState::Running)
            .iter()
            .any(|&(a, b)| a <= s + 1 && b >= e),
        "3.8: stateless tasks run during restoration"
    );
    // The internal flag turns it off on 3.8 …
    let off = scenario(&serde_json::to_string(&restore(1, "3.8")).unwrap().replace(
        r#""num.stream.threads":1"#,
        r#""num.stream.threads":1,"__state.updater.enabled__":false"#,
    ));
    let t_off = &run(&off).variants[0].trace;
    assert!(!pieces(t_off, "1_0", 0, ItemState::Frozen).is_empty());
}

#[test]
fn a_member_removed_while_frozen_runs_as_a_zombie_then_loses_its_tasks_and_its_eos_state() {
    // instance-2 freezes for 60 s (GC) under exactly_once_v2; its session
    // (45 s) expires and its tasks move. When it resumes it still runs them
    // (zombie copies, counted as running twice) until its next heartbeat is
    // answered UNKNOWN_MEMBER_ID; then onPartitionsLost closes them dirty,
    // wiping their EOS state, and it rejoins as a new member. The run settles.
    let json = r#"{"version":1,"title":"zombie","seed":4,
      "streams":{"instances":2,"subtopologies":[{"partitions":4,"stateful":true,"changelog_records":1000,"changelog_records_per_sec":10}],
        "config":{"processing.guarantee":"exactly_once_v2"}},
      "compare":[{"label":"cooperative"}],
      "events":[{"at_ms":20000,"type":"gc_pause","instance":"instance-2","duration_ms":60000}]}"#;
    let r = run(&scenario(json));
    let v = variant(&r, "cooperative");
    let t = &v.trace;
    let zombies: Vec<_> = t
        .intervals()
        .filter(|iv| iv.state == ItemState::Zombie)
        .collect();
    assert!(!zombies.is_empty(), "zombie copies in the trace");
    assert!(zombies
        .iter()
        .all(|z| z.worker == Some(1) && z.start_ms == 80_000 && z.end_ms <= 80_000 + 3_000));
    assert!(v.metrics.duplicate_task_ms > 0);
    let lost = t
        .steps
        .iter()
        .find(|s| s.kind == StepKind::PartitionsLost)
        .expect("onPartitionsLost");
    assert!(lost.explanation.contains("wiped"), "{}", lost.explanation);
    assert!(v.metrics.settled_ms.is_some(), "the run settles");
    // Rejoined as a new member: a later membership of instance-2.
    assert!(t.members.iter().filter(|m| m.worker == 1).count() >= 2);
}

#[test]
fn settled_means_balanced_by_thread_capacity() {
    // One instance with 1 thread, one with 3: HighAvailabilityTaskAssignor
    // gives them 2 and 6 of 8 tasks, which is balanced per thread. Counting
    // tasks per instance (±1) would call this run unbalanced forever.
    let json = r#"{"version":1,"title":"capacity","seed":2,
      "streams":{"instances":1,"subtopologies":[{"partitions":8,"stateful":true,"changelog_records":1000}],
        "config":{"acceptable.recovery.lag":9223372036854775807}},
      "compare":[{"label":"cooperative"}],
      "events":[{"at_ms":10000,"type":"instance_join","config":{"num.stream.threads":3}}]}"#;
    let r = run(&scenario(json));
    let v = variant(&r, "cooperative");
    let t = &v.trace;
    let end = t.end_ms - 1;
    let (one, three) = (running_at(t, 0, end), running_at(t, 1, end));
    assert_eq!((one, three), (2, 6));
    assert!(v.metrics.settled_ms.is_some(), "balanced by capacity");
    assert!(v.metrics.peak_imbalance >= 4);
}

#[test]
fn an_eager_rebalance_hands_each_thread_back_the_tasks_it_had() {
    // Eager (3.9 with upgrade.from=2.3): onJoinPrepare suspends every
    // active; each thread reports its own (suspended, or locked when it
    // rejoins), so the leader hands them back to the same thread
    // (assignTasksToThreads is sticky per thread) when instance-2's tasks
    // join them.
    let json = r#"{"version":1,"title":"eager threads","seed":5,"start":"empty",
      "streams":{"instances":2,"kafka_version":"3.9","subtopologies":[{"partitions":8,"stateful":true,"changelog_records":1000}],
        "config":{"num.stream.threads":2,"upgrade.from":"2.3"}},
      "compare":[{"label":"eager"}],
      "events":[{"at_ms":60000,"type":"instance_stop","instance":"instance-2"}]}"#;
    let r = run(&scenario(json));
    let t = &r.variants[0].trace;
    let assigned = |round: &engine::trace::RebalanceRound, thread: &str| -> Vec<u32> {
        round
            .members
            .iter()
            .filter(|m| t.members[m.member as usize].member_id.contains(thread))
            .flat_map(|m| t.list(m.assigned).to_vec())
            .collect()
    };
    let last = t.rounds.last().expect("the round after instance-2 left");
    let first = t
        .rounds
        .iter()
        .rev()
        .find(|r| r.delivered && r.members.len() == 4)
        .expect("a round with all four threads");
    assert_eq!(last.protocol, "eager");
    for thread in ["instance-1-StreamThread-1-", "instance-1-StreamThread-2-"] {
        let before = assigned(first, thread);
        let after = assigned(last, thread);
        assert_eq!(before.len(), 2, "{thread}");
        assert_eq!(after.len(), 4, "{thread}");
        assert!(
            before.iter().all(|t| after.contains(t)),
            "{thread}: {before:?} then {after:?}"
        );
    }
}

#[test]
fn the_join_phase_waits_for_every_stream_thread() {
    // instance-1's StreamThread-2 is blocked in a handler from 10 s to 40 s
    // (within max.poll.interval.ms): it only rejoins from poll(), so the
    // rebalance a new instance starts at 12 s completes when it is back,
    // while the instance's other thread rejoined at once.
    let json = r#"{"version":1,"title":"join waits","seed":8,
      "streams":{"instances":2,"subtopologies":[{"partitions":8,"stateful":true,"changelog_records":1000}],
        "config":{"num.stream.threads":2}},
      "compare":[{"label":"cooperative"}],
      "events":[{"at_ms":10000,"type":"slow_processing","instance":"instance-1","thread":2,"duration_ms":30000},
                {"at_ms":12000,"type":"instance_join","config":{"num.stream.threads":2}}]}"#;
    let r = run(&scenario(json));
    let t = &variant(&r, "cooperative").trace;
    let round = t.rounds.first().expect("the new instance's round");
    assert!(round.started_ms < 20_000, "{}", round.started_ms);
    assert!(round.joined_ms >= 40_000, "{}", round.joined_ms);
    assert_eq!(
        round.members.len(),
        6,
        "every thread of the three instances"
    );
}
