//! The timeline's pointer and wheel handling (the scheme is in
//! [`crate::components::timeline`]'s module docs and the help overlay).
//! One context per render, shared by every handler: each handler is then a
//! small closure over one `Rc` (much smaller in WebAssembly than closures
//! each holding their own clones).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use engine::layout::{Bar, TimeAxis};
use engine::run::RunResult;
use web_sys::{Element, WheelEvent};
use yew::prelude::*;

use crate::components::timeline::Drawing;
use crate::shared::Shared;
use crate::state::gesture::Touches;
use crate::state::viewport::Window;

/// What a press on the timeline does once the pointer moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Press {
    /// On the time axis: the playhead follows.
    Scrub,
    /// On the lanes: the window follows, from the window at the press.
    Pan(Window),
}

/// The bar under the pointer, and where to show its tooltip (CSS px in
/// the timeline's wrapper).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hover {
    /// The bar.
    pub bar: Bar,
    /// Pointer x.
    pub x: f64,
    /// Pointer y.
    pub y: f64,
}

/// Everything the handlers of one render need.
pub struct Pointer {
    pub svg_ref: NodeRef,
    pub drawing: Rc<Option<(Drawing, String)>>,
    pub result: Shared<RunResult>,
    pub index: usize,
    /// The axis drawn (`None` until measured).
    pub axis: Option<TimeAxis>,
    pub window: Window,
    pub end_ms: u64,
    /// The SVG's width in its own units.
    pub width: f64,
    /// The lanes' top and bottom: outside them is the time axis.
    pub axis_band: (f64, f64),
    pub followed: Option<Rc<str>>,
    /// Where the pointer went down and what the press does, while it is down.
    pub press: Rc<Cell<Option<(f64, Press)>>>,
    pub dragging: Rc<RefCell<Cell<bool>>>,
    /// The pointers down and the pinch they make (two fingers).
    pub touches: Rc<RefCell<Touches>>,
    pub hover: UseStateSetter<Option<Hover>>,
    pub on_seek: Callback<u64>,
    pub on_scrub: Callback<bool>,
    pub on_view: Callback<Option<Window>>,
    pub on_follow: Callback<Option<Rc<str>>>,
}

impl Pointer {
    /// The pointer in SVG units, and SVG units per CSS pixel. (Yew delegates
    /// events from its root, so `current_target` is not the SVG; measure
    /// through the node ref instead.)
    fn point(&self, e: &MouseEvent) -> Option<(f64, f64, f64)> {
        let el: Element = self.svg_ref.cast()?;
        let rect = el.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return None;
        }
        let s = self.width / rect.width();
        Some((
            (f64::from(e.client_x()) - rect.left()) * s,
            (f64::from(e.client_y()) - rect.top()) * s,
            s,
        ))
    }

    /// The bar at an SVG point, from the data.
    fn hit(&self, x: f64, y: f64) -> Option<Bar> {
        let axis = self.axis?;
        let (drawing, _) = self.drawing.as_ref().as_ref()?;
        let (lay, trace) = drawing.lanes(&self.result.variants[self.index].trace)?;
        lay.hit(trace, &axis, x, y, 3.0)
    }

    /// A press starts a drag only once the pointer moves a few pixels, so a
    /// plain click stays a click (a round marker, a summary group, a task).
    /// A second finger down turns the press into a pinch.
    pub fn down(&self, e: &PointerEvent) {
        if e.button() != 0 {
            return;
        }
        let Some((x, y, _)) = self.point(e) else {
            return;
        };
        let pinch = self
            .touches
            .borrow_mut()
            .down(e.pointer_id(), x, self.window);
        if pinch {
            self.press.set(None);
            if self.dragging.borrow().replace(false) {
                self.on_scrub.emit(false);
            }
            self.hover.set(None);
        }
        if self.touches.borrow().pinching() {
            return;
        }
        let (top, bottom) = self.axis_band;
        let what = if y < top || y > bottom {
            Press::Scrub
        } else {
            Press::Pan(self.window)
        };
        self.press.set(Some((f64::from(e.client_x()), what)));
        self.dragging.borrow().set(false);
    }

    /// Hover names the bar; a drag scrubs or pans; a pinch zooms.
    pub fn moved(&self, e: &PointerEvent) {
        let Some(axis) = self.axis else { return };
        if self.touches.borrow().pinching() {
            let Some((x, _, _)) = self.point(e) else {
                return;
            };
            let pinched = self.touches.borrow_mut().moved(
                e.pointer_id(),
                x,
                axis.left,
                axis.right,
                self.end_ms,
            );
            if let Some(w) = pinched {
                self.on_view.emit(Some(w));
            }
            return;
        }
        let Some((x0, what)) = self.press.get() else {
            let found = self.point(e).and_then(|(x, y, s)| {
                let bar = self.hit(x, y)?;
                Some(Hover {
                    bar,
                    x: x / s,
                    y: y / s,
                })
            });
            self.hover.set(found);
            return;
        };
        if !self.dragging.borrow().get() {
            if (f64::from(e.client_x()) - x0).abs() < 3.0 {
                return;
            }
            // Capture keeps the drag going outside the element.
            if let Some(el) = self.svg_ref.cast::<Element>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
            self.dragging.borrow().set(true);
            self.hover.set(None);
            if what == Press::Scrub {
                self.on_scrub.emit(true);
            }
        }
        let Some((x, _, s)) = self.point(e) else {
            return;
        };
        match what {
            Press::Scrub => self.on_seek.emit(axis.time_at(x)),
            Press::Pan(from) => {
                let dx = (f64::from(e.client_x()) - x0) * s;
                let delta = -dx * axis.ms_per_px();
                self.on_view
                    .emit(Some(from.pan(delta.round() as i64, self.end_ms)));
            }
        }
    }

    /// The end of a press: a drag ends; a click on the axis seeks, on a
    /// task follows it, on empty space stops following.
    pub fn up(&self, e: &PointerEvent) {
        if self.touches.borrow_mut().up(e.pointer_id()) {
            // The end of a pinch is no tap.
            self.press.set(None);
            return;
        }
        let Some((_, what)) = self.press.take() else {
            return;
        };
        if self.dragging.borrow().replace(false) {
            if what == Press::Scrub {
                self.on_scrub.emit(false);
            }
            return;
        }
        let (Some(axis), Some((x, y, _))) = (self.axis, self.point(e)) else {
            return;
        };
        match what {
            Press::Scrub => self.on_seek.emit(axis.time_at(x)),
            Press::Pan(_) => {
                let label = self.hit(x, y).and_then(|b| {
                    self.result.variants[self.index]
                        .trace
                        .items
                        .get(b.item as usize)
                        .map(|i| Rc::<str>::from(i.label.as_str()))
                });
                if label != self.followed || label.is_none() {
                    self.on_follow.emit(label);
                }
            }
        }
    }

    /// The browser took the pointer away.
    pub fn cancel(&self, e: &PointerEvent) {
        self.touches.borrow_mut().up(e.pointer_id());
        self.press.set(None);
        if self.dragging.borrow().replace(false) {
            self.on_scrub.emit(false);
        }
    }

    /// The pointer left: no tooltip.
    pub fn leave(&self, _: &PointerEvent) {
        self.hover.set(None);
    }

    /// The wheel zooms around the pointer; Shift or a sideways wheel pans.
    pub fn wheel(&self, e: &WheelEvent) {
        let (Some(axis), Some(el)) = (self.axis, self.svg_ref.cast::<Element>()) else {
            return;
        };
        let rect = el.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return;
        }
        let scale = self.width / rect.width();
        // Lines and pages to pixels.
        let unit = match e.delta_mode() {
            1 => 16.0,
            2 => rect.height(),
            _ => 1.0,
        };
        let (dx, dy) = (e.delta_x() * unit, e.delta_y() * unit);
        let (w, end) = (self.window, self.end_ms);
        if e.shift_key() || dx.abs() > dy.abs() {
            let px = if dx.abs() > dy.abs() { dx } else { dy };
            let delta = px * scale * axis.ms_per_px();
            self.on_view.emit(Some(w.pan(delta.round() as i64, end)));
        } else if dy != 0.0 {
            let x = (f64::from(e.client_x()) - rect.left()) * scale;
            let anchor = axis.time_at(x) as f64;
            // About 20 % per wheel notch, symmetric in and out (no `exp`:
            // it would pull libm into the page).
            let k = 1.0 + (dy.abs() * 0.002).min(0.6);
            let factor = if dy > 0.0 { k } else { 1.0 / k };
            self.on_view.emit(Some(w.zoom(anchor, factor, end)));
        }
    }
}
