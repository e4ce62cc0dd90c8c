//! Element: `array[index] = result`, with an array of variables.

use super::{Constraint, Premises, Pruner, Why};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;

/// `array[index] = result`, with a 0-based `index` variable and an array of
/// variables (a constant array is an array of fixed variables).
///
/// Scope order: `index`, `result`, then the array.
///
/// # Pruning
/// Both inference levels: `index` keeps the positions `i` whose `array[i]`
/// shares a value with `result`; `result` keeps the values some remaining
/// `array[i]` can take; when `index` is fixed to `i`, `array[i]` and `result`
/// are made equal. O(n·d) for n array entries of domain size d.
#[derive(Debug, Clone)]
pub struct Element {
    /// index, result, array...
    vars: Vec<VarId>,
}

impl Element {
    /// `array[index] = result`.
    pub fn new(index: VarId, array: &[VarId], result: VarId) -> Element {
        let mut vars = Vec::with_capacity(array.len() + 2);
        vars.push(index);
        vars.push(result);
        vars.extend_from_slice(array);
        Element { vars }
    }

    fn prune(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (index, result, array) = (self.vars[0], self.vars[1], &self.vars[2..]);
        let n = array.len() as i64;
        pruner.retain(index, |i| (0..n).contains(&(i as i64)), Why::Constraint)?;
        // index: positions whose entry can equal the result.
        let idx: Vec<Value> = pruner.values(index).collect();
        for i in idx {
            let a = array[i as usize];
            let meets = pruner.values(a).any(|v| pruner.contains(result, v));
            if !meets {
                // array[i] and result have no value in common.
                pruner.remove(index, i, |r: &mut Premises| {
                    r.domain(a);
                    r.domain(result);
                })?;
            }
        }
        // result: values some remaining entry can take.
        let idx: Vec<Value> = pruner.values(index).collect();
        let res: Vec<Value> = pruner.values(result).collect();
        for v in res {
            if !idx.iter().any(|&i| pruner.contains(array[i as usize], v)) {
                // No entry the index can still name can take v.
                let idx = &idx;
                pruner.remove(result, v, move |r: &mut Premises| {
                    r.domain(index);
                    for &i in idx {
                        r.push(Literal::Ne(array[i as usize], v));
                    }
                })?;
            }
        }
        if let Some(i) = pruner.value(index) {
            let a = array[i as usize];
            let av: Vec<Value> = pruner.values(a).collect();
            // With the index fixed, array[i] and result mirror each other.
            let fixed = Literal::Eq(index, i);
            for v in av {
                if !pruner.contains(result, v) {
                    pruner.remove(a, v, |r: &mut Premises| {
                        r.push(fixed);
                        r.push(Literal::Ne(result, v));
                    })?;
                }
            }
            let rv: Vec<Value> = pruner.values(result).collect();
            for v in rv {
                if !pruner.contains(a, v) {
                    pruner.remove(result, v, |r: &mut Premises| {
                        r.push(fixed);
                        r.push(Literal::Ne(a, v));
                    })?;
                }
            }
        }
        Ok(())
    }
}

impl Constraint for Element {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        let i = values[0];
        i >= 0 && (i as usize) < values.len() - 2 && values[2 + i as usize] == values[1]
    }
    fn name(&self) -> &str {
        "element"
    }
    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.prune(pruner)
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.prune(pruner)
    }
}
