//! The simulator's Web Worker (built by Trunk as `data-type="worker"`).

fn main() {
    rebalance_web::sim_worker::serve();
}
