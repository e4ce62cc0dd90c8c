//! Names and arrays of variables: [`Model::new_vars_named`] makes a named
//! array of any number of dimensions ([`VarArray`]), whose elements are
//! named `shift[3][5]`; [`Model::var_by_name`] and
//! [`Solution::get`](crate::Solution::get) find a variable by its name;
//! `Display for Model` lists the variables and constraints by name.

use std::fmt;
use std::ops::{Deref, Index};
use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::domain::Domain;
use crate::error::ModelError;
use crate::ids::{ConstraintId, VarId};
use crate::model::Model;

/// The names of a model, for lookups: its named variables, and its named
/// arrays by their first variable and shape (an array's variables are
/// consecutive). Shared with the solutions of the model's searches.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    /// Names by variable index, up to the last named variable (`None`:
    /// unnamed); empty until the first named variable.
    vars: Vec<Option<Box<str>>>,
    /// The variables named one by one, in the order they were named.
    scalar_list: Vec<u32>,
    /// The same by name (the first of a repeated name), made at the first
    /// lookup: a hash insert per variable made Sudoku's 81 named cells
    /// cost 3 % of solving top95 (callgrind), for lookups few models do.
    scalars: OnceLock<FxHashMap<Box<str>, u32>>,
    /// Arrays by name: an index into `arrays`.
    by_name: FxHashMap<Box<str>, usize>,
    /// Arrays, in declaration order.
    arrays: Vec<ArrayInfo>,
    /// Constraint names by constraint index, up to the last named
    /// constraint (`None`: unnamed); empty until the first is named.
    constraints: Vec<Option<Box<str>>>,
}

#[derive(Clone, Debug)]
struct ArrayInfo {
    name: Box<str>,
    shape: Box<[usize]>,
    start: u32,
    len: usize,
}

impl Names {
    /// The names by variable index, filled with `None` up to `start` (the
    /// first variable about to be named).
    pub(crate) fn names_from(&mut self, start: usize) -> &mut Vec<Option<Box<str>>> {
        if self.vars.len() < start {
            self.vars.resize(start, None);
        }
        debug_assert_eq!(self.vars.len(), start);
        &mut self.vars
    }

    /// The name of variable `index`, if it has one.
    pub(crate) fn name(&self, index: usize) -> Option<&str> {
        self.vars.get(index).and_then(|s| s.as_deref())
    }

    /// Records that variable `index` (already in `names_from`) was named
    /// on its own, not as an array element.
    pub(crate) fn add_scalar(&mut self, index: u32) {
        self.scalar_list.push(index);
        if self.scalars.get().is_some() {
            self.scalars = OnceLock::new();
        }
    }

    /// The variable named `name`: a named variable, or an element
    /// `array[i][j]…` of a named array.
    pub(crate) fn lookup(&self, name: &str) -> Option<usize> {
        let scalars = self.scalars.get_or_init(|| {
            let mut map = FxHashMap::default();
            for &i in &self.scalar_list {
                if let Some(n) = self.name(i as usize) {
                    map.entry(n.into()).or_insert(i);
                }
            }
            map
        });
        if let Some(&i) = scalars.get(name) {
            return Some(i as usize);
        }
        let open = name.find('[')?;
        let a = &self.arrays[*self.by_name.get(&name[..open])?];
        let mut rest = &name[open..];
        let mut offset = 0usize;
        for &dim in a.shape.iter() {
            let inner = rest.strip_prefix('[')?;
            let close = inner.find(']')?;
            let digits = &inner[..close];
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let i: usize = digits.parse().ok()?;
            if i >= dim {
                return None;
            }
            offset = offset * dim + i;
            rest = &inner[close + 1..];
        }
        rest.is_empty().then_some(a.start as usize + offset)
    }

    /// The name of constraint `index`, if it has one.
    pub(crate) fn constraint(&self, index: usize) -> Option<&str> {
        self.constraints.get(index).and_then(|s| s.as_deref())
    }

    /// The array that starts at variable `index`, if any.
    fn array_at(&self, index: usize) -> Option<&ArrayInfo> {
        self.arrays
            .binary_search_by_key(&index, |a| a.start as usize)
            .ok()
            .map(|i| &self.arrays[i])
    }
}

/// A named array of variables of any number of dimensions, made by
/// [`Model::new_vars_named`]; its variables are stored in row-major order
/// (the last index varies fastest) and named `name[i][j]…`.
///
/// It dereferences to the slice of its variables, so it goes wherever a
/// `&[VarId]` does (`m.all_different(&row)`); `a[[i, j]]` is the variable
/// at a position, [`VarArray::get`] the same without panicking,
/// [`VarArray::row`] the variables under one first index, and `a[k]` the
/// `k`-th variable in row-major order (for a list, simply its `k`-th).
///
/// ```
/// use csp_core::{Domain, Model, Search};
/// let mut m = Model::new();
/// let shift = m.new_vars_named("shift", [5, 7], Domain::range(0, 3))?;
/// assert_eq!(shift.shape(), &[5, 7]);
/// assert_eq!(shift.len(), 35);
/// assert_eq!(m.name(shift[[3, 5]]), Some("shift[3][5]"));
/// assert_eq!(m.var_by_name("shift[3][5]"), Some(shift[[3, 5]]));
/// m.all_different(shift.row(0).unwrap())?; // the first row: 7 variables
/// # Ok::<(), csp_core::ModelError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarArray {
    name: Box<str>,
    shape: Box<[usize]>,
    vars: Vec<VarId>,
}

impl VarArray {
    /// The array's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its size along each dimension.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Its variables, in row-major order.
    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// The variable at `index` (one entry per dimension), or `None` when
    /// the index has the wrong number of entries or one is out of range.
    ///
    /// ```
    /// use csp_core::{Domain, Model};
    /// let mut m = Model::new();
    /// let a = m.new_vars_named("a", [2, 3], Domain::range(0, 1))?;
    /// assert_eq!(a.get(&[1, 2]), Some(a[[1, 2]]));
    /// assert_eq!(a.get(&[2, 0]), None);
    /// assert_eq!(a.get(&[1]), None);
    /// # Ok::<(), csp_core::ModelError>(())
    /// ```
    pub fn get(&self, index: &[usize]) -> Option<VarId> {
        self.offset(index).map(|o| self.vars[o])
    }

    /// The position of `index` in [`vars`](VarArray::vars).
    fn offset(&self, index: &[usize]) -> Option<usize> {
        if index.len() != self.shape.len() {
            return None;
        }
        let mut offset = 0usize;
        for (&i, &dim) in index.iter().zip(self.shape.iter()) {
            if i >= dim {
                return None;
            }
            offset = offset * dim + i;
        }
        Some(offset)
    }

    /// The variables whose first index is `i` (a row of a 2-D array, a
    /// plane of a 3-D one), or `None` past the first dimension.
    ///
    /// ```
    /// use csp_core::{Domain, Model};
    /// let mut m = Model::new();
    /// let a = m.new_vars_named("a", [2, 3], Domain::range(0, 1))?;
    /// assert_eq!(a.row(1).unwrap(), &[a[[1, 0]], a[[1, 1]], a[[1, 2]]]);
    /// assert!(a.row(2).is_none());
    /// # Ok::<(), csp_core::ModelError>(())
    /// ```
    pub fn row(&self, i: usize) -> Option<&[VarId]> {
        let first = *self.shape.first()?;
        if i >= first {
            return None;
        }
        let width = self.vars.len() / first;
        Some(&self.vars[i * width..(i + 1) * width])
    }
}

impl Deref for VarArray {
    type Target = [VarId];
    fn deref(&self) -> &[VarId] {
        &self.vars
    }
}

impl AsRef<[VarId]> for VarArray {
    fn as_ref(&self) -> &[VarId] {
        &self.vars
    }
}

impl<'a> IntoIterator for &'a VarArray {
    type Item = &'a VarId;
    type IntoIter = std::slice::Iter<'a, VarId>;
    fn into_iter(self) -> Self::IntoIter {
        self.vars.iter()
    }
}

impl Index<usize> for VarArray {
    type Output = VarId;
    /// The variable at position `i` of [`vars`](VarArray::vars) (row-major:
    /// for a list, its `i`-th variable).
    ///
    /// # Panics
    /// When `i` is out of range, as slice indexing does.
    fn index(&self, i: usize) -> &VarId {
        &self.vars[i]
    }
}

impl<const N: usize> Index<[usize; N]> for VarArray {
    type Output = VarId;
    /// The variable at a position.
    ///
    /// # Panics
    /// When the position has the wrong number of entries or one is out of
    /// range, as slice indexing does; [`VarArray::get`] returns `None`.
    fn index(&self, index: [usize; N]) -> &VarId {
        match self.offset(&index) {
            Some(o) => &self.vars[o],
            None => panic!(
                "index {index:?} is out of the shape {:?} of array `{}`",
                self.shape, self.name
            ),
        }
    }
}

impl Model {
    /// Declares a named array of variables sharing one domain, of shape
    /// `shape` (`[n]` for a list, `[rows, columns]` for a grid, any number
    /// of dimensions): its elements are named `name[i]`, `name[i][j]`, …
    /// and found again by [`Model::var_by_name`] and
    /// [`Solution::get`](crate::Solution::get).
    ///
    /// Fails with [`ModelError::Invalid`] for an empty name, a name with
    /// `[` or `]`, or the name of an array already declared, and as
    /// [`Model::new_vars`] does otherwise. Each element's name is stored:
    /// for millions of variables, [`Model::new_vars`] is leaner.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// // Three nurses on two shifts a day for two days, each shift staffed by
    /// // one nurse, nobody on both shifts of a day.
    /// let mut m = Model::new();
    /// let on = m.new_vars_named("on", [2, 2], Domain::range(0, 2))?; // on[day][shift] = nurse
    /// for day in 0..2 {
    ///     m.all_different(on.row(day).unwrap())?;
    /// }
    /// let s = Search::new(&m).solve()?.solution.unwrap();
    /// assert_ne!(s["on[1][0]"], s["on[1][1]"]);
    /// assert_eq!(s.get("on[0][1]"), Some(s[on[[0, 1]]]));
    /// assert_eq!(s.get("on[2][0]"), None); // no day 2
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new_vars_named(
        &mut self,
        name: &str,
        shape: impl AsRef<[usize]>,
        domain: Domain,
    ) -> Result<VarArray, ModelError> {
        let shape = shape.as_ref();
        let invalid = |reason: String| ModelError::Invalid {
            constraint: "new_vars_named",
            reason,
        };
        if name.is_empty() || name.contains(['[', ']']) {
            return Err(invalid(format!(
                "`{name}` is not an array name (not empty, without `[` or `]`)"
            )));
        }
        if self.names_ref().by_name.contains_key(name) {
            return Err(invalid(format!("an array named `{name}` exists already")));
        }
        let total = shape
            .iter()
            .fold(1u128, |a, &d| a.saturating_mul(d as u128));
        if self.num_vars() as u128 + total >= u32::MAX as u128 {
            return Err(ModelError::TooManyVariables {
                requested: self.num_vars() as u128 + total,
            });
        }
        let len = total as usize;
        let vars = self.new_vars(len, domain)?;
        let start = vars.first().map_or(self.num_vars(), |x| x.index());
        let mut index = vec![0usize; shape.len()];
        let mut label = String::new();
        let names = self.lookup_mut().names_from(start);
        for _ in 0..len {
            label.clear();
            label.push_str(name);
            for i in &index {
                use std::fmt::Write;
                let _ = write!(label, "[{i}]");
            }
            names.push(Some(label.as_str().into()));
            // The next position, last index fastest.
            for k in (0..shape.len()).rev() {
                index[k] += 1;
                if index[k] < shape[k] {
                    break;
                }
                index[k] = 0;
            }
        }
        let lookup = self.lookup_mut();
        lookup.by_name.insert(name.into(), lookup.arrays.len());
        lookup.arrays.push(ArrayInfo {
            name: name.into(),
            shape: shape.into(),
            start: start as u32,
            len,
        });
        Ok(VarArray {
            name: name.into(),
            shape: shape.into(),
            vars,
        })
    }

    /// The variable named `name`: one declared with
    /// [`new_var_named`](Model::new_var_named) (the first, if several
    /// share the name), or an element `a[i][j]` of an array declared with
    /// [`new_vars_named`](Model::new_vars_named).
    ///
    /// ```
    /// use csp_core::{Domain, Model};
    /// let mut m = Model::new();
    /// let y = m.new_var_named("y", Domain::range(0, 9))?;
    /// let grid = m.new_vars_named("grid", [3, 3], Domain::range(1, 9))?;
    /// assert_eq!(m.var_by_name("y"), Some(y));
    /// assert_eq!(m.var_by_name("grid[2][0]"), Some(grid[[2, 0]]));
    /// assert_eq!(m.var_by_name("grid[3][0]"), None);
    /// assert_eq!(m.var_by_name("z"), None);
    /// # Ok::<(), csp_core::ModelError>(())
    /// ```
    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        let i = self.names_ref().lookup(name)?;
        self.vars().nth(i)
    }

    /// Names constraint `c` (naming it again replaces the name), for the
    /// explanations that mention it: [`hints::why_no_solution_constraints`](crate::hints::why_no_solution_constraints)
    /// says which of a model's constraints cannot hold together by their
    /// names, and explanations, hints and the model's listing show the
    /// name next to the id (`all-different (c0 "row 1")`). Several
    /// constraints may share a name. Returns `c`, so that posting and
    /// naming read as one line.
    ///
    /// Fails with [`ModelError::ForeignConstraint`] when the model has no
    /// constraint `c`, and with [`ModelError::Invalid`] for an empty name.
    /// Names cost nothing to a search: only explanations read them.
    ///
    /// ```
    /// use csp_core::{Domain, Model};
    /// let mut m = Model::new();
    /// let x = m.new_vars_named("x", [3], Domain::range(1, 3))?;
    /// let c = m.all_different(&x)?;
    /// let c = m.name_constraint(c, "distinct x")?;
    /// assert_eq!(m.constraint_name(c), Some("distinct x"));
    /// assert_eq!(m.constraint_label(c), "c0 \"distinct x\"");
    /// assert!(m.to_string().contains("c0 \"distinct x\": all-different(x[0], x[1], x[2])"));
    /// // An unnamed constraint shows its id alone.
    /// let d = m.post(x[0].lt(x[1]))?;
    /// assert_eq!(m.constraint_name(d), None);
    /// assert_eq!(m.constraint_label(d), "c1");
    /// // A constraint this model does not have (c2 of another model).
    /// let mut other = Model::new();
    /// let y = other.new_vars(2, Domain::range(0, 1))?;
    /// for _ in 0..3 {
    ///     other.not_equal(y[0], y[1], 0)?;
    /// }
    /// let (far, _) = other.constraints().last().unwrap();
    /// assert!(m.name_constraint(far, "no such").is_err());
    /// assert!(m.name_constraint(c, "").is_err());
    /// # Ok::<(), csp_core::ModelError>(())
    /// ```
    pub fn name_constraint(
        &mut self,
        c: ConstraintId,
        name: &str,
    ) -> Result<ConstraintId, ModelError> {
        let n = self.num_constraints();
        if c.index() >= n {
            return Err(ModelError::ForeignConstraint {
                index: c.index(),
                num_constraints: n,
            });
        }
        if name.is_empty() {
            return Err(ModelError::Invalid {
                constraint: "name_constraint",
                reason: "a constraint's name cannot be empty".to_string(),
            });
        }
        let names = &mut self.lookup_mut().constraints;
        if names.len() <= c.index() {
            names.resize(c.index() + 1, None);
        }
        names[c.index()] = Some(name.into());
        Ok(c)
    }

    /// The name of constraint `c` given by [`Model::name_constraint`], if
    /// any.
    pub fn constraint_name(&self, c: ConstraintId) -> Option<&str> {
        self.names_ref().constraint(c.index())
    }

    /// How explanations show constraint `c`: its id, then its name in
    /// quotes when it has one (`c3 "row 1"`; see
    /// [`Model::name_constraint`]).
    pub fn constraint_label(&self, c: ConstraintId) -> String {
        match self.constraint_name(c) {
            Some(n) => format!("{c} {n:?}"),
            None => c.to_string(),
        }
    }
}

/// The model, listed: a line with its size, one line per variable (an
/// array whose elements share their domain on one line, `shift[5][7] in
/// 0..=3`), one line per constraint with the names of its variables (the
/// first 8, then how many more).
///
/// ```
/// use csp_core::{Domain, Model};
/// let mut m = Model::new();
/// let x = m.new_var_named("x", Domain::range(1, 3))?;
/// let q = m.new_vars_named("q", [4], Domain::range(0, 3))?;
/// m.all_different(&q)?;
/// m.post(x.lt(q[[0]]))?;
/// assert_eq!(
///     m.to_string(),
///     "model: 5 variables, 2 constraints\n\
///      x in 1..=3\n\
///      q[4] in 0..=3\n\
///      c0: all-different(q[0], q[1], q[2], q[3])\n\
///      c1: less-eq(x, q[0])\n"
/// );
/// # Ok::<(), csp_core::ModelError>(())
/// ```
impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "model: {} variables, {} constraints",
            self.num_vars(),
            self.num_constraints()
        )?;
        let names = self.names_ref();
        let mut i = 0;
        let n = self.num_vars();
        while i < n {
            let x = VarId::from_index(i);
            if let Some(a) = names.array_at(i) {
                let d = self.domain(x);
                let same = (i..i + a.len).all(|j| self.domain(VarId::from_index(j)) == d);
                if same && a.len > 0 {
                    write!(f, "{}", a.name)?;
                    for dim in a.shape.iter() {
                        write!(f, "[{dim}]")?;
                    }
                    writeln!(f, " in {d:?}")?;
                    i += a.len;
                    continue;
                }
            }
            writeln!(f, "{} in {:?}", self.display_name(x), self.domain(x))?;
            i += 1;
        }
        const SHOWN: usize = 8;
        for (id, c) in self.constraints() {
            write!(f, "{}: {}(", self.constraint_label(id), c.name())?;
            let scope = c.scope();
            for (k, &x) in scope.iter().take(SHOWN).enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                f.write_str(&self.display_name(x))?;
            }
            if scope.len() > SHOWN {
                write!(f, ", … ({} more)", scope.len() - SHOWN)?;
            }
            writeln!(f, ")")?;
        }
        Ok(())
    }
}
