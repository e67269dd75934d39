//! Tests of the playground reducer ([`super`]).

use super::*;

fn outcome(id: u64, result: Rc<RunResult>) -> SimOutcome {
    answer(id, Answer::Simulated(Ok(result)))
}

fn answer(id: u64, answer: Answer) -> SimOutcome {
    SimOutcome {
        id,
        answer,
        elapsed_ms: 1.0,
        ran_in: RanIn::Worker,
    }
}

/// A `#s=` link's fragment and the JSON it carries.
fn scenario_link(s: &Scenario) -> (String, String) {
    (link::encode(s), s.to_json())
}

#[test]
fn landing_is_the_gallery_and_presets_open() {
    let s = Rc::new(PlaygroundState::load("", false));
    assert_eq!(s.view, View::Gallery);
    assert_eq!(s.request, 0);
    let s = s.reduce(Action::OpenPreset("connect/worker-dies"));
    assert_eq!(s.view, View::Compare);
    assert_eq!(s.fragment, "p=connect/worker-dies");
    assert_eq!(s.history, History::Push);
    assert!(s.simulating());
}

#[test]
fn bad_links_show_the_gallery_with_a_message() {
    for bad in ["s=1.z.%%%", "s=9.z.AAAA", "nonsense", "p=no/such"] {
        let s = PlaygroundState::load(bad, false);
        assert_eq!(s.view, View::Gallery, "{bad}");
        assert!(s.notice.as_deref().is_some_and(|n| n.len() > 30), "{bad}");
        let e = PlaygroundState::load(bad, true);
        assert_eq!(e.view, View::Compare, "embeds fall back to the default");
        assert!(e.notice.is_some());
    }
}

#[test]
fn a_scenario_link_is_read_by_the_simulator_then_shown() {
    let mut scenario = presets::find("connect/worker-dies").unwrap().scenario();
    scenario.title = "From a link".to_string();
    let (fragment, json) = scenario_link(&scenario);
    let s = Rc::new(PlaygroundState::load(&fragment, false));
    assert_eq!(s.view, View::Compare);
    assert!(s.loading() && s.simulating() && !s.has_scenario());
    assert_eq!(s.job(), Job::Open(Rc::new(Opening::Link { json })));
    assert_eq!(s.fragment, fragment, "the link stays as the user has it");
    let request = s.request;
    let s = s.reduce(Action::Simulated(answer(
        request,
        Answer::Opened(Box::new(scenario.clone())),
    )));
    assert!(!s.loading() && s.has_scenario() && s.simulating());
    assert_eq!(*s.scenario, scenario);
    assert_eq!(
        (s.fragment.as_str(), s.history),
        (fragment.as_str(), History::Keep)
    );
    assert_eq!(s.request, request, "the same request simulates it");
    let result = Rc::new(engine::run::run(&scenario));
    let s = s.reduce(Action::Simulated(outcome(request, result)));
    assert!(!s.simulating());
}

#[test]
fn a_link_the_simulator_cannot_read_shows_the_failure_and_no_scenario() {
    let (fragment, _) = scenario_link(&presets::default_preset().scenario());
    let s = Rc::new(PlaygroundState::load(&fragment, false));
    let request = s.request;
    let s = s.reduce(Action::Simulated(answer(
        request,
        Answer::Simulated(Err("The simulator could not be loaded".into())),
    )));
    assert!(s.failure.is_some());
    assert!(
        s.loading() && !s.has_scenario(),
        "no editor for a scenario never read"
    );
}

#[test]
fn a_refused_link_shows_the_gallery_with_the_simulators_message() {
    let (fragment, _) = scenario_link(&presets::default_preset().scenario());
    let s = Rc::new(PlaygroundState::load(&fragment, false));
    let why = "This link's scenario cannot be used. connect.workers: must be at least 1.";
    let request = s.request;
    let s = s.reduce(Action::Simulated(answer(
        request,
        Answer::Refused(why.into()),
    )));
    assert_eq!(s.view, View::Gallery);
    assert!(!s.loading() && !s.has_scenario());
    assert_eq!(
        s.notice.as_deref(),
        Some(format!("{why} Pick a scenario from the gallery instead.").as_str())
    );
    let e = Rc::new(PlaygroundState::load(&fragment, true));
    let request = e.request;
    let e = e.reduce(Action::Simulated(answer(
        request,
        Answer::Refused(why.into()),
    )));
    assert_eq!(e.view, View::Compare, "embeds fall back to the default");
    assert_eq!(e.preset, Some(presets::default_preset().id));
    assert!(e.notice.is_some() && e.simulating());
}

#[test]
fn a_file_opens_through_the_simulator_and_a_refused_one_changes_nothing() {
    let s = Rc::new(PlaygroundState::load("p=connect/worker-joins", false));
    let result = Rc::new(engine::run::run(&s.scenario));
    let request = s.request;
    let s = s.reduce(Action::Simulated(outcome(request, result)));
    let before = s.clone();
    let file = Opening::File {
        name: "a.json".into(),
        text: "{}".into(),
    };
    let s = s.reduce(Action::OpenFile(Ok(file.clone())));
    assert!(s.loading() && s.request > before.request);
    assert_eq!(s.job(), Job::Open(Rc::new(file.clone())));
    let request = s.request;
    let refused = s.clone().reduce(Action::Simulated(answer(
        request,
        Answer::Refused("no".into()),
    )));
    assert_eq!(refused.notice.as_deref(), Some("no"));
    assert_eq!(refused.scenario, before.scenario);
    assert!(
        !refused.loading() && !refused.simulating(),
        "the result on screen still holds"
    );
    let opened_file = presets::find("connect/worker-dies").unwrap().scenario();
    let opened = s.reduce(Action::Simulated(answer(
        request,
        Answer::Opened(Box::new(opened_file.clone())),
    )));
    assert_eq!(*opened.scenario, opened_file);
    assert_eq!(opened.history, History::Push);
    assert_eq!(opened.fragment, link::encode(&opened_file));
    assert_eq!(opened.opened, before.opened + 1, "playback restarts");
    // Its result, even in the same render, leaves the Push to be written.
    let shown = opened.reduce(Action::Simulated(outcome(
        request,
        Rc::new(engine::run::run(&opened_file)),
    )));
    assert_eq!(shown.history, History::Push);
    assert!(!shown.simulating());
}

#[test]
fn stale_results_are_dropped() {
    let s = Rc::new(PlaygroundState::load("p=connect/worker-joins", false));
    let first = s.request;
    let s = s.reduce(Action::Edit(Edit::Workers(5)));
    assert_eq!(s.request, first + 1);
    assert_eq!(s.history, History::Push);
    assert!(s.fragment.starts_with("s=1."));
    let result = Rc::new(engine::run::run(&s.scenario));
    let s = s.reduce(Action::Simulated(outcome(first, result.clone())));
    assert!(s.shown.is_none(), "a superseded result is not shown");
    let s = s.reduce(Action::Simulated(outcome(first + 1, result)));
    assert_eq!(s.shown.as_ref().map(|x| x.id), Some(first + 1));
    assert!(!s.simulating());
}

#[test]
fn invalid_edits_are_kept_but_not_simulated() {
    let s = Rc::new(PlaygroundState::load("p=connect/worker-joins", false));
    let before = s.request;
    let s = s.reduce(Action::Edit(Edit::Workers(1_000_000)));
    assert!(s.invalid.is_some());
    assert_eq!(s.request, before);
    assert!(matches!(
        &s.scenario.family,
        engine::scenario::Family::Connect(c) if c.cluster.workers == 1_000_000
    ));
    let s = s.reduce(Action::Edit(Edit::Workers(4)));
    assert!(s.invalid.is_none());
    assert_eq!(s.request, before + 1);
}

#[test]
fn each_edit_is_a_history_entry_and_back_undoes_it() {
    let s = Rc::new(PlaygroundState::load("p=connect/worker-joins", false));
    let opened = s.opened;
    let before = s.fragment.clone();
    let s = s.reduce(Action::Edit(Edit::Workers(5)));
    assert_eq!(s.history, History::Push, "an edit adds an entry");
    let edited = s.fragment.clone();
    // Back: the address bar says the old fragment again.
    let s = s.reduce(Action::Navigate(before.clone()));
    assert_eq!(s.fragment, before);
    assert_eq!(s.history, History::Keep, "history moved by itself");
    assert!(
        matches!(&s.scenario.family, engine::scenario::Family::Connect(c) if c.cluster.workers == 3)
    );
    assert_eq!(s.opened, opened, "undo keeps the playhead");
    assert!(s.simulating(), "the undone scenario is simulated again");
    // Forward: the edit again.
    let s = s.reduce(Action::Navigate(edited.clone()));
    assert!(
        matches!(&s.scenario.family, engine::scenario::Family::Connect(c) if c.cluster.workers == 5)
    );
    assert_eq!(s.fragment, edited);
    // Another family is a new story: playback restarts.
    let s = s.reduce(Action::Navigate("p=streams/stateless-restart".into()));
    assert_eq!(s.opened, opened + 1);
}

#[test]
fn words_are_marked_stale_until_rewritten_and_the_mark_survives_back() {
    let s = Rc::new(PlaygroundState::load("p=connect/worker-joins", false));
    assert!(!s.text_stale());
    let s = s.reduce(Action::Edit(Edit::Workers(7)));
    assert!(s.text_stale(), "the preset's description no longer fits");
    let edited = s.fragment.clone();
    // Opened from the link alone (read by the simulator), the words are
    // still the preset's.
    let fresh = Rc::new(PlaygroundState::load(&edited, false));
    let request = fresh.request;
    let fresh = fresh.reduce(Action::Simulated(answer(
        request,
        Answer::Opened(Box::new((*s.scenario).clone())),
    )));
    assert!(fresh.text_stale());
    let s = s.reduce(Action::Edit(Edit::Description("Seven workers.".into())));
    assert!(!s.text_stale());
    let described = s.fragment.clone();
    let s = s.reduce(Action::Edit(Edit::Seed(42)));
    assert!(s.text_stale());
    let s = s.reduce(Action::Navigate(described));
    assert!(!s.text_stale(), "back to when the words were written");
    let s = s.reduce(Action::Navigate(edited));
    assert!(s.text_stale());
}

#[test]
fn blank_scenarios_open_and_simulate() {
    for kind in [FamilyKind::Connect, FamilyKind::Streams] {
        let s = Rc::new(PlaygroundState::load("", false)).reduce(Action::OpenBlank(kind));
        assert_eq!(s.view, View::Compare);
        assert_eq!(s.history, History::Push);
        assert!(s.simulating() && s.preset.is_none());
        assert!(!s.text_stale());
    }
}

#[test]
fn invalid_edits_say_what_the_page_calls_things() {
    let s = Rc::new(PlaygroundState::load("p=connect/worker-joins", false));
    let engine::scenario::Family::Connect(c) = &s.scenario.family else {
        panic!("a Connect preset")
    };
    let mut variants = c.compare.clone();
    variants[0].config.session_timeout_ms = Some(0);
    let s = s.reduce(Action::Edit(Edit::Variants(variants)));
    let text = s.invalid.clone().expect("invalid");
    assert!(
        text.starts_with("column 1 (eager): session.timeout.ms"),
        "{text}"
    );
}

#[test]
fn a_bad_link_in_an_embed_does_not_mention_a_gallery() {
    for bad in ["s=1.z.%%%", "s=9.z.AAAA", "nonsense", "p=no/such"] {
        let e = PlaygroundState::load(bad, true);
        let notice = e.notice.unwrap_or_default();
        assert!(
            !notice.to_lowercase().contains("gallery"),
            "{bad}: {notice}"
        );
    }
}

fn progress(events: u64) -> Rc<str> {
    format!("variant 1 of 2: 1 min simulated, 40 rebalance rounds, {events} events").into()
}

#[test]
fn progress_shows_while_running_and_cancel_stops_it() {
    let s = Rc::new(PlaygroundState::load("p=connect/worker-dies", false));
    let first = s.request;
    let result = Rc::new(engine::run::run(&s.scenario));
    let s = s.reduce(Action::Simulated(outcome(first, result)));
    assert_eq!(s.run_status(), None, "done");
    let s = s.reduce(Action::Edit(Edit::Workers(5)));
    let id = s.request;
    assert_eq!(s.run_status(), Some(RunStatus::Running(None)));
    let s = s.reduce(Action::Simulated(answer(
        id,
        Answer::Progress(progress(4_096)),
    )));
    assert_eq!(
        s.run_status(),
        Some(RunStatus::Running(Some(progress(4_096))))
    );
    // Progress of a superseded request is dropped.
    let same = s.clone().reduce(Action::Simulated(answer(
        id - 1,
        Answer::Progress(progress(9)),
    )));
    assert_eq!(
        same.run_status(),
        Some(RunStatus::Running(Some(progress(4_096))))
    );
    let s = s.reduce(Action::Cancel);
    assert_eq!(s.run_status(), Some(RunStatus::Cancelled));
    assert!(
        !s.simulating() && s.unanswered(),
        "held, the old result stays"
    );
    assert_eq!(s.shown.as_ref().map(|x| x.id), Some(first));
    assert_eq!(s.request, id, "no new request: nothing runs");
    // A late answer to the cancelled request (the main-thread fallback)
    // is dropped.
    let late = s.clone().reduce(Action::Simulated(outcome(
        id,
        Rc::new(engine::run::run(&s.scenario)),
    )));
    assert_eq!(late.run_status(), Some(RunStatus::Cancelled));
    // Run anyway: a new, confirmed request for the same scenario.
    let s = s.reduce(Action::RunAnyway);
    assert_eq!(s.request, id + 1);
    assert!(s.confirmed() && s.simulating());
    assert_eq!(s.run_status(), Some(RunStatus::Running(None)));
    assert_eq!(s.job(), Job::Simulate(s.scenario.clone()));
    // Cancel does nothing once the result is in.
    let done = s.clone().reduce(Action::Simulated(outcome(
        s.request,
        Rc::new(engine::run::run(&s.scenario)),
    )));
    assert_eq!(done.run_status(), None);
    assert_eq!(done.clone().reduce(Action::Cancel), done);
}

#[test]
fn an_expensive_scenario_is_asked_about_before_it_runs() {
    let scenario = presets::find("connect/worker-dies").unwrap().scenario();
    let (fragment, _) = scenario_link(&scenario);
    let s = Rc::new(PlaygroundState::load(&fragment, false));
    let id = s.request;
    let s = s.reduce(Action::Simulated(answer(
        id,
        Answer::Opened(Box::new(scenario.clone())),
    )));
    let question: Rc<str> = "This scenario will take about 40 s and 380 MB to simulate.".into();
    let s = s.reduce(Action::Simulated(answer(
        id,
        Answer::Expensive(question.clone()),
    )));
    assert_eq!(s.run_status(), Some(RunStatus::Asking(question)));
    assert!(!s.simulating() && !s.confirmed());
    assert!(s.shown.is_none(), "nothing drawn yet");
    // Declined: cancelled, with Run anyway still on offer.
    let declined = s.clone().reduce(Action::Cancel);
    assert_eq!(declined.run_status(), Some(RunStatus::Cancelled));
    // Run it: confirmed, the scenario the simulator read (no second read).
    let s = s.reduce(Action::RunAnyway);
    assert!(s.confirmed() && s.simulating());
    assert_eq!(s.job(), Job::Simulate(Rc::new(scenario)));
    let (id, result) = (s.request, Rc::new(engine::run::run(&s.scenario)));
    let s = s.reduce(Action::Simulated(outcome(id, result)));
    assert_eq!(s.run_status(), None);
    // An edit after a confirmed run is asked about again if it is expensive.
    let s = s.reduce(Action::Edit(Edit::Workers(7)));
    assert!(!s.confirmed());
}
