//! The models, and solving through the generic engine.
//!
//! ```
//! use csp_cryptarithm::{model, render, Puzzle};
//!
//! let puzzle: Puzzle = "SEND+MORE=MONEY".parse().unwrap();
//! let all = model::solve_all(&puzzle, &model::Options::default()).unwrap();
//! assert_eq!(all.solutions.len(), 1);
//! assert_eq!(render::equation(&puzzle, &all.solutions[0]), "9567+1085=10652");
//! ```

use std::collections::BTreeMap;

use csp_core::{
    Domain, Inference, Model, ModelError, Outcome, Relation, Search, SearchOptions, Solution,
    Statistics, ValOrder, Value, VarId, VarOrder,
};

use crate::Puzzle;

/// How the arithmetic is stated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Formulation {
    /// One linear equation: each letter weighted by its place values,
    /// `Σ addends − result = 0`. Long words overflow it: posting fails with `ModelError::Overflow` when the
    /// extreme sums (coefficients up to `10^(len−1)` times 9) do not fit
    /// comfortably in 64 bits; use [`Formulation::Columns`] then.
    Linear,
    /// Column by column with carry variables, as on paper: for each column `i`
    /// from the right, `carry_i + Σ addend digits = result digit + 10·carry_{i+1}`.
    /// Any word length. Prunes column by column, which is not always fewer
    /// nodes than the linear form (SEND+MORE=MONEY: 10 nodes here, 4 linear)
    /// but never overflows. The default.
    #[default]
    Columns,
}

/// Options for the model and the search.
#[derive(Debug, Clone)]
pub struct Options {
    /// How the arithmetic is stated.
    pub formulation: Formulation,
    /// Allow a word of two or more letters to start with 0 (off by default).
    pub leading_zeros: bool,
    /// The engine's search options.
    pub search: SearchOptions,
}

impl Default for Options {
    /// Columns, no leading zeros, arc consistency, smallest domain first.
    fn default() -> Options {
        Options {
            formulation: Formulation::Columns,
            leading_zeros: false,
            search: SearchOptions {
                inference: Inference::Mac,
                var_order: VarOrder::Mrv,
                val_order: ValOrder::Ascending,
                limits: Default::default(),
                learning: false, // measured with the ordinary engine
                ..Default::default()
            },
        }
    }
}

/// A built model: the engine's model and the variable of each letter, in the
/// order of [`Puzzle::letters`].
#[derive(Debug)]
pub struct CryptarithmModel {
    /// The model.
    pub model: Model,
    /// `letters[i]` is the digit of `puzzle.letters()[i]`.
    pub letters: Vec<VarId>,
    /// The carry variables of the columns formulation (empty for the linear one),
    /// `carries[i]` out of column `i` counted from the right.
    pub carries: Vec<VarId>,
}

impl CryptarithmModel {
    /// The digits of a solution, in the order of [`Puzzle::letters`].
    pub fn digits(&self, solution: &Solution) -> Vec<u8> {
        self.letters
            .iter()
            .map(|&x| u8::try_from(solution[x]).expect("digits are 0..=9"))
            .collect()
    }
}

/// Builds the model of `puzzle`.
///
/// One variable per letter (named by the letter) with domain `0..=9`, or `1..=9`
/// for a letter that starts a word of two or more letters (unless leading zeros
/// are allowed); one all-different over the letters; and the arithmetic in the
/// chosen [`Formulation`].
///
/// # Errors
/// [`ModelError::Overflow`] for the linear formulation when a word is too long
/// for 64-bit place values (use [`Formulation::Columns`]).
pub fn model(puzzle: &Puzzle, options: &Options) -> Result<CryptarithmModel, ModelError> {
    let mut m = Model::new();
    let leading = puzzle.leading_letters();
    let letters: Vec<VarId> = puzzle
        .letters()
        .iter()
        .map(|&l| {
            let lowest = if !options.leading_zeros && leading.contains(&l) {
                1
            } else {
                0
            };
            m.new_var_named(&l.to_string(), Domain::range(lowest, 9))
        })
        .collect::<Result<_, _>>()?;
    let var = |c: char| letters[puzzle.letter_index(c).expect("letter of the puzzle")];
    // Each letter stands for a different digit.
    m.all_different(&letters)?;
    let mut carries = Vec::new();
    match options.formulation {
        Formulation::Linear => {
            // Σ place value · letter over the addends, minus the same over the result.
            let mut coefficient: BTreeMap<VarId, i128> = BTreeMap::new();
            let mut add_word = |word: &str, sign: i128| {
                let mut place: i128 = 1;
                for c in word.chars().rev() {
                    *coefficient.entry(var(c)).or_insert(0) += sign * place;
                    place = place.saturating_mul(10);
                }
            };
            for word in puzzle.addends() {
                add_word(word, 1);
            }
            add_word(puzzle.result(), -1);
            let overflow = ModelError::Overflow {
                constraint: "linear",
            };
            let terms: Vec<(i64, VarId)> = coefficient
                .into_iter()
                .filter(|&(_, a)| a != 0)
                .map(|(x, a)| i64::try_from(a).map(|a| (a, x)))
                .collect::<Result<_, _>>()
                .map_err(|_| overflow.clone())?;
            m.linear(&terms, Relation::Eq, 0)?;
        }
        Formulation::Columns => {
            let addends = puzzle.addends();
            let width = puzzle.words().map(str::len).max().unwrap_or(0);
            // A column sums at most 9 per addend plus the carry in, so the carry
            // out is at most addends − 1.
            let max_carry = addends.len() as Value - 1;
            let carry_domain = Domain::range(0, max_carry);
            for i in 0..width {
                let name = format!("carry{}", i + 1);
                let domain = if i + 1 == width {
                    Domain::singleton(0) // nothing is carried out of the last column
                } else {
                    carry_domain.clone()
                };
                carries.push(m.new_var_named(&name, domain)?);
            }
            let digit = |word: &str, i: usize| word.chars().rev().nth(i).map(var);
            for i in 0..width {
                // carry in + Σ addend digits − result digit − 10 · carry out = 0
                let mut coefficient: BTreeMap<VarId, i64> = BTreeMap::new();
                if i > 0 {
                    *coefficient.entry(carries[i - 1]).or_insert(0) += 1;
                }
                for word in addends {
                    if let Some(x) = digit(word, i) {
                        *coefficient.entry(x).or_insert(0) += 1;
                    }
                }
                if let Some(x) = digit(puzzle.result(), i) {
                    *coefficient.entry(x).or_insert(0) -= 1;
                }
                *coefficient.entry(carries[i]).or_insert(0) -= 10;
                let terms: Vec<(i64, VarId)> = coefficient
                    .into_iter()
                    .filter(|&(_, a)| a != 0)
                    .map(|(x, a)| (a, x))
                    .collect();
                m.linear(&terms, Relation::Eq, 0)?;
            }
        }
    }
    Ok(CryptarithmModel {
        model: m,
        letters,
        carries,
    })
}

/// The result of [`solve`].
#[derive(Debug, Clone)]
pub struct Solved {
    /// `Solved`, `Unsatisfiable` or `LimitReached`.
    pub outcome: Outcome,
    /// The digits of the first solution, in the order of [`Puzzle::letters`].
    pub digits: Option<Vec<u8>>,
    /// The engine's counters.
    pub stats: Statistics,
}

/// The first solution of `puzzle`.
///
/// # Errors
/// See [`model`].
pub fn solve(puzzle: &Puzzle, options: &Options) -> Result<Solved, ModelError> {
    let cm = model(puzzle, options)?;
    let r = Search::new(&cm.model)
        .options(options.search.for_another_model())
        .solve()
        .expect("no decision variables: nothing to reject");
    Ok(Solved {
        outcome: r.outcome,
        digits: r.solution.map(|s| cm.digits(&s)),
        stats: r.stats,
    })
}

/// The result of [`solve_all`].
#[derive(Debug, Clone)]
pub struct AllSolutions {
    /// `Solved` (all found, at least one), `Unsatisfiable` (none exist) or
    /// `LimitReached` (the list may be incomplete).
    pub outcome: Outcome,
    /// Every solution's digits, in search order.
    pub solutions: Vec<Vec<u8>>,
    /// The engine's counters.
    pub stats: Statistics,
}

/// Every solution of `puzzle` (within the search limits).
///
/// # Errors
/// See [`model`].
pub fn solve_all(puzzle: &Puzzle, options: &Options) -> Result<AllSolutions, ModelError> {
    let cm = model(puzzle, options)?;
    let mut solutions = Vec::new();
    let report = Search::new(&cm.model)
        .options(options.search.for_another_model())
        .for_each_solution(|s| {
            solutions.push(cm.digits(s));
            std::ops::ControlFlow::Continue(())
        })
        .expect("no decision variables: nothing to reject");
    Ok(AllSolutions {
        outcome: report.outcome,
        solutions,
        stats: report.stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_linear_formulation_refuses_huge_place_values() {
        let long = "A".repeat(25);
        let p: Puzzle = format!("{long}+B=C{long}").parse().unwrap();
        let linear = Options {
            formulation: Formulation::Linear,
            ..Options::default()
        };
        assert!(matches!(
            model(&p, &linear),
            Err(ModelError::Overflow { .. })
        ));
        // The columns formulation has no such limit.
        assert!(model(&p, &Options::default()).is_ok());
    }

    #[test]
    fn models_have_the_documented_shape() {
        let p: Puzzle = "SEND+MORE=MONEY".parse().unwrap();
        let cm = model(&p, &Options::default()).unwrap();
        assert_eq!(cm.letters.len(), 8);
        assert_eq!(cm.carries.len(), 5);
        // all-different + one equation per column
        assert_eq!(cm.model.num_constraints(), 1 + 5);
        assert_eq!(cm.model.domain(cm.letters[0]).min(), Some(1)); // S
        assert_eq!(cm.model.domain(cm.letters[1]).min(), Some(0)); // E
        let linear = Options {
            formulation: Formulation::Linear,
            ..Options::default()
        };
        let cm = model(&p, &linear).unwrap();
        assert_eq!(cm.model.num_constraints(), 2);
    }
}

/// The result of [`optimize`].
#[derive(Debug, Clone)]
pub struct Optimized {
    /// `Solved`: the best solution is optimal (proven); `LimitReached`: the
    /// best found; `Unsatisfiable`: no solution.
    pub outcome: Outcome,
    /// The digits of the best solution found.
    pub digits: Option<Vec<u8>>,
    /// The value of the word in it.
    pub value: Option<i64>,
    /// The engine's counters.
    pub stats: Statistics,
}

/// The solution of `puzzle` in which `word` (read as a number) is largest
/// (`maximize`) or smallest, by branch and bound: SEND+MOST=MONEY has 100
/// solutions, and MONEY is at most 10876.
///
/// ```
/// use csp_cryptarithm::{model, Puzzle};
/// let puzzle: Puzzle = "SEND+MOST=MONEY".parse().unwrap();
/// let r = model::optimize(&puzzle, &model::Options::default(), "MONEY", true).unwrap();
/// assert_eq!(r.value, Some(10876));
/// assert_eq!(r.outcome, csp_core::Outcome::Solved); // proven
/// ```
///
/// # Errors
/// [`ModelError::Invalid`] when `word` has a letter the puzzle does not, or
/// is empty; [`ModelError::Overflow`] when its value does not fit an `i32`
/// (more than 9 letters).
pub fn optimize(
    puzzle: &Puzzle,
    options: &Options,
    word: &str,
    maximize: bool,
) -> Result<Optimized, ModelError> {
    let mut cm = model(puzzle, options)?;
    let invalid = |reason: String| ModelError::Invalid {
        constraint: "cryptarithm objective",
        reason,
    };
    if word.is_empty() {
        return Err(invalid("the word to optimise is empty".into()));
    }
    if word.chars().count() > 9 {
        return Err(ModelError::Overflow {
            constraint: "cryptarithm objective (a word of more than 9 letters)",
        });
    }
    let mut value = csp_core::Expr::from(0);
    for c in word.chars() {
        let c = c.to_ascii_uppercase();
        let i = puzzle
            .letter_index(c)
            .ok_or_else(|| invalid(format!("'{c}' of {word} is not a letter of the puzzle")))?;
        value = value * 10 + cm.letters[i];
    }
    let objective = cm.model.define(value)?;
    let mut search = Search::new(&cm.model).options(options.search.clone());
    let r = if maximize {
        search.maximize(objective)
    } else {
        search.minimize(objective)
    }
    // The objective is the model's own: not expected.
    .map_err(|e| invalid(e.to_string()))?;
    Ok(Optimized {
        outcome: r.outcome,
        digits: r.best.as_ref().map(|s| cm.digits(s)),
        value: r.objective.map(i64::from),
        stats: r.stats,
    })
}
