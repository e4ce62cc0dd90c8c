//! The FlatZinc syntax tree: what the [parser](crate::parse) reads, before
//! any name is resolved. Every item keeps the position it started at, so
//! that the [builder](crate::build) can name the place of a semantic error.

/// A 1-based line and column in the FlatZinc text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// The line, 1-based.
    pub line: usize,
    /// The column, 1-based (in characters).
    pub column: usize,
}

/// A literal set of integers: `1..5`, `{1, 3, 7}` or `{}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntSet {
    /// `lo..hi` (empty when `lo > hi`).
    Range(i64, i64),
    /// `{a, b, ...}`, in the order written.
    Values(Vec<i64>),
}

impl IntSet {
    /// The values of the set, ascending and without repeats. A range is
    /// listed value by value, however long: clip it first, or keep it as a
    /// range, when its bounds come from the input.
    pub fn values(&self) -> Vec<i64> {
        match self {
            IntSet::Range(lo, hi) => (*lo..=*hi).collect(),
            IntSet::Values(v) => {
                let mut v = v.clone();
                v.sort_unstable();
                v.dedup();
                v
            }
        }
    }

    /// Whether `v` is in the set.
    pub fn contains(&self, v: i64) -> bool {
        match self {
            IntSet::Range(lo, hi) => *lo <= v && v <= *hi,
            IntSet::Values(vs) => vs.contains(&v),
        }
    }
}

/// An expression: a literal, a name, an array element or an array.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `true` / `false`.
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal (read so that it can be refused by name).
    Float(f64),
    /// A set literal.
    Set(IntSet),
    /// A float range `a..b` (read so that it can be refused).
    FloatRange(f64, f64),
    /// A string literal (in annotations).
    Str(String),
    /// `[e1, e2, ...]`.
    Array(Vec<Expr>),
    /// A name, where it was written.
    Ident(String, Pos),
    /// `name[i]`.
    Access(String, i64, Pos),
    /// An annotation call inside an annotation, `int_search(...)`.
    Call(Annotation),
}

/// `name` or `name(args)` after `::`.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    /// The annotation's name.
    pub name: String,
    /// Its arguments (empty for a bare name).
    pub args: Vec<Expr>,
    /// Where its name starts.
    pub pos: Pos,
}

/// The element type of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum BaseType {
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// An integer range or set used as a type: `1..9`, `{1, 3}`.
    IntIn(IntSet),
    /// `float` or a float range.
    Float,
    /// `set of int` / `set of 1..3`.
    SetOfInt,
}

/// A declaration's type: `[array [1..n] of] [var] base`.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    /// `Some(ranges)` for arrays, one `lo..hi` per dimension (FlatZinc
    /// arrays have one, written `1..n`).
    pub array: Option<Vec<(i64, i64)>>,
    /// Decision variable (`var`) or parameter.
    pub var: bool,
    /// The element type.
    pub base: BaseType,
}

/// `solve` goal.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// `satisfy`.
    Satisfy,
    /// `minimize e`.
    Minimize(Expr),
    /// `maximize e`.
    Maximize(Expr),
}

/// One item of a FlatZinc model.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `predicate name(...);` (declares a solver-specific constraint).
    Predicate {
        /// Its name.
        name: String,
        /// Where the item starts.
        pos: Pos,
    },
    /// A parameter or variable declaration.
    Decl {
        /// Its type.
        ty: Type,
        /// Its name.
        name: String,
        /// Its annotations (`output_var`, `output_array([1..2, 1..3])`, ...).
        anns: Vec<Annotation>,
        /// `= value`, if any.
        value: Option<Expr>,
        /// Where the item starts.
        pos: Pos,
    },
    /// `constraint name(args) :: anns;`.
    Constraint {
        /// The builtin's or global's name.
        name: String,
        /// Its arguments.
        args: Vec<Expr>,
        /// Its annotations.
        anns: Vec<Annotation>,
        /// Where the item starts.
        pos: Pos,
    },
    /// `solve :: anns goal;`.
    Solve {
        /// Search annotations.
        anns: Vec<Annotation>,
        /// What to do.
        goal: Goal,
        /// Where the item starts.
        pos: Pos,
    },
}
