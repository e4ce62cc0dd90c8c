//! The replay page of a teaching solver (`csp queens N --solver teach-*
//! --format html`): its own steps, as it shows them to `--trace`, turned
//! into the page's [`Step`]s.
//!
//! [`TreeRecorder`] takes the nodes of a tree search — the [`TraceLine`]s of
//! teach-sets, teach-stack, teach-nn and teach-perm, those of teach-fc with
//! the domains of the open rows, or the masks of teach-bits — and
//! [`LocalRecorder`] the starts and moves of min-conflicts or the
//! generations of the genetic search. Both keep at most [`max_steps`]
//! steps, each with its line of text in the terminal's notation (`e3`).

use csp_queens::render::square_name;
use csp_queens::teaching::{attack, bits};
use csp_queens::trace::{Mark, TraceLine};

use super::{max_steps, Kind, Local, Puzzle, Step};

/// How a tree search of the teaching ladder shows a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tree {
    /// One queen a node, row by row; a node is refused when a queen above
    /// attacks it (teach-sets, teach-stack).
    Rows,
    /// Row by row with the domains of the open rows (teach-fc).
    Forward,
    /// Row by row, with the bitboard's masks (teach-bits).
    Bits,
    /// A complete placement a node, under the empty board (teach-nn,
    /// teach-perm).
    Complete,
}

/// The steps a page keeps: the first [`max_steps`], and how many more
/// were met.
#[derive(Debug)]
pub struct Kept {
    steps: Vec<Step>,
    cap: usize,
    dropped: u64,
}

impl Kept {
    fn new(n: usize) -> Kept {
        Kept {
            steps: Vec::new(),
            cap: max_steps(n),
            dropped: 0,
        }
    }

    /// The most steps kept.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// The steps kept.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Steps met after the recording was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The id the next step gets, kept or not.
    fn next_id(&self) -> usize {
        self.steps.len() + self.dropped as usize
    }

    /// Keeps `step` while there is room.
    fn push(&mut self, step: Step) {
        if self.steps.len() < self.cap {
            self.steps.push(step);
        } else {
            self.dropped += 1;
        }
    }
}

/// Records the nodes of a teaching tree search as the page's steps.
#[derive(Debug)]
pub struct TreeRecorder {
    n: usize,
    tree: Tree,
    kept: Kept,
    /// The ids of the nodes on the current path, by depth.
    path: Vec<usize>,
    /// teach-bits: the queens placed, and the squares left free in each
    /// row (the bits not tried yet).
    cols: Vec<u32>,
    free: Vec<u64>,
}

impl TreeRecorder {
    /// A recorder for the `n`-queens board (`1 ≤ n ≤ 64`) searched by a
    /// solver of kind `tree`.
    pub fn new(n: usize, tree: Tree) -> TreeRecorder {
        TreeRecorder {
            n,
            tree,
            kept: Kept::new(n),
            path: Vec::new(),
            cols: Vec::new(),
            free: vec![0; n],
        }
    }

    /// The steps kept.
    pub fn kept(&self) -> &Kept {
        &self.kept
    }

    fn all(&self) -> u64 {
        if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }

    /// A node of the tree, as `--trace` prints it; `open` (teach-fc) holds
    /// the domains, 0-based columns, of the rows from `line.depth` on. The
    /// returns of `backtrack` lines are not nodes.
    pub fn line(&mut self, line: &TraceLine, open: Option<&[Vec<u32>]>) {
        if line.mark == Mark::Backtrack {
            return;
        }
        let n = self.n;
        let cols: Vec<u32> = line.placement.iter().flatten().map(|c| c - 1).collect();
        let mut domains: Vec<u64> = (0..n)
            .map(|r| cols.get(r).map_or(self.all(), |&c| 1 << c))
            .collect();
        if let Some(open) = open {
            for (d, dom) in domains[line.depth.min(n)..].iter_mut().zip(open) {
                *d = dom.iter().fold(0, |m, &c| m | 1 << c);
            }
        }
        let mut step = Step::new(None, line.depth, None);
        step.kind = match line.mark {
            _ if line.depth == 0 => Kind::Root,
            Mark::Failed => Kind::Failure,
            Mark::Solution => Kind::Solution,
            _ => Kind::Choice,
        };
        if self.tree == Tree::Complete && line.depth > 0 {
            step.decided = Some((0..n).collect());
            step.line = first_attack(&cols);
            step.text = format!("test {}: {}", placement(&cols), verdict(&cols));
        } else if line.depth > 0 {
            let row = line.depth - 1;
            step.decision = Some((row, cols[row] + 1));
            step.text = Puzzle::Queens { n }.assign(row, cols[row] + 1);
            self.explain(&mut step, &cols, &domains);
        } else {
            step.text = match self.tree {
                Tree::Forward => "start: every row may take every column".to_string(),
                _ => "start: the empty board".to_string(),
            };
            if step.kind == Kind::Choice && n == 0 {
                step.kind = Kind::Solution;
            }
        }
        step.domains = domains;
        self.keep(step);
    }

    /// What a node of a row-by-row search did: forward checking's
    /// removals and forced rows, or the queen that refuses it.
    fn explain(&self, step: &mut Step, cols: &[u32], domains: &[u64]) {
        let (row, col) = (cols.len() - 1, cols[cols.len() - 1]);
        let q = Puzzle::Queens { n: self.n };
        if self.tree == Tree::Forward {
            // What the new queen struck from the rows below.
            let parent = step.depth.checked_sub(1).and_then(|d| self.path.get(d));
            let before = parent.map(|&p| self.steps_domains(p));
            let (mut struck, mut rows) = (0, 0);
            if let Some(Some(before)) = before {
                for y in row + 1..self.n {
                    let gone = (before[y] & !domains[y]).count_ones();
                    struck += gone;
                    rows += usize::from(gone > 0);
                }
            }
            step.forced = (row + 1..self.n)
                .filter(|&y| domains[y].count_ones() == 1)
                .collect();
            step.culprit = (row + 1..self.n).find(|&y| domains[y] == 0);
            step.text.push_str(&format!(
                "; forward checking strikes {struck} {} from {rows} {}",
                q.words(struck as usize).0,
                q.words(rows).1
            ));
            if let Some(y) = step.culprit {
                step.text
                    .push_str(&format!("; failure: {}", q.none_left(y)));
            } else if !step.forced.is_empty() {
                let forced: Vec<String> = step
                    .forced
                    .iter()
                    .map(|&y| square_name(y, domains[y].trailing_zeros()))
                    .collect();
                step.text
                    .push_str(&format!("; one column left: {}", forced.join(", ")));
            }
        } else if step.kind == Kind::Failure {
            // The line of attack shows the clash (no row ran dry).
            if let Some(y) = (0..row).find(|&y| attack(y, cols[y], row, col)) {
                step.line = Some([(row, col + 1), (y, cols[y] + 1)]);
                step.text
                    .push_str(&format!("; failure: {}", q.clash_with(y, cols[y] + 1)));
            }
        }
        if step.kind == Kind::Solution {
            step.text.push_str(" — solution");
        }
    }

    /// The domains of kept step `id`, if kept.
    fn steps_domains(&self, id: usize) -> Option<Vec<u64>> {
        self.kept.steps.get(id).map(|s| s.domains.clone())
    }

    /// One step of teach-bits: its masks. A queen is a node; the row it
    /// leads to amends the node (its free squares, or a dead end).
    pub fn bits(&mut self, step: bits::Step) {
        let n = self.n;
        let all = self.all();
        let binary = |m: u64| format!("{:0n$b}", m & all);
        match step {
            bits::Step::Row { row, free, .. } => {
                if row == 0 && self.kept.next_id() == 0 {
                    let mut root = Step::new(None, 0, None);
                    root.domains = vec![all; n];
                    root.text = format!("start: the empty board; row 1: free {}", binary(free));
                    self.keep(root);
                } else if let Some(last) = self.last_kept(row) {
                    last.domains[row] = free;
                    if free == 0 {
                        last.kind = Kind::Failure;
                        last.culprit = Some(row);
                        last.text.push_str(&format!(
                            "; row {}: free {} — a dead end",
                            row + 1,
                            binary(free)
                        ));
                    } else {
                        last.text
                            .push_str(&format!("; row {}: free {}", row + 1, binary(free)));
                    }
                }
                if row < n {
                    self.free[row] = free;
                }
            }
            bits::Step::Place { row, bit } => {
                let col = bit.trailing_zeros();
                self.cols.truncate(row);
                self.cols.push(col);
                let free = self.free[row];
                self.free[row] ^= bit;
                let mut s = Step::new(None, row + 1, Some((row, col + 1)));
                s.domains = (0..n)
                    .map(|r| self.cols.get(r).map_or(all, |&c| 1 << c))
                    .collect();
                s.text = format!(
                    "{}: bit {} = free & -free of {}",
                    Puzzle::Queens { n }.assign(row, col + 1),
                    binary(bit),
                    binary(free)
                );
                self.keep(s);
            }
            bits::Step::Solution => {
                if let Some(last) = self.last_kept(n) {
                    last.kind = Kind::Solution;
                    last.text.push_str(" — solution");
                }
            }
        }
    }

    /// The last step kept, when it is the node that leads to `row` (the
    /// node just met, not dropped).
    fn last_kept(&mut self, row: usize) -> Option<&mut Step> {
        if self.kept.dropped > 0 {
            return None;
        }
        self.kept.steps.last_mut().filter(|s| s.depth == row)
    }

    /// Links `step` to its parent and keeps it while there is room.
    fn keep(&mut self, mut step: Step) {
        let id = self.kept.next_id();
        step.parent = step
            .depth
            .checked_sub(1)
            .and_then(|d| self.path.get(d).copied());
        // A failure is a leaf; the bitboard's dead ends are amended later,
        // so every bitboard node goes on the path (a dead end has no child).
        if step.kind != Kind::Failure || self.tree == Tree::Bits {
            self.path.truncate(step.depth);
            self.path.push(id);
        }
        self.kept.push(step);
    }
}

/// `(2 4 1 3)`: a placement as the tree prints it, columns from 1.
fn placement(cols: &[u32]) -> String {
    let c: Vec<String> = cols.iter().map(|c| (c + 1).to_string()).collect();
    format!("({})", c.join(" "))
}

/// The first pair of queens (by the lower row, then the upper) that attack
/// each other, as the line to draw: the lower row's queen first.
fn first_attack(cols: &[u32]) -> Option<[(usize, u32); 2]> {
    (0..cols.len()).find_map(|r| {
        (0..r)
            .find(|&s| attack(s, cols[s], r, cols[r]))
            .map(|s| [(r, cols[r] + 1), (s, cols[s] + 1)])
    })
}

/// Whether a complete placement is a solution, in words.
fn verdict(cols: &[u32]) -> String {
    match first_attack(cols) {
        None => "no two queens attack each other — solution".to_string(),
        Some([(r, c), (s, d)]) => format!(
            "the queens on {} and {} attack each other",
            square_name(s, d - 1),
            square_name(r, c - 1)
        ),
    }
}

/// Records the starts and moves of min-conflicts, or the generations of
/// the genetic search: one step each, the board holding a queen in every
/// row.
#[derive(Debug)]
pub struct LocalRecorder {
    n: usize,
    kept: Kept,
}

impl LocalRecorder {
    /// A recorder for `n` queens (`1 ≤ n ≤ 64`).
    pub fn new(n: usize) -> LocalRecorder {
        LocalRecorder {
            n,
            kept: Kept::new(n),
        }
    }

    /// The steps kept.
    pub fn kept(&self) -> &Kept {
        &self.kept
    }

    /// A step: the placement `cols` now, the queen that moved with the
    /// attackers of its row before (none for a start or a generation),
    /// the attacking pairs, and the line of text.
    pub fn step(
        &mut self,
        cols: &[u32],
        moved: Option<(usize, u32, &[usize])>,
        pairs: usize,
        text: String,
    ) {
        let id = self.kept.next_id();
        let mut s = Step::new(id.checked_sub(1), 0, None);
        s.kind = match (pairs, moved) {
            (0, _) => Kind::Solution,
            (_, None) => Kind::Root,
            _ => Kind::Choice,
        };
        s.domains = cols.iter().map(|&c| 1u64 << c).collect();
        s.decided = Some((0..self.n).collect());
        s.local = Some(Local {
            moved: moved.map(|(row, from, _)| (row, from + 1)),
            counts: moved.map_or_else(Vec::new, |(_, _, a)| a.to_vec()),
            pairs,
        });
        s.text = text;
        self.kept.push(s);
    }
}
