//! The simulator off the main thread. The page's [`sim_client`] posts each
//! scenario (or a link's or file's scenario text, for the simulator to parse)
//! to the Web Worker ([`worker_thread`]), which [`sim_worker`] serves; where
//! no worker can run, [`sim_module`] loads the same simulator module on the
//! main thread, and a small scenario's edit is simulated there too, in the
//! edit's own task ([`brief_sim`]). They talk in [`messages`]; the page's
//! parts see requests and answers as [`answers`] has them; a result crosses
//! the boundary as [`engine::result_wire`] packs it. A preset link's first
//! answer can be the result the site ships ([`shipped`]). A sweep's points
//! run in a [`sweep_pool`] of workers. A big scenario's variants are
//! shared between the worker and a helper worker it starts ([`split_run`]);
//! a worker runs a simulation in [`slices`], so that a superseded one stops.

pub(crate) mod answers;
pub(crate) mod brief_sim;
mod messages;
pub(crate) mod shipped;
pub(crate) mod sim_client;
pub mod sim_module;
pub mod sim_worker;
mod slices;
mod split_run;
pub(crate) mod sweep_pool;
pub(crate) mod worker_thread;
