//! Form fields the editor is built from. Each commits on `change` (Enter,
//! blur, a spinner click), so one edit means one simulation, not one per
//! keystroke.

use engine::fixed::Fixed;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::state::edit::Edit;

/// Milliseconds as seconds for a field: `30`, `2.5`, `0.02`.
pub fn ms_to_s(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    let text = format!("{s:.3}", s = Fixed(s),);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Seconds typed into a field (`30`, `2.5`, `2,5`, `.02`), as milliseconds
/// rounded to the nearest one (`None` when not a time of 0 to 10⁹ s). Read
/// as a decimal, not through `f64`: exact, and the page holds no float
/// parser (core's `dec2flt` and its tables were 15 KB gzip of the page).
pub fn s_to_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once(['.', ',']).unwrap_or((text, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) || (whole.is_empty() && fraction.is_empty()) {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    if whole > 1_000_000_000 {
        return None;
    }
    // Tenths of a millisecond from the first four decimals, then rounded.
    let tenths = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(4)
        .fold(0, |n, b| n * 10 + u64::from(b - b'0'));
    Some(whole * 1000 + (tenths + 5) / 10)
}

/// Committed text as a whole number (`u32`, `u64`), or the message naming
/// the field.
pub(super) fn whole_number<T: std::str::FromStr>(field: &str, text: &str) -> Result<T, String> {
    text.trim()
        .parse::<T>()
        .map_err(|_| format!("{field} must be a whole number of at least 0"))
}

/// A field's `on_change` for a whole number that makes one [`Edit`]:
/// `edit(n)` goes to `on_edit`, text that is not one to `on_error`.
pub(super) fn whole_number_edit(
    field: &'static str,
    on_edit: Callback<Edit>,
    on_error: Callback<String>,
    edit: impl Fn(u32) -> Edit + 'static,
) -> Callback<String> {
    Callback::from(
        move |text: String| match whole_number::<u32>(field, &text) {
            Ok(n) => on_edit.emit(edit(n)),
            Err(e) => on_error.emit(e),
        },
    )
}

/// Committed text as seconds, in ms, or the message naming the field.
pub(super) fn seconds_of(field: &str, text: &str) -> Result<u64, String> {
    s_to_ms(text).ok_or_else(|| format!("{field} must be a number of seconds"))
}

/// Props of [`NumberField`].
#[derive(Properties, PartialEq)]
pub struct NumberFieldProps {
    /// Visible label.
    pub label: AttrValue,
    /// Element id (tests and `<label for>`).
    #[prop_or_default]
    pub id: Option<AttrValue>,
    /// Current value as text.
    pub value: AttrValue,
    /// Unit after the field (`s`, `ms`).
    #[prop_or_default]
    pub unit: Option<AttrValue>,
    /// Placeholder (an inherited value).
    #[prop_or_default]
    pub placeholder: Option<AttrValue>,
    /// `step` attribute.
    #[prop_or(AttrValue::Static("1"))]
    pub step: AttrValue,
    /// The committed text.
    pub on_change: Callback<String>,
    /// Extra class.
    #[prop_or_default]
    pub class: Classes,
}

/// A labelled numeric input.
#[component]
pub fn NumberField(props: &NumberFieldProps) -> Html {
    let onchange = props.on_change.reform(|e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        input.value()
    });
    html! {
        <label class={classes!("field", props.class.clone())}>
            <span class="field-label">{ &props.label }</span>
            <span class="field-input">
                <input type="number" min="0" step={props.step.clone()} id={props.id.clone()}
                       value={props.value.clone()} placeholder={props.placeholder.clone()} {onchange} />
                if let Some(unit) = &props.unit { <span class="unit">{ unit }</span> }
            </span>
        </label>
    }
}

/// Props of [`TextField`].
#[derive(Properties, PartialEq)]
pub struct TextFieldProps {
    /// Visible label.
    pub label: AttrValue,
    /// Current value.
    pub value: AttrValue,
    /// Placeholder.
    #[prop_or_default]
    pub placeholder: Option<AttrValue>,
    /// Suggestions (`<datalist>` id).
    #[prop_or_default]
    pub list: Option<AttrValue>,
    /// Element id.
    #[prop_or_default]
    pub id: Option<AttrValue>,
    /// The committed text.
    pub on_change: Callback<String>,
    /// Extra class.
    #[prop_or_default]
    pub class: Classes,
}

/// A labelled text input.
#[component]
pub fn TextField(props: &TextFieldProps) -> Html {
    let onchange = props.on_change.reform(|e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        input.value()
    });
    html! {
        <label class={classes!("field", props.class.clone())}>
            <span class="field-label">{ &props.label }</span>
            <input type="text" id={props.id.clone()} value={props.value.clone()} placeholder={props.placeholder.clone()}
                   list={props.list.clone()} spellcheck="false" {onchange} />
        </label>
    }
}

/// A labelled multi-line text input, committed on `change` (blur, not
/// each keystroke); `note` follows the label (e.g. that the text may be
/// stale). A function, not a component: one more component type would cost
/// the page's module more than this field does.
pub fn textarea_field(
    label: &'static str,
    id: &'static str,
    value: &str,
    on_change: Callback<String>,
    note: Option<&'static str>,
) -> Html {
    let onchange = on_change.reform(|e: Event| {
        let area: HtmlTextAreaElement = e.target_unchecked_into();
        area.value()
    });
    html! {
        <label class="field wide textarea">
            <span class="field-label">{ label }
                if let Some(note) = note { {" "}<span class="stale-note">{ note }</span> }
            </span>
            <textarea {id} rows="3" value={value.to_string()} {onchange} />
        </label>
    }
}

/// Props of [`SelectField`].
#[derive(Properties, PartialEq)]
pub struct SelectFieldProps {
    /// Visible label.
    pub label: AttrValue,
    /// `(value, text)` options.
    pub options: Vec<(AttrValue, AttrValue)>,
    /// Selected value.
    pub value: AttrValue,
    /// The chosen value.
    pub on_change: Callback<String>,
    /// Extra class.
    #[prop_or_default]
    pub class: Classes,
}

/// A labelled select.
#[component]
pub fn SelectField(props: &SelectFieldProps) -> Html {
    let onchange = props.on_change.reform(|e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        select.value()
    });
    html! {
        <label class={classes!("field", props.class.clone())}>
            <span class="field-label">{ &props.label }</span>
            <select {onchange}>
                { for props.options.iter().map(|(v, t)| html! {
                    <option value={v.clone()} selected={*v == props.value}>{ t }</option>
                }) }
            </select>
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_round_trip() {
        assert_eq!(ms_to_s(30_000), "30");
        assert_eq!(ms_to_s(2_500), "2.5");
        assert_eq!(ms_to_s(20), "0.02");
        assert_eq!(ms_to_s(0), "0");
        assert_eq!(s_to_ms("2.5"), Some(2_500));
        assert_eq!(s_to_ms("2,5"), Some(2_500));
        assert_eq!(s_to_ms("-1"), None);
        assert_eq!(s_to_ms("soon"), None);
        assert_eq!(s_to_ms(" 30 "), Some(30_000));
        assert_eq!(s_to_ms(".02"), Some(20));
        assert_eq!(s_to_ms("0.0125"), Some(13), "the fourth digit rounds");
        assert_eq!(s_to_ms("1.2344"), Some(1_234));
        assert_eq!(s_to_ms("7."), Some(7_000));
        assert_eq!(s_to_ms("1000000000"), Some(1_000_000_000_000));
        for bad in ["", ".", "1.2.3", "1e3", "+1", "1 000", "1000000001"] {
            assert_eq!(s_to_ms(bad), None, "{bad:?}");
        }
        assert_eq!(s_to_ms("1e400"), None);
    }
}
