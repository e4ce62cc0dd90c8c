//! From FlatZinc items to a csp [`Model`]: names resolved, variables
//! declared, every constraint mapped onto a csp propagator (see
//! [`crate::builtins`]), the output items and the goal recorded.

use std::collections::HashMap;

use csp_core::constraint::Consistency;
use csp_core::constraint::CumulativeStrength;
use csp_core::{ConstraintId, Domain, Model, Value, VarId};
use csp_text::TextError;

use crate::ast::{Annotation, BaseType, Expr, Goal, IntSet, Item, Pos, Type};
use crate::builtins;
use crate::memory::Budget;

/// The domain given to `var int` without bounds: every `i32` but the two
/// extremes, so that `x + 1` and `−x` of any value stay in range.
pub const INT_MIN: Value = i32::MIN + 1;
/// See [`INT_MIN`].
pub const INT_MAX: Value = i32::MAX - 1;

/// A resolved argument: a constant, a variable or an array of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// An integer constant.
    Int(i64),
    /// A Boolean constant.
    Bool(bool),
    /// A constant set of integers.
    Set(IntSet),
    /// A decision variable (Booleans are 0/1 variables).
    Var(VarId),
    /// `x + k`: a variable MiniZinc introduced as an offset of another
    /// (`int_lin_eq(... ) :: defines_var`), kept as a view rather than a
    /// variable of its own.
    Offset(VarId, i64),
    /// An array.
    Array(Vec<Val>),
    /// A float or a float range (refused where used).
    Float,
    /// A string (annotations only).
    Str(String),
}

/// What the goal asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// `solve satisfy`.
    Satisfy,
    /// `solve minimize x`.
    Minimize(VarId),
    /// `solve maximize x`.
    Maximize(VarId),
}

/// One output item, in declaration order.
#[derive(Clone, Debug)]
pub struct Output {
    /// The name printed.
    pub name: String,
    /// `None` for `output_var`; the index ranges of `output_array([...])`.
    pub dims: Option<Vec<(i64, i64)>>,
    /// The elements (one for `output_var`): variables or constants.
    pub elems: Vec<Val>,
    /// Print as `true`/`false`.
    pub is_bool: bool,
}

/// A FlatZinc model ready to solve.
#[derive(Debug)]
pub struct FznModel {
    /// The csp model.
    pub model: Model,
    /// The output items, in declaration order.
    pub outputs: Vec<Output>,
    /// The goal.
    pub objective: Objective,
    /// A constraint emptied a domain while the model was built: no solution.
    pub inconsistent: bool,
    /// The variables the model declares itself (not introduced by
    /// flattening): the default decision variables.
    pub decisions: Vec<VarId>,
    /// The solve item's annotations (search strategy).
    pub search: Vec<Annotation>,
    /// Resolved arguments of the search annotations' variable lists, by
    /// annotation: see [`crate::search`].
    pub(crate) names: HashMap<String, Val>,
    /// The all-different constraints at value consistency. They run at
    /// forward checking whatever the search's inference (as Gecode's
    /// `IPL_VAL`, and fused into one propagator when they share variables,
    /// as in N-queens), unless [`FznModel::full_value_all_different`]
    /// lifts the cap.
    pub(crate) value_alldiffs: Vec<ConstraintId>,
    /// Where the model's constraints come from: per FlatZinc constraint
    /// item that posted any, the range of constraint indices it posted and
    /// where it starts, in posting order. Constraints in no range were
    /// introduced by the translation (a view's definition, say).
    pub origins: Vec<Origin>,
    /// The item that emptied a domain while the model was built (see
    /// `inconsistent`).
    pub inconsistent_at: Option<Pos>,
}

/// The constraints one FlatZinc constraint item posted (see
/// [`FznModel::origins`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The first constraint's index.
    pub first: u32,
    /// One past the last constraint's index.
    pub end: u32,
    /// Where the item starts.
    pub pos: Pos,
}

impl FznModel {
    /// The FlatZinc item that posted constraint `c`, if one did.
    ///
    /// ```
    /// use csp_fzn::{build, parse};
    /// let text = "var 1..3: x;\nvar 1..3: y;\nconstraint int_ne(x, y);\nsolve satisfy;\n";
    /// let fzn = build(&parse(text).unwrap()).unwrap();
    /// let (c, _) = fzn.model.constraints().next().unwrap();
    /// assert_eq!(fzn.origin(c).unwrap().pos.line, 3);
    /// ```
    pub fn origin(&self, c: ConstraintId) -> Option<Origin> {
        let i = c.index() as u32;
        let k = self.origins.partition_point(|o| o.end <= i);
        self.origins.get(k).copied().filter(|o| o.first <= i)
    }

    /// Lets the value all-different constraints run at the search's own
    /// inference level: under MAC they then also find hidden singles and
    /// check the pigeonhole principle (see `csp_core::AllDifferent`), at
    /// a cost per node (`fzn-csp --inference mac`).
    pub fn full_value_all_different(&mut self) {
        for &c in &self.value_alldiffs {
            // Capping at MAC, the highest level, lifts the cap; the ids
            // come from this model, so this cannot fail.
            let _ = self.model.cap_inference(c, csp_core::Inference::Mac);
        }
    }

    /// The value bound to a name (variables, arrays, parameters).
    pub fn lookup(&self, name: &str) -> Option<&Val> {
        self.names.get(name)
    }
}

/// An error at a position of the FlatZinc text.
pub(crate) fn err<T>(pos: Pos, msg: impl Into<String>) -> Result<T, TextError> {
    Err(TextError::new(pos.line, pos.column, msg))
}

pub(crate) struct Builder {
    pub(crate) m: Model,
    /// `y = x + k` definitions by name (`int_lin_eq` with `defines_var(y)`),
    /// from a pass over the items before building.
    defs: HashMap<String, (String, i64)>,
    /// The same by variable, once every declaration is read: `y ↦ (x, k)`.
    pub(crate) views: HashMap<VarId, (VarId, i64)>,
    views_ready: bool,
    /// Names declared as views: their defining constraint is not posted.
    eliminated: std::collections::HashSet<String>,
    /// Variables declared without `var_is_introduced` / `is_defined_var`.
    decisions: Vec<VarId>,
    pub(crate) names: HashMap<String, Val>,
    consts: HashMap<i64, VarId>,
    /// Variables made for views that a constraint needs as variables.
    materialized: HashMap<(VarId, i64), VarId>,
    /// A unary constraint emptied a domain: the model has no solution.
    pub(crate) inconsistent: bool,
    /// The value all-different constraints (capped at forward checking).
    pub(crate) value_alldiffs: Vec<ConstraintId>,
    /// The heap's budget (`fzn-csp --memory-limit`), if any.
    budget: Option<Budget>,
    /// Did the heap outgrow it (the error on its way out says where)?
    over_budget: bool,
    /// Where the constraints come from (see [`FznModel::origins`]).
    origins: Vec<Origin>,
    /// The item that emptied a domain.
    inconsistent_at: Option<Pos>,
    /// The constraint ranges of items named by `mzn_constraint_name`, and
    /// their names (given to the model's constraints at the end).
    named: Vec<(u32, u32, String)>,
    /// How the `cumulative` constraints propagate
    /// (`fzn-csp --cumulative-strength`).
    pub(crate) cumulative: CumulativeStrength,
    /// Give the strict `diffn` order literals
    /// ([`BuildOptions::order_literals`]).
    pub(crate) order_literals: bool,
    /// The strength of an `all_different` the model does not annotate
    /// ([`BuildOptions::all_different`]).
    pub(crate) all_different: Option<Consistency>,
}

/// How [`build_with`] builds a model: the heap's budget and the choices
/// `fzn-csp` leaves to its flags.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildOptions {
    /// The heap's budget (`fzn-csp --memory-limit`); `None`: no budget.
    pub budget: Option<Budget>,
    /// The strength of every `cumulative` (`csp_cumulative` and
    /// `csp_cumulative_var`; `fzn-csp --cumulative-strength`).
    pub cumulative: CumulativeStrength,
    /// Post the strict `diffn`, of variable sizes (`csp_diffn_var`) and of
    /// constant ones (`csp_diffn`, then as fixed size variables), with
    /// order literals, 0/1 variables for "rectangle i lies before j on an
    /// axis" ([`Model::diffn_var_ordered`](csp_core::Model::diffn_var_ordered)),
    /// which the learning search's nogoods name as they name the reified
    /// disjuncts of MiniZinc's decomposition. `fzn-csp` sets it when it
    /// learns (its default), not when it enumerates.
    pub order_literals: bool,
    /// The strength of every `all_different` that carries no consistency
    /// annotation (`fzn-csp --all-different-strength`). `None` or
    /// `Some(Value)`: value consistency capped at forward checking, as
    /// Gecode's default (see [`FznModel::full_value_all_different`]);
    /// `Some(Bounds)`: Hall intervals, whose reasons are bounds, which is
    /// what `fzn-csp` posts when it learns (golomb-9 with its MiniZinc
    /// search: 8,250 failures against 22,544 at value consistency,
    /// `docs/benchmarks.md`); `Some(Domain)`: Régin's matching.
    pub all_different: Option<Consistency>,
}

/// Why [`build_within`] stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A mistake in the model, at its position.
    Invalid(TextError),
    /// The heap outgrew the memory budget while the item at this
    /// position was built: the model may be right, the limit too low.
    MemoryLimit(TextError),
}

impl BuildError {
    /// The positioned message, whichever the kind.
    pub fn text(&self) -> &TextError {
        match self {
            BuildError::Invalid(e) | BuildError::MemoryLimit(e) => e,
        }
    }
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.text().fmt(f)
    }
}

impl std::error::Error for BuildError {}

impl Builder {
    /// An error at `pos` when the heap has outgrown the budget (asked after
    /// every item and every few thousand variables of an array).
    fn check_memory(&mut self, pos: Pos, doing: impl FnOnce() -> String) -> Result<(), TextError> {
        let Some(budget) = self.budget else {
            return Ok(());
        };
        match budget.exceeded() {
            Some(heap) => {
                self.over_budget = true;
                err(pos, budget.message(&doing(), heap))
            }
            None => Ok(()),
        }
    }

    /// Resolves the `y = x + k` definitions to variables (once, when the
    /// first constraint is posted: FlatZinc declares everything before).
    fn ready_views(&mut self) {
        if self.views_ready {
            return;
        }
        self.views_ready = true;
        for (y, (x, k)) in &self.defs {
            if let (Some(Val::Var(y)), Some(Val::Var(x))) = (self.names.get(y), self.names.get(x)) {
                if x != y {
                    self.views.insert(*y, (*x, *k));
                }
            }
        }
    }

    /// Narrows `x`'s domain to `keep` (a unary constraint at modelling time).
    pub(crate) fn restrict(&mut self, x: VarId, keep: &Domain, pos: Pos) -> Result<(), TextError> {
        match self.m.restrict(x, keep) {
            Ok(true) => {}
            Ok(false) => self.inconsistent = true,
            Err(e) => return err(pos, e.to_string()),
        }
        Ok(())
    }

    /// The value of an expression, names resolved.
    fn resolve(&self, e: &Expr) -> Result<Val, TextError> {
        Ok(match e {
            Expr::Bool(b) => Val::Bool(*b),
            Expr::Int(v) => Val::Int(*v),
            Expr::Float(_) | Expr::FloatRange(..) => Val::Float,
            Expr::Set(s) => Val::Set(s.clone()),
            Expr::Str(s) => Val::Str(s.clone()),
            Expr::Array(es) => Val::Array(
                es.iter()
                    .map(|e| self.resolve(e))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::Ident(n, pos) => match self.names.get(n) {
                Some(v) => v.clone(),
                None => return err(*pos, format!("unknown name '{n}'")),
            },
            Expr::Access(n, i, pos) => match self.names.get(n) {
                Some(Val::Array(a)) => match usize::try_from(*i - 1).ok().and_then(|k| a.get(k)) {
                    Some(v) => v.clone(),
                    None => {
                        return err(
                            *pos,
                            format!("index {i} is out of range for '{n}' (1..{})", a.len()),
                        )
                    }
                },
                Some(_) => return err(*pos, format!("'{n}' is not an array")),
                None => return err(*pos, format!("unknown name '{n}'")),
            },
            Expr::Call(a) => return err(a.pos, format!("unexpected annotation '{}'", a.name)),
        })
    }

    /// A variable equal to `x + k` (one per view).
    pub(crate) fn materialize(&mut self, x: VarId, k: i64, pos: Pos) -> Result<VarId, TextError> {
        if let Some(&y) = self.materialized.get(&(x, k)) {
            return Ok(y);
        }
        let k32 = fit(k, pos)?;
        let y = self
            .m
            .define(x + k32)
            .map_err(|e| TextError::new(pos.line, pos.column, e.to_string()))?;
        self.materialized.insert((x, k), y);
        Ok(y)
    }

    /// A fixed variable for the constant `v` (one per value).
    pub(crate) fn constant(&mut self, v: i64, pos: Pos) -> Result<VarId, TextError> {
        if let Some(&x) = self.consts.get(&v) {
            return Ok(x);
        }
        let k = fit(v, pos)?;
        let x = self
            .m
            .new_var(Domain::singleton(k))
            .map_err(|e| TextError::new(pos.line, pos.column, e.to_string()))?;
        self.consts.insert(v, x);
        Ok(x)
    }

    fn domain(&self, base: &BaseType, pos: Pos) -> Result<Domain, TextError> {
        Ok(match base {
            BaseType::Bool => Domain::range(0, 1),
            BaseType::Int => Domain::range(INT_MIN, INT_MAX),
            BaseType::IntIn(s) => set_domain(s, pos)?,
            BaseType::Float => return err(pos, "float variables are not supported by csp"),
            BaseType::SetOfInt => return err(pos, "set variables are not supported by csp"),
        })
    }

    fn new_var(&mut self, ty: &Type, name: &str, pos: Pos) -> Result<VarId, TextError> {
        let d = self.domain(&ty.base, pos)?;
        if d.is_empty() {
            return err(pos, format!("variable '{name}' has an empty domain"));
        }
        self.m
            .new_var_named(name, d)
            .map_err(|e| TextError::new(pos.line, pos.column, e.to_string()))
    }

    /// `name` as the view `x + k` when it is defined so and `x` is already
    /// declared; `x`'s domain is narrowed to what `name`'s domain allows.
    fn view(&mut self, ty: &Type, name: &str, pos: Pos) -> Result<Option<Val>, TextError> {
        let Some((base, k)) = self.defs.get(name).cloned() else {
            return Ok(None);
        };
        let Some(Val::Var(x)) = self.names.get(&base).cloned() else {
            return Ok(None);
        };
        if i32::try_from(k).is_err() {
            return Ok(None);
        }
        let d = self.domain(&ty.base, pos)?;
        let (Some(lo), Some(hi)) = (d.min(), d.max()) else {
            return Ok(None);
        };
        if !d.is_range() {
            return Ok(None);
        }
        // y ∈ lo..hi and y = x + k: x ∈ lo − k .. hi − k.
        let shift = |v: i32| (v as i64 - k).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        self.restrict(x, &Domain::range(shift(lo), shift(hi)), pos)?;
        self.eliminated.insert(name.to_string());
        Ok(Some(Val::Offset(x, k)))
    }

    fn declare(
        &mut self,
        ty: &Type,
        name: &str,
        value: &Option<Expr>,
        pos: Pos,
    ) -> Result<(), TextError> {
        if self.names.contains_key(name) {
            return err(pos, format!("'{name}' is declared twice"));
        }
        if !ty.var {
            let v = match value {
                Some(e) => self.resolve(e)?,
                None => return err(pos, format!("parameter '{name}' has no value")),
            };
            if let (Some(dims), Val::Array(a)) = (&ty.array, &v) {
                declared_len(dims, a, name, pos)?;
            }
            self.names.insert(name.to_string(), v);
            return Ok(());
        }
        if matches!(ty.base, BaseType::Float | BaseType::SetOfInt) {
            let what = if ty.base == BaseType::Float {
                "float"
            } else {
                "set"
            };
            return err(
                pos,
                format!("'{name}': {what} variables are not supported by csp"),
            );
        }
        let v = match (&ty.array, value) {
            (None, None) => match self.view(ty, name, pos)? {
                Some(v) => v,
                None => Val::Var(self.new_var(ty, name, pos)?),
            },
            (None, Some(e)) => {
                // `var 1..5: x = y;` (an alias) or `= 3` (a constant).
                let v = self.resolve(e)?;
                let x = match v {
                    Val::Var(x) => x,
                    Val::Offset(..) => {
                        self.names.insert(name.to_string(), v);
                        return Ok(());
                    }
                    Val::Int(k) => self.constant(k, pos)?,
                    Val::Bool(b) => self.constant(b as i64, pos)?,
                    _ => return err(pos, format!("'{name}' is given a value of the wrong kind")),
                };
                // The declared domain still holds: restrict the alias.
                if let BaseType::IntIn(s) = &ty.base {
                    self.restrict(x, &set_domain(s, pos)?, pos)?;
                }
                Val::Var(x)
            }
            (Some(dims), Some(e)) => match self.resolve(e)? {
                Val::Array(a) => {
                    declared_len(dims, &a, name, pos)?;
                    Val::Array(a)
                }
                _ => {
                    return err(
                        pos,
                        format!("array '{name}' is given a value that is not an array"),
                    )
                }
            },
            (Some(dims), None) => {
                // The size comes from the text alone (`array [1..1000000000]`
                // is a short line): held to a limit before anything is made.
                let n = array_len(dims, &format!("array '{name}'"), pos)?;
                let before = self.m.num_vars();
                if n > MAX_VARIABLES.saturating_sub(before) {
                    return err(
                        pos,
                        format!(
                            "array '{name}' of {n} variables takes the model past csp's \
                             limit of {MAX_VARIABLES} variables ({before} before it)"
                        ),
                    );
                }
                let mut a = Vec::new();
                if a.try_reserve_exact(n).is_err() {
                    return err(
                        pos,
                        format!("not enough memory for the {n} variables of array '{name}'"),
                    );
                }
                for i in 0..n {
                    if i % 4096 == 4095 {
                        self.check_memory(pos, || format!("declaring array '{name}'"))?;
                    }
                    a.push(Val::Var(self.new_var(
                        ty,
                        &format!("{name}[{}]", i + 1),
                        pos,
                    )?));
                }
                Val::Array(a)
            }
        };
        self.names.insert(name.to_string(), v);
        Ok(())
    }
}

/// The most variables a FlatZinc model may have: an array declaration's
/// size is checked against it before the array is made (the text does not
/// bound it: `array [1..1000000000] of var 0..1: xs;` is one short line).
/// A variable takes about 140 bytes in the model and the search (measured
/// with 4·10^6 of them), so a model at the limit needs about 2.3 GiB.
pub const MAX_VARIABLES: usize = 1 << 24;

/// The number of elements of index ranges `dims` (each `lo..hi`, empty
/// when `hi < lo`), or an error at `pos` naming `what` (`array 'xs'`) when
/// it does not fit in a `usize`.
fn array_len(dims: &[(i64, i64)], what: &str, pos: Pos) -> Result<usize, TextError> {
    let n = dims.iter().try_fold(1usize, |n, &(lo, hi)| {
        let len = if hi < lo {
            0
        } else {
            usize::try_from(i128::from(hi) - i128::from(lo) + 1).ok()?
        };
        n.checked_mul(len)
    });
    match n {
        Some(n) => Ok(n),
        None => {
            let ranges: Vec<String> = dims.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect();
            err(
                pos,
                format!(
                    "{what} has more elements than can be counted ([{}])",
                    ranges.join(", ")
                ),
            )
        }
    }
}

/// Checks that array `name`, declared with index ranges `dims`, is given
/// as many elements as they hold.
fn declared_len(dims: &[(i64, i64)], a: &[Val], name: &str, pos: Pos) -> Result<(), TextError> {
    let n = array_len(dims, &format!("array '{name}'"), pos)?;
    if a.len() != n {
        return err(
            pos,
            format!(
                "array '{name}' is declared with {n} elements but given {}",
                a.len()
            ),
        );
    }
    Ok(())
}

/// The domain of a constant set (empty for `{}` or `lo..hi` with lo > hi);
/// ranges are clipped to [`INT_MIN`]..[`INT_MAX`].
pub(crate) fn set_domain(s: &IntSet, pos: Pos) -> Result<Domain, TextError> {
    Ok(match s {
        IntSet::Range(lo, hi) => {
            Domain::range(fit(*lo, pos)?.max(INT_MIN), fit(*hi, pos)?.min(INT_MAX))
        }
        IntSet::Values(_) => Domain::values(
            s.values()
                .into_iter()
                .map(|v| fit(v, pos))
                .collect::<Result<Vec<_>, _>>()?,
        ),
    })
}

/// `v` as a csp value (`i32`), or an error naming it.
pub(crate) fn fit(v: i64, pos: Pos) -> Result<Value, TextError> {
    Value::try_from(v).map_err(|_| {
        TextError::new(
            pos.line,
            pos.column,
            format!("the value {v} does not fit in csp's 32-bit integers"),
        )
    })
}

/// `None` for `output_var`, the index ranges for `output_array`.
type OutputDims = Option<Vec<(i64, i64)>>;

fn output_dims(anns: &[Annotation], pos: Pos) -> Result<Option<OutputDims>, TextError> {
    for a in anns {
        match a.name.as_str() {
            "output_var" => return Ok(Some(None)),
            "output_array" => {
                let dims = match a.args.first() {
                    Some(Expr::Array(ds)) => ds
                        .iter()
                        .map(|d| match d {
                            Expr::Set(IntSet::Range(lo, hi)) => Ok((*lo, *hi)),
                            _ => err(pos, "output_array expects index ranges like [1..3]"),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    _ => return err(a.pos, "output_array expects a list of index ranges"),
                };
                return Ok(Some(Some(dims)));
            }
            _ => {}
        }
    }
    Ok(None)
}

/// Whether the annotations say `defines_var(y)` for a `y` kept as a view.
fn defines_eliminated(anns: &[Annotation], eliminated: &std::collections::HashSet<String>) -> bool {
    defined_var(anns).is_some_and(|n| eliminated.contains(n))
}

/// The `y` of a `defines_var(y)` annotation.
fn defined_var(anns: &[Annotation]) -> Option<&str> {
    anns.iter()
        .find_map(|a| match (a.name.as_str(), a.args.first()) {
            ("defines_var", Some(Expr::Ident(n, _))) => Some(n.as_str()),
            _ => None,
        })
}

/// The integers of an array literal, if every element is one.
fn ints_of(es: &[Expr]) -> Option<Vec<i64>> {
    es.iter()
        .map(|e| match e {
            Expr::Int(v) => Some(*v),
            _ => None,
        })
        .collect()
}

/// The names of an `Expr` list (`[x, y]`), if every element is a name.
fn names_of(e: &Expr) -> Option<Vec<&str>> {
    match e {
        Expr::Array(es) => es
            .iter()
            .map(|e| match e {
                Expr::Ident(n, _) => Some(n.as_str()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// `y = x + k` for every `int_lin_eq([±1, ∓1], [x, y], c) :: defines_var(y)`
/// (how MiniZinc flattens `x + k` in an argument), by the names of y.
/// Lets [`builtins`] post `all_different` over offsets of the same
/// variables as one offset all-different (N-queens' `q[i] + i`).
fn offset_definitions(items: &[Item]) -> HashMap<String, (String, i64)> {
    let mut arrays: HashMap<&str, Vec<i64>> = HashMap::new();
    let mut defs = HashMap::new();
    for item in items {
        match item {
            Item::Decl {
                ty,
                name,
                value: Some(Expr::Array(es)),
                ..
            } if !ty.var => {
                if let Some(v) = ints_of(es) {
                    arrays.insert(name, v);
                }
            }
            Item::Constraint {
                name, args, anns, ..
            } if name == "int_lin_eq" && args.len() == 3 => {
                let coefs = match &args[0] {
                    Expr::Array(es) => ints_of(es),
                    Expr::Ident(n, _) => arrays.get(n.as_str()).cloned(),
                    _ => None,
                };
                let (Some(coefs), Some(vars), Expr::Int(c)) = (coefs, names_of(&args[1]), &args[2])
                else {
                    continue;
                };
                if let (Some(y), [a, b], [u, v]) =
                    (defined_var(anns), coefs.as_slice(), vars.as_slice())
                {
                    // a·u + b·v = c with {a, b} = {1, −1}: the defined one is the
                    // other plus a constant.
                    let def = match (*a, *b) {
                        (1, -1) if y == *v => Some((u, -c)), // v = u − c
                        (1, -1) if y == *u => Some((v, *c)), // u = v + c
                        (-1, 1) if y == *v => Some((u, *c)), // v = u + c
                        (-1, 1) if y == *u => Some((v, -c)), // u = v − c
                        _ => None,
                    };
                    if let Some((x, k)) = def {
                        defs.insert(y.to_string(), (x.to_string(), k));
                    }
                }
            }
            _ => {}
        }
    }
    defs
}

/// The name MiniZinc gave a constraint item: the string of its
/// `mzn_constraint_name("…")` annotation (`constraint :: "name" …`), or
/// else of its `mzn_expression_name("…")` (`expression :: "name"`).
fn constraint_name(anns: &[Annotation]) -> Option<&str> {
    let find = |key: &str| {
        anns.iter()
            .find_map(|a| match (a.name.as_str(), a.args.as_slice()) {
                (n, [Expr::Str(s)]) if n == key && !s.is_empty() => Some(s.as_str()),
                _ => None,
            })
    };
    find("mzn_constraint_name").or_else(|| find("mzn_expression_name"))
}

/// Builds the csp model of a parsed FlatZinc model.
///
/// ```
/// use csp_fzn::{build, parse, Objective};
/// let items = parse("var 1..3: x :: output_var;\nconstraint int_le(2, x);\nsolve minimize x;\n").unwrap();
/// let fzn = build(&items).unwrap();
/// assert!(matches!(fzn.objective, Objective::Minimize(_)));
/// assert_eq!(fzn.outputs[0].name, "x");
/// ```
pub fn build(items: &[Item]) -> Result<FznModel, TextError> {
    build_within(items, None).map_err(|e| e.text().clone())
}

/// [`build`] within a memory budget on the process's heap (see
/// [`crate::memory`]): past it, [`BuildError::MemoryLimit`] names the item
/// being built. `None` builds without a budget, as [`build`] does.
///
/// ```
/// use csp_fzn::memory::Budget;
/// use csp_fzn::{build_within, parse, BuildError};
/// let items = parse("array [1..100000] of var 0..1: x;\nsolve satisfy;\n").unwrap();
/// // A heap that reads 1 GB against a budget of 1 MB.
/// let tight = Budget { bytes: 1 << 20, heap: || Some(1 << 30) };
/// let e = build_within(&items, Some(tight)).unwrap_err();
/// assert!(matches!(e, BuildError::MemoryLimit(_)));
/// assert!(e.to_string().starts_with("1:1: memory limit: declaring array 'x'"), "{e}");
/// assert!(build_within(&items, None).is_ok());
/// ```
pub fn build_within(items: &[Item], budget: Option<Budget>) -> Result<FznModel, BuildError> {
    build_with(
        items,
        BuildOptions {
            budget,
            ..BuildOptions::default()
        },
    )
}

/// [`build_within`] with every choice of [`BuildOptions`]: here the
/// `cumulative` constraints at the time-table strength.
///
/// ```
/// use csp_core::constraint::CumulativeStrength;
/// use csp_fzn::{build_with, parse, BuildOptions};
/// let items = parse(
///     "array [1..2] of var 0..3: s :: output_array([1..2]);
///      constraint csp_cumulative(s, [2, 2], [1, 1], 1);
///      solve satisfy;",
/// )
/// .unwrap();
/// let opts = BuildOptions {
///     cumulative: CumulativeStrength::TimeTable,
///     ..BuildOptions::default()
/// };
/// assert!(build_with(&items, opts).is_ok());
/// ```
pub fn build_with(items: &[Item], opts: BuildOptions) -> Result<FznModel, BuildError> {
    let mut b = Builder {
        budget: opts.budget,
        cumulative: opts.cumulative,
        order_literals: opts.order_literals,
        all_different: opts.all_different,
        over_budget: false,
        m: Model::new(),
        names: HashMap::new(),
        consts: HashMap::new(),
        materialized: HashMap::new(),
        inconsistent: false,
        value_alldiffs: Vec::new(),
        defs: offset_definitions(items),
        views: HashMap::new(),
        views_ready: false,
        eliminated: Default::default(),
        decisions: Vec::new(),
        origins: Vec::new(),
        inconsistent_at: None,
        named: Vec::new(),
    };
    let (outputs, objective, search) = match build_items(&mut b, items) {
        Ok(parts) => parts,
        Err(e) if b.over_budget => return Err(BuildError::MemoryLimit(e)),
        Err(e) => return Err(BuildError::Invalid(e)),
    };
    uncap_shared_alldiffs(&mut b);
    if !b.named.is_empty() {
        let ids: Vec<ConstraintId> = b.m.constraints().map(|(c, _)| c).collect();
        for (first, end, name) in std::mem::take(&mut b.named) {
            for &c in &ids[first as usize..end as usize] {
                // The ids are this model's and the name is not empty.
                let _ = b.m.name_constraint(c, &name);
            }
        }
    }
    Ok(FznModel {
        model: b.m,
        outputs,
        objective,
        inconsistent: b.inconsistent,
        decisions: b.decisions,
        origins: b.origins,
        inconsistent_at: b.inconsistent_at,
        search,
        names: b.names,
        value_alldiffs: b.value_alldiffs,
    })
}

/// The items into `b`: the outputs, the objective and the search
/// annotations.
type Parts = (Vec<Output>, Objective, Vec<Annotation>);

fn build_items(b: &mut Builder, items: &[Item]) -> Result<Parts, TextError> {
    let mut outputs = Vec::new();
    let mut objective = None;
    let mut search = Vec::new();
    for item in items {
        match item {
            Item::Predicate { .. } => {}
            Item::Decl {
                ty,
                name,
                anns,
                value,
                pos,
            } => {
                b.declare(ty, name, value, *pos)?;
                b.check_memory(*pos, || format!("declaring '{name}'"))?;
                let introduced = anns
                    .iter()
                    .any(|a| a.name == "var_is_introduced" || a.name == "is_defined_var");
                if ty.var && value.is_none() && !introduced {
                    match &b.names[name] {
                        Val::Var(x) => b.decisions.push(*x),
                        Val::Array(a) => b.decisions.extend(a.iter().filter_map(|v| match v {
                            Val::Var(x) => Some(*x),
                            _ => None,
                        })),
                        _ => {}
                    }
                }
                if let Some(dims) = output_dims(anns, *pos)? {
                    let elems = match b.names[name].clone() {
                        Val::Array(a) => a,
                        v => vec![v],
                    };
                    if let Some(dims) = &dims {
                        let what = format!("output_array of '{name}'");
                        let n = array_len(dims, &what, *pos)?;
                        if n != elems.len() {
                            return err(
                                *pos,
                                format!(
                                    "{what} has index ranges for {n} elements, \
                                     the array has {}",
                                    elems.len()
                                ),
                            );
                        }
                    }
                    outputs.push(Output {
                        name: name.clone(),
                        dims,
                        elems,
                        is_bool: ty.base == BaseType::Bool,
                    });
                }
            }
            Item::Constraint {
                name,
                args,
                anns,
                pos,
            } => {
                b.ready_views();
                if name == "int_lin_eq" && defines_eliminated(anns, &b.eliminated) {
                    continue; // the view states it
                }
                let args = args
                    .iter()
                    .map(|e| b.resolve(e))
                    .collect::<Result<Vec<_>, _>>()?;
                let first = b.m.num_constraints() as u32;
                builtins::post(b, name, &args, anns, *pos)?;
                let end = b.m.num_constraints() as u32;
                if end > first {
                    b.origins.push(Origin {
                        first,
                        end,
                        pos: *pos,
                    });
                    // MiniZinc's `constraint :: "name" …` (2.6): the
                    // constraints' names in explanations.
                    if let Some(n) = constraint_name(anns) {
                        b.named.push((first, end, n.to_string()));
                    }
                }
                b.check_memory(*pos, || format!("posting constraint '{name}'"))?;
            }
            Item::Solve { anns, goal, pos } => {
                if objective.is_some() {
                    return err(*pos, "a second solve item");
                }
                let var = |b: &mut Builder, e: &Expr| -> Result<VarId, TextError> {
                    match b.resolve(e)? {
                        Val::Var(x) => Ok(x),
                        Val::Offset(x, k) => b.materialize(x, k, *pos),
                        Val::Int(k) => b.constant(k, *pos),
                        Val::Float => err(*pos, "float objectives are not supported by csp"),
                        _ => err(*pos, "the objective must be an integer variable"),
                    }
                };
                objective = Some(match goal {
                    Goal::Satisfy => Objective::Satisfy,
                    Goal::Minimize(e) => Objective::Minimize(var(b, e)?),
                    Goal::Maximize(e) => Objective::Maximize(var(b, e)?),
                });
                search = anns.clone();
            }
        }
        if b.inconsistent && b.inconsistent_at.is_none() {
            b.inconsistent_at = Some(match item {
                Item::Predicate { pos, .. }
                | Item::Decl { pos, .. }
                | Item::Constraint { pos, .. }
                | Item::Solve { pos, .. } => *pos,
            });
        }
    }
    let Some(objective) = objective else {
        let line = items.len();
        return Err(TextError::new(
            line.max(1),
            1,
            "the model has no solve item",
        ));
    };
    Ok((outputs, objective, search))
}

/// Lifts the forward-checking cap from every value all-different whose
/// variables other constraints also prune.
///
/// The cap (Gecode's `IPL_VAL`) pays off when all-different constraints are
/// the only ones on their variables, as in N-queens: there a domain shrinks
/// only when some variable is fixed, and forward checking misses little.
/// When another constraint (an element, a sum) removes values without
/// fixing anything, forward checking cannot see that n variables are left
/// with fewer than n values, and the search may enumerate a large domain
/// elsewhere before any variable of the all-different is fixed: the
/// MiniZinc suite's `sort` test took minutes that way. Those constraints
/// run at the search's own level, as they did before the cap.
fn uncap_shared_alldiffs(b: &mut Builder) {
    if b.value_alldiffs.is_empty() {
        return;
    }
    let mut capped = vec![false; b.m.num_constraints()];
    for &id in &b.value_alldiffs {
        capped[id.index()] = true;
    }
    let mut shared = vec![false; b.m.num_vars()];
    for (id, c) in b.m.constraints() {
        if !capped[id.index()] {
            for &x in c.scope() {
                shared[x.index()] = true;
            }
        }
    }
    let lift: Vec<ConstraintId> = b
        .value_alldiffs
        .iter()
        .copied()
        .filter(|&id| b.m.constraint(id).scope().iter().any(|x| shared[x.index()]))
        .collect();
    for id in lift {
        // The id comes from this model, so this cannot fail.
        let _ = b.m.cap_inference(id, csp_core::Inference::Mac);
    }
}
