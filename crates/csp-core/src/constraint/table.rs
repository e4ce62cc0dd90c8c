//! Table constraints: the scope must take one of a list of allowed tuples.

use super::Why;
use smallvec::SmallVec;

use super::compact_table::{CompactTable, Supports};
use super::{has_repeats, Constraint, Pruner};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::propagation::Propagator;

/// The scope's values must form one of the allowed tuples.
///
/// # Pruning
/// Both inference levels enforce generalised arc consistency with
/// compact-table (Demeulenaere et al., CP 2016; see
/// `constraint/compact_table.rs`): a reversible bitset of the live tuples,
/// updated per changed variable in O(Σ|support| + t/64) for `t` tuples, and
/// per value a residue checked in O(1), else a scan of its support
/// (O(t/64) at worst). Setup builds the supports once, O(t·k·log t) time and
/// O(t·k) memory for arity `k`.
///
/// A scope that names a variable twice (or no variable) uses the tuple scan
/// instead: a tuple is alive when each of its values is still in its domain
/// (and repeated positions agree), a value stays only if some live tuple
/// uses it, O(t·k) per call.
///
/// The checker is a binary search over the sorted tuples, O(k·log t).
#[derive(Debug, Clone)]
pub struct Table {
    vars: Vec<VarId>,
    /// Tuples, sorted and deduplicated, flattened (`arity` values each).
    tuples: Vec<Value>,
    /// Number of tuples (not derivable from `tuples` when the arity is 0).
    n_rows: usize,
    /// The compact-table supports.
    sup: Supports,
}

impl Table {
    /// A table over `vars` with the given tuples (each of length `vars.len()`,
    /// checked by the model).
    pub fn new(vars: Vec<VarId>, tuples: Vec<Vec<Value>>) -> Table {
        let mut t = tuples;
        t.sort_unstable();
        t.dedup();
        let flat: Vec<Value> = t.iter().flatten().copied().collect();
        Table {
            sup: Supports::new(vars.len(), &flat),
            vars,
            n_rows: t.len(),
            tuples: flat,
        }
    }

    fn arity(&self) -> usize {
        self.vars.len()
    }

    fn rows(&self) -> impl Iterator<Item = &[Value]> {
        self.tuples.chunks_exact(self.arity().max(1))
    }

    fn gac(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        let k = self.arity();
        if k == 0 {
            // Over no variables: satisfied exactly when the empty tuple is allowed.
            return if self.n_rows > 0 {
                Ok(())
            } else {
                Err(Conflict)
            };
        }
        let mut supported: SmallVec<[Vec<Value>; 8]> = (0..k).map(|_| Vec::new()).collect();
        for row in self.rows() {
            if row
                .iter()
                .zip(&self.vars)
                .all(|(&v, &x)| pruner.contains(x, v))
                && (0..k).all(|a| (0..a).all(|b| self.vars[a] != self.vars[b] || row[a] == row[b]))
            {
                for p in 0..k {
                    supported[p].push(row[p]);
                }
            }
        }
        for p in 0..k {
            let s = &mut supported[p];
            s.sort_unstable();
            s.dedup();
            let s = &supported[p];
            pruner.retain(self.vars[p], |v| s.binary_search(&v).is_ok(), Why::Scope)?;
        }
        Ok(())
    }
}

impl Constraint for Table {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        let k = self.arity();
        if k == 0 {
            return self.n_rows > 0;
        }
        let n = self.n_rows;
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let row = &self.tuples[mid * k..mid * k + k];
            match row.cmp(values) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }
    fn name(&self) -> &str {
        "table"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let k = self.arity();
        if k == 0 || self.n_rows == 0 {
            return Some((k == 0 && self.n_rows > 0).to_string());
        }
        let rows: Vec<String> = self
            .tuples
            .chunks(k)
            .map(|t| {
                t.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        Some(format!(
            "table({}, array2d(1..{}, 1..{k}, [\n    {}]))",
            crate::minizinc::list(vars),
            self.n_rows,
            rows.join(",\n    ")
        ))
    }
    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.gac(pruner)
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.gac(pruner)
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        if self.vars.is_empty() || has_repeats(&self.vars) {
            return None;
        }
        Some(Box::new(CompactTable::new(
            &self.vars,
            &self.sup,
            false,
            &self.tuples,
        )))
    }
}
