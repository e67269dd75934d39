//! Glue to the browser: the address bar ([`location`]), window-level
//! [`listeners`] and the [`keyboard`] shortcuts they dispatch, Yew
//! [`hooks`] over DOM APIs, modal dialogs' [`focus`], sharing ([`share`]:
//! clipboard, files) and [`export`] (SVG, PNG), iframe sizing ([`embed`]),
//! work after the next frame ([`frame`]),
//! the clock and `?profile=1` ([`profile`]), and JS values for the JS APIs
//! ([`js_value`]).

pub(crate) mod embed;
pub(crate) mod export;
pub(crate) mod focus;
pub(crate) mod frame;
pub(crate) mod hooks;
pub mod js_value;
pub(crate) mod keyboard;
pub(crate) mod listeners;
pub(crate) mod location;
pub mod profile;
pub(crate) mod share;
pub(crate) mod sweep_module;
