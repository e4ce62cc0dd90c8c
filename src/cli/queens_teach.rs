//! `csp queens --solver teach-*`: the teaching solvers of
//! `csp_queens::teaching`, each a short function written to be read.

use std::ops::ControlFlow;
use std::time::Instant;

use csp_queens::teaching::{
    bits, brute_nn, brute_perm, forward, genetic, min_conflicts, sets, stack, Run, BITS_MAX_N,
};
use csp_queens::trace::TraceLine;

use super::CliError;

/// The teaching solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Teach {
    /// Recursive backtracking with three sets of ids.
    Sets,
    /// Iterative backtracking with an explicit stack (traces its tree).
    Stack,
    /// The minimal bitboard counter.
    Bits,
    /// Brute force over all nⁿ placements.
    Nn,
    /// Brute force over all n! permutations.
    Perm,
    /// Forward checking (traces its domains).
    Fc,
    /// Min-conflicts local search.
    MinConflicts,
    /// A genetic algorithm.
    Genetic,
}

/// Moves min-conflicts may make before it gives up.
pub const MIN_CONFLICTS_STEPS: u64 = 100_000;
/// Generations the genetic algorithm may breed before it gives up.
pub const GENETIC_GENERATIONS: u64 = 2_000;

impl Teach {
    /// Every teaching solver with its `--solver` name.
    pub const ALL: [(Teach, &'static str); 8] = [
        (Teach::Sets, "teach-sets"),
        (Teach::Stack, "teach-stack"),
        (Teach::Bits, "teach-bits"),
        (Teach::Nn, "teach-nn"),
        (Teach::Perm, "teach-perm"),
        (Teach::Fc, "teach-fc"),
        (Teach::MinConflicts, "teach-min-conflicts"),
        (Teach::Genetic, "teach-genetic"),
    ];

    /// The `--solver` name.
    pub fn name(self) -> &'static str {
        Teach::ALL
            .iter()
            .find(|(t, _)| *t == self)
            .map_or("?", |(_, n)| n)
    }

    /// Whether it finds every solution (the local searches find one).
    pub fn exact(self) -> bool {
        !matches!(self, Teach::MinConflicts | Teach::Genetic)
    }

    /// What one node is, for the statistics line (see docs/queens.md).
    pub fn node(self) -> &'static str {
        match self {
            Teach::Sets | Teach::Stack | Teach::Bits => "queens put on free squares",
            Teach::Nn => "placements tested",
            Teach::Perm => "permutations tested",
            Teach::Fc => "queens tried",
            Teach::MinConflicts => "moves",
            Teach::Genetic => "individuals evaluated",
        }
    }

    /// The largest board it takes: the bitboard has one bit per column,
    /// forward checking copies every domain at every level (n³ columns),
    /// and the others are O(n²) a step at best.
    pub fn max_n(self) -> usize {
        match self {
            Teach::Bits => BITS_MAX_N,
            Teach::Fc => 200,
            _ => 2_000,
        }
    }

    /// An error when `n` is larger than [`Teach::max_n`].
    pub fn check_n(self, n: usize) -> Result<(), CliError> {
        if n > self.max_n() {
            return Err(format!(
                "--solver {} takes n up to {} (the teaching solvers are written to be read, not for large boards); got n = {n}",
                self.name(),
                self.max_n()
            ));
        }
        Ok(())
    }
}

/// How a teaching run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Nodes (see [`Teach::node`]).
    pub nodes: u64,
    /// Solutions handed over.
    pub solutions: u128,
    /// The deadline stopped it before it was done.
    pub timed_out: bool,
}

impl Tally {
    /// The statistics line: `solutions: S, nodes: N (what a node is)`.
    pub fn stats_line(&self, t: Teach) -> String {
        format!(
            "solutions: {}, nodes: {} ({})",
            self.solutions,
            self.nodes,
            t.node()
        )
    }
}

/// Runs `t` on `n` queens within `deadline`, handing every solution to
/// `on_solution` (which breaks to stop), and every node to `show` (the
/// stack solver's tree) or `show_domains` (forward checking's domains).
pub fn run(
    t: Teach,
    n: usize,
    seed: u64,
    deadline: Option<Instant>,
    on_solution: impl FnMut(&[u32]) -> ControlFlow<()>,
    show: Option<&mut dyn FnMut(&TraceLine)>,
    show_domains: Option<forward::Show>,
) -> Result<Tally, CliError> {
    t.check_n(n)?;
    let mut run = Run::new(deadline, on_solution);
    match t {
        Teach::Sets => sets::solve(n, &mut run),
        Teach::Stack => stack::solve(n, &mut run, show),
        Teach::Bits => bits::solve(n, &mut run),
        Teach::Nn => brute_nn::solve(n, &mut run),
        Teach::Perm => brute_perm::solve(n, &mut run),
        Teach::Fc => forward::solve(n, &mut run, show_domains),
        Teach::MinConflicts => {
            min_conflicts::solve(n, seed, MIN_CONFLICTS_STEPS, &mut run);
        }
        Teach::Genetic => {
            genetic::solve(n, seed, GENETIC_GENERATIONS, &mut run);
        }
    }
    Ok(Tally {
        nodes: run.nodes(),
        solutions: run.solutions(),
        timed_out: run.timed_out(),
    })
}
