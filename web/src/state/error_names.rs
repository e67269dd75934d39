//! The engine's validation errors in the page's words. The engine names a
//! field by its path in the scenario (`compare[0].config.session.timeout.ms`);
//! the page shows columns, rows and fields, so the editor's error says
//! "column 1 (eager): session.timeout.ms must be …" instead.

use engine::scenario::{Family, Scenario, ScenarioError};

use super::numbers::with_separators;

/// The error as the page says it, naming what the page shows.
pub fn page_error(error: &ScenarioError, scenario: &Scenario) -> String {
    match error {
        ScenarioError::Invalid { field, reason } => {
            let reason = with_separators(&page_reason(reason));
            format!("{} {reason}.", page_field(field, scenario))
        }
        other => other.to_string(),
    }
}

/// A reason with the engine's field paths in it, in the page's words.
fn page_reason(reason: &str) -> String {
    reason.replace(
        "timings.restore_records_per_sec",
        "the restore rate (records/s)",
    )
}

/// `name[3]` → (`name`, 3).
fn indexed(segment: &str) -> Option<(&str, usize)> {
    let (name, rest) = segment.split_once('[')?;
    let n = rest.strip_suffix(']')?.parse().ok()?;
    Some((name, n))
}

/// The page's name for a field path, e.g. `column 2 (cooperative): session.timeout.ms`.
pub fn page_field(field: &str, scenario: &Scenario) -> String {
    let labels = scenario.variant_labels();
    let streams = matches!(scenario.family, Family::Streams(_));
    let (head, rest) = match field.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (field, None),
    };
    let key = |what: &str| match rest {
        Some(r) => format!("{what}: {r}"),
        None => what.to_string(),
    };
    if let Some((name, i)) = indexed(head) {
        let n = i + 1;
        return match name {
            "compare" => {
                let column = match labels.get(i) {
                    Some(l) if !l.is_empty() => format!("column {n} ({l})"),
                    _ => format!("column {n}"),
                };
                match rest {
                    Some("label") => format!("{column}: name"),
                    Some(r) => format!("{column}: {}", r.strip_prefix("config.").unwrap_or(r)),
                    None => column,
                }
            }
            "events" => {
                let r = rest.map(|r| r.strip_prefix("config.").unwrap_or(r));
                match r {
                    Some(r) => format!("event {n}: {}", field_word(r)),
                    None => format!("event {n}"),
                }
            }
            "references" => key(&format!("reference {n}")),
            _ => field.to_string(),
        };
    }
    match (head, rest) {
        ("compare", None) => "the columns".to_string(),
        ("end_ms", None) => "run length".to_string(),
        ("connect" | "streams", Some(r)) => family_field(r, streams),
        _ => field.to_string(),
    }
}

/// A path inside `connect.` or `streams.`.
fn family_field(path: &str, streams: bool) -> String {
    if let Some(key) = path.strip_prefix("config.") {
        let column = if streams { "application" } else { "cluster" };
        return format!("{column} column: {key}");
    }
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    if let Some((name, i)) = indexed(head) {
        let what = match name {
            "connectors" => "connector",
            "subtopologies" => "subtopology",
            "worker_overrides" => "worker override",
            _ => return path.to_string(),
        };
        return match rest {
            Some(r) => format!(
                "{what} {}: {}",
                i + 1,
                field_word(r.strip_prefix("config.").unwrap_or(r))
            ),
            None => format!("{what} {}", i + 1),
        };
    }
    match path {
        "workers" => "Workers at start".to_string(),
        "instances" => "Instances at start".to_string(),
        "subtopologies" => "the subtopologies".to_string(),
        "connectors" => "the connectors".to_string(),
        "timings.restore_records_per_sec" => "Restore rate".to_string(),
        _ => path.to_string(),
    }
}

/// The editor's label for a field inside a row (Kafka keys stay as they are).
fn field_word(f: &str) -> String {
    match f {
        "at_ms" => "at".to_string(),
        "changelog_records" => "changelog records".to_string(),
        "changelog_records_per_sec" => "records/s".to_string(),
        "downtime_ms" => "down for".to_string(),
        "interval_ms" => "one every".to_string(),
        "duration_ms" => "duration".to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::scenario::Family;

    fn preset(id: &str) -> Scenario {
        engine::presets::resolve(id)
            .unwrap_or_else(|e| panic!("{e}"))
            .scenario()
    }

    #[test]
    fn columns_are_named_as_the_page_shows_them() {
        let s = preset("connect/worker-dies");
        let labels: Vec<String> = s.variant_labels().iter().map(|l| l.to_string()).collect();
        let e = ScenarioError::invalid("compare[1].config.session.timeout.ms", "must be …");
        assert_eq!(
            page_error(&e, &s),
            format!("column 2 ({}): session.timeout.ms must be ….", labels[1])
        );
        assert_eq!(
            page_field("compare[0].label", &s),
            format!("column 1 ({}): name", labels[0])
        );
        assert_eq!(page_field("compare[7].config.x", &s), "column 8: x");
        assert_eq!(page_field("compare", &s), "the columns");
        assert_eq!(
            page_field("connect.config.session.timeout.ms", &s),
            "cluster column: session.timeout.ms"
        );
        assert_eq!(page_field("connect.workers", &s), "Workers at start");
        assert_eq!(
            page_field("connect.connectors[2].name", &s),
            "connector 3: name"
        );
        assert_eq!(page_field("events[0].at_ms", &s), "event 1: at");
        assert_eq!(page_field("end_ms", &s), "run length");
        assert_eq!(page_field("something.new", &s), "something.new");
    }

    #[test]
    fn a_real_streams_error_names_the_column_not_the_path() {
        let mut s = preset("streams/stateless-restart");
        let Family::Streams(st) = &mut s.family else {
            panic!("a Streams preset")
        };
        st.compare[0].config.heartbeat_interval_ms = Some(999_999);
        st.compare[0].config.session_timeout_ms = Some(10_000);
        let label = st.compare[0].label.clone();
        let e = s.validate().expect_err("heartbeat above session timeout");
        let text = page_error(&e, &s);
        assert!(
            text.starts_with(&format!(
                "column 1 ({label}): heartbeat.interval.ms is 999,999 ms; it must be"
            )),
            "{text}"
        );
        assert!(
            text.contains("(10,000 ms)"),
            "numbers read as on the page: {text}"
        );
        assert!(!text.contains("compare["), "{text}");
        assert_eq!(
            page_field("streams.config.num.stream.threads", &s),
            "application column: num.stream.threads"
        );
        assert_eq!(
            page_field("streams.subtopologies[0].changelog_records_per_sec", &s),
            "subtopology 1: records/s"
        );
        assert_eq!(
            page_field("streams.timings.restore_records_per_sec", &s),
            "Restore rate"
        );
        let zero = ScenarioError::invalid(
            "streams.subtopologies[0].changelog_records_per_sec",
            "must be lower than timings.restore_records_per_sec, or …",
        );
        assert!(page_error(&zero, &s).contains("lower than the restore rate (records/s)"));
    }

    #[test]
    fn other_errors_are_unchanged() {
        let s = preset("connect/worker-dies");
        let e = ScenarioError::UnsupportedVersion(9);
        assert_eq!(page_error(&e, &s), e.to_string());
    }
}
