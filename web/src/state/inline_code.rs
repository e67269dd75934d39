//! The engine's explanations and messages mark config names and values the
//! way Markdown does, in backticks (`` `default` ``,
//! `` `scheduled.rebalance.max.delay.ms` ``): a terminal shows them as they
//! are, the page as code. This splits a text into its prose and its code.

/// One piece of a text: prose, or what stood between a pair of backticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Words, shown as text.
    Prose(&'a str),
    /// A config name or value, shown as code (without its backticks).
    Code(&'a str),
}

/// `text` split at its backtick pairs, in order. A backtick with no partner
/// after it, and an empty pair (` `` `), stay in the prose as they are, so
/// nothing of the text is lost.
pub fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    // Where the prose being collected starts, and where to look for the
    // next opening backtick.
    let (mut prose_from, mut from) = (0, 0);
    while let Some(open) = text[from..].find('`').map(|i| from + i) {
        let Some(close) = text[open + 1..].find('`').map(|i| open + 1 + i) else {
            break;
        };
        if close == open + 1 {
            from = close + 1;
            continue;
        }
        if open > prose_from {
            out.push(Piece::Prose(&text[prose_from..open]));
        }
        out.push(Piece::Code(&text[open + 1..close]));
        prose_from = close + 1;
        from = prose_from;
    }
    if prose_from < text.len() {
        out.push(Piece::Prose(&text[prose_from..]));
    }
    out
}

/// `text` without the backticks around its code, for places that take only
/// plain text (an SVG `<title>` tooltip).
pub fn plain(text: &str) -> String {
    pieces(text)
        .into_iter()
        .map(|p| match p {
            Piece::Prose(s) | Piece::Code(s) => s,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Piece::{Code, Prose};
    use super::*;

    #[test]
    fn backtick_pairs_are_code() {
        assert_eq!(
            pieces("Eager (protocol `default`): leader worker-1 deals"),
            vec![
                Prose("Eager (protocol "),
                Code("default"),
                Prose("): leader worker-1 deals")
            ]
        );
        assert_eq!(
            pieces("`a` and `b.c`"),
            vec![Code("a"), Prose(" and "), Code("b.c")]
        );
        assert_eq!(pieces("`x`"), vec![Code("x")]);
    }

    #[test]
    fn text_without_pairs_is_kept_whole() {
        assert_eq!(pieces("no code here"), vec![Prose("no code here")]);
        assert_eq!(pieces(""), vec![]);
        assert_eq!(
            pieces("a lone ` stays"),
            vec![Prose("a lone ` stays")],
            "an unpaired backtick is text"
        );
        assert_eq!(
            pieces("`one` and a lone `"),
            vec![Code("one"), Prose(" and a lone `")]
        );
        assert_eq!(pieces("empty `` pair"), vec![Prose("empty `` pair")]);
        assert_eq!(pieces("`` then `x`"), vec![Prose("`` then "), Code("x")]);
    }

    #[test]
    fn plain_text_drops_only_the_marks() {
        assert_eq!(
            plain("The group protocol switches from `compatible` to `sessioned`: …"),
            "The group protocol switches from compatible to sessioned: …"
        );
        assert_eq!(plain("a lone ` stays"), "a lone ` stays");
        assert_eq!(
            plain("naïve `ü`"),
            "naïve ü",
            "multi-byte text splits cleanly"
        );
    }
}
