//! The playground page's entry point.

fn main() {
    yew::Renderer::<rebalance_web::App>::new().render();
}
