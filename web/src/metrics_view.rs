//! The metrics of one run, as a compact list.

use std::rc::Rc;

use engine::run::RunResult;
use yew::prelude::*;

/// Props of [`MetricsView`].
#[derive(Properties)]
pub struct MetricsProps {
    /// The whole result (shared, compared by pointer).
    pub result: Rc<RunResult>,
    /// Which variant.
    pub index: usize,
}

impl PartialEq for MetricsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.result, &other.result) && self.index == other.index
    }
}

/// The run's metrics, named as the engine names them.
#[component]
pub fn MetricsView(props: &MetricsProps) -> Html {
    let metrics = &props.result.variants[props.index].metrics;
    let rows: Vec<(String, String)> = match serde_json::to_value(metrics) {
        Ok(serde_json::Value::Object(map)) => map
            .into_iter()
            .filter(|(_, v)| v.is_number() || v.is_string())
            .map(|(k, v)| {
                (
                    k.replace('_', " "),
                    v.to_string().trim_matches('"').to_string(),
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    html! {
        <dl class="metrics" data-variant={props.index.to_string()}>
            { for rows.into_iter().map(|(k, v)| html! {
                <div class="metric"><dt>{ k }</dt><dd>{ v }</dd></div>
            }) }
        </dl>
    }
}
