//! The engine's words in the page: the config names and values it marks
//! with backticks shown as `<code>` ([`crate::state::inline_code`]), the
//! numbers in its prose with thousands separators.

use yew::prelude::*;

use crate::state::inline_code::{pieces, Piece};
use crate::state::numbers::with_separators;

/// `text` (an explanation, a verdict, an error) as markup.
pub fn engine_text(text: &str) -> Html {
    html! {
        { for pieces(text).into_iter().map(|p| match p {
            Piece::Prose(s) => html! { with_separators(s) },
            Piece::Code(c) => html! { <code>{ c.to_string() }</code> },
        }) }
    }
}
