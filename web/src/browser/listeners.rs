//! Window-level listeners: the address bar (Back, pasted links), keyboard
//! shortcuts, and scenario files dropped anywhere on the page.

use std::cell::Cell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, Element, KeyboardEvent};
use yew::prelude::*;

use crate::browser::keyboard::{command, runs_on_release, Command};
use crate::browser::location;
use crate::browser::share;

/// Calls `on_navigate` with the fragment whenever history moves (Back,
/// Forward, an edited address bar).
#[hook]
pub fn use_navigation(on_navigate: Callback<String>) {
    use_effect_with((), move |_| {
        let window = gloo::utils::window();
        let fire = {
            let on_navigate = on_navigate.clone();
            move |_: &web_sys::Event| {
                location::drop_pending_fragment();
                on_navigate.emit(location::fragment())
            }
        };
        let hash = EventListener::new(&window, "hashchange", fire.clone());
        let pop = EventListener::new(&window, "popstate", fire);
        move || drop((hash, pop))
    });
}

/// True when a key press belongs to a form field (typing, or a native
/// button/link activation) rather than to the playground.
fn belongs_to_field(e: &KeyboardEvent) -> bool {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return false;
    };
    match el.tag_name().as_str() {
        "INPUT" | "TEXTAREA" | "SELECT" => true,
        "BUTTON" | "A" | "SUMMARY" => matches!(e.key().as_str(), " " | "Enter"),
        _ => el.has_attribute("contenteditable"),
    }
}

/// Keyboard shortcuts: each key press that maps to a [`Command`] is handled
/// (and its default, such as scrolling on Space, prevented), on the key
/// going down or, for play and pause, on its release
/// ([`runs_on_release`]). Between the two, the root element carries
/// `data-play-pending`, which gives the lanes the layer playback draws them
/// on: a hint to the stylesheet only, set here so a key press costs no
/// render.
#[hook]
pub fn use_shortcuts(on_command: Callback<Command>) {
    use_effect_with((), move |_| {
        let pending = Rc::new(Cell::new(false));
        // One handler for the three events (one copy of the listener glue).
        let on_event = move |e: &web_sys::Event| {
            let set_pending = |on: bool| {
                pending.set(on);
                if let Some(root) = gloo::utils::document().document_element() {
                    let _ = if on {
                        root.set_attribute("data-play-pending", "")
                    } else {
                        root.remove_attribute("data-play-pending")
                    };
                }
            };
            let Some(key) = e.dyn_ref::<KeyboardEvent>() else {
                // A release the page never sees: the window lost focus first.
                if pending.get() {
                    set_pending(false);
                }
                return;
            };
            let Some(cmd) = command(&key.key(), key.shift_key()) else {
                return;
            };
            if e.type_() == "keyup" {
                // Only a release whose press was seen runs its command: not
                // one whose press went to a form field.
                if runs_on_release(&cmd) && pending.get() {
                    set_pending(false);
                    on_command.emit(cmd);
                }
                return;
            }
            if key.ctrl_key() || key.meta_key() || key.alt_key() || belongs_to_field(key) {
                return;
            }
            e.prevent_default();
            if !runs_on_release(&cmd) {
                on_command.emit(cmd);
            } else if !key.repeat() {
                set_pending(true);
            }
        };
        let window = gloo::utils::window();
        let listeners = ["keydown", "keyup", "blur"].map(|event| {
            EventListener::new_with_options(
                &window,
                event,
                EventListenerOptions::enable_prevent_default(),
                on_event.clone(),
            )
        });
        move || drop(listeners)
    });
}

/// Scenario files dropped on the page, read (the simulator parses them).
#[hook]
pub fn use_file_drop(enabled: bool, on_file: Callback<share::FileRead>) {
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    use_effect_with(enabled, move |enabled| {
        let mut listeners = Vec::new();
        if *enabled {
            let window = gloo::utils::window();
            let carries_files = Rc::new(Cell::new(false));
            // Dropping needs `dragover` cancelled; only for files, so text
            // drags into inputs keep working.
            let over = {
                let carries_files = carries_files.clone();
                EventListener::new_with_options(
                    &window,
                    "dragover",
                    EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        let Some(e) = e.dyn_ref::<DragEvent>() else {
                            return;
                        };
                        let files = e
                            .data_transfer()
                            .map(|d| {
                                d.types()
                                    .iter()
                                    .any(|t| t.as_string().as_deref() == Some("Files"))
                            })
                            .unwrap_or(false);
                        carries_files.set(files);
                        if files {
                            e.prevent_default();
                        }
                    },
                )
            };
            let drop_listener = EventListener::new_with_options(
                &window,
                "drop",
                EventListenerOptions::enable_prevent_default(),
                move |e| {
                    let Some(e) = e.dyn_ref::<DragEvent>() else {
                        return;
                    };
                    let file = e
                        .data_transfer()
                        .and_then(|d| d.files())
                        .and_then(|f| f.get(0));
                    if let Some(file) = file {
                        e.prevent_default();
                        *reader.borrow_mut() = share::read_scenario_file(file, on_file.clone());
                    }
                },
            );
            listeners.push(over);
            listeners.push(drop_listener);
        }
        move || drop(listeners)
    });
}
