//! Rebalance Playground's page: a Yew (CSR) app over the engine. The engine
//! does all protocol logic; this crate runs it in a Web Worker, turns its
//! traces into pixels, keeps the address bar a permalink, and exports a
//! small JS API for embedding.
//!
//! Two binaries share this library and must stay apart: the page
//! (`main.rs`, with the page's JS API) never calls the simulator, and the
//! simulator module (`worker_main.rs`, with its own JS API) never draws.
//! Each bin declares its own `#[wasm_bindgen]` exports, since an export in
//! this library would pull its code into both modules.

mod app;
mod column;
mod compare_view;
mod config_keys;
mod edit;
mod editor;
mod embed;
mod embed_dialog;
mod gallery;
mod help_overlay;
mod hooks;
pub mod js_value;
mod keyboard;
mod legend;
mod listeners;
mod location;
mod markers;
mod metric_cards;
mod playback;
pub mod profile;
mod round_details;
mod running_chart;
mod series;
mod share;
mod share_bar;
mod shared;
mod sim_client;
pub mod sim_module;
pub mod sim_worker;
mod state;
mod summary;
mod summary_body;
mod timeline;
mod timeline_body;
mod transport;
mod ui;
mod wire;

pub use app::App;
