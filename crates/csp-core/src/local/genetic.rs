//! [`Genetic`]: a genetic search over complete assignments.

use std::fmt;
use std::time::Duration;

use super::min_conflicts::{check_permutation, checked, random_assignment, Groups};
use super::rng::Rng;
use super::state::{DomainTable, Evaluator};
use super::{Budget, LocalError, Move};
use crate::ids::Value;
use crate::limits::{CancelToken, Limit, Outcome};
use crate::model::Model;
use crate::solution::Solution;

/// A generational genetic search: fitness is the total violations (lower is
/// better), parents are chosen by tournament, children are made by crossover
/// and mutation, and the best individuals survive unchanged (elitism).
///
/// With [`Move::Change`] (the default) an individual is any assignment;
/// crossover is uniform (each variable from either parent) and mutation gives
/// a variable a random value of its domain. With [`Move::Swap`] the model
/// must be a permutation (as for [`MinConflicts`](crate::MinConflicts)):
/// individuals are permutations of each group's domain, crossover is the
/// order crossover OX1 (Davis, 1985) applied per group, and mutation swaps two
/// variables of a group.
///
/// ```
/// use csp_core::{Domain, Genetic, Model, Move, Outcome};
/// let n = 8;
/// let mut m = Model::new();
/// let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
/// let rows: Vec<i32> = (0..n as i32).collect();
/// let neg: Vec<i32> = rows.iter().map(|i| -i).collect();
/// m.all_different(&q).unwrap();
/// m.all_different_offset(&q, &rows).unwrap();
/// m.all_different_offset(&q, &neg).unwrap();
/// let r = Genetic::new(&m).moves(Move::Swap).population(100).generations(500).seed(3).run().unwrap();
/// if r.outcome == Outcome::Solved {
///     assert!(m.check(r.solution.unwrap().values()).is_ok());
/// } else {
///     assert!(r.violations > 0); // an honest failure: the best found and its violations
/// }
/// ```
///
/// # Where it stands
/// On N-queens it is far weaker than min-conflicts, as the literature
/// reports. Measured on this crate's N-queens model (three all-differents),
/// population 100, tournaments of 3, mutation rate 1/n, up to 2,000
/// generations (200,000 fitness evaluations), seeds 0 to 19:
///
/// | n | permutations ([`Move::Swap`]): solved, median violations left | any assignment ([`Move::Change`]) |
/// |---:|---|---|
/// | 8 | 20 of 20 (4 generations on average) | 19 of 20 (62 generations) |
/// | 16 | 18 of 20 (645 generations) | 8 of 20, median 1 |
/// | 32 | 1 of 20, median 2 | 9 of 20, median 1 |
/// | 64 | 0 of 20, median 5 | 2 of 20, median 1 |
/// | 128 | 0 of 20, median 13 | 0 of 20, median 4 |
///
/// Min-conflicts with swaps solves 10^6 queens in about a tenth of a second.
/// The genetic search is here to put the strategies side by side on one
/// model, not as a solver of choice; when it fails it says so, with the best
/// individual and its violations.
///
/// # Cost
/// One generation costs O(population · (n + total scope size)) for n
/// variables: every child is evaluated from scratch.
#[derive(Clone, Debug)]
pub struct Genetic<'m> {
    model: &'m Model,
    population: usize,
    generations: u64,
    mutation_rate: Option<f64>,
    crossover_rate: f64,
    tournament: usize,
    elite: usize,
    moves: Move,
    seed: u64,
    time_limit: Option<Duration>,
    cancel: Option<CancelToken>,
}

/// What a [`Genetic`] run found.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GeneticResult {
    /// [`Outcome::Solved`] when the best individual passed
    /// [`Model::check`](crate::Model::check); else the limit that stopped the
    /// run ([`Limit::Steps`] for the generation limit).
    pub outcome: Outcome,
    /// The best individual, one value per variable by index.
    pub assignment: Vec<Value>,
    /// Its total violations (the fitness).
    pub violations: u64,
    /// How many constraints it violates.
    pub violated_constraints: usize,
    /// The best individual as a checked solution, when it is one.
    pub solution: Option<Solution>,
    /// Generations bred.
    pub generations: u64,
    /// Individuals evaluated.
    pub evaluations: u64,
    /// Wall-clock time, check included.
    pub time: Duration,
}

impl fmt::Display for GeneticResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} violations ({} constraints), {} generations, {} evaluations, {:.3} s",
            self.outcome,
            self.violations,
            self.violated_constraints,
            self.generations,
            self.evaluations,
            self.time.as_secs_f64()
        )
    }
}

impl<'m> Genetic<'m> {
    /// A genetic search over `model`: population 100, 1,000 generations,
    /// mutation rate 1/n per variable, crossover rate 0.9, tournaments of 3,
    /// one elite, change encoding, seed 0.
    pub fn new(model: &'m Model) -> Genetic<'m> {
        Genetic {
            model,
            population: 100,
            generations: 1000,
            mutation_rate: None,
            crossover_rate: 0.9,
            tournament: 3,
            elite: 1,
            moves: Move::Change,
            seed: 0,
            time_limit: None,
            cancel: None,
        }
    }

    /// Individuals per generation (at least 2).
    pub fn population(mut self, size: usize) -> Self {
        self.population = size;
        self
    }

    /// Stop after breeding this many generations.
    pub fn generations(mut self, generations: u64) -> Self {
        self.generations = generations;
        self
    }

    /// Probability that mutation touches each variable of a child, in `[0, 1]`
    /// (default `1/n`).
    pub fn mutation_rate(mut self, rate: f64) -> Self {
        self.mutation_rate = Some(rate);
        self
    }

    /// Probability that a child is bred by crossover rather than copied from
    /// its first parent, in `[0, 1]`.
    pub fn crossover_rate(mut self, rate: f64) -> Self {
        self.crossover_rate = rate;
        self
    }

    /// Individuals drawn per tournament (at least 1; 1 is random selection).
    pub fn tournament(mut self, size: usize) -> Self {
        self.tournament = size;
        self
    }

    /// Best individuals copied unchanged into the next generation (fewer than
    /// the population).
    pub fn elite(mut self, count: usize) -> Self {
        self.elite = count;
        self
    }

    /// The encoding: [`Move::Change`] (any assignment) or [`Move::Swap`]
    /// (permutations).
    pub fn moves(mut self, moves: Move) -> Self {
        self.moves = moves;
        self
    }

    /// The seed: the same seed gives the same run on every machine (unless a
    /// time limit or cancel token stops it).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Stop after this much wall-clock time (polled once per generation).
    pub fn time_limit(mut self, time: Duration) -> Self {
        self.time_limit = Some(time);
        self
    }

    /// Stop when `token` is cancelled (polled once per generation).
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    fn validate(&self) -> Result<f64, LocalError> {
        let invalid = |parameter, reason: &str| {
            Err(LocalError::InvalidParameter {
                parameter,
                reason: reason.to_string(),
            })
        };
        if self.population < 2 {
            return invalid("population", "at least 2 individuals are needed");
        }
        if self.tournament == 0 {
            return invalid("tournament", "a tournament needs at least 1 individual");
        }
        if self.elite >= self.population {
            return invalid("elite", "the elite must be smaller than the population");
        }
        if !(0.0..=1.0).contains(&self.crossover_rate) {
            return invalid("crossover rate", "a probability must lie in [0, 1]");
        }
        let n = self.model.num_vars().max(1) as f64;
        let rate = self.mutation_rate.unwrap_or(1.0 / n);
        if !(0.0..=1.0).contains(&rate) {
            return invalid("mutation rate", "a probability must lie in [0, 1]");
        }
        if self.moves == Move::Swap {
            check_permutation(self.model)?;
        }
        Ok(rate)
    }

    /// Runs the search. Fails with [`LocalError::InvalidParameter`] for an
    /// option out of range, [`LocalError::NotPermutation`] for the swap
    /// encoding on a model that is not a permutation, and
    /// [`LocalError::InconsistentViolations`] as
    /// [`MinConflicts::run`](crate::MinConflicts::run) does.
    pub fn run(&self) -> Result<GeneticResult, LocalError> {
        let mutation = self.validate()?;
        let budget = Budget::new(None, self.time_limit, self.cancel.clone());
        let model = self.model;
        let (domains, var_domain) = model.declared();
        let mut b = Breeder {
            ev: Evaluator::new(model),
            tables: domains.iter().map(DomainTable::new).collect(),
            var_domain,
            groups: (self.moves == Move::Swap).then(|| Groups::new(model)),
            rng: Rng::new(self.seed),
            used: Vec::new(),
            evaluations: 0,
        };
        let p = self.population;
        let mut pop: Vec<Vec<Value>> = (0..p).map(|_| b.random()).collect();
        let mut fit: Vec<u64> = pop.iter().map(|x| b.fitness(x)).collect();
        let mut order: Vec<usize> = Vec::with_capacity(p);
        let mut next: Vec<Vec<Value>> = Vec::with_capacity(p);
        let mut next_fit: Vec<u64> = Vec::with_capacity(p);
        let mut generations = 0;
        let stopped = loop {
            let best = (0..p).min_by_key(|&i| fit[i]).unwrap_or(0);
            if fit[best] == 0 {
                break None;
            }
            if generations >= self.generations {
                break Some(Limit::Steps);
            }
            if let Some(l) = budget.poll() {
                break Some(l);
            }
            generations += 1;
            order.clear();
            order.extend(0..p);
            order.sort_by_key(|&i| (fit[i], i));
            next.clear();
            next_fit.clear();
            for &i in &order[..self.elite] {
                next.push(pop[i].clone());
                next_fit.push(fit[i]);
            }
            while next.len() < p {
                let a = b.tournament(&fit, self.tournament);
                let c = b.tournament(&fit, self.tournament);
                let mut child = if b.rng.chance(self.crossover_rate) {
                    b.crossover(&pop[a], &pop[c])
                } else {
                    pop[a].clone()
                };
                b.mutate(&mut child, mutation);
                next_fit.push(b.fitness(&child));
                next.push(child);
            }
            std::mem::swap(&mut pop, &mut next);
            std::mem::swap(&mut fit, &mut next_fit);
        };
        let best = (0..p).min_by_key(|&i| fit[i]).unwrap_or(0);
        let assignment = std::mem::take(&mut pop[best]);
        b.ev.load(&assignment);
        let (outcome, solution) = match stopped {
            Some(l) => (Outcome::LimitReached(l), None),
            None => match checked(model, &assignment)? {
                Some(s) => (Outcome::Solved, Some(s)),
                None => (Outcome::LimitReached(Limit::Steps), None),
            },
        };
        Ok(GeneticResult {
            outcome,
            violations: fit[best],
            violated_constraints: b.ev.violated_constraints(),
            assignment,
            solution,
            generations,
            evaluations: b.evaluations,
            time: budget.start().elapsed(),
        })
    }
}

/// The operators, sharing the evaluator and the generator.
struct Breeder<'m> {
    ev: Evaluator<'m>,
    tables: Vec<DomainTable>,
    var_domain: &'m [u32],
    groups: Option<Groups>,
    rng: Rng,
    used: Vec<bool>,
    evaluations: u64,
}

impl Breeder<'_> {
    fn table(&self, v: usize) -> &DomainTable {
        &self.tables[self.var_domain[v] as usize]
    }

    fn fitness(&mut self, x: &[Value]) -> u64 {
        self.evaluations += 1;
        self.ev.load(x);
        self.ev.total()
    }

    /// A uniformly random individual of the encoding.
    fn random(&mut self) -> Vec<Value> {
        let mut x = vec![0; self.var_domain.len()];
        random_assignment(
            &self.tables,
            self.var_domain,
            self.groups.as_ref(),
            &mut self.rng,
            &mut x,
        );
        x
    }

    /// The fittest of `size` individuals drawn at random (ties: first drawn).
    fn tournament(&mut self, fit: &[u64], size: usize) -> usize {
        let mut best = self.rng.index(fit.len());
        for _ in 1..size {
            let i = self.rng.index(fit.len());
            if fit[i] < fit[best] {
                best = i;
            }
        }
        best
    }

    fn crossover(&mut self, a: &[Value], b: &[Value]) -> Vec<Value> {
        let Some(groups) = &self.groups else {
            // Uniform crossover, 64 coin flips per draw.
            let mut bits = 0u64;
            return a
                .iter()
                .zip(b)
                .enumerate()
                .map(|(i, (&x, &y))| {
                    if i.is_multiple_of(64) {
                        bits = self.rng.next_u64();
                    }
                    if (bits >> (i % 64)) & 1 == 0 {
                        x
                    } else {
                        y
                    }
                })
                .collect();
        };
        // Order crossover per group: a's values on a random segment, then b's
        // remaining values in b's order, both starting after the segment.
        let mut child = a.to_vec();
        for (d, members) in groups.members.iter().enumerate() {
            let m = members.len();
            if m < 2 {
                continue;
            }
            let (mut lo, mut hi) = (self.rng.index(m + 1), self.rng.index(m + 1));
            if lo > hi {
                std::mem::swap(&mut lo, &mut hi);
            }
            let rank = |v: Value| self.tables[d].index_of(v).unwrap_or(0) as usize;
            self.used.clear();
            self.used.resize(m, false);
            for &v in &members[lo..hi] {
                self.used[rank(a[v as usize])] = true;
            }
            let mut from = hi % m;
            for k in 0..m - (hi - lo) {
                let to = members[(hi + k) % m] as usize;
                loop {
                    let val = b[members[from] as usize];
                    from = (from + 1) % m;
                    if !self.used[rank(val)] {
                        self.used[rank(val)] = true;
                        child[to] = val;
                        break;
                    }
                }
            }
        }
        child
    }

    fn mutate(&mut self, x: &mut [Value], rate: f64) {
        for v in 0..x.len() {
            if !self.rng.chance(rate) {
                continue;
            }
            match &self.groups {
                None => {
                    let size = self.table(v).size();
                    let i = self.rng.below(size);
                    x[v] = self.table(v).nth(i);
                }
                Some(g) => {
                    let members = &g.members[self.var_domain[v] as usize];
                    let w = members[self.rng.index(members.len())] as usize;
                    x.swap(v, w);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Domain;

    #[test]
    fn order_crossover_keeps_permutations() {
        let mut m = Model::new();
        let xs = m
            .new_vars(9, Domain::values([1, 4, 9, 16, 25, 36, 49, 64, 81]))
            .unwrap();
        let ys = m.new_vars(3, Domain::range(0, 2)).unwrap();
        m.all_different(&xs).unwrap();
        m.all_different(&ys).unwrap();
        let g = Genetic::new(&m).moves(Move::Swap);
        let (domains, var_domain) = m.declared();
        let mut b = Breeder {
            ev: Evaluator::new(&m),
            tables: domains.iter().map(DomainTable::new).collect(),
            var_domain,
            groups: Some(Groups::new(&m)),
            rng: Rng::new(g.seed),
            used: Vec::new(),
            evaluations: 0,
        };
        for _ in 0..200 {
            let (p, q) = (b.random(), b.random());
            let mut c = b.crossover(&p, &q);
            b.mutate(&mut c, 0.3);
            assert_eq!(b.fitness(&c), 0, "{c:?}");
        }
    }
}
