//! `csp queens --trace` and `--format html`: the engine's search tree,
//! printed node by node (text, Graphviz or JSON) or as a page that
//! replays it on the board.

use std::io::Write;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use csp_core::Search;
use csp_queens::model::queens_model;
use csp_queens::permutation;
use csp_queens::trace::{DomainTracer, TraceLine, Tracer};

use super::queens::{budget, deadline, engine_stats, limit_note, print_stats, Job, Solver};
use super::queens_teach::{self, Teach};
use super::{CliError, Status};

/// The format of `--trace --format dot|json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TreeFormat {
    Dot,
    Json,
    /// `--format svg`: the chart of a local teaching search.
    Chart,
}

/// `--trace`: the search tree, one node per line (with `domains`, the
/// domains of the open rows at each node); every solution's node when `all`,
/// then the number of solutions when `count`; statistics with `--stats`.
pub(super) fn trace(
    job: &Job,
    all: bool,
    count: bool,
    domains: bool,
    tree: Option<TreeFormat>,
) -> Result<ExitCode, CliError> {
    let n = job.n;
    let local = matches!(
        job.solver,
        Solver::Teach(Teach::MinConflicts | Teach::Genetic)
    );
    if tree == Some(TreeFormat::Chart) && !local {
        return Err(format!(
            "--trace --format svg charts the local searches (teach-min-conflicts, teach-genetic); '{}' draws its tree with --format dot",
            job.solver.name()
        ));
    }
    if domains && tree.is_some() {
        return Err("--domains prints text; --format dot|json draws the tree without them".into());
    }
    let engine = matches!(job.solver, Solver::Backtracking | Solver::Pairwise);
    if engine && job.options.val_order.splits() {
        return Err(
            "--trace draws one queen per node; --val-order split, reverse-split, binary-min and binary-max decide half domains"
                .into(),
        );
    }
    if domains && !engine && job.solver != Solver::Teach(Teach::Fc) {
        return Err(format!(
            "--domains shows the domains of the generic engine (backtracking, pairwise) or of teach-fc, not '{}'",
            job.solver.name()
        ));
    }
    if !job.solver.can_trace() {
        return Err(format!(
            "--trace needs a solver that shows its steps (backtracking, pairwise, permutation or a teach-* solver), not '{}'",
            job.solver.name()
        ));
    }
    if domains && n > DomainTracer::<fn(&str)>::MAX_N {
        return Err(format!(
            "--trace --domains follows boards up to n = {}, got n = {n}",
            DomainTracer::<fn(&str)>::MAX_N
        ));
    }
    let t = Instant::now();
    let mut out = super::output::stdout();
    let mut write_err = None;
    // The nodes, kept for --format dot|json (printed once the tree is done).
    let mut kept: Vec<TraceLine> = Vec::new();
    let mut emit_text = |text: &str| {
        if write_err.is_none() {
            if let Err(e) = writeln!(out, "{text}") {
                write_err = Some(e);
            }
        }
    };
    // A node: kept for the tree formats, else printed (as `text` when
    // given, the line with its domains, else the plain line).
    let mut emit_node = |l: Option<&TraceLine>, text: Option<&str>| match (tree, l) {
        (Some(_), Some(l)) => kept.push(l.clone()),
        (Some(_), None) => {}
        (None, _) => match (text, l) {
            (Some(t), _) => emit_text(t),
            (None, Some(l)) => emit_text(&l.render()),
            (None, None) => {}
        },
    };
    let mut solutions = 0u128;
    // The chart of a local search (--format svg).
    let mut chart: Option<String> = None;
    let mut on_solution = |_: &[u32]| {
        solutions += 1;
        if all {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    let (note, stat_line) = match job.solver {
        Solver::Backtracking | Solver::Pairwise => {
            let q = queens_model(n, job.solver.kind()).map_err(|e| e.to_string())?;
            let search = |obs: &mut dyn csp_core::SearchObserver| {
                let mut s = Search::new(&q.model)
                    .options(job.options.clone())
                    .observer(obs);
                if all {
                    s.for_each_solution(|_| ControlFlow::Continue(()))
                } else {
                    s.solve().map(|r| csp_core::Report {
                        count: u128::from(r.solution.is_some()),
                        outcome: r.outcome,
                        stats: r.stats,
                    })
                }
            };
            let r = if domains {
                let mut d = DomainTracer::new(n, |l: &str| emit_node(None, Some(l)))
                    .ok_or_else(|| format!("--trace --domains: n = {n} is too large"))?
                    .propagating(job.options.inference != csp_core::Inference::None);
                let r = search(&mut d);
                d.finish();
                r
            } else {
                let mut plain = |l: &TraceLine| emit_node(Some(l), None);
                let mut tracer = Tracer::new(n, &mut plain);
                let r = search(&mut tracer);
                tracer.finish();
                r
            }
            .map_err(|e| e.to_string())?;
            solutions = r.count;
            (limit_note(r.outcome), engine_stats(&r.stats))
        }
        Solver::Permutation => {
            let mut plain = |l: &TraceLine| emit_node(Some(l), None);
            let mut tracer = Tracer::new(n, &mut plain);
            let depth_of_row = |row: usize| row + 1;
            let mut obs = |e: permutation::Event| match e {
                permutation::Event::Assign { row, col } => {
                    tracer.assign(row, col, depth_of_row(row))
                }
                permutation::Event::Reject { row, col } => {
                    tracer.assign(row, col, depth_of_row(row));
                    tracer.fail(row);
                }
                permutation::Event::Backtrack { row } => tracer.backtrack(row, row + 1),
                permutation::Event::Solution => tracer.solution(),
            };
            let r = permutation::search(n, &budget(job, None), &mut obs, &mut on_solution)
                .map_err(|e| e.to_string())?;
            tracer.finish();
            // `Stopped` is the search stopping at the first solution.
            let note = (!matches!(
                r.status,
                permutation::Status::Completed | permutation::Status::Stopped
            ))
            .then(|| r.status.to_string());
            (note, r.to_string())
        }
        Solver::Teach(Teach::Bits) => {
            if tree.is_some() {
                return Err(
                    "--trace shows the masks of teach-bits as text; --format dot and json draw search trees"
                        .into(),
                );
            }
            let mut show = |l: &str| emit_node(None, Some(l));
            let r = queens_teach::watch_bits(n, deadline(job), &mut on_solution, &mut show)?;
            let note = r.timed_out.then(|| "stopped by the time limit".to_string());
            (note, r.stats_line(Teach::Bits))
        }
        Solver::Teach(teach @ (Teach::MinConflicts | Teach::Genetic)) => {
            if matches!(tree, Some(TreeFormat::Dot | TreeFormat::Json)) {
                return Err(format!(
                    "--trace shows the steps of {} as text or, with --format svg, as a chart; --format dot and json draw search trees",
                    teach.name()
                ));
            }
            let mut show = |l: &str| {
                if tree.is_none() {
                    emit_node(None, Some(l))
                }
            };
            let w = queens_teach::watch_local(teach, n, job.seed, deadline(job), &mut show)?;
            if tree == Some(TreeFormat::Chart) {
                let (title, steps) = match teach {
                    Teach::Genetic => (
                        format!("{n}-queens, teach-genetic: attacking pairs per generation"),
                        "generation",
                    ),
                    _ => (
                        format!("{n}-queens, teach-min-conflicts: attacking pairs after each start and move"),
                        "start or move",
                    ),
                };
                chart = Some(queens_teach::chart(&title, steps, &w.series));
            }
            solutions = w.tally.solutions;
            let note = w.tally.no_solution_note(teach, w.found.is_some());
            (note, w.tally.stats_line(teach))
        }
        Solver::Teach(teach) => {
            let deadline = deadline(job);
            let r = if teach != Teach::Fc {
                let mut show = |l: &TraceLine| emit_node(Some(l), None);
                queens_teach::run(
                    teach,
                    n,
                    job.seed,
                    deadline,
                    &mut on_solution,
                    Some(&mut show),
                    None,
                )?
            } else {
                let mut show_domains = |l: &TraceLine, d: &[Vec<u32>]| {
                    if domains {
                        let open = csp_queens::teaching::forward::describe_domains(l.depth, d);
                        let text = csp_queens::trace::render_with_domains(l, &open);
                        emit_node(Some(l), Some(&text));
                    } else {
                        emit_node(Some(l), None);
                    }
                };
                queens_teach::run(
                    teach,
                    n,
                    job.seed,
                    deadline,
                    &mut on_solution,
                    None,
                    Some(&mut show_domains),
                )?
            };
            let note = r.timed_out.then(|| "stopped by the time limit".to_string());
            (note, r.stats_line(teach))
        }
        other => return Err(format!("'{}' cannot trace", other.name())),
    };
    if let Some(e) = write_err {
        return Err(format!("writing the trace: {e}"));
    }
    match tree {
        Some(TreeFormat::Dot) => write!(out, "{}", csp_queens::tree::to_dot(&kept)),
        Some(TreeFormat::Json) => write!(out, "{}", csp_queens::tree::to_json(&kept)),
        Some(TreeFormat::Chart) => write!(out, "{}", chart.unwrap_or_default()),
        None => Ok(()),
    }
    .map_err(|e| format!("writing the trace: {e}"))?;
    if count {
        // A count cut short is a lower bound.
        let bound = if note.is_some() { ">=" } else { "" };
        writeln!(out, "{bound}{solutions}").map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    if let Some(why) = &note {
        errln!("warning: incomplete trace: {why}");
    }
    print_stats(
        job,
        job.solver.name(),
        &format!("{stat_line} (wall {:.3} s)", t.elapsed().as_secs_f64()),
    );
    Ok(Status::stopped_if(note.is_some()).code())
}

/// `--format html`: the page that replays the engine's search on the board,
/// to the first solution (with `all`, to the end of the tree).
pub(super) fn html_page(
    job: &Job,
    all: bool,
    counts: bool,
    settings: &str,
) -> Result<ExitCode, CliError> {
    let n = job.n;
    if counts {
        return Err("--format html writes a page, not a count: drop --count and --unique".into());
    }
    if !matches!(
        job.solver,
        Solver::Backtracking | Solver::Pairwise | Solver::Teach(_)
    ) {
        return Err(format!(
            "--format html replays the generic engine's search (--solver backtracking or pairwise) \
             or a teaching solver's (teach-*), not '{}'",
            job.solver.name()
        ));
    }
    if !(1..=super::replay::MAX_VALUES).contains(&n) {
        return Err(format!(
            "--format html shows boards from n = 1 to n = {}, got n = {n}",
            super::replay::MAX_VALUES
        ));
    }
    if let Solver::Teach(t) = job.solver {
        return super::queens_html::teach_page(job, t, all);
    }
    let t = Instant::now();
    let q = queens_model(n, job.solver.kind()).map_err(|e| e.to_string())?;
    let title = format!(
        "{n}-queens, {} search ({settings}){}",
        job.solver.name(),
        if all { ", every solution" } else { "" }
    );
    let puzzle = super::replay::Puzzle::Queens { n };
    let r = super::replay::record(puzzle, &title, &q.model, &q.rows, job.options.clone(), all)?;
    if let Some(why) = &r.note {
        errln!("warning: incomplete trace: {why}");
    }
    print_stats(
        job,
        job.solver.name(),
        &format!(
            "{} (wall {:.3} s)",
            engine_stats(&r.stats),
            t.elapsed().as_secs_f64()
        ),
    );
    Ok(Status::stopped_if(r.note.is_some()).code())
}
