//! The preset gallery: the landing view. Each card is a real `#p=<id>`
//! link (it can be opened in a new tab or copied); a plain click opens the
//! preset in place. Two buttons open a blank scenario of each family.

use crate::presets::{self, Preset};
use engine::scenario::{Family, FamilyKind, Scenario};
use yew::prelude::*;

use crate::state::numbers::count;

/// Props of [`Gallery`].
#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    /// Open a preset.
    pub on_open: Callback<&'static str>,
    /// The preset currently open, highlighted.
    pub current: Option<&'static str>,
    /// Back to the open scenario, when there is one.
    pub on_back: Option<Callback<()>>,
    /// Open a blank scenario of a family.
    pub on_blank: Callback<FamilyKind>,
}

/// The first sentence of a description: its one-line summary.
pub fn first_sentence(text: &str) -> &str {
    let text = text.trim();
    let mut from = 0;
    while let Some(i) = text[from..].find(". ") {
        let end = from + i + 1;
        // "e.g. " and "i.e. " do not end a sentence.
        let word = text[..end].rsplit(' ').next().unwrap_or("");
        if !matches!(word, "e.g." | "i.e." | "vs." | "etc.") {
            return &text[..end];
        }
        from = end;
    }
    text
}

/// A one-line shape of a scenario:
/// `3 workers · 2 connectors · 8 tasks · 1 event · eager vs cooperative`.
pub fn shape(s: &Scenario) -> String {
    let labels = s.variant_labels();
    let cluster = match &s.family {
        Family::Streams(st) => {
            let tasks = st.app.task_count();
            let stateful = st.app.subtopologies.iter().any(|t| t.stateful);
            format!(
                "{} · {}{} · {}",
                count(u64::from(st.app.instances), "instance"),
                count(tasks, "task"),
                if stateful { " (stateful)" } else { "" },
                count(st.events.len() as u64, "event"),
            )
        }
        Family::Connect(c) => {
            // Counted from the specs: expanding them would format up to
            // 20,000 connector names just to count them.
            let copies = |c: &engine::scenario::ConnectorSpec| u64::from(c.count.unwrap_or(1));
            let connectors: u64 = c.cluster.connectors.iter().map(copies).sum();
            let tasks: u64 = c
                .cluster
                .connectors
                .iter()
                .map(|c| copies(c) * u64::from(c.tasks))
                .sum();
            format!(
                "{} · {} · {} · {}",
                count(u64::from(c.cluster.workers), "worker"),
                count(connectors, "connector"),
                count(tasks, "task"),
                count(c.events.len() as u64, "event"),
            )
        }
    };
    format!("{cluster} · {}", labels.join(" vs "))
}

fn card(p: &'static Preset, current: bool, on_open: &Callback<&'static str>) -> Html {
    let s = p.scenario();
    let onclick = {
        let on_open = on_open.clone();
        Callback::from(move |e: MouseEvent| {
            // Let modified clicks (new tab, new window) do what links do.
            if e.ctrl_key() || e.meta_key() || e.shift_key() || e.button() != 0 {
                return;
            }
            e.prevent_default();
            on_open.emit(p.id);
        })
    };
    html! {
        <li class={classes!("preset", current.then_some("current"))} data-preset={p.id}>
            <a href={format!("#p={}", p.id)} {onclick}>
                <span class={classes!("family", p.family().as_str())}>{ p.family().as_str() }</span>
                <h3>{ &s.title }</h3>
                <p class="summary">{ first_sentence(&s.description) }</p>
                <p class="shape">{ shape(&s) }</p>
            </a>
        </li>
    }
}

/// The gallery.
#[component]
pub fn Gallery(props: &GalleryProps) -> Html {
    html! {
        <section class="gallery" aria-labelledby="gallery-title">
            <div class="gallery-head">
                <h2 id="gallery-title">{"Presets"}</h2>
                <p class="intro">{"Pick a scenario to see what Kafka's group rebalancing does to a running cluster, eager and incremental cooperative side by side. Every preset is a starting point: edit it, and the link in the address bar follows."}</p>
                if let Some(back) = &props.on_back {
                    <button class="back" onclick={back.reform(|_: MouseEvent| ())}>{"← Back to the scenario"}</button>
                }
                <div class="blank-buttons">
                    <button id="new-connect" onclick={props.on_blank.reform(|_: MouseEvent| FamilyKind::Connect)}>{"New Connect scenario"}</button>
                    <button id="new-streams" onclick={props.on_blank.reform(|_: MouseEvent| FamilyKind::Streams)}>{"New Streams scenario"}</button>
                </div>
            </div>
            <ul class="presets">
                { for presets::all().iter().map(|p| card(p, props.current == Some(p.id), &props.on_open)) }
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::numbers::thousands;

    #[test]
    fn first_sentences() {
        assert_eq!(first_sentence("One. Two."), "One.");
        assert_eq!(first_sentence("Use e.g. this. Then."), "Use e.g. this.");
        assert_eq!(first_sentence("No full stop"), "No full stop");
        for p in presets::all() {
            let s = p.scenario();
            assert!(!first_sentence(&s.description).is_empty(), "{}", p.id);
        }
    }

    #[test]
    fn shape_counts_what_the_scenario_expands_to() {
        let mut s = presets::default_preset().scenario();
        let Family::Connect(c) = &mut s.family else {
            panic!("the default preset is a Connect scenario")
        };
        c.cluster.connectors = vec![
            engine::scenario::ConnectorSpec {
                name: "a".into(),
                tasks: 4,
                count: Some(3),
            },
            engine::scenario::ConnectorSpec {
                name: "b".into(),
                tasks: 2,
                count: None,
            },
            engine::scenario::ConnectorSpec {
                name: "c".into(),
                tasks: 9,
                count: Some(0),
            },
        ];
        let expanded = c.initial_connectors();
        let tasks: u32 = expanded.iter().map(|(_, t)| t).sum();
        assert_eq!((expanded.len(), tasks), (4, 14));
        assert!(
            shape(&s).contains("4 connectors · 14 tasks"),
            "{}",
            shape(&s)
        );
        for p in presets::all() {
            let s = p.scenario();
            if let Family::Connect(c) = &s.family {
                let expanded = c.initial_connectors();
                let tasks: u32 = expanded.iter().map(|(_, t)| t).sum();
                assert!(
                    shape(&s).contains(&format!(" {} task", thousands(u64::from(tasks)))),
                    "{}: {}",
                    p.id,
                    shape(&s)
                );
                assert!(
                    shape(&s).contains(&format!(
                        " · {} connector",
                        thousands(expanded.len() as u64)
                    )),
                    "{}",
                    p.id
                );
            }
        }
    }
}
