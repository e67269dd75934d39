//! Protocol configuration under Kafka's property names: one row per key,
//! with Kafka's default, the cluster-wide value and each compared variant's
//! override. An empty cell inherits (its placeholder shows what from).

use std::rc::Rc;

use engine::scenario::{limits, ConnectConfig, ConnectVariant, Family, Scenario};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::fields::TextField;
use crate::state::config_keys::{self, Key, Kind};
use crate::state::edit::Edit;

/// Props of [`ConfigMatrix`].
#[derive(Properties, PartialEq)]
pub struct ConfigMatrixProps {
    /// The scenario.
    pub scenario: Rc<Scenario>,
    /// An edit.
    pub on_edit: Callback<Edit>,
    /// Text that is not a value for its key.
    pub on_error: Callback<String>,
}

/// One cell: a select for a choice, a text/number input otherwise.
fn cell(
    key: &Key,
    value: Option<String>,
    inherited: String,
    id: String,
    on_change: Callback<String>,
) -> Html {
    match key.kind {
        Kind::Choice(options) => {
            let onchange = on_change.reform(|e: Event| {
                let s: HtmlSelectElement = e.target_unchecked_into();
                s.value()
            });
            html! {
                <select {id} {onchange} aria-label={key.name}>
                    <option value="" selected={value.is_none()}>{ format!("({inherited})") }</option>
                    { for options.iter().map(|o| html! {
                        <option value={*o} selected={value.as_deref() == Some(*o)}>{ *o }</option>
                    }) }
                </select>
            }
        }
        Kind::Number | Kind::Text => {
            let onchange = on_change.reform(|e: Event| {
                let i: HtmlInputElement = e.target_unchecked_into();
                i.value()
            });
            html! {
                <input {id} type={if key.kind == Kind::Number { "number" } else { "text" }} min="0"
                       value={value.unwrap_or_default()} placeholder={inherited} {onchange} aria-label={key.name} />
            }
        }
    }
}

/// The matrix.
#[component]
pub fn ConfigMatrix(props: &ConfigMatrixProps) -> Html {
    let keys = use_memo((), |_| config_keys::keys());
    let Family::Connect(connect) = &props.scenario.family else {
        return html! {};
    };
    let cluster = connect.cluster.config.clone();
    let variants = connect.compare.clone();

    let set_cluster = |key: Key| {
        let (on_edit, on_error, cluster) = (
            props.on_edit.clone(),
            props.on_error.clone(),
            cluster.clone(),
        );
        Callback::from(
            move |text: String| match config_keys::set(&cluster, &key, &text) {
                Ok(c) => on_edit.emit(Edit::ClusterConfig(c)),
                Err(e) => on_error.emit(e),
            },
        )
    };
    let set_variant = |i: usize, key: Key| {
        let (on_edit, on_error, variants) = (
            props.on_edit.clone(),
            props.on_error.clone(),
            variants.clone(),
        );
        Callback::from(move |text: String| {
            let mut next = variants.clone();
            let Some(v) = next.get_mut(i) else { return };
            match config_keys::set(&v.config, &key, &text) {
                Ok(c) => {
                    v.config = c;
                    on_edit.emit(Edit::Variants(next));
                }
                Err(e) => on_error.emit(e),
            }
        })
    };
    let set_label = |i: usize| {
        let (on_edit, variants) = (props.on_edit.clone(), variants.clone());
        Callback::from(move |text: String| {
            let mut next = variants.clone();
            if let Some(v) = next.get_mut(i) {
                v.label = text.trim().to_string();
                on_edit.emit(Edit::Variants(next));
            }
        })
    };
    let remove = |i: usize| {
        let (on_edit, variants) = (props.on_edit.clone(), variants.clone());
        Callback::from(move |_: MouseEvent| {
            let mut next = variants.clone();
            next.remove(i);
            on_edit.emit(Edit::Variants(next));
        })
    };
    let add = {
        let (on_edit, variants) = (props.on_edit.clone(), variants.clone());
        Callback::from(move |_: MouseEvent| {
            let mut next = variants.clone();
            let mut variant = ConnectVariant::protocol(
                &format!("variant {}", next.len() + 1),
                engine::connect::protocol::ConnectProtocol::Sessioned,
            );
            // Inherit every key, the protocol included, until the user sets one.
            variant.config = ConnectConfig::default();
            next.push(variant);
            on_edit.emit(Edit::Variants(next));
        })
    };

    html! {
        <fieldset class="protocols">
            <legend>{"Protocols (Kafka worker configs; empty cells inherit)"}</legend>
            <div class="table-scroll">
                <table class="config-matrix">
                    <thead>
                        <tr>
                            <th scope="col">{"property"}</th>
                            <th scope="col">{"Kafka default"}</th>
                            <th scope="col">{"cluster"}</th>
                            { for connect.compare.iter().enumerate().map(|(i, v)| html! {
                                <th scope="col" class="variant-head">
                                    <TextField label={format!("column {}", i + 1)} value={v.label.clone()} on_change={set_label(i)} class="bare" />
                                    if connect.compare.len() > 1 {
                                        <button type="button" class="icon remove" onclick={remove(i)}
                                                aria-label={format!("Stop comparing {}", v.label)} title="Remove this column">{"×"}</button>
                                    }
                                </th>
                            }) }
                            if connect.compare.len() < limits::MAX_VARIANTS {
                                <th><button type="button" class="add" onclick={add} title="Compare another protocol setting">{"+ column"}</button></th>
                            }
                        </tr>
                    </thead>
                    <tbody>
                        { for keys.iter().map(|key| {
                            let cluster_value = config_keys::get(&cluster, key.name);
                            let inherited_by_variants = cluster_value.clone().unwrap_or_else(|| key.default.clone());
                            let slug = key.name.replace('.', "-");
                            html! {
                                <tr key={key.name}>
                                    <th scope="row"><code>{ key.name }</code></th>
                                    <td class="default">{ &key.default }</td>
                                    <td>{ cell(key, cluster_value, key.default.clone(), format!("cfg-cluster-{slug}"), set_cluster(key.clone())) }</td>
                                    { for connect.compare.iter().enumerate().map(|(i, v)| html! {
                                        <td>{ cell(key, config_keys::get(&v.config, key.name), inherited_by_variants.clone(),
                                                   format!("cfg-{i}-{slug}"), set_variant(i, key.clone())) }</td>
                                    }) }
                                    if connect.compare.len() < limits::MAX_VARIANTS { <td></td> }
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
        </fieldset>
    }
}
