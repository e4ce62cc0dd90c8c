//! `csp queens N --solver teach-* --format html`: the replay page of a
//! teaching solver, built from the steps the solver itself shows (the
//! nodes of its tree, the masks of the bitboard, the moves of
//! min-conflicts, the generations of the genetic search).

use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use csp_queens::teaching::{bits, genetic, min_conflicts, Run};
use csp_queens::trace::TraceLine;

use super::queens::{deadline, print_stats, Job};
use super::queens_teach::{self, Tally, Teach, GENETIC_GENERATIONS, MIN_CONFLICTS_STEPS};
use super::replay::teach::{LocalRecorder, Tree, TreeRecorder};
use super::replay::{self, About, Kind, Puzzle, Step};
use super::{CliError, Status};

/// The legend of a tree search's page.
const TREE_LEGEND: &str = "A queen placed by the search is dark; dots mark the columns a row may \
     still take (teach-fc strikes the attacked ones, teach-bits shows the next row's free bits, \
     the others strike nothing: a clash is found when a queen is tried). A refused queen is \
     joined to the queen that attacks it by a red line; a row left with no column is ringed red. \
     In the tree: circles are choices, red squares failures, green diamonds solutions. \
     Play yourself: click squares to put or lift queens.";

/// The legend of a local search's page.
const LOCAL_LEGEND: &str = "Every row holds a queen. After a move of min-conflicts, the \
     numbers on the row it moved are the queens that attacked each square before the move (the \
     old square outlined); the chart counts the attacking pairs, the current step marked.";

/// Writes the page of teaching solver `t` on `job.n` queens: to the first
/// solution, or with `all` to the end of the search (tree searches).
pub(super) fn teach_page(job: &Job, t: Teach, all: bool) -> Result<ExitCode, CliError> {
    let start = Instant::now();
    let n = job.n;
    let title = format!(
        "{n}-queens, {}{}",
        t.name(),
        if all { ", every solution" } else { "" }
    );
    let (about, steps, tally) = match t {
        Teach::MinConflicts | Teach::Genetic => local(job, t)?,
        _ => tree(job, t, all)?,
    };
    let about = About { title, ..about };
    replay::write_page(&about, &Puzzle::Queens { n }, &steps)?;
    if let Some(why) = &about.note {
        errln!("warning: incomplete trace: {why}");
    }
    print_stats(
        job,
        t.name(),
        &format!(
            "{} (wall {:.3} s)",
            tally.stats_line(t),
            start.elapsed().as_secs_f64()
        ),
    );
    Ok(Status::stopped_if(about.note.is_some()).code())
}

/// The result line: how many solutions, the first at which step.
fn result(solutions: u128, all: bool, stopped: bool, steps: &[Step]) -> String {
    let first = steps.iter().position(|s| s.kind == Kind::Solution);
    let at = |lead: &str| first.map_or_else(String::new, |k| format!("{lead} step {k}"));
    let cut = if stopped {
        " found before the search was stopped"
    } else {
        ""
    };
    match solutions {
        0 if !stopped => "no solution: every branch fails".to_string(),
        0 => "no solution found before the search was stopped".to_string(),
        1 if !all => format!("a solution{cut}{}", at(", at")),
        1 => format!("1 solution{cut}{}", at(", at")),
        k => format!("{k} solutions{cut}{}", at(", the first at")),
    }
}

/// Why a page is incomplete: the node limit of the page, the time limit,
/// or steps met after the page was full.
fn incomplete(run: &Run, cap: usize, dropped: u64) -> Option<String> {
    match () {
        _ if run.hit_node_limit() => Some(format!(
            "the page records at most {cap} steps: the search was stopped there, before it finished"
        )),
        _ if run.timed_out() => Some("the search was stopped by the time limit".to_string()),
        _ if dropped > 0 => Some(format!(
            "the page shows the first {cap} of {} steps",
            cap as u64 + dropped
        )),
        _ => None,
    }
}

/// A tree search: every node it shows, up to the page's cap.
fn tree(job: &Job, t: Teach, all: bool) -> Result<(About, Vec<Step>, Tally), CliError> {
    let kind = match t {
        Teach::Fc => Tree::Forward,
        Teach::Bits => Tree::Bits,
        Teach::Nn | Teach::Perm => Tree::Complete,
        _ => Tree::Rows,
    };
    let mut rec = TreeRecorder::new(job.n, kind);
    let cap = rec.kept().cap();
    let on_solution = |_: &[u32]| {
        if all {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    let mut run = Run::new(deadline(job), on_solution).with_node_limit(cap as u64);
    match t {
        Teach::Bits => {
            let mut watch = |s: bits::Step| rec.bits(s);
            bits::solve_watched(job.n, &mut run, Some(&mut watch));
        }
        Teach::Fc => {
            let mut show = |l: &TraceLine, open: &[Vec<u32>]| rec.line(l, Some(open));
            queens_teach::run_in(t, job.n, job.seed, &mut run, None, Some(&mut show));
        }
        _ => {
            let mut show = |l: &TraceLine| rec.line(l, None);
            queens_teach::run_in(t, job.n, job.seed, &mut run, Some(&mut show), None);
        }
    }
    let note = incomplete(&run, cap, rec.kept().dropped());
    let about = About {
        result: result(run.solutions(), all, note.is_some(), rec.kept().steps()),
        note,
        legend: Some(TREE_LEGEND.to_string()),
        ..About::default()
    };
    Ok((about, rec.kept().steps().to_vec(), Tally::of(&run)))
}

/// A local search: every start and move of min-conflicts, or every
/// generation of the genetic search, with its chart.
fn local(job: &Job, t: Teach) -> Result<(About, Vec<Step>, Tally), CliError> {
    let n = job.n;
    let mut rec = LocalRecorder::new(n);
    let cap = rec.kept().cap();
    let mut found = false;
    let mut chart: Vec<(String, Vec<f64>)> = Vec::new();
    let mut run = Run::new(deadline(job), |_: &[u32]| {
        found = true;
        ControlFlow::Break(())
    });
    if t == Teach::MinConflicts {
        run = run.with_node_limit(cap as u64);
        let mut cols: Vec<u32> = Vec::new();
        let mut moves = 0u64;
        let mut pairs = Vec::new();
        let mut watch = |s: min_conflicts::Step| match s {
            min_conflicts::Step::Start { cols: c, pairs: k } => {
                cols = c.to_vec();
                pairs.push(k as f64);
                rec.step(&cols, None, k, queens_teach::start_line(c, k));
            }
            min_conflicts::Step::Move {
                row,
                from,
                to,
                attackers,
                pairs: k,
            } => {
                moves += 1;
                cols[row] = to;
                pairs.push(k as f64);
                let text = queens_teach::move_line(moves, row, from, to, attackers, k);
                rec.step(&cols, Some((row, from, attackers)), k, text);
            }
        };
        min_conflicts::solve_watched(n, job.seed, MIN_CONFLICTS_STEPS, &mut run, Some(&mut watch));
        chart.push(("attacking pairs".to_string(), pairs));
    } else {
        // At most GENETIC_GENERATIONS (2,000) steps: within every page's cap.
        let (mut best, mut mean) = (Vec::new(), Vec::new());
        let mut watch = |g: genetic::Generation| {
            best.push(g.best_pairs as f64);
            mean.push(g.mean_pairs);
            rec.step(
                g.best,
                None,
                g.best_pairs,
                queens_teach::generation_line(&g),
            );
        };
        genetic::solve_watched(n, job.seed, GENETIC_GENERATIONS, &mut run, Some(&mut watch));
        chart.push(("best".to_string(), best));
        chart.push(("mean".to_string(), mean));
    }
    let tally = Tally::of(&run);
    let limit = incomplete(&run, cap, rec.kept().dropped());
    drop(run);
    let result = match (found, &limit) {
        (true, _) => result(1, false, limit.is_some(), rec.kept().steps()),
        (false, Some(_)) => "no solution found before the search was stopped".to_string(),
        (false, None) => "no solution found".to_string(),
    };
    // A local search that gives up is stopped by its step limit: it has
    // not shown that there is no solution (exit status 1, as --trace).
    let note = limit.or_else(|| tally.no_solution_note(t, found));
    let about = About {
        result,
        note,
        legend: Some(LOCAL_LEGEND.to_string()),
        chart,
        ..About::default()
    };
    Ok((about, rec.kept().steps().to_vec(), tally))
}
