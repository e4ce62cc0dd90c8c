//! [`Solution`]: a complete assignment that satisfies every constraint.

use std::fmt;
use std::ops::Index;

use crate::ids::{Value, VarId};

/// A complete, checked assignment: one value per variable of the model.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Solution {
    values: Vec<Value>,
}

impl Solution {
    pub(crate) fn new(values: Vec<Value>) -> Solution {
        Solution { values }
    }
    /// The value of `x`.
    pub fn value(&self, x: VarId) -> Value {
        self.values[x.index()]
    }
    /// The values of `xs`, in order.
    pub fn values_of(&self, xs: &[VarId]) -> Vec<Value> {
        xs.iter().map(|&x| self.value(x)).collect()
    }
    /// All values, by variable index.
    pub fn values(&self) -> &[Value] {
        &self.values
    }
    /// Consumes the solution, returning its values.
    pub fn into_values(self) -> Vec<Value> {
        self.values
    }
}

impl Index<VarId> for Solution {
    type Output = Value;
    fn index(&self, x: VarId) -> &Value {
        &self.values[x.index()]
    }
}

impl fmt::Debug for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Solution{:?}", self.values)
    }
}

impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.values.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}
