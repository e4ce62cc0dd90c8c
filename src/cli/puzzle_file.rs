//! What the subcommands for a file of pencil puzzles share (`csp futoshiki`,
//! `csp kakuro`, `csp nonogram`, `csp minesweeper`, `csp latin`): solve or
//! count each puzzle, check each solution with the example's independent
//! checker before printing it, say so when a puzzle has several solutions
//! (two of them) or none (the givens that cannot hold together, and why),
//! report limits; and the hint modes `--hint`, `--explain`, `--rate` over
//! the generic step-wise explanations of `csp_core::hints`.

use std::process::ExitCode;

use csp_core::hints::{self, End, Next, Step};
use csp_core::{ConstraintId, Literal, Model, ModelError, Outcome, Search, SearchOptions, VarId};

use super::minizinc::json_string as js;
use super::puzzles::EngineArgs;
use super::sudoku_hints::page;
use super::{CliError, Status};

/// Builds the model of a puzzle and the variables of its solution.
pub type ModelFn<'a, P> = &'a dyn Fn(&P) -> Result<(Model, Vec<VarId>), ModelError>;

/// The model of a puzzle for hints: the rules with named cells, the givens
/// as facts, and names for people of the constraints.
pub struct HintModel {
    /// The rules, cells named `r1c1`…
    pub model: Model,
    /// The givens, as facts (`r1c1 = 3`).
    pub facts: Vec<Literal>,
    /// `labels[c]`: what a person calls constraint `c` ("row 3", "column 5
    /// clue 2 1", "the 3 at r2c4"); an empty label (or none) prints the
    /// constraint's kind and number (`all-different (c2)`).
    pub labels: Vec<String>,
    /// For puzzles of 0/1 cells, the names of 0 and 1 (`["white",
    /// "black"]`): a fact `x ≠ 1` then reads `x = white`.
    pub values: Option<[&'static str; 2]>,
}

impl HintModel {
    /// A model with a label for each constraint.
    pub fn labelled((model, facts, labels): (Model, Vec<Literal>, Vec<String>)) -> HintModel {
        HintModel {
            model,
            facts,
            labels,
            values: None,
        }
    }

    /// The kinds of the constraints a step uses (`linear + all-different`),
    /// where a Sudoku step names its technique.
    fn kinds(&self, s: &Step) -> String {
        let mut kinds: Vec<&str> = s
            .constraints
            .iter()
            .map(|&c| self.model.constraint(c).name())
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds.join(" + ")
    }

    /// The constraint's name for people.
    fn label(&self, c: ConstraintId) -> String {
        match self.labels.get(c.index()) {
            Some(l) if !l.is_empty() => l.clone(),
            _ => format!("{} ({c})", self.model.constraint(c).name()),
        }
    }

    /// A 0/1 literal as a placement (`x ≠ 1` is `x = 0`).
    fn normal(&self, l: Literal) -> Literal {
        let boolean = self.boolean(l.var());
        match l {
            Literal::Ne(x, v) if boolean => Literal::Eq(x, 1 - v),
            Literal::Ge(x, 1) if boolean => Literal::Eq(x, 1),
            Literal::Le(x, 0) if boolean => Literal::Eq(x, 0),
            l => l,
        }
    }

    /// Is `x` a 0/1 cell with named values?
    fn boolean(&self, x: VarId) -> bool {
        self.values.is_some() && {
            let d = self.model.domain(x);
            d.min() == Some(0) && d.max() == Some(1)
        }
    }

    /// A literal for people: `r1c2 = 3`, `r1c2 ≠ 3`, `r3c5 = black`.
    pub fn show(&self, l: Literal) -> String {
        let l = self.normal(l);
        let name = self.model.display_name(l.var());
        match (self.values, l) {
            (Some(names), Literal::Eq(x, v)) if self.boolean(x) && (0..=1).contains(&v) => {
                format!("{name} = {}", names[v as usize])
            }
            _ => l.display_with(|x| self.model.display_name(x)).to_string(),
        }
    }

    /// A literal in HoDoKu's notation: `r1c2=3` or `r1c2<>3`.
    fn notation(&self, l: Literal) -> String {
        let l = self.normal(l);
        let name = self.model.display_name(l.var());
        match l {
            Literal::Eq(_, v) => format!("{name}={v}"),
            Literal::Ne(_, v) => format!("{name}<>{v}"),
            Literal::Ge(_, v) => format!("{name}>={v}"),
            Literal::Le(_, v) => format!("{name}<={v}"),
        }
    }

    /// A step as one sentence: the fact, the constraints, the premises.
    pub fn sentence(&self, s: &Step) -> String {
        if self.labels.is_empty() {
            return s.to_string();
        }
        let cs: Vec<String> = s.constraints.iter().map(|&c| self.label(c)).collect();
        let mut out = format!("{} by {}", self.show(s.deduction), cs.join(" and "));
        if !s.premises.is_empty() {
            let p: Vec<String> = s.premises.iter().map(|&l| self.show(l)).collect();
            out.push_str(&format!(" from {}", p.join(", ")));
        }
        out
    }

    /// Where a cell named `r3c5` (row 3, column 5) or, on a chessboard,
    /// `e3` (file e, rank 3, rank 1 at the bottom) stands: `(row, column)`
    /// from 0, by variable; `None` for a variable of another name (a
    /// count, an auxiliary).
    fn positions(&self) -> Vec<Option<(usize, usize)>> {
        let names: Vec<String> = self
            .model
            .vars()
            .map(|x| self.model.display_name(x))
            .collect();
        let number = |t: &str| t.parse::<usize>().ok().filter(|&k| k > 0);
        let grid = |n: &str| {
            let (r, c) = n.strip_prefix('r')?.split_once('c')?;
            Some((number(r)? - 1, number(c)? - 1))
        };
        let chess = |n: &str| {
            let file = n.chars().next().filter(char::is_ascii_lowercase)?;
            Some((number(&n[1..])?, file as usize - 'a' as usize))
        };
        if names.iter().any(|n| grid(n).is_some()) {
            return names.iter().map(|n| grid(n)).collect();
        }
        let squares: Vec<Option<(usize, usize)>> = names.iter().map(|n| chess(n)).collect();
        let top = squares.iter().flatten().map(|&(rank, _)| rank).max();
        squares
            .into_iter()
            .map(|sq| sq.map(|(rank, file)| (top.unwrap_or(rank) - rank, file)))
            .collect()
    }

    /// A value as the board shows it: the number, or for a 0/1 cell with
    /// named values `#` (black), `*` (mine), `Q` (queen), `-` for 0.
    fn symbol(&self, x: VarId, v: i32) -> String {
        match self.values {
            Some(names) if self.boolean(x) => match (v, names[1]) {
                (0, _) => "-".to_string(),
                (_, "black") => "#".to_string(),
                (_, "mine") => "*".to_string(),
                (_, name) => name
                    .chars()
                    .next()
                    .map_or("1".to_string(), |c| c.to_ascii_uppercase().to_string()),
            },
            _ => v.to_string(),
        }
    }

    /// The board of a `--hint` step from the givens, the cells it involves
    /// marked: `(v)` the value a cell is given, `<.>` a cell that loses a
    /// value, `[.]` a cell of the constraints used or of the premises;
    /// the others show their given value (`-` for a 0/1 cell at 0) or `.`;
    /// `#` stands where there is no cell (a Kakuro clue). A legend
    /// follows. `None` when the cells are not named as a grid.
    pub fn marked_board(&self, s: &Step) -> Option<String> {
        let at = self.positions();
        let rows = at.iter().flatten().map(|&(r, _)| r + 1).max()?;
        let cols = at.iter().flatten().map(|&(_, c)| c + 1).max()?;
        if rows * cols > 10_000 {
            return None;
        }
        let mut cell: Vec<Option<VarId>> = vec![None; rows * cols];
        for (x, p) in self.model.vars().zip(&at) {
            if let Some((r, c)) = p {
                cell[r * cols + c] = Some(x);
            }
        }
        let mut known = std::collections::HashMap::new();
        for &f in &self.facts {
            if let Literal::Eq(x, v) = self.normal(f) {
                known.insert(x, v);
            }
        }
        let mut used = std::collections::HashSet::new();
        for &c in &s.constraints {
            used.extend(self.model.constraint(c).scope().iter().copied());
        }
        used.extend(s.premises.iter().map(|l| l.var()));
        let d = self.normal(s.deduction);
        let shown = |x: VarId| {
            known
                .get(&x)
                .map_or(".".to_string(), |&v| self.symbol(x, v))
        };
        let mut texts = Vec::with_capacity(cell.len());
        for &x in &cell {
            let t = match x {
                None => (' ', "#".to_string(), ' '),
                Some(x) if x == d.var() => match d {
                    Literal::Eq(_, v) => ('(', self.symbol(x, v), ')'),
                    _ => ('<', shown(x), '>'),
                },
                Some(x) if used.contains(&x) => ('[', shown(x), ']'),
                Some(x) => (' ', shown(x), ' '),
            };
            texts.push(t);
        }
        let width = texts.iter().map(|t| t.1.chars().count()).max().unwrap_or(1);
        let mut out = String::new();
        for r in 0..rows {
            let mut line = String::new();
            for (open, t, close) in &texts[r * cols..(r + 1) * cols] {
                line.push_str(&format!("{open}{t:>width$}{close}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let mut legend = Vec::new();
        match d {
            Literal::Eq(..) => legend.push("(v) concluded here"),
            _ => legend.push("<.> loses a value"),
        }
        if texts.iter().any(|t| t.0 == '[') {
            legend.push("[.] the cells of the rules and premises used");
        }
        out.push_str(&legend.join(", "));
        Some(out)
    }

    /// The board of the explanation page, and its positions: the start,
    /// one per step of `seq` (the state before it, the step marked), and
    /// the end (its text left to the caller). A cell's values are its
    /// domain in the model; the state is the givens and the steps'
    /// deductions so far, applied to the domains as they are written
    /// (no propagation).
    fn page(&self, seq: &hints::Sequence) -> Result<(page::Board, Vec<page::Position>), CliError> {
        let at = self.positions();
        let no_grid = || "the cells of this puzzle are not named as a grid: no page".to_string();
        let rows = at
            .iter()
            .flatten()
            .map(|&(r, _)| r + 1)
            .max()
            .ok_or_else(no_grid)?;
        let cols = at
            .iter()
            .flatten()
            .map(|&(_, c)| c + 1)
            .max()
            .ok_or_else(no_grid)?;
        if rows * cols > 10_000 {
            return Err(format!("a board of {rows}×{cols} is too large for a page"));
        }
        let mut var: Vec<Option<VarId>> = vec![None; rows * cols];
        for (x, p) in self.model.vars().zip(&at) {
            if let Some((r, c)) = p {
                var[r * cols + c] = Some(x);
            }
        }
        let cell_of = |x: VarId| {
            at.get(x.index())
                .copied()
                .flatten()
                .map(|(r, c)| r * cols + c)
        };
        let domains: Vec<Vec<i32>> = var
            .iter()
            .map(|x| x.map_or_else(Vec::new, |x| self.model.domain(x).iter().collect()))
            .collect();
        if let Some(c) = (0..var.len()).find(|&c| domains[c].len() > page::MAX_SLOTS) {
            return Err(format!(
                "{} may take {} values: the page draws cells of at most {}",
                var[c].map_or(String::new(), |x| self.model.display_name(x)),
                domains[c].len(),
                page::MAX_SLOTS
            ));
        }
        let slots: Vec<Vec<String>> = var
            .iter()
            .zip(&domains)
            .map(|(x, vs)| {
                x.map_or_else(Vec::new, |x| {
                    vs.iter().map(|&v| self.symbol(x, v)).collect()
                })
            })
            .collect();
        // The state: bit s for the s-th value (from 1) still possible.
        let mut mask: Vec<u32> = domains
            .iter()
            .map(|vs| ((1u32 << vs.len()) - 1) << 1)
            .collect();
        let slot = |c: usize, v: i32| {
            domains[c]
                .iter()
                .position(|&w| w == v)
                .map(|i| i as u32 + 1)
        };
        let apply = |mask: &mut Vec<u32>, l: Literal| {
            let Some(c) = cell_of(l.var()) else { return };
            for (i, &w) in domains[c].iter().enumerate() {
                let keep = match l {
                    Literal::Eq(_, v) => w == v,
                    Literal::Ne(_, v) => w != v,
                    Literal::Ge(_, v) => w >= v,
                    Literal::Le(_, v) => w <= v,
                };
                if !keep {
                    mask[c] &= !(1 << (i + 1));
                }
            }
        };
        for &f in &self.facts {
            apply(&mut mask, f);
        }
        let single = |m: u32| m.count_ones() == 1;
        let givens: Vec<bool> = mask
            .iter()
            .zip(&var)
            .map(|(&m, x)| x.is_some() && single(m))
            .collect();
        let snapshot = |mask: &[u32], kind: &'static str, text: String| {
            page::Position::new(
                kind,
                mask.iter()
                    .map(|&m| if single(m) { m.trailing_zeros() } else { 0 })
                    .collect(),
                mask.iter()
                    .map(|&m| if single(m) { 0 } else { m })
                    .collect(),
                vec![text],
            )
        };
        let open = mask
            .iter()
            .zip(&var)
            .filter(|(&m, x)| x.is_some() && !single(m))
            .count();
        let mut positions = vec![snapshot(
            &mask,
            "start",
            format!(
                "The puzzle: {} cells known, {open} open, each open cell showing the values it may \
                 still take. Step through the {} steps with the buttons or the arrow keys.",
                givens.iter().filter(|&&g| g).count(),
                seq.steps.len()
            ),
        )];
        for (k, s) in seq.steps.iter().enumerate() {
            let mut p = snapshot(&mask, "step", format!("{}. {}", k + 1, self.sentence(s)));
            p.technique = Some((self.kinds(s), String::new(), String::new()));
            let d = self.normal(s.deduction);
            if let Some(c) = cell_of(d.var()) {
                match d {
                    Literal::Eq(_, v) => {
                        p.placements = slot(c, v).map(|i| (c, i)).into_iter().collect()
                    }
                    _ => {
                        let mut after = mask.clone();
                        apply(&mut after, d);
                        let gone = mask[c] & !after[c];
                        p.eliminations = (1..=domains[c].len() as u32)
                            .filter(|&i| gone & (1 << i) != 0)
                            .map(|i| (c, i))
                            .collect();
                    }
                }
            }
            let mut cells: Vec<usize> =
                s.premises.iter().filter_map(|l| cell_of(l.var())).collect();
            for &c in &s.constraints {
                cells.extend(
                    self.model
                        .constraint(c)
                        .scope()
                        .iter()
                        .filter_map(|&x| cell_of(x)),
                );
            }
            cells.sort_unstable();
            cells.dedup();
            p.cells = cells;
            positions.push(p);
            apply(&mut mask, d);
        }
        positions.push(snapshot(&mask, "end", String::new()));
        let board = page::Board {
            rows,
            cols,
            box_side: 0,
            names: var
                .iter()
                .map(|x| x.map(|x| self.model.display_name(x)))
                .collect(),
            slots,
            givens,
        };
        Ok((board, positions))
    }

    /// A step as one JSON object (JSON Lines, see docs/hints.md).
    fn step_json(&self, puzzle: usize, k: usize, s: &Step) -> String {
        let d = self.normal(s.deduction);
        let (placements, eliminations) = match d {
            Literal::Eq(..) => (vec![self.notation(d)], vec![]),
            _ => (vec![], vec![self.notation(d)]),
        };
        let premises: Vec<String> = s.premises.iter().map(|&l| self.notation(l)).collect();
        let constraints: Vec<String> = s.constraints.iter().map(|&c| self.label(c)).collect();
        format!(
            "{{\"puzzle\": {puzzle}, \"step\": {k}, \"technique\": {}, \"placements\": {}, \"eliminations\": {}, \"premises\": {}, \"constraints\": {}, \"cost\": [{}, {}, {}], \"text\": {}}}",
            js(&self.kinds(s)),
            strings(&placements),
            strings(&eliminations),
            strings(&premises),
            strings(&constraints),
            s.cost.constraints,
            s.cost.premises,
            s.cost.weight,
            js(&self.sentence(s))
        )
    }

    /// The explanation of a contradiction, one line per step, with the
    /// constraints' labels.
    fn explanation_lines(&self, e: &csp_core::explain::Explanation) -> Vec<String> {
        let refs = |ks: &[usize]| {
            ks.iter()
                .map(|k| format!("[{}]", k + 1))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let labels = |cs: &[ConstraintId]| {
            cs.iter()
                .map(|&c| self.label(c))
                .collect::<Vec<_>>()
                .join(" and ")
        };
        let mut out = Vec::new();
        for (k, s) in e.steps.iter().enumerate() {
            let why = match &s.by {
                csp_core::explain::By::Given => "given".to_string(),
                csp_core::explain::By::Decision => "decision".to_string(),
                csp_core::explain::By::Bound => "objective bound".to_string(),
                csp_core::explain::By::Constraints(cs) if s.from.is_empty() => {
                    format!("by {}", labels(cs))
                }
                csp_core::explain::By::Constraints(cs) => {
                    format!("by {} from {}", labels(cs), refs(&s.from))
                }
            };
            out.push(format!("[{}] {}  {why}", k + 1, self.show(s.lit)));
        }
        if let Some((cs, from)) = &e.contradiction {
            let mut l = format!("contradiction: {}", labels(cs));
            if !from.is_empty() {
                l.push_str(&format!(" from {}", refs(from)));
            }
            out.push(l);
        }
        out
    }

    /// The explanation of the contradiction propagation finds from the
    /// facts, one line per step; `None` if it finds none.
    pub fn contradiction(&self) -> Option<Vec<String>> {
        let mut ex = csp_core::Explainer::new(&self.model);
        for &l in &self.facts {
            if let Err(csp_core::explain::Failed::Conflict(e)) = ex.given(l) {
                return Some(self.explanation_lines(&e));
            }
        }
        match ex.propagate() {
            Err(csp_core::explain::Failed::Conflict(e)) => Some(self.explanation_lines(&e)),
            _ => None,
        }
    }

    /// A minimal set of the givens that cannot hold together and the
    /// explanation of their contradiction (`csp_core::hints::why_no_solution`),
    /// or `None` if the givens alone are not refuted within the budget.
    pub fn conflict(&self) -> Option<Conflict> {
        let why =
            hints::why_no_solution(&self.model, &self.facts, &hints::Options::default()).ok()??;
        Some(Conflict {
            givens: why.conflict.iter().map(|&l| self.notation(l)).collect(),
            shown: Some(
                why.conflict
                    .iter()
                    .map(|&l| match self.boolean(l.var()) {
                        true => self.show(l),
                        false => self.notation(l),
                    })
                    .collect(),
            ),
            explanation: why
                .explanation
                .map(|e| self.explanation_lines(&e))
                .unwrap_or_default(),
        })
    }
}

/// Why a puzzle has no solution: a minimal set of its givens that cannot
/// hold together, and how propagation refutes them.
#[derive(Clone, Debug, Default)]
pub struct Conflict {
    /// The givens (`r1c2=5`, or for clues, their names).
    pub givens: Vec<String>,
    /// The givens as the text output shows them, when not as `givens`
    /// (`b1 = queen` for `b1=1`).
    pub shown: Option<Vec<String>>,
    /// The explanation, one line per step.
    pub explanation: Vec<String>,
}

impl Conflict {
    /// Prints the conflict as text (after `no solution`) or as one JSON
    /// object.
    pub fn print(found: Option<&Conflict>, puzzle: usize, json: bool) {
        if json {
            let empty = Conflict::default();
            let c = found.unwrap_or(&empty);
            outln!(
                "{{\"puzzle\": {puzzle}, \"solutions\": 0, \"conflict\": {}, \"explanation\": {}}}",
                strings(&c.givens),
                strings(&c.explanation)
            );
            return;
        }
        for l in Conflict::lines(found) {
            outln!("{l}");
        }
    }

    /// The text of [`Conflict::print`]: the first line, then the
    /// explanation indented.
    pub fn lines(found: Option<&Conflict>) -> Vec<String> {
        let mut out = Vec::new();
        match found {
            Some(c) if c.givens.is_empty() => {
                out.push("no solution: the rules alone cannot hold together".to_string());
                out.extend(c.explanation.iter().map(|l| format!("  {l}")));
            }
            Some(c) => {
                out.push(format!(
                    "no solution: these givens cannot hold together: {}",
                    c.shown.as_ref().unwrap_or(&c.givens).join(", ")
                ));
                out.extend(c.explanation.iter().map(|l| format!("  {l}")));
                if c.explanation.is_empty() {
                    out.push("  (propagation alone does not refute them: a search finds no solution with them)".to_string());
                }
            }
            None => out.push("no solution".to_string()),
        }
        out
    }
}

/// `--explain --format html` writes one page: refuses an input of several
/// puzzles.
pub fn one_page(a: &HintArgs, name: &str, puzzles: usize) -> Result<(), CliError> {
    if a.html() && puzzles != 1 {
        return Err(format!(
            "--explain --format html writes a page for one puzzle, and {name} holds {puzzles}: \
             give a file of one"
        ));
    }
    Ok(())
}

/// Prints a puzzle's two solutions (text) or one JSON object.
pub fn print_several(puzzle: usize, first: &str, second: &str, json: bool) {
    if json {
        outln!(
            "{{\"puzzle\": {puzzle}, \"solutions\": 2, \"examples\": [{}, {}]}}",
            js(first),
            js(second)
        );
    } else {
        outln!("more than one solution; two of them:");
        out!("{first}");
        outln!();
        out!("{second}");
    }
}

fn strings(v: &[String]) -> String {
    let items: Vec<String> = v.iter().map(|s| js(s)).collect();
    format!("[{}]", items.join(", "))
}

/// A puzzle's difficulty level from its hardest step (see docs/hints.md):
/// the number of constraints the hardest step uses.
fn level(d: &hints::Difficulty, end: &End) -> &'static str {
    match end {
        End::SearchNeeded { .. } => "search",
        End::Contradiction => "contradiction",
        End::StepLimit => "unknown",
        End::Solved => match d.hardest.constraints {
            0 | 1 => "easy",
            2 => "medium",
            3 | 4 => "hard",
            _ => "extreme",
        },
    }
}

/// Builds the hint model of a puzzle.
pub type HintFn<'a, P> = &'a dyn Fn(&P) -> Result<HintModel, ModelError>;

/// `--hint`, `--explain`, `--rate`, `--format`: the step-wise explanation
/// of the generic hints (`csp_core::hints`) instead of a solution.
#[derive(clap::Args, Debug)]
pub struct HintArgs {
    /// Print the next logical step from the givens and its reason, not the
    /// solution.
    #[arg(long, conflicts_with_all = ["count", "explain", "rate"])]
    hint: bool,
    /// Print every step from the givens until the grid is solved or search
    /// is needed (each step checked).
    #[arg(long, conflicts_with_all = ["count", "rate"])]
    explain: bool,
    /// Print the difficulty of each puzzle, one line each.
    #[arg(long, conflicts_with = "count")]
    rate: bool,
    /// text (default) or json: JSON Lines, one object per step or puzzle
    /// (also for the solution count and the conflict of a puzzle with
    /// several solutions or none); with --explain also html, a page that
    /// shows the steps on the board, for a file of one puzzle.
    #[arg(long, default_value = "text")]
    format: String,
}

impl HintArgs {
    /// The hint modes as flags (for commands whose `--format` means more),
    /// with the hint modes' format: text, json, or html (with `explain`).
    pub fn new(hint: bool, explain: bool, rate: bool, format: &str) -> HintArgs {
        HintArgs {
            hint,
            explain,
            rate,
            format: format.to_string(),
        }
    }

    /// Does the caller want hints instead of solutions?
    pub fn wanted(&self) -> bool {
        self.hint || self.explain || self.rate
    }

    /// A blank line between two puzzles' outputs? Between solutions and
    /// between explanations and hints (their boards) in text, not between
    /// one-line answers.
    pub fn blank_lines(&self) -> bool {
        !self.wanted() || ((self.explain || self.hint) && self.format != "json")
    }

    /// `--format json`?
    pub fn json(&self) -> Result<bool, CliError> {
        match self.format.as_str() {
            "text" => Ok(false),
            "json" => Ok(true),
            "html" if self.explain => Ok(false),
            "html" => Err(
                "--format html writes the explanation page: use it with --explain \
                 (--hint and --rate print text or json)"
                    .into(),
            ),
            f => Err(format!(
                "unknown format '{f}' (expected text, json, or html with --explain)"
            )),
        }
    }

    /// `--explain --format html`: the explanation page?
    pub fn html(&self) -> bool {
        self.explain && self.format == "html"
    }
}

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
    /// Why a puzzle has no solution (the minimal conflicting givens).
    pub conflict: &'a dyn Fn(&P) -> Option<Conflict>,
    /// Do the hint modes want a unique solution? (Not for Minesweeper,
    /// where hints find the safe cells of a board many layouts fit.)
    pub unique: bool,
}

/// What search says of a puzzle's solutions.
enum Solutions {
    None,
    One(Vec<i32>),
    Two(Vec<i32>, Vec<i32>),
    /// A solution, and a limit stopped the search for a second one.
    OneMaybeMore(Vec<i32>, csp_core::Limit),
    Unknown(csp_core::Limit),
}

impl<P> PuzzleFile<'_, P> {
    /// The puzzle's number for JSON: the line it starts on, or 1.
    fn number(&self, p: &P) -> usize {
        (self.line)(p).unwrap_or(1)
    }

    /// Up to two solutions, each checked.
    fn solutions(
        &self,
        p: &P,
        options: &SearchOptions,
    ) -> Result<(Solutions, csp_core::Statistics), CliError> {
        let (m, cells) = (self.model)(p).map_err(|e| e.to_string())?;
        let mut it = Search::new(&m)
            .options(options.clone())
            .solutions()
            .map_err(|e| e.to_string())?;
        let first = it.next();
        let second = if first.is_some() { it.next() } else { None };
        let stats = it.stats();
        let values = |s: &csp_core::Solution| -> Result<Vec<i32>, CliError> {
            let v: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
            (self.check)(p, &v).map_err(|e| format!("internal error: {e}"))?;
            Ok(v)
        };
        let found = match (first, second, it.outcome()) {
            (_, _, Outcome::Invalid(c)) => {
                return Err(format!(
                    "engine error: a solution that violates constraint {c} was let through"
                ))
            }
            (Some(a), Some(b), _) => Solutions::Two(values(&a)?, values(&b)?),
            (Some(a), None, Outcome::LimitReached(l)) => Solutions::OneMaybeMore(values(&a)?, l),
            (_, _, Outcome::LimitReached(l)) => Solutions::Unknown(l),
            (Some(a), None, _) => Solutions::One(values(&a)?),
            (None, _, _) => Solutions::None,
        };
        Ok((found, stats))
    }

    /// A solution was found, and the limit stopped the search for a
    /// second one.
    fn second_warning(&self, p: &P, l: csp_core::Limit) {
        let at = match (self.line)(p) {
            Some(line) => format!("{}: puzzle at line {line}", self.name),
            None => "warning".to_string(),
        };
        errln!(
            "{at}: incomplete: a solution, but stopped by the {l} before a second one \
             was ruled out",
            l = super::Stop(l)
        );
    }

    fn limit_warning(&self, p: &P, l: csp_core::Limit) {
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
    }

    /// `--hint` / `--explain` / `--rate` on every puzzle in turn, a blank
    /// line between two puzzles' explanations. A puzzle with no solution or
    /// several gets what [`PuzzleFile::run`] prints for it instead.
    pub fn run_hints(
        &self,
        hint_model: HintFn<'_, P>,
        a: &HintArgs,
        engine: &EngineArgs,
        search_options: &SearchOptions,
    ) -> Result<ExitCode, CliError> {
        if self.puzzles.is_empty() {
            return Err(format!("{}: no puzzle found", self.name));
        }
        one_page(a, self.name, self.puzzles.len())?;
        let mut status = Status::Complete;
        for (k, p) in self.puzzles.iter().enumerate() {
            if k > 0 && a.blank_lines() {
                outln!();
            }
            status = status.max(self.hint_one(p, hint_model, a, engine, search_options)?);
        }
        Ok(status.code())
    }

    /// The hint mode on one puzzle.
    pub fn hint_one(
        &self,
        p: &P,
        hint_model: HintFn<'_, P>,
        a: &HintArgs,
        engine: &EngineArgs,
        search_options: &SearchOptions,
    ) -> Result<Status, CliError> {
        let json = a.json()?;
        let html = a.html();
        let options = hints::Options::default();
        let mut status = Status::Complete;
        {
            let puzzle = self.number(p);
            let (found, stats) = self.solutions(p, search_options)?;
            if engine.stats {
                errln!("{stats}");
            }
            match found {
                Solutions::One(_) => {}
                Solutions::None if html => {
                    let lines = Conflict::lines((self.conflict)(p).as_ref());
                    self.verdict_page(p, hint_model, "no solution", lines)?;
                    return Ok(status);
                }
                Solutions::None => {
                    Conflict::print((self.conflict)(p).as_ref(), puzzle, json);
                    return Ok(status);
                }
                Solutions::Two(x, y) if self.unique && html => {
                    let mut lines = vec!["more than one solution; two of them:".to_string()];
                    lines.extend((self.render)(p, &x).lines().map(str::to_string));
                    lines.push(String::new());
                    lines.extend((self.render)(p, &y).lines().map(str::to_string));
                    self.verdict_page(p, hint_model, "more than one solution", lines)?;
                    return Ok(status);
                }
                Solutions::Two(x, y) if self.unique => {
                    print_several(puzzle, &(self.render)(p, &x), &(self.render)(p, &y), json);
                    return Ok(status);
                }
                Solutions::Two(..) => {}
                Solutions::OneMaybeMore(_, l) => {
                    self.second_warning(p, l);
                    status = status.max(Status::Incomplete);
                }
                Solutions::Unknown(l) => {
                    self.limit_warning(p, l);
                    status = status.max(Status::Incomplete);
                }
            }
            let hm = hint_model(p).map_err(|e| e.to_string())?;
            let name = |x: VarId| hm.model.display_name(x);
            let split = |var: VarId, values: &[i32]| {
                let vs: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                if json {
                    format!(
                        "{{\"puzzle\": {puzzle}, \"step\": null, \"search\": {}, \"candidates\": {}}}",
                        js(&name(var)),
                        strings(&vs)
                    )
                } else {
                    format!(
                        "no step follows from the rules alone: search is needed; the smallest case split is {} ({})",
                        name(var),
                        vs.join("/")
                    )
                }
            };
            let failed = |e: hints::HintError| format!("hint: {e}");
            if html {
                let seq = hints::explain(&hm.model, &hm.facts, &options).map_err(failed)?;
                self.explain_page(p, &hm, &seq)?;
                return Ok(status);
            }
            if a.hint {
                match hints::next_step(&hm.model, &hm.facts, &options).map_err(failed)? {
                    Next::Step(s) if json => outln!("{}", hm.step_json(puzzle, 1, &s)),
                    Next::Step(s) => match hm.marked_board(&s) {
                        Some(board) => outln!("{}\n{board}", hm.sentence(&s)),
                        None => outln!("{}", hm.sentence(&s)),
                    },
                    Next::Solved if json => outln!("{{\"puzzle\": {puzzle}, \"solved\": true}}"),
                    Next::Solved => outln!("solved: every cell is known"),
                    Next::SearchNeeded { var, values } => outln!("{}", split(var, &values)),
                    Next::Contradiction(_) => Conflict::print(hm.conflict().as_ref(), puzzle, json),
                }
                return Ok(status);
            }
            let seq = hints::explain(&hm.model, &hm.facts, &options).map_err(failed)?;
            let d = seq.difficulty();
            let lvl = level(&d, &seq.end);
            let end = match seq.end {
                End::Solved => "solved",
                End::SearchNeeded { .. } => "search needed",
                End::Contradiction => "contradiction",
                End::StepLimit => "step limit",
            };
            if a.rate {
                if json {
                    outln!(
                        "{{\"puzzle\": {puzzle}, \"level\": {}, \"score\": {}, \"steps\": {}, \"hardest\": [{}, {}, {}], \"end\": {}}}",
                        js(lvl),
                        d.total,
                        d.steps,
                        d.hardest.constraints,
                        d.hardest.premises,
                        d.hardest.weight,
                        js(end)
                    );
                } else {
                    outln!(
                        "{lvl}: score {}, {} steps, hardest: {}",
                        d.total,
                        d.steps,
                        d.hardest
                    );
                }
                return Ok(status);
            }
            for (i, s) in seq.steps.iter().enumerate() {
                if json {
                    outln!("{}", hm.step_json(puzzle, i + 1, s));
                } else {
                    outln!("{}. {}", i + 1, hm.sentence(s));
                }
            }
            match seq.end {
                End::Solved if json => outln!(
                    "{{\"puzzle\": {puzzle}, \"end\": \"solved\", \"level\": {}, \"score\": {}}}",
                    js(lvl),
                    d.total
                ),
                End::Solved => outln!(
                    "Solved in {} steps ({lvl}, score {})",
                    seq.steps.len(),
                    d.total
                ),
                End::SearchNeeded { var, values } => outln!("{}", split(var, &values)),
                End::Contradiction => Conflict::print(hm.conflict().as_ref(), puzzle, json),
                End::StepLimit if json => {
                    outln!("{{\"puzzle\": {puzzle}, \"end\": \"step limit\"}}")
                }
                End::StepLimit => {
                    outln!("stopped after {} steps (the step limit)", seq.steps.len())
                }
            }
        }
        Ok(status)
    }

    /// The page's title for puzzle `p`.
    fn page_title(&self, p: &P) -> String {
        match (self.line)(p) {
            Some(line) => format!("{}, line {line}, explained step by step", self.name),
            None => format!("{}, explained step by step", self.name),
        }
    }

    /// `--explain --format html` on a puzzle with no solution or several:
    /// a page of one position, the verdict beside the givens.
    fn verdict_page(
        &self,
        p: &P,
        hint_model: HintFn<'_, P>,
        summary: &str,
        lines: Vec<String>,
    ) -> Result<(), CliError> {
        let hm = hint_model(p).map_err(|e| e.to_string())?;
        let (board, mut positions) = hm.page(&hints::Sequence {
            steps: Vec::new(),
            end: End::StepLimit,
        })?;
        let mut verdict = positions.swap_remove(0);
        verdict.kind = "verdict";
        verdict.text = lines;
        page::write_page(&self.page_title(p), &board, summary, &[verdict])
    }

    /// `--explain --format html`: the page of the explanation `seq`.
    fn explain_page(&self, p: &P, hm: &HintModel, seq: &hints::Sequence) -> Result<(), CliError> {
        let (board, mut positions) = hm.page(seq)?;
        let d = seq.difficulty();
        let lvl = level(&d, &seq.end);
        let n = seq.steps.len();
        let at = hm.positions();
        let (summary, end) = match &seq.end {
            End::Solved => (
                format!("solved in {n} steps ({lvl}, score {})", d.total),
                vec![format!("Solved in {n} steps ({lvl}, score {})", d.total)],
            ),
            End::SearchNeeded { var, values } => {
                let vs: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                if let (Some(Some((r, c))), Some(last)) =
                    (at.get(var.index()), positions.last_mut())
                {
                    last.cells = vec![r * board.cols + c];
                }
                (
                    format!("{n} steps, then propagation stops here: search needed"),
                    vec![format!(
                        "no step follows from the rules alone: search is needed; the smallest case split is {} ({})",
                        hm.model.display_name(*var),
                        vs.join("/")
                    )],
                )
            }
            End::Contradiction => (
                format!("{n} steps, then a contradiction"),
                Conflict::lines(hm.conflict().as_ref()),
            ),
            End::StepLimit => (
                format!("{n} steps, then the step limit"),
                vec![format!("stopped after {n} steps (the step limit)")],
            ),
        };
        if let Some(last) = positions.last_mut() {
            last.text = end;
        }
        page::write_page(&self.page_title(p), &board, &summary, &positions)
    }

    /// Solves (or counts) every puzzle in turn, a blank line between two
    /// solutions; statistics on stderr with `--stats`. A puzzle with
    /// several solutions prints two of them, one with none the givens that
    /// cannot hold together; both are complete answers (exit status 0).
    pub fn run(&self, options: &SearchOptions, engine: &EngineArgs) -> Result<ExitCode, CliError> {
        if self.puzzles.is_empty() {
            return Err(format!("{}: no puzzle found", self.name));
        }
        let mut status = Status::Complete;
        for (k, p) in self.puzzles.iter().enumerate() {
            if k > 0 && !self.count {
                outln!();
            }
            status = status.max(self.solve_one(p, options, engine)?);
        }
        Ok(status.code())
    }

    /// Solves (or counts) one puzzle.
    pub fn solve_one(
        &self,
        p: &P,
        options: &SearchOptions,
        engine: &EngineArgs,
    ) -> Result<Status, CliError> {
        let mut status = Status::Complete;
        {
            let (outcome, stats) = if self.count {
                let (m, _) = (self.model)(p).map_err(|e| e.to_string())?;
                let mut search = Search::new(&m).options(options.clone());
                let r = search.count().map_err(|e| e.to_string())?;
                outln!("{}", r.count);
                (r.outcome, r.stats)
            } else {
                let (found, stats) = self.solutions(p, options)?;
                let outcome = match found {
                    Solutions::One(v) => {
                        out!("{}", (self.render)(p, &v));
                        Outcome::Solved
                    }
                    Solutions::Two(x, y) => {
                        print_several(
                            self.number(p),
                            &(self.render)(p, &x),
                            &(self.render)(p, &y),
                            false,
                        );
                        Outcome::Solved
                    }
                    Solutions::None => {
                        Conflict::print((self.conflict)(p).as_ref(), self.number(p), false);
                        Outcome::Unsatisfiable
                    }
                    Solutions::OneMaybeMore(v, l) => {
                        // What is known: a solution; whether it is the
                        // only one is not.
                        out!("{}", (self.render)(p, &v));
                        self.second_warning(p, l);
                        status = status.max(Status::Incomplete);
                        Outcome::Solved
                    }
                    Solutions::Unknown(l) => {
                        outln!("unknown");
                        Outcome::LimitReached(l)
                    }
                };
                (outcome, stats)
            };
            if let Outcome::LimitReached(l) = outcome {
                self.limit_warning(p, l);
                status = status.max(Status::Incomplete);
            }
            if engine.stats {
                errln!("{stats}");
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::Domain;

    /// One solution (x = 0, y = 0) found at once, and a second ruled out
    /// only by refuting x = 1: seven pigeons in six holes under pairwise
    /// `≠`, about two thousand nodes.
    fn slow_second(_: &()) -> Result<(Model, Vec<VarId>), ModelError> {
        let mut m = Model::new();
        let x = m.new_var(Domain::range(0, 1))?;
        let ps = m.new_vars(7, Domain::range(0, 5))?;
        for i in 0..7 {
            for j in i + 1..7 {
                // x = 1 ⇒ pᵢ ≠ pⱼ.
                let b = m.new_var(Domain::range(0, 1))?;
                m.post(b.iff(ps[i].ne(ps[j])))?;
                m.post(b.ge(x))?;
            }
        }
        // With x = 0 the pigeons are fixed to 0: one solution.
        for &p in &ps {
            let b = m.new_var(Domain::range(0, 1))?;
            m.post(b.iff(p.eq(0)))?;
            m.post((b + x).ge(1))?;
        }
        Ok((m, vec![x]))
    }

    /// A limit that stops the search for a second solution keeps the first
    /// one: it is printed, with a warning, not replaced by `unknown`.
    #[test]
    fn a_limit_after_the_first_solution_keeps_it() {
        let file = PuzzleFile {
            name: "test",
            puzzles: &[()],
            count: false,
            line: |_| None,
            model: &slow_second,
            check: |_, v| {
                if v == [0] {
                    Ok(())
                } else {
                    Err(format!("{v:?}"))
                }
            },
            render: |_, v| format!("{v:?}\n"),
            conflict: &|_| None,
            unique: true,
        };
        let mut options = SearchOptions {
            var_order: csp_core::VarOrder::Input,
            learning: false, // measured with the ordinary engine
            ..SearchOptions::default()
        };
        options.limits.nodes = Some(200);
        match file.solutions(&(), &options).unwrap().0 {
            Solutions::OneMaybeMore(v, csp_core::Limit::Nodes) => assert_eq!(v, vec![0]),
            _ => panic!("expected one solution and the node limit"),
        }
        options.limits.nodes = None;
        match file.solutions(&(), &options).unwrap().0 {
            Solutions::One(v) => assert_eq!(v, vec![0]),
            _ => panic!("expected exactly one solution"),
        }
    }
}
