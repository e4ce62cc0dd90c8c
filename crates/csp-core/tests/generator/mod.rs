//! The random model generator of the differential tester (issue 32),
//! shared by `differential.rs` (every search entry point against brute
//! force) and `gecode.rs` (the same models written with
//! `Model::to_minizinc` and counted by Gecode).
//!
//! A [`Case`] is a model over a few caller's variables with, per posted
//! constraint, an independent statement of its meaning in `i128`
//! ([`Spec`]); [`brute`] enumerates the caller's variables' values and
//! keeps the assignments every spec accepts. [`Mix`] chooses the
//! constraints and domains: [`Mix::BASE`] is the differential tester's
//! mix (its seeds make the same models as before the split);
//! [`Mix::GECODE`] adds the global constraints (cardinality, ordering,
//! circuits, scheduling, packing) half the time and keeps every domain
//! within Gecode's integers.

#![allow(dead_code)]

use std::collections::BTreeSet;

use csp_core::constraint::Automaton;
use csp_core::expr::{max_of, min_of};
use csp_core::{Domain, Model, Relation, Value, VarId};

/// Which constraints and domains a [`case`] draws from.
#[derive(Clone, Copy, Debug)]
pub struct Mix {
    /// Global constraints half the time (see [`post_global`]), and up to
    /// two more variables.
    pub globals: bool,
    /// No domain at an end of `i32` (Gecode's integers are
    /// `-2147483646..=2147483646`).
    pub gecode_range: bool,
}

impl Mix {
    /// The differential tester's mix.
    pub const BASE: Mix = Mix {
        globals: false,
        gecode_range: false,
    };
    /// The mix compared against Gecode.
    pub const GECODE: Mix = Mix {
        globals: true,
        gecode_range: true,
    };
}

/// splitmix64: the generator of models and configurations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The meaning of a constraint over the caller's variables' values.
pub type Spec = Box<dyn Fn(&[i64]) -> bool>;

/// A random model: the caller's variables, their domains, and per posted
/// constraint its name and meaning.
pub struct Case {
    pub model: Model,
    pub vars: Vec<VarId>,
    pub domains: Vec<Vec<i64>>,
    pub specs: Vec<(String, Spec)>,
    pub wide: bool,
}

pub fn rel(r: &mut Rng) -> Relation {
    [
        Relation::Eq,
        Relation::Ne,
        Relation::Le,
        Relation::Lt,
        Relation::Ge,
        Relation::Gt,
    ][r.below(6)]
}

pub fn holds(rel: Relation, a: i128, b: i128) -> bool {
    match rel {
        Relation::Eq => a == b,
        Relation::Ne => a != b,
        Relation::Le => a <= b,
        Relation::Lt => a < b,
        Relation::Ge => a >= b,
        Relation::Gt => a > b,
    }
}

/// A domain: mostly small ranges around 0, sometimes at an end of `i32`,
/// sparse, or Boolean.
fn domain(r: &mut Rng, mix: Mix) -> (Domain, bool) {
    let k = r.int(0, 3) as i32;
    let which = r.below(10);
    // Gecode's integers stop short of i32's ends: small ranges instead.
    let which = if mix.gecode_range && which < 2 {
        9
    } else {
        which
    };
    match which {
        0 => (Domain::range(Value::MAX - k, Value::MAX), true),
        1 => (Domain::range(Value::MIN, Value::MIN + k), true),
        2 => {
            let pool = [-1_000_000, -7, -1, 0, 2, 3, 65_536, 1 << 30];
            let vs: Vec<Value> = (0..2 + r.below(2)).map(|_| pool[r.below(8)]).collect();
            let wide = vs.iter().any(|v| v.abs() > 1000);
            (Domain::values(vs), wide)
        }
        3 | 4 => (Domain::range(0, 1), false),
        _ => {
            let lo = r.int(-3, 2) as i32;
            (Domain::range(lo, lo + k), false)
        }
    }
}

fn pow_i128(x: i128, k: u32) -> Option<i128> {
    let mut acc: i128 = 1;
    for _ in 0..k.min(200) {
        acc = acc.checked_mul(x)?;
        if acc.abs() > 1 << 40 {
            return None;
        }
    }
    if k > 200 {
        // |x| ≤ 1 only (anything else left the i32 range above).
        return Some(match x {
            0 => 0,
            1 => 1,
            _ if k.is_multiple_of(2) => 1,
            _ => -1,
        });
    }
    Some(acc)
}

/// Picks `lo + (0..spread)` of the caller's variables.
fn pick_some(r: &mut Rng, lo: usize, spread: usize, nvars: usize) -> Vec<usize> {
    let n = lo + r.below(spread);
    pick(r, n, nvars)
}

/// Picks `n` of the caller's variables, with repeats now and then.
/// Fewer than `most` random tuples over the domains of the variables at
/// `idx`, as posted (`i32`) and as the checker's set (`i64`).
fn random_tuples(
    r: &mut Rng,
    domains: &[Vec<i64>],
    idx: &[usize],
    most: usize,
) -> (Vec<Vec<i32>>, BTreeSet<Vec<i64>>) {
    let tuples: Vec<Vec<i32>> = (0..r.below(most))
        .map(|_| {
            idx.iter()
                .map(|&k| domains[k][r.below(domains[k].len())] as i32)
                .collect()
        })
        .collect();
    let set = tuples
        .iter()
        .map(|t| t.iter().map(|&a| a as i64).collect())
        .collect();
    (tuples, set)
}

fn pick(r: &mut Rng, n: usize, nvars: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for _ in 0..n {
        if !out.is_empty() && r.chance(15) {
            let k = out[r.below(out.len())];
            out.push(k);
        } else {
            out.push(r.below(nvars));
        }
    }
    out
}

/// Posts one random constraint over `c`'s variables; `Ok(None)` when the
/// library refused it with a typed error (allowed: an overflow over wide
/// domains, Booleans over non-Boolean domains...).
fn post_random(c: &mut Case, r: &mut Rng, mix: Mix) -> Option<(String, Spec)> {
    if mix.globals && r.chance(50) {
        return post_global(c, r);
    }
    let n = c.vars.len();
    let v = c.vars.clone();
    let m = &mut c.model;
    let kind = r.below(17);
    let res: Result<(String, Spec), csp_core::ModelError> = (|| {
        Ok(match kind {
            0 => {
                let idx = pick_some(r, 1, 3, n);
                let coefs: Vec<i64> = idx.iter().map(|_| r.int(-3, 3)).collect();
                let rl = rel(r);
                let k = r.int(-5, 5);
                let terms: Vec<(i64, VarId)> =
                    idx.iter().zip(&coefs).map(|(&i, &a)| (a, v[i])).collect();
                m.linear(&terms, rl, k)?;
                let name = format!("linear {coefs:?}·{idx:?} {rl:?} {k}");
                let spec: Spec = Box::new(move |x| {
                    let s: i128 = idx
                        .iter()
                        .zip(&coefs)
                        .map(|(&i, &a)| a as i128 * x[i] as i128)
                        .sum();
                    holds(rl, s, k as i128)
                });
                (name, spec)
            }
            1 => {
                let idx = pick_some(r, 2, 2, n);
                let xs: Vec<VarId> = idx.iter().map(|&i| v[i]).collect();
                m.all_different(&xs)?;
                let spec: Spec = Box::new(move |x| {
                    let vals: BTreeSet<i64> = idx.iter().map(|&i| x[i]).collect();
                    vals.len() == idx.len()
                });
                ("all_different".into(), spec)
            }
            2 => {
                let idx = pick(r, 2, n);
                let k = r.int(-2, 2) as i32;
                let (a, b) = (idx[0], idx[1]);
                let which = r.below(3);
                match which {
                    0 => m.equal(v[a], v[b], k)?,
                    1 => m.not_equal(v[a], v[b], k)?,
                    _ => m.less_eq(v[a], v[b], k as i64)?,
                };
                let spec: Spec = Box::new(move |x| {
                    let (p, q) = (x[a] as i128, x[b] as i128 + k as i128);
                    [p == q, p != q, p <= q][which]
                });
                (format!("binary {which} {a} {b} {k}"), spec)
            }
            3 => {
                let idx = pick(r, 3, n);
                let (a, b, z) = (idx[0], idx[1], idx[2]);
                let op = r.below(7);
                let k = [0u32, 1, 2, 3, u32::MAX][r.below(5)];
                match op {
                    0 => m.times(v[a], v[b], v[z])?,
                    1 => m.div(v[a], v[b], v[z])?,
                    2 => m.modulo(v[a], v[b], v[z])?,
                    3 => m.abs(v[a], v[z])?,
                    4 => m.pow(v[a], k, v[z])?,
                    5 => m.min(&[v[a], v[b]], v[z])?,
                    _ => m.max(&[v[a], v[b]], v[z])?,
                };
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let (p, q, w) = (x[a] as i128, x[b] as i128, x[z] as i128);
                    match op {
                        0 => p * q == w,
                        1 => q != 0 && p / q == w,
                        2 => q != 0 && p % q == w,
                        3 => p.abs() == w,
                        4 => pow_i128(p, k) == Some(w),
                        5 => p.min(q) == w,
                        _ => p.max(q) == w,
                    }
                });
                (format!("arith {op} k={k} {label}"), spec)
            }
            4 => {
                // An expression tree: a·x·y + b·|z − w| ⋈ c.
                let idx = pick(r, 4, n);
                let (a, b) = (r.int(-2, 2) as i32, r.int(-2, 2) as i32);
                let c0 = r.int(-4, 4) as i32;
                let rl = rel(r);
                let [p, q, s, t] = [idx[0], idx[1], idx[2], idx[3]];
                let lhs = a * (v[p] * v[q]) + b * (v[s] - v[t]).abs();
                let relation = match rl {
                    Relation::Eq => lhs.eq(c0),
                    Relation::Ne => lhs.ne(c0),
                    Relation::Le => lhs.le(c0),
                    Relation::Lt => lhs.lt(c0),
                    Relation::Ge => lhs.ge(c0),
                    Relation::Gt => lhs.gt(c0),
                };
                m.post(relation)?;
                let spec: Spec = Box::new(move |x| {
                    let l = a as i128 * x[p] as i128 * x[q] as i128
                        + b as i128 * (x[s] as i128 - x[t] as i128).abs();
                    holds(rl, l, c0 as i128)
                });
                (
                    format!("expr {a}·x{p}·x{q} + {b}·|x{s} − x{t}| {rl:?} {c0}"),
                    spec,
                )
            }
            5 => {
                // min/max of expressions: max(x, y + 1, z) ≤ w, min(...) = w.
                let idx = pick(r, 4, n);
                let [p, q, s, t] = [idx[0], idx[1], idx[2], idx[3]];
                let use_max = r.chance(50);
                let e = if use_max {
                    max_of([v[p].into(), v[q] + 1, v[s].into()])
                } else {
                    min_of([v[p].into(), v[q] + 1, v[s].into()])
                };
                if use_max {
                    m.post(e.le(v[t]))?;
                } else {
                    m.post(e.eq(v[t]))?;
                }
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let vals = [x[p] as i128, x[q] as i128 + 1, x[s] as i128];
                    if use_max {
                        *vals.iter().max().unwrap() <= x[t] as i128
                    } else {
                        *vals.iter().min().unwrap() == x[t] as i128
                    }
                });
                (format!("minmax max={use_max} {label}"), spec)
            }
            6 => {
                // Reification: b ⇔ x + y ≤ c (b a caller's variable).
                let idx = pick(r, 3, n);
                let [p, q, b] = [idx[0], idx[1], idx[2]];
                let c0 = r.int(-3, 3) as i32;
                let half = r.chance(30);
                if half {
                    m.half_reify((v[p] + v[q]).le(c0), v[b])?;
                } else {
                    m.reify_with((v[p] + v[q]).le(c0), v[b])?;
                }
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let h = x[p] as i128 + x[q] as i128 <= c0 as i128;
                    if !(0..=1).contains(&x[b]) {
                        return false;
                    }
                    if half {
                        x[b] == 0 || h
                    } else {
                        (x[b] == 1) == h
                    }
                });
                (format!("reify half={half} {label} {c0}"), spec)
            }
            7 => {
                // A reified relation as a new Boolean, counted in a sum.
                let idx = pick(r, 3, n);
                let [p, q, s] = [idx[0], idx[1], idx[2]];
                let b = m.reify(v[p].ne(v[q]))?;
                m.post((b + v[s]).ge(1))?;
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| (x[p] != x[q]) as i128 + x[s] as i128 >= 1);
                (format!("reify-new {label}"), spec)
            }
            8 => {
                let idx = pick_some(r, 2, 2, n);
                let (i, rr) = (idx[0], idx[1]);
                let arr: Vec<usize> = idx[2..].to_vec();
                let arr = if arr.is_empty() { vec![idx[1]] } else { arr };
                let xs: Vec<VarId> = arr.iter().map(|&k| v[k]).collect();
                m.element(v[i], &xs, v[rr])?;
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    usize::try_from(x[i])
                        .ok()
                        .and_then(|k| arr.get(k))
                        .is_some_and(|&k| x[k] == x[rr])
                });
                (format!("element {label}"), spec)
            }
            9 => {
                let idx = pick(r, 2, n);
                let (i, rr) = (idx[0], idx[1]);
                let consts: Vec<i32> = (0..1 + r.below(3)).map(|_| r.int(-2, 2) as i32).collect();
                let base = r.int(-1, 1) as i32;
                m.element_const_offset(v[i], &consts, v[rr], base)?;
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    usize::try_from(x[i] - base as i64)
                        .ok()
                        .and_then(|k| consts.get(k))
                        .is_some_and(|&c| c as i64 == x[rr])
                });
                (format!("element_const {label} base {base}"), spec)
            }
            10 => {
                let idx = pick_some(r, 2, 2, n);
                let value = r.int(-1, 2) as i32;
                let rl = rel(r);
                let by_var = r.chance(40);
                let xs: Vec<VarId> = idx[1..].iter().map(|&k| v[k]).collect();
                let kc = r.int(0, 2);
                if by_var {
                    m.count(&xs, value, rl, v[idx[0]])?;
                } else {
                    m.count(&xs, value, rl, kc)?;
                }
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let c = idx[1..].iter().filter(|&&k| x[k] == value as i64).count() as i128;
                    holds(
                        rl,
                        c,
                        if by_var {
                            x[idx[0]] as i128
                        } else {
                            kc as i128
                        },
                    )
                });
                (
                    format!("count {label} = {value} {rl:?} var={by_var} {kc}"),
                    spec,
                )
            }
            11 => {
                let idx = pick_some(r, 2, 2, n);
                let set: Vec<i32> = (0..1 + r.below(2)).map(|_| r.int(-1, 2) as i32).collect();
                let xs: Vec<VarId> = idx[1..].iter().map(|&k| v[k]).collect();
                m.among(&xs, &set, v[idx[0]])?;
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let c = idx[1..]
                        .iter()
                        .filter(|&&k| set.contains(&(x[k] as i32)))
                        .count() as i64;
                    c == x[idx[0]]
                });
                (format!("among {label}"), spec)
            }
            12 => {
                let idx = pick(r, 2, n);
                let (tuples, set) = random_tuples(r, &c.domains, &idx, 5);
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                m.table(&xs, tuples)?;
                let label = format!("table {idx:?}");
                let spec: Spec =
                    Box::new(move |x| set.contains(&idx.iter().map(|&k| x[k]).collect::<Vec<_>>()));
                (label, spec)
            }
            13 => {
                let idx = pick(r, 3, n);
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                let op = r.below(4);
                match op {
                    0 => m.and(&xs[..2], xs[2])?,
                    1 => m.or(&xs[..2], xs[2])?,
                    2 => m.xor(&xs[..2], xs[2])?,
                    _ => m.clause(&xs[..1], &xs[1..])?,
                };
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let b: Vec<i64> = idx.iter().map(|&k| x[k]).collect();
                    if b.iter().any(|&y| !(0..=1).contains(&y)) {
                        return false;
                    }
                    let (p, q, z) = (b[0] == 1, b[1] == 1, b[2] == 1);
                    match op {
                        0 => z == (p && q),
                        1 => z == (p || q),
                        2 => z == (p ^ q),
                        _ => p || !q || !z,
                    }
                });
                (format!("bool {op} {label}"), spec)
            }
            14 => {
                // Words over {0, 1} with no two 1s in a row.
                let idx = pick_some(r, 2, 2, n);
                let a = Automaton::new(2, 0, &[0, 1], &[(0, 0, 0), (0, 1, 1), (1, 0, 0)])
                    .expect("an automaton");
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                m.regular(&xs, &a)?;
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let w: Vec<i64> = idx.iter().map(|&k| x[k]).collect();
                    w.iter().all(|&y| y == 0 || y == 1) && !w.windows(2).any(|p| p == [1, 1])
                });
                (format!("regular {label}"), spec)
            }
            15 => {
                // A division and a remainder inside an expression.
                let idx = pick(r, 3, n);
                let [p, q, s] = [idx[0], idx[1], idx[2]];
                m.post((v[p] / v[q] + v[p] % v[q]).le(v[s]))?;
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let (a, b) = (x[p] as i128, x[q] as i128);
                    b != 0 && a / b + a % b <= x[s] as i128
                });
                (format!("divmod-expr {label}"), spec)
            }
            _ => {
                let idx = pick_some(r, 2, 2, n);
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                m.increasing(&xs)?;
                let label = format!("{idx:?}");
                let spec: Spec = Box::new(move |x| idx.windows(2).all(|w| x[w[0]] <= x[w[1]]));
                (format!("increasing {label}"), spec)
            }
        })
    })();
    res.ok()
}

pub fn case(seed: u64, mix: Mix) -> Case {
    let mut r = Rng(seed ^ 0xD1FF);
    let nvars = 2 + r.below(3) + if mix.globals { r.below(3) } else { 0 };
    let mut model = Model::new();
    let mut vars = Vec::new();
    let mut domains = Vec::new();
    let mut wide = false;
    for _ in 0..nvars {
        let (d, w) = domain(&mut r, mix);
        wide |= w;
        domains.push(d.iter().map(|v| v as i64).collect());
        vars.push(model.new_var(d).expect("a variable"));
    }
    let mut c = Case {
        model,
        vars,
        domains,
        specs: Vec::new(),
        wide,
    };
    for _ in 0..1 + r.below(3) {
        if let Some(s) = post_random(&mut c, &mut r, mix) {
            c.specs.push(s);
        }
    }
    c
}

/// Every assignment of the caller's variables all specs accept.
pub fn brute(c: &Case) -> BTreeSet<Vec<i64>> {
    let mut out = BTreeSet::new();
    let n = c.domains.len();
    let mut idx = vec![0usize; n];
    loop {
        let x: Vec<i64> = (0..n).map(|i| c.domains[i][idx[i]]).collect();
        if c.specs.iter().all(|(_, s)| s(&x)) {
            out.insert(x);
        }
        let mut p = 0;
        loop {
            if p == n {
                return out;
            }
            idx[p] += 1;
            if idx[p] < c.domains[p].len() {
                break;
            }
            idx[p] = 0;
            p += 1;
        }
    }
}

/// Does `succ` (successors from 0) form one circuit through every node?
fn is_circuit(succ: &[i64]) -> bool {
    let n = succ.len();
    let mut seen = vec![false; n];
    let mut at = 0usize;
    for _ in 0..n {
        if seen[at] {
            return false;
        }
        seen[at] = true;
        match usize::try_from(succ[at]) {
            Ok(next) if next < n => at = next,
            _ => return false,
        }
    }
    at == 0
}

/// Do the nodes `i` with `succ[i] ≠ i` form one circuit (or none)?
fn is_subcircuit(succ: &[i64]) -> bool {
    let n = succ.len();
    if succ.iter().any(|&s| !(0..n as i64).contains(&s)) {
        return false;
    }
    let moving: Vec<usize> = (0..n).filter(|&i| succ[i] != i as i64).collect();
    let Some(&first) = moving.first() else {
        return true;
    };
    let mut seen = vec![false; n];
    let mut at = first;
    for _ in 0..moving.len() {
        if seen[at] || succ[at] == at as i64 {
            return false;
        }
        seen[at] = true;
        at = succ[at] as usize;
    }
    at == first
}

/// Posts one random global constraint over `c`'s variables (see
/// [`post_random`]'s `None`).
fn post_global(c: &mut Case, r: &mut Rng) -> Option<(String, Spec)> {
    let n = c.vars.len();
    let v = c.vars.clone();
    let m = &mut c.model;
    let kind = r.below(13);
    let res: Result<(String, Spec), csp_core::ModelError> = (|| {
        Ok(match kind {
            0 => {
                let idx = pick_some(r, 2, 3, n);
                let except = r.int(-1, 1) as i32;
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                m.all_different_except(&xs, except)?;
                let label = format!("all_different_except {idx:?} {except}");
                let spec: Spec = Box::new(move |x| {
                    let used: Vec<i64> = idx
                        .iter()
                        .map(|&k| x[k])
                        .filter(|&y| y != except as i64)
                        .collect();
                    used.iter().collect::<BTreeSet<_>>().len() == used.len()
                });
                (label, spec)
            }
            1 => {
                let idx = pick_some(r, 2, 3, n);
                let nvals = 1 + r.below(2);
                let values: Vec<i32> = if nvals == 1 {
                    vec![r.int(-1, 2) as i32]
                } else {
                    let a = r.int(-1, 1) as i32;
                    vec![a, a + 1 + r.int(0, 1) as i32]
                };
                let counts = pick(r, nvals, n);
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                let cs: Vec<VarId> = counts.iter().map(|&k| v[k]).collect();
                m.global_cardinality(&xs, &values, &cs)?;
                let label = format!("global_cardinality {idx:?} {values:?} {counts:?}");
                let spec: Spec = Box::new(move |x| {
                    values.iter().zip(&counts).all(|(&val, &k)| {
                        idx.iter().filter(|&&i| x[i] == val as i64).count() as i64 == x[k]
                    })
                });
                (label, spec)
            }
            2 => {
                let idx = pick_some(r, 2, 3, n);
                let xs: Vec<VarId> = idx[1..].iter().map(|&k| v[k]).collect();
                m.nvalue(&xs, v[idx[0]])?;
                let label = format!("nvalue {idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let vals: BTreeSet<i64> = idx[1..].iter().map(|&k| x[k]).collect();
                    vals.len() as i64 == x[idx[0]]
                });
                (label, spec)
            }
            3 => {
                let k = 1 + r.below(2);
                let idx = pick(r, 2 * k, n);
                let (f, g) = idx.split_at(k);
                let (f, g) = (f.to_vec(), g.to_vec());
                let fs: Vec<VarId> = f.iter().map(|&i| v[i]).collect();
                let gs: Vec<VarId> = g.iter().map(|&i| v[i]).collect();
                m.inverse(&fs, &gs)?;
                let label = format!("inverse {f:?} {g:?}");
                let spec: Spec = Box::new(move |x| {
                    let inside = |i: usize| (0..f.len() as i64).contains(&x[i]);
                    f.iter().chain(&g).all(|&i| inside(i))
                        && (0..f.len()).all(|i| x[g[x[f[i]] as usize]] == i as i64)
                        && (0..g.len()).all(|j| x[f[x[g[j]] as usize]] == j as i64)
                });
                (label, spec)
            }
            4 => {
                let k = 1 + r.below(3);
                let idx = pick(r, 2 * k, n);
                let (a, b) = (idx[..k].to_vec(), idx[k..].to_vec());
                let xs: Vec<VarId> = a.iter().map(|&i| v[i]).collect();
                let ys: Vec<VarId> = b.iter().map(|&i| v[i]).collect();
                let strict = r.chance(50);
                if strict {
                    m.lex_less(&xs, &ys)?;
                } else {
                    m.lex_lesseq(&xs, &ys)?;
                }
                let label = format!("lex strict={strict} {a:?} {b:?}");
                let spec: Spec = Box::new(move |x| {
                    let p: Vec<i64> = a.iter().map(|&i| x[i]).collect();
                    let q: Vec<i64> = b.iter().map(|&i| x[i]).collect();
                    if strict {
                        p < q
                    } else {
                        p <= q
                    }
                });
                (label, spec)
            }
            5 | 6 => {
                let sub = kind == 6;
                let idx = pick_some(r, 1, 4, n);
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                if sub {
                    m.subcircuit(&xs)?;
                } else {
                    m.circuit(&xs)?;
                }
                let label = format!("circuit sub={sub} {idx:?}");
                let spec: Spec = Box::new(move |x| {
                    let succ: Vec<i64> = idx.iter().map(|&k| x[k]).collect();
                    if sub {
                        is_subcircuit(&succ)
                    } else {
                        is_circuit(&succ)
                    }
                });
                (label, spec)
            }
            7 | 8 => {
                let disjunctive = kind == 8;
                let idx = pick_some(r, 1, 3, n);
                let dur: Vec<i32> = idx.iter().map(|_| r.int(0, 3) as i32).collect();
                let dem: Vec<i32> = idx.iter().map(|_| r.int(0, 3) as i32).collect();
                let cap = r.int(0, 3) as i32;
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                if disjunctive {
                    m.disjunctive(&xs, &dur)?;
                } else {
                    m.cumulative(&xs, &dur, &dem, cap)?;
                }
                let label = if disjunctive {
                    format!("disjunctive {idx:?} {dur:?}")
                } else {
                    format!("cumulative {idx:?} {dur:?} {dem:?} {cap}")
                };
                let spec: Spec = Box::new(move |x| {
                    let s: Vec<i128> = idx.iter().map(|&k| x[k] as i128).collect();
                    let d: Vec<i128> = dur.iter().map(|&a| a as i128).collect();
                    if disjunctive {
                        (0..s.len()).all(|i| {
                            (0..i).all(|j| {
                                d[i] == 0 || d[j] == 0 || s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i]
                            })
                        })
                    } else {
                        // The load only changes where a task starts.
                        (0..s.len()).all(|t| {
                            let load: i128 = (0..s.len())
                                .filter(|&i| d[i] > 0 && s[i] <= s[t] && s[t] < s[i] + d[i])
                                .map(|i| dem[i] as i128)
                                .sum();
                            d[t] == 0 || load <= cap as i128
                        })
                    }
                });
                (label, spec)
            }
            9 | 10 => {
                let loads = kind == 10;
                let idx = pick_some(r, 1, 3, n);
                let size: Vec<i32> = idx.iter().map(|_| r.int(0, 3) as i32).collect();
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                if loads {
                    let first = r.int(-1, 1) as i32;
                    let ls = pick_some(r, 1, 3, n);
                    let lv: Vec<VarId> = ls.iter().map(|&k| v[k]).collect();
                    m.bin_packing_load_from(first, &lv, &xs, &size)?;
                    let label = format!("bin_packing_load {idx:?} {size:?} from {first} {ls:?}");
                    let spec: Spec = Box::new(move |x| {
                        let inside = idx.iter().all(|&k| {
                            (first as i64..first as i64 + ls.len() as i64).contains(&x[k])
                        });
                        inside
                            && ls.iter().enumerate().all(|(j, &l)| {
                                let bin = first as i64 + j as i64;
                                let load: i64 = idx
                                    .iter()
                                    .zip(&size)
                                    .filter(|(&k, _)| x[k] == bin)
                                    .map(|(_, &s)| s as i64)
                                    .sum();
                                load == x[l]
                            })
                    });
                    (label, spec)
                } else {
                    let cap = r.int(0, 4) as i32;
                    m.bin_packing(cap, &xs, &size)?;
                    let label = format!("bin_packing {idx:?} {size:?} cap {cap}");
                    let spec: Spec = Box::new(move |x| {
                        idx.iter().all(|&k| {
                            let load: i64 = idx
                                .iter()
                                .zip(&size)
                                .filter(|(&i, _)| x[i] == x[k])
                                .map(|(_, &s)| s as i64)
                                .sum();
                            load <= cap as i64
                        })
                    });
                    (label, spec)
                }
            }
            11 => {
                let idx = pick_some(r, 2, 2, n);
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                let op = r.below(3);
                match op {
                    0 => m.strictly_increasing(&xs)?,
                    1 => m.decreasing(&xs)?,
                    _ => m.strictly_decreasing(&xs)?,
                };
                let label = format!("monotone {op} {idx:?}");
                let spec: Spec = Box::new(move |x| {
                    idx.windows(2).all(|w| {
                        let (a, b) = (x[w[0]], x[w[1]]);
                        [a < b, a >= b, a > b][op]
                    })
                });
                (label, spec)
            }
            _ => {
                let idx = pick_some(r, 1, 2, n);
                let (tuples, set) = random_tuples(r, &c.domains, &idx, 6);
                let xs: Vec<VarId> = idx.iter().map(|&k| v[k]).collect();
                m.negative_table(&xs, tuples)?;
                let label = format!("negative_table {idx:?} {set:?}");
                let spec: Spec = Box::new(move |x| {
                    !set.contains(&idx.iter().map(|&k| x[k]).collect::<Vec<_>>())
                });
                (label, spec)
            }
        })
    })();
    res.ok()
}
