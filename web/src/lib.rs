//! Rebalance Playground's page: a Yew (CSR) app over the engine. The engine
//! does all protocol logic; this crate runs it in a Web Worker, turns its
//! traces into pixels, keeps the address bar a permalink, and exports a
//! small JS API for embedding.
//!
//! Three binaries share this library and must stay apart (the third, the
//! sweep module `sweep_main.rs`, holds the sweep view, which the page loads
//! the first time it opens, [`SweepRoot`] down): the page
//! (`main.rs`, with the page's JS API in `page_api.rs`) never calls the
//! simulator, and the simulator module (`worker_main.rs`, with its own JS
//! API in `simulator_api.rs`) never draws. Each bin declares its own
//! `#[wasm_bindgen]` exports, since an export in this library would pull
//! its code into both modules.
//!
//! The library, by role:
//! * [`components`]: the Yew components, from the [`App`] down to the
//!   timeline's lanes, and the scenario editor;
//! * [`state`]: pure state: the page's reducers, the scenario edits they
//!   apply, and what the views derive from a result; tested natively;
//! * [`worker`]: the simulator off the main thread: the page's client, the
//!   Web Worker's side, the messages between them and how a result crosses;
//! * [`browser`]: glue to the browser: the address bar, window listeners,
//!   hooks over DOM APIs, the clipboard and files, iframe sizing, the
//!   clock, and JS values for the JS APIs;
//! * [`presets`]: the built-in presets in binary, made at build time;
//! * [`shared`]: an `Rc` that compares by pointer, for props.

pub mod browser;
mod components;
pub mod presets;
mod shared;
mod state;
pub mod worker;

pub use components::app::App;
pub use components::sweep_root::{SweepRoot, SweepRootProps};

/// The allocator of all three WebAssembly modules (page, simulator, sweep
/// view): talc instead of the standard library's dlmalloc, about 3.2 KB
/// less of each module gzipped, at the same speed (issue #13;
/// docs/performance.md, "Session 23").
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
