//! The entry points of [`Search`]: each runs [`Search::validate`] first
//! and returns a `Result`, and (except [`solutions`](Search::solutions),
//! whose iterator owns the search) takes `&mut self`, so one configured
//! search runs any number of times.

use std::ops::ControlFlow;

use super::{Report, Search, Solutions, SolveResult, Uniqueness};
use crate::error::SearchError;
use crate::solution::Solution;

impl<'a> Search<'a> {
    /// Finds the first solution.
    ///
    /// Checked: [`validate`](Search::validate) runs first, so a variable of
    /// another model among the arguments, or a constraint over no variables
    /// that cannot hold, is a [`SearchError`] before anything runs. Takes
    /// `&mut self`: one configured search runs any number of times.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Outcome, Search};
    /// let mut m = Model::new();
    /// let [x, y] = m.new_array(Domain::range(0, 1))?;
    /// m.not_equal(x, y, 0)?;
    /// m.not_equal(x, y, 1)?; // x ≠ y + 1
    /// let mut search = Search::new(&m);
    /// let first = search.solve()?;
    /// let again = search.solve()?; // a Search runs more than once
    /// assert_eq!(first.outcome, Outcome::Solved);
    /// assert_eq!(first.solution.as_ref().unwrap().values(), &[0, 1]);
    /// assert_eq!(first.solution, again.solution);
    /// println!("{first}"); // solved: ... (see SolveResult's Display)
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve(&mut self) -> Result<SolveResult, SearchError> {
        self.validate()?;
        Ok(self.rerun().solve_unchecked())
    }

    /// The first `n` conflicts of the learning search for a solution
    /// (whatever [`learning`](Search::learning) says), each analysed step
    /// by step: the literals that cannot hold together, the resolutions to
    /// the first unique implication point, the clause learned and the
    /// backjump (see [`ConflictTrace`](crate::ConflictTrace) and
    /// `docs/learning.md`). Fewer when the search ends first.
    ///
    /// Checked: [`validate`](Search::validate) runs first.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search, VarId};
    /// // Four pigeons, three holes.
    /// let mut m = Model::new();
    /// let p = (1..=4)
    ///     .map(|i| m.new_var_named(&format!("p{i}"), Domain::range(1, 3)))
    ///     .collect::<Result<Vec<VarId>, _>>()?;
    /// for i in 0..4 {
    ///     for j in i + 1..4 {
    ///         m.not_equal(p[i], p[j], 0)?;
    ///     }
    /// }
    /// let traces = Search::new(&m).trace_conflicts(1)?;
    /// let t = &traces[0];
    /// // The clause is unit after the backjump: its first literal is
    /// // the negated first UIP.
    /// assert_eq!(t.clause[0], t.uip.lit.negate());
    /// print!("{}", t.render(&m));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn trace_conflicts(&mut self, n: usize) -> Result<Vec<crate::ConflictTrace>, SearchError> {
        self.validate()?;
        let mut options = self.options.clone();
        options.learning = true;
        Ok(super::learning::trace_conflicts(self.model, options, n))
    }

    /// An iterator over all solutions, in search order. After it ends,
    /// [`Solutions::outcome`] tells whether a limit stopped it.
    ///
    /// Checked: [`validate`](Search::validate) runs first, so a variable of
    /// another model among the arguments, or a constraint over no variables
    /// that cannot hold, is a [`SearchError`] before anything runs. Consumes
    /// the search: the iterator owns it.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(3, Domain::range(1, 3))?;
    /// m.all_different(&xs)?;
    /// let firsts: Vec<i32> = Search::new(&m).solutions()?.map(|s| s[&xs[0]]).collect();
    /// assert_eq!(firsts, vec![1, 1, 2, 2, 3, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solutions(self) -> Result<Solutions<'a>, SearchError> {
        self.validate()?;
        Ok(self.solutions_unchecked())
    }

    /// Calls `f` for each solution until it returns `ControlFlow::Break`.
    ///
    /// Checked: [`validate`](Search::validate) runs first, so a variable of
    /// another model among the arguments, or a constraint over no variables
    /// that cannot hold, is a [`SearchError`] before anything runs. Takes
    /// `&mut self`: one configured search runs any number of times.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(3, Domain::range(1, 3))?;
    /// m.all_different(&xs)?;
    /// let mut firsts = Vec::new();
    /// let r = Search::new(&m).for_each_solution(|s| {
    ///     firsts.push(s.values()[0]);
    ///     if firsts.len() == 4 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// })?;
    /// assert_eq!((firsts, r.count), (vec![1, 1, 2, 2], 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_each_solution(
        &mut self,
        f: impl FnMut(&Solution) -> ControlFlow<()>,
    ) -> Result<Report, SearchError> {
        self.validate()?;
        Ok(self.rerun().for_each_solution_unchecked(f))
    }

    /// Counts all solutions without building them.
    ///
    /// With forward checking or arc consistency (and no observer), when one
    /// variable is left its remaining values are all solutions, so they are
    /// added at once instead of being tried one by one. That holds for the
    /// library's constraints; when the model has constraints of the
    /// caller's ([`Model::post`](crate::Model::post)), whose pruning may let a non-solution
    /// through, each solution is reached and checked against them, and one
    /// that fails ends the count with [`Outcome::Invalid`](crate::Outcome::Invalid) naming it.
    ///
    /// Checked: [`validate`](Search::validate) runs first, so a variable of
    /// another model among the arguments, or a constraint over no variables
    /// that cannot hold, is a [`SearchError`] before anything runs. Takes
    /// `&mut self`: one configured search runs any number of times.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(5, Domain::range(1, 5))?;
    /// m.all_different(&xs)?;
    /// assert_eq!(Search::new(&m).count()?.count, 120);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count(&mut self) -> Result<Report, SearchError> {
        self.validate()?;
        Ok(self.rerun().count_unchecked())
    }

    /// Counts solutions, stopping at `k` (a count of `k` means "at least k").
    ///
    /// Checked: [`validate`](Search::validate) runs first, so a variable of
    /// another model among the arguments, or a constraint over no variables
    /// that cannot hold, is a [`SearchError`] before anything runs. Takes
    /// `&mut self`: one configured search runs any number of times.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(5, Domain::range(1, 5))?;
    /// m.all_different(&xs)?;
    /// assert_eq!(Search::new(&m).count_up_to(10)?.count, 10);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_up_to(&mut self, k: u64) -> Result<Report, SearchError> {
        self.validate()?;
        Ok(self.rerun().count_up_to_unchecked(k))
    }

    /// Is there exactly one solution? Stops at the second.
    ///
    /// Checked: [`validate`](Search::validate) runs first, so a variable of
    /// another model among the arguments, or a constraint over no variables
    /// that cannot hold, is a [`SearchError`] before anything runs. Takes
    /// `&mut self`: one configured search runs any number of times.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search, Uniqueness};
    /// let mut m = Model::new();
    /// let [x, y] = m.new_array(Domain::range(1, 2))?;
    /// m.equal(x, y, 1)?; // x = y + 1
    /// assert!(matches!(Search::new(&m).is_unique()?, Uniqueness::Unique(_)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_unique(&mut self) -> Result<Uniqueness, SearchError> {
        self.validate()?;
        Ok(self.rerun().uniqueness_unchecked())
    }

    /// Counts all solutions on `threads` threads (0: all cores).
    ///
    /// The tree is split at its first decisions into subproblems (the same
    /// split whatever the number of threads), which are solved on a rayon
    /// pool; so the count, and the statistics other than time, do not depend
    /// on `threads`. Observers are not called.
    ///
    /// The workers are capped at the number of cores
    /// (`std::thread::available_parallelism`) unless
    /// [`Search::max_threads`] asks otherwise, and at the number of
    /// subproblems: each worker is a thread with an engine of its own, and
    /// past the cores they only add that cost (1,000 threads took 11.5 s
    /// where 2 took 0.03 s).
    ///
    /// Checked: [`validate`](Search::validate) runs first, so a variable of
    /// another model among the arguments, or a constraint over no variables
    /// that cannot hold, is a [`SearchError`] before anything runs. Takes
    /// `&mut self`: one configured search runs any number of times.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(6, Domain::range(1, 6))?;
    /// m.all_different(&xs)?;
    /// assert_eq!(Search::new(&m).par_count(2)?.count, 720);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn par_count(&mut self, threads: usize) -> Result<Report, SearchError> {
        self.validate()?;
        Ok(self.rerun().par_count_unchecked(threads))
    }

    /// All solutions, found on `threads` threads (0: all cores), in the same
    /// order as a sequential search over the same split. A solution limit
    /// truncates the list. The workers are capped as
    /// [`par_count`](Search::par_count)'s are.
    ///
    /// Checked: [`validate`](Search::validate) runs first, so a variable of
    /// another model among the arguments, or a constraint over no variables
    /// that cannot hold, is a [`SearchError`] before anything runs. Takes
    /// `&mut self`: one configured search runs any number of times.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(4, Domain::range(1, 4))?;
    /// m.all_different(&xs)?;
    /// let (all, report) = Search::new(&m).par_solutions(2)?;
    /// assert_eq!((all.len(), report.count), (24, 24));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn par_solutions(
        &mut self,
        threads: usize,
    ) -> Result<(Vec<Solution>, Report), SearchError> {
        self.validate()?;
        Ok(self.rerun().par_solutions_unchecked(threads))
    }
}
