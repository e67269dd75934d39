//! The simulator module: run by the Web Worker (built by Trunk as
//! `data-type="worker"`), and loaded on the main thread by the page's JS
//! API and its no-worker fallback.

#[cfg(feature = "workloads")]
mod bench_api;
mod simulator_api;

fn main() {
    // On the main thread the module only offers its exports.
    if rebalance_web::worker::sim_worker::in_worker() {
        rebalance_web::worker::sim_worker::serve();
    }
}
