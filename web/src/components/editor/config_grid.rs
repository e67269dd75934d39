//! The configuration grid both families share: one row per Kafka property,
//! Kafka's default, a base column (the Connect cluster or the Streams
//! application) and one column per compared variant. An empty cell
//! inherits; its placeholder shows what from. Switch rows (e.g. "warmups
//! off") write a Kafka value the user should not have to type.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::fields::TextField;
use crate::state::config_keys::{Key, Kind};
use crate::state::numbers::with_separators;

/// One compared column: its label and, per key (in the grid's key order),
/// the value it sets.
#[derive(Clone, Debug, PartialEq)]
pub struct GridColumn {
    /// The column's label (the variant's name).
    pub label: String,
    /// Per key, the text it sets (`None`: inherits).
    pub values: Vec<Option<String>>,
}

/// A row of switches: on writes `key = on_value` in that column, off unsets it.
#[derive(Debug)]
pub struct Switch {
    /// What the switch says, e.g. `warmups off`.
    pub label: &'static str,
    /// Why, for a tooltip.
    pub help: &'static str,
    /// The key it writes.
    pub key: &'static str,
    /// The value it writes when on.
    pub on_value: &'static str,
    /// How the key's cell shows that value instead of the raw number.
    pub shown_as: &'static str,
}

/// Where a cell is: the base column (`None`) or a compared column.
pub type Column = Option<usize>;

/// What [`config_grid`] draws. (A plain function, not a component: a
/// component type costs the page's module several KB of Yew's generic
/// machinery, and the grid is redrawn only with its editor anyway.)
pub struct Grid {
    /// The fieldset's legend.
    pub legend: AttrValue,
    /// The base column's title (`cluster`, `application`).
    pub base_title: AttrValue,
    /// Prefix of cell ids (`cfg-cluster-…`, `cfg-app-…`; columns are `cfg-<i>-…`).
    pub base_id: AttrValue,
    /// The rows.
    pub keys: Rc<Vec<Key>>,
    /// The base column's values, per key.
    pub base: Rc<Vec<Option<String>>>,
    /// The compared columns.
    pub columns: Rc<Vec<GridColumn>>,
    /// Switch rows, below the keys.
    pub switches: &'static [Switch],
    /// True when another column may be added.
    pub can_add: bool,
    /// A cell was committed: (column, key index, text).
    pub on_cell: Callback<(Column, usize, String)>,
    /// A column was renamed.
    pub on_label: Callback<(usize, String)>,
    /// Add a column.
    pub on_add: Callback<()>,
    /// Remove a column.
    pub on_remove: Callback<usize>,
}

/// The page's name for a column, as in error messages: `column 2 (cooperative)`.
pub fn column_name(i: usize, label: &str) -> String {
    if label.is_empty() {
        format!("column {}", i + 1)
    } else {
        format!("column {} ({label})", i + 1)
    }
}

/// One cell: a select for a choice, a text/number input otherwise.
fn cell(
    key: &Key,
    value: Option<String>,
    inherited: String,
    id: String,
    label: String,
    shown_as: Option<(&str, &str)>,
    on_change: Callback<String>,
) -> Html {
    match key.kind {
        Kind::Choice(options) => {
            let onchange = on_change.reform(|e: Event| {
                let s: HtmlSelectElement = e.target_unchecked_into();
                s.value()
            });
            html! {
                <select {id} {onchange} aria-label={label}>
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
            // A switch's value (Long.MAX_VALUE) is shown by name, not as 19 digits.
            let (value, placeholder) = match shown_as {
                Some((raw, name)) if value.as_deref() == Some(raw) => {
                    (String::new(), name.to_string())
                }
                Some((raw, name)) if inherited == raw => {
                    (value.unwrap_or_default(), name.to_string())
                }
                _ => (value.unwrap_or_default(), inherited),
            };
            html! {
                <input {id} type={if key.kind == Kind::Number { "number" } else { "text" }} min="0"
                       {value} {placeholder} {onchange} aria-label={label} />
            }
        }
    }
}

/// The grid.
pub fn config_grid(props: &Grid) -> Html {
    let columns = &props.columns;
    let base_id = props.base_id.clone();
    let shown_as = |name: &str| {
        props
            .switches
            .iter()
            .find(|s| s.key == name)
            .map(|s| (s.on_value, s.shown_as))
    };
    html! {
        <fieldset class="protocols">
            <legend>{ &props.legend }</legend>
            <div class="table-scroll">
                // `--values`: the cells after the default, for the grid the
                // editor's side pane lays each row out on (web/style.css).
                <table class="config-matrix" style={format!("--values: {}", 1 + columns.len())}>
                    <thead>
                        <tr>
                            <th scope="col">{"property"}</th>
                            <th scope="col">{"Kafka default"}</th>
                            <th scope="col">{ &props.base_title }</th>
                            { for columns.iter().enumerate().map(|(i, c)| {
                                let on_label = props.on_label.reform(move |t: String| (i, t.trim().to_string()));
                                let remove = props.on_remove.reform(move |_: MouseEvent| i);
                                html! {
                                    <th scope="col" class="variant-head">
                                        <TextField label={format!("name of column {}", i + 1)} value={c.label.clone()} on_change={on_label} class="bare" />
                                        if columns.len() > 1 {
                                            <button type="button" class="icon remove" onclick={remove}
                                                    aria-label={format!("Remove {}", column_name(i, &c.label))} title="Remove this column">{"×"}</button>
                                        }
                                    </th>
                                }
                            }) }
                            if props.can_add {
                                <th><button type="button" class="add add-column" onclick={props.on_add.reform(|_: MouseEvent| ())}
                                            title="Compare another setting">{"+ column"}</button></th>
                            }
                        </tr>
                    </thead>
                    <tbody>
                        { for props.keys.iter().enumerate().map(|(k, key)| {
                            let base_value = props.base.get(k).cloned().flatten();
                            let inherited_by_columns = base_value.clone().unwrap_or_else(|| key.default.clone());
                            let slug = key.name.replace('.', "-");
                            let shown = shown_as(key.name);
                            let default_shown = match shown {
                                Some((raw, name)) if key.default == raw => name.to_string(),
                                _ if key.default.is_empty() => "none".to_string(),
                                // Shown, not typed: thousands separators (the inputs take plain digits).
                                _ => with_separators(&key.default),
                            };
                            html! {
                                <tr key={key.name}>
                                    <th scope="row"><code>{ key.name }</code></th>
                                    <td class="default">{ default_shown }</td>
                                    <td>{ cell(key, base_value, key.default.clone(), format!("{base_id}-{slug}"),
                                               format!("{}, {}", key.name, props.base_title), shown,
                                               props.on_cell.reform(move |t| (None, k, t))) }</td>
                                    { for columns.iter().enumerate().map(|(i, c)| html! {
                                        <td>{ cell(key, c.values.get(k).cloned().flatten(), inherited_by_columns.clone(),
                                                   format!("cfg-{i}-{slug}"), format!("{}, {}", key.name, column_name(i, &c.label)), shown,
                                                   props.on_cell.reform(move |t| (Some(i), k, t))) }</td>
                                    }) }
                                    if props.can_add { <td></td> }
                                </tr>
                            }
                        }) }
                        { for props.switches.iter().map(|sw| {
                            let Some(k) = props.keys.iter().position(|key| key.name == sw.key) else {
                                return html! {};
                            };
                            let base_value = props.base.get(k).cloned().flatten();
                            let on_in = |v: &Option<String>| v.as_deref() == Some(sw.on_value);
                            let base_on = on_in(&base_value);
                            let slug = sw.label.replace(' ', "-");
                            // Off → on writes the value; on → off unsets it, or, when
                            // the column would then inherit "on", writes Kafka's default.
                            let toggle = |column: Column, effective_on: bool, own_on: bool| {
                                let value = match (effective_on, column) {
                                    (false, _) => sw.on_value.to_string(),
                                    (true, None) => String::new(),
                                    (true, Some(_)) if own_on && !base_on => String::new(),
                                    (true, Some(_)) => props.keys[k].default.clone(),
                                };
                                props.on_cell.reform(move |_: Event| (column, k, value.clone()))
                            };
                            html! {
                                <tr class="switch-row" title={sw.help}>
                                    <th scope="row">{ sw.label }</th>
                                    <td class="default">{"no"}</td>
                                    <td><input type="checkbox" id={format!("{base_id}-{slug}")} checked={base_on}
                                               aria-label={format!("{}, {}", sw.label, props.base_title)}
                                               onchange={toggle(None, base_on, base_on)} /></td>
                                    { for columns.iter().enumerate().map(|(i, c)| {
                                        let own = c.values.get(k).cloned().flatten();
                                        let effective_on = own.as_ref().map_or(base_on, |v| v == sw.on_value);
                                        html! {
                                            <td><input type="checkbox" id={format!("cfg-{i}-{slug}")} checked={effective_on}
                                                       aria-label={format!("{}, {}", sw.label, column_name(i, &c.label))}
                                                       onchange={toggle(Some(i), effective_on, on_in(&own))} /></td>
                                        }
                                    }) }
                                    if props.can_add { <td></td> }
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
        </fieldset>
    }
}
