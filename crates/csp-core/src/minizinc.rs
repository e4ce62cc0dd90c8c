//! [`Model::to_minizinc`]: a model written as a MiniZinc file, so that
//! Gecode, Chuffed, OR-Tools and the other MiniZinc solvers can run it
//! (to compare answers, or to hand a model built in Rust to another
//! solver).
//!
//! Each variable becomes a `var` declaration over its domain, named after
//! the model's name for it when that is a MiniZinc identifier (arrays'
//! `q[3]` becomes `q_3`), else `v` and its index. Each constraint is
//! written by its [`Constraint::to_minizinc`], in MiniZinc's standard
//! library (each global from its own file); a constraint without a MiniZinc form of its
//! own (a user constraint, most often) is written as the `table` of the
//! solutions its checker accepts, when its scope has at most
//! [`TABLE_LIMIT`] combinations of values; otherwise the model cannot be
//! written ([`ModelError::NoMiniZinc`] names the constraint).

use std::collections::HashSet;
use std::fmt::Write;

use crate::constraint::Constraint;
use crate::error::ModelError;
use crate::ids::{Value, VarId};
use crate::model::Model;
use crate::Domain;

/// The MiniZinc globals the constraints' forms may call, each included
/// from its own file when used.
const GLOBALS: &[&str] = &[
    "all_different",
    "alldifferent_except",
    "among",
    "bin_packing",
    "bin_packing_load",
    "circuit",
    "count",
    "cumulative",
    "diffn",
    "diffn_k",
    "diffn_nonstrict",
    "diffn_nonstrict_k",
    "disjunctive",
    "global_cardinality",
    "increasing",
    "inverse",
    "lex_less",
    "lex_lesseq",
    "nvalue",
    "regular",
    "strictly_increasing",
    "subcircuit",
    "table",
    "value_precede",
    "value_precede_chain",
];

/// The most value combinations of a scope that a constraint without a
/// MiniZinc form of its own is listed over (as a `table`).
pub const TABLE_LIMIT: u64 = 100_000;

/// What the written model asks the MiniZinc solver for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// `solve satisfy`.
    Satisfy,
    /// `solve minimize x`.
    Minimize(VarId),
    /// `solve maximize x`.
    Maximize(VarId),
}

/// MiniZinc's reserved words and the standard library's names a variable
/// must not take.
const RESERVED: &[&str] = &[
    "ann",
    "annotation",
    "any",
    "array",
    "bool",
    "case",
    "constraint",
    "diff",
    "div",
    "else",
    "elseif",
    "endif",
    "enum",
    "false",
    "float",
    "function",
    "if",
    "in",
    "include",
    "int",
    "intersect",
    "let",
    "list",
    "maximize",
    "minimize",
    "mod",
    "not",
    "of",
    "op",
    "opt",
    "output",
    "par",
    "predicate",
    "record",
    "satisfy",
    "set",
    "solve",
    "string",
    "subset",
    "superset",
    "symdiff",
    "test",
    "then",
    "true",
    "tuple",
    "type",
    "union",
    "var",
    "where",
    "xor",
    "sum",
    "product",
    "min",
    "max",
    "abs",
    "pow",
    "table",
    "count",
    "element",
    "circuit",
    "inverse",
    "regular",
];

/// The MiniZinc identifier of each variable, as [`Model::to_minizinc`]
/// names it: the model's name made an
/// identifier (`q[3]` → `q_3`) when that is free, else `v<index>`.
pub fn identifiers(m: &Model) -> Vec<String> {
    let n = m.num_vars();
    let mut taken: HashSet<String> = (0..n).map(|i| format!("v{i}")).collect();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let x = VarId::from_index(i);
        let fallback = format!("v{i}");
        let id = m
            .name(x)
            .map(sanitize)
            .filter(|s| !s.is_empty() && !RESERVED.contains(&s.as_str()) && !taken.contains(s));
        match id {
            Some(s) => {
                taken.insert(s.clone());
                out.push(s);
            }
            None => out.push(fallback),
        }
    }
    out
}

/// `name` as a MiniZinc identifier: letters, digits and `_`, starting with
/// a letter (brackets and other characters become `_`, trailing ones go).
fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    while s.ends_with('_') {
        s.pop();
    }
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert_str(0, "x_");
    }
    s
}

/// A domain as a MiniZinc set: `lo..hi`, or the union of its ranges.
pub(crate) fn domain_set(d: &Domain) -> String {
    let (Some(lo), Some(hi)) = (d.min(), d.max()) else {
        return "{}".into();
    };
    if d.is_range() {
        return format!("{lo}..{hi}");
    }
    let mut ranges: Vec<(Value, Value)> = Vec::new();
    for v in d.iter() {
        match ranges.last_mut() {
            Some(r) if r.1.checked_add(1) == Some(v) => r.1 = v,
            _ => ranges.push((v, v)),
        }
    }
    let singles = ranges.iter().all(|&(a, b)| a == b);
    if singles {
        let vals: Vec<String> = ranges.iter().map(|r| r.0.to_string()).collect();
        return format!("{{{}}}", vals.join(", "));
    }
    ranges
        .iter()
        .map(|&(a, b)| {
            if a == b {
                format!("{{{a}}}")
            } else {
                format!("{a}..{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(" union ")
}

/// A MiniZinc array literal: `[a, b, c]`.
pub fn list(names: &[String]) -> String {
    format!("[{}]", names.join(", "))
}

/// A MiniZinc array of constants: `[1, 2, 3]`.
pub(crate) fn ints(values: &[i64]) -> String {
    let v: Vec<String> = values.iter().map(i64::to_string).collect();
    format!("[{}]", v.join(", "))
}

/// Each name plus one (`x + 1`): 0-based successors and positions as
/// MiniZinc's 1-based ones.
pub(crate) fn plus_one(names: &[String]) -> Vec<String> {
    names.iter().map(|x| format!("({x} + 1)")).collect()
}

/// A relation in MiniZinc.
pub(crate) fn relation(r: crate::Relation) -> &'static str {
    use crate::Relation as R;
    match r {
        R::Eq => "=",
        R::Ne => "!=",
        R::Le => "<=",
        R::Ge => ">=",
        R::Lt => "<",
        R::Gt => ">",
    }
}

/// A linear term: `3*x`, `-x`, `x`.
pub(crate) fn term(a: i64, x: &str) -> String {
    match a {
        1 => x.to_string(),
        -1 => format!("-{x}"),
        _ => format!("{a}*{x}"),
    }
}

/// The solutions of `c`'s checker over its scope's domains, as a MiniZinc
/// `table`; `None` when the scope has more than [`TABLE_LIMIT`]
/// combinations.
fn as_table(m: &Model, c: &dyn Constraint, names: &[String]) -> Option<String> {
    let scope = c.scope();
    let mut total: u64 = 1;
    for &x in scope {
        total = total.checked_mul(m.domain(x).size())?;
        if total > TABLE_LIMIT {
            return None;
        }
    }
    let domains: Vec<Vec<Value>> = scope
        .iter()
        .map(|&x| m.domain(x).iter().collect())
        .collect();
    if domains.iter().any(Vec::is_empty) {
        return Some("false".into());
    }
    let k = scope.len();
    let mut at = vec![0usize; k];
    let mut values: Vec<Value> = domains.iter().map(|d| d[0]).collect();
    let mut rows: Vec<String> = Vec::new();
    'all: loop {
        // The same variable twice in a scope takes one value.
        let consistent =
            (0..k).all(|i| (0..i).all(|j| scope[i] != scope[j] || values[i] == values[j]));
        if consistent && c.is_satisfied(&values) {
            let row: Vec<String> = values.iter().map(Value::to_string).collect();
            rows.push(row.join(", "));
        }
        // The next combination, the last position fastest.
        let mut p = k;
        loop {
            if p == 0 {
                break 'all;
            }
            p -= 1;
            at[p] += 1;
            if at[p] < domains[p].len() {
                values[p] = domains[p][at[p]];
                break;
            }
            at[p] = 0;
            values[p] = domains[p][0];
        }
    }
    if k == 0 || rows.is_empty() {
        return Some((!rows.is_empty()).to_string());
    }
    Some(format!(
        "table({}, array2d(1..{}, 1..{k}, [\n    {}]))",
        list(names),
        rows.len(),
        rows.join(",\n    ")
    ))
}

impl Model {
    /// The model as a MiniZinc file that asks for any solution (`solve
    /// satisfy`); see [`to_minizinc_goal`](Model::to_minizinc_goal).
    ///
    /// ```
    /// use csp_core::{Domain, Model};
    /// let mut m = Model::new();
    /// let q = m.new_vars_named("q", [4], Domain::range(1, 4))?;
    /// m.all_different(&q)?;
    /// m.post(q[[0]].lt(q[[1]]))?;
    /// let mzn = m.to_minizinc()?;
    /// assert!(mzn.contains("var 1..4: q_0;"));
    /// assert!(mzn.contains("constraint all_different([q_0, q_1, q_2, q_3]);"));
    /// assert!(mzn.contains("solve satisfy;"));
    /// # Ok::<(), csp_core::ModelError>(())
    /// ```
    pub fn to_minizinc(&self) -> Result<String, ModelError> {
        self.to_minizinc_goal(Goal::Satisfy)
    }

    /// The model as a MiniZinc file with `goal` as its solve item. Every
    /// variable is declared and printed by the output item, one
    /// `name = value;` line each (MiniZinc's `dzn` form), in the model's
    /// order. Errors: [`ModelError::NoMiniZinc`] for a constraint with no
    /// MiniZinc form whose scope is too large to list (see the
    /// [module](crate::minizinc)), [`ModelError::ForeignVar`] for an
    /// objective of another model.
    pub fn to_minizinc_goal(&self, goal: Goal) -> Result<String, ModelError> {
        if let Goal::Minimize(x) | Goal::Maximize(x) = goal {
            self.check_vars("to_minizinc", &[x])?;
        }
        let ids = identifiers(self);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "% Written by csp (Model::to_minizinc): {} variables, {} constraints.",
            self.num_vars(),
            self.num_constraints()
        );
        // The constraints first, for the files they need: one include per
        // global used (not `globals.mzn`, which some solvers' libraries,
        // Debian's Gecode among them, cannot load whole).
        let mut items = String::new();
        for (cid, c) in self.constraints() {
            let names: Vec<String> = c.scope().iter().map(|x| ids[x.index()].clone()).collect();
            let text = match c.to_minizinc(&names) {
                Some(t) => t,
                None => as_table(self, c, &names).ok_or_else(|| ModelError::NoMiniZinc {
                    constraint: cid.0 as usize,
                    name: c.name().to_string(),
                    reason: format!(
                        "it has no MiniZinc form, and its {} variables have more than {TABLE_LIMIT} combinations of values to list as a table",
                        c.scope().len()
                    ),
                })?,
            };
            let _ = writeln!(items, "constraint {text}; % c{} {}", cid.0, c.name());
        }
        for g in GLOBALS {
            if items.contains(&format!("{g}(")) {
                let _ = writeln!(out, "include \"{g}.mzn\";");
            }
        }
        out.push('\n');
        for (i, id) in ids.iter().enumerate() {
            let x = VarId::from_index(i);
            let d = domain_set(self.domain(x));
            match self.name(x) {
                Some(n) if n != id => {
                    let _ = writeln!(out, "var {d}: {id}; % {n}");
                }
                _ => {
                    let _ = writeln!(out, "var {d}: {id};");
                }
            }
        }
        out.push('\n');
        out.push_str(&items);
        out.push('\n');
        let _ = match goal {
            Goal::Satisfy => writeln!(out, "solve satisfy;"),
            Goal::Minimize(x) => writeln!(out, "solve minimize {};", ids[x.index()]),
            Goal::Maximize(x) => writeln!(out, "solve maximize {};", ids[x.index()]),
        };
        out.push_str("\noutput [");
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "\"{id} = \", show({id}), \";\\n\"");
        }
        out.push_str("];\n");
        Ok(out)
    }
}
