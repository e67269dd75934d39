//! Replays the Streams conformance vectors (single-shot
//! `HighAvailabilityTaskAssignor` calls): the vectors in
//! `tests/vectors/streams/`, written from the exact outputs of Kafka's
//! `HighAvailabilityTaskAssignor` on the scenarios of its tests, and,
//! when present beside the workspace, the public examples recorded from
//! Kafka in `shared/conformance/streams/`.

mod support;

use std::path::Path;

use support::replay_dir;

#[test]
fn spec_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/streams");
    let replayed = replay_dir(&dir, "streams");
    assert!(
        replayed >= 10,
        "expected the HighAvailabilityTaskAssignorTest vectors in {}",
        dir.display()
    );
}

#[test]
fn public_kafka_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/streams");
    if !dir.is_dir() {
        eprintln!("skipping: {} does not exist on this machine", dir.display());
        return;
    }
    replay_dir(&dir, "streams");
}
