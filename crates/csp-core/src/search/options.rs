//! The knobs of a backtracking search: how much propagation runs
//! ([`Inference`]), which variable and value come next ([`VarOrder`],
//! [`ValOrder`]), restarts, weights and the rest, gathered in
//! [`SearchOptions`]. The engine that reads them is in `engine.rs`; the
//! variable and value choices themselves in `var_order.rs` and
//! `val_order.rs`.

use crate::ids::Value;
use crate::limits::Limits;

pub use crate::propagation::Inference;

/// Which variable the search branches on next (among those with more than
/// one value; ties go to the lowest index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VarOrder {
    /// Declaration order.
    Input,
    /// Smallest domain first ("minimum remaining values", first-fail): the default.
    #[default]
    Mrv,
    /// Smallest domain size divided by degree (number of constraints on the variable).
    DomDeg,
    /// Smallest domain size divided by weighted degree: each constraint's weight
    /// starts at 1 and grows by 1 each time it wipes out a domain
    /// (Boussemart et al., "Boosting systematic search by weighting constraints", 2004).
    DomWdeg,
    /// Smallest minimum value first (FlatZinc's `smallest`).
    Smallest,
    /// Largest maximum value first (FlatZinc's `largest`).
    Largest,
}

/// In which order a variable's values are tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValOrder {
    /// Smallest first (the default).
    #[default]
    Ascending,
    /// Largest first.
    Descending,
    /// Closest to the middle of the current domain first, the lower of two
    /// equally close values first.
    Middle,
    /// A seeded random order: the same seed gives the same search.
    Random {
        /// The seed.
        seed: u64,
    },
    /// Bisection (FlatZinc's `indomain_split`): branch on `x ≤ mid` first,
    /// then `x > mid`, where `mid = ⌊(min + max) / 2⌋` of the current
    /// domain. Each half is a decision ([`Decision::AtMost`] /
    /// [`Decision::AtLeast`]) and a node; a variable is split again until
    /// it is fixed, by propagation or by its last split.
    Split,
    /// Bisection, upper half first: `x > mid`, then `x ≤ mid`
    /// (FlatZinc's `indomain_reverse_split`).
    ReverseSplit,
    /// Binary branching on the smallest value: `x = min`, then `x ≠ min`
    /// (as [`Decision::AtMost`]`(min)` / [`Decision::AtLeast`]`(min + 1)`).
    /// The values are tried in ascending order as with `Ascending`, but
    /// after `x ≠ min` propagates, the variable order chooses again, so
    /// another variable may come first (Gecode's `INT_VAL_MIN`; FlatZinc's
    /// `indomain_min`).
    BinaryMin,
    /// Binary branching on the largest value: `x = max`, then `x ≠ max`.
    BinaryMax,
}

impl ValOrder {
    /// Does this order split domains rather than assign values?
    pub fn splits(&self) -> bool {
        matches!(
            self,
            ValOrder::Split | ValOrder::ReverseSplit | ValOrder::BinaryMin | ValOrder::BinaryMax
        )
    }
}

/// One branching decision of the search on a variable: an assignment, or
/// one half of a split domain ([`ValOrder::Split`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// `x = v`.
    Assign(Value),
    /// `x ≤ v` (the lower half of a split).
    AtMost(Value),
    /// `x ≥ v` (the upper half of a split).
    AtLeast(Value),
}

impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Decision::Assign(v) => write!(f, "= {v}"),
            Decision::AtMost(v) => write!(f, "≤ {v}"),
            Decision::AtLeast(v) => write!(f, "≥ {v}"),
        }
    }
}

/// Restarts: start the search again from the root after a number of
/// failures that grows by a sequence, keeping what was learnt (the dom/wdeg
/// failure weights and, when optimising, the bound). They apply to
/// [`Search::solve`](super::Search::solve) and to optimisation, where a fresh start with better
/// weights often finds the way a bad early choice hid; counting and
/// enumeration never restart (they would visit solutions twice).
///
/// The cutoffs grow without bound, so a search that restarts is still
/// complete: "no solution" and "optimal" remain proofs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Restarts {
    /// Never restart (the default).
    #[default]
    None,
    /// Luby et al. (1993): cutoffs `scale × (1, 1, 2, 1, 1, 2, 4, 1, …)`
    /// failures, within a log factor of the best fixed sequence for any
    /// run-time distribution.
    Luby {
        /// Failures per unit of the sequence (e.g. 100).
        scale: u64,
    },
    /// Cutoffs `base, base·factor, base·factor², …` failures (Walsh 1999).
    Geometric {
        /// The first cutoff (e.g. 100).
        base: u64,
        /// The growth per restart (e.g. 1.5); values below 1.01 count as 1.01.
        factor: f64,
    },
}

impl Restarts {
    /// The cutoff (in failures) of run `i` (0-based); `u64::MAX` for `None`.
    pub fn cutoff(&self, i: u64) -> u64 {
        match *self {
            Restarts::None => u64::MAX,
            Restarts::Luby { scale } => scale.max(1).saturating_mul(luby(i + 1)),
            Restarts::Geometric { base, factor } => {
                let c = base.max(1) as f64 * factor.max(1.01).powf(i as f64);
                if c >= u64::MAX as f64 {
                    u64::MAX
                } else {
                    c as u64
                }
            }
        }
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, … (1-based).
fn luby(i: u64) -> u64 {
    // Find k with 2^(k-1) <= i < 2^k; if i = 2^k − 1 the term is 2^(k−1),
    // else recurse on i − (2^(k−1) − 1).
    let mut i = i.max(1);
    loop {
        let k = 64 - i.leading_zeros() as u64; // 2^(k−1) <= i < 2^k
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// The dom/wdeg failure weights when the search moves on to the next
/// decision at the root (see [`SearchOptions::root_weights`]).
///
/// Meant for branch and bound that decides its bound first, as the
/// chromatic number does (`top = t` refuted, then `top = t + 1`): the
/// weights learnt refuting one root choice describe a different problem
/// from the next. Restarts are not root decisions: the first root decision
/// after a restart leaves the weights alone, so restarts keep them as
/// before. Each choice changes only the variable order, so every search
/// stays complete. O(constraints) per root decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RootWeights {
    /// Keep the weights (the default).
    #[default]
    Keep,
    /// Halve every weight (rounding up, so none drops below 1): the past
    /// still counts, for less.
    Halve,
    /// Every weight back to 1, as at the start.
    Reset,
}

/// How the learning search ([`SearchOptions::learning`]) chooses its
/// decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LearningOrder {
    /// The default: [`User`](Self::User) when the caller chose an order
    /// (a `var_order` other than [`VarOrder::Mrv`], a `val_order` other
    /// than [`ValOrder::Ascending`], or `phase_orders`), else
    /// [`Activity`](Self::Activity). A search that names its order keeps
    /// it when learning is on by default.
    #[default]
    Auto,
    /// Learning's own heuristics: the open variable of highest activity
    /// (the `decision_vars` first), on its saved phase, with restarts
    /// (Luby, 100 conflicts per unit, when [`SearchOptions::restarts`]
    /// asks for none).
    Activity,
    /// The caller's order, as the ordinary engine would choose:
    /// `decision_vars` and their `phases` with their orders, then
    /// `var_order` and `val_order` (`x = v` for the value orders, `x ≤ mid`
    /// or `x ≥ mid + 1` for the splits). Each decision is one literal; a
    /// refuted one is negated by the nogood the conflict teaches. Restarts
    /// only as [`SearchOptions::restarts`] says (none by default): a fixed
    /// order started again would retrace its steps. MiniZinc's search
    /// annotations reach the learning search this way.
    User,
}

/// All the knobs of a backtracking search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Propagation after each decision.
    pub inference: Inference,
    /// Variable choice.
    pub var_order: VarOrder,
    /// Value choice.
    pub val_order: ValOrder,
    /// Budgets.
    pub limits: Limits,
    /// Restarts for [`Search::solve`](super::Search::solve) and optimisation (none by default).
    pub restarts: Restarts,
    /// Branch on these variables first (by `var_order` among them; input
    /// order is their order here), then on the rest. Empty (the default):
    /// every variable alike.
    pub decision_vars: Vec<crate::ids::VarId>,
    /// Splits `decision_vars` into phases searched one after the other
    /// (FlatZinc's `seq_search`): the lengths of the first groups, in
    /// order; the variables after them form the last group. The search
    /// branches on a variable of the first group that has an open one,
    /// choosing within it by `var_order`. Empty (the default): one group.
    pub phases: Vec<usize>,
    /// The variable and value order of each phase, by index into `phases`
    /// (FlatZinc's `seq_search` of differently annotated `int_search`es).
    /// A phase without an entry, and the last group, use `var_order` and
    /// `val_order`. Empty (the default): every phase uses those.
    pub phase_orders: Vec<(VarOrder, ValOrder)>,
    /// Last-conflict reasoning (Lecoutre, Saïs, Tabary and Vidal,
    /// "Reasoning from last conflict(s) in constraint programming", AIJ
    /// 2009): after a decision fails, its variable is branched on next,
    /// ahead of `var_order`, until a decision on it succeeds (or
    /// propagation fixes it). Off by default. It changes only which
    /// variable is chosen, so every search stays complete.
    pub last_conflict: bool,
    /// What happens to the dom/wdeg failure weights each time the search
    /// moves on to the next decision at the root (depth 1): kept (the
    /// default), halved or reset (see [`RootWeights`]).
    pub root_weights: RootWeights,
    /// Check every counted solution against every constraint, as the
    /// solution-returning calls always do (off by default for counting,
    /// which then builds no solution; always on in debug builds).
    pub validate: bool,
    /// Explaining mode: every domain change is recorded with its reason on
    /// the explanation trail (see [`crate::explain`]). Off by default; the
    /// search tree is the same either way, only slower when on.
    pub explain: bool,
    /// The learning search (lazy clause generation) for
    /// [`Search::solve`](super::Search::solve) and the optimisation calls
    /// `minimize`, `maximize`, `minimize_each` and `maximize_each`: conflicts
    /// are analysed into nogoods, which are kept and propagated; the search
    /// backjumps, and by default branches on the most active variable,
    /// saves phases and restarts (Luby, 100 conflicts per unit, unless
    /// `restarts` says otherwise); `decision_vars` are branched on first.
    /// [`learning_order`](Self::learning_order) [`LearningOrder::User`]
    /// keeps the caller's variable and value orders instead. It runs in
    /// explaining mode.
    /// `par_minimize` and `par_maximize` run learning workers that share
    /// the incumbent. Counting, enumeration, the other parallel calls, LNS
    /// and searches with an observer run the ordinary engine. **On by default**: a model
    /// whose failures repeat in every subtree (a roster, a packing, a
    /// schedule) is then proven in a fraction of the nodes; `false` turns
    /// it off, which is faster where propagation alone is strong (see
    /// `docs/learning.md`, "When it helps").
    pub learning: bool,
    /// How the learning search decides (see [`LearningOrder`]): in the
    /// caller's order when one is set, else by activity (the default,
    /// [`LearningOrder::Auto`]).
    pub learning_order: LearningOrder,
    /// Large neighbourhood search inside the learning search's branch and
    /// bound: once a solution is known, every other restart run first
    /// fixes a random share of the variables (of `decision_vars` when
    /// given) to the incumbent's values, as assumptions, so the nogoods
    /// it learns hold for the whole model and are kept. The runs between
    /// stay complete, so an optimum is still proven. Off by default (see
    /// `docs/learning.md`, "Neighbourhoods inside the learning search",
    /// for where it pays); it needs `learning` and restarts (Luby by
    /// default when the options have none). Satisfaction ignores it.
    pub lns: bool,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            inference: Inference::default(),
            var_order: VarOrder::default(),
            val_order: ValOrder::default(),
            limits: Limits::default(),
            restarts: Restarts::default(),
            decision_vars: Vec::new(),
            phases: Vec::new(),
            phase_orders: Vec::new(),
            last_conflict: false,
            root_weights: RootWeights::default(),
            validate: false,
            explain: false,
            learning: true,
            learning_order: LearningOrder::default(),
            lns: false,
        }
    }
}

impl SearchOptions {
    /// The learning order in effect: [`LearningOrder::Auto`] resolved
    /// (see there) to [`LearningOrder::User`] or [`LearningOrder::Activity`].
    pub fn effective_learning_order(&self) -> LearningOrder {
        match self.learning_order {
            LearningOrder::Auto => {
                if self.var_order != VarOrder::default()
                    || self.val_order != ValOrder::default()
                    || !self.phase_orders.is_empty()
                {
                    LearningOrder::User
                } else {
                    LearningOrder::Activity
                }
            }
            o => o,
        }
    }

    /// These options for a search over a model the caller did not build:
    /// the decision variables and phases dropped (they can only name
    /// variables of another model), everything else kept. The puzzle
    /// crates' `solve`/`count` functions take options this way, so their
    /// searches never meet a [`SearchError`](crate::SearchError).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search, SearchOptions};
    /// let mut mine = Model::new();
    /// let xs = mine.new_vars(2, Domain::range(0, 1))?;
    /// let opts = SearchOptions { decision_vars: xs, ..SearchOptions::default() };
    /// let mut theirs = Model::new();
    /// theirs.new_vars(3, Domain::range(0, 1))?;
    /// assert!(Search::new(&theirs).options(opts.clone()).count().is_err());
    /// let r = Search::new(&theirs).options(opts.for_another_model()).count()?;
    /// assert_eq!(r.count, 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_another_model(&self) -> SearchOptions {
        SearchOptions {
            decision_vars: Vec::new(),
            phases: Vec::new(),
            ..self.clone()
        }
    }
}
