//! The playground page's entry point. Its JS API lives here, not in the
//! library, so the simulator's exports stay out of the page's WebAssembly.

mod page_api;

fn main() {
    // The first render in a task of its own, after the one that
    // instantiated the module: together they were one 45–80 ms main-thread
    // task on most cold loads (most of it functions compiled on their first
    // call), apart 15–30 ms each (issue #13: no task over 50 ms;
    // docs/performance.md, "Session 20").
    gloo::timers::callback::Timeout::new(0, || {
        yew::Renderer::<rebalance_web::App>::new().render();
    })
    .forget();
}
