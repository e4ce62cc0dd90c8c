//! Literals: the atomic facts about finite domains that reasons and
//! explanations are made of.
//!
//! A [`Literal`] says one thing about one variable's domain: `x = v`,
//! `x ≠ v`, `x ≥ v` or `x ≤ v`. Each has a negation among the four kinds
//! (`¬[x ≥ v]` is `[x ≤ v − 1]`), so a conjunction of literals can be
//! negated into a disjunction, as a learned nogood needs. This module
//! depends only on the handles (`ids.rs`), so the domain store, the
//! propagation kernel and the search all use it.
//!
//! ```
//! use csp_core::{Literal, VarId};
//! let x = VarId::from_index(3);
//! let l = Literal::Ge(x, 5);
//! assert_eq!(l.negate(), Literal::Le(x, 4));
//! assert!(l.admits(7) && !l.admits(4));
//! assert_eq!(l.to_string(), "v3 ≥ 5");
//! ```

use std::fmt;

use crate::ids::{Value, VarId};

/// One fact about a variable's domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Literal {
    /// `x = v`: `v` is the only value left.
    Eq(VarId, Value),
    /// `x ≠ v`: `v` is not in the domain.
    Ne(VarId, Value),
    /// `x ≥ v`: every value below `v` is gone.
    Ge(VarId, Value),
    /// `x ≤ v`: every value above `v` is gone.
    Le(VarId, Value),
}

impl Literal {
    /// The variable the literal is about.
    #[inline]
    pub fn var(self) -> VarId {
        match self {
            Literal::Eq(x, _) | Literal::Ne(x, _) | Literal::Ge(x, _) | Literal::Le(x, _) => x,
        }
    }

    /// The value in the literal.
    #[inline]
    pub fn value(self) -> Value {
        match self {
            Literal::Eq(_, v) | Literal::Ne(_, v) | Literal::Ge(_, v) | Literal::Le(_, v) => v,
        }
    }

    /// Does the literal allow `x` to take `value`? (`x ≠ 3` admits 4, not 3.)
    #[inline]
    pub fn admits(self, value: Value) -> bool {
        match self {
            Literal::Eq(_, v) => value == v,
            Literal::Ne(_, v) => value != v,
            Literal::Ge(_, v) => value >= v,
            Literal::Le(_, v) => value <= v,
        }
    }

    /// The negation: `¬[x = v]` is `[x ≠ v]`, `¬[x ≥ v]` is `[x ≤ v − 1]`.
    /// At the ends of the `i32` range the negation of `x ≥ i32::MIN` (always
    /// true) is `x ≤ i32::MIN − 1`, which cannot be written: it saturates to
    /// `x ≤ i32::MIN`, so use [`is_trivial`](Self::is_trivial) first where it matters.
    pub fn negate(self) -> Literal {
        match self {
            Literal::Eq(x, v) => Literal::Ne(x, v),
            Literal::Ne(x, v) => Literal::Eq(x, v),
            Literal::Ge(x, v) => Literal::Le(x, v.saturating_sub(1)),
            Literal::Le(x, v) => Literal::Ge(x, v.saturating_add(1)),
        }
    }

    /// True for the literals every domain satisfies (`x ≥ i32::MIN`,
    /// `x ≤ i32::MAX`).
    pub fn is_trivial(self) -> bool {
        matches!(
            self,
            Literal::Ge(_, Value::MIN) | Literal::Le(_, Value::MAX)
        )
    }

    /// Does a domain with these values (ascending or not) satisfy the
    /// literal? An empty domain satisfies every literal.
    pub fn holds_for(self, values: impl IntoIterator<Item = Value>) -> bool {
        values.into_iter().all(|v| self.admits(v))
    }

    /// The literal printed with a variable name in place of `v3`
    /// (`q3 ≠ 5`, `r1c9 ≤ 4`): `name` gives the name of a variable.
    pub fn display_with<'a, F: Fn(VarId) -> String + 'a>(self, name: F) -> impl fmt::Display + 'a {
        Named { lit: self, name }
    }
}

struct Named<F> {
    lit: Literal,
    name: F,
}

impl<F: Fn(VarId) -> String> fmt::Display for Named<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (op, v) = op_of(self.lit);
        write!(f, "{} {op} {v}", (self.name)(self.lit.var()))
    }
}

fn op_of(l: Literal) -> (&'static str, Value) {
    match l {
        Literal::Eq(_, v) => ("=", v),
        Literal::Ne(_, v) => ("≠", v),
        Literal::Ge(_, v) => ("≥", v),
        Literal::Le(_, v) => ("≤", v),
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (op, v) = op_of(*self);
        write!(f, "{} {op} {v}", self.var())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_is_the_complement_on_every_value() {
        let x = VarId(0);
        for l in [
            Literal::Eq(x, 2),
            Literal::Ne(x, 2),
            Literal::Ge(x, 2),
            Literal::Le(x, 2),
        ] {
            for v in -3..6 {
                assert_ne!(l.admits(v), l.negate().admits(v), "{l} at {v}");
            }
            assert_eq!(l.negate().negate(), l);
        }
    }

    #[test]
    fn trivial_literals_at_the_ends() {
        let x = VarId(1);
        assert!(Literal::Ge(x, i32::MIN).is_trivial());
        assert!(Literal::Le(x, i32::MAX).is_trivial());
        assert!(!Literal::Le(x, 0).is_trivial());
        assert_eq!(Literal::Le(x, i32::MAX).negate(), Literal::Ge(x, i32::MAX));
    }

    #[test]
    fn names_print_in_place_of_indices() {
        let l = Literal::Ne(VarId(3), 5);
        assert_eq!(
            l.display_with(|x| format!("q{}", x.index())).to_string(),
            "q3 ≠ 5"
        );
    }
}
