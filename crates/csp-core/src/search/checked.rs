//! The checked entry points of [`Search`]: each runs
//! [`Search::validate`] first and returns a `Result`, and takes `&mut
//! self`, so one configured search runs any number of times.

use std::ops::ControlFlow;

use super::{Report, Search, SolveResult, Uniqueness};
use crate::error::SearchError;
use crate::solution::Solution;

impl<'a> Search<'a> {
    /// [`solve`](Search::solve), checked: the first solution, or the
    /// [`SearchError`] that stopped the search before it started.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Outcome, Search};
    /// let mut m = Model::new();
    /// let [x, y] = m.new_array(Domain::range(0, 1))?;
    /// m.not_equal(x, y, 0)?;
    /// let mut search = Search::new(&m);
    /// let first = search.try_solve()?;
    /// let again = search.try_solve()?; // a Search runs more than once
    /// assert_eq!(first.outcome, Outcome::Solved);
    /// assert_eq!(first.solution, again.solution);
    /// println!("{first}"); // solved: x = 0 ... (see SolveResult's Display)
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_solve(&mut self) -> Result<SolveResult, SearchError> {
        self.validate()?;
        Ok(self.rerun().solve())
    }

    /// [`count`](Search::count), checked.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(5, Domain::range(1, 5))?;
    /// m.all_different(&xs)?;
    /// assert_eq!(Search::new(&m).try_count()?.count, 120);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_count(&mut self) -> Result<Report, SearchError> {
        self.validate()?;
        Ok(self.rerun().count())
    }

    /// [`count_up_to`](Search::count_up_to), checked.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(5, Domain::range(1, 5))?;
    /// m.all_different(&xs)?;
    /// assert_eq!(Search::new(&m).try_count_up_to(10)?.count, 10);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_count_up_to(&mut self, k: u64) -> Result<Report, SearchError> {
        self.validate()?;
        Ok(self.rerun().count_up_to(k))
    }

    /// [`is_unique`](Search::is_unique), checked.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search, Uniqueness};
    /// let mut m = Model::new();
    /// let [x, y] = m.new_array(Domain::range(1, 2))?;
    /// m.equal(x, y, 1)?; // x = y + 1
    /// assert!(matches!(Search::new(&m).try_is_unique()?, Uniqueness::Unique(_)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_is_unique(&mut self) -> Result<Uniqueness, SearchError> {
        self.validate()?;
        Ok(self.rerun().is_unique())
    }

    /// [`for_each_solution`](Search::for_each_solution), checked.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(3, Domain::range(1, 3))?;
    /// m.all_different(&xs)?;
    /// let mut seen = 0;
    /// let r = Search::new(&m).try_for_each_solution(|_| {
    ///     seen += 1;
    ///     ControlFlow::Continue(())
    /// })?;
    /// assert_eq!((seen, r.count), (6, 6));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_for_each_solution(
        &mut self,
        f: impl FnMut(&Solution) -> ControlFlow<()>,
    ) -> Result<Report, SearchError> {
        self.validate()?;
        Ok(self.rerun().for_each_solution(f))
    }

    /// [`par_count`](Search::par_count), checked.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(6, Domain::range(1, 6))?;
    /// m.all_different(&xs)?;
    /// assert_eq!(Search::new(&m).try_par_count(2)?.count, 720);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_par_count(&mut self, threads: usize) -> Result<Report, SearchError> {
        self.validate()?;
        Ok(self.rerun().par_count(threads))
    }

    /// [`par_solutions`](Search::par_solutions), checked.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(4, Domain::range(1, 4))?;
    /// m.all_different(&xs)?;
    /// let (all, report) = Search::new(&m).try_par_solutions(2)?;
    /// assert_eq!((all.len(), report.count), (24, 24));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_par_solutions(
        &mut self,
        threads: usize,
    ) -> Result<(Vec<Solution>, Report), SearchError> {
        self.validate()?;
        Ok(self.rerun().par_solutions(threads))
    }
}
