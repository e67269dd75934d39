//! Glue to the browser: the address bar ([`location`]), window-level
//! [`listeners`] and the [`keyboard`] shortcuts they dispatch, Yew
//! [`hooks`] over DOM APIs, sharing ([`share`]: clipboard, files), iframe
//! sizing ([`embed`]), the clock and `?profile=1` ([`profile`]), and JS
//! values for the JS APIs ([`js_value`]).

pub(crate) mod embed;
pub(crate) mod hooks;
pub mod js_value;
pub(crate) mod keyboard;
pub(crate) mod listeners;
pub(crate) mod location;
pub mod profile;
pub(crate) mod share;
