//! The simulator off the main thread. The page's [`sim_client`] posts each
//! scenario (or a link's or file's scenario text, for the simulator to parse)
//! to the Web Worker, which [`sim_worker`] serves; where no worker
//! can run, [`sim_module`] loads the same simulator module on the main
//! thread. They talk in [`messages`]; a result crosses the boundary as
//! [`engine::result_wire`] packs it. A preset link's first answer can be the
//! result the site ships ([`shipped`]). A sweep's points run in a
//! [`sweep_pool`] of workers.

pub(crate) mod brief_sim;
mod messages;
pub(crate) mod shipped;
pub(crate) mod sim_client;
pub mod sim_module;
pub mod sim_worker;
pub(crate) mod sweep_pool;
pub(crate) mod worker_thread;
