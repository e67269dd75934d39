//! Replays every Connect conformance vector: the public set recorded from
//! Kafka trunk (`shared/conformance/connect/`, format `rebalance-conformance/1`; vendored in
//! `tests/vectors/connect-kafka/`) and the small eager vectors in
//! `tests/vectors/connect/`, derived by hand from `EagerAssignor.performAssignment`.

mod support;

use std::path::Path;

use support::replay_dir;

/// The public vectors recorded from Kafka trunk, vendored in the repository so
/// every checkout can replay them (copied from shared/conformance/connect).
#[test]
fn public_connect_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/connect-kafka");
    assert_eq!(replay_dir(&dir, "connect"), 10);
}

/// Whatever vectors the shared folder beside the checkout holds now (CI has
/// one); `cargo xtask test` also replays them through `rebalance conformance`.
#[test]
fn shared_connect_vectors_when_present() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/connect");
    if dir.is_dir() {
        assert!(replay_dir(&dir, "connect") >= 10);
    } else {
        eprintln!(
            "no {} beside this checkout; replayed the vendored copy only",
            dir.display()
        );
    }
}

#[test]
fn hand_written_eager_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/connect");
    assert!(replay_dir(&dir, "connect") >= 3);
}
