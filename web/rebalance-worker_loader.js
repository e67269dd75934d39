// The simulator's Web Worker (index.html starts it; web/src/worker/sim_worker.rs
// runs in it): load the no-modules bindings, then their module, passing the
// init function a single options object as wasm-bindgen asks.
//
// The module is fetched and compiled while the bindings' script loads
// (importScripts blocks this thread), not after. Requests the page posts
// before the module listens are kept and handed to it once it does, so the
// page need not wait for "ready" to send its first request (issue #13).
var early = [];
function keep(e) { early.push(e); }
self.onmessage = keep;
var url = "./rebalance-worker_bg.wasm";
// A server that does not say `application/wasm` fails the streaming compile:
// then compile from the bytes, as the bindings would.
var module = WebAssembly.compileStreaming(fetch(url)).catch(function () {
  return fetch(url)
    .then(function (r) { return r.arrayBuffer(); })
    .then(function (bytes) { return WebAssembly.compile(bytes); });
});
importScripts("./rebalance-worker.js");
wasm_bindgen({ module_or_path: module }).then(function () {
  // The module's start (`serve`) has replaced the handler and said "ready".
  var handler = self.onmessage;
  if (handler !== keep) early.forEach(function (e) { handler(e); });
  early = [];
});
