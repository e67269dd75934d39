//! Numbers as the page shows them: thousands separators on every count
//! (`12,000 tasks`, `1,250 rounds`). One grouping rule for numbers the page
//! formats itself ([`thousands`]) and for numbers inside text the engine
//! worded ([`with_separators`]), so a card, a tooltip and a story line agree.

/// `1234567` → `1,234,567`; `999` → `999`.
pub fn thousands(n: u64) -> String {
    let mut out = String::new();
    group_into(&n.to_string(), &mut out);
    out
}

/// `1 task`, `12,000 tasks`: a count and its noun, in the plural unless one.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n))
    }
}

/// Appends a run of ASCII digits with a comma before each group of three
/// from the right.
fn group_into(digits: &str, out: &mut String) {
    let len = digits.len();
    for (k, d) in digits.char_indices() {
        if k > 0 && (len - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
}

/// Groups the thousands of every number in engine-worded text (`51480 s vs
/// 12 s` → `51,480 s vs 12 s`), leaving alone what only looks like one: the
/// digits of a name (`worker-1000`, `orders-cdc-12345`, `KIP-1071`), of a
/// version or a property value glued to a word (`3.9`, `v2`), and the
/// digits after a decimal point (`12.340 s`).
pub fn with_separators(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    let mut previous: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            out.push(c);
            previous = Some(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let (run, tail) = rest.split_at(digits);
        // ASCII classes only: Unicode's would add kilobytes of tables to the
        // page's WebAssembly, and names and units here are ASCII.
        let glued_before =
            previous.is_some_and(|p| p.is_ascii_alphanumeric() || "-_.:/#".contains(p));
        let glued_after = tail
            .bytes()
            .next()
            .is_some_and(|n| n.is_ascii_alphabetic() || n == b'_' || n == b'-');
        if glued_before || glued_after || digits < 4 {
            out.push_str(run);
        } else {
            group_into(run, &mut out);
        }
        previous = run.chars().next_back();
        rest = tail;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_group_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(12_345), "12,345");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(count(1, "round"), "1 round");
        assert_eq!(count(0, "round"), "0 rounds");
        assert_eq!(count(10_000, "round"), "10,000 rounds");
    }

    #[test]
    fn text_groups_numbers_but_not_names_versions_or_decimals() {
        assert_eq!(with_separators("100000 tasks"), "100,000 tasks");
        assert_eq!(with_separators("1234 vs 12345"), "1,234 vs 12,345");
        assert_eq!(
            with_separators("vs eager 8333 h 20 min"),
            "vs eager 8,333 h 20 min"
        );
        assert_eq!(with_separators("12.34567 s"), "12.34567 s");
        assert_eq!(with_separators("1234.5 s"), "1,234.5 s");
        assert_eq!(with_separators("5 min 10 s"), "5 min 10 s");
        assert_eq!(with_separators("—"), "—");
        assert_eq!(
            with_separators("the longest outage was 2 min (orders-cdc-12345) on worker-1000"),
            "the longest outage was 2 min (orders-cdc-12345) on worker-1000"
        );
        assert_eq!(
            with_separators("KIP-1071, Kafka 3.9"),
            "KIP-1071, Kafka 3.9"
        );
        assert_eq!(with_separators("(1200 ms)"), "(1,200 ms)");
        assert_eq!(with_separators("x1000 and 2000ms"), "x1000 and 2000ms");
    }
}
