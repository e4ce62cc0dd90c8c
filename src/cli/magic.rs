//! `csp magic N`: magic squares, the worked example of modelling with
//! expressions (`examples/magic`, `docs/magic.md`).

use std::process::ExitCode;

use csp_core::{Outcome, Search};

use super::puzzles::EngineArgs;
use super::{CliError, Status};

/// Arguments of `csp magic`.
#[derive(clap::Args, Debug)]
pub struct MagicArgs {
    /// The order N: an N×N square holding 1..=N² with equal line sums.
    n: String,
    /// Count the magic squares (all of them, rotations and reflections
    /// included) instead of printing one.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp magic`.
pub fn run(a: MagicArgs) -> Result<ExitCode, CliError> {
    let n: usize =
        a.n.parse()
            .ok()
            .filter(|&n| (1..=csp_magic::MAX_ORDER).contains(&n))
            .ok_or_else(|| {
                format!(
                    "N must be an integer from 1 to {}, got '{}'",
                    csp_magic::MAX_ORDER,
                    a.n
                )
            })?;
    let options = a.engine.apply(csp_magic::options())?;
    let (m, cells) = csp_magic::model(n).map_err(|e| e.to_string())?;
    let mut search = Search::new(&m).options(options);
    let spinner = super::Progress::start(&format!("magic square of order {n}"));
    let (status, stats) = if a.count {
        let r = search.count().map_err(|e| e.to_string())?;
        drop(spinner);
        outln!("{}", r.count);
        if let Outcome::LimitReached(l) = r.outcome {
            errln!(
                "warning: incomplete count: stopped by the {l}",
                l = super::Stop(l)
            );
        }
        (Status::stopped_if(!r.outcome.is_complete()), r.stats)
    } else {
        let r = search.solve().map_err(|e| e.to_string())?;
        drop(spinner);
        match (&r.solution, r.outcome) {
            (Some(s), _) => {
                let square: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
                csp_magic::check(n, &square).map_err(|e| format!("internal error: {e}"))?;
                out!("{}", csp_magic::render(n, &square));
            }
            (None, Outcome::LimitReached(l)) => {
                outln!("unknown");
                errln!(
                    "warning: incomplete: stopped by the {l}",
                    l = super::Stop(l)
                );
            }
            (None, _) => outln!("no solution"),
        }
        (Status::stopped_if(!r.outcome.is_complete()), r.stats)
    };
    if a.engine.stats {
        errln!("{stats}");
    }
    Ok(status.code())
}
