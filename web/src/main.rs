//! The playground page's entry point. Its JS API lives here, not in the
//! library, so the simulator's exports stay out of the page's WebAssembly.

mod page_api;

fn main() {
    yew::Renderer::<rebalance_web::App>::new().render();
}
