//! `csp rcpsp FILE`: resource-constrained project scheduling, minimising
//! the makespan (`examples/rcpsp`, `docs/rcpsp.md`).

use std::process::ExitCode;

use csp_core::Search;
use csp_rcpsp::Strength;

use super::puzzles::{read_input, EngineArgs};
use super::CliError;

/// Arguments of `csp rcpsp`.
#[derive(clap::Args, Debug)]
pub struct RcpspArgs {
    /// Instance in PSPLIB's single-mode format (`.sm`, as j30–j120);
    /// stdin if absent or `-`.
    file: Option<String>,
    /// How the resources propagate: timetable (compulsory parts),
    /// energetic (time-tabling and the energetic overload check),
    /// energetic-reasoning (time-tabling and energetic pushes) or ttef
    /// (time-tabling and time-table edge finding).
    #[arg(long, default_value = "timetable")]
    strength: String,
    /// Plain branch and bound (dom/wdeg on the start times) instead of
    /// the learning search (lazy clause generation, by activity: the
    /// default here).
    #[arg(long = "no-learning", conflicts_with = "learning")]
    no_learning: bool,
    /// Print each better makespan as it is found.
    #[arg(long)]
    progress: bool,
    /// Print the instance as MiniZinc data (for `rcpsp.mzn`) and stop.
    #[arg(long)]
    dzn: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp rcpsp`.
pub fn run(a: RcpspArgs) -> Result<ExitCode, CliError> {
    let strength = match a.strength.as_str() {
        "timetable" => Strength::TimeTable,
        "energetic" => Strength::Energetic,
        "energetic-reasoning" => Strength::EnergeticReasoning,
        "ttef" => Strength::TimeTableEdgeFinding,
        s => {
            return Err(format!(
                "--strength expects timetable, energetic, energetic-reasoning or ttef, got '{s}'"
            ))
        }
    };
    let (text, name) = read_input(a.file.as_deref())?;
    let project = csp_rcpsp::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    if a.dzn {
        out!("{}", project.to_dzn());
        return Ok(ExitCode::SUCCESS);
    }
    let rc = csp_rcpsp::model(&project, strength).map_err(|e| e.to_string())?;
    let mut options = a.engine.apply(rc.options())?;
    // Learning (by activity) unless `--no-learning`.
    options.learning = !a.no_learning;
    let progress = a.progress;
    let spinner = super::Progress::unless(progress, &format!("project {name}"));
    let r = Search::new(&rc.model)
        .options(options)
        .minimize_each(rc.makespan, |_, v| {
            if progress {
                errln!("found makespan {v}");
            }
            spinner.say(format!("project {name}: makespan {v} found"));
            std::ops::ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
    drop(spinner);
    super::finish_optimum(&r, "schedule", a.engine.stats, |best, proof| {
        let starts: Vec<i32> = rc.starts.iter().map(|&s| best[s]).collect();
        let makespan =
            csp_rcpsp::check(&project, &starts).map_err(|e| format!("internal error: {e}"))?;
        out!("{}", csp_rcpsp::render(&project, &starts));
        outln!("makespan: {makespan} ({proof})");
        Ok(())
    })
}
