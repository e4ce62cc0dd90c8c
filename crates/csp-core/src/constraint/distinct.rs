//! All-different at a chosen strength ([`Consistency`]), like Gecode's
//! `distinct` with `IPL_VAL`, `IPL_BND` and `IPL_DOM`, and
//! all-different-except (one value exempt).

use super::alldiff_bounds::BoundsProp;
use super::alldiff_domain::{DomainProp, ValueIndex};
use super::{AllDifferent, Constraint, Pruner};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Event, Events, Propagator, Setup, StateInt};
use crate::{Model, ModelError};

/// How strongly an all-different constraint prunes (Gecode's integer
/// propagation levels `IPL_VAL`, `IPL_BND`, `IPL_DOM`).
///
/// Stronger levels remove more values per call, so the search needs fewer
/// nodes, at a higher cost per call. All three are exact on fixed scopes;
/// with `n` variables:
///
/// | level | removes | cost per call |
/// |---|---|---|
/// | `Value` | a fixed variable's value from the others | O(n) per fixed variable |
/// | `Bounds` | also bounds inside Hall intervals | O(n log n), O(n) when few bounds moved |
/// | `Domain` | every value in no solution of the constraint alone | O(n·m/64 + e) for `m` values, `e = Σ|D|` |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Consistency {
    /// Value consistency: what [`Model::all_different`] does (with, under
    /// maintained arc consistency, hidden singles and the pigeonhole check
    /// when the values fit one 64-bit window).
    #[default]
    Value,
    /// Bounds consistency: every variable's minimum and maximum belong to a
    /// solution of the constraint in which the others take values within
    /// their bounds (López-Ortiz, Quimper, Tromp and van Beek, IJCAI 2003),
    /// plus value consistency.
    Bounds,
    /// Domain (generalised arc) consistency: every value left belongs to a
    /// solution of the constraint (Régin, AAAI 1994). Limited to
    /// [`MAX_DOMAIN_VALUES`](crate::constraint::MAX_DOMAIN_VALUES) distinct
    /// values over the declared domains.
    Domain,
}

impl std::str::FromStr for Consistency {
    type Err = String;
    /// Parses `value`, `bounds` or `domain` (also Gecode's `val`, `bnd`, `dom`).
    fn from_str(s: &str) -> Result<Consistency, String> {
        match s {
            "value" | "val" => Ok(Consistency::Value),
            "bounds" | "bnd" => Ok(Consistency::Bounds),
            "domain" | "dom" => Ok(Consistency::Domain),
            _ => Err(format!(
                "unknown consistency '{s}' (expected value, bounds or domain)"
            )),
        }
    }
}

impl std::fmt::Display for Consistency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Consistency::Value => "value",
            Consistency::Bounds => "bounds",
            Consistency::Domain => "domain",
        })
    }
}

/// All-different at bounds or domain consistency: built by
/// [`Model::all_different_with`], which chooses the propagator.
///
/// The checker, the partial check and the local-search violations (pairs
/// sharing a value beyond the first, `Σ_v (count(v) − 1)⁺`) are those of
/// [`AllDifferent`]; forward checking and arc consistency run the
/// propagator of the chosen [`Consistency`], under both inference levels
/// (see its table for the cost per call).
#[derive(Debug)]
pub struct Distinct {
    base: AllDifferent,
    consistency: Consistency,
    /// The values' dense indices, for `Domain`.
    index: Option<ValueIndex>,
}

impl Distinct {
    /// The propagation strength.
    pub fn consistency(&self) -> Consistency {
        self.consistency
    }
}

impl Constraint for Distinct {
    fn scope(&self) -> &[VarId] {
        self.base.scope()
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.base.is_satisfied(values)
    }
    fn name(&self) -> &str {
        "all-different"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        self.base.to_minizinc(vars)
    }
    fn is_consistent_partial(&self, values: &[Option<Value>]) -> bool {
        self.base.is_consistent_partial(values)
    }
    fn forward_check(&self, pruner: &mut Pruner<'_>, changed: usize) -> Result<(), Conflict> {
        self.base.forward_check(pruner, changed)
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.base.propagate(pruner)
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        let vars = self.base.vars();
        match (self.consistency, &self.index) {
            (Consistency::Bounds, _) => Some(Box::new(BoundsProp::new(vars))),
            (Consistency::Domain, Some(index)) => {
                Some(Box::new(DomainProp::new(vars, index, None)))
            }
            _ => None,
        }
    }
    fn violations(&self, values: &[Value]) -> u64 {
        self.base.violations(values)
    }
    fn delta(&self, values: &[Value], pos: usize, new: Value) -> i64 {
        self.base.delta(values, pos, new)
    }
}

/// All-different except one value: the variables that do not take `except`
/// take pairwise distinct values (any number may take `except`). Built by
/// [`Model::all_different_except`] and
/// [`Model::all_different_except_with`].
///
/// # Pruning
/// * [`Consistency::Value`]: when a variable is fixed to `v ≠ except`, `v`
///   is removed from the others. O(n) per fixed variable.
/// * [`Consistency::Domain`] (and `Bounds`, which Hall intervals cannot serve
///   here since `except` may be shared): Régin's matching algorithm with one
///   private copy of `except` per variable, so every value left belongs to a
///   solution of the constraint. Cost as for [`Distinct`].
/// * local search: `Σ_v (count(v) − 1)⁺` over the values other than `except`.
#[derive(Debug)]
pub struct AllDifferentExcept {
    vars: Vec<VarId>,
    except: Value,
    consistency: Consistency,
    index: Option<ValueIndex>,
}

impl AllDifferentExcept {
    /// The propagation strength asked for.
    pub fn consistency(&self) -> Consistency {
        self.consistency
    }

    /// The exempt value.
    pub fn except(&self) -> Value {
        self.except
    }

    /// The values other than `except`, sorted.
    fn others(&self, values: &[Value]) -> smallvec::SmallVec<[Value; 32]> {
        let mut v: smallvec::SmallVec<[Value; 32]> = values
            .iter()
            .copied()
            .filter(|&v| v != self.except)
            .collect();
        v.sort_unstable();
        v
    }
}

impl Constraint for AllDifferentExcept {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.violations(values) == 0
    }
    fn name(&self) -> &str {
        "all-different-except"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        Some(format!(
            "alldifferent_except({}, {{{}}})",
            crate::minizinc::list(vars),
            self.except
        ))
    }
    fn is_consistent_partial(&self, values: &[Option<Value>]) -> bool {
        let fixed: smallvec::SmallVec<[Value; 32]> = values.iter().flatten().copied().collect();
        self.is_satisfied(&fixed)
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        match &self.index {
            Some(index) => Some(Box::new(DomainProp::new(
                &self.vars,
                index,
                Some(self.except),
            ))),
            None => Some(Box::new(FixedValueProp::new(&self.vars, Some(self.except)))),
        }
    }
    fn violations(&self, values: &[Value]) -> u64 {
        self.others(values)
            .windows(2)
            .filter(|w| w[0] == w[1])
            .count() as u64
    }
}

/// Subscribes to `events` on every variable of `vars`, position `i` for
/// `vars[i]` (the usual subscription of a global constraint).
pub(crate) fn subscribe_all(setup: &mut Setup<'_>, vars: &[VarId], events: Events) {
    for (i, &x) in vars.iter().enumerate() {
        setup.subscribe(x, i, events);
    }
}

/// Removes the value of the variable fixed at `pos` from the others, unless
/// it is `except`. O(n).
pub(crate) fn remove_from_others(
    p: &mut Pruner<'_>,
    vars: &[VarId],
    pos: usize,
    except: Option<Value>,
) -> Result<(), Conflict> {
    let v = p.min(vars[pos]);
    if Some(v) == except {
        return Ok(());
    }
    for (j, &y) in vars.iter().enumerate() {
        if j != pos {
            p.remove(y, v, Literal::Eq(vars[pos], v))?;
        }
    }
    Ok(())
}

/// Value consistency by fixed-variable events: each fixed value (but
/// `except`) is removed from the others, once per fixing.
#[derive(Debug)]
pub(crate) struct FixedValueProp<'a> {
    vars: &'a [VarId],
    except: Option<Value>,
    /// Reversible: 1 once the variables fixed before the first call were
    /// handled (later ones arrive through `notify`).
    rooted: Option<StateInt>,
}

impl<'a> FixedValueProp<'a> {
    pub(crate) fn new(vars: &'a [VarId], except: Option<Value>) -> FixedValueProp<'a> {
        FixedValueProp {
            vars,
            except,
            rooted: None,
        }
    }

    /// Removes the values fixed before this propagator's first call (or
    /// since backtracking above it); a no-op afterwards.
    pub(crate) fn first_call(
        p: &mut Pruner<'_>,
        rooted: Option<StateInt>,
        vars: &[VarId],
        except: Option<Value>,
    ) -> Result<(), Conflict> {
        let rooted = rooted.expect("setup ran");
        if p.get(rooted) != 0 {
            return Ok(());
        }
        p.set(rooted, 1);
        for pos in 0..vars.len() {
            if p.is_fixed(vars[pos]) {
                remove_from_others(p, vars, pos, except)?;
            }
        }
        Ok(())
    }
}

impl Propagator for FixedValueProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, self.vars, Events::FIXED);
        self.rooted = Some(setup.new_int(0));
    }

    fn notify(&mut self, p: &mut Pruner<'_>, pos: usize, _event: Event) -> Result<bool, Conflict> {
        remove_from_others(p, self.vars, pos, self.except)?;
        Ok(p.get(self.rooted.expect("setup ran")) == 0)
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        Self::first_call(p, self.rooted, self.vars, self.except)
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "all-different-except (value)"
    }
}

/// `ModelError::ForeignVar` for the first variable this model did not create.
fn check_owned(m: &Model, constraint: &'static str, vars: &[VarId]) -> Result<(), ModelError> {
    match vars.iter().find(|x| x.index() >= m.num_vars()) {
        Some(x) => Err(ModelError::ForeignVar {
            constraint,
            index: x.index(),
            num_vars: m.num_vars(),
        }),
        None => Ok(()),
    }
}

/// The value index of `vars`' declared domains, for domain consistency.
fn value_index(
    m: &Model,
    constraint: &'static str,
    vars: &[VarId],
) -> Result<ValueIndex, ModelError> {
    ValueIndex::of_domains(vars.iter().map(|&x| m.domain(x)))
        .map_err(|reason| ModelError::Invalid { constraint, reason })
}

impl Model {
    /// All of `vars` take distinct values, propagated at the given
    /// [`Consistency`] (see [`Distinct`]). `Consistency::Value` is
    /// [`Model::all_different`] itself.
    ///
    /// ```
    /// use csp_core::constraint::Consistency;
    /// use csp_core::{Domain, Model, Search};
    /// // Three variables over two values: domain consistency sees the
    /// // pigeonhole at the root, before any search.
    /// let mut m = Model::new();
    /// let x = m.new_vars(3, Domain::range(1, 2)).unwrap();
    /// m.all_different_with(&x, Consistency::Domain).unwrap();
    /// let r = Search::new(&m).count().unwrap();
    /// assert_eq!(r.count, 0);
    /// assert_eq!(r.stats.nodes, 0);
    /// ```
    ///
    /// Fails with [`ModelError::Invalid`] for `Domain` when the declared
    /// domains hold more than
    /// [`MAX_DOMAIN_VALUES`](crate::constraint::MAX_DOMAIN_VALUES) distinct
    /// values.
    pub fn all_different_with(
        &mut self,
        vars: &[VarId],
        consistency: Consistency,
    ) -> Result<ConstraintId, ModelError> {
        check_owned(self, "all-different", vars)?;
        let index = match consistency {
            Consistency::Value => return self.all_different(vars),
            Consistency::Bounds => None,
            Consistency::Domain => Some(value_index(self, "all-different", vars)?),
        };
        self.post(Distinct {
            base: AllDifferent::new(vars.to_vec(), vec![0; vars.len()]),
            consistency,
            index,
        })
    }

    /// The variables of `vars` that do not take `except` take distinct
    /// values, at value consistency (see [`AllDifferentExcept`]).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// // 0 may repeat, 1 and 2 may not.
    /// let mut m = Model::new();
    /// let x = m.new_vars(3, Domain::range(0, 2)).unwrap();
    /// m.all_different_except(&x, 0).unwrap();
    /// // 000; one non-zero (3 places × 2 values); two distinct non-zeros
    /// // (3 places for the 0 × 2 orders); three non-zeros cannot differ.
    /// assert_eq!(Search::new(&m).count().unwrap().count, 1 + 6 + 6);
    /// ```
    pub fn all_different_except(
        &mut self,
        vars: &[VarId],
        except: Value,
    ) -> Result<ConstraintId, ModelError> {
        self.all_different_except_with(vars, except, Consistency::Value)
    }

    /// [`Model::all_different_except`] at a chosen strength: `Value`, or
    /// `Domain` (`Bounds` runs the domain propagator: Hall intervals do not
    /// apply when a value may repeat).
    pub fn all_different_except_with(
        &mut self,
        vars: &[VarId],
        except: Value,
        consistency: Consistency,
    ) -> Result<ConstraintId, ModelError> {
        check_owned(self, "all-different-except", vars)?;
        let index = match consistency {
            Consistency::Value => None,
            _ => Some(value_index(self, "all-different-except", vars)?),
        };
        self.post(AllDifferentExcept {
            vars: vars.to_vec(),
            except,
            consistency,
            index,
        })
    }
}
