//! Three-variable linear equalities with unit coefficients, `±x ± y ± z =
//! c`: differences `d = y − x`, sums `z = x + y`, and their propagator.

use super::linear::clamp;
use super::{Constraint, Premises, Pruner};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::propagation::{Events, Priority, Propagator, Setup};

/// `s₀·x₀ + s₁·x₁ + s₂·x₂ = c` with each sign `sᵢ` either `+1` or `−1`: the
/// difference `d = y − x` is `d − y + x = 0`, the sum `z = x + y` is
/// `x + y − z = 0`.
///
/// [`Model::linear`](crate::Model::linear) (and so every expression such as
/// `m.post(d.eq(y - x))`) posts this constraint instead of a general
/// [`Linear`](super::Linear) for any `=` over three distinct variables with
/// coefficients `±1`; it can also be posted directly with
/// [`Model::post`](crate::Model::post).
///
/// # Pruning (forward checking and arc consistency alike)
/// **Bounds consistency**: each term `sᵢ·xᵢ` is kept within `c` minus the
/// other two terms' bounds, `c − Σⱼ≠ᵢ max(sⱼ·xⱼ) ≤ sᵢ·xᵢ ≤ c − Σⱼ≠ᵢ
/// min(sⱼ·xⱼ)`, repeated until no bound moves (a bound that lands on a
/// hole moves on to the next value, which may tighten the others again),
/// so one call reaches the propagator's fixpoint. With two variables fixed
/// the third is fixed (or the call fails); entailed once all three are
/// fixed. Holes inside the bounds are not reasoned about. This is the
/// pruning of the general [`Linear`](super::Linear) `=` on three terms, at
/// O(1) a call with no per-term state: no incremental sums to keep, no
/// event handler, six bound reads and at most six bound changes a round;
/// at most 0.32 µs a call, search included (`cargo bench -p csp-core
/// --bench library -- ternary`). Local search: violations are `|Σ − c|`.
#[derive(Debug, Clone)]
pub struct TernaryEq {
    vars: [VarId; 3],
    /// `true` where the sign is `−1`.
    neg: [bool; 3],
    c: i64,
}

impl TernaryEq {
    /// A reason: every term but `skip` at its high end (`high`: `x ≤ max`
    /// for a plus sign, `x ≥ min` for a minus) or its low end.
    fn terms_at(&self, skip: Option<usize>, high: bool) -> impl FnOnce(&mut Premises<'_>) + '_ {
        move |r: &mut Premises<'_>| {
            for i in (0..3).filter(|&i| Some(i) != skip) {
                if self.neg[i] == high {
                    r.at_least(self.vars[i]);
                } else {
                    r.at_most(self.vars[i]);
                }
            }
        }
    }

    /// `Σ signs[i]·vars[i] = c`; each sign must be `1` or `−1` (`None`
    /// otherwise). Use [`Model::post`](crate::Model::post) to add it to a
    /// model (a repeated variable makes it checker-only there).
    pub fn new(vars: [VarId; 3], signs: [i64; 3], c: i64) -> Option<TernaryEq> {
        if signs.iter().any(|&s| s != 1 && s != -1) {
            return None;
        }
        Some(TernaryEq {
            vars,
            neg: signs.map(|s| s < 0),
            c,
        })
    }

    /// `d = y − x`.
    pub fn difference(d: VarId, y: VarId, x: VarId) -> TernaryEq {
        TernaryEq {
            vars: [d, y, x],
            neg: [false, true, false],
            c: 0,
        }
    }

    /// The sum `Σ sᵢ·vᵢ` (exact: three `i32` values fit `i64`).
    fn sum(&self, v: &[Value]) -> i64 {
        v.iter()
            .zip(self.neg)
            .map(|(&v, n)| if n { -(v as i64) } else { v as i64 })
            .sum()
    }

    /// Bounds reasoning to a fixpoint; entails when all three are fixed.
    fn enforce(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let c = self.c;
        loop {
            // Term bounds: sᵢ·xᵢ ∈ [lo[i], hi[i]].
            let mut lo = [0i64; 3];
            let mut hi = [0i64; 3];
            for i in 0..3 {
                let (a, b) = (p.min(self.vars[i]) as i64, p.max(self.vars[i]) as i64);
                (lo[i], hi[i]) = if self.neg[i] { (-b, -a) } else { (a, b) };
            }
            let (sl, sh) = (lo[0] + lo[1] + lo[2], hi[0] + hi[1] + hi[2]);
            // Also keeps `c` within the sums' range before the differences
            // below, so they cannot overflow.
            if sl > c {
                return Err(p.fail(self.terms_at(None, false)));
            }
            if sh < c {
                return Err(p.fail(self.terms_at(None, true)));
            }
            if sl == sh {
                // All fixed, and the sum is `c`.
                p.entail();
                return Ok(());
            }
            let mut again = false;
            for i in 0..3 {
                let x = self.vars[i];
                // The other two terms' bounds leave sᵢ·xᵢ in [tl, th].
                let (tl, th) = (c - (sh - hi[i]), c - (sl - lo[i]));
                // The reasons: the other two terms at their high (for a
                // new low) or low (for a new high) ends.
                if tl > lo[i] {
                    let why = self.terms_at(Some(i), true);
                    let changed = if self.neg[i] {
                        p.set_max(x, clamp(-tl as i128), why)?
                    } else {
                        p.set_min(x, clamp(tl as i128), why)?
                    };
                    again |= changed;
                }
                if th < hi[i] {
                    let why = self.terms_at(Some(i), false);
                    let changed = if self.neg[i] {
                        p.set_min(x, clamp(-th as i128), why)?
                    } else {
                        p.set_max(x, clamp(th as i128), why)?
                    };
                    again |= changed;
                }
            }
            if !again {
                return Ok(());
            }
        }
    }
}

impl Constraint for TernaryEq {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.sum(values) == self.c
    }
    fn name(&self) -> &str {
        "ternary-eq"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let terms: Vec<String> = vars
            .iter()
            .zip(self.neg)
            .map(|(x, n)| crate::minizinc::term(if n { -1 } else { 1 }, x))
            .collect();
        Some(format!("{} = {}", terms.join(" + "), self.c))
    }
    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.enforce(pruner)
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.enforce(pruner)
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(TernaryEqProp(self)))
    }
    fn violations(&self, values: &[Value]) -> u64 {
        (self.sum(values) as i128 - self.c as i128).unsigned_abs() as u64
    }
}

/// The propagator of [`TernaryEq`]: stateless, scheduled on bound events
/// without an event handler.
#[derive(Debug)]
struct TernaryEqProp<'a>(&'a TernaryEq);

impl Propagator for TernaryEqProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        for (i, &x) in self.0.vars.iter().enumerate() {
            setup.subscribe(x, i, Events::BOUNDS);
        }
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.0.enforce(p)
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn is_idempotent(&self) -> bool {
        true
    }
    fn name(&self) -> &str {
        "ternary-eq"
    }
}
