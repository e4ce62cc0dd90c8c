//! The parallel split as data: [`Search::subproblems`] lists the
//! subproblems of a count, [`Search::count_subproblem`] counts one of them,
//! anywhere.
//!
//! This is the split [`Search::par_count`] runs on its thread pool (the
//! search tree cut at its first decisions, see `Parallel` in the parent
//! module), handed out as plain data so that the subproblems can be counted
//! by other processes or machines (an MPI job, a batch array) and added up.
//! The list is a pure function of the model and the search options: every
//! process that builds the same model with the same options computes the
//! same list, so a worker needs only the index of a subproblem.

use std::fmt;

use super::{count_parts, Decision, Parallel, Report, Search, ValOrder};
use crate::ids::VarId;
use crate::limits::Limit;
use crate::model::Model;

/// One subproblem of a split count: the decisions on the path from the root
/// to it, root first. Its solutions are those of the model that agree with
/// every decision; the subproblems of one list have disjoint sets of
/// solutions whose union is all the solutions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Subproblem {
    /// Its position in the list (it seeds [`ValOrder::Random`] as in
    /// [`Search::par_count`], so the statistics match too).
    pub index: usize,
    /// The decisions, root first.
    pub decisions: Vec<(VarId, Decision)>,
}

impl fmt::Display for Subproblem {
    /// `index: x3 = 1, x5 ≤ 4` (variables by index).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.index)?;
        for (k, (x, d)) in self.decisions.iter().enumerate() {
            let sep = if k == 0 { " " } else { ", " };
            write!(f, "{sep}x{} {d}", x.index())?;
        }
        Ok(())
    }
}

/// Why [`Search::count_subproblem`] refused a subproblem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubproblemError {
    /// A decision names a variable the model does not have.
    UnknownVar {
        /// The position of the decision in the subproblem.
        decision: usize,
        /// The variable's index.
        var: usize,
        /// The number of variables of the model.
        num_vars: usize,
    },
}

impl fmt::Display for SubproblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubproblemError::UnknownVar {
                decision,
                var,
                num_vars,
            } => write!(
                f,
                "decision {decision} of the subproblem is on variable {var}, \
                 but the model has {num_vars} variables"
            ),
        }
    }
}

impl std::error::Error for SubproblemError {}

impl Parallel<'_> {
    /// The subproblems of this split as plain data.
    fn subproblems(&self) -> Vec<Subproblem> {
        self.subs
            .iter()
            .enumerate()
            .map(|(index, path)| Subproblem {
                index,
                decisions: path
                    .iter()
                    .map(|&(x, d)| (VarId::from_index(x as usize), d))
                    .collect(),
            })
            .collect()
    }
}

impl<'m> Parallel<'m> {
    /// A "split" whose one subproblem is `sub`, ready for [`count_parts`].
    fn only(model: &'m Model, opts: &crate::SearchOptions, sub: &Subproblem) -> Parallel<'m> {
        let mut o = opts.clone();
        if let ValOrder::Random { seed } = o.val_order {
            // `run` seeds subproblem `i` of its list with `seed ^ i`; this
            // list has one subproblem, at position 0.
            o.val_order = ValOrder::Random {
                seed: seed ^ sub.index as u64,
            };
        }
        // Depth 0: no split search, one subproblem (the root), replaced.
        let mut par = Parallel::with_target(model, &o, 1, 0);
        par.subs = vec![sub
            .decisions
            .iter()
            .map(|&(x, d)| (x.index() as u32, d))
            .collect()];
        par
    }
}

impl Search<'_> {
    /// The subproblems of a split count: the search tree cut at its first
    /// decisions (as deep as needed for at least `target` subproblems, at
    /// most 8 decisions deep; fewer when the tree is smaller), in search
    /// order. [`Search::par_count`] uses the same split with `target` 256.
    ///
    /// The list depends on the model and on the search options (inference,
    /// variable and value order), never on a number of threads or the
    /// machine: a process that builds the same model with the same options
    /// gets the same list. The counts of the subproblems
    /// ([`Search::count_subproblem`]) add up to the count of the model.
    ///
    /// # Errors
    ///
    /// The limit (time, nodes, cancel) that stopped the split itself.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(5, Domain::range(1, 5)).unwrap();
    /// m.all_different(&xs).unwrap();
    /// let subs = Search::new(&m).subproblems(10).unwrap();
    /// assert_eq!(subs.len(), 20); // x1 and x2: 5 · 4 paths
    /// let total: u128 = subs
    ///     .iter()
    ///     .map(|s| Search::new(&m).count_subproblem(s).unwrap().count)
    ///     .sum();
    /// assert_eq!(total, 120);
    /// ```
    pub fn subproblems(self, target: usize) -> Result<Vec<Subproblem>, Limit> {
        let par = Parallel::with_target(self.model, &self.options, target, super::SPLIT_MAX_DEPTH);
        match par.split_stop {
            Some(limit) => Err(limit),
            None => Ok(par.subproblems()),
        }
    }

    /// Counts the solutions of one subproblem (from [`Search::subproblems`]
    /// with the same model and options, or built by hand), as
    /// [`Search::par_count`] counts it: the decisions are replayed, then the
    /// rest of the tree is searched. The limits apply to this subproblem
    /// alone; a solution limit caps its count. Observers are not called.
    ///
    /// Decisions that contradict the model or each other give a count of 0
    /// (`Unsatisfiable`).
    ///
    /// # Errors
    ///
    /// [`SubproblemError::UnknownVar`] if a decision names a variable the
    /// model does not have.
    pub fn count_subproblem(self, sub: &Subproblem) -> Result<Report, SubproblemError> {
        let num_vars = self.model.num_vars();
        if let Some((decision, (x, _))) = sub
            .decisions
            .iter()
            .enumerate()
            .find(|(_, (x, _))| x.index() >= num_vars)
        {
            return Err(SubproblemError::UnknownVar {
                decision,
                var: x.index(),
                num_vars,
            });
        }
        let cap = self.options.limits.solutions;
        let par = Parallel::only(self.model, &self.options, sub);
        Ok(count_parts(&par, 1, cap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Domain, Inference, Limits, Outcome, SearchOptions, VarOrder};

    /// N-queens, three all-different constraints over offsets.
    fn queens(n: usize) -> Model {
        let mut m = Model::new();
        let xs = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
        m.all_different(&xs).unwrap();
        let offs: Vec<i32> = (0..n as i32).collect();
        let neg: Vec<i32> = offs.iter().map(|o| -o).collect();
        m.all_different_offset(&xs, &offs).unwrap();
        m.all_different_offset(&xs, &neg).unwrap();
        m
    }

    /// Latin squares of order `n`: all-different rows and columns.
    fn latin(n: usize) -> Model {
        let mut m = Model::new();
        let cells = m.new_vars(n * n, Domain::range(1, n as i32)).unwrap();
        for i in 0..n {
            let row: Vec<_> = (0..n).map(|j| cells[i * n + j]).collect();
            let col: Vec<_> = (0..n).map(|j| cells[j * n + i]).collect();
            m.all_different(&row).unwrap();
            m.all_different(&col).unwrap();
        }
        m
    }

    fn sum_of_parts(m: &Model, opts: &SearchOptions, target: usize) -> (usize, u128) {
        let subs = Search::new(m)
            .options(opts.clone())
            .subproblems(target)
            .unwrap();
        let mut total = 0;
        for (i, s) in subs.iter().enumerate() {
            assert_eq!(s.index, i);
            let r = Search::new(m)
                .options(opts.clone())
                .count_subproblem(s)
                .unwrap();
            assert!(
                matches!(r.outcome, Outcome::Solved | Outcome::Unsatisfiable),
                "{:?}",
                r.outcome
            );
            total += r.count;
        }
        (subs.len(), total)
    }

    #[test]
    fn subproblem_counts_add_up_to_the_count() {
        let mac = SearchOptions {
            inference: Inference::Mac,
            ..Default::default()
        };
        let input = SearchOptions {
            var_order: VarOrder::Input,
            val_order: ValOrder::Split,
            ..Default::default()
        };
        let random = SearchOptions {
            val_order: ValOrder::Random { seed: 7 },
            ..Default::default()
        };
        let models = [
            ("queens 8", queens(8)),
            ("queens 9", queens(9)),
            ("latin 4", latin(4)),
        ];
        for (name, m) in &models {
            for opts in [&SearchOptions::default(), &mac, &input, &random] {
                let count = Search::new(m).options(opts.clone()).count().unwrap().count;
                for target in [1, 10, 256] {
                    let (len, total) = sum_of_parts(m, opts, target);
                    assert_eq!(total, count, "{name}, target {target}, {opts:?}");
                    assert!(len >= target.min(10), "{name}: {len} subproblems");
                }
            }
        }
    }

    #[test]
    fn the_list_is_that_of_par_count_for_any_thread_count() {
        let m = queens(10);
        let subs = Search::new(&m)
            .subproblems(super::super::SPLIT_TARGET)
            .unwrap();
        assert_eq!(subs, Search::new(&m).subproblems(256).unwrap());
        let count: u128 = subs
            .iter()
            .map(|s| Search::new(&m).count_subproblem(s).unwrap().count)
            .sum();
        for threads in [1, 2, 3] {
            let r = Search::new(&m).par_count(threads).unwrap();
            assert_eq!(r.count, count, "{threads} threads");
            assert_eq!(r.count, 724);
        }
        // The statistics of par_count are those of the parts (plus the
        // split): the parts' node counts add up to no more than its own.
        let nodes: u64 = subs
            .iter()
            .map(|s| Search::new(&m).count_subproblem(s).unwrap().stats.nodes)
            .sum();
        let par_nodes = Search::new(&m).par_count(2).unwrap().stats.nodes;
        assert!(nodes <= par_nodes, "{nodes} > {par_nodes}");
    }

    #[test]
    fn bad_and_contradictory_subproblems() {
        let m = queens(6);
        let bad = Subproblem {
            index: 0,
            decisions: vec![(VarId::from_index(6), Decision::Assign(0))],
        };
        let err = Search::new(&m).count_subproblem(&bad).unwrap_err();
        assert_eq!(
            err,
            SubproblemError::UnknownVar {
                decision: 0,
                var: 6,
                num_vars: 6
            }
        );
        assert!(err.to_string().contains("model has 6 variables"), "{err}");
        // Two queens on one column: no solution.
        let clash = Subproblem {
            index: 3,
            decisions: vec![
                (VarId::from_index(0), Decision::Assign(1)),
                (VarId::from_index(2), Decision::Assign(1)),
            ],
        };
        let r = Search::new(&m).count_subproblem(&clash).unwrap();
        assert_eq!((r.count, r.outcome), (0, Outcome::Unsatisfiable));
        assert_eq!(clash.to_string(), "3: x0 = 1, x2 = 1");
        // A value outside the domain.
        let outside = Subproblem {
            index: 0,
            decisions: vec![(VarId::from_index(1), Decision::Assign(99))],
        };
        assert_eq!(Search::new(&m).count_subproblem(&outside).unwrap().count, 0);
    }

    #[test]
    fn limits_stop_the_split_and_the_parts() {
        let m = queens(12);
        let none = SearchOptions {
            limits: Limits::none().with_nodes(3),
            ..Default::default()
        };
        assert_eq!(
            Search::new(&m).options(none).subproblems(256),
            Err(Limit::Nodes)
        );
        let subs = Search::new(&m).subproblems(4).unwrap();
        let few = SearchOptions {
            limits: Limits::none().with_nodes(20),
            ..Default::default()
        };
        let r = Search::new(&m)
            .options(few)
            .count_subproblem(&subs[0])
            .unwrap();
        assert_eq!(r.outcome, Outcome::LimitReached(Limit::Nodes));
        let capped = SearchOptions {
            limits: Limits::none().with_solutions(2),
            ..Default::default()
        };
        let r = Search::new(&m)
            .options(capped)
            .count_subproblem(&subs[0])
            .unwrap();
        assert_eq!(r.count, 2);
        assert_eq!(r.outcome, Outcome::LimitReached(Limit::Solutions));
    }
}
