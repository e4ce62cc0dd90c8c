//! [`Solution`]: a complete assignment that satisfies every constraint.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Index;
use std::sync::Arc;

use crate::ids::{Value, VarId};
use crate::model::Model;
use crate::names::Names;

/// A complete, checked assignment: one value per variable of the model.
///
/// Read it by variable (`s[x]`, `s[&x]`, [`Solution::value`],
/// [`Solution::values_of`] for a list or a [`VarArray`](crate::VarArray))
/// or by name (`s["shift[3][5]"]`, [`Solution::get`]). Equality, order
/// and hashing look at the values only.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone)]
pub struct Solution {
    values: Vec<Value>,
    /// The model's names, for [`Solution::get`].
    #[cfg_attr(feature = "serde", serde(skip))]
    names: Option<Arc<Names>>,
}

impl Solution {
    pub(crate) fn new(values: Vec<Value>) -> Solution {
        Solution {
            values,
            names: None,
        }
    }
    /// This solution, able to look up `m`'s names.
    pub(crate) fn named(mut self, m: &Model) -> Solution {
        self.names = Some(Arc::clone(m.names_shared()));
        self
    }
    /// The value of `x`.
    pub fn value(&self, x: VarId) -> Value {
        self.values[x.index()]
    }
    /// The values of `xs`, in order (a [`VarArray`](crate::VarArray) goes
    /// as `&a`).
    pub fn values_of(&self, xs: &[VarId]) -> Vec<Value> {
        xs.iter().map(|&x| self.value(x)).collect()
    }
    /// The value of the variable named `name` (see
    /// [`Model::var_by_name`]); `None` for a name the model does not have.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let y = m.new_var_named("y", Domain::range(3, 3))?;
    /// let shift = m.new_vars_named("shift", [5, 7], Domain::range(0, 1))?;
    /// let s = Search::new(&m).solve()?.solution.unwrap();
    /// assert_eq!(s.get("y"), Some(3));
    /// assert_eq!(s.get("shift[3][5]"), Some(s[shift[[3, 5]]]));
    /// assert_eq!(s.get("shift[5][0]"), None);
    /// assert_eq!(s["y"], s[&y]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, name: &str) -> Option<Value> {
        let i = self.names.as_ref()?.lookup(name)?;
        self.values.get(i).copied()
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

impl PartialEq for Solution {
    fn eq(&self, other: &Solution) -> bool {
        self.values == other.values
    }
}

impl Eq for Solution {}

impl PartialOrd for Solution {
    fn partial_cmp(&self, other: &Solution) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Solution {
    fn cmp(&self, other: &Solution) -> std::cmp::Ordering {
        self.values.cmp(&other.values)
    }
}

impl Hash for Solution {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.values.hash(state);
    }
}

impl Index<VarId> for Solution {
    type Output = Value;
    fn index(&self, x: VarId) -> &Value {
        &self.values[x.index()]
    }
}

impl Index<&VarId> for Solution {
    type Output = Value;
    fn index(&self, x: &VarId) -> &Value {
        &self.values[x.index()]
    }
}

impl Index<&str> for Solution {
    type Output = Value;
    /// The value of the variable named `name`.
    ///
    /// # Panics
    /// When the model has no variable of that name;
    /// [`Solution::get`] returns `None` instead.
    fn index(&self, name: &str) -> &Value {
        match self.names.as_ref().and_then(|n| n.lookup(name)) {
            Some(i) => &self.values[i],
            None => panic!("the solution's model has no variable named `{name}`"),
        }
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
