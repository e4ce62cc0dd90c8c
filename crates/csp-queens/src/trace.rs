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

#[cfg(test)]
mod tests {
    use super::*;
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
            .solve();
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
            .solve();
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
