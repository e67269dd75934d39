//! Rebalance Playground's page: a Yew (CSR) app over the engine. The engine
//! does all protocol logic; this crate only turns a trace into pixels, keeps
//! the address bar a permalink, and exports a small JS API for embedding.

mod app;
mod editor;
mod js_api;
mod location;
mod metrics_view;
mod state;
mod timeline;

pub use app::App;
