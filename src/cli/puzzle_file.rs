//! What the subcommands for a file of pencil puzzles share (`csp futoshiki`,
//! `csp kakuro`): solve or count each puzzle, check each solution with the
//! example's independent checker before printing it, and report limits.

use std::process::ExitCode;

use csp_core::hints::{self, End, Next};
use csp_core::{Literal, Model, ModelError, Outcome, Search, SearchOptions, VarId};

use super::puzzles::EngineArgs;
use super::{CliError, Status};

/// Builds the model of a puzzle and the variables of its solution.
pub type ModelFn<'a, P> = &'a dyn Fn(&P) -> Result<(Model, Vec<VarId>), ModelError>;

/// The model of a puzzle for hints: the rules with named cells, and the
/// givens as facts.
pub type HintFn<P> = fn(&P) -> Result<(Model, Vec<Literal>), ModelError>;

/// `--hint` and `--explain`: the step-wise explanation of the generic
/// hints (`csp_core::hints`) instead of a solution.
#[derive(clap::Args, Debug)]
pub struct HintArgs {
    /// Print the next logical step from the givens and its reason, not the
    /// solution.
    #[arg(long, conflicts_with_all = ["count", "explain"])]
    hint: bool,
    /// Print every step from the givens until the grid is solved or search
    /// is needed (each step checked).
    #[arg(long, conflicts_with = "count")]
    explain: bool,
}

impl HintArgs {
    /// Does the caller want hints instead of solutions?
    pub fn wanted(&self) -> bool {
        self.hint || self.explain
    }
}

/// One example's puzzles and what to do with them.
pub struct PuzzleFile<'a, P> {
    /// The input's name for messages (`<stdin>` or the path).
    pub name: &'a str,
    /// The parsed puzzles.
    pub puzzles: &'a [P],
    /// `--count`: print the number of solutions instead of a solution.
    pub count: bool,
    /// The line a puzzle starts on, for messages (`None` for a file of one
    /// puzzle).
    pub line: fn(&P) -> Option<usize>,
    /// The model of a puzzle and the variables of its solution.
    pub model: ModelFn<'a, P>,
    /// The independent checker of a solution.
    pub check: fn(&P, &[i32]) -> Result<(), String>,
    /// A solution as text, ending with a newline.
    pub render: fn(&P, &[i32]) -> String,
}

impl<P> PuzzleFile<'_, P> {
    /// `--hint` / `--explain` on every puzzle in turn, a blank line between
    /// two puzzles' explanations.
    pub fn run_hints(&self, hint_model: HintFn<P>, a: &HintArgs) -> Result<ExitCode, CliError> {
        if self.puzzles.is_empty() {
            return Err(format!("{}: no puzzle found", self.name));
        }
        let options = hints::Options::default();
        for (k, p) in self.puzzles.iter().enumerate() {
            if k > 0 && a.explain {
                outln!();
            }
            let (m, facts) = hint_model(p).map_err(|e| e.to_string())?;
            let name = |x: VarId| m.display_name(x);
            let split = |var: VarId, values: &[i32]| {
                let vs: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                format!(
                    "no step follows from the rules alone: search is needed; the smallest case split is {} ({})",
                    name(var),
                    vs.join("/")
                )
            };
            let failed = |e: hints::HintError| format!("hint: {e:?}");
            if a.hint {
                match hints::next_step(&m, &facts, &options).map_err(failed)? {
                    Next::Step(s) => outln!("{s}"),
                    Next::Solved => outln!("solved: every cell is known"),
                    Next::SearchNeeded { var, values } => outln!("{}", split(var, &values)),
                    Next::Contradiction(_) => {
                        outln!("no solution: the givens contradict the rules")
                    }
                }
                continue;
            }
            let seq = hints::explain(&m, &facts, &options).map_err(failed)?;
            for (i, s) in seq.steps.iter().enumerate() {
                outln!("{}. {s}", i + 1);
            }
            match seq.end {
                End::Solved => outln!("Solved in {} steps", seq.steps.len()),
                End::SearchNeeded { var, values } => outln!("{}", split(var, &values)),
                End::Contradiction => outln!("no solution: the givens contradict the rules"),
                End::StepLimit => {
                    outln!("stopped after {} steps (the step limit)", seq.steps.len())
                }
            }
        }
        Ok(super::Status::Complete.code())
    }

    /// Solves (or counts) every puzzle in turn, a blank line between two
    /// solutions; statistics on stderr with `--stats`.
    pub fn run(&self, options: &SearchOptions, engine: &EngineArgs) -> Result<ExitCode, CliError> {
        if self.puzzles.is_empty() {
            return Err(format!("{}: no puzzle found", self.name));
        }
        let mut status = Status::Complete;
        for (k, p) in self.puzzles.iter().enumerate() {
            if k > 0 && !self.count {
                outln!();
            }
            let (m, cells) = (self.model)(p).map_err(|e| e.to_string())?;
            let mut search = Search::new(&m).options(options.clone());
            let (outcome, stats) = if self.count {
                let r = search.count().map_err(|e| e.to_string())?;
                outln!("{}", r.count);
                (r.outcome, r.stats)
            } else {
                let r = search.solve().map_err(|e| e.to_string())?;
                match &r.solution {
                    Some(s) => {
                        let values: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
                        (self.check)(p, &values).map_err(|e| format!("internal error: {e}"))?;
                        out!("{}", (self.render)(p, &values));
                    }
                    None if r.outcome.is_complete() => outln!("no solution"),
                    None => outln!("unknown"),
                }
                (r.outcome, r.stats)
            };
            if let Outcome::LimitReached(l) = outcome {
                match (self.line)(p) {
                    Some(line) => errln!(
                        "{}: puzzle at line {line}: incomplete: stopped by the {l}",
                        self.name,
                        l = super::Stop(l)
                    ),
                    None => errln!(
                        "warning: incomplete: stopped by the {l}",
                        l = super::Stop(l)
                    ),
                }
                status = status.max(Status::Incomplete);
            }
            if engine.stats {
                errln!("{stats}");
            }
        }
        Ok(status.code())
    }
}
