// The simulator's Web Worker (index.html starts it; web/src/worker/sim_worker.rs
// runs in it): load the no-modules bindings, then their module, passing the
// init function a single options object as wasm-bindgen asks.
importScripts("./rebalance-worker.js");
wasm_bindgen({ module_or_path: "./rebalance-worker_bg.wasm" });
