//! The details of one target assignment of a streams-protocol column
//! (KIP-1071 has no rounds): its epoch, when and why the broker computed
//! it, and per member (StreamThread) its target actives and standbys, what
//! it still had to revoke, what it waited for and when it reached the
//! target (`CurrentAssignmentBuilder`). Shown in the round details panel's
//! place; read from the trace (`state::target_view::progress`).

use engine::run::VariantRun;
use engine::wording::duration as format_duration;
use yew::prelude::*;

use crate::components::round_details::{items_cell, names_cell, RoundDetailsProps, SHOWN_MEMBERS};
use crate::state::numbers::thousands;
use crate::state::target_view::{progress, why};

/// The panel for target `props.round` of column `props.index`.
pub fn target_details(props: &RoundDetailsProps, run: &VariantRun) -> Html {
    let trace = &run.trace;
    let Some(a) = trace.target_assignments.get(props.round) else {
        return html! {};
    };
    let close = props.on_close.reform(|_: MouseEvent| ());
    let fold = props.on_fold.reform(|_: MouseEvent| ());
    let members = progress(trace, props.round);
    let computed = a.computed_ms;
    let reached = |t: Option<u64>| match t {
        Some(t) if t == computed => "at once".to_string(),
        Some(t) => format!("+{}", format_duration(t - computed)),
        None => "never (it left, or a newer target came first)".to_string(),
    };
    html! {
        <section class={classes!("round-details", "target-details", props.folded.then_some("folded"))} ref={props.node.clone()} tabindex="-1" id="round-details"
                 data-variant={props.index.to_string()} data-round={props.round.to_string()}
                 data-epoch={a.epoch.to_string()} aria-live="polite" aria-labelledby="round-details-title">
            <header>
                <h3 id="round-details-title">{ format!("{}: target epoch {}", run.label, a.epoch) }</h3>
                <span class="details-actions">
                    <button class="icon fold" id="round-details-fold" onclick={fold} aria-controls="round-details-body"
                            aria-expanded={(!props.folded).to_string()}
                            aria-label={if props.folded { "Show the target details" } else { "Fold the target details" }}
                            title={if props.folded { "Show the details" } else { "Fold the details (the lanes stay in view)" }}>
                        { if props.folded { "▴" } else { "▾" } }
                    </button>
                    <button class="icon" onclick={close} aria-label="Close target details" title="Close (Esc)">{"×"}</button>
                </span>
            </header>
            <div class="details-body" id="round-details-body">
            <p class="explanation">{ format!("{}. Each member moves toward its target at its own heartbeats (CurrentAssignmentBuilder): no group-wide barrier.", why(trace, a)) }</p>
            <dl class="round-facts">
                <div><dt>{"computed"}</dt><dd>{ format_duration(computed) }</dd></div>
                <div><dt>{"target epoch"}</dt><dd>{ a.epoch }</dd></div>
                <div><dt>{"moved actives"}</dt><dd>{ thousands(u64::from(a.moved)) }</dd></div>
            </dl>
            <div class="table-scroll members-scroll">
                <table class="members target-members">
                    <thead><tr>
                        <th scope="col">{"member"}</th>
                        <th scope="col">{"target active"}</th>
                        <th scope="col">{"target standby"}</th>
                        <th scope="col">{"revoked first (UNREVOKED_TASKS)"}</th>
                        <th scope="col">{"waited for (UNRELEASED_TASKS)"}</th>
                        <th scope="col">{"reached target (STABLE)"}</th>
                    </tr></thead>
                    <tbody>
                        { for members.iter().take(SHOWN_MEMBERS).map(|m| {
                            let member_id = trace.members.get(m.member as usize).map(|i| i.member_id.clone()).unwrap_or_default();
                            html! {
                                <tr data-member={m.member.to_string()}>
                                    <th scope="row">{ &m.name }<span class="member-id" title={member_id.clone()}>{ member_id }</span></th>
                                    { items_cell(trace, m.active, "nothing") }
                                    { items_cell(trace, m.standby, "nothing") }
                                    { names_cell(trace, &m.revoked, "nothing") }
                                    { names_cell(trace, &m.awaited, "nothing") }
                                    <td class="reached">{ reached(m.reached_ms) }</td>
                                </tr>
                            }
                        }) }
                        if members.len() > SHOWN_MEMBERS {
                            <tr class="more-members"><td colspan="6">
                                { format!("… and {} more members", thousands((members.len() - SHOWN_MEMBERS) as u64)) }
                            </td></tr>
                        }
                    </tbody>
                </table>
            </div>
            </div>
        </section>
    }
}
