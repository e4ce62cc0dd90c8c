//! Resource-constrained project scheduling (RCPSP): a worked example of
//! the `cumulative` global constraint and branch and bound.
//!
//! A project is a set of jobs, each with a duration and a demand on every
//! renewable resource; a job starts only after all its predecessors have
//! ended, and at every time the jobs running use no more of a resource
//! than its capacity. Minimise the makespan, the time the last job ends.
//! Instances come in PSPLIB's single-mode format (`.sm`, Kolisch and
//! Sprecher, 1996), as the j30, j60, j90 and j120 sets are.
//!
//! ```
//! use csp_rcpsp::{check, model};
//! use csp_core::Search;
//!
//! // Job 2 and job 3 both need 2 of the 3 units of R 1: one after the other.
//! let p = csp_rcpsp::Project {
//!     durations: vec![0, 3, 2, 0],
//!     demands: vec![vec![0], vec![2], vec![2], vec![0]],
//!     successors: vec![vec![1, 2], vec![3], vec![3], vec![]],
//!     capacities: vec![3],
//! };
//! let m = model(&p, csp_rcpsp::Strength::default()).unwrap();
//! let r = Search::new(&m.model).options(m.options()).minimize(m.makespan).unwrap();
//! assert!(r.is_optimal());
//! let best = r.best.unwrap();
//! let starts: Vec<i32> = m.starts.iter().map(|&s| best[s]).collect();
//! assert_eq!(check(&p, &starts), Ok(5));
//! assert_eq!(r.objective, Some(5));
//! ```

use csp_core::{
    Domain, LearningOrder, Model, ModelError, SearchOptions, ValOrder, VarId, VarOrder,
};
use csp_text::{int as number, tokens};

pub use csp_core::constraint::CumulativeStrength as Strength;

/// A project: jobs numbered from 0 (job 1 of the file is job 0 here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// Per job, its duration.
    pub durations: Vec<i32>,
    /// Per job, its demand on each resource.
    pub demands: Vec<Vec<i32>>,
    /// Per job, the jobs that start only after it ends.
    pub successors: Vec<Vec<usize>>,
    /// Per resource, its capacity.
    pub capacities: Vec<i32>,
}

impl Project {
    /// The number of jobs.
    pub fn jobs(&self) -> usize {
        self.durations.len()
    }

    /// What makes this project unusable (lists of the wrong length, a
    /// successor out of range), if anything: [`parse`] never returns one.
    fn malformed(&self) -> Option<String> {
        let n = self.jobs();
        let r = self.capacities.len();
        if self.successors.len() != n || self.demands.len() != n {
            return Some(format!(
                "{n} durations but {} successor lists and {} demand rows",
                self.successors.len(),
                self.demands.len()
            ));
        }
        if let Some(j) = (0..n).find(|&j| self.demands[j].len() != r) {
            return Some(format!(
                "job {} has {} demands for {r} resources",
                j + 1,
                self.demands[j].len()
            ));
        }
        if let Some(j) = (0..n).find(|&j| self.successors[j].iter().any(|&k| k >= n)) {
            return Some(format!("job {} has a successor beyond the {n} jobs", j + 1));
        }
        None
    }

    /// The sum of the durations: one job after another always fits, so an
    /// optimal schedule ends by then. `None` if it does not fit an `i32`.
    pub fn horizon(&self) -> Option<i32> {
        let h: i64 = self.durations.iter().map(|&d| d as i64).sum();
        i32::try_from(h).ok()
    }

    /// The instance as MiniZinc data for `benches/minizinc/written/rcpsp.mzn`
    /// (and the MiniZinc benchmarks' `rcpsp.mzn`): `n_res`, `rc`, `n_tasks`,
    /// `d`, `rr` (resource by task) and `suc` (numbered from 1).
    pub fn to_dzn(&self) -> String {
        let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(", ");
        let mut out = String::new();
        out += &format!("n_res = {};\n", self.capacities.len());
        out += &format!(
            "rc = [{}];\n",
            list(&mut self.capacities.iter().map(|c| c.to_string()))
        );
        out += &format!("n_tasks = {};\n", self.jobs());
        out += &format!(
            "d = [{}];\n",
            list(&mut self.durations.iter().map(|c| c.to_string()))
        );
        out += "rr = [|";
        for r in 0..self.capacities.len() {
            if r > 0 {
                out += "\n      |";
            }
            out += " ";
            out += &list(&mut self.demands.iter().map(|row| row[r].to_string()));
        }
        out += " |];\n";
        out += "suc = [";
        for (j, s) in self.successors.iter().enumerate() {
            if j > 0 {
                out += ", ";
            }
            out += &format!("{{{}}}", list(&mut s.iter().map(|k| (k + 1).to_string())));
        }
        out += "];\n";
        out
    }
}

/// A parse error at a line and column (1-based); `Display` gives
/// `line:column: message`.
pub use csp_text::TextError as ParseError;

/// The most jobs [`parse`] accepts.
pub const MAX_JOBS: usize = 10_000;
/// The most resources [`parse`] accepts.
pub const MAX_RESOURCES: usize = 100;
/// The longest duration [`parse`] accepts.
pub const MAX_DURATION: i64 = 100_000;
/// The largest demand or capacity [`parse`] accepts.
pub const MAX_AMOUNT: i64 = 1_000_000_000;

/// A data line with its tokens.
struct Row<'a> {
    line: usize,
    text: &'a str,
    tokens: Vec<(usize, &'a str)>,
}

impl Row<'_> {
    /// The column just after the line's last character.
    fn end(&self) -> usize {
        self.text.trim_end().chars().count() + 1
    }
}

/// A line of `*` (the sections' frame).
fn is_frame(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| c == '*')
}

/// A heading inside a section: `jobnr. …`, `R 1  R 2 …`, or a rule of `-`.
fn is_heading(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("jobnr")
        || (!t.is_empty() && t.chars().all(|c| c == '-'))
        || (t.starts_with('R') && !t.starts_with("RE"))
}

/// The value after the colon of a header line such as
/// `jobs (incl. supersource/sink ):  32`.
fn header_value(line: usize, text: &str, what: &str, lo: i64, hi: i64) -> Result<i64, ParseError> {
    let Some(colon) = text.find(':') else {
        return Err(ParseError::new(
            line,
            text.trim_end().chars().count() + 1,
            format!("expected ':' and {what}"),
        ));
    };
    let offset = text[..=colon].chars().count();
    let rest = &text[colon + 1..];
    match tokens(rest).first() {
        Some(&(c, t)) => number(line, (offset + c, t), what, lo, hi),
        None => Err(ParseError::new(
            line,
            text.trim_end().chars().count() + 1,
            format!("expected {what} after ':'"),
        )),
    }
}

/// The rows of the section whose title is line `at`: `count` data lines
/// after its headings, and nothing else before the next frame or section.
fn section_rows<'a>(
    lines: &[(usize, &'a str)],
    at: usize,
    count: usize,
    name: &str,
) -> Result<Vec<Row<'a>>, ParseError> {
    let last = lines.len().max(1);

    let mut out = Vec::with_capacity(count);
    let mut i = at + 1;
    while i < lines.len() && out.len() < count {
        let (ln, l) = lines[i];
        i += 1;
        if l.trim().is_empty() || (out.is_empty() && is_heading(l)) {
            continue;
        }
        if is_frame(l) || l.trim_end().ends_with(':') {
            return Err(ParseError::new(
                ln,
                1,
                format!(
                    "the section {name} ends after {} of its {count} lines",
                    out.len()
                ),
            ));
        }
        out.push(Row {
            line: ln,
            text: l,
            tokens: tokens(l),
        });
    }
    if out.len() < count {
        return Err(ParseError::new(
            last,
            1,
            format!(
                "the input ends after {} of the {count} lines of {name}",
                out.len()
            ),
        ));
    }
    // What follows must end the section.
    if let Some(&(ln, l)) = lines[i..].iter().find(|(_, l)| !l.trim().is_empty()) {
        if !is_frame(l) && !l.trim_end().ends_with(':') {
            return Err(ParseError::new(
                ln,
                1,
                format!("more lines in {name} than the {count} announced"),
            ));
        }
    }
    Ok(out)
}

/// Parses PSPLIB's single-mode format (`.sm`): the header with
/// `jobs (incl. supersource/sink ):` and the resources, then the sections
/// `PRECEDENCE RELATIONS:`, `REQUESTS/DURATIONS:` and
/// `RESOURCEAVAILABILITIES:`. Other lines of the header (the base data
/// file, the horizon, `PROJECT INFORMATION:`) are not used.
///
/// Besides the format, it rejects what has no schedule or no model:
/// precedences that form a cycle, and a job of positive duration that
/// demands more of a resource than its capacity (the instance is
/// infeasible). Only renewable resources and one mode per job are
/// supported; the numbers are bounded by [`MAX_JOBS`], [`MAX_RESOURCES`],
/// [`MAX_DURATION`] and [`MAX_AMOUNT`].
pub fn parse(text: &str) -> Result<Project, ParseError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    let last = lines.len().max(1);
    let section = |name: &str| lines.iter().position(|(_, l)| l.trim() == name);
    let missing = |name: &str| {
        ParseError::new(
            last,
            1,
            format!("no section '{name}' (PSPLIB single-mode format expected)"),
        )
    };
    let prec = section("PRECEDENCE RELATIONS:").ok_or_else(|| missing("PRECEDENCE RELATIONS:"))?;
    let req = section("REQUESTS/DURATIONS:").ok_or_else(|| missing("REQUESTS/DURATIONS:"))?;
    let avail =
        section("RESOURCEAVAILABILITIES:").ok_or_else(|| missing("RESOURCEAVAILABILITIES:"))?;
    if !(prec < req && req < avail) {
        let (line, _) = lines[req.min(avail)];
        return Err(ParseError::new(
            line,
            1,
            "the sections must come in the order PRECEDENCE RELATIONS, \
             REQUESTS/DURATIONS, RESOURCEAVAILABILITIES",
        ));
    }

    // The header: the number of jobs and of resources of each kind.
    let mut n = None;
    let mut resources = None;
    for &(ln, l) in &lines[..prec] {
        let t = l.trim_start();
        if t.starts_with("jobs") {
            n = Some(header_value(ln, l, "the number of jobs", 1, MAX_JOBS as i64)? as usize);
        } else if t.starts_with("- renewable") {
            resources = Some(header_value(
                ln,
                l,
                "the number of renewable resources",
                0,
                MAX_RESOURCES as i64,
            )? as usize);
        } else if t.starts_with("- nonrenewable") || t.starts_with("- doubly constrained") {
            let v = header_value(ln, l, "a number of resources", 0, MAX_RESOURCES as i64)?;
            if v != 0 {
                let col = l.find(':').map_or(1, |c| l[..=c].chars().count() + 1);
                return Err(ParseError::new(
                    ln,
                    col,
                    format!("only renewable resources are supported, found {v} of another kind"),
                ));
            }
        }
    }
    let first = lines.first().map_or(1, |&(ln, _)| ln);
    let n = n.ok_or_else(|| {
        ParseError::new(
            first,
            1,
            "no line 'jobs (incl. supersource/sink ): N' before PRECEDENCE RELATIONS",
        )
    })?;
    let resources = resources.ok_or_else(|| {
        ParseError::new(
            first,
            1,
            "no line '- renewable : N R' before PRECEDENCE RELATIONS",
        )
    })?;

    // The rows of a section: `count` data lines after its headings.
    let rows = |at, count, name| section_rows(&lines, at, count, name);

    let job_number = |row: &Row, j: usize| -> Result<(), ParseError> {
        let (col, t) = row.tokens[0];
        let v = number(row.line, (col, t), "a job number", 1, n as i64)?;
        if v as usize != j + 1 {
            return Err(ParseError::new(
                row.line,
                col,
                format!("expected job {}, found job {v}", j + 1),
            ));
        }
        Ok(())
    };
    let one_mode = |row: &Row| -> Result<(), ParseError> {
        let (col, t) = row.tokens[1];
        let v = number(row.line, (col, t), "a number of modes", 1, i64::MAX)?;
        if v != 1 {
            return Err(ParseError::new(
                row.line,
                col,
                format!("only single-mode instances are supported, found mode(s) {v}"),
            ));
        }
        Ok(())
    };

    // PRECEDENCE RELATIONS: jobnr, #modes, #successors, successors.
    let mut successors = Vec::with_capacity(n);
    let mut successor_at = Vec::with_capacity(n);
    for (j, row) in rows(prec, n, "PRECEDENCE RELATIONS")?.iter().enumerate() {
        if row.tokens.len() < 3 {
            return Err(ParseError::new(
                row.line,
                row.end(),
                "expected 'jobnr #modes #successors successors…'",
            ));
        }
        job_number(row, j)?;
        one_mode(row)?;
        let k = number(
            row.line,
            row.tokens[2],
            "a number of successors",
            0,
            n as i64,
        )? as usize;
        let found = row.tokens.len() - 3;
        if found != k {
            let col = if found > k {
                row.tokens[3 + k].0
            } else {
                row.end()
            };
            return Err(ParseError::new(
                row.line,
                col,
                format!("job {} announces {k} successors, found {found}", j + 1),
            ));
        }
        let mut succ = Vec::with_capacity(k);
        let mut at = Vec::with_capacity(k);
        for &tok in &row.tokens[3..] {
            let s = number(row.line, tok, "a successor", 1, n as i64)? as usize;
            if s == j + 1 {
                return Err(ParseError::new(
                    row.line,
                    tok.0,
                    format!("job {s} cannot succeed itself (a precedence cycle)"),
                ));
            }
            succ.push(s - 1);
            at.push((row.line, tok.0));
        }
        successors.push(succ);
        successor_at.push(at);
    }

    // REQUESTS/DURATIONS: jobnr, mode, duration, a demand per resource.
    let mut durations = Vec::with_capacity(n);
    let mut demands = Vec::with_capacity(n);
    let mut demand_at = Vec::with_capacity(n);
    for (j, row) in rows(req, n, "REQUESTS/DURATIONS")?.iter().enumerate() {
        if row.tokens.len() != 3 + resources {
            let col = row.tokens.get(3 + resources).map_or(row.end(), |t| t.0);
            return Err(ParseError::new(
                row.line,
                col,
                format!(
                    "expected 'jobnr mode duration' and {resources} demands, found {} numbers",
                    row.tokens.len()
                ),
            ));
        }
        job_number(row, j)?;
        one_mode(row)?;
        durations.push(number(row.line, row.tokens[2], "a duration", 0, MAX_DURATION)? as i32);
        let mut need = Vec::with_capacity(resources);
        for &tok in &row.tokens[3..] {
            need.push(number(row.line, tok, "a demand", 0, MAX_AMOUNT)? as i32);
        }
        demands.push(need);
        demand_at.push(
            row.tokens[3..]
                .iter()
                .map(|t| (row.line, t.0))
                .collect::<Vec<_>>(),
        );
    }

    // RESOURCEAVAILABILITIES: a heading `R 1  R 2 …`, then the capacities.
    let row = &rows(avail, 1, "RESOURCEAVAILABILITIES")?[0];
    if row.tokens.len() != resources {
        let col = row.tokens.get(resources).map_or(row.end(), |t| t.0);
        return Err(ParseError::new(
            row.line,
            col,
            format!(
                "expected {resources} capacities, found {} numbers",
                row.tokens.len()
            ),
        ));
    }
    let mut capacities = Vec::with_capacity(resources);
    for &tok in &row.tokens {
        capacities.push(number(row.line, tok, "a capacity", 0, MAX_AMOUNT)? as i32);
    }

    // A job that cannot run at all: the instance has no schedule.
    for j in 0..n {
        for r in 0..resources {
            if durations[j] > 0 && demands[j][r] > capacities[r] {
                let (line, column) = demand_at[j][r];
                return Err(ParseError::new(
                    line,
                    column,
                    format!(
                        "job {} needs {} of resource R {}, more than its capacity {}: \
                         the instance is infeasible (no schedule exists)",
                        j + 1,
                        demands[j][r],
                        r + 1,
                        capacities[r]
                    ),
                ));
            }
        }
    }

    if let Some(cycle) = find_cycle(&successors) {
        // Reported at the successor that closes the cycle's first arc.
        let (a, b) = (cycle[0], cycle[1]);
        let k = successors[a].iter().position(|&s| s == b).unwrap_or(0);
        let (line, column) = successor_at[a][k];
        let names: Vec<String> = cycle.iter().map(|j| (j + 1).to_string()).collect();
        return Err(ParseError::new(
            line,
            column,
            format!("the precedences form a cycle: jobs {}", names.join(" → ")),
        ));
    }

    Ok(Project {
        durations,
        demands,
        successors,
        capacities,
    })
}

/// A cycle of the precedence graph, as jobs `[a, b, …, a]` starting from
/// its smallest job, if there is one.
pub fn find_cycle(successors: &[Vec<usize>]) -> Option<Vec<usize>> {
    let n = successors.len();
    let mut indegree = vec![0usize; n];
    let mut preds = vec![Vec::new(); n];
    for (a, succ) in successors.iter().enumerate() {
        for &b in succ {
            indegree[b] += 1;
            preds[b].push(a);
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&j| indegree[j] == 0).collect();
    let mut done = vec![false; n];
    while let Some(a) = ready.pop() {
        done[a] = true;
        for &b in &successors[a] {
            indegree[b] -= 1;
            if indegree[b] == 0 {
                ready.push(b);
            }
        }
    }
    // Every job left has a predecessor left: walk back until one repeats.
    let start = (0..n).find(|&j| !done[j])?;
    let mut seen = vec![usize::MAX; n];
    let mut path = Vec::new();
    let mut j = start;
    while seen[j] == usize::MAX {
        seen[j] = path.len();
        path.push(j);
        j = *preds[j].iter().find(|&&p| !done[p])?;
    }
    // path[seen[j]..] walked backwards is the cycle.
    let mut cycle: Vec<usize> = path[seen[j]..].iter().rev().copied().collect();
    let m = (0..cycle.len()).min_by_key(|&i| cycle[i]).unwrap_or(0);
    cycle.rotate_left(m);
    cycle.push(cycle[0]);
    Some(cycle)
}

/// The model: a start per job, the makespan to minimise.
#[derive(Debug)]
pub struct Rcpsp {
    /// The model.
    pub model: Model,
    /// `starts[j]`: when job `j` starts.
    pub starts: Vec<VarId>,
    /// The makespan.
    pub makespan: VarId,
}

impl Rcpsp {
    /// The search the example uses by default: the learning search (lazy
    /// clause generation, `docs/learning.md`) on the start times, which
    /// picks the start of highest activity and splits its domain on the
    /// side of its saved phase. With `learning` set to false, the ordinary
    /// branch and bound picks the start of smallest domain by weighted
    /// degree (dom/wdeg), each decision `s = min` or `s ≠ min` (binary
    /// branching on the earliest start). Once every job is placed, the
    /// makespan is fixed by propagation. `docs/rcpsp.md` measures both.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            var_order: VarOrder::DomWdeg,
            val_order: ValOrder::BinaryMin,
            decision_vars: self.starts.clone(),
            learning: true,
            learning_order: LearningOrder::Activity,
            ..Default::default()
        }
    }
}

/// Builds the model of `project`, its resources propagated at `strength`.
///
/// * A start per job over `0..=H`, `H` the sum of the durations.
/// * Precedences: `start[i] + duration[i] ≤ start[j]` for `j` a successor
///   of `i`.
/// * One [`Cumulative`](csp_core::constraint::Cumulative) per resource
///   over the jobs of positive duration and demand on it.
/// * `makespan ≥ start[j] + duration[j]` for every job without successors.
pub fn model(project: &Project, strength: Strength) -> Result<Rcpsp, ModelError> {
    if let Some(reason) = project.malformed() {
        return Err(ModelError::Invalid {
            constraint: "project",
            reason,
        });
    }
    let horizon = project.horizon().ok_or(ModelError::Overflow {
        constraint: "project horizon",
    })?;
    let mut m = Model::new();
    let starts = m.new_vars(project.jobs(), Domain::range(0, horizon))?;
    let makespan = m.new_var(Domain::range(0, horizon))?;
    for (i, succ) in project.successors.iter().enumerate() {
        let end = starts[i] + project.durations[i];
        for &j in succ {
            m.post(end.clone().le(starts[j]))?;
        }
        if succ.is_empty() {
            m.post(end.le(makespan))?;
        }
    }
    for (r, &capacity) in project.capacities.iter().enumerate() {
        let jobs: Vec<usize> = (0..project.jobs())
            .filter(|&j| project.durations[j] > 0 && project.demands[j][r] > 0)
            .collect();
        let total: i64 = jobs.iter().map(|&j| project.demands[j][r] as i64).sum();
        if total <= capacity as i64 {
            continue; // never short of this resource
        }
        let s: Vec<VarId> = jobs.iter().map(|&j| starts[j]).collect();
        let d: Vec<i32> = jobs.iter().map(|&j| project.durations[j]).collect();
        let q: Vec<i32> = jobs.iter().map(|&j| project.demands[j][r]).collect();
        m.cumulative_with(&s, &d, &q, capacity, strength)?;
    }
    Ok(Rcpsp {
        model: m,
        starts,
        makespan,
    })
}

/// An independent check of a schedule (`starts[j]` per job): every
/// precedence holds and no resource is overloaded at any time. Returns the
/// makespan, the latest end.
pub fn check(project: &Project, starts: &[i32]) -> Result<i32, String> {
    let n = project.jobs();
    if starts.len() != n {
        return Err(format!("{} starts for {n} jobs", starts.len()));
    }
    if let Some(e) = project.malformed() {
        return Err(e);
    }
    for (j, &s) in starts.iter().enumerate() {
        if s < 0 {
            return Err(format!("job {} starts at {s}, before time 0", j + 1));
        }
    }
    let end = |j: usize| starts[j] as i64 + project.durations[j] as i64;
    for (i, succ) in project.successors.iter().enumerate() {
        for &j in succ {
            if end(i) > starts[j] as i64 {
                return Err(format!(
                    "job {} starts at {}, before its predecessor {} ends at {}",
                    j + 1,
                    starts[j],
                    i + 1,
                    end(i)
                ));
            }
        }
    }
    // The load changes only where a job starts or ends: sweep the events.
    for (r, &capacity) in project.capacities.iter().enumerate() {
        let mut events: Vec<(i64, i64)> = Vec::new();
        for (j, &s) in starts.iter().enumerate() {
            let q = project.demands[j][r] as i64;
            if project.durations[j] > 0 && q > 0 {
                events.push((s as i64, q));
                events.push((end(j), -q));
            }
        }
        // Ends before starts at the same time: a job ending at t frees
        // its units for one starting at t.
        events.sort_by_key(|&(t, q)| (t, q));
        let mut load = 0;
        for (t, q) in events {
            load += q;
            if load > capacity as i64 {
                return Err(format!(
                    "resource R {} is overloaded at time {t}: {load} units of {capacity}",
                    r + 1
                ));
            }
        }
    }
    let makespan = (0..n).map(end).max().unwrap_or(0);
    i32::try_from(makespan).map_err(|_| format!("makespan {makespan} overflows"))
}

/// The schedule as text: one line per job, `job J: start S, ends E`.
pub fn render(project: &Project, starts: &[i32]) -> String {
    let mut out = String::new();
    for (j, &s) in starts.iter().enumerate() {
        let d = project.durations[j];
        out += &format!("job {:>3}: {s:>4} .. {:>4}", j + 1, s + d);
        let used: Vec<String> = project.demands[j]
            .iter()
            .enumerate()
            .filter(|&(_, &q)| q > 0 && d > 0)
            .map(|(r, q)| format!("R{}×{q}", r + 1))
            .collect();
        if !used.is_empty() {
            out += "  ";
            out += &used.join(" ");
        }
        out += "\n";
    }
    out
}
