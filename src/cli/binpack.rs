//! `csp binpack FILE`: one-dimensional bin packing, minimising the bins
//! used; `csp strippack FILE`: rectangles into a strip, minimising the
//! height (`examples/binpack`, `docs/packing.md`).

use std::process::ExitCode;

use csp_core::{Outcome, Search};

use super::puzzles::{read_input, EngineArgs};
use super::{CliError, Status};

/// Arguments of `csp binpack`.
#[derive(clap::Args, Debug)]
pub struct BinpackArgs {
    /// Instance in BPPLIB's format (the number of items, the capacity,
    /// then one size per line, as Scholl's and Falkenauer's sets); stdin
    /// if absent or `-`.
    file: Option<String>,
    /// Do not break the symmetry of identical bins (the k-th largest item
    /// in a bin numbered at most k).
    #[arg(long = "no-symmetry")]
    no_symmetry: bool,
    /// Print each better number of bins as it is found.
    #[arg(long)]
    progress: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp binpack`.
pub fn run(a: BinpackArgs) -> Result<ExitCode, CliError> {
    let (text, name) = read_input(a.file.as_deref())?;
    let inst = csp_binpack::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    let bp = csp_binpack::model(
        &inst,
        csp_binpack::Options {
            symmetry: !a.no_symmetry,
            learning: a.engine.learning(),
        },
    )
    .map_err(|e| e.to_string())?;
    outln!(
        "{} items, capacity {}: lower bound (L2) {}, first fit decreasing {}",
        inst.sizes.len(),
        inst.capacity,
        bp.lower,
        bp.upper
    );
    let options = a.engine.apply(bp.options())?;
    let progress = a.progress;
    let spinner = super::Progress::unless(progress, &format!("bin packing of {name}"));
    let r = Search::new(&bp.model)
        .options(options)
        .minimize_each(bp.used, |_, v| {
            if progress {
                errln!("found {v} bins");
            }
            spinner.say(format!("bin packing of {name}: {v} bins found"));
            std::ops::ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
    drop(spinner);
    if let (None, Outcome::LimitReached(l)) = (&r.best, r.outcome) {
        // Stopped before the first dive ended: first fit decreasing is
        // still a packing (the model's upper bound).
        let bins: Vec<i32> = csp_binpack::first_fit_decreasing(&inst)
            .iter()
            .map(|&b| b as i32)
            .collect();
        let used = csp_binpack::check(&inst, &bins).map_err(|e| format!("internal error: {e}"))?;
        out!("{}", csp_binpack::render(&inst, &bins));
        outln!(
            "bins: {used} (first fit decreasing, not proven optimal: stopped by the {})",
            super::Stop(l)
        );
        errln!(
            "warning: incomplete: the {} stopped the search before its first packing",
            super::Stop(l)
        );
        if a.engine.stats {
            errln!("{}", r.stats);
        }
        return Ok(Status::Incomplete.code());
    }
    super::finish_optimum(&r, "packing", a.engine.stats, |best, proof| {
        let bins = bp.assignment(best);
        let used = csp_binpack::check(&inst, &bins).map_err(|e| format!("internal error: {e}"))?;
        out!("{}", csp_binpack::render(&inst, &bins));
        outln!("bins: {used} ({proof})");
        Ok(())
    })
}

/// Arguments of `csp strippack`.
#[derive(clap::Args, Debug)]
pub struct StrippackArgs {
    /// Instance in Hopper and Turton's format (the number of rectangles,
    /// the strip's width, then `width height` per line); stdin if absent
    /// or `-`.
    file: Option<String>,
    /// Post only `diffn`, without the redundant `cumulative` on each axis.
    #[arg(long = "no-cumulative")]
    no_cumulative: bool,
    /// Print each height tried and what its search found.
    #[arg(long)]
    progress: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp strippack`.
pub fn run_strip(a: StrippackArgs) -> Result<ExitCode, CliError> {
    use csp_binpack::strip;
    let (text, name) = read_input(a.file.as_deref())?;
    let s = strip::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    // The engine options, checked once; applied to each height's search.
    a.engine.apply(csp_core::SearchOptions::default())?;
    let shelf =
        strip::check(&s, &strip::shelves(&s)).map_err(|e| format!("internal error: {e}"))?;
    outln!(
        "{} rectangles, width {}: lower bound {}, shelves {shelf}",
        s.rects.len(),
        s.width,
        strip::lower_bound(&s)
    );
    let options = strip::Options {
        cumulative: !a.no_cumulative,
        learning: a.engine.learning(),
    };
    let (progress, stats) = (a.progress, a.engine.stats);
    let spinner = super::Progress::unless(progress, &format!("strip packing of {name}"));
    let engine = &a.engine;
    let tune = |o: &mut csp_core::SearchOptions| {
        if let Ok(t) = engine.apply(o.clone()) {
            *o = t;
        }
    };
    let r = strip::solve_with(&s, options, a.engine.node_limit(), tune, |t| {
        let what = match t.outcome {
            Outcome::Solved => "a packing".to_string(),
            Outcome::Unsatisfiable => "no packing".to_string(),
            o => format!("unknown ({o})"),
        };
        if progress {
            errln!("height {}: {what}", t.height);
        }
        if stats {
            errln!("height {}: {}", t.height, t.stats);
        }
        spinner.say(format!(
            "strip packing of {name}: height {} tried",
            t.height
        ));
    });
    drop(spinner);
    if stats {
        errln!("nodes over all heights: {}", r.nodes());
    }
    let Some((_, at)) = &r.best else {
        return Err("internal error: no packing, not even the shelves".into());
    };
    let height = strip::check(&s, at).map_err(|e| format!("internal error: {e}"))?;
    out!("{}", strip::render(&s, at, height));
    if r.proven {
        outln!("height: {height} (optimal, proven)");
        return Ok(Status::Complete.code());
    }
    let stop = match r.attempts.last().map(|t| t.outcome) {
        Some(Outcome::LimitReached(l)) => super::Stop(l).to_string(),
        Some(o) => format!("search ending with {o}"),
        None => "node limit".to_string(),
    };
    outln!(
        "height: {height} (best found, not proven optimal: stopped by the {stop}; \
         no packing is lower than {})",
        r.bound
    );
    errln!(
        "warning: incomplete: the {stop} stopped the search at height {}",
        r.bound
    );
    Ok(Status::Incomplete.code())
}
