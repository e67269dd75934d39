//! What one rebalance round did: per member, what it owned at JoinGroup and
//! what SyncGroup assigned and revoked, the delay, and the engine's one-line
//! explanation. Everything here is read from the trace as recorded.

use engine::connect::protocol::ConnectProtocol;
use engine::run::RunResult;
use engine::trace::{ItemList, Trace};
use engine::wording::duration as format_duration;
use yew::prelude::*;

use crate::components::engine_text::engine_text;
use crate::components::target_details::target_details;
use crate::shared::Shared;
use crate::state::numbers::thousands;
use crate::state::target_view::has_targets;

/// Props of [`RoundDetails`].
#[derive(Properties, PartialEq)]
pub struct RoundDetailsProps {
    /// The whole result.
    pub result: Shared<RunResult>,
    /// Which column.
    pub index: usize,
    /// Which round of that column's trace.
    pub round: usize,
    /// Close the panel.
    pub on_close: Callback<()>,
    /// The section's node (the panel focuses it after a step).
    #[prop_or_default]
    pub node: NodeRef,
    /// Folded to its title (as a bottom sheet on a narrow screen).
    #[prop_or_default]
    pub folded: bool,
    /// Fold or unfold.
    #[prop_or_default]
    pub on_fold: Callback<()>,
}

/// How many item labels a cell lists before "+N more".
const SHOWN_ITEMS: usize = 8;
/// How many members the table lists (a 1,000-worker round has 1,000).
pub(super) const SHOWN_MEMBERS: usize = 100;

/// A cell listing the items of `list`: their count and first labels.
pub(super) fn items_cell(trace: &Trace, list: ItemList, empty: &str) -> Html {
    names_cell(trace, trace.list(list), empty)
}

/// A cell listing `items` (indices into the trace's items).
pub(super) fn names_cell(trace: &Trace, items: &[u32], empty: &str) -> Html {
    if items.is_empty() {
        return html! { <td class="none">{ empty.to_string() }</td> };
    }
    let names: Vec<&str> = items
        .iter()
        .take(SHOWN_ITEMS)
        .filter_map(|&i| trace.items.get(i as usize).map(|it| it.label.as_str()))
        .collect();
    let more = items.len().saturating_sub(SHOWN_ITEMS);
    html! {
        <td data-count={items.len().to_string()}>
            <b>{ thousands(items.len() as u64) }</b>{": "}{ names.join(", ") }
            if more > 0 { <span class="more">{ format!(" +{} more", thousands(more as u64)) }</span> }
        </td>
    }
}

/// The details panel.
#[component]
pub fn RoundDetails(props: &RoundDetailsProps) -> Html {
    let Some(run) = props.result.variants.get(props.index) else {
        return html! {};
    };
    let trace = &run.trace;
    if has_targets(trace) {
        return target_details(props, run);
    }
    let Some(round) = trace.rounds.get(props.round) else {
        return html! {};
    };
    let worker = |w: u32| {
        trace
            .workers
            .get(w as usize)
            .cloned()
            .unwrap_or_else(|| format!("worker #{w}"))
    };
    let close = props.on_close.reform(|_: MouseEvent| ());
    let fold = props.on_fold.reform(|_: MouseEvent| ());
    let delay = if round.delay_ms > 0 {
        format!(
            "{} ({} ms): work held back before reassigning (scheduled.rebalance.max.delay.ms)",
            format_duration(round.delay_ms as u64),
            thousands(round.delay_ms.max(0) as u64)
        )
    } else {
        "0 ms".to_string()
    };
    html! {
        <section class={classes!("round-details", props.folded.then_some("folded"))} ref={props.node.clone()} tabindex="-1" id="round-details"
                 data-variant={props.index.to_string()} data-round={props.round.to_string()}
                 data-generation={round.generation.to_string()} aria-live="polite" aria-labelledby="round-details-title">
            <header>
                <h3 id="round-details-title">{ format!("{}: generation {}", run.label, thousands(round.generation.max(0) as u64)) }</h3>
                <span class="details-actions">
                    <button class="icon fold" id="round-details-fold" onclick={fold} aria-controls="round-details-body"
                            aria-expanded={(!props.folded).to_string()}
                            aria-label={if props.folded { "Show the round details" } else { "Fold the round details" }}
                            title={if props.folded { "Show the details" } else { "Fold the details (the lanes stay in view)" }}>
                        { if props.folded { "▴" } else { "▾" } }
                    </button>
                    <button class="icon" onclick={close} aria-label="Close round details" title="Close (Esc)">{"×"}</button>
                </span>
            </header>
            <div class="details-body" id="round-details-body">
            <p class="explanation">{ engine_text(&round.explanation) }</p>
            <dl class="round-facts">
                <div><dt>{"JoinGroup from"}</dt><dd>{ format_duration(round.started_ms) }</dd></div>
                <div><dt>{"joined"}</dt><dd>{ format!("+{}", format_duration(round.joined_ms.saturating_sub(round.started_ms))) }</dd></div>
                <div><dt>{"SyncGroup"}</dt><dd>{
                    if round.delivered {
                        format!("+{}", format_duration(round.completed_ms.saturating_sub(round.started_ms)))
                    } else {
                        "never answered: the group restarted the rebalance".to_string()
                    }
                }</dd></div>
                <div><dt>{"protocol"}</dt><dd>{ &round.protocol }</dd></div>
                <div><dt>{"leader"}</dt><dd>{ worker(round.leader) }</dd></div>
                <div><dt>{"delay"}</dt><dd class="delay">{ delay }</dd></div>
            </dl>
            <div class="table-scroll members-scroll">
                <table class="members">
                    <thead><tr>
                        <th scope="col">{"member"}</th>
                        <th scope="col">{"owned at JoinGroup"}</th>
                        <th scope="col">{"SyncGroup assigned"}</th>
                        <th scope="col">{"SyncGroup revoked"}</th>
                    </tr></thead>
                    <tbody>
                        { for round.members.iter().take(SHOWN_MEMBERS).map(|m| {
                            let member_id = trace.members.get(m.member as usize).map(|i| i.member_id.clone()).unwrap_or_default();
                            html! {
                                <tr>
                                    <th scope="row">{ worker(m.worker) }<span class="member-id" title={member_id.clone()}>{ member_id }</span></th>
                                    { items_cell(trace, m.owned, if round.protocol == ConnectProtocol::Eager.wire_name() { "— (eager: JoinGroup carries no ownership)" } else { "nothing" }) }
                                    { items_cell(trace, m.assigned, "nothing") }
                                    { items_cell(trace, m.revoked, "nothing") }
                                </tr>
                            }
                        }) }
                        if round.members.len() > SHOWN_MEMBERS {
                            <tr class="more-members"><td colspan="4">
                                { format!("… and {} more members", thousands((round.members.len() - SHOWN_MEMBERS) as u64)) }
                            </td></tr>
                        }
                    </tbody>
                </table>
            </div>
            </div>
        </section>
    }
}
