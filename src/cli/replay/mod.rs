//! `--format html`: one self-contained page that replays a search of the
//! generic engine step by step (N-queens and Sudoku).
//!
//! [`Recorder`] is a [`SearchObserver`]: it follows the domains of the
//! puzzle's variables through the engine's events (`on_assign`, `on_prune`,
//! `on_fail`, `on_backtrack`, `on_solution`) and keeps one [`Step`] per
//! node of the search tree: the root, then every value tried. [`page`]
//! writes the steps as JSON into a page whose inline script draws the board,
//! the domains and the tree, with play / step / back controls. The page
//! loads nothing from anywhere: the CSS and the script are inline.

use std::fmt::Write as _;

use csp_core::{Model, Outcome, SearchObserver, Value, VarId};

pub mod teach;

/// The most nodes a page records. The search is stopped there (a node
/// limit), the page and stderr say so: a page of 2,000 steps is about
/// 2 MB for a 9×9 Sudoku.
pub const MAX_STEPS: usize = 2000;

/// The most domains a page records (steps times variables): bigger
/// puzzles get fewer steps (16×16 Sudoku: 781, 25×25: 320).
pub const MAX_DOMAINS: usize = 200_000;

/// The most nodes a page records for `vars` variables.
pub fn max_steps(vars: usize) -> usize {
    MAX_STEPS.min(MAX_DOMAINS / vars.max(1))
}

/// The largest domain the recorder follows (one bit per value).
pub const MAX_VALUES: usize = 64;

/// What is being searched: how to name variables and values, and which
/// pairs of assignments clash (to explain a failure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// N-queens: variable `r` is row `r`, its value the 0-based column.
    Queens {
        /// The board size.
        n: usize,
    },
    /// Sudoku: variable `r·n + c` is the cell, its value the digit.
    Sudoku {
        /// The side of a box (3 for 9×9).
        box_side: usize,
        /// The givens, row by row, 0 for a blank.
        givens: Vec<u8>,
    },
}

impl Puzzle {
    /// The number of variables shown.
    fn len(&self) -> usize {
        match self {
            Puzzle::Queens { n } => *n,
            Puzzle::Sudoku { givens, .. } => givens.len(),
        }
    }

    /// The number of values a variable may take (`1..=side` as shown).
    fn side(&self) -> usize {
        match self {
            Puzzle::Queens { n } => *n,
            Puzzle::Sudoku { box_side, .. } => box_side * box_side,
        }
    }

    /// The engine value of the shown value 1: queens count columns from 0.
    fn base(&self) -> Value {
        match self {
            Puzzle::Queens { .. } => 0,
            Puzzle::Sudoku { .. } => 1,
        }
    }

    /// The short name of variable `x` in the domains list: `q3`, `r3c5`.
    fn short(&self, x: usize) -> String {
        match self {
            Puzzle::Queens { .. } => format!("q{}", x + 1),
            Puzzle::Sudoku { .. } => {
                let n = self.side();
                format!("r{}c{}", x / n + 1, x % n + 1)
            }
        }
    }

    /// `row 3 := column 5 (e3)` or `r3c5 := 7` (values as shown, from 1;
    /// a queen's square also named as the terminal names it).
    fn assign(&self, x: usize, v: u32) -> String {
        match self {
            Puzzle::Queens { .. } => format!(
                "row {} := column {v} ({})",
                x + 1,
                csp_queens::render::square_name(x, v.saturating_sub(1))
            ),
            Puzzle::Sudoku { .. } => format!("{} := {v}", self.short(x)),
        }
    }

    /// The units in which every value must have a place: Sudoku's rows,
    /// columns and boxes (none for queens: forward checking does not look
    /// for a column's last place).
    fn units(&self) -> Vec<(String, Vec<usize>)> {
        let Puzzle::Sudoku { box_side: b, .. } = self else {
            return Vec::new();
        };
        let n = self.side();
        let mut units = Vec::new();
        for i in 0..n {
            units.push((
                format!("row {}", i + 1),
                (0..n).map(|c| i * n + c).collect(),
            ));
            units.push((
                format!("column {}", i + 1),
                (0..n).map(|r| r * n + i).collect(),
            ));
            let (r0, c0) = (i / b * b, i % b * b);
            let cells = (0..n).map(|j| (r0 + j / b) * n + c0 + j % b).collect();
            units.push((format!("box {}", i + 1), cells));
        }
        units
    }

    /// What a variable with an empty domain lacks.
    fn none_left(&self, x: usize) -> String {
        match self {
            Puzzle::Queens { .. } => format!("row {} has no column left", x + 1),
            Puzzle::Sudoku { .. } => format!("{} has no value left", self.short(x)),
        }
    }

    /// Why a decision clashes with `y = w` (shown values).
    fn clash_with(&self, y: usize, w: u32) -> String {
        match self {
            Puzzle::Queens { .. } => {
                format!("the queen on row {} (column {w}) attacks it", y + 1)
            }
            Puzzle::Sudoku { .. } => format!("{} already holds {w}", self.short(y)),
        }
    }

    /// The words for `count` values and `count` variables: `columns`,
    /// `rows` for queens, `candidates`, `cells` for Sudoku.
    fn words(&self, count: usize) -> (&'static str, &'static str) {
        match (self, count) {
            (Puzzle::Queens { .. }, 1) => ("column", "row"),
            (Puzzle::Queens { .. }, _) => ("columns", "rows"),
            (Puzzle::Sudoku { .. }, 1) => ("candidate", "cell"),
            (Puzzle::Sudoku { .. }, _) => ("candidates", "cells"),
        }
    }

    /// Do `x = v` and `y = w` (shown values) break a rule together?
    fn clash(&self, x: usize, v: u32, y: usize, w: u32) -> bool {
        if x == y {
            return false;
        }
        match self {
            Puzzle::Queens { .. } => v == w || v.abs_diff(w) as usize == x.abs_diff(y),
            Puzzle::Sudoku { box_side, .. } => {
                let n = self.side();
                let (rx, cx, ry, cy) = (x / n, x % n, y / n, y % n);
                let same_box = rx / box_side == ry / box_side && cx / box_side == cy / box_side;
                v == w && (rx == ry || cx == cy || same_box)
            }
        }
    }
}

/// What a node of the tree is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The root: the puzzle after the first propagation.
    Root,
    /// A value tried; propagation succeeded and the search went deeper.
    Choice,
    /// A value tried and refuted.
    Failure,
    /// Every variable has its value.
    Solution,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Root => "root",
            Kind::Choice => "choice",
            Kind::Failure => "failure",
            Kind::Solution => "solution",
        }
    }
}

/// One node of the search, as the page replays it.
#[derive(Clone, Debug)]
pub struct Step {
    /// The parent node (`None` for the root).
    pub parent: Option<usize>,
    /// Depth: decisions from the root.
    pub depth: usize,
    /// The decision `variable = value` (value shown from 1), not at the root.
    pub decision: Option<(usize, u32)>,
    /// What the node is.
    pub kind: Kind,
    /// Every variable's domain after the node's propagation, one bit per
    /// shown value (bit `k`: value `k + 1`). A failure shows the decision
    /// made and the emptied domain; the engine does not report what a
    /// failed propagation removed.
    pub domains: Vec<u64>,
    /// Variables that propagation fixed at this node (not decisions).
    pub forced: Vec<usize>,
    /// The variable whose domain ran dry, or that clashes with the decision.
    pub culprit: Option<usize>,
    /// Else, at a failure, a unit left without a place for a value
    /// (`no cell of row 3 can take 5`).
    pub reason: Option<String>,
    /// The variables of that unit.
    pub unit: Vec<usize>,
    /// What happened, in words.
    pub text: String,
    /// The rows holding a queen, when not the decisions on the path (a
    /// brute-force placement: every row; a local search: every row).
    pub decided: Option<Vec<usize>>,
    /// Two squares `(row, column shown from 1)` to join by a line: a queen
    /// refused and the queen that attacks it.
    pub line: Option<[(usize, u32); 2]>,
    /// A step of a local search: what the page shows besides the board.
    pub local: Option<Local>,
}

/// A step of a local search (min-conflicts, the genetic search).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    /// The row whose queen moved, and its column before (shown from 1).
    pub moved: Option<(usize, u32)>,
    /// For each column of that row, the queens of the other rows that
    /// attacked the square before the move.
    pub counts: Vec<usize>,
    /// The attacking pairs of the placement shown.
    pub pairs: usize,
}

impl Step {
    /// A node not closed yet: the root, or a choice until it fails or
    /// solves.
    fn new(parent: Option<usize>, depth: usize, decision: Option<(usize, u32)>) -> Step {
        Step {
            parent,
            depth,
            decision,
            kind: if decision.is_some() {
                Kind::Choice
            } else {
                Kind::Root
            },
            domains: Vec::new(),
            forced: Vec::new(),
            culprit: None,
            reason: None,
            unit: Vec::new(),
            text: String::new(),
            decided: None,
            line: None,
            local: None,
        }
    }
}

/// Why a decision failed: see [`Recorder::explain_failure`].
struct Why {
    /// The variable run dry, or a fixed one the decision clashes with.
    culprit: Option<usize>,
    /// Else a unit with no place left for a value: what, and its cells.
    reason: Option<String>,
    unit: Vec<usize>,
    /// The domains as the decision and forward checking left them.
    domains: Vec<u64>,
    /// The variables fixed on the way.
    forced: Vec<usize>,
}

/// A [`SearchObserver`] that records the steps of a search (see the module
/// documentation). Variables are the model's `vars` in the puzzle's order;
/// others (auxiliary variables) are ignored.
#[derive(Debug)]
pub struct Recorder {
    puzzle: Puzzle,
    /// The slot of a model variable (`usize::MAX`: not shown).
    slot: Vec<usize>,
    base: Value,
    /// Every domain now.
    domains: Vec<u64>,
    /// The domains at each node on the current path, by depth.
    saved: Vec<Vec<u64>>,
    /// The node ids on the current path, by depth.
    path: Vec<usize>,
    /// The variable decided at each depth on the current path (depth 1 first).
    decided: Vec<usize>,
    pending: Option<Step>,
    steps: Vec<Step>,
    /// Nodes met after the recording was full.
    dropped: u64,
    /// The most steps to record ([`max_steps`]).
    cap: usize,
    /// The units (`row 3`: its variables) in which every value needs a place.
    units: Vec<(String, Vec<usize>)>,
}

impl Recorder {
    /// A recorder for `puzzle`, whose variables are `vars` of `model`, with
    /// the initial domains taken from the model. Errors when a domain does
    /// not fit the puzzle's values.
    pub fn new(puzzle: Puzzle, model: &Model, vars: &[VarId]) -> Result<Recorder, String> {
        let side = puzzle.side();
        if puzzle.len() != vars.len() || side > MAX_VALUES {
            return Err(format!(
                "--format html shows boards with up to {MAX_VALUES} values per variable"
            ));
        }
        let base = puzzle.base();
        let mut slot = vec![usize::MAX; model.num_vars()];
        let mut domains = Vec::with_capacity(vars.len());
        for (i, &x) in vars.iter().enumerate() {
            slot[x.index()] = i;
            let mut bits = 0u64;
            for v in model.domain(x).iter() {
                let k = i64::from(v) - i64::from(base);
                if !(0..side as i64).contains(&k) {
                    return Err(format!("internal error: value {v} outside the board"));
                }
                bits |= 1 << k;
            }
            domains.push(bits);
        }
        Ok(Recorder {
            slot,
            base,
            saved: vec![domains.clone()],
            domains,
            path: Vec::new(),
            decided: Vec::new(),
            units: puzzle.units(),
            cap: max_steps(vars.len()),
            puzzle,
            pending: Some(Step::new(None, 0, None)),
            steps: Vec::new(),
            dropped: 0,
        })
    }

    /// The shown slot and value bit of an engine event, if shown.
    fn locate(&self, var: VarId, value: Value) -> Option<(usize, u32)> {
        let s = *self.slot.get(var.index())?;
        let k = i64::from(value) - i64::from(self.base);
        (s != usize::MAX && (0..self.puzzle.side() as i64).contains(&k)).then_some((s, k as u32))
    }

    /// The domains of the pending node's parent (the initial domains at
    /// the root).
    fn parent_domains(&self, depth: usize) -> &[u64] {
        let d = depth
            .saturating_sub(1)
            .min(self.saved.len().saturating_sub(1));
        &self.saved[d]
    }

    /// Completes the pending node: its forced variables, its text; keeps it
    /// (while there is room) and, unless it failed, puts it on the path.
    fn close(&mut self) {
        let Some(mut step) = self.pending.take() else {
            return;
        };
        let before = self.parent_domains(step.depth).to_vec();
        let decided = &self.decided[..step.depth.min(self.decided.len())];
        let mut domains = self.domains.clone();
        if step.kind == Kind::Failure {
            if let Some((x, v)) = step.decision {
                let why = self.explain_failure(&before, x, v);
                (step.culprit, step.reason, step.unit, domains, step.forced) =
                    (why.culprit, why.reason, why.unit, why.domains, why.forced);
                // A queen refused by a queen already fixed: the line of attack.
                if let (Puzzle::Queens { .. }, Some(y)) = (&self.puzzle, step.culprit) {
                    if before[y].count_ones() == 1 {
                        step.line = Some([(x, v), (y, before[y].trailing_zeros() + 1)]);
                    }
                }
            }
        } else {
            step.forced = (0..domains.len())
                .filter(|&y| {
                    !decided.contains(&y)
                        && domains[y].count_ones() == 1
                        && before[y].count_ones() > 1
                })
                .collect();
        }
        step.domains = domains;
        step.text = self.describe(&step, &before);
        let id = self.steps.len() + self.dropped as usize;
        if step.kind != Kind::Failure {
            self.saved.truncate(step.depth);
            self.saved.push(self.domains.clone());
            self.path.truncate(step.depth);
            self.path.push(id);
        }
        if self.steps.len() < self.cap {
            self.steps.push(step);
        } else {
            self.dropped += 1;
        }
    }

    /// Why `x = v` failed, worked out again from the parent's domains
    /// (the engine does not report what a failed propagation removed): a
    /// fixed variable the decision clashes with, else forward checking from
    /// the decision (a variable left with one value is fixed in turn) and,
    /// in Sudoku, hidden singles (a value with one place left in a row,
    /// column or box goes there), until a domain or a unit runs dry.
    fn explain_failure(&self, before: &[u64], x: usize, v: u32) -> Why {
        let p = &self.puzzle;
        let value = |d: u64| d.trailing_zeros() + 1;
        let mut why = Why {
            culprit: None,
            reason: None,
            unit: Vec::new(),
            domains: before.to_vec(),
            forced: Vec::new(),
        };
        let dom = &mut why.domains;
        dom[x] = 1 << (v - 1);
        why.culprit = (0..dom.len())
            .find(|&y| y != x && before[y].count_ones() == 1 && p.clash(x, v, y, value(before[y])));
        if why.culprit.is_some() {
            return why;
        }
        let mut queue = std::collections::VecDeque::from([x]);
        loop {
            // Forward checking from every variable newly fixed.
            while let Some(s) = queue.pop_front() {
                let w = value(dom[s]);
                for (y, d) in dom.iter_mut().enumerate() {
                    let mut keep = *d;
                    for k in 0..p.side() as u32 {
                        if keep >> k & 1 == 1 && p.clash(s, w, y, k + 1) {
                            keep &= !(1 << k);
                        }
                    }
                    if keep == *d {
                        continue;
                    }
                    *d = keep;
                    if keep == 0 {
                        why.forced.retain(|&f| f != y);
                        why.culprit = Some(y);
                        return why;
                    }
                    if keep.count_ones() == 1 {
                        why.forced.push(y);
                        queue.push_back(y);
                    }
                }
            }
            // Hidden singles: a value with one place left in a unit.
            for (name, unit) in &self.units {
                for k in 0..p.side() {
                    let mut places = unit.iter().filter(|&&y| dom[y] >> k & 1 == 1);
                    match (places.next(), places.next()) {
                        (None, _) => {
                            why.reason = Some(format!("no cell of {name} can take {}", k + 1));
                            why.unit = unit.clone();
                            return why;
                        }
                        (Some(&y), None) if dom[y].count_ones() > 1 => {
                            dom[y] = 1 << k;
                            why.forced.push(y);
                            queue.push_back(y);
                        }
                        _ => {}
                    }
                }
            }
            if queue.is_empty() {
                return why;
            }
        }
    }

    /// The node's line of text.
    fn describe(&self, step: &Step, before: &[u64]) -> String {
        let p = &self.puzzle;
        let head = match step.decision {
            Some((x, v)) => p.assign(x, v),
            None => "start: nothing decided yet".to_string(),
        };
        if step.kind == Kind::Failure {
            let why = match step.culprit {
                None if step.reason.is_some() => step.reason.clone().unwrap_or_default(),
                None if step.decision.is_none() => {
                    return "start: propagation empties a domain: no solution".to_string()
                }
                Some(y) if before[y].count_ones() == 1 => {
                    p.clash_with(y, before[y].trailing_zeros() + 1)
                }
                Some(y) => p.none_left(y),
                None => "propagation emptied a domain".to_string(),
            };
            let forced = self.forced_list(step);
            if forced.is_empty() {
                return format!("{head}; failure: {why}");
            }
            return format!("{head}; this forces {forced}; failure: {why}");
        }
        // What propagation did, the decision's own removals aside.
        let mut removed = 0;
        let mut touched = 0;
        for (y, (&b, &a)) in before.iter().zip(&step.domains).enumerate() {
            if step.decision.is_some_and(|(x, _)| x == y) {
                continue;
            }
            let gone = (b & !a).count_ones();
            removed += gone;
            touched += usize::from(gone > 0);
        }
        let mut s = head;
        if removed == 0 {
            if step.decision.is_some() {
                s.push_str("; propagation removes nothing");
            }
        } else {
            let _ = write!(
                s,
                "; propagation removes {removed} {} from {touched} {}",
                p.words(removed as usize).0,
                p.words(touched).1
            );
        }
        if !step.forced.is_empty() {
            let _ = write!(s, " and forces {}", self.forced_list(step));
        }
        if step.kind == Kind::Solution {
            s.push_str(" — solution");
        }
        s
    }

    /// `row 4 := column 2, row 6 := column 1` for the step's forced
    /// variables, the first six and how many more.
    fn forced_list(&self, step: &Step) -> String {
        const SHOWN: usize = 6;
        let mut list: Vec<String> = step
            .forced
            .iter()
            .take(SHOWN)
            .map(|&y| self.puzzle.assign(y, step.domains[y].trailing_zeros() + 1))
            .collect();
        if step.forced.len() > SHOWN {
            list.push(format!("and {} more", step.forced.len() - SHOWN));
        }
        list.join(", ")
    }

    /// Ends the recording after the search; `outcome` marks a root that
    /// failed (no solution found by propagation alone).
    pub fn finish(&mut self, outcome: Outcome) {
        if let Some(p) = &mut self.pending {
            if p.depth == 0 && outcome == Outcome::Unsatisfiable {
                p.kind = Kind::Failure;
            }
        }
        self.close();
    }

    /// The recorded steps.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// How many nodes the search met after the recording was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

impl SearchObserver for Recorder {
    fn on_assign(&mut self, var: VarId, value: Value, depth: usize) {
        self.close();
        let Some((x, k)) = self.locate(var, value) else {
            return;
        };
        // Back to the parent node's domains, then the decision.
        self.domains = self.parent_domains(depth).to_vec();
        self.saved.truncate(depth);
        self.decided.truncate(depth.saturating_sub(1));
        self.decided.push(x);
        self.domains[x] = 1 << k;
        let parent = self.path.get(depth.saturating_sub(1)).copied();
        self.path.truncate(depth);
        self.pending = Some(Step::new(parent, depth, Some((x, k + 1))));
    }

    fn on_prune(&mut self, var: VarId, value: Value) {
        if let Some((x, k)) = self.locate(var, value) {
            self.domains[x] &= !(1 << k);
        }
    }

    fn on_fail(&mut self, _var: VarId, _value: Value, _depth: usize) {
        if let Some(p) = &mut self.pending {
            p.kind = Kind::Failure;
        }
        self.close();
    }

    fn on_backtrack(&mut self, _var: VarId, _depth: usize) {
        self.close();
    }

    fn on_solution(&mut self, values: &[Value]) {
        for (v, s) in values.iter().zip(&self.slot) {
            if *s != usize::MAX {
                let k = i64::from(*v) - i64::from(self.base);
                if (0..64).contains(&k) {
                    self.domains[*s] = 1 << k;
                }
            }
        }
        if let Some(p) = &mut self.pending {
            p.kind = Kind::Solution;
        }
        self.close();
    }
}

/// The page's template, style and script (`src/cli/replay/`).
const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("replay.css");
const SCRIPT: &str = include_str!("replay.js");

/// `s` as a JSON string; `<` escaped too, so that no `</script>` can end
/// the data early (the explanation page uses it too).
pub(crate) fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("\\u003c"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `s` with the HTML special characters escaped.
pub(crate) fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn opt(x: Option<impl std::fmt::Display>) -> String {
    x.map_or_else(|| "null".to_string(), |x| x.to_string())
}

/// What the page says about the whole search.
#[derive(Clone, Debug, Default)]
pub struct About {
    /// The heading: the puzzle and the search's settings.
    pub title: String,
    /// How the search ended: `a solution, at step 42`, `no solution: …`.
    pub result: String,
    /// Why the page is incomplete, when it is.
    pub note: Option<String>,
    /// The legend under the board, when not the puzzle's usual one.
    pub legend: Option<String>,
    /// A local search's page: its figures, one a step, charted in place of
    /// the tree (named series: `attacking pairs`, or `best` and `mean`).
    pub chart: Vec<(String, Vec<f64>)>,
}

/// The recorded search as JSON (the page's `search-data`), one step a line.
pub fn to_json(about: &About, puzzle: &Puzzle, steps: &[Step]) -> String {
    let mut s = String::new();
    let (name, box_side, givens) = match puzzle {
        Puzzle::Queens { .. } => ("queens", None, None),
        Puzzle::Sudoku { box_side, givens } => ("sudoku", Some(*box_side), Some(givens)),
    };
    let names: Vec<String> = (0..puzzle.len())
        .map(|x| json_str(&puzzle.short(x)))
        .collect();
    let chart: Vec<String> = about
        .chart
        .iter()
        .map(|(name, values)| {
            let v: Vec<String> = values.iter().map(|x| format!("{x}")).collect();
            format!(
                "{{\"name\":{},\"values\":[{}]}}",
                json_str(name),
                v.join(",")
            )
        })
        .collect();
    let _ = write!(
        s,
        "{{\"puzzle\":\"{name}\",\"view\":\"{}\",\"side\":{},\"box\":{},\"title\":{},\"result\":{},\"note\":{},\n\"chart\":[{}],\n\"names\":[{}],\n\"givens\":{},\n\"steps\":[",
        if about.chart.is_empty() { "tree" } else { "local" },
        puzzle.side(),
        opt(box_side),
        json_str(&about.title),
        json_str(&about.result),
        opt(about.note.as_deref().map(json_str)),
        chart.join(","),
        names.join(","),
        givens.map_or_else(
            || "null".to_string(),
            |g| format!("[{}]", g.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
        ),
    );
    for (k, st) in steps.iter().enumerate() {
        let dom: Vec<String> = st
            .domains
            .iter()
            .map(|&d| {
                let vals: Vec<String> = (0..64u32)
                    .filter(|b| d >> b & 1 == 1)
                    .map(|b| (b + 1).to_string())
                    .collect();
                format!("[{}]", vals.join(","))
            })
            .collect();
        let forced: Vec<String> = st.forced.iter().map(usize::to_string).collect();
        let _ = write!(
            s,
            "{}\n{{\"id\":{k},\"parent\":{},\"depth\":{},\"var\":{},\"value\":{},\"kind\":\"{}\",\"dom\":[{}],\"forced\":[{}],\"culprit\":{},\"unit\":[{}],\"text\":{}}}",
            if k > 0 { "," } else { "" },
            opt(st.parent),
            st.depth,
            opt(st.decision.map(|d| d.0)),
            opt(st.decision.map(|d| d.1)),
            st.kind.name(),
            dom.join(","),
            forced.join(","),
            opt(st.culprit),
            st.unit
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(","),
            json_str(&st.text),
        );
        // The optional fields, before the closing brace.
        s.pop();
        if let Some(d) = &st.decided {
            let d: Vec<String> = d.iter().map(usize::to_string).collect();
            let _ = write!(s, ",\"decided\":[{}]", d.join(","));
        }
        if let Some([(r1, c1), (r2, c2)]) = st.line {
            let _ = write!(s, ",\"line\":[[{r1},{c1}],[{r2},{c2}]]");
        }
        if let Some(l) = &st.local {
            let counts: Vec<String> = l.counts.iter().map(usize::to_string).collect();
            let _ = write!(
                s,
                ",\"moved\":{},\"from\":{},\"counts\":[{}],\"pairs\":{}",
                opt(l.moved.map(|m| m.0)),
                opt(l.moved.map(|m| m.1)),
                counts.join(","),
                l.pairs
            );
        }
        s.push('}');
    }
    s.push_str("\n]}");
    s
}

/// The whole page: the template with the style, the script, the legend and
/// the data inlined.
pub fn page(about: &About, puzzle: &Puzzle, steps: &[Step]) -> String {
    let legend = match puzzle {
        Puzzle::Queens { .. } => {
            "A queen in a row decided by the search is dark, one forced by propagation green; \
             dots mark the columns still open to the other rows. In the tree: circles are \
             choices, red squares failures, green diamonds solutions."
        }
        Puzzle::Sudoku { .. } => {
            "Givens in bold, decisions of the search blue, cells fixed by propagation green; \
             small digits are the candidates left in open cells. At a failure, the cell left \
             with no value is red, a row, column or box left without a place for a value \
             yellow. In the tree: circles are choices, red squares failures, green diamonds \
             solutions."
        }
    };
    let legend = about.legend.as_deref().unwrap_or(legend);
    let puzzle_class = match puzzle {
        Puzzle::Queens { .. } => "queens",
        Puzzle::Sudoku { .. } => "sudoku",
    };
    // Substituted in this order, so that nothing inserted is scanned again
    // for a placeholder except by the later, fixed ones.
    TEMPLATE
        .replace("{{TITLE}}", &html_escape(&about.title))
        .replace("{{PUZZLE}}", puzzle_class)
        .replace("{{LEGEND}}", legend)
        .replace("{{CSS}}", STYLE)
        .replace("{{JS}}", SCRIPT)
        .replace("{{DATA}}", &to_json(about, puzzle, steps))
}

/// What [`record`] found, besides the page it wrote.
pub struct Recorded {
    /// The engine's counters.
    pub stats: csp_core::Statistics,
    /// Why the page is incomplete, when it is (also on the page and, by the
    /// caller, on stderr).
    pub note: Option<String>,
}

/// Runs the search of `model` (with `options`, to the first solution or,
/// with `all`, to the end) under a [`Recorder`], and writes the page to
/// stdout. The search stops after [`max_steps`] nodes at most.
pub fn record(
    puzzle: Puzzle,
    title: &str,
    model: &Model,
    vars: &[VarId],
    mut options: csp_core::SearchOptions,
    all: bool,
) -> Result<Recorded, super::CliError> {
    use std::ops::ControlFlow;
    let row_by_row = options.var_order != csp_core::VarOrder::Mrv;
    let mut rec = Recorder::new(puzzle, model, vars)?;
    let steps = rec.cap;
    let cap = steps as u64;
    options.limits.nodes = Some(options.limits.nodes.map_or(cap, |n| n.min(cap)));
    let mut search = csp_core::Search::new(model)
        .options(options)
        .observer(&mut rec);
    let (solutions, outcome, stats) = if all {
        let r = search
            .for_each_solution(|_| ControlFlow::Continue(()))
            .map_err(|e| e.to_string())?;
        (r.count, r.outcome, r.stats)
    } else {
        let r = search.solve().map_err(|e| e.to_string())?;
        (u128::from(r.solution.is_some()), r.outcome, r.stats)
    };
    rec.finish(outcome);
    let note = match outcome {
        Outcome::Invalid(c) => {
            return Err(format!(
                "engine error: a solution that violates constraint {c} was let through"
            ))
        }
        Outcome::LimitReached(csp_core::Limit::Nodes) => Some(format!(
            "the page records at most {steps} nodes: the search was stopped there, \
             before it finished{}",
            // Row by row, a large board's first solution lies deep in the
            // tree; the smallest domain first reaches one in a few nodes.
            if solutions == 0 && row_by_row && matches!(rec.puzzle, Puzzle::Queens { .. }) {
                "; --var-order mrv (the row with the fewest columns first) reaches a solution in far fewer nodes"
            } else {
                ""
            }
        )),
        Outcome::LimitReached(l) => Some(format!(
            "the search was stopped by the {l}",
            l = super::Stop(l)
        )),
        _ if rec.dropped() > 0 => Some(format!(
            "the page shows the first {steps} of {} nodes",
            cap + rec.dropped()
        )),
        _ => None,
    };
    let first = rec.steps().iter().position(|s| s.kind == Kind::Solution);
    let at = |lead: &str| first.map_or_else(String::new, |k| format!("{lead} step {k}"));
    let stopped = if note.is_some() {
        " found before the search was stopped"
    } else {
        ""
    };
    let result = match solutions {
        0 if note.is_none() => "no solution: every branch fails".to_string(),
        0 => "no solution found before the search was stopped".to_string(),
        1 if !all => format!("a solution{stopped}{}", at(", at")),
        1 => format!("1 solution{stopped}{}", at(", at")),
        k => format!("{k} solutions{stopped}{}", at(", the first at")),
    };
    let about = About {
        title: title.to_string(),
        result,
        note: note.clone(),
        ..About::default()
    };
    write_page(&about, &rec.puzzle, rec.steps())?;
    Ok(Recorded { stats, note })
}

/// Writes the page of `steps` to stdout.
pub fn write_page(about: &About, puzzle: &Puzzle, steps: &[Step]) -> Result<(), super::CliError> {
    use std::io::Write as _;
    let html = page(about, puzzle, steps);
    let mut out = super::output::stdout();
    out.write_all(html.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| format!("writing the page: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Inference, Search, SearchOptions, VarOrder};

    #[test]
    fn json_strings_are_escaped_and_cannot_end_the_script() {
        assert_eq!(json_str("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(json_str("</script>"), r#""\u003c/script>""#);
        assert_eq!(json_str("tab\there"), r#""tab\u0009here""#);
        assert_eq!(html_escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }

    #[test]
    fn four_queens_with_forward_checking() {
        let q =
            csp_queens::model::queens_model(4, csp_queens::model::ModelKind::AllDifferent).unwrap();
        let mut rec = Recorder::new(Puzzle::Queens { n: 4 }, &q.model, &q.rows).unwrap();
        let r = Search::new(&q.model)
            .options(SearchOptions {
                inference: Inference::ForwardChecking,
                var_order: VarOrder::Input,
                learning: false, // measured with the ordinary engine
                ..Default::default()
            })
            .observer(&mut rec)
            .solve()
            .unwrap();
        rec.finish(r.outcome);
        let kinds: Vec<Kind> = rec.steps().iter().map(|s| s.kind).collect();
        use Kind::*;
        assert_eq!(kinds, [Root, Choice, Failure, Failure, Solution]);
        let parents: Vec<Option<usize>> = rec.steps().iter().map(|s| s.parent).collect();
        assert_eq!(parents, [None, Some(0), Some(1), Some(1), Some(0)]);
        let s = &rec.steps()[1];
        assert_eq!(s.domains, [0b0001, 0b1100, 0b1010, 0b0110]);
        assert_eq!(
            s.text,
            "row 1 := column 1 (a1); propagation removes 6 columns from 3 rows"
        );
        let s = &rec.steps()[2];
        assert_eq!((s.culprit, s.domains[2]), (Some(2), 0));
        assert_eq!(
            s.text,
            "row 2 := column 3 (c2); failure: row 3 has no column left"
        );
        let s = &rec.steps()[4];
        assert_eq!(s.forced, [1, 2, 3]);
        assert!(
            s.text.ends_with("row 4 := column 3 (c4) — solution"),
            "{}",
            s.text
        );
        let json = to_json(&About::default(), &rec.puzzle, rec.steps());
        assert_eq!(json.matches("\n{\"id\":").count(), 5);
    }

    #[test]
    fn a_sudoku_failure_by_a_unit_without_a_place() {
        let grid = csp_sudoku::Grid::empty(2).unwrap();
        let (m, cells) = csp_sudoku::model::model(&grid);
        let puzzle = Puzzle::Sudoku {
            box_side: 2,
            givens: vec![0; 16],
        };
        let rec = Recorder::new(puzzle, &m, &cells.concat()).unwrap();
        // r1c2..r1c4 cannot take 2; r1c1 := 1 leaves 2 no place in row 1.
        let mut before = vec![0b1111u64; 16];
        before[..4].copy_from_slice(&[0b0011, 0b1101, 0b1101, 0b1100]);
        let why = rec.explain_failure(&before, 0, 1);
        assert_eq!(why.reason.as_deref(), Some("no cell of row 1 can take 2"));
        assert_eq!((why.culprit, why.unit), (None, vec![0, 1, 2, 3]));
        // r1c1 := 1 next to a fixed r1c2 = 1: a clash.
        before[1] = 0b0001;
        let why = rec.explain_failure(&before, 0, 1);
        assert_eq!(why.culprit, Some(1));
        assert_eq!(rec.puzzle.clash_with(1, 1), "r1c2 already holds 1");
    }
}
