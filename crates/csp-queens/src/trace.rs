//! Printing the search tree in the textbook notation.
//!
//! Each node is a partial placement: the 1-based column of each placed row,
//! `*` for rows not placed yet, indented by depth. A node whose placement is
//! refuted at once (a conflict, or a domain wiped out by forward checking) is
//! marked `x`; a solution is marked `solution`; when every value of a row has
//! been tried the search steps back, marked `backtrack`. For 4 queens with
//! rows in order this reproduces the classic figure:
//!
//! ```text
//! (* * * *)
//!   (1 * * *)
//!     (1 3 * *) x
//! ...
//! ```

use std::fmt::Write as _;

use csp_core::{SearchObserver, Value, VarId};

/// One line of the tree: a partial placement at a depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine {
    /// Depth (0 = the empty board).
    pub depth: usize,
    /// Column per row, 1-based, `None` for unplaced rows.
    pub placement: Vec<Option<u32>>,
    /// What happened at this node.
    pub mark: Mark,
}

/// The annotation of a trace line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// An ordinary node (the search went deeper).
    None,
    /// Refuted at once.
    Failed,
    /// A complete placement.
    Solution,
    /// All values of the row were tried; the search steps back from here.
    Backtrack,
}

impl TraceLine {
    /// Renders the line: indentation, `(2 4 * *)`, and the mark.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for _ in 0..self.depth {
            s.push_str("  ");
        }
        s.push('(');
        for (i, p) in self.placement.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            match p {
                Some(c) => {
                    let _ = write!(s, "{c}");
                }
                None => s.push('*'),
            }
        }
        s.push(')');
        match self.mark {
            Mark::None => {}
            Mark::Failed => s.push_str(" x"),
            Mark::Solution => s.push_str(" solution"),
            Mark::Backtrack => s.push_str(" backtrack"),
        }
        s
    }
}

/// A [`SearchObserver`] that records the tree for a queens model whose
/// variables `0..n` are the rows.
#[derive(Debug)]
pub struct Tracer<F: FnMut(&TraceLine)> {
    placement: Vec<Option<u32>>,
    pending: Option<TraceLine>,
    emit: F,
    /// Maximum number of lines to emit (the rest is counted, not shown).
    pub max_lines: u64,
    /// Lines emitted or suppressed.
    pub lines: u64,
}

impl<F: FnMut(&TraceLine)> Tracer<F> {
    /// A tracer for `n` rows calling `emit` for every line, starting with the
    /// empty board.
    pub fn new(n: usize, emit: F) -> Tracer<F> {
        let mut t = Tracer {
            placement: vec![None; n],
            pending: None,
            emit,
            max_lines: u64::MAX,
            lines: 0,
        };
        t.pending = Some(TraceLine {
            depth: 0,
            placement: t.placement.clone(),
            mark: Mark::None,
        });
        t
    }

    fn flush(&mut self) {
        if let Some(line) = self.pending.take() {
            self.lines += 1;
            if self.lines <= self.max_lines {
                (self.emit)(&line);
            }
        }
    }

    /// Emits the last pending line (call after the search).
    pub fn finish(&mut self) {
        self.flush();
    }

    /// A queen goes on `row` at 0-based `col`, at `depth`.
    pub fn assign(&mut self, row: usize, col: u32, depth: usize) {
        self.flush();
        if let Some(p) = self.placement.get_mut(row) {
            *p = Some(col + 1);
        }
        self.pending = Some(TraceLine {
            depth,
            placement: self.placement.clone(),
            mark: Mark::None,
        });
    }

    /// The node just announced was refuted.
    pub fn fail(&mut self, row: usize) {
        if let Some(p) = &mut self.pending {
            p.mark = Mark::Failed;
        }
        self.flush();
        if let Some(p) = self.placement.get_mut(row) {
            *p = None;
        }
    }

    /// The node just announced is a solution.
    pub fn solution(&mut self) {
        if let Some(p) = &mut self.pending {
            p.mark = Mark::Solution;
        }
        self.flush();
    }

    /// Every value of `row` (chosen at `depth`) has been tried.
    pub fn backtrack(&mut self, row: usize, depth: usize) {
        self.flush();
        if let Some(p) = self.placement.get_mut(row) {
            *p = None;
        }
        let _ = depth;
        // Show the parent node the search returns to.
        let parent = TraceLine {
            depth: depth.saturating_sub(1),
            placement: self.placement.clone(),
            mark: Mark::Backtrack,
        };
        self.lines += 1;
        if self.lines <= self.max_lines {
            (self.emit)(&parent);
        }
    }
}

impl<F: FnMut(&TraceLine)> SearchObserver for Tracer<F> {
    fn on_assign(&mut self, var: VarId, value: Value, depth: usize) {
        // A new value for a row replaces the previous one at this depth.
        self.assign(var.index(), value as u32, depth);
    }
    fn on_fail(&mut self, var: VarId, _value: Value, _depth: usize) {
        self.fail(var.index());
    }
    fn on_backtrack(&mut self, var: VarId, depth: usize) {
        self.backtrack(var.index(), depth);
    }
    fn on_solution(&mut self, values: &[Value]) {
        // Propagation may have placed the last rows without a decision: show
        // the complete placement.
        if let Some(p) = &mut self.pending {
            for (slot, &v) in p.placement.iter_mut().zip(values) {
                *slot = Some(v as u32 + 1);
            }
        }
        self.solution();
    }
}

/// The domains of the open rows, as `--trace --domains` prints them after
/// a node: `q3 {2 4}` (1-based columns), an empty domain `q3 {}`, and a
/// row left with one column, an assignment forced by propagation,
/// `q4 = 2 (forced)`; two spaces between rows.
///
/// ```
/// use csp_queens::trace::describe_domains;
/// let rows = vec![(2, vec![]), (3, vec![1]), (4, vec![0, 3])];
/// assert_eq!(describe_domains(rows), "q3 {}  q4 = 2 (forced)  q5 {1 4}");
/// ```
pub fn describe_domains(rows: impl IntoIterator<Item = (usize, Vec<u32>)>) -> String {
    let mut parts = Vec::new();
    for (row, dom) in rows {
        parts.push(match dom.as_slice() {
            [only] => format!("q{} = {} (forced)", row + 1, only + 1),
            _ => {
                let cols: Vec<String> = dom.iter().map(|c| (c + 1).to_string()).collect();
                format!("q{} {{{}}}", row + 1, cols.join(" "))
            }
        });
    }
    parts.join("  ")
}

/// A trace line followed by the domains of its open rows, the domains
/// starting in a column of their own (`4n + 16` characters in).
pub fn render_with_domains(line: &TraceLine, domains: &str) -> String {
    let text = line.render();
    let pad = (4 * line.placement.len() + 16).saturating_sub(text.chars().count());
    format!("{text}{}{domains}", " ".repeat(pad))
        .trim_end()
        .to_string()
}

/// Names two placed queens of `placement` (1-based columns) that attack
/// each other, `q1 = 1 attacks q2 = 2`, or says that none do.
fn attacking_pair(placement: &[Option<u32>]) -> String {
    let placed: Vec<(usize, u32)> = placement
        .iter()
        .enumerate()
        .filter_map(|(r, c)| c.map(|c| (r, c)))
        .collect();
    for (k, &(r2, c2)) in placed.iter().enumerate() {
        for &(r1, c1) in &placed[..k] {
            if c1 == c2 || c1.abs_diff(c2) as usize == r2 - r1 {
                return format!("q{} = {c1} attacks q{} = {c2}", r1 + 1, r2 + 1);
            }
        }
    }
    "refuted (no two placed queens attack each other)".to_string()
}

/// A [`SearchObserver`] that prints the tree like [`Tracer`], each node
/// followed by the domains of the rows the search has not decided: what
/// propagation left them after the node's decision, read from the
/// engine's `on_prune` events (boards up to 64 rows: one bit per column).
/// A refuted node says `propagation emptied a domain` instead: the engine
/// reports no removals for a propagation that failed. Without propagation
/// (see [`DomainTracer::propagating`]) a node is refuted only because its
/// new queen attacks one already placed, and the line names the two.
#[derive(Debug)]
pub struct DomainTracer<F: FnMut(&str)> {
    n: usize,
    /// The rows decided, by depth.
    decisions: Vec<usize>,
    /// Every row's domain now, one bit per column.
    domains: Vec<u64>,
    /// `saved[d]`: the domains when the decision at depth `d + 1` was made.
    saved: Vec<Vec<u64>>,
    pending: Option<TraceLine>,
    /// Whether the search propagates (forward checking or more).
    propagates: bool,
    emit: F,
}

impl<F: FnMut(&str)> DomainTracer<F> {
    /// Says whether the search propagates (the default) or only checks the
    /// constraints once their rows are decided (`--inference none`), so
    /// that a refuted node is explained by what refuted it.
    pub fn propagating(mut self, propagates: bool) -> Self {
        self.propagates = propagates;
        self
    }

    /// The largest board it follows.
    pub const MAX_N: usize = 64;

    /// A tracer for `n ≤ 64` rows (`None` for larger boards) calling `emit`
    /// with every rendered line, starting with the empty board.
    pub fn new(n: usize, emit: F) -> Option<DomainTracer<F>> {
        if n > Self::MAX_N {
            return None;
        }
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        Some(DomainTracer {
            n,
            decisions: Vec::new(),
            domains: vec![full; n],
            saved: Vec::new(),
            pending: Some(TraceLine {
                depth: 0,
                placement: vec![None; n],
                mark: Mark::None,
            }),
            propagates: true,
            emit,
        })
    }

    fn line(&mut self, line: &TraceLine) {
        if line.mark == Mark::Failed {
            // The engine stops propagating at the first empty domain, and
            // does not report the removals of a failed propagation. Without
            // propagation, the new queen attacks one already placed.
            let why = if self.propagates {
                "propagation emptied a domain".to_string()
            } else {
                attacking_pair(&line.placement)
            };
            let text = render_with_domains(line, &why);
            (self.emit)(&text);
            return;
        }
        let open = (0..self.n)
            .filter(|r| !self.decisions.contains(r))
            .map(|r| {
                let d = self.domains[r];
                (
                    r,
                    (0..64u32).filter(|c| d >> c & 1 == 1).collect::<Vec<u32>>(),
                )
            });
        let text = render_with_domains(line, &describe_domains(open));
        (self.emit)(&text);
    }

    fn flush(&mut self) {
        if let Some(line) = self.pending.take() {
            self.line(&line);
        }
    }

    /// Emits the last pending line (call after the search).
    pub fn finish(&mut self) {
        self.flush();
    }

    fn placement(&self) -> Vec<Option<u32>> {
        (0..self.n)
            .map(|r| {
                (self.decisions.contains(&r) && self.domains[r].count_ones() == 1)
                    .then(|| self.domains[r].trailing_zeros() + 1)
            })
            .collect()
    }

    /// Back to the state in which the decision at `depth` was made.
    fn restore(&mut self, depth: usize) {
        if let Some(d) = self.saved.get(depth.saturating_sub(1)) {
            self.domains = d.clone();
            self.saved.truncate(depth.saturating_sub(1));
        }
    }
}

impl<F: FnMut(&str)> SearchObserver for DomainTracer<F> {
    fn on_assign(&mut self, var: VarId, value: Value, depth: usize) {
        self.flush();
        self.restore(depth);
        let row = var.index();
        self.decisions.truncate(depth.saturating_sub(1));
        self.decisions.push(row);
        self.saved.push(self.domains.clone());
        if row < self.n && (0..64).contains(&value) {
            self.domains[row] = 1u64 << value;
        }
        self.pending = Some(TraceLine {
            depth,
            placement: self.placement(),
            mark: Mark::None,
        });
    }
    fn on_prune(&mut self, var: VarId, value: Value) {
        if var.index() < self.n && (0..64).contains(&value) {
            self.domains[var.index()] &= !(1u64 << value);
        }
    }
    fn on_fail(&mut self, _var: VarId, _value: Value, _depth: usize) {
        if let Some(p) = &mut self.pending {
            p.mark = Mark::Failed;
        }
        self.flush();
    }
    fn on_backtrack(&mut self, var: VarId, depth: usize) {
        self.flush();
        self.restore(depth);
        self.decisions.truncate(depth.saturating_sub(1));
        let _ = var;
        let line = TraceLine {
            depth: depth.saturating_sub(1),
            placement: self.placement(),
            mark: Mark::Backtrack,
        };
        self.line(&line);
    }
    fn on_solution(&mut self, values: &[Value]) {
        if let Some(p) = &mut self.pending {
            for (slot, &v) in p.placement.iter_mut().zip(values) {
                *slot = Some(v as u32 + 1);
            }
            p.mark = Mark::Solution;
        }
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domain_tracer_follows_forward_checking() {
        use crate::model::{queens_model, ModelKind};
        use csp_core::{Inference, Search, VarOrder};
        let q = queens_model(4, ModelKind::AllDifferent).unwrap();
        let mut lines = Vec::new();
        let mut t = DomainTracer::new(4, |l: &str| lines.push(l.to_string())).unwrap();
        Search::new(&q.model)
            .var_order(VarOrder::Input)
            .inference(Inference::ForwardChecking)
            .observer(&mut t)
            .solve()
            .unwrap();
        t.finish();
        drop(t);
        let want = [
            "(* * * *)                       q1 {1 2 3 4}  q2 {1 2 3 4}  q3 {1 2 3 4}  q4 {1 2 3 4}",
            "  (1 * * *)                     q2 {3 4}  q3 {2 4}  q4 {2 3}",
            "    (1 3 * *) x                 propagation emptied a domain",
            "    (1 4 * *) x                 propagation emptied a domain",
            "  (1 * * *) backtrack           q2 {3 4}  q3 {2 4}  q4 {2 3}",
            "  (2 4 1 3) solution            q2 = 4 (forced)  q3 = 1 (forced)  q4 = 3 (forced)",
        ];
        assert_eq!(lines, want);
        assert!(DomainTracer::new(65, |_: &str| {}).is_none());
    }
    use crate::model::{queens_model, ModelKind};
    use csp_core::{Inference, Search, VarOrder};

    #[test]
    fn four_queens_tree_with_forward_checking() {
        let q = queens_model(4, ModelKind::AllDifferent).unwrap();
        let mut lines = Vec::new();
        let mut t = Tracer::new(4, |l: &TraceLine| lines.push(l.render()));
        let r = Search::new(&q.model)
            .var_order(VarOrder::Input)
            .inference(Inference::ForwardChecking)
            .observer(&mut t)
            .solve()
            .unwrap();
        t.finish();
        drop(t);
        assert!(r.solution.is_some());
        assert_eq!(lines[0], "(* * * *)");
        assert_eq!(lines[1], "  (1 * * *)");
        assert!(
            lines.iter().any(|l| l.trim() == "(2 4 1 3) solution"),
            "{lines:#?}"
        );
        // Without inference, the classic figure: (1 4 2 *) is a dead end.
        let mut plain = Vec::new();
        let mut t = Tracer::new(4, |l: &TraceLine| plain.push(l.render()));
        Search::new(&q.model)
            .var_order(VarOrder::Input)
            .inference(Inference::None)
            .observer(&mut t)
            .solve()
            .unwrap();
        t.finish();
        drop(t);
        assert!(plain.iter().any(|l| l == "      (1 4 2 *)"), "{plain:#?}");
        assert_eq!(plain.last().unwrap(), "        (2 4 1 3) solution");
        // Forward checking refutes (1 3 * *) at once: row 4 has no column left.
        assert!(
            lines.iter().any(|l| l.trim() == "(1 3 * *) x"),
            "{lines:#?}"
        );
    }
}
