//! Wording shared by both simulators' explanations, the report, the CLI and
//! the page: simulated clock times, durations, counts and name lists. One
//! place, so a duration reads the same in a trace step, a metric card and a
//! CLI table.

/// A simulated time as a clock from the start: `12:05`, `1:02:03`, `0:03.040`.
pub fn clock(ms: u64) -> String {
    let secs = ms / 1000;
    let frac = ms % 1000;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let base = if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    };
    if frac == 0 {
        base
    } else {
        format!("{base}.{frac:03}")
    }
}

/// A duration in the largest unit that reads well, never hiding the
/// milliseconds that matter in a protocol trace: `40 ms`, `1.6 s`,
/// `12.340 s`, `5 min`, `4 min 30 s`, `1 h`.
pub fn duration(ms: u64) -> String {
    if ms < 1_000 {
        return format!("{ms} ms");
    }
    if ms < 60_000 {
        return if ms.is_multiple_of(1_000) {
            format!("{} s", ms / 1_000)
        } else if ms.is_multiple_of(100) {
            format!("{}.{} s", ms / 1_000, ms % 1_000 / 100)
        } else {
            format!("{}.{:03} s", ms / 1_000, ms % 1_000)
        };
    }
    if ms < 3_600_000 {
        let (m, rest) = (ms / 60_000, ms % 60_000);
        return if rest == 0 {
            format!("{m} min")
        } else {
            format!("{m} min {}", duration(rest))
        };
    }
    let (h, rest) = (ms / 3_600_000, ms % 3_600_000);
    if rest == 0 {
        format!("{h} h")
    } else {
        format!("{h} h {}", duration(rest))
    }
}

/// `1 task`, `4 tasks`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `worker-1`, `worker-1 and worker-2`, `worker-1, worker-2 and 3 more`.
pub fn names(list: &[&str]) -> String {
    match list {
        [] => "nobody".to_string(),
        [a] => (*a).to_string(),
        [a, b] => format!("{a} and {b}"),
        [a, b, c] => format!("{a}, {b} and {c}"),
        [a, b, rest @ ..] => format!("{a}, {b} and {} more", rest.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_times() {
        assert_eq!(clock(725_000), "12:05");
        assert_eq!(clock(3_040), "0:03.040");
        assert_eq!(clock(3_723_000), "1:02:03");
    }

    #[test]
    fn durations_keep_the_milliseconds_that_matter() {
        assert_eq!(duration(40), "40 ms");
        assert_eq!(duration(850), "850 ms");
        assert_eq!(duration(1_600), "1.6 s");
        assert_eq!(duration(12_340), "12.340 s");
        assert_eq!(duration(30_000), "30 s");
        assert_eq!(duration(300_000), "5 min");
        assert_eq!(duration(270_000), "4 min 30 s");
        assert_eq!(duration(310_500), "5 min 10.5 s");
        assert_eq!(duration(3_600_000), "1 h");
        assert_eq!(duration(3_720_000), "1 h 2 min");
    }

    #[test]
    fn counts_and_names() {
        assert_eq!(plural(1, "task"), "1 task");
        assert_eq!(plural(4, "task"), "4 tasks");
        assert_eq!(names(&[]), "nobody");
        assert_eq!(names(&["a", "b"]), "a and b");
        assert_eq!(names(&["a", "b", "c", "d"]), "a, b and 2 more");
    }
}
