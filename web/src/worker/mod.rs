//! The simulator off the main thread. The page's [`sim_client`] posts each
//! scenario to the Web Worker, which [`sim_worker`] serves; where no worker
//! can run, [`sim_module`] loads the same simulator module on the main
//! thread. A result crosses the boundary as [`wire`] packs it.

pub(crate) mod sim_client;
pub mod sim_module;
pub mod sim_worker;
mod wire;
