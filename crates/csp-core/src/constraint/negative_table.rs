//! Negative table constraints: the scope must avoid a list of forbidden tuples.

use super::compact_table::{CompactTable, Supports};
use super::Constraint;
use crate::ids::{ConstraintId, Value, VarId};
use crate::propagation::Propagator;
use crate::{Model, ModelError};

/// The scope's values must form none of the forbidden tuples.
///
/// # Pruning
/// Both inference levels enforce generalised arc consistency with the
/// negative compact-table (Verhaeghe, Lecoutre and Schaus, AAAI 2017): a
/// reversible bitset of the forbidden tuples still possible; a value goes
/// when every tuple through it over the current domains is forbidden (the
/// live forbidden tuples through it, a popcount over its support, equal the
/// product of the other domains' sizes). Per call O(Σ|support| + t/64) for
/// the changed variables, plus O(Σ|support|) per position whose other
/// domains hold at most `t` tuples (others cannot lose a value). No live
/// forbidden tuple entails the constraint.
///
/// The checker is a binary search over the sorted tuples, O(k·log t);
/// local-search violations are 0 or 1.
#[derive(Debug, Clone)]
pub struct NegativeTable {
    vars: Vec<VarId>,
    /// Forbidden tuples, sorted and deduplicated.
    tuples: Vec<Vec<Value>>,
    sup: Supports,
}

impl NegativeTable {
    /// The forbidden tuples, sorted.
    pub fn tuples(&self) -> &[Vec<Value>] {
        &self.tuples
    }
}

impl Constraint for NegativeTable {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.tuples
            .binary_search_by(|t| t.as_slice().cmp(values))
            .is_err()
    }
    fn name(&self) -> &str {
        "negative table"
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(CompactTable::new(
            &self.vars,
            &self.sup,
            true,
            &[],
        )))
    }
}

impl Model {
    /// The values of `vars` form none of `tuples` (see [`NegativeTable`]).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let x = m.new_vars(2, Domain::range(0, 2)).unwrap();
    /// // x0 ≠ x1, as forbidden pairs.
    /// m.negative_table(&x, (0..3).map(|v| vec![v, v])).unwrap();
    /// assert_eq!(Search::new(&m).count().unwrap().count, 6);
    /// ```
    ///
    /// Fails with [`ModelError::LengthMismatch`] for a tuple whose length
    /// is not the scope's, and [`ModelError::Invalid`] for an empty scope.
    pub fn negative_table(
        &mut self,
        vars: &[VarId],
        tuples: impl IntoIterator<Item = Vec<Value>>,
    ) -> Result<ConstraintId, ModelError> {
        if vars.is_empty() {
            return Err(ModelError::Invalid {
                constraint: "negative table",
                reason: "the scope is empty".into(),
            });
        }
        let mut tuples: Vec<Vec<Value>> = tuples.into_iter().collect();
        if let Some(t) = tuples.iter().find(|t| t.len() != vars.len()) {
            return Err(ModelError::LengthMismatch {
                constraint: "negative table",
                what: "values in a tuple",
                expected: vars.len(),
                found: t.len(),
            });
        }
        tuples.sort_unstable();
        tuples.dedup();
        let flat: Vec<Value> = tuples.iter().flatten().copied().collect();
        self.post(NegativeTable {
            sup: Supports::new(vars.len(), &flat),
            vars: vars.to_vec(),
            tuples,
        })
    }
}
