//! FlatZinc builtins and the native globals of our MiniZinc library
//! (`share/minizinc/csp/`), each mapped onto csp constraints.
//!
//! | FlatZinc | csp |
//! |---|---|
//! | `int_eq/ne/le/lt` (+ `_reif`, `_imp`), `int_lin_eq/ne/le/lt` (+ `_reif`, `_imp`), `int_plus`, `int_minus` | [`Rel`] through [`Model::post`], [`Model::reify_with`], [`Model::half_reify`] (binary relations become the O(1) propagators) |
//! | `int_times/div/mod/abs/min/max/pow`, `array_int_maximum/minimum` | [`Model::times`] … [`Model::max`] |
//! | `array_[var_]int_element`, `array_[var_]bool_element` | [`Model::element_offset`] / [`Model::element_const_offset`] (1-based) |
//! | `bool_clause`, `array_bool_and/or/xor`, `bool_and/or/xor/not/eq/ne/le/lt` (+ reified), `bool2int`, `bool_lin_eq/le` | [`Model::clause`], [`Model::and`], [`Model::or`], [`Model::xor`], relations |
//! | `set_in`, `set_in_reif`, `set_in_imp` | [`Model::reify_in`] / [`Model::half_reify_in`] |
//! | `fzn_all_different_int`, `fzn_alldifferent_except_0`, `csp_table_int/bool`, `csp_regular`, `csp_circuit`, `csp_subcircuit`, `csp_inverse`, `fzn_global_cardinality`, `fzn_count_eq`, `fzn_among`, `fzn_nvalue`, `fzn_lex_less(eq)_int/bool`, `fzn_increasing_int/bool`, `csp_value_precede_chain` (from `seq_precede_chain`, used by `value_precede_chain`), `csp_value_precede` (from `value_precede`), `csp_disjunctive` (from `disjunctive` and `disjunctive_strict` with known durations), `csp_cumulative` (from `cumulative` with known durations, demands and capacity) and `csp_cumulative_var` (from `cumulative` with variable ones), `csp_diffn` and `csp_diffn_nonstrict` (from `diffn` and `diffn_nonstrict` with known, non-negative sizes), `csp_diffn_var` and `csp_diffn_var_nonstrict` (the same with variable sizes of lower bound at least 0), `csp_diffn_k` and `csp_diffn_nonstrict_k` (from `diffn_k` and `diffn_nonstrict_k`, sizes' lower bounds at least 0), `csp_bin_packing` and `csp_bin_packing_load` (from `bin_packing`, `bin_packing_capa`, `bin_packing_load`) | the globals of `csp_core::constraint` |

use std::collections::HashSet;

use csp_core::constraint::{
    Automaton, Consistency, ValuePrecede, ValuePrecedeChain, MAX_AUTOMATON_TABLE,
};
use csp_core::expr::sum;
use csp_core::{Domain, Expr, ModelError, Rel, Relation, VarId};
use csp_text::TextError;

use crate::ast::{Annotation, IntSet, Pos};
use crate::build::{err, fit, set_domain, Builder, Val};

type R<T> = Result<T, TextError>;

/// How a relation is posted: as a constraint, or reified by a Boolean.
#[derive(Clone, Copy)]
enum Mode {
    Post,
    /// `b ⇔ rel`.
    Iff(VarOrConst),
    /// `b ⇒ rel`.
    Imp(VarOrConst),
}

#[derive(Clone, Copy)]
enum VarOrConst {
    Var(VarId),
    Const(bool),
}

struct Ctx<'a> {
    b: &'a mut Builder,
    name: &'a str,
    pos: Pos,
    /// The variables this constraint already uses: csp posts a constraint
    /// whose scope repeats a variable as a checker only (no propagation),
    /// so a repeat becomes a fresh alias (`x' = x`) instead.
    seen: HashSet<VarId>,
}

impl Ctx<'_> {
    fn fail<T>(&self, msg: impl std::fmt::Display) -> R<T> {
        err(self.pos, format!("{}: {msg}", self.name))
    }

    fn model(&self, e: ModelError) -> TextError {
        TextError::new(
            self.pos.line,
            self.pos.column,
            format!("{}: {e}", self.name),
        )
    }

    fn int(&self, v: &Val) -> R<i64> {
        match v {
            Val::Int(k) => Ok(*k),
            Val::Bool(b) => Ok(*b as i64),
            Val::Var(x) | Val::Offset(x, _) => match self.b.m.domain(*x).size() {
                1 => {
                    let k = if let Val::Offset(_, k) = v { *k } else { 0 };
                    Ok(self.b.m.domain(*x).min().unwrap_or(0) as i64 + k)
                }
                _ => self.fail("expected a constant, found a variable"),
            },
            Val::Float => self.fail("float arguments are not supported by csp"),
            _ => self.fail("expected an integer"),
        }
    }

    fn ints(&self, v: &Val) -> R<Vec<i64>> {
        match v {
            Val::Array(a) => a.iter().map(|v| self.int(v)).collect(),
            _ => self.fail("expected an array of integers"),
        }
    }

    fn values(&self, v: &Val) -> R<Vec<i32>> {
        self.ints(v)?
            .into_iter()
            .map(|k| fit(k, self.pos))
            .collect()
    }

    fn var(&mut self, v: &Val) -> R<VarId> {
        let x = match v {
            Val::Var(x) => *x,
            Val::Offset(x, k) => self.b.materialize(*x, *k, self.pos)?,
            Val::Int(k) => self.b.constant(*k, self.pos)?,
            Val::Bool(t) => self.b.constant(*t as i64, self.pos)?,
            Val::Float => return self.fail("float arguments are not supported by csp"),
            _ => return self.fail("expected a variable or a constant"),
        };
        if self.seen.insert(x) {
            return Ok(x);
        }
        // A repeat: a fresh variable over the same domain, equal to `x`.
        let d = self.b.m.domain(x).clone();
        let fixed = d.size() == 1;
        let y = self.b.m.new_var(d).map_err(|e| self.model(e))?;
        if !fixed {
            self.b.m.equal(y, x, 0).map_err(|e| self.model(e))?;
        }
        Ok(y)
    }

    fn vars(&mut self, v: &Val) -> R<Vec<VarId>> {
        match v {
            Val::Array(a) => a.iter().map(|v| self.var(v)).collect(),
            _ => self.fail("expected an array"),
        }
    }

    fn set(&self, v: &Val) -> R<IntSet> {
        match v {
            Val::Set(s) => Ok(s.clone()),
            Val::Float => self.fail("float sets are not supported by csp"),
            _ => self.fail("expected a constant set of integers"),
        }
    }

    fn reif(&self, v: &Val) -> R<VarOrConst> {
        match v {
            Val::Var(x) => Ok(VarOrConst::Var(*x)),
            Val::Bool(b) => Ok(VarOrConst::Const(*b)),
            Val::Int(k @ (0 | 1)) => Ok(VarOrConst::Const(*k == 1)),
            _ => self.fail("expected a Boolean"),
        }
    }

    /// `Σ aᵢ·xᵢ ⋈ c` under `mode`; constant terms are folded into `c`.
    fn linear(&mut self, terms: &[(i64, Val)], rel: Relation, c: i64, mode: Mode) -> R<()> {
        let mut e = Expr::constant(0);
        let mut k = c as i128;
        for (a, v) in terms {
            match v {
                Val::Var(x) | Val::Offset(x, _) => {
                    let a = i32::try_from(*a).or_else(|_| {
                        self.fail(format!("coefficient {a} does not fit in 32 bits"))
                    })?;
                    e = e + a * *x;
                    if let Val::Offset(_, off) = v {
                        k -= a as i128 * *off as i128;
                    }
                }
                _ => k -= *a as i128 * self.int(v)? as i128,
            }
        }
        // Within ±2⁶²: the library's expressions negate and add their
        // constants in 64 bits (i64::MIN here overflowed in Expr::scale:
        // a panic in a debug build, a wrapped constant otherwise).
        const K: i128 = 1 << 62;
        if !(-K..=K).contains(&k) {
            return self.fail(format!(
                "the constant {k} of a linear constraint is beyond csp's range (±2^62)"
            ));
        }
        let k = k as i64;
        // A constant Boolean turns reification into a plain constraint.
        let (rel, mode) = match mode {
            Mode::Iff(VarOrConst::Const(true)) | Mode::Imp(VarOrConst::Const(true)) => {
                (rel, Mode::Post)
            }
            Mode::Iff(VarOrConst::Const(false)) => (rel.negate(), Mode::Post),
            Mode::Imp(VarOrConst::Const(false)) => return Ok(()),
            m => (rel, m),
        };
        // No variable, posted: a comparison of constants (the library
        // rejects an empty sum).
        if let (Mode::Post, true) = (mode, vars_only(terms).is_empty()) {
            let holds = match rel {
                Relation::Eq => 0 == k,
                Relation::Ne => 0 != k,
                Relation::Le => 0 <= k,
                Relation::Lt => 0 < k,
                Relation::Ge => 0 >= k,
                Relation::Gt => 0 > k,
            };
            if !holds {
                self.b.inconsistent = true;
            }
            return Ok(());
        }
        // One variable, posted: narrow its domain instead (a ≠ stays a constraint).
        if let (Mode::Post, [(a, Val::Var(x))]) = (mode, vars_only(terms).as_slice()) {
            if let Some(d) = unary(*a, rel, k) {
                return self.b.restrict(*x, &d, self.pos);
            }
        }
        let rhs = Expr::constant(k);
        let r: Rel = match rel {
            Relation::Eq => e.eq(rhs),
            Relation::Ne => e.ne(rhs),
            Relation::Le => e.le(rhs),
            Relation::Lt => e.lt(rhs),
            Relation::Ge => e.ge(rhs),
            Relation::Gt => e.gt(rhs),
        };
        let m = &mut self.b.m;
        let res = match mode {
            Mode::Iff(VarOrConst::Var(b)) => m.reify_with(r, b),
            Mode::Imp(VarOrConst::Var(b)) => m.half_reify(r, b),
            _ => m.post(r),
        };
        res.map(|_| ()).map_err(|e| self.model(e))
    }
}

/// The terms over variables (constants dropped), repeats merged.
fn vars_only(terms: &[(i64, Val)]) -> Vec<(i64, Val)> {
    let mut out: Vec<(i64, Val)> = Vec::new();
    for (a, v) in terms {
        if let Val::Var(x) | Val::Offset(x, _) = v {
            match out.iter_mut().find(|t| t.1 == Val::Var(*x)) {
                Some(t) => t.0 += a,
                None => out.push((*a, Val::Var(*x))),
            }
        }
    }
    out.retain(|t| t.0 != 0);
    out
}

/// The values of `x` with `a·x ⋈ k`, as a range (`None` for `≠`).
fn unary(a: i64, rel: Relation, k: i64) -> Option<Domain> {
    let (a, k) = (a as i128, k as i128);
    // a·x ≤ k ⇔ x ≤ ⌊k/a⌋ (a > 0) or x ≥ ⌈k/a⌉ (a < 0); likewise ≥.
    let (lo, hi): (i128, i128) = match rel {
        Relation::Eq if k % a == 0 => (k / a, k / a),
        Relation::Eq => (1, 0),
        Relation::Le if a > 0 => (i128::MIN, floor_div(k, a)),
        Relation::Le => (ceil_div(k, a), i128::MAX),
        Relation::Lt => return unary(a as i64, Relation::Le, (k as i64).checked_sub(1)?),
        Relation::Ge if a > 0 => (ceil_div(k, a), i128::MAX),
        Relation::Ge => (i128::MIN, floor_div(k, a)),
        Relation::Gt => return unary(a as i64, Relation::Ge, (k as i64).checked_add(1)?),
        Relation::Ne => return None,
    };
    let clamp = |v: i128| v.clamp(i32::MIN as i128, i32::MAX as i128) as i32;
    if lo > hi || lo > i32::MAX as i128 || hi < i32::MIN as i128 {
        return Some(Domain::values([]));
    }
    Some(Domain::range(clamp(lo), clamp(hi)))
}

/// ⌊k/a⌋ for any signs (`div_euclid` is not a floor for negative `a`).
fn floor_div(k: i128, a: i128) -> i128 {
    let q = k / a;
    if k % a != 0 && ((k < 0) != (a < 0)) {
        q - 1
    } else {
        q
    }
}

/// ⌈k/a⌉ for any signs.
fn ceil_div(k: i128, a: i128) -> i128 {
    -floor_div(-k, a)
}

/// The most values of a set given as a range that a global lists (a range
/// of more is kept as a range: `fzn_among` then decomposes).
const MAX_LISTED_VALUES: u64 = 1 << 16;

/// The values of `set` within `lo..=hi`, ascending: a range given as a set
/// (`-2147483648..2147483647`) is clipped before it is listed.
fn values_within(set: &IntSet, lo: i64, hi: i64) -> Vec<i64> {
    match set {
        IntSet::Range(a, b) => ((*a).max(lo)..=(*b).min(hi)).collect(),
        IntSet::Values(_) => set
            .values()
            .into_iter()
            .filter(|v| (lo..=hi).contains(v))
            .collect(),
    }
}

/// The relation a builtin's name stem states (`int_le` → `≤`).
fn relation(stem: &str) -> Option<Relation> {
    Some(match stem {
        "eq" => Relation::Eq,
        "ne" => Relation::Ne,
        "le" => Relation::Le,
        "lt" => Relation::Lt,
        "ge" => Relation::Ge,
        "gt" => Relation::Gt,
        _ => return None,
    })
}

/// The consistency asked for by a constraint's annotations (`::domain`,
/// `::bounds`, `::value`), if any.
fn consistency(anns: &[Annotation]) -> Option<Consistency> {
    anns.iter().find_map(|a| match a.name.as_str() {
        "domain" => Some(Consistency::Domain),
        "bounds" | "boundsZ" | "boundsR" | "boundsD" => Some(Consistency::Bounds),
        "value" => Some(Consistency::Value),
        _ => None,
    })
}

/// Checks the argument count of a builtin.
fn arity(c: &Ctx, args: &[Val], n: usize) -> R<()> {
    if args.len() == n {
        Ok(())
    } else {
        c.fail(format!("expects {n} arguments, found {}", args.len()))
    }
}

/// Posts the FlatZinc constraint `name(args)`. Unknown names are an error
/// that names the builtin.
pub(crate) fn post(
    b: &mut Builder,
    name: &str,
    args: &[Val],
    anns: &[Annotation],
    pos: Pos,
) -> R<()> {
    let mut c = Ctx {
        b,
        name,
        pos,
        seen: HashSet::new(),
    };
    let c = &mut c;
    if args.iter().any(|a| matches!(a, Val::Float))
        || args
            .iter()
            .any(|a| matches!(a, Val::Array(v) if v.iter().any(|x| matches!(x, Val::Float))))
        || name.starts_with("float_")
        || name.starts_with("set_") && !name.starts_with("set_in")
    {
        return c.fail("float and set constraints are not supported by csp");
    }
    // `int_le`, `int_le_reif`, `int_le_imp`, `bool_lin_eq`, ...
    let (base, mode_of): (&str, Option<bool>) = if let Some(s) = name.strip_suffix("_reif") {
        (s, Some(false))
    } else if let Some(s) = name.strip_suffix("_imp") {
        (s, Some(true))
    } else {
        (name, None)
    };
    let mode = |c: &Ctx, args: &[Val], n: usize| -> R<Mode> {
        match mode_of {
            None => {
                arity(c, args, n)?;
                Ok(Mode::Post)
            }
            Some(half) => {
                arity(c, args, n + 1)?;
                let r = c.reif(&args[n])?;
                Ok(if half { Mode::Imp(r) } else { Mode::Iff(r) })
            }
        }
    };
    let parts: Vec<&str> = base.split('_').collect();
    match parts.as_slice() {
        // x ⋈ y over integers or Booleans.
        ["int" | "bool", stem] if relation(stem).is_some() => {
            let md = mode(c, args, 2)?;
            let rel = relation(stem).unwrap_or(Relation::Eq);
            let terms = [(1, args[0].clone()), (-1, args[1].clone())];
            return c.linear(&terms, rel, 0, md);
        }
        // Σ aᵢ·xᵢ ⋈ c.
        ["int" | "bool", "lin", stem] if relation(stem).is_some() => {
            let md = mode(c, args, 3)?;
            let rel = relation(stem).unwrap_or(Relation::Eq);
            let coefs = c.ints(&args[0])?;
            let xs = match &args[1] {
                Val::Array(a) => a.clone(),
                _ => return c.fail("expected an array of variables"),
            };
            if coefs.len() != xs.len() {
                return c.fail(format!(
                    "{} coefficients for {} variables",
                    coefs.len(),
                    xs.len()
                ));
            }
            let k = c.int(&args[2])?;
            let terms: Vec<(i64, Val)> = coefs.into_iter().zip(xs).collect();
            return c.linear(&terms, rel, k, md);
        }
        ["set", "in"] => {
            let md = mode(c, args, 2)?;
            let x = c.var(&args[0])?;
            let set = c.set(&args[1])?;
            let d = set_domain(&set, pos)?;
            let res = match md {
                Mode::Post
                | Mode::Iff(VarOrConst::Const(true))
                | Mode::Imp(VarOrConst::Const(true)) => return c.b.restrict(x, &d, pos),
                Mode::Imp(VarOrConst::Const(false)) => return Ok(()),
                Mode::Iff(VarOrConst::Const(false)) => {
                    let f = c.b.constant(0, pos)?;
                    c.b.m.reify_in(x, d, f)
                }
                Mode::Iff(VarOrConst::Var(r)) => c.b.m.reify_in(x, d, r),
                Mode::Imp(VarOrConst::Var(r)) => c.b.m.half_reify_in(x, d, r),
            };
            return res.map(|_| ()).map_err(|e| c.model(e));
        }
        // b ⇔ a ∧ b etc. (already reified forms in FlatZinc).
        ["bool", op @ ("and" | "or" | "xor")] if mode_of.is_none() || *op == "xor" => {
            if *op == "xor" && args.len() == 2 {
                // bool_xor(a, b): a ≠ b.
                let terms = [(1, args[0].clone()), (-1, args[1].clone())];
                return c.linear(&terms, Relation::Ne, 0, Mode::Post);
            }
            if mode_of.is_some() {
                // bool_xor_reif(a, b, r) / bool_xor_imp(a, b, r).
                let md = mode(c, args, 2)?;
                let terms = [(1, args[0].clone()), (-1, args[1].clone())];
                return c.linear(&terms, Relation::Ne, 0, md);
            }
            arity(c, args, 3)?;
            let xs = [c.var(&args[0])?, c.var(&args[1])?];
            let r = c.var(&args[2])?;
            let m = &mut c.b.m;
            let res = match *op {
                "and" => m.and(&xs, r),
                "or" => m.or(&xs, r),
                _ => m.xor(&xs, r),
            };
            return res.map(|_| ()).map_err(|e| c.model(e));
        }
        _ => {}
    }
    let res: Result<(), ModelError> = match name {
        "int_plus" | "int_minus" => {
            arity(c, args, 3)?;
            let s = if name == "int_plus" { 1 } else { -1 };
            let terms = [
                (1, args[0].clone()),
                (s, args[1].clone()),
                (-1, args[2].clone()),
            ];
            return c.linear(&terms, Relation::Eq, 0, Mode::Post);
        }
        "int_div" | "int_mod" if args.len() == 3 && args[0] == args[1] => {
            // `x / x = 1` and `x mod x = 0` for `x ≠ 0`: said directly.
            // As `x / x'` with a copy `x' = x` the bounds cannot see it,
            // and the search would try a wide `x` value by value.
            c.linear(&[(1, args[0].clone())], Relation::Ne, 0, Mode::Post)?;
            let k = i64::from(name == "int_div");
            return c.linear(&[(1, args[2].clone())], Relation::Eq, k, Mode::Post);
        }
        "int_mod" if args.len() == 3 && args[1] == args[2] => {
            // `|x mod y| < |y|`: never `y`. Posted with a copy `y' = y`,
            // the bounds of `y` and its copy would shrink by one per
            // propagation round: 2³² rounds over a wide `y`.
            c.b.inconsistent = true;
            return Ok(());
        }
        "int_times" | "int_div" | "int_mod" | "int_min" | "int_max" => {
            arity(c, args, 3)?;
            let x = c.var(&args[0])?;
            // `int_times(i, i, r)` is the square of `i`, which has its
            // own propagator (`i` within ±46340 for a 32-bit `r`); a
            // copy of `i` tied by equality would hide that, and the
            // search over a wide `i` would try its values one by one.
            let y = if name == "int_times" && args[1] == args[0] {
                x
            } else {
                c.var(&args[1])?
            };
            let z = c.var(&args[2])?;
            let m = &mut c.b.m;
            match name {
                "int_times" => m.times(x, y, z),
                "int_div" => m.div(x, y, z),
                "int_mod" => m.modulo(x, y, z),
                "int_min" => m.min(&[x, y], z),
                _ => m.max(&[x, y], z),
            }
            .map(|_| ())
        }
        "int_abs" => {
            arity(c, args, 2)?;
            let (x, z) = (c.var(&args[0])?, c.var(&args[1])?);
            c.b.m.abs(x, z).map(|_| ())
        }
        "int_pow" => {
            arity(c, args, 3)?;
            let k = match c.int(&args[1]) {
                Ok(k) => k,
                Err(_) => return c.fail("a variable exponent is not supported by csp"),
            };
            let Ok(k) = u32::try_from(k) else {
                return c.fail(format!("negative exponent {k}"));
            };
            let (x, z) = (c.var(&args[0])?, c.var(&args[2])?);
            c.b.m.pow(x, k, z).map(|_| ())
        }
        "array_int_maximum" | "array_int_minimum" => {
            arity(c, args, 2)?;
            let z = c.var(&args[0])?;
            let xs = c.vars(&args[1])?;
            if name == "array_int_maximum" {
                c.b.m.max(&xs, z).map(|_| ())
            } else {
                c.b.m.min(&xs, z).map(|_| ())
            }
        }
        "array_int_element" | "array_bool_element" => {
            arity(c, args, 3)?;
            let i = c.var(&args[0])?;
            let a = c.values(&args[1])?;
            let r = c.var(&args[2])?;
            if a.is_empty() {
                return c.fail("the array is empty");
            }
            c.b.m.element_const_offset(i, &a, r, 1).map(|_| ())
        }
        "array_var_int_element" | "array_var_bool_element" => {
            arity(c, args, 3)?;
            let i = c.var(&args[0])?;
            let a = c.vars(&args[1])?;
            let r = c.var(&args[2])?;
            if a.is_empty() {
                return c.fail("the array is empty");
            }
            c.b.m.element_offset(i, &a, r, 1).map(|_| ())
        }
        "bool2int" | "bool_not" => {
            arity(c, args, 2)?;
            let rel = if name == "bool2int" {
                Relation::Eq
            } else {
                Relation::Ne
            };
            let terms = [(1, args[0].clone()), (-1, args[1].clone())];
            return c.linear(&terms, rel, 0, Mode::Post);
        }
        "bool_clause" => {
            arity(c, args, 2)?;
            let (p, n) = (c.vars(&args[0])?, c.vars(&args[1])?);
            c.b.m.clause(&p, &n).map(|_| ())
        }
        "array_bool_and" | "array_bool_or" => {
            arity(c, args, 2)?;
            let xs = c.vars(&args[0])?;
            let r = c.var(&args[1])?;
            if name == "array_bool_and" {
                c.b.m.and(&xs, r).map(|_| ())
            } else {
                c.b.m.or(&xs, r).map(|_| ())
            }
        }
        "array_bool_xor" => {
            arity(c, args, 1)?;
            let xs = c.vars(&args[0])?;
            let t = c.b.constant(1, pos)?;
            c.b.m.xor(&xs, t).map(|_| ())
        }
        // Half-reified Boolean connectives: r ⇒ ..., as clauses.
        "bool_and_imp" | "bool_or_imp" => {
            arity(c, args, 3)?;
            let (x, y, r) = (c.var(&args[0])?, c.var(&args[1])?, c.var(&args[2])?);
            let m = &mut c.b.m;
            if name == "bool_and_imp" {
                m.clause(&[x], &[r]).and_then(|_| m.clause(&[y], &[r]))
            } else {
                m.clause(&[x, y], &[r])
            }
            .map(|_| ())
        }
        "array_bool_and_imp" | "array_bool_or_imp" => {
            arity(c, args, 2)?;
            let xs = c.vars(&args[0])?;
            let r = c.var(&args[1])?;
            let m = &mut c.b.m;
            if name == "array_bool_and_imp" {
                xs.iter()
                    .try_for_each(|&x| m.clause(&[x], &[r]).map(|_| ()))
            } else {
                m.clause(&xs, &[r]).map(|_| ())
            }
        }
        "bool_clause_reif" | "bool_clause_imp" => {
            arity(c, args, 3)?;
            let (p, n) = (c.vars(&args[0])?, c.vars(&args[1])?);
            let r = c.var(&args[2])?;
            let m = &mut c.b.m;
            // r ⇒ clause.
            let mut neg = n.clone();
            neg.push(r);
            let mut res = m.clause(&p, &neg).map(|_| ());
            if name == "bool_clause_reif" {
                // ¬r ⇒ every literal false: (r ∨ ¬p) and (r ∨ n).
                for &x in &p {
                    res = res.and_then(|_| m.clause(&[r], &[x]).map(|_| ()));
                }
                for &x in &n {
                    res = res.and_then(|_| m.clause(&[r, x], &[]).map(|_| ()));
                }
            }
            res
        }
        "int_pow_fixed" => {
            arity(c, args, 3)?;
            let k = c.int(&args[1])?;
            let Ok(k) = u32::try_from(k) else {
                return c.fail(format!("negative exponent {k}"));
            };
            let (x, z) = (c.var(&args[0])?, c.var(&args[2])?);
            c.b.m.pow(x, k, z).map(|_| ())
        }
        // Native globals (share/minizinc/csp/).
        "fzn_all_different_int" => {
            arity(c, args, 1)?;
            let id = match consistency(anns).or(c.b.all_different) {
                None | Some(Consistency::Value) => {
                    let id = match offsets(c, &args[0]) {
                        Some((base, offsets)) => c.b.m.all_different_offset(&base, &offsets),
                        None => {
                            let xs = c.vars(&args[0])?;
                            c.b.m.all_different(&xs)
                        }
                    };
                    let id = id.map_err(|e| c.model(e))?;
                    c.b.m
                        .cap_inference(id, csp_core::Inference::ForwardChecking)
                        .map_err(|e| c.model(e))?;
                    c.b.value_alldiffs.push(id);
                    return Ok(());
                }
                Some(k) => {
                    let xs = c.vars(&args[0])?;
                    c.b.m.all_different_with(&xs, k)
                }
            };
            id.map(|_| ())
        }
        "fzn_alldifferent_except_0" => {
            arity(c, args, 1)?;
            let xs = c.vars(&args[0])?;
            c.b.m.all_different_except(&xs, 0).map(|_| ())
        }
        "csp_table_int" | "csp_table_bool" => {
            arity(c, args, 2)?;
            let xs = c.vars(&args[0])?;
            let flat = c.values(&args[1])?;
            if xs.is_empty() {
                return c.fail("a table over no variables");
            }
            if flat.len() % xs.len() != 0 {
                return c.fail(format!(
                    "{} table entries do not make rows of {}",
                    flat.len(),
                    xs.len()
                ));
            }
            let rows: Vec<Vec<i32>> = flat.chunks(xs.len()).map(<[i32]>::to_vec).collect();
            c.b.m.table(&xs, rows).map(|_| ())
        }
        "csp_regular" => {
            arity(c, args, 6)?;
            let xs = c.vars(&args[0])?;
            let q = c.int(&args[1])?;
            let s = c.int(&args[2])?;
            let d = c.ints(&args[3])?;
            let q0 = c.int(&args[4])?;
            let f = c.set(&args[5])?;
            if q < 1 || s < 0 {
                return c.fail(format!(
                    "Q = {q} states and S = {s} letters: Q must be at least 1, S at least 0"
                ));
            }
            // Q·S from the input may overflow: checked, as is Q itself (a
            // table of no letters does not bound the number of states).
            let entries = q.checked_mul(s);
            if entries != i64::try_from(d.len()).ok() {
                let want = entries.map_or_else(|| format!("{q}·{s}"), |e| e.to_string());
                return c.fail(format!(
                    "the transition table has {} entries, not Q·S = {want}",
                    d.len()
                ));
            }
            if q > MAX_AUTOMATON_TABLE as i64 {
                return c.fail(format!(
                    "Q = {q} states exceed csp's limit of {MAX_AUTOMATON_TABLE}"
                ));
            }
            // MiniZinc states are 1..Q (0 = failure); csp's are 0..Q−1.
            let mut delta = Vec::new();
            for from in 0..q {
                for v in 0..s {
                    let to = d[(from * s + v) as usize];
                    if to < 0 || to > q {
                        return c.fail(format!("state {to} is out of range 0..{q}"));
                    }
                    if to > 0 {
                        delta.push((from as usize, fit(v + 1, pos)?, (to - 1) as usize));
                    }
                }
            }
            let accepting: Vec<usize> = values_within(&f, 1, q)
                .into_iter()
                .map(|v| (v - 1) as usize)
                .collect();
            if q0 < 1 || q0 > q {
                return c.fail(format!("start state {q0} is out of range 1..{q}"));
            }
            // The letters are 1..S (as MiniZinc's decomposition says).
            let letters = Domain::range(1, fit(s, pos)?);
            for &x in &xs {
                c.b.restrict(x, &letters, pos)?;
            }
            match Automaton::new(q as usize, (q0 - 1) as usize, &accepting, &delta) {
                Ok(a) => c.b.m.regular(&xs, &a).map(|_| ()),
                Err(e) => Err(e),
            }
        }
        "csp_circuit" | "csp_subcircuit" => {
            // csp_circuit(x, base): successors numbered from `base`.
            arity(c, args, 2)?;
            let xs = c.vars(&args[0])?;
            let base = c.int(&args[1])?;
            let succ = shifted(c, &xs, base)?;
            if name == "csp_circuit" {
                c.b.m.circuit(&succ).map(|_| ())
            } else {
                c.b.m.subcircuit(&succ).map(|_| ())
            }
        }
        "csp_inverse" => {
            // csp_inverse(f, fbase, g, gbase): f's values index g, g's index f.
            arity(c, args, 4)?;
            let f = c.vars(&args[0])?;
            let fbase = c.int(&args[1])?;
            let g = c.vars(&args[2])?;
            let gbase = c.int(&args[3])?;
            // f's values are g's indices (counted from gbase) and vice versa.
            let f0 = shifted(c, &f, gbase)?;
            let g0 = shifted(c, &g, fbase)?;
            c.b.m.inverse(&f0, &g0).map(|_| ())
        }
        "fzn_global_cardinality" => {
            arity(c, args, 3)?;
            let xs = c.vars(&args[0])?;
            let cover = c.values(&args[1])?;
            let counts = c.vars(&args[2])?;
            c.b.m.global_cardinality(&xs, &cover, &counts).map(|_| ())
        }
        "fzn_count_eq" => {
            arity(c, args, 3)?;
            let xs = c.vars(&args[0])?;
            let n = c.var(&args[2])?;
            match c.int(&args[1]) {
                Ok(y) => {
                    let y = fit(y, pos)?;
                    c.b.m.among(&xs, &[y], n).map(|_| ())
                }
                Err(_) => {
                    // A variable value: n = Σ (xᵢ = y).
                    let y = c.var(&args[1])?;
                    let mut bs = Vec::with_capacity(xs.len());
                    for &x in &xs {
                        let r = c.b.m.reify(x.eq(y)).map_err(|e| c.model(e))?;
                        bs.push(r);
                    }
                    c.b.m.post(sum(bs).eq(n)).map(|_| ())
                }
            }
        }
        "fzn_among" => {
            arity(c, args, 3)?;
            let n = c.var(&args[0])?;
            let xs = c.vars(&args[1])?;
            let s = c.set(&args[2])?;
            let IntSet::Range(a, b) = s else {
                // Listed in the text: as many values as it has.
                let vs = s
                    .values()
                    .into_iter()
                    .map(|v| fit(v, pos))
                    .collect::<R<Vec<_>>>()?;
                return c.b.m.among(&xs, &vs, n).map(|_| ()).map_err(|e| c.model(e));
            };
            // A range, however long: only the values some variable can take
            // count, so it is clipped to the variables' domains first.
            let clip = |v: i64| v.clamp(i32::MIN.into(), i32::MAX.into()) as i32;
            let (lo, hi) = (clip(a), clip(b));
            let set = Domain::range(lo, hi);
            let m = &mut c.b.m;
            let parts: Vec<Domain> = xs.iter().map(|&x| m.domain(x).intersect(&set)).collect();
            if parts.iter().map(Domain::size).sum::<u64>() <= MAX_LISTED_VALUES {
                let vs: Vec<i32> = parts.iter().flat_map(Domain::iter).collect();
                m.among(&xs, &vs, n).map(|_| ())
            } else {
                // Still too many to list (variables over most of `int`):
                // n = Σ (lo ≤ xᵢ ≤ hi), each by bounds.
                let mut decompose = || {
                    let mut bs = Vec::with_capacity(xs.len());
                    for &x in &xs {
                        let r = m.new_bool()?;
                        let above = m.reify(Expr::from(x).ge(Expr::constant(lo.into())))?;
                        let below = m.reify(Expr::from(x).le(Expr::constant(hi.into())))?;
                        m.and(&[above, below], r)?;
                        bs.push(r);
                    }
                    m.post(sum(bs).eq(n))
                };
                decompose().map(|_| ())
            }
        }
        "fzn_nvalue" => {
            arity(c, args, 2)?;
            let n = c.var(&args[0])?;
            let xs = c.vars(&args[1])?;
            c.b.m.nvalue(&xs, n).map(|_| ())
        }
        "fzn_lex_less_int" | "fzn_lex_less_bool" | "fzn_lex_lesseq_int" | "fzn_lex_lesseq_bool" => {
            arity(c, args, 2)?;
            let (x, y) = (c.vars(&args[0])?, c.vars(&args[1])?);
            if name.contains("lesseq") {
                c.b.m.lex_lesseq(&x, &y).map(|_| ())
            } else {
                c.b.m.lex_less(&x, &y).map(|_| ())
            }
        }
        "fzn_increasing_int" | "fzn_increasing_bool" => {
            arity(c, args, 1)?;
            let xs = c.vars(&args[0])?;
            c.b.m.increasing(&xs).map(|_| ())
        }
        "csp_value_precede_chain" => {
            // csp_value_precede_chain(start, x): values start, start + 1, ...
            // in order of first use, none below start.
            arity(c, args, 2)?;
            let start = fit(c.int(&args[0])?, pos)?;
            let xs = c.vars(&args[1])?;
            c.b.m.post(ValuePrecedeChain::new(xs, start)).map(|_| ())
        }
        "csp_value_precede" => {
            // csp_value_precede(s, t, x): every t in x has an s before it.
            arity(c, args, 3)?;
            let s = fit(c.int(&args[0])?, pos)?;
            let t = fit(c.int(&args[1])?, pos)?;
            let xs = c.vars(&args[2])?;
            c.b.m.post(ValuePrecede::new(xs, s, t)).map(|_| ())
        }
        "csp_disjunctive" => {
            // csp_disjunctive(s, d): tasks starting at s, lasting the
            // constant d (at least 0), never overlap.
            arity(c, args, 2)?;
            let starts = c.vars(&args[0])?;
            let durations = c.values(&args[1])?;
            c.b.m.disjunctive(&starts, &durations).map(|_| ())
        }
        "csp_cumulative" => {
            // csp_cumulative(s, d, r, b): tasks starting at s, lasting d,
            // using r of a resource of b (constants, at least 0).
            arity(c, args, 4)?;
            let starts = c.vars(&args[0])?;
            let (d, r) = (c.values(&args[1])?, c.values(&args[2])?);
            let b = fit(c.int(&args[3])?, pos)?;
            let strength = c.b.cumulative;
            c.b.m
                .cumulative_with(&starts, &d, &r, b, strength)
                .map(|_| ())
        }
        "csp_cumulative_var" => {
            // csp_cumulative_var(s, d, r, b): the same with variable
            // durations, demands and capacity (made at least 0).
            arity(c, args, 4)?;
            let starts = c.vars(&args[0])?;
            let (d, r) = (c.vars(&args[1])?, c.vars(&args[2])?);
            let b = c.var(&args[3])?;
            let strength = c.b.cumulative;
            c.b.m
                .cumulative_var_with(&starts, &d, &r, b, strength)
                .map(|_| ())
        }
        "csp_diffn" | "csp_diffn_nonstrict" => {
            // csp_diffn(x, y, dx, dy): rectangles at (x, y) of the constant
            // sizes dx × dy (at least 0) never overlap; the non-strict one
            // lets a rectangle of zero width or height lie anywhere.
            arity(c, args, 4)?;
            let (x, y) = (c.vars(&args[0])?, c.vars(&args[1])?);
            let (dx, dy) = (c.values(&args[2])?, c.values(&args[3])?);
            if name == "csp_diffn" && c.b.order_literals {
                // Under learning: the variable-size propagator with order
                // literals, the sizes as fixed variables. Its nogoods name
                // "i before j", where those of `Diffn` name bounds one
                // value apart (squares 1..12 in 27 × 25: 26,274 nodes
                // against 491,590; docs/benchmarks.md).
                let m = &mut c.b.m;
                let mut fixed = |ws: &[i32]| -> Result<Vec<VarId>, ModelError> {
                    ws.iter()
                        .map(|&w| m.new_var(Domain::singleton(w)))
                        .collect()
                };
                match (fixed(&dx), fixed(&dy)) {
                    (Ok(sdx), Ok(sdy)) => diffn_ordered(m, &x, &y, &sdx, &sdy),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                }
            } else {
                match name {
                    "csp_diffn" => c.b.m.diffn(&x, &y, &dx, &dy),
                    _ => c.b.m.diffn_nonstrict(&x, &y, &dx, &dy),
                }
                .map(|_| ())
            }
        }
        "csp_diffn_var" | "csp_diffn_var_nonstrict" => {
            // csp_diffn_var(x, y, dx, dy): the same with variable sizes
            // (the library maps here only when their lower bounds are at
            // least 0).
            arity(c, args, 4)?;
            let (x, y) = (c.vars(&args[0])?, c.vars(&args[1])?);
            let (dx, dy) = (c.vars(&args[2])?, c.vars(&args[3])?);
            match name {
                "csp_diffn_var" if c.b.order_literals => {
                    diffn_ordered(&mut c.b.m, &x, &y, &dx, &dy)
                }
                "csp_diffn_var" => c.b.m.diffn_var(&x, &y, &dx, &dy).map(|_| ()),
                _ => c.b.m.diffn_var_nonstrict(&x, &y, &dx, &dy).map(|_| ()),
            }
        }
        "csp_diffn_k" | "csp_diffn_nonstrict_k" => {
            // csp_diffn_k(o, s, k): boxes in k dimensions, origins and
            // sizes row by row (k to a box, MiniZinc's array2d flattened).
            arity(c, args, 3)?;
            let (o, s) = (c.vars(&args[0])?, c.vars(&args[1])?);
            let k = c.int(&args[2])?;
            if k < 1 || o.len() != s.len() || o.len() as i64 % k != 0 {
                return c.fail("origins and sizes must be n × k arrays with k ≥ 1");
            }
            let (boxes, sizes): (Vec<&[_]>, Vec<&[_]>) = (
                o.chunks(k as usize).collect(),
                s.chunks(k as usize).collect(),
            );
            match name {
                "csp_diffn_k" => c.b.m.diffn_k(&boxes, &sizes),
                _ => c.b.m.diffn_k_nonstrict(&boxes, &sizes),
            }
            .map(|_| ())
        }
        "csp_bin_packing" => {
            // csp_bin_packing(c, bin, w): each bin holds at most c.
            arity(c, args, 3)?;
            let cap = fit(c.int(&args[0])?, pos)?;
            let (bins, w) = (c.vars(&args[1])?, c.values(&args[2])?);
            c.b.m.bin_packing(cap, &bins, &w).map(|_| ())
        }
        "csp_bin_packing_load" => {
            // csp_bin_packing_load(load, bin, w, first): bin b's load is
            // load[b − first + 1].
            arity(c, args, 4)?;
            let (load, bins) = (c.vars(&args[0])?, c.vars(&args[1])?);
            let w = c.values(&args[2])?;
            let first = fit(c.int(&args[3])?, pos)?;
            c.b.m
                .bin_packing_load_from(first, &load, &bins, &w)
                .map(|_| ())
        }
        _ => return c.fail("unsupported constraint (not a FlatZinc builtin csp knows)"),
    };
    res.map_err(|e| c.model(e))
}

/// `xs` as `xᵢ + kᵢ` over distinct variables when at least one of them is
/// an offset of another variable (`int_lin_eq ... :: defines_var`): the
/// offset all-different, which csp fuses with all-differents over the same
/// variables (N-queens' three constraints).
fn offsets(c: &Ctx, arr: &Val) -> Option<(Vec<VarId>, Vec<i32>)> {
    let Val::Array(a) = arr else { return None };
    let mut base = Vec::with_capacity(a.len());
    let mut offs = Vec::with_capacity(a.len());
    let mut any = false;
    for v in a {
        let (x, k) = match v {
            Val::Offset(x, k) => {
                any = true;
                (*x, *k)
            }
            Val::Var(y) => match c.b.views.get(y) {
                Some(&(x, k)) => {
                    any = true;
                    (x, k)
                }
                None => (*y, 0),
            },
            _ => return None,
        };
        base.push(x);
        offs.push(i32::try_from(k).ok()?);
    }
    let distinct: HashSet<VarId> = base.iter().copied().collect();
    (any && distinct.len() == base.len()).then_some((base, offs))
}

/// `xs` shifted to count from 0: `xᵢ − base` (the variables themselves for base 0).
fn shifted(c: &mut Ctx, xs: &[VarId], base: i64) -> R<Vec<VarId>> {
    if base == 0 {
        return Ok(xs.to_vec());
    }
    let b = i32::try_from(base).or_else(|_| c.fail("index base out of range"))?;
    xs.iter()
        .map(|&x| c.b.m.define(x - b).map_err(|e| c.model(e)))
        .collect()
}

/// The strict `diffn` with order literals, for the learning search's
/// nogoods: two 0/1 variables per pair and axis (`BuildOptions::order_literals`).
fn diffn_ordered(
    m: &mut csp_core::Model,
    x: &[VarId],
    y: &[VarId],
    dx: &[VarId],
    dy: &[VarId],
) -> Result<(), ModelError> {
    let n = x.len();
    let order = m.new_vars(n * n.saturating_sub(1) * 2, Domain::range(0, 1))?;
    m.diffn_var_ordered(x, y, dx, dy, &order).map(|_| ())
}
