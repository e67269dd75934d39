//! Connect's own wording for the trace: the work a worker runs. Clock
//! times, durations, counts and names are in [`crate::wording`].

use crate::wording::plural;

/// `2 connectors and 8 tasks`, `4 tasks`, `1 connector`, `nothing`.
pub(crate) fn work(connectors: usize, tasks: usize) -> String {
    match (connectors, tasks) {
        (0, 0) => "nothing".to_string(),
        (c, 0) => plural(c, "connector"),
        (0, t) => plural(t, "task"),
        (c, t) => format!("{} and {}", plural(c, "connector"), plural(t, "task")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wording() {
        assert_eq!(work(0, 0), "nothing");
        assert_eq!(work(1, 4), "1 connector and 4 tasks");
        assert_eq!(work(2, 0), "2 connectors");
    }
}
