//! One column's metrics as cards, each with the difference to the first
//! column, worded by the engine's `report::metric_rows` (the CLI table says
//! the same thing in the same words), big numbers with thousands
//! separators. Raw values sit in `data-raw` for tests and tools.

use engine::report::MetricRow;
use yew::prelude::*;

use crate::shared::Shared;
use crate::state::numbers::with_separators;

/// The headline figures shown above every timeline, in this order, with
/// the short label that fits a fifth of a column (the full label is the
/// card's tooltip and is in the full list).
pub const HEADLINE: [(&str, &str); 5] = [
    ("task_seconds_not_running", "downtime"),
    ("tasks_stopped", "tasks stopped"),
    ("longest_task_outage", "longest outage"),
    ("rebalance_rounds", "rounds"),
    ("duplicate_task_seconds", "running twice"),
];

/// A worded value with its units held to their numbers (`15 min 36.240 s`
/// breaks only between `15 min` and `36.240 s`) and thousands separators.
fn readable(text: &str) -> String {
    let text = with_separators(text);
    let mut out = String::with_capacity(text.len());
    let mut words = text.split(' ').peekable();
    while let Some(word) = words.next() {
        out.push_str(word);
        if let Some(next) = words.peek() {
            let unit = matches!(*next, "ms" | "s" | "min" | "h");
            out.push(if unit { '\u{a0}' } else { ' ' });
        }
    }
    out
}

/// The headline card for `key` in column `i`. A column without rounds (the
/// streams protocol, whose rounds row reads "—") shows its target
/// assignments in the rounds card's place.
fn headline_row<'a>(
    rows: &'a [MetricRow],
    i: usize,
    key: &str,
    short: &'static str,
) -> Option<(&'a MetricRow, &'static str)> {
    let find = |k: &str| rows.iter().find(|r| r.key == k);
    let row = find(key)?;
    if key == "rebalance_rounds" && row.raw.get(i).copied().flatten().is_none() {
        if let Some(targets) = find("target_assignments") {
            return Some((targets, "targets"));
        }
    }
    Some((row, short))
}

/// Props of [`MetricCards`].
#[derive(Properties, PartialEq)]
pub struct MetricCardsProps {
    /// Every metric row of the result.
    pub rows: Shared<Vec<MetricRow>>,
    /// Which column.
    pub index: usize,
    /// The first column's label, for "vs eager: 120".
    pub first_label: AttrValue,
    /// Only these rows, in this order, with short labels (the headline);
    /// `None`: every row.
    pub keys: Option<&'static [(&'static str, &'static str)]>,
}

/// The cards of one column.
#[component]
pub fn MetricCards(props: &MetricCardsProps) -> Html {
    let i = props.index;
    let rows: Vec<(&MetricRow, &str)> = match props.keys {
        Some(keys) => keys
            .iter()
            .filter_map(|&(k, short)| headline_row(&props.rows, i, k, short))
            .collect(),
        None => props.rows.iter().map(|r| (r, r.label.as_str())).collect(),
    };
    let headline = props.keys.is_some();
    html! {
        <dl class={classes!("metrics", headline.then_some("headline"))} data-variant={i.to_string()}>
            { for rows.into_iter().map(|(row, label)| {
                let value = readable(&row.values.get(i).cloned().unwrap_or_default());
                let raw = row.raw.get(i).copied().flatten().map(|v| v.to_string()).unwrap_or_default();
                let versus = row.versus_first.get(i).map(String::as_str).unwrap_or("");
                let first = readable(row.values.first().map(String::as_str).unwrap_or(""));
                let (diff, class) = match versus {
                    "" => (None, None),
                    "same" => (Some(format!("same as {}", props.first_label)), Some("same")),
                    _ => (Some(format!("vs {} {first}", props.first_label)), Some("differs")),
                };
                html! {
                    <div class={classes!("metric", class)} key={row.key.clone()} data-key={row.key.clone()} data-raw={raw} title={format!("{}: {}", row.label, row.help)}>
                        <dt>{ label }</dt>
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
