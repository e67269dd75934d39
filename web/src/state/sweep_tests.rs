use super::*;

fn reduce(model: Rc<SweepModel>, action: SweepAction) -> Rc<SweepModel> {
    model.reduce(action)
}

fn bounce() -> Rc<Scenario> {
    Rc::new(
        crate::presets::find("connect/worker-bounce")
            .unwrap()
            .scenario(),
    )
}

#[test]
fn opening_offers_the_first_parameter_over_a_valid_range() {
    let scenario = bounce();
    let m = reduce(Rc::default(), SweepAction::Open(scenario.clone()));
    assert!(m.open);
    let spec = m.spec.clone().expect("a spec");
    assert_eq!(spec.steps, DEFAULT_STEPS);
    assert_eq!(m.refusal(&scenario), None, "{spec:?}");
    // Every parameter the form offers gets a range it takes.
    for p in sweep::parameters(&scenario) {
        let m = reduce(
            m.clone(),
            SweepAction::Parameter(p.clone(), scenario.clone()),
        );
        assert_eq!(m.refusal(&scenario), None, "{}", p.name());
    }
}

#[test]
fn the_suggested_range_reaches_past_kafkas_default() {
    let scenario = bounce();
    let p = SweepParameter::parse_key("scheduled.rebalance.max.delay.ms", None, None).unwrap();
    let info = p.info(&scenario).unwrap();
    assert_eq!(info.kafka_default, Some(300_000));
    assert_eq!(suggested_range(&info), (0, 1_200_000));
    let workers = SweepParameter::parse_key("workers", None, None).unwrap();
    let (from, to) = suggested_range(&workers.info(&scenario).unwrap());
    assert!(from >= 1 && to > from, "{from}..{to}");
}

#[test]
fn points_arrive_in_any_order_and_give_the_clis_numbers() {
    let preset = crate::presets::find_sweep("sweeps/connect-delay-vs-bounce").unwrap();
    let scenario = Rc::new(preset.scenario());
    let spec = preset.spec();
    let mut m = reduce(Rc::default(), SweepAction::FromLink(spec.clone()));
    assert!(m.run_when_ready);
    m = reduce(m, SweepAction::Run(scenario.clone(), 10.0));
    assert!(!m.run_when_ready);
    let run = m.run.clone().unwrap();
    assert_eq!(run.done(), 0);
    assert!(run.running());
    // The pool finishes points out of order; a point of another run is dropped.
    let family = scenario.family_kind();
    let points: Vec<PointResult> = run
        .points
        .iter()
        .rev()
        .map(|p| sweep::point_result(p.value, family, engine::run::run(&p.scenario)))
        .collect();
    m = reduce(m, SweepAction::Point(run.id + 1, points[0].clone(), 11.0));
    assert_eq!(m.run.as_ref().unwrap().done(), 0, "a stale run's point");
    for (i, p) in points.into_iter().enumerate() {
        m = reduce(m, SweepAction::Point(run.id, p, 20.0 + i as f64));
    }
    let run = m.run.clone().unwrap();
    assert!(!run.running());
    assert_eq!(run.finished_ms, Some(20.0 + (run.total() - 1) as f64));
    assert_eq!(run.result, sweep::run_sweep(&scenario, &spec).unwrap());
}

#[test]
fn cancel_stops_a_run_and_later_points_are_dropped() {
    let scenario = bounce();
    let mut m = reduce(Rc::default(), SweepAction::Open(scenario.clone()));
    m = reduce(m, SweepAction::Run(scenario.clone(), 0.0));
    let run = m.run.clone().unwrap();
    let first = &run.points[0];
    let point = sweep::point_result(
        first.value,
        scenario.family_kind(),
        engine::run::run(&first.scenario),
    );
    m = reduce(m, SweepAction::Point(run.id, point.clone(), 1.0));
    m = reduce(m, SweepAction::Cancel);
    let after = reduce(m.clone(), SweepAction::Point(run.id, point, 2.0));
    assert!(Rc::ptr_eq(&m, &after), "nothing changes after a cancel");
    let r = m.run.as_ref().unwrap();
    assert!(r.cancelled && !r.running());
    assert_eq!(r.done(), 1);
}

#[test]
fn a_refused_spec_says_why_and_does_not_run() {
    let scenario = bounce();
    let mut m = reduce(Rc::default(), SweepAction::Open(scenario.clone()));
    m = reduce(m, SweepAction::To(0));
    assert!(
        m.refusal(&scenario).unwrap().contains("to"),
        "{:?}",
        m.refusal(&scenario)
    );
    m = reduce(m, SweepAction::Run(scenario.clone(), 0.0));
    assert!(m.run.is_none());
    assert!(m.error.is_some());
    // A log scale moves a from of 0 to 1.
    let m = reduce(m, SweepAction::Scale(Scale::Log));
    assert_eq!(m.spec.as_ref().unwrap().from, 1);
}

#[test]
fn a_built_in_sweep_keeps_its_id_until_edited() {
    let preset = crate::presets::find_sweep("sweeps/connect-delay-vs-bounce").unwrap();
    let scenario = Rc::new(preset.scenario());
    let question = Question {
        preset: preset.id,
        title: preset.title().to_string(),
        description: preset.description().to_string(),
        scenario: scenario.clone(),
        spec: preset.spec(),
    };
    let m = reduce(Rc::default(), SweepAction::FromPreset(question));
    assert_eq!(m.preset_id(&scenario), Some(preset.id));
    assert!(m.current_question(&scenario).is_some());
    let m = reduce(m, SweepAction::Steps(10));
    assert_eq!(m.preset_id(&scenario), None);
}

#[test]
fn the_plot_fits_its_space() {
    use engine::sweep::plot_layout::{PlotLayout, POINT_REACH};
    let preset = crate::presets::find_sweep("sweeps/streams-warmups-vs-changelog").unwrap();
    let result = sweep::plan(&preset.scenario(), &preset.spec())
        .unwrap()
        .result;
    // The plot box's width at 1366, 1280 and 480 px and on a phone, then
    // every width from 240 px (the narrowest panel, 120 px, and its labels).
    let widths = [1334.0, 1248.0, 448.0, 374.0]
        .into_iter()
        .chain((240..=1600).step_by(7).map(f64::from));
    for width in widths {
        for height in [None, Some(360.0)] {
            let o = plot_options(width, height, result.metrics.len());
            let layout = PlotLayout::new(&result, o);
            assert!(layout.width <= width + 0.5, "{width}: {}", layout.width);
            // A fixed height fits three columns' rows; fewer columns take
            // more rows than the least panel height (50 px) fits in 360 px.
            if let Some(h) = height.filter(|_| o.columns == 3) {
                assert!(layout.height <= h + 0.5, "{width}×{h}: {}", layout.height);
            }
            for p in &layout.panels {
                let reach = p.left + o.panel_width + POINT_REACH;
                assert!(
                    reach <= layout.width,
                    "{width}: {:?} reaches {reach} past {}",
                    p.metric,
                    layout.width
                );
            }
        }
    }
    assert_eq!(plot_options(374.0, None, 6).columns, 1);
    assert_eq!(plot_options(1334.0, None, 6).columns, 3);
}

#[test]
fn keys_step_through_the_points() {
    assert_eq!(step_point(None, 5, "ArrowRight"), Some(0));
    assert_eq!(step_point(None, 5, "ArrowLeft"), Some(4));
    assert_eq!(step_point(Some(2), 5, "ArrowRight"), Some(3));
    assert_eq!(step_point(Some(4), 5, "ArrowRight"), Some(4));
    assert_eq!(step_point(Some(0), 5, "ArrowLeft"), Some(0));
    assert_eq!(step_point(Some(3), 5, "Home"), Some(0));
    assert_eq!(step_point(Some(1), 5, "End"), Some(4));
    // A selection left over from a longer run stays in range.
    assert_eq!(step_point(Some(9), 5, "ArrowLeft"), Some(4));
    assert_eq!(step_point(Some(2), 5, "a"), None);
    assert_eq!(step_point(None, 0, "ArrowRight"), None);
}
