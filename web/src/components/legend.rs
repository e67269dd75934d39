//! What the colours and marks mean. States come from the engine's `LEGEND`,
//! so a new state (restoring, warmup, standby) is one entry there plus CSS.

use engine::layout::{state_name, LEGEND};
use engine::run::RunResult;
use engine::trace::ItemState;
use yew::prelude::*;

use crate::shared::Shared;
use crate::state::target_view::has_targets;

/// Props of [`Legend`].
#[derive(Properties, PartialEq)]
pub struct LegendProps {
    /// The result, to list only the states it shows.
    pub result: Shared<RunResult>,
}

/// States that always appear in the legend, drawn or not: they are the
/// vocabulary of every rebalance.
const ALWAYS: [ItemState; 4] = [
    ItemState::Running,
    ItemState::Starting,
    ItemState::Stopping,
    ItemState::Unassigned,
];

/// The reconciliation bands of a streams-protocol column (`MemberState`).
const RECONCILIATION: [(&str, &str); 4] = [
    ("recon-revoking", "member revoking (UNREVOKED_TASKS)"),
    (
        "recon-pending",
        "member waiting for a release (UNRELEASED_TASKS)",
    ),
    ("recon-assigned", "member at its target (STABLE)"),
    (
        "recon-behind",
        "member behind a new target (STABLE, older epoch)",
    ),
];

/// The legend.
#[component]
pub fn Legend(props: &LegendProps) -> Html {
    let kinds = use_memo(props.result.clone(), |r| {
        let targets = r.variants.iter().any(|v| has_targets(&v.trace));
        let classic = r.variants.iter().any(|v| !has_targets(&v.trace));
        (targets, classic)
    });
    let (streams_protocol, classic) = (&kinds.0, &kinds.1);
    let present = use_memo(props.result.clone(), |r| {
        let mut present: Vec<ItemState> = ALWAYS.to_vec();
        for v in &r.variants {
            for span in &v.trace.spans {
                if !present.contains(&span.state) {
                    present.push(span.state);
                }
            }
        }
        present
    });
    html! {
        <ul class="legend" aria-label="Legend">
            { for LEGEND.iter().filter(|(s, _)| present.contains(s)).map(|(state, label)| html! {
                <li><span class={classes!("swatch", state_name(*state))}></span>{ *label }</li>
            }) }
            <li><span class="swatch down"></span>{"no worker process"}</li>
            if !*streams_protocol || *classic {
                <li><span class="swatch round"></span>{"rebalance round (hover or tap)"}</li>
            }
            if *streams_protocol {
                <li><span class="swatch target"></span>{"target assignment epoch (hover or tap)"}</li>
                <li title="a band per StreamThread along its lane (CurrentAssignmentBuilder); hover one for Kafka's MemberState">{"member: "}
                    { for RECONCILIATION.iter().map(|(class, label)| html! {
                        <><span class={classes!("swatch", "band", *class)}></span>{ *label }</>
                    }) }
                </li>
            }
            <li><span class="swatch event"></span>{"scenario event"}</li>
        </ul>
    }
}
