//! The page: header, notices, the gallery or the comparison, the editor,
//! and the overlays. State lives in three reducers (scenario, playhead,
//! overlays); effects turn state changes into simulations and address-bar
//! writes, so data flows one way: scenario → simulator → trace → view.

use engine::fixed::Fixed;
use std::cell::Cell;
use std::rc::Rc;

use yew::prelude::*;

use crate::browser::embed::{framed, use_height_reports};
use crate::browser::hooks::{use_animation_frames, use_view_link};
use crate::browser::keyboard::Command;
use crate::browser::listeners::{use_file_drop, use_navigation, use_shortcuts};
use crate::browser::location;
use crate::browser::sweep_module::{self, SweepMount};
use crate::components::compare_view::CompareView;
use crate::components::editor::Editor;
use crate::components::embed_dialog::EmbedDialog;
use crate::components::engine_text::engine_text;
use crate::components::gallery::Gallery;
use crate::components::help_overlay::HelpOverlay;
use crate::components::outbox::{HeldEdits, Outbox};
use crate::components::run_status::run_status_bar;
use crate::components::share_bar::ShareBar;
use crate::components::timeline_width::{use_width_probe, width_probe};
use crate::components::warm_up::{warm_up, WarmUpStatus};
use crate::state::overlays::{OverlayAction, Overlays};
use crate::state::playback::{round_stops, PlayAction, Playback};
use crate::state::playground::{Action, History, PlaygroundState, View};
use crate::state::viewport::{focus_window, Window};
use crate::worker::answers::{RanIn, SimOutcome, WorkerStatus};
use crate::worker::brief_sim::{BriefSimulator, BriefStatus};
use crate::worker::sim_client::SimClient;

/// A scenario's description: its first sentence, the rest one click away
/// (some descriptions run to ten lines; the comparison is what matters).
/// When the scenario changed since the words were written, they say so.
pub(crate) fn description(text: &str, stale: bool) -> Html {
    let first = crate::components::gallery::first_sentence(text);
    let rest = text.trim()[first.len()..].trim();
    // Always laid out (hidden until the scenario is edited), so that
    // showing it never moves what follows by a line.
    let mark = html! {
        <span class={classes!("stale-note", (!stale).then_some("reserved"))}
              id={stale.then_some("description-stale")} aria-hidden={(!stale).then_some("true")}>
            {" (edited — description may not match)"}
        </span>
    };
    if rest.is_empty() {
        html! { <p class="description">{ text.to_string() }{ mark }</p> }
    } else {
        html! {
            <details class="description">
                <summary><span class="first">{ first.to_string() }</span><span class="more">{" more"}</span>{ mark }</summary>
                <p>{ rest.to_string() }</p>
            </details>
        }
    }
}

/// The KIPs and JIRA issues a scenario illustrates. The engine accepts only
/// `https://` addresses; anything else is shown as text, never as a link.
fn references(refs: &[engine::scenario::Reference]) -> Html {
    html! {
        <p class="references">{"Read more: "}
            { for refs.iter().enumerate().map(|(i, r)| html! {
                <>
                    if i > 0 { {", "} }
                    if r.url.starts_with("https://") {
                        <a href={r.url.clone()} target="_blank" rel="noopener noreferrer">{ &r.label }</a>
                    } else {
                        <span>{ &r.label }</span>
                    }
                </>
            }) }
        </p>
    }
}

/// The playground.
#[component]
pub fn App() -> Html {
    let embed = use_memo((), |_| location::query_flag("embed"));
    let embed = *embed;
    let embed_options = use_memo((), |_| location::embed_options());
    // A sweep link's scenario part goes to the playground, its sweep to the sweep view.
    let first_link = use_memo((), |_| location::split_sweep_link(&location::fragment()));
    let state = use_reducer(|| PlaygroundState::load(&first_link.0, embed));
    // The sweep view is open (the sweep module's; see browser::sweep_module)
    // with this link part to start from (empty: the Sweep button's).
    let sweep = use_state(|| first_link.1.clone());
    // The link's view state (`?t=…&view=from-to`) applies to the first result.
    let playback = use_reducer(|| {
        Playback::restoring(
            location::query_value("t").and_then(|t| t.parse().ok()),
            location::query_value("view").and_then(|v| Window::parse(&v)),
        )
    });
    let overlays = use_reducer(Overlays::default);
    let main_ref = use_node_ref();

    // The simulator (a Web Worker, warm from the start); results come back
    // as actions. The link's request goes out now, before the first render:
    // Yew renders in 16 ms slices and runs effects after yielding to the
    // browser, so the effect below would post it only after the first
    // frame's layout (issue #13, navigation → first timeline).
    let worker_status = use_state_eq(|| WorkerStatus::Starting);
    let brief_status = use_state_eq(|| BriefStatus::Off);
    // Simulates small edits on the main thread once the editor is open.
    let brief = {
        let brief_status = brief_status.setter();
        use_memo((), move |_| {
            BriefSimulator::new(Callback::from(move |b: BriefStatus| brief_status.set(b)))
        })
    };
    let first_request = state.request;
    let held = use_memo((), |_| Rc::new(HeldEdits::default()));
    let client = {
        let dispatch = state.dispatcher();
        let held = (*held).clone();
        let worker_status = worker_status.setter();
        let brief = (*brief).clone();
        let (job, confirmed) = (state.job(), state.confirmed());
        let preset = state.preset;
        use_memo((), move |_| {
            let client = SimClient::new(
                Callback::from(move |o: SimOutcome| held.answer(&dispatch, o)),
                Callback::from(move |w: WorkerStatus| worker_status.set(w)),
                brief,
            );
            if first_request > 0 {
                // An unedited preset's link: the site ships its result,
                // and the request waits for it.
                if let Some(url) = preset.and_then(crate::presets::shipped_result_url) {
                    client.prefetch(first_request, &url);
                }
                client.request(first_request, &job, confirmed);
            }
            client
        })
    };
    // Each newer request (a valid scenario) goes to the simulator once:
    // an edit's from its handler (held until its result; see
    // components::outbox), any other's from this effect.
    let outbox = {
        let posted = use_memo((), move |_| Rc::new(Cell::new(first_request)));
        Outbox {
            client: (*client).clone(),
            state: state.clone(),
            posted: (*posted).clone(),
            held: (*held).clone(),
        }
    };
    {
        let outbox = outbox.clone();
        use_effect_with(state.request, move |_| outbox.post());
    }
    // The address bar follows the scenario: a permalink at all times,
    // written after the frame that shows it unless the sweep module (which
    // writes after the page) is open.
    use_effect_with(
        (state.fragment.clone(), state.history, sweep.is_some()),
        |(fragment, history, sweep_open)| {
            if *history != History::Keep
                && !fragment.is_empty()
                && location::fragment() != *fragment
            {
                let push = *history == History::Push;
                if *sweep_open {
                    location::write_fragment(fragment, push);
                } else {
                    location::write_fragment_after_frame(fragment, push);
                }
            }
        },
    );
    // The sweep view, shown in its container by the sweep module (loaded
    // the first time); it follows the scenario as edited.
    let sweep_ref = use_node_ref();
    use_effect_with(
        (
            (*sweep)
                .clone()
                .filter(|_| state.view == View::Compare && !state.loading()),
            state.scenario.clone(),
            state.fragment.clone(),
            state.invalid.is_some(),
        ),
        {
            let sweep_ref = sweep_ref.clone();
            move |(link, scenario, fragment, invalid)| match (
                link,
                sweep_ref.cast::<web_sys::Element>(),
            ) {
                (Some(link), Some(root)) => {
                    // The sweep module reads the address bar itself.
                    location::flush_fragment();
                    sweep_module::show(SweepMount {
                        root,
                        scenario: scenario.to_json(),
                        link: link.clone(),
                        page_fragment: fragment.clone(),
                        embed,
                        invalid: *invalid,
                    })
                }
                _ => sweep_module::hide(),
            }
        },
    );
    // With the sweep view closed, the link loses its sweep part (the sweep
    // module writes it while open).
    use_effect_with(
        (
            state.fragment.clone(),
            sweep.is_some(),
            state.loading() || state.view == View::Gallery,
        ),
        move |(fragment, open, away)| {
            if !*open && !*away && !fragment.is_empty() {
                let wanted = location::scenario_fragment(fragment);
                if location::fragment() != wanted {
                    location::write_fragment(wanted, false);
                }
            }
        },
    );
    // A new result: new axis and round stops; a newly opened scenario
    // restarts playback (and plays, in an embed asked to autoplay).
    {
        let playback = playback.dispatcher();
        let last_opened = use_mut_ref(|| 0u64);
        let autoplay = use_memo((), |_| location::query_flag("autoplay"));
        let opened = state.opened;
        use_effect_with(state.shown.clone(), move |shown| {
            if let Some(shown) = shown {
                let restart = *last_opened.borrow() != opened;
                *last_opened.borrow_mut() = opened;
                let end_ms = shown
                    .result
                    .variants
                    .iter()
                    .map(|v| v.trace.end_ms)
                    .max()
                    .unwrap_or(0);
                playback.dispatch(PlayAction::Load {
                    end_ms,
                    rounds: Rc::new(round_stops(&shown.result)),
                    restart,
                    focus: focus_window(&shown.result),
                });
                if restart && *autoplay {
                    playback.dispatch(PlayAction::Play);
                }
            }
        });
    }
    // Playback runs on animation frames.
    {
        let dispatch = playback.dispatcher();
        use_animation_frames(
            playback.playing,
            Callback::from(move |ts: f64| dispatch.dispatch(PlayAction::Frame(ts))),
        );
    }
    // The query string follows the playhead and the window (when paused).
    use_view_link(
        (playback.end_ms > 0).then_some(playback.t_ms),
        playback.zoom,
        playback.playing,
    );
    // The tab's title names the scenario.
    {
        let title = (state.view == View::Compare || embed).then(|| state.scenario.title.clone());
        use_effect_with(title, |title| {
            location::set_document_title(title.as_deref())
        });
    }
    use_navigation({
        let (dispatch, sweep) = (outbox.clone(), sweep.setter());
        Callback::from(move |f: String| {
            let (scenario, in_link) = location::split_sweep_link(&f);
            sweep.set(in_link);
            dispatch.dispatch(Action::Navigate(scenario));
        })
    });
    // Keyboard shortcuts; Escape closes an overlay first, else the round details.
    {
        let overlay_open = use_mut_ref(|| false);
        *overlay_open.borrow_mut() = overlays.any();
        let (play, ui) = (playback.dispatcher(), overlays.dispatcher());
        use_shortcuts(Callback::from(move |cmd: Command| match cmd {
            Command::Play(a) => play.dispatch(a),
            Command::Help => ui.dispatch(OverlayAction::ToggleHelp),
            Command::Escape if *overlay_open.borrow() => ui.dispatch(OverlayAction::Close),
            Command::Escape => {
                play.dispatch(PlayAction::Select(None));
                play.dispatch(PlayAction::Follow(None));
            }
        }));
    }
    // Callbacks keep their identity across renders (the page re-renders on
    // every playback frame; a fresh callback would re-render each child).
    let on_file = {
        let dispatch = outbox.clone();
        use_callback((), move |r, _| dispatch.dispatch(Action::OpenFile(r)))
    };
    use_file_drop(!embed, on_file.clone());
    use_height_reports(main_ref.clone(), framed());

    let on_play = {
        let dispatch = playback.dispatcher();
        use_callback((), move |a: PlayAction, _| dispatch.dispatch(a))
    };
    let on_help = {
        let ui = overlays.dispatcher();
        use_callback((), move |_: (), _| ui.dispatch(OverlayAction::ToggleHelp))
    };
    let close_overlays = {
        let ui = overlays.dispatcher();
        use_callback((), move |_: (), _| ui.dispatch(OverlayAction::Close))
    };
    let on_edit = {
        let outbox = outbox.clone();
        use_callback((), move |e, _| outbox.edit(e))
    };
    let on_unfold = {
        let brief = (*brief).clone();
        use_callback((), move |(), _| brief.editor_opened())
    };
    let on_blank = {
        let dispatch = outbox.clone();
        use_callback((), move |kind, _| {
            dispatch.dispatch(Action::OpenBlank(kind))
        })
    };
    let on_open_preset = {
        let dispatch = outbox.clone();
        use_callback((), move |id, _| dispatch.dispatch(Action::OpenPreset(id)))
    };
    let show_gallery = {
        let (dispatch, sweep) = (outbox.clone(), sweep.setter());
        use_callback((), move |_: MouseEvent, _| {
            sweep.set(None);
            dispatch.dispatch(Action::ShowGallery)
        })
    };
    let toggle_sweep = {
        let (set, open) = (sweep.setter(), sweep.is_some());
        Callback::from(move |_: MouseEvent| set.set((!open).then(String::new)))
    };
    let back_to_compare = {
        let dispatch = outbox.clone();
        use_callback((), move |_: (), _| dispatch.dispatch(Action::ShowCompare))
    };
    let dismiss = {
        let dispatch = outbox.clone();
        use_callback((), move |_: MouseEvent, _| {
            dispatch.dispatch(Action::DismissNotice)
        })
    };
    // Cancel (true) stops the worker at once (the reducer only records
    // it); Run it / Run anyway (false) asks again, confirmed.
    let on_run_choice = {
        let dispatch = outbox.clone();
        let client = client.clone();
        use_callback((), move |cancel: bool, _| {
            if cancel {
                client.cancel();
                dispatch.dispatch(Action::Cancel);
            } else {
                dispatch.dispatch(Action::RunAnyway);
            }
        })
    };
    let on_embed = {
        let ui = overlays.dispatcher();
        use_callback((), move |_: (), _| ui.dispatch(OverlayAction::ShowEmbed))
    };

    // Edits come once the editor is open and the brief simulator ready:
    // warm the comparison's render paths for them now (components::warm_up).
    let warm = use_state_eq(|| WarmUpStatus::Off);
    {
        let shown = state.shown.as_ref().map(|x| x.result.clone());
        let warm = warm.setter();
        use_effect_with(*brief_status == BriefStatus::Ready, move |ready| {
            if let (true, Some(result)) = (*ready, shown) {
                warm_up(result, Callback::from(move |w| warm.set(w)));
            }
        });
    }

    let s = &*state;
    let simulating = s.simulating();
    // The first result's timelines know their width before it arrives.
    let columns = s.scenario.variant_labels().len();
    let probe = use_width_probe(columns, simulating && s.shown.is_none());
    let run_status = s.run_status();
    let status = match (&s.shown, simulating) {
        (_, true) => "simulating…".to_string(),
        (Some(shown), false) => match shown.ran_in {
            RanIn::Worker => format!(
                "simulated in {:.0} ms in a Web Worker",
                Fixed(shown.elapsed_ms)
            ),
            RanIn::Workers => format!(
                "simulated in {:.0} ms in two Web Workers (half of the protocols each)",
                Fixed(shown.elapsed_ms)
            ),
            RanIn::MainThread => format!(
                "simulated in {:.0} ms on the main thread (no Web Worker)",
                Fixed(shown.elapsed_ms)
            ),
            RanIn::Inline => format!(
                "simulated in {:.0} ms on the main thread (small enough to skip the Web Worker)",
                Fixed(shown.elapsed_ms)
            ),
            RanIn::SiteBuild => "simulated when this site was built".to_string(),
        },
        (None, false) => String::new(),
    };
    let can_step = (playback.step(-1).is_some(), playback.step(1).is_some());
    let gallery_shown = s.view == View::Gallery && !embed;
    // An embed may show one column only (`?embed=1&column=N`): the others
    // are hidden by the stylesheet (no copy of the result).
    let column = embed
        .then_some(embed_options.column)
        .flatten()
        .filter(|c| *c < s.scenario.variant_labels().len());
    let has_scenario = s.has_scenario();
    // While the simulator reads a link's or a file's scenario there is none to show.
    let loading = s.loading();
    let sweep_shown = sweep.is_some() && s.view == View::Compare && !loading;

    html! {
        <main ref={main_ref} class={classes!("playground", embed.then_some("embed"),
                                               embed.then_some(embed_options.only.map(|o| o.class())).flatten(),
                                               column.map(|c| format!("only-column-{c}")))}
              style={embed.then_some(embed_options.max_height).flatten().map(|h| format!("max-height: {h}px; overflow-y: auto"))}
              data-view={if gallery_shown { "gallery" } else if sweep_shown { "sweep" } else { "compare" }}
              data-request={s.request.to_string()}
              data-shown={s.shown.as_ref().map(|x| x.id.to_string()).unwrap_or_default()}
              data-sim-ms={s.shown.as_ref().map(|x| format!("{:.1}", Fixed(x.elapsed_ms))).unwrap_or_default()}
              data-ran-in={s.shown.as_ref().map(|x| x.ran_in.as_str())}
              data-superseded={client.superseded().to_string()}

              data-worker={worker_status.as_str()}
              data-brief={brief_status.as_str()}
              data-warm={warm.as_str()}>
            <header class="page-header">
                <h1>
                    if embed {
                        <span class="brand">{"Rebalance Playground"}</span>
                    } else {
                        <a class="brand" href="./" onclick={show_gallery.clone().reform(|e: MouseEvent| { e.prevent_default(); e })}>{"Rebalance Playground"}</a>
                    }
                    if !gallery_shown && !loading {
                        <span class="scenario-title" id="scenario-title">{ &s.scenario.title }</span>
                    }
                </h1>
                if embed {
                    <a class="open-full" id="open-in-playground" href={location::permalink(&if sweep_shown { location::fragment() } else { s.fragment.clone() })} target="_blank" rel="noopener">
                        {"Open in playground ↗"}
                    </a>
                } else {
                    <nav class="toolbar" aria-label="Playground">
                        <button id="presets-button" class={classes!(gallery_shown.then_some("active"))} onclick={show_gallery}>{"Presets"}</button>
                        if has_scenario && !gallery_shown && !loading {
                            <button id="sweep-button" class={classes!(sweep_shown.then_some("active"))}
                                    aria-pressed={sweep_shown.to_string()} onclick={toggle_sweep}
                                    title="Run this scenario over a range of one setting and plot the results">
                                {"Sweep"}</button>
                            <ShareBar scenario={s.scenario.clone()} fragment={s.fragment.clone()}
                                      on_open_file={on_file.clone()} {on_embed}
                                      result={s.shown.as_ref().map(|x| x.result.clone())} />
                        }
                    </nav>
                }
            </header>
            if let Some(notice) = &s.notice {
                <div class="notice" id="notice" role="alert">
                    <p>{ engine_text(notice) }</p>
                    <button class="icon" onclick={dismiss} aria-label="Dismiss">{"×"}</button>
                </div>
            }
            if gallery_shown {
                <Gallery on_open={on_open_preset} current={s.preset.filter(|_| has_scenario)}
                         on_back={has_scenario.then_some(back_to_compare)} {on_blank} />
            } else {
                if !embed && !loading && !s.scenario.description.is_empty() {
                    { description(&s.scenario.description, s.text_stale()) }
                }
                if !embed && !loading && !s.scenario.references.is_empty() {
                    { references(&s.scenario.references) }
                }
                // The editor and what it edits: side by side on a wide screen
                // while the editor is open (web/style.css, "Workspace").
                <div class="workspace">
                    if !embed && !loading {
                        <Editor scenario={s.scenario.clone()} invalid={s.invalid.clone().map(AttrValue::from)} {on_edit} {on_unfold}
                                text_stale={s.text_stale()} />
                    }
                    <div class="results">
                        if let Some(failure) = &s.failure {
                            <p class="notice failure" role="alert">{ engine_text(failure) }</p>
                        }
                        if let Some(status) = &run_status {
                            { run_status_bar(status, s.shown.is_some(), &on_run_choice) }
                        }
                        if sweep_shown {
                            <div class="sweep-root" id="sweep-root" ref={sweep_ref.clone()} />
                        } else if let Some(shown) = &s.shown {
                            <CompareView result={shown.result.clone()} stale={s.unanswered()}
                                         t_ms={playback.t_ms} playing={playback.playing} speed={playback.speed}
                                         {can_step} selected={playback.selected} on_play={on_play}
                                         on_help={on_help} status={status}
                                         zoom={playback.zoom}
                                         followed={playback.followed.clone()} steps_taken={playback.steps_taken} />
                        } else if s.failure.is_none() && simulating {
                            <p class="loading" aria-busy="true">{"Simulating…"}</p>
                            { width_probe(columns, probe.clone()) }
                        }
                    </div>
                </div>
            }
            if overlays.help {
                <HelpOverlay on_close={close_overlays.clone()} />
            }
            if overlays.embed {
                <EmbedDialog fragment={s.fragment.clone()} title={s.scenario.title.clone()}
                             columns={s.scenario.variant_labels().into_iter().map(|l| AttrValue::from(l.to_string())).collect::<Vec<_>>()}
                             result={s.shown.as_ref().map(|x| x.result.clone())} on_close={close_overlays} />
            }
        </main>
    }
}
