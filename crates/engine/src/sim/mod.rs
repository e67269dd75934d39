//! The deterministic discrete-event simulator (spec §4).
