//! The [`Model`]: variables with declared domains, and constraints over them.

use std::fmt;

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::constraint::{
    has_repeats, AllDifferent, Arith, ArithOp, CheckerOnly, Constraint, Count, Element, Equal,
    LessEq, Linear, NotEqual, Predicate, Relation, Table, TernaryEq, CHECKER_FILTER_LIMIT,
};
use crate::domain::Domain;
use crate::error::ModelError;
use crate::expr::Post;
use crate::ids::{ConstraintId, ModelId, Value, VarId};
use crate::names::Names;
use crate::search::Inference;

/// A posted constraint: the built-ins are enum variants so the search loop
/// dispatches to them statically; user constraints go through the trait object.
#[derive(Debug)]
pub(crate) enum Posted {
    AllDifferent(AllDifferent),
    NotEqual(NotEqual),
    Equal(Equal),
    Linear(Linear),
    Table(Table),
    Element(Element),
    Count(Count),
    User(Box<dyn Constraint>),
}

macro_rules! dispatch {
    ($self:expr, $c:ident => $e:expr) => {
        match $self {
            Posted::AllDifferent($c) => $e,
            Posted::NotEqual($c) => $e,
            Posted::Equal($c) => $e,
            Posted::Linear($c) => $e,
            Posted::Table($c) => $e,
            Posted::Element($c) => $e,
            Posted::Count($c) => $e,
            Posted::User($c) => $e,
        }
    };
}

impl Posted {
    #[inline]
    pub(crate) fn as_dyn(&self) -> &dyn Constraint {
        match self {
            Posted::AllDifferent(c) => c,
            Posted::NotEqual(c) => c,
            Posted::Equal(c) => c,
            Posted::Linear(c) => c,
            Posted::Table(c) => c,
            Posted::Element(c) => c,
            Posted::Count(c) => c,
            Posted::User(c) => &**c,
        }
    }
    /// Does running `propagate` twice in a row never prune more than once?
    /// Then the engine does not re-queue a constraint for its own changes.
    #[inline]
    pub(crate) fn is_idempotent(&self) -> bool {
        matches!(
            self,
            Posted::AllDifferent(_)
                | Posted::NotEqual(_)
                | Posted::Equal(_)
                | Posted::Linear(_)
                | Posted::Table(_)
        )
    }
    #[inline]
    pub(crate) fn scope(&self) -> &[VarId] {
        dispatch!(self, c => c.scope())
    }
}

/// Is `C` one of the library's constraints? Their pruning is tested
/// against their checkers; any other type's (`forward_check`, `propagate`,
/// `propagator`, `is_consistent_partial`) is the caller's, which the
/// search checks rather than trusts. A built-in missing from this list is
/// only counted more slowly, never wrongly.
fn is_builtin<C: 'static>() -> bool {
    use crate::constraint as c;
    use std::any::TypeId;
    let t = TypeId::of::<C>();
    [
        TypeId::of::<c::AllDifferent>(),
        TypeId::of::<c::AllDifferentExcept>(),
        TypeId::of::<c::Among>(),
        TypeId::of::<c::Arith>(),
        TypeId::of::<c::BinPacking>(),
        TypeId::of::<c::Circuit>(),
        TypeId::of::<c::Clause>(),
        TypeId::of::<c::Count>(),
        TypeId::of::<c::Cumulative>(),
        TypeId::of::<c::Disjunctive>(),
        TypeId::of::<c::Distinct>(),
        TypeId::of::<c::Element>(),
        TypeId::of::<c::Equal>(),
        TypeId::of::<c::GlobalCardinality>(),
        TypeId::of::<c::Increasing>(),
        TypeId::of::<c::Inverse>(),
        TypeId::of::<c::LessEq>(),
        TypeId::of::<c::LexLess>(),
        TypeId::of::<c::Linear>(),
        TypeId::of::<c::NValue>(),
        TypeId::of::<c::NegativeTable>(),
        TypeId::of::<c::NotEqual>(),
        TypeId::of::<c::Predicate>(),
        TypeId::of::<c::Regular>(),
        TypeId::of::<c::ReifiedIn>(),
        TypeId::of::<c::ReifiedLinear>(),
        TypeId::of::<c::Table>(),
        TypeId::of::<c::TernaryEq>(),
        TypeId::of::<c::ValuePrecede>(),
        TypeId::of::<c::ValuePrecedeChain>(),
        TypeId::of::<c::Xor>(),
    ]
    .contains(&t)
}

/// A constraint-satisfaction problem: variables with finite domains, and
/// constraints over them. Built once, then read by any number of solvers.
///
/// ```
/// use csp_core::{Domain, Model, Relation, Search};
///
/// let mut m = Model::new();
/// let x = m.new_var_named("x", Domain::range(0, 9)).unwrap();
/// let y = m.new_var_named("y", Domain::range(0, 9)).unwrap();
/// m.linear(&[(1, x), (1, y)], Relation::Eq, 10).unwrap(); // x + y = 10
/// m.not_equal(x, y, 0).unwrap();                          // x ≠ y
/// assert_eq!(Search::new(&m).count().unwrap().count, 8); // (1,9) .. (9,1) without (5,5)
/// ```
///
/// # Methods by family
///
/// The builders below each post one constraint and return its
/// [`ConstraintId`] (or a [`ModelError`] naming what was wrong); the
/// expression builder ([`Expr`](crate::Expr), [`Post`](crate::Post)) posts
/// through [`Model::post`].
///
/// * **Variables**: [`new_var`](Model::new_var),
///   [`new_var_named`](Model::new_var_named), [`new_vars`](Model::new_vars),
///   [`new_vars_named`](Model::new_vars_named),
///   [`new_array`](Model::new_array), [`new_bool`](Model::new_bool),
///   [`new_bools`](Model::new_bools), [`restrict`](Model::restrict),
///   [`domain`](Model::domain), [`name`](Model::name),
///   [`display_name`](Model::display_name),
///   [`var_by_name`](Model::var_by_name), [`vars`](Model::vars),
///   [`num_vars`](Model::num_vars), [`is_bool`](Model::is_bool).
/// * **Arithmetic and sums**: [`linear`](Model::linear),
///   [`equal`](Model::equal), [`not_equal`](Model::not_equal),
///   [`less_eq`](Model::less_eq), [`times`](Model::times),
///   [`div`](Model::div), [`modulo`](Model::modulo), [`abs`](Model::abs),
///   [`pow`](Model::pow), [`min`](Model::min), [`max`](Model::max),
///   [`define`](Model::define).
/// * **All-different**: [`all_different`](Model::all_different),
///   [`all_different_offset`](Model::all_different_offset),
///   [`all_different_with`](Model::all_different_with),
///   [`all_different_except`](Model::all_different_except),
///   [`all_different_except_with`](Model::all_different_except_with).
/// * **Tables and automata**: [`table`](Model::table),
///   [`negative_table`](Model::negative_table), [`regular`](Model::regular),
///   [`element`](Model::element), [`element_const`](Model::element_const),
///   [`element_offset`](Model::element_offset),
///   [`element_const_offset`](Model::element_const_offset).
/// * **Counting**: [`count`](Model::count), [`at_most`](Model::at_most),
///   [`exactly`](Model::exactly), [`among`](Model::among),
///   [`global_cardinality`](Model::global_cardinality),
///   [`nvalue`](Model::nvalue).
/// * **Ordering**: [`lex_less`](Model::lex_less),
///   [`lex_lesseq`](Model::lex_lesseq), [`increasing`](Model::increasing),
///   [`strictly_increasing`](Model::strictly_increasing),
///   [`decreasing`](Model::decreasing),
///   [`strictly_decreasing`](Model::strictly_decreasing).
/// * **Graphs and permutations**: [`circuit`](Model::circuit),
///   [`subcircuit`](Model::subcircuit), [`inverse`](Model::inverse).
/// * **Scheduling and packing**: [`disjunctive`](Model::disjunctive),
///   [`cumulative`](Model::cumulative),
///   [`cumulative_with`](Model::cumulative_with), [`diffn`](Model::diffn),
///   [`diffn_nonstrict`](Model::diffn_nonstrict),
///   [`bin_packing`](Model::bin_packing),
///   [`bin_packing_load`](Model::bin_packing_load),
///   [`bin_packing_load_from`](Model::bin_packing_load_from).
/// * **Logic and reification**: [`clause`](Model::clause),
///   [`and`](Model::and), [`or`](Model::or), [`xor`](Model::xor),
///   [`not`](Model::not), [`implies`](Model::implies),
///   [`reify`](Model::reify), [`reify_with`](Model::reify_with),
///   [`half_reify`](Model::half_reify), [`reify_in`](Model::reify_in),
///   [`half_reify_in`](Model::half_reify_in).
/// * **Your own constraints and the model as a whole**: [`post`](Model::post),
///   [`predicate`](Model::predicate), [`cap_inference`](Model::cap_inference),
///   [`inference_of`](Model::inference_of), [`constraint`](Model::constraint),
///   [`constraints`](Model::constraints),
///   [`num_constraints`](Model::num_constraints), [`check`](Model::check),
///   [`to_minizinc`](Model::to_minizinc),
///   [`to_minizinc_goal`](Model::to_minizinc_goal).
pub struct Model {
    /// Stamped into every handle this model creates (see [`VarId`]).
    id: ModelId,
    domains: Vec<Domain>,
    domain_index: FxHashMap<Domain, u32>,
    var_domain: Vec<u32>,
    /// Named variables and arrays, for lookups by name (shared with the
    /// solutions of this model's searches).
    lookup: Arc<Names>,
    /// The last interned domain, to skip hashing when variables repeat it.
    last_domain: Option<(Domain, u32)>,
    constraints: Vec<Posted>,
    /// Per constraint, the highest inference level it runs at (see
    /// [`Model::cap_inference`]); empty until the first cap.
    caps: Vec<Option<Inference>>,
    /// The constraints whose pruning is not the library's (a type of the
    /// caller's posted with [`Model::post`]), or weaker than the
    /// forward-checking contract ([`Model::check_counted`]), in posting
    /// order. The search checks them on every counted solution: their
    /// pruning may let a non-solution through.
    foreign: Vec<ConstraintId>,
    /// The variables expressions introduced ([`crate::expr`]), each with
    /// the constraint that defines it from the caller's variables.
    hidden: Vec<(VarId, ConstraintId)>,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("vars", &self.var_domain.len())
            .field("distinct_domains", &self.domains.len())
            .field("constraints", &self.constraints.len())
            .finish()
    }
}

impl Default for Model {
    fn default() -> Model {
        Model {
            id: ModelId::fresh(),
            domains: Vec::new(),
            domain_index: FxHashMap::default(),
            var_domain: Vec::new(),
            lookup: Arc::default(),
            last_domain: None,
            constraints: Vec::new(),
            caps: Vec::new(),
            foreign: Vec::new(),
            hidden: Vec::new(),
        }
    }
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model::default()
    }

    /// This model's identity, stamped into the handles it creates.
    pub fn id(&self) -> ModelId {
        self.id
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.var_domain.len()
    }

    /// Number of constraints.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// All variables, in creation order.
    pub fn vars(&self) -> impl ExactSizeIterator<Item = VarId> {
        let id = self.id;
        (0..self.var_domain.len() as u32).map(move |i| VarId::tagged(i, id))
    }

    fn intern(&mut self, d: Domain) -> Result<u32, ModelError> {
        if let Some((last, i)) = &self.last_domain {
            if *last == d {
                return Ok(*i);
            }
        }
        if let Some(&i) = self.domain_index.get(&d) {
            self.last_domain = Some((d, i));
            return Ok(i);
        }
        let i = self.domains.len() as u32;
        self.domains.push(d.clone());
        self.domain_index.insert(d.clone(), i);
        self.last_domain = Some((d, i));
        Ok(i)
    }

    /// Declares a variable with domain `domain`.
    pub fn new_var(&mut self, domain: Domain) -> Result<VarId, ModelError> {
        if domain.is_empty() {
            return Err(ModelError::EmptyDomain { name: None });
        }
        let Some(id) = VarId::try_from_index(self.var_domain.len()) else {
            return Err(ModelError::TooManyVariables {
                requested: self.var_domain.len() as u128 + 1,
            });
        };
        let id = VarId::tagged(id.index() as u32, self.id);
        let di = self.intern(domain)?;
        self.var_domain.push(di);
        Ok(id)
    }

    /// Declares a named variable (names show in traces and error messages).
    pub fn new_var_named(&mut self, name: &str, domain: Domain) -> Result<VarId, ModelError> {
        if domain.is_empty() {
            return Err(ModelError::EmptyDomain {
                name: Some(name.to_string()),
            });
        }
        let x = self.new_var(domain)?;
        let lookup = self.lookup_mut();
        lookup.names_from(x.index()).push(Some(name.into()));
        lookup.add_scalar(x.index() as u32);
        Ok(x)
    }

    /// The lookup by name, for changes.
    pub(crate) fn lookup_mut(&mut self) -> &mut Names {
        Arc::make_mut(&mut self.lookup)
    }

    /// The lookup by name.
    pub(crate) fn names_ref(&self) -> &Names {
        &self.lookup
    }

    /// The lookup by name, shared (for solutions).
    pub(crate) fn names_shared(&self) -> &Arc<Names> {
        &self.lookup
    }

    /// `N` new variables with the same domain, as an array to destructure:
    /// `let [x, y, z] = m.new_array(Domain::range(0, 9))?;`.
    pub fn new_array<const N: usize>(&mut self, domain: Domain) -> Result<[VarId; N], ModelError> {
        let v = self.new_vars(N, domain)?;
        Ok(std::array::from_fn(|i| v[i]))
    }

    /// Declares `n` variables sharing one domain (stored once).
    pub fn new_vars(&mut self, n: usize, domain: Domain) -> Result<Vec<VarId>, ModelError> {
        if domain.is_empty() {
            return Err(ModelError::EmptyDomain { name: None });
        }
        let start = self.var_domain.len();
        let total = start as u128 + n as u128;
        if total >= u32::MAX as u128 {
            return Err(ModelError::TooManyVariables { requested: total });
        }
        let oom = |what| ModelError::OutOfMemory {
            what,
            bytes: n as u128 * 4,
        };
        self.var_domain
            .try_reserve(n)
            .map_err(|_| oom("the variables' domains"))?;
        let mut ids = Vec::new();
        ids.try_reserve_exact(n)
            .map_err(|_| oom("the variable handles"))?;
        let di = self.intern(domain)?;
        self.var_domain.resize(start + n, di);
        let id = self.id;
        ids.extend((start as u32..total as u32).map(|i| VarId::tagged(i, id)));
        Ok(ids)
    }

    /// Narrows the declared domain of `x` to its values that are also in
    /// `keep`: a unary constraint applied while modelling (a front end such
    /// as FlatZinc's `set_in` or `x ≤ 5` uses it, so that propagators and
    /// the search never see the removed values).
    ///
    /// Returns `Ok(false)`, leaving the domain as it was, when nothing
    /// would be left: the model then has no solution, and the caller says
    /// so (e.g. by posting a constraint that cannot hold). Constraints
    /// posted before stay correct: they only ever see fewer values.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let x = m.new_var(Domain::range(0, 1_000_000)).unwrap();
    /// assert!(m.restrict(x, &Domain::values([4, 7])).unwrap());
    /// assert_eq!(Search::new(&m).count().unwrap().count, 2);
    /// assert!(!m.restrict(x, &Domain::range(10, 20)).unwrap());
    /// ```
    pub fn restrict(&mut self, x: VarId, keep: &Domain) -> Result<bool, ModelError> {
        self.check_vars("restrict", &[x])?;
        let d = self.domain(x).intersect(keep);
        if d.is_empty() {
            return Ok(false);
        }
        if d != *self.domain(x) {
            let di = self.intern(d)?;
            self.var_domain[x.index()] = di;
        }
        Ok(true)
    }

    /// The declared domain of `x`.
    pub fn domain(&self, x: VarId) -> &Domain {
        &self.domains[self.var_domain[x.index()] as usize]
    }

    /// The name of `x`, if it has one.
    pub fn name(&self, x: VarId) -> Option<&str> {
        self.lookup.name(x.index())
    }

    /// The name of `x`, or `v<index>`.
    pub fn display_name(&self, x: VarId) -> String {
        self.name(x).map_or_else(|| x.to_string(), str::to_string)
    }

    /// The constraint `c`.
    pub fn constraint(&self, c: ConstraintId) -> &dyn Constraint {
        self.constraints[c.index()].as_dyn()
    }

    /// All constraints with their ids.
    pub fn constraints(&self) -> impl Iterator<Item = (ConstraintId, &dyn Constraint)> {
        self.constraints
            .iter()
            .enumerate()
            .map(|(i, c)| (ConstraintId(i as u32), c.as_dyn()))
    }

    pub(crate) fn posted(&self) -> &[Posted] {
        &self.constraints
    }

    pub(crate) fn declared(&self) -> (&[Domain], &[u32]) {
        (&self.domains, &self.var_domain)
    }

    /// Checks a complete assignment (one value per variable, by index) against
    /// the domains and every constraint. Returns the first violated constraint.
    pub fn check(&self, values: &[Value]) -> Result<(), CheckError> {
        if values.len() != self.num_vars() {
            return Err(CheckError::Length {
                expected: self.num_vars(),
                found: values.len(),
            });
        }
        for x in self.vars() {
            if !self.domain(x).contains(values[x.index()]) {
                return Err(CheckError::Domain {
                    var: x,
                    value: values[x.index()],
                });
            }
        }
        let mut buf = Vec::new();
        for (id, c) in self.constraints() {
            buf.clear();
            buf.extend(c.scope().iter().map(|x| values[x.index()]));
            if !c.is_satisfied(&buf) {
                return Err(CheckError::Violated {
                    constraint: id,
                    name: c.name().to_string(),
                });
            }
        }
        Ok(())
    }

    pub(crate) fn check_vars(
        &self,
        constraint: &'static str,
        vars: &[VarId],
    ) -> Result<(), ModelError> {
        let n = self.num_vars();
        let id = self.id;
        match vars.iter().find(|x| x.index() >= n || !x.belongs_to(id)) {
            Some(x) => Err(ModelError::ForeignVar {
                constraint,
                index: x.index(),
                num_vars: n,
            }),
            None => Ok(()),
        }
    }

    /// Posts `c`, which prunes by the defaults (its checker): their
    /// forward checking trims a domain of more than
    /// [`CHECKER_FILTER_LIMIT`] values only at its ends, so with such a
    /// domain in the scope, counting checks each solution against `c`.
    fn checker_path(&mut self, c: Box<dyn Constraint>) -> ConstraintId {
        let wide = c
            .scope()
            .iter()
            .any(|&x| self.domain(x).size() > CHECKER_FILTER_LIMIT);
        let id = self.push(Posted::User(c));
        if wide {
            self.check_counted(id);
        }
        id
    }

    fn push(&mut self, p: Posted) -> ConstraintId {
        let id = ConstraintId(self.constraints.len() as u32);
        self.constraints.push(p);
        id
    }

    /// Propagates constraint `c` at most at `level`, whatever the search's
    /// [`Inference`]: the search's level applies when it is lower.
    ///
    /// The typical use is a *value* all-different under maintained arc
    /// consistency: with a cap at [`Inference::ForwardChecking`] it removes
    /// the values of fixed variables and nothing more, like Gecode's
    /// `IPL_VAL`, and two to four such constraints over the same variables
    /// (N-queens' `x`, `x + i`, `x − i`) are fused into one propagator,
    /// while every other constraint of the model keeps arc consistency.
    /// Capping at [`Inference::None`] leaves `c` to be checked on full
    /// assignments only. Solutions are the same at every cap; only pruning,
    /// and so nodes and time, differ.
    ///
    /// ```
    /// use csp_core::{Domain, Inference, Model, Search};
    /// let mut m = Model::new();
    /// let q = m.new_vars(8, Domain::range(0, 7))?;
    /// let mut cs = vec![m.all_different(&q)?];
    /// for sign in [1, -1] {
    ///     let offsets: Vec<i32> = (0..8).map(|i| sign * i).collect();
    ///     cs.push(m.all_different_offset(&q, &offsets)?);
    /// }
    /// for c in cs {
    ///     m.cap_inference(c, Inference::ForwardChecking)?;
    /// }
    /// let n = Search::new(&m).inference(Inference::Mac).count().unwrap().count;
    /// assert_eq!(n, 92);
    /// # Ok::<(), csp_core::ModelError>(())
    /// ```
    pub fn cap_inference(&mut self, c: ConstraintId, level: Inference) -> Result<(), ModelError> {
        let i = c.0 as usize;
        if i >= self.constraints.len() {
            return Err(ModelError::ForeignConstraint {
                index: i,
                num_constraints: self.constraints.len(),
            });
        }
        if self.caps.len() <= i {
            self.caps.resize(self.constraints.len(), None);
        }
        self.caps[i] = Some(level);
        Ok(())
    }

    /// The inference level constraint `c` runs at when the search runs at
    /// `search` (see [`Model::cap_inference`]).
    pub fn inference_of(&self, c: ConstraintId, search: Inference) -> Inference {
        match self.caps.get(c.0 as usize).copied().flatten() {
            Some(cap) => search.min(cap),
            None => search,
        }
    }

    /// Posts a user-defined constraint (see [`Constraint`]).
    ///
    /// A constraint whose scope names a variable twice runs on the checker
    /// path (its checker and the default pruning, which handle repeats):
    /// specialised pruning, the built-ins' included, may assume distinct
    /// variables.
    ///
    /// The search does not trust the pruning of a constraint of yours: it
    /// checks every solution it counts against the constraint's checker
    /// (see [`Search::count`](crate::Search::count)).
    ///
    /// Also takes an expression's comparison ([`crate::expr::Rel`]):
    /// `m.post(x.lt(y))?`, `m.post((2 * x + y).eq(10))?`.
    pub fn post(&mut self, c: impl Post) -> Result<ConstraintId, ModelError> {
        c.post_into(self)
    }

    /// [`post`](Model::post) for a constraint.
    pub(crate) fn post_constraint<C: Constraint + 'static>(
        &mut self,
        c: C,
    ) -> Result<ConstraintId, ModelError> {
        self.check_vars("constraint", c.scope())?;
        let foreign = !is_builtin::<C>();
        let id = if has_repeats(c.scope()) {
            self.checker_path(Box::new(CheckerOnly(c)))
        } else {
            self.push(Posted::User(Box::new(c)))
        };
        if foreign {
            self.foreign.push(id);
        }
        Ok(id)
    }

    /// Has the search check every solution it counts against constraint
    /// `id` (a built-in whose pruning is weaker than the forward-checking
    /// contract on some domains: the values left to the last open variable
    /// may not all be solutions).
    pub(crate) fn check_counted(&mut self, id: ConstraintId) {
        if !self.foreign.contains(&id) {
            self.foreign.push(id);
        }
    }

    /// Does a domain of `vars` hold more than `limit` values between the
    /// first and the last of the sorted `values`, `limit` or more apart? A
    /// constraint that keeps its variables to `values` then leaves the
    /// values between them, and calls [`check_counted`](Self::check_counted).
    pub(crate) fn sparse_over_wide(&self, vars: &[VarId], values: &[Value], limit: u64) -> bool {
        let span = match (values.first(), values.last()) {
            (Some(&a), Some(&b)) => b as i64 - a as i64,
            _ => 0,
        };
        span >= limit as i64
            && vars
                .iter()
                .any(|&x| x.index() < self.num_vars() && self.domain(x).size() > limit)
    }

    /// Records `z` as a variable an expression introduced, defined by
    /// constraint `c` (see [`hidden`](Self::hidden)).
    pub(crate) fn mark_hidden(&mut self, z: VarId, c: ConstraintId) {
        self.hidden.push((z, c));
    }

    /// The variables expressions introduced (an auxiliary for `x * y`,
    /// say), each with the constraint that defines it. Without inference
    /// the search branches on the caller's variables first and forward
    /// checks these constraints, so a hidden variable is computed, not
    /// tried value by value.
    pub(crate) fn hidden(&self) -> &[(VarId, ConstraintId)] {
        &self.hidden
    }

    /// The constraints whose pruning the search does not trust (see
    /// [`Model::post`]), in posting order.
    pub(crate) fn foreign(&self) -> &[ConstraintId] {
        &self.foreign
    }

    /// Does constraint `id` hold under `values` (one per variable)? `buf`
    /// is scratch space.
    pub(crate) fn satisfies(
        &self,
        id: ConstraintId,
        values: &[Value],
        buf: &mut Vec<Value>,
    ) -> bool {
        let c = self.constraints[id.0 as usize].as_dyn();
        buf.clear();
        buf.extend(c.scope().iter().map(|x| values[x.index()]));
        c.is_satisfied(buf)
    }

    /// `x ≠ y + c` (see [`NotEqual`]).
    pub fn not_equal(&mut self, x: VarId, y: VarId, c: Value) -> Result<ConstraintId, ModelError> {
        self.check_vars("not-equal", &[x, y])?;
        if x == y {
            return Ok(self.checker_path(Box::new(CheckerOnly(NotEqual::new(x, y, c)))));
        }
        Ok(self.push(Posted::NotEqual(NotEqual::new(x, y, c))))
    }

    /// `x = y + c` (see [`Equal`]).
    pub fn equal(&mut self, x: VarId, y: VarId, c: Value) -> Result<ConstraintId, ModelError> {
        self.check_vars("equal", &[x, y])?;
        if x == y {
            return Ok(self.checker_path(Box::new(CheckerOnly(Equal::new(x, y, c)))));
        }
        Ok(self.push(Posted::Equal(Equal::new(x, y, c))))
    }

    /// All of `vars` take distinct values (see [`AllDifferent`]).
    pub fn all_different(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.check_vars("all-different", vars)?;
        self.all_different_owned(vars.to_vec(), vec![0; vars.len()])
    }

    /// The values `vars[i] + offsets[i]` are pairwise distinct (see [`AllDifferent`]).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// // 6-queens: one variable per row, three all-different over x, x+i, x−i.
    /// let n = 6;
    /// let mut m = Model::new();
    /// let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    /// let rows: Vec<i32> = (0..n as i32).collect();
    /// let neg: Vec<i32> = rows.iter().map(|i| -i).collect();
    /// m.all_different(&q).unwrap();
    /// m.all_different_offset(&q, &rows).unwrap();
    /// m.all_different_offset(&q, &neg).unwrap();
    /// assert_eq!(Search::new(&m).count().unwrap().count, 4);
    /// ```
    pub fn all_different_offset(
        &mut self,
        vars: &[VarId],
        offsets: &[Value],
    ) -> Result<ConstraintId, ModelError> {
        self.check_vars("all-different", vars)?;
        if offsets.len() != vars.len() {
            return Err(ModelError::LengthMismatch {
                constraint: "all-different",
                what: "offsets for the variables",
                expected: vars.len(),
                found: offsets.len(),
            });
        }
        self.all_different_owned(vars.to_vec(), offsets.to_vec())
    }

    /// Posts all-different over checked, equally long `vars` and `offsets`.
    fn all_different_owned(
        &mut self,
        vars: Vec<VarId>,
        offsets: Vec<Value>,
    ) -> Result<ConstraintId, ModelError> {
        let small = vars.iter().all(|&x| {
            let d = self.domain(x);
            let span = d.max().unwrap_or(0) as i64 - d.min().unwrap_or(0) as i64 + 1;
            span <= 64
        });
        let repeats = has_repeats(&vars);
        let mut c = AllDifferent::new(vars, offsets);
        if repeats {
            // The specialised pruning assumes distinct variables.
            return Ok(self.checker_path(Box::new(CheckerOnly(c))));
        }
        if small {
            let bounds: Vec<(Value, Value)> = c
                .vars()
                .iter()
                .map(|&x| {
                    let d = self.domain(x);
                    (d.min().unwrap_or(0), d.max().unwrap_or(0))
                })
                .collect();
            c = c.with_word_domains(&bounds);
        }
        Ok(self.push(Posted::AllDifferent(c)))
    }

    /// `Σ a·x ⋈ c` over the terms `(a, x)` (see [`Linear`]). An `=` over
    /// three distinct variables with coefficients `±1` (`d = y − x`,
    /// `z = x + y`) becomes a [`TernaryEq`]: the same pruning in O(1).
    ///
    /// Fails with [`ModelError::Overflow`] when the sum's extreme values (from the
    /// declared domains) or `c` do not fit comfortably in `i64`, and with
    /// [`ModelError::EmptyScope`] for a sum without terms. Terms that
    /// cancel out (`x − x`) are accepted: the constant comparison left is
    /// named by the checked searches when it does not hold.
    ///
    /// ```
    /// use csp_core::{Model, ModelError, Relation};
    /// let mut m = Model::new();
    /// let e = m.linear(&[], Relation::Eq, 3).unwrap_err();
    /// assert_eq!(e, ModelError::EmptyScope { constraint: "linear", what: "the sum" });
    /// ```
    pub fn linear(
        &mut self,
        terms: &[(i64, VarId)],
        rel: Relation,
        c: i64,
    ) -> Result<ConstraintId, ModelError> {
        if terms.is_empty() {
            // `0 ⋈ c`: true or false whatever the values, almost surely a
            // list that came out empty; say so rather than post a constant.
            return Err(ModelError::EmptyScope {
                constraint: "linear",
                what: "the sum",
            });
        }
        self.linear_terms(terms, rel, c)
    }

    /// [`linear`](Model::linear) for terms that may cancel out (`x − x`):
    /// a sum left without variables is posted as the constant comparison
    /// it is, which the checked searches name when it does not hold
    /// ([`SearchError::EmptyScope`](crate::SearchError::EmptyScope)).
    pub(crate) fn linear_terms(
        &mut self,
        terms: &[(i64, VarId)],
        rel: Relation,
        c: i64,
    ) -> Result<ConstraintId, ModelError> {
        let vars: Vec<VarId> = terms.iter().map(|t| t.1).collect();
        self.check_vars("linear", &vars)?;
        let mut bound: i128 = (c as i128).abs();
        for &(a, x) in terms {
            let d = self.domain(x);
            let m = (d.min().unwrap_or(0) as i128)
                .abs()
                .max((d.max().unwrap_or(0) as i128).abs());
            bound += (a as i128).abs() * m;
        }
        if bound > (i64::MAX / 4) as i128 {
            return Err(ModelError::Overflow {
                constraint: "linear",
            });
        }
        // Merge repeated variables and drop zero coefficients, so that bounds
        // reasoning treats each variable once.
        let mut merged: Vec<(VarId, i64)> = Vec::with_capacity(terms.len());
        for &(a, x) in terms {
            match merged.iter_mut().find(|t| t.0 == x) {
                Some(t) => t.1 += a,
                None => merged.push((x, a)),
            }
        }
        merged.retain(|t| t.1 != 0);
        if let [(x, a), (y, b), (z, e)] = merged[..] {
            // Three unit terms: the O(1) propagator, with the same pruning.
            if rel == Relation::Eq {
                if let Some(t) = TernaryEq::new([x, y, z], [a, b, e], c) {
                    return Ok(self.push(Posted::User(Box::new(t))));
                }
            }
        }
        let vars = merged.iter().map(|t| t.0).collect();
        let coefs = merged.iter().map(|t| t.1).collect();
        Ok(self.push(Posted::Linear(Linear::new(vars, coefs, rel, c))))
    }

    /// The values of `vars` form one of `tuples` (see [`Table`]).
    pub fn table(
        &mut self,
        vars: &[VarId],
        tuples: impl IntoIterator<Item = Vec<Value>>,
    ) -> Result<ConstraintId, ModelError> {
        self.check_vars("table", vars)?;
        let tuples: Vec<Vec<Value>> = tuples.into_iter().collect();
        if let Some(t) = tuples.iter().find(|t| t.len() != vars.len()) {
            return Err(ModelError::LengthMismatch {
                constraint: "table",
                what: "values in a tuple",
                expected: vars.len(),
                found: t.len(),
            });
        }
        Ok(self.push(Posted::Table(Table::new(vars.to_vec(), tuples))))
    }

    /// `array[index] = result` with a 0-based index (see [`Element`]).
    pub fn element(
        &mut self,
        index: VarId,
        array: &[VarId],
        result: VarId,
    ) -> Result<ConstraintId, ModelError> {
        self.element_offset(index, array, result, 0)
    }

    /// `array[index] = result` for a constant array (each constant becomes a
    /// fixed variable).
    pub fn element_const(
        &mut self,
        index: VarId,
        array: &[Value],
        result: VarId,
    ) -> Result<ConstraintId, ModelError> {
        self.element_const_offset(index, array, result, 0)
    }

    /// `array[index − base] = result`: [`element`](Model::element) for
    /// an index that counts from `base` (1 for the 1-based arrays of
    /// MiniZinc and most puzzle texts). The index names the array's
    /// entries directly (`index = base` is `array[0]`; see
    /// [`Element::with_base`]), with no auxiliary `index − base`
    /// variable, so the reasons a learning search reads name the index's
    /// own literals. (Only when the index also appears in the array or as
    /// the result is `index − base` posted as a variable, as before.)
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let i = m.new_var(Domain::range(0, 9)).unwrap(); // 1-based
    /// let a = m.new_vars(3, Domain::range(0, 9)).unwrap();
    /// let r = m.new_var(Domain::range(0, 9)).unwrap();
    /// m.element_offset(i, &a, r, 1).unwrap();
    /// m.post(a[1].eq(8)).unwrap();
    /// m.post(r.eq(8)).unwrap();
    /// m.post(a[0].ne(8)).unwrap();
    /// m.post(a[2].ne(8)).unwrap();
    /// assert_eq!(m.num_vars(), 5); // no auxiliary variable
    /// let s = Search::new(&m).solve().unwrap().solution.unwrap();
    /// assert_eq!(s[i], 2); // a[1], the second entry
    /// ```
    pub fn element_offset(
        &mut self,
        index: VarId,
        array: &[VarId],
        result: VarId,
        base: Value,
    ) -> Result<ConstraintId, ModelError> {
        self.check_vars("element", &[index, result])?;
        self.check_vars("element", array)?;
        if array.is_empty() {
            return Err(ModelError::Invalid {
                constraint: "element",
                reason: "the array is empty".into(),
            });
        }
        let c = Element::with_base(index, array, result, base);
        if has_repeats(c.scope()) {
            if base == 0 {
                return Ok(self.checker_path(Box::new(CheckerOnly(c))));
            }
            // The index or the result repeated in the array: the
            // 0-based constraint over `index − base`, whose own repeats
            // (the result in the array) go to the checker.
            let i0 = self.define(index - base)?;
            return self.element_offset(i0, array, result, 0);
        }
        Ok(self.push(Posted::Element(c)))
    }

    /// `array[index − base] = result` for a constant array (see
    /// [`element_offset`](Model::element_offset); each constant becomes
    /// a fixed variable).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let i = m.new_var(Domain::range(1, 3)).unwrap(); // 1-based
    /// let r = m.new_var(Domain::range(0, 9)).unwrap();
    /// m.element_const_offset(i, &[7, 8, 9], r, 1).unwrap();
    /// m.post(r.eq(8)).unwrap();
    /// let s = Search::new(&m).solve().unwrap().solution.unwrap();
    /// assert_eq!(s[i], 2);
    /// ```
    pub fn element_const_offset(
        &mut self,
        index: VarId,
        array: &[Value],
        result: VarId,
        base: Value,
    ) -> Result<ConstraintId, ModelError> {
        self.check_vars("element", &[index, result])?;
        let vars = array
            .iter()
            .map(|&v| self.new_var(Domain::singleton(v)))
            .collect::<Result<Vec<_>, _>>()?;
        self.element_offset(index, &vars, result, base)
    }

    /// `|{x ∈ vars : x = value}| ⋈ k` (see [`Count`]), where the count
    /// `k` is a constant (`2`, an `i64`), a variable, or any expression
    /// (one argument for all: a variable count is posted as
    /// [`among`](Model::among) over `[value]`, with an auxiliary count
    /// for a relation other than `=` or a count that is not a variable).
    /// Returns the id of the counting constraint.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Relation, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(4, Domain::range(0, 2))?;
    /// let n = m.new_var(Domain::range(0, 4))?;
    /// m.count(&xs, 1, Relation::Le, 1)?;   // at most one 1: a constant
    /// m.count(&xs, 2, Relation::Eq, n)?;   // n twos: a variable
    /// m.count(&xs, 0, Relation::Gt, n + 1)?; // more zeros than n + 1
    /// let s = Search::new(&m).solve()?.solution.unwrap();
    /// let count = |v| s.values_of(&xs).iter().filter(|&&x| x == v).count() as i32;
    /// assert!(count(1) <= 1 && count(2) == s[n] && count(0) > s[n] + 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count(
        &mut self,
        vars: &[VarId],
        value: Value,
        rel: Relation,
        k: impl Into<crate::Expr>,
    ) -> Result<ConstraintId, ModelError> {
        self.check_vars("count", vars)?;
        let k = k.into();
        let Some(k) = k.as_constant() else {
            return self.count_expr(vars, value, rel, k);
        };
        let c = Count::new(vars.to_vec(), value, rel, k);
        if has_repeats(vars) {
            return Ok(self.checker_path(Box::new(CheckerOnly(c))));
        }
        Ok(self.push(Posted::Count(c)))
    }

    /// [`count`](Model::count) with a count that is not a constant.
    fn count_expr(
        &mut self,
        vars: &[VarId],
        value: Value,
        rel: Relation,
        k: crate::Expr,
    ) -> Result<ConstraintId, ModelError> {
        // The count as one variable first (checked: a variable of
        // another model fails here, before anything is posted).
        let k = match k.as_var() {
            Some(x) => x,
            None => self.define(k)?,
        };
        self.check_vars("count", &[k])?;
        if rel == Relation::Eq {
            return self.among(vars, &[value], k);
        }
        let top = Value::try_from(vars.len()).unwrap_or(Value::MAX);
        let n = self.new_var(Domain::range(0, top))?;
        let id = self.among(vars, &[value], n)?;
        self.post(match rel {
            Relation::Eq => n.eq(k),
            Relation::Ne => n.ne(k),
            Relation::Le => n.le(k),
            Relation::Lt => n.lt(k),
            Relation::Ge => n.ge(k),
            Relation::Gt => n.gt(k),
        })?;
        Ok(id)
    }

    /// At most `k` of `vars` take `value`.
    pub fn at_most(
        &mut self,
        vars: &[VarId],
        value: Value,
        k: i64,
    ) -> Result<ConstraintId, ModelError> {
        self.count(vars, value, Relation::Le, k)
    }

    /// Exactly `k` of `vars` take `value`.
    pub fn exactly(
        &mut self,
        vars: &[VarId],
        value: Value,
        k: i64,
    ) -> Result<ConstraintId, ModelError> {
        self.count(vars, value, Relation::Eq, k)
    }

    /// `x ≤ y + c` (see [`LessEq`]); `x < y` is `less_eq(x, y, -1)`.
    /// Expressions say it more plainly: `m.post(x.lt(y))`.
    pub fn less_eq(&mut self, x: VarId, y: VarId, c: i64) -> Result<ConstraintId, ModelError> {
        self.check_vars("less-eq", &[x, y])?;
        self.post(LessEq::new(x, y, c))
    }

    /// `z = x·y` (see [`Arith`]); `x·x` is posted as the square.
    pub fn times(&mut self, x: VarId, y: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        if x == y {
            return self.arith(ArithOp::Pow(2), &[x], z);
        }
        self.arith(ArithOp::Times, &[x, y], z)
    }

    /// `z = x / y`, rounding toward zero; `y ≠ 0` (see [`Arith`]).
    pub fn div(&mut self, x: VarId, y: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.arith(ArithOp::Div, &[x, y], z)
    }

    /// `z = x mod y`, the remainder of [`div`](Model::div) (the sign of
    /// `x`); `y ≠ 0` (see [`Arith`]).
    pub fn modulo(&mut self, x: VarId, y: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.arith(ArithOp::Mod, &[x, y], z)
    }

    /// `z = |x|` (see [`Arith`]).
    pub fn abs(&mut self, x: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.arith(ArithOp::Abs, &[x], z)
    }

    /// `z = x^k` for `k ≥ 0`, with `x⁰ = 1` (see [`Arith`]).
    pub fn pow(&mut self, x: VarId, k: u32, z: VarId) -> Result<ConstraintId, ModelError> {
        self.arith(ArithOp::Pow(k), &[x], z)
    }

    /// `z = min(xs)`; `xs` must not be empty (see [`Arith`]).
    pub fn min(&mut self, xs: &[VarId], z: VarId) -> Result<ConstraintId, ModelError> {
        self.arith(ArithOp::Min, xs, z)
    }

    /// `z = max(xs)`; `xs` must not be empty (see [`Arith`]).
    pub fn max(&mut self, xs: &[VarId], z: VarId) -> Result<ConstraintId, ModelError> {
        self.arith(ArithOp::Max, xs, z)
    }

    fn arith(&mut self, op: ArithOp, args: &[VarId], z: VarId) -> Result<ConstraintId, ModelError> {
        // max(x, y, y) is max(x, y): without the repeat the constraint keeps
        // its own propagator rather than the checker path.
        let mut unique;
        let args = if matches!(op, ArithOp::Min | ArithOp::Max) && has_repeats(args) {
            let mut seen = rustc_hash::FxHashSet::default();
            unique = args.to_vec();
            unique.retain(|&x| seen.insert(x));
            &unique[..]
        } else {
            args
        };
        let c = Arith::new(op, args, z);
        let name = c.name().to_string();
        self.check_vars("arithmetic", c.scope())?;
        if args.is_empty() {
            return Err(ModelError::Invalid {
                constraint: "arithmetic",
                reason: format!("{name} of no variables"),
            });
        }
        // Over a domain wider than the filtering limit, `/`, `mod`, `|·|`
        // and `ᵏ` bound the last open variable without filtering it
        // (`|x| = 10⁶` leaves `x ∈ −10⁶..=10⁶`): counting then checks
        // each solution rather than adding the values left.
        let loose = matches!(
            op,
            ArithOp::Div | ArithOp::Mod | ArithOp::Abs | ArithOp::Pow(_)
        ) && c
            .scope()
            .iter()
            .any(|&x| self.domain(x).size() > crate::constraint::FILTER_LIMIT);
        let id = self.post(c)?;
        if loose {
            self.check_counted(id);
        }
        Ok(id)
    }

    /// A constraint given by a closure over the values of `vars` (see [`Predicate`]).
    pub fn predicate(
        &mut self,
        vars: &[VarId],
        name: &str,
        check: impl Fn(&[Value]) -> bool + Send + Sync + 'static,
    ) -> Result<ConstraintId, ModelError> {
        self.check_vars("predicate", vars)?;
        Ok(self.checker_path(Box::new(Predicate::new(vars.to_vec(), name, check))))
    }
}

/// Why an assignment fails [`Model::check`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckError {
    /// Wrong number of values.
    Length {
        /// Number of variables.
        expected: usize,
        /// Number of values given.
        found: usize,
    },
    /// A value outside its variable's declared domain.
    Domain {
        /// The variable.
        var: VarId,
        /// Its value.
        value: Value,
    },
    /// A constraint rejects the assignment.
    Violated {
        /// Which constraint.
        constraint: ConstraintId,
        /// Its name.
        name: String,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Length { expected, found } => {
                write!(f, "expected {expected} values, found {found}")
            }
            CheckError::Domain { var, value } => {
                write!(f, "{var} = {value} is outside its domain")
            }
            CheckError::Violated { constraint, name } => {
                write!(f, "constraint {constraint} ({name}) is violated")
            }
        }
    }
}

impl std::error::Error for CheckError {}
