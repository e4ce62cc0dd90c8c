//! Job-shop scheduling: a worked example of optimisation with reification.
//!
//! `n` jobs each pass through `m` machines in their own order; task `k` of
//! job `j` needs machine `machine[j][k]` for `duration[j][k]` time units,
//! a machine does one task at a time, and a job's tasks run in order.
//! Minimise the makespan, the time the last task ends.
//!
//! ```
//! use csp_jobshop::{parse, model, check};
//! use csp_core::Search;
//!
//! // Two jobs, two machines: (machine, duration) pairs per job.
//! let shop = parse("2 2\n0 3 1 2\n1 2 0 4\n").unwrap();
//! let js = model(&shop).unwrap();
//! let r = Search::new(&js.model).options(csp_jobshop::options()).minimize(js.makespan).unwrap();
//! assert!(r.is_optimal());
//! let best = r.best.unwrap();
//! let starts: Vec<Vec<i32>> = js.starts.iter().map(|row| row.iter().map(|&s| best[s]).collect()).collect();
//! assert_eq!(check(&shop, &starts).unwrap(), r.objective.unwrap());
//! ```

use csp_core::{Domain, Model, ModelError, SearchOptions, ValOrder, VarId, VarOrder};
use csp_text::{data_lines, int as number, tokens};

/// A job-shop instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shop {
    /// Number of machines.
    pub machines: usize,
    /// Per job, its tasks in order as `(machine, duration)`.
    pub jobs: Vec<Vec<(usize, i32)>>,
}

/// A parse error at a line and column (1-based); `Display` gives
/// `line:column: message`.
pub use csp_text::TextError as ParseError;

/// The largest instance [`parse`] accepts (jobs × machines), so that the
/// model (a boolean per pair of tasks on a machine) stays small.
pub const MAX_TASKS: usize = 10_000;

/// Parses the OR-Library format: a line `jobs machines`, then one line per
/// job with `machines` pairs `machine duration` (machines numbered from 0).
/// Lines starting with `#` and blank lines are skipped.
pub fn parse(text: &str) -> Result<Shop, ParseError> {
    let mut lines = data_lines(text);
    let Some((hl, header)) = lines.next() else {
        return Err(ParseError {
            line: 1,
            column: 1,
            message: "empty input: expected a line 'jobs machines'".into(),
        });
    };
    let head = tokens(header);
    if head.len() != 2 {
        let col = head.get(2).map_or(header.len() + 1, |t| t.0);
        return Err(ParseError {
            line: hl,
            column: col,
            message: format!("expected 'jobs machines', found {} numbers", head.len()),
        });
    }
    let n = number(hl, head[0], "the number of jobs", 1, MAX_TASKS as i64)? as usize;
    let m = number(hl, head[1], "the number of machines", 1, MAX_TASKS as i64)? as usize;
    if n * m > MAX_TASKS {
        return Err(ParseError {
            line: hl,
            column: 1,
            message: format!("{n} jobs × {m} machines is more than {MAX_TASKS} tasks"),
        });
    }
    let mut jobs = Vec::with_capacity(n);
    for j in 0..n {
        let Some((ln, line)) = lines.next() else {
            let last = text.lines().count().max(1);
            return Err(ParseError {
                line: last,
                column: 1,
                message: format!("the input ends after {j} of {n} jobs"),
            });
        };
        let t = tokens(line);
        if t.len() != 2 * m {
            let col = if t.len() > 2 * m {
                t[2 * m].0
            } else {
                line.trim_end().len() + 1
            };
            let what = if t.len() % 2 == 1 && t.len() < 2 * m {
                " (a machine without its duration)"
            } else {
                ""
            };
            return Err(ParseError {
                line: ln,
                column: col,
                message: format!(
                    "job {} needs {m} pairs 'machine duration', found {} numbers{what}",
                    j + 1,
                    t.len()
                ),
            });
        }
        let mut tasks = Vec::with_capacity(m);
        for k in 0..m {
            let mach = number(ln, t[2 * k], "a machine", 0, m as i64 - 1)? as usize;
            let dur = number(ln, t[2 * k + 1], "a duration", 0, 1_000_000)? as i32;
            tasks.push((mach, dur));
        }
        jobs.push(tasks);
    }
    if let Some((ln, _)) = lines.next() {
        return Err(ParseError {
            line: ln,
            column: 1,
            message: format!("more lines than the {n} jobs announced"),
        });
    }
    Ok(Shop { machines: m, jobs })
}

/// The model: start times, the makespan to minimise.
#[derive(Debug)]
pub struct JobShop {
    /// The model.
    pub model: Model,
    /// `starts[j][k]`: when task `k` of job `j` starts.
    pub starts: Vec<Vec<VarId>>,
    /// The makespan.
    pub makespan: VarId,
    /// The order decisions: per pair of tasks on a machine, the boolean
    /// "the first ends before the second starts" and its converse. The
    /// search branches on these (`decision_vars`), and large neighbourhood
    /// search frees a share of them.
    pub orders: Vec<VarId>,
}

/// The search the example uses: decide the order of each pair of tasks on
/// a machine (the booleans, smallest domain first with failure weights),
/// then start every task as early as it can.
pub fn options() -> SearchOptions {
    SearchOptions {
        var_order: VarOrder::DomWdeg,
        val_order: ValOrder::Ascending,
        learning: false, // measured with the ordinary engine
        ..Default::default()
    }
}

/// Builds the model of `shop`.
///
/// * Start times over `0..=H`, `H` the sum of all durations (one task
///   after another always fits).
/// * A job's tasks in order: `start[k] + duration[k] ≤ start[k + 1]`.
/// * Two tasks `a`, `b` on one machine: `before ⇔ a ends before b starts`,
///   `after ⇔ b ends before a starts`, and `before ∨ after`.
/// * Each machine's tasks: a [`Disjunctive`](csp_core::constraint::Disjunctive)
///   (edge finding on the start times; the booleans stay what the search
///   decides).
/// * `makespan ≥` the end of every job's last task.
pub fn model(shop: &Shop) -> Result<JobShop, ModelError> {
    let horizon: i64 = shop.jobs.iter().flatten().map(|&(_, d)| d as i64).sum();
    let horizon = i32::try_from(horizon).map_err(|_| ModelError::Overflow {
        constraint: "job-shop horizon",
    })?;
    let mut m = Model::new();
    let mut starts = Vec::new();
    for job in &shop.jobs {
        starts.push(m.new_vars(job.len(), Domain::range(0, horizon))?);
    }
    let makespan = m.new_var(Domain::range(0, horizon))?;
    for (j, job) in shop.jobs.iter().enumerate() {
        for k in 0..job.len() {
            let end = starts[j][k] + job[k].1;
            match k + 1 < job.len() {
                true => m.post(end.le(starts[j][k + 1]))?,
                false => m.post(end.le(makespan))?,
            };
        }
    }
    let mut orders = Vec::new();
    for machine in 0..shop.machines {
        let tasks: Vec<(VarId, i32)> = shop
            .jobs
            .iter()
            .enumerate()
            .flat_map(|(j, job)| {
                job.iter()
                    .enumerate()
                    .filter(|t| t.1 .0 == machine)
                    .map(move |(k, t)| (j, k, t.1))
            })
            .map(|(j, k, d)| (starts[j][k], d))
            .collect();
        // The machine as a unary resource (edge finding, detectable
        // precedences) beside the order booleans the search branches on.
        let (machine_starts, durations): (Vec<VarId>, Vec<i32>) = tasks.iter().copied().unzip();
        m.disjunctive(&machine_starts, &durations)?;
        for a in 0..tasks.len() {
            for b in a + 1..tasks.len() {
                let ((sa, da), (sb, db)) = (tasks[a], tasks[b]);
                let before = m.reify((sa + da).le(sb))?;
                let after = m.reify((sb + db).le(sa))?;
                m.clause(&[before, after], &[])?;
                orders.extend([before, after]);
            }
        }
    }
    Ok(JobShop {
        model: m,
        starts,
        makespan,
        orders,
    })
}

/// An independent check of a schedule; returns its makespan.
pub fn check(shop: &Shop, starts: &[Vec<i32>]) -> Result<i32, String> {
    let mut busy: Vec<Vec<(i32, i32, usize)>> = vec![Vec::new(); shop.machines];
    let mut makespan = 0;
    for (j, job) in shop.jobs.iter().enumerate() {
        let mut ready = 0;
        for (k, &(mach, d)) in job.iter().enumerate() {
            let s = starts[j][k];
            if s < ready {
                return Err(format!(
                    "job {} task {} starts at {s}, before its predecessor ends at {ready}",
                    j + 1,
                    k + 1
                ));
            }
            ready = s + d;
            busy[mach].push((s, s + d, j));
        }
        makespan = makespan.max(ready);
    }
    for (mach, list) in busy.iter_mut().enumerate() {
        list.sort();
        for w in list.windows(2) {
            if w[1].0 < w[0].1 {
                return Err(format!(
                    "machine {mach}: jobs {} and {} overlap",
                    w[0].2 + 1,
                    w[1].2 + 1
                ));
            }
        }
    }
    Ok(makespan)
}
