//! [`Shared`]: an `Rc` that compares by pointer.
//!
//! Props and memo keys compare with `PartialEq` on every render. A trace
//! can hold millions of entries, so deep comparison would cost more than
//! the render it tries to skip; one simulation result is one allocation, and
//! "same allocation" is exactly "same result".

use std::ops::Deref;
use std::rc::Rc;

/// An `Rc<T>` whose equality is pointer identity.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Shared<T> {
    /// Wraps a value.
    pub fn new(value: T) -> Self {
        Shared(Rc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<Rc<T>> for Shared<T> {
    fn from(rc: Rc<T>) -> Self {
        Shared(rc)
    }
}
