//! `csp queens --solver min-conflicts|genetic`: the local searches of
//! `csp-core` run on the same all-different model as the backtracking solver.

use std::time::Duration;

use csp_core::local::{Genetic, Init, MinConflicts, Move};
use csp_queens::model::{queens_model, ModelKind};

use super::CliError;

/// What a local search run reports to the command: the columns (if found),
/// a note when it stopped without a solution, and a statistics line.
pub type LocalOutcome = (Option<Vec<u32>>, Option<String>, String);

/// Finds one solution of `n` queens by local search. Returns the columns (if
/// found), a note when it stopped without one, and a statistics line.
pub fn solve(
    n: usize,
    genetic: bool,
    seed: u64,
    time_limit: Option<Duration>,
) -> Result<LocalOutcome, CliError> {
    if n == 2 || n == 3 {
        // No placement exists; a local search would only run into its limit.
        return Ok((None, None, "n = 2 and 3 have no solution".into()));
    }
    let q = queens_model(n, ModelKind::AllDifferent).map_err(|e| e.to_string())?;
    let limit = time_limit.unwrap_or(Duration::from_secs(60));
    if genetic {
        let r = Genetic::new(&q.model)
            .seed(seed)
            .time_limit(limit)
            .run()
            .map_err(|e| e.to_string())?;
        let cols = r.solution.as_ref().map(|s| q.columns(s));
        let note = cols
            .is_none()
            .then(|| format!("best individual has {} violations", r.violations));
        return Ok((cols, note, r.to_string()));
    }
    let r = MinConflicts::new(&q.model)
        .seed(seed)
        .moves(Move::Swap)
        .init(Init::Greedy)
        .time_limit(limit)
        .run()
        .map_err(|e| e.to_string())?;
    let cols = r.solution.as_ref().map(|s| q.columns(s));
    let note = cols.is_none().then(|| {
        format!(
            "{}; best assignment has {} violations",
            r.outcome, r.violations
        )
    });
    Ok((cols, note, r.to_string()))
}
