//! What the subcommands for a file of pencil puzzles share (`csp futoshiki`,
//! `csp kakuro`): solve or count each puzzle, check each solution with the
//! example's independent checker before printing it, and report limits.

use std::process::ExitCode;

use csp_core::{Model, ModelError, Outcome, Search, SearchOptions, VarId};

use super::puzzles::EngineArgs;
use super::{CliError, Status};

/// Builds the model of a puzzle and the variables of its solution.
pub type ModelFn<'a, P> = &'a dyn Fn(&P) -> Result<(Model, Vec<VarId>), ModelError>;

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
            let search = Search::new(&m).options(options.clone());
            let (outcome, stats) = if self.count {
                let r = search.count();
                outln!("{}", r.count);
                (r.outcome, r.stats)
            } else {
                let r = search.solve();
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
