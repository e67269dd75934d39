//! One column's metrics as cards, each with the difference to the first
//! column, worded by the engine's `report::metric_rows` (the CLI table says
//! the same thing in the same words). Raw values sit in `data-raw` for tests
//! and tools.

use engine::report::MetricRow;
use yew::prelude::*;

use crate::shared::Shared;

/// Props of [`MetricCards`].
#[derive(Properties, PartialEq)]
pub struct MetricCardsProps {
    /// Every metric row of the result.
    pub rows: Shared<Vec<MetricRow>>,
    /// Which column.
    pub index: usize,
    /// The first column's label, for "vs eager: 120".
    pub first_label: AttrValue,
}

/// The cards of one column.
#[component]
pub fn MetricCards(props: &MetricCardsProps) -> Html {
    let i = props.index;
    html! {
        <dl class="metrics" data-variant={i.to_string()}>
            { for props.rows.iter().map(|row| {
                let value = row.values.get(i).cloned().unwrap_or_default();
                let raw = row.raw.get(i).copied().flatten().map(|v| v.to_string()).unwrap_or_default();
                let versus = row.versus_first.get(i).map(String::as_str).unwrap_or("");
                let first = row.values.first().map(String::as_str).unwrap_or("");
                let (diff, class) = match versus {
                    "" => (None, None),
                    "same" => (Some(format!("same as {}", props.first_label)), Some("same")),
                    _ => (Some(format!("vs {} {first}", props.first_label)), Some("differs")),
                };
                html! {
                    <div class={classes!("metric", class)} key={row.key.clone()} data-key={row.key.clone()} data-raw={raw} title={row.help.clone()}>
                        <dt>{ &row.label }</dt>
                        <dd>
                            <span class="value">{ value }</span>
                            // Always present (empty in the first column), so cards line up across columns.
                            <span class="versus" data-versus={versus.to_string()}>{ diff.unwrap_or_default() }</span>
                        </dd>
                    </div>
                }
            }) }
        </dl>
    }
}
