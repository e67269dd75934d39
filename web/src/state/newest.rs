//! What the page derives from all of a result's spans, kept for the newest
//! result only: computed once, in a task of its own before the result is
//! drawn (`worker::sim_client`), then read by every part that draws it, so
//! that a big result's drawing is not one long main-thread task (issue #13).

use std::cell::RefCell;
use std::rc::Rc;

use engine::run::RunResult;

/// One value derived from the newest result (holding the result, so that
/// its address cannot be reused by another while the value is kept).
pub(crate) struct Newest<T>(RefCell<Option<(Rc<RunResult>, Rc<T>)>>);

impl<T> Newest<T> {
    /// Nothing kept yet.
    pub(crate) const fn new() -> Self {
        Newest(RefCell::new(None))
    }

    /// The value for `result`: the kept one when it is this result's, else
    /// `derive`'s, kept in its place.
    pub(crate) fn get(
        &self,
        result: &Rc<RunResult>,
        derive: impl FnOnce(&RunResult) -> T,
    ) -> Rc<T> {
        if let Some((r, value)) = &*self.0.borrow() {
            if Rc::ptr_eq(r, result) {
                return value.clone();
            }
        }
        let value = Rc::new(derive(result));
        *self.0.borrow_mut() = Some((result.clone(), value.clone()));
        value
    }
}

/// Derives everything the newest result's drawing reads ([`super::series::of`],
/// [`super::summary::lanes_of`]) ahead of drawing it.
pub(crate) fn prepare(result: &Rc<RunResult>) {
    super::series::of(result);
    super::summary::lanes_of(result);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_value_is_derived_once_per_result() {
        let newest: Newest<usize> = Newest::new();
        let calls = Cell::new(0);
        let derive = |r: &RunResult| {
            calls.set(calls.get() + 1);
            r.variants.len()
        };
        let a = Rc::new(engine::run::run(
            &engine::presets::default_preset().scenario(),
        ));
        let b = Rc::new((*a).clone());
        assert_eq!(*newest.get(&a, derive), a.variants.len());
        newest.get(&a, derive);
        assert_eq!(calls.get(), 1);
        // An equal but other result is derived again, and replaces it.
        newest.get(&b, derive);
        newest.get(&a, derive);
        assert_eq!(calls.get(), 3);
    }
}
