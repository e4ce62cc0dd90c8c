//! `fzn-csp --why-unsat`: after `=====UNSATISFIABLE=====`, comment lines
//! naming a minimal set of the model's FlatZinc constraints that cannot
//! hold together ([`csp_core::hints::why_no_solution_constraints`]), each
//! by its line, its call, and MiniZinc's `mzn_constraint_name` (from
//! `constraint :: "name" …`) and `mzn_path` annotations when present.
//!
//! The variables' declared domains are the background: they always hold.
//! MiniZinc folds unary constraints (`c <= 2`) into the domains, so those
//! never appear in the set; a constraint the translation introduced (a
//! view's definition) is shown as such.

use std::io::{self, Write};
use std::time::Duration;

use csp_core::hints::{self, Diagnosis, Refutation};
use csp_core::ConstraintId;

use crate::FznModel;

/// The default node budget of each consistency check.
pub const DEFAULT_BUDGET: u64 = 100_000;

/// The most lines of propagation's explanation printed.
const MAX_EXPLANATION_LINES: usize = 40;

/// Prints, as `%` comment lines, why `fzn` (read from `text`) has no
/// solution: within `budget` nodes per check and `time` overall.
///
/// ```
/// use csp_fzn::{build, parse};
/// let text = "var 1..3: a;\nvar 1..3: b;\nvar 1..2: c;\n\
///     constraint int_lt(a, b) :: mzn_constraint_name(\"a before b\");\n\
///     constraint int_lt(b, c);\nconstraint int_ne(a, c);\nsolve satisfy;\n";
/// let fzn = build(&parse(text).unwrap()).unwrap();
/// let mut out = Vec::new();
/// csp_fzn::why::explain(&fzn, text, 100_000, None, &mut out).unwrap();
/// let out = String::from_utf8(out).unwrap();
/// assert!(out.contains("% line 4: int_lt(a, b) \"a before b\"\n"), "{out}");
/// assert!(out.contains("% line 5: int_lt(b, c)\n"), "{out}");
/// assert!(!out.contains("line 6"), "{out}");
/// ```
pub fn explain(
    fzn: &FznModel,
    text: &str,
    budget: u64,
    time: Option<Duration>,
    out: &mut impl Write,
) -> io::Result<()> {
    if fzn.inconsistent {
        match fzn.inconsistent_at {
            Some(pos) => writeln!(
                out,
                "% why-unsat: line {} empties a variable's domain: {}",
                pos.line,
                item_text(text, pos.line, pos.column).0
            )?,
            None => writeln!(out, "% why-unsat: a variable's domain is empty")?,
        }
        return Ok(());
    }
    let mut options = hints::Options {
        search_budget: budget,
        ..hints::Options::default()
    };
    options.search.limits.time = time;
    let d = match hints::why_no_solution_constraints(&fzn.model, &[], &options) {
        Ok(d) => d,
        Err(e) => {
            writeln!(out, "% why-unsat: no answer: {e}")?;
            return Ok(());
        }
    };
    let c = match d {
        Diagnosis::Conflict(c) => c,
        Diagnosis::HasSolution(_) => {
            // The search said unsatisfiable, the checks found a solution
            // (checked against every constraint): one of them is wrong.
            writeln!(
                out,
                "% why-unsat: internal error: the checks found a solution the search did not"
            )?;
            return Ok(());
        }
        Diagnosis::Unknown => {
            writeln!(
                out,
                "% why-unsat: the checks ran out of budget before refuting the model \
                 (raise --why-unsat-budget, now {budget} nodes per check)"
            )?;
            return Ok(());
        }
    };
    // The items of the constraints, each once, in the model's order.
    let mut items: Vec<(Option<crate::Origin>, ConstraintId)> = Vec::new();
    for &k in &c.constraints {
        let o = fzn.origin(k);
        if o.is_none() || !items.iter().any(|(p, _)| *p == o) {
            items.push((o, k));
        }
    }
    let n = items.len();
    writeln!(
        out,
        "% why-unsat: {n} constraint{} cannot hold together ({}), the variables' domains \
         always holding:",
        if n == 1 { "" } else { "s" },
        if c.minimal {
            "minimal: without any one of them there is a solution"
        } else {
            "not proved minimal: a check ran out of budget"
        }
    )?;
    for (o, k) in &items {
        match o {
            Some(o) => {
                let (call, path) = item_text(text, o.pos.line, o.pos.column);
                write!(out, "% line {}: {call}", o.pos.line)?;
                if let Some(name) = fzn.model.constraint_name(*k) {
                    write!(out, " {name:?}")?;
                }
                if let Some(p) = path {
                    write!(out, " at {p}")?;
                }
                writeln!(out)?;
            }
            None => writeln!(
                out,
                "% (introduced by the translation) {}",
                fzn.model.constraint(*k).name()
            )?,
        }
    }
    match &c.refutation {
        Refutation::Propagation(e) => {
            writeln!(out, "% why-unsat: propagation refutes them:")?;
            let text = e.to_string();
            let lines: Vec<&str> = text.lines().collect();
            for l in lines.iter().take(MAX_EXPLANATION_LINES) {
                writeln!(out, "%   {l}")?;
            }
            if lines.len() > MAX_EXPLANATION_LINES {
                writeln!(
                    out,
                    "%   … ({} more lines)",
                    lines.len() - MAX_EXPLANATION_LINES
                )?;
            }
        }
        Refutation::Search { nodes } => writeln!(
            out,
            "% why-unsat: propagation alone does not refute them: a search of {nodes} nodes did"
        )?,
        Refutation::Inferred => writeln!(
            out,
            "% why-unsat: refuted within larger sets; their own search ran out of budget"
        )?,
    }
    Ok(())
}

/// The call of the item at `line`:`column` of `text` (from after
/// `constraint` to its first annotation or its end), with its `mzn_path`
/// shown as `file:line.column-line.column` when it has one.
fn item_text(text: &str, line: usize, column: usize) -> (String, Option<String>) {
    let start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + column.saturating_sub(1);
    let rest = text.get(start..).unwrap_or("");
    // The item runs to the first `;` outside a string.
    let mut end = rest.len();
    let mut in_str = false;
    let mut prev = '\0';
    for (i, ch) in rest.char_indices() {
        match ch {
            '"' if prev != '\\' => in_str = !in_str,
            ';' if !in_str => {
                end = i;
                break;
            }
            _ => {}
        }
        prev = ch;
    }
    let item = &rest[..end];
    let body = item.strip_prefix("constraint").unwrap_or(item).trim_start();
    // The call ends at the first `::` outside brackets and strings.
    let mut depth = 0i32;
    let mut in_str = false;
    let mut call_end = body.len();
    let bytes = body.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' if i == 0 || bytes[i - 1] != b'\\' => in_str = !in_str,
            b'(' | b'[' | b'{' if !in_str => depth += 1,
            b')' | b']' | b'}' if !in_str => depth -= 1,
            b':' if !in_str && depth == 0 && bytes.get(i + 1) == Some(&b':') => {
                call_end = i;
                break;
            }
            _ => {}
        }
    }
    let mut call: String = body[..call_end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    const MAX: usize = 200;
    if call.chars().count() > MAX {
        call = call.chars().take(MAX).collect::<String>() + "…";
    }
    let path = body.find("mzn_path(\"").and_then(|i| {
        let p = &body[i + "mzn_path(\"".len()..];
        let p = &p[..p.find('"')?];
        // file|line|column|line|column|…; the first segment is the item's.
        let f: Vec<&str> = p.split(';').next()?.split('|').collect();
        match f.as_slice() {
            [file, l1, c1, l2, c2, ..] => Some(format!("{file}:{l1}.{c1}-{l2}.{c2}")),
            _ => Some(p.to_string()),
        }
    });
    (call, path)
}

#[cfg(test)]
mod tests {
    use super::item_text;

    #[test]
    fn an_item_s_call_and_path() {
        let text =
            "var 1..3: a;\nconstraint int_lin_le(X,[a,b],-1):: mzn_constraint_name(\"a; b\"):: \
                    mzn_path(\"/m.mzn|2|28|2|32|bin|'<';/m.mzn|2|28|2|32|ca|int_lin_le;\");\n";
        let (call, path) = item_text(text, 2, 1);
        assert_eq!(call, "int_lin_le(X,[a,b],-1)");
        assert_eq!(path.as_deref(), Some("/m.mzn:2.28-2.32"));
        let (call, path) = item_text("constraint int_ne(x, y);", 1, 1);
        assert_eq!(call, "int_ne(x, y)");
        assert_eq!(path, None);
    }
}
