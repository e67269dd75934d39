//! The width a timeline will have, known before it mounts.
//!
//! A timeline lays out its lanes at its real pixel width, which it can only
//! measure once its element is in the document. Measured after mounting,
//! the first result's timelines were drawn in a second render: Yew yields
//! after its first 16 ms, the browser lays out and paints the columns
//! without lanes, and only then do the timelines measure and draw (issue
//! #13: 25–55 ms more from navigation to the first timeline). So the width
//! is remembered per column count, from the last timeline measured or from
//! [`width_probe`], which the page shows while the first result simulates:
//! a mounting timeline draws at once at that width and its own measurement
//! only corrects it when the layout differs.

use std::cell::Cell;

use yew::prelude::*;

thread_local! {
    /// (column count, CSS px width of one column's timeline), 0 when unknown.
    static LAST: Cell<(usize, f64)> = const { Cell::new((0, 0.0)) };
}

/// The width a timeline of a comparison of `columns` columns will likely
/// have, or 0 when none has been measured.
pub fn hint(columns: usize) -> f64 {
    let (n, width) = LAST.get();
    if n == columns {
        width
    } else {
        0.0
    }
}

/// A timeline of a comparison of `columns` columns measured `width`.
pub fn note(columns: usize, width: f64) {
    if width > 0.0 {
        LAST.set((columns, width));
    }
}

/// Measures the probe behind the returned node ([`width_probe`]) once it
/// is laid out (when `shown` turns true), for comparisons of `columns`
/// columns. (A hook of the page, not a component of its own: a component
/// type costs the page's WebAssembly more.)
#[hook]
pub fn use_width_probe(columns: usize, shown: bool) -> NodeRef {
    let probe = use_node_ref();
    {
        let probe = probe.clone();
        use_effect_with((columns, shown), move |&(columns, _)| {
            if let Some(el) = probe.cast::<web_sys::Element>() {
                note(columns, f64::from(el.client_width()));
            }
        });
    }
    probe
}

/// An invisible copy of the comparison's grid (the same classes, no
/// height), shown while the first result simulates; `probe` goes on its
/// first timeline's box.
pub fn width_probe(columns: usize, probe: NodeRef) -> Html {
    html! {
        <section class="compare width-probe" aria-hidden="true">
            <div class="compare-body">
                <div class="columns" style={format!("--columns: {columns}")}>
                    { for (0..columns).map(|i| html! {
                        <article class="column" data-variant={i.to_string()}>
                            <div class="timeline-wrap" ref={if i == 0 { probe.clone() } else { NodeRef::default() }}></div>
                        </article>
                    }) }
                </div>
                <aside class="side-panel"></aside>
            </div>
        </section>
    }
}
