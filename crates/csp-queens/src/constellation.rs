//! The constellation counter: N-queens solutions counted from their border
//! queens, one representative per symmetry class of borders, split into
//! subproblems that can be counted anywhere and merged.
//!
//! # The idea
//!
//! Every solution has exactly one queen on each of the four border lines of
//! the board: row 0, row `n − 1`, column 0 and column `n − 1`. Call these
//! four queens (three when one of them sits in a corner, which is shared by
//! two border lines) the **constellation** of the solution, written
//! `(top, bottom, left, right)`: the column of the queen in row 0, the
//! column of the queen in row `n − 1`, the row of the queen in column 0 and
//! the row of the queen in column `n − 1`.
//!
//! The eight symmetries of the square map solutions with constellation `C`
//! one-to-one onto solutions with constellation `g(C)`, so all the
//! constellations of one orbit have the same number of solutions. The
//! counter therefore enumerates the constellations (a few thousand for
//! `n = 16`), keeps the lexicographically smallest of every orbit, counts
//! its solutions and multiplies by the size of the orbit, `8 / |stabilizer|`
//! (8, 4 for a constellation fixed by the half turn, 2 for one fixed by the
//! quarter turn; 1 only for `n = 1`). This is Burnside's counting without
//! any test on complete solutions.
//!
//! Counting the solutions of one constellation is a bitboard search over the
//! `n − 4` (or `n − 3`) rows without a fixed queen, top to bottom, skipping
//! the fixed rows. What makes it fast is that the fixed queens are known
//! *before* the search starts: each free row gets a mask of the squares they
//! leave open, so the queens on the bottom row and the side columns prune
//! the top rows from the first move on, where a row-by-row search would only
//! meet them at the end. The attack masks are those of
//! [`bitboard`](crate::bitboard), shifted from row to row by the gap to the
//! next free row, with a one-row look-ahead and the last two rows finished
//! in closed form.
//!
//! The search is not a node-by-node depth-first loop, whose branches (go
//! down or not, row done or not) the processor mispredicts on most squares.
//! The nodes wait in one buffer per free row and are expanded a *chunk* of
//! up to 256 at a time, without data-dependent branches: each child is
//! written to the next row's buffer, whose end advances only if the child
//! is alive. With AVX2 (detected at run time) eight nodes are expanded at a
//! time and the live children compacted with one permutation per lane mask.
//! (The private function `complete` has the details.)
//!
//! The method is that of Thomas B. Preusser's Q27 project, which counted the
//! 27-queens solutions on FPGAs from pre-placed border queens grouped by
//! symmetry, and of NQueensFAF by Ole and Tim Pöschl, whose CPU solver
//! specialises its search loop for every arrangement of the border rows. The
//! code here is our own: a uniform enumeration of borders with an explicit
//! canonical form, and one chunked search driven by per-row masks.
//!
//! # Subproblems
//!
//! A [`Split`] of depth `D` divides the count into **subproblems**: one
//! representative constellation together with the queens of its first `D`
//! free rows (all its free rows if it has fewer), in a fixed order. The list
//! is a pure function of `n` and `D`, so every machine of a cluster computes
//! the same list and can count any range of it; the weighted counts of all
//! the subproblems add up to the number of solutions.
//!
//! ```
//! use csp_queens::constellation::{self, Split};
//!
//! assert_eq!(constellation::count(10, 1).unwrap(), 724);
//! let split = Split::new(10, 1).unwrap();
//! let total: u128 = (0..split.len()).map(|i| split.count_one(i)).sum();
//! assert_eq!(total, 724);
//! ```
//!
//! # Why one file
//! About 1,500 lines, of which a quarter are comments and 115 are tests:
//! the constellation list, the split of a cluster run and the row search
//! share the masks and the order of the constellations, and read best
//! together.

use std::fmt;
use std::ops::{ControlFlow, Range};
use std::sync::atomic::Ordering;

use rayon::prelude::*;

use crate::bitboard::Stop;
use crate::permutation::{Budget, Status};

/// The largest board size accepted. Counting a board anywhere near this
/// size would take far longer than any computer has run (Q(27) took a year
/// of FPGAs); the limit keeps the constellation tables small.
pub const MAX_N: usize = 32;

/// The attack masks: one bit per column (the board has at most 32).
type Mask = u32;

/// The most subproblems a [`Split`] may have (about 10 bytes each).
pub const MAX_SUBPROBLEMS: usize = 100_000_000;

/// The deepest split accepted (queens placed beyond the border ones).
pub const MAX_DEPTH: usize = 8;

/// Errors of the constellation counter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstellationError {
    /// The board has more columns than a `u64` mask has bits.
    TooLarge {
        /// The requested board size.
        n: usize,
        /// The largest accepted size, [`MAX_N`].
        max: usize,
    },
    /// The split depth is larger than [`MAX_DEPTH`].
    TooDeep {
        /// The requested depth.
        depth: usize,
        /// The largest accepted depth.
        max: usize,
    },
    /// The split would have more than [`MAX_SUBPROBLEMS`] subproblems.
    TooMany {
        /// The board size.
        n: usize,
        /// The requested depth.
        depth: usize,
    },
    /// A range of subproblems that does not fit the list.
    BadRange {
        /// The requested range.
        range: Range<usize>,
        /// The number of subproblems.
        len: usize,
    },
    /// The rayon thread pool could not be built.
    ThreadPool {
        /// Rayon's description of the failure.
        message: String,
    },
}

impl fmt::Display for ConstellationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstellationError::TooLarge { n, max } => write!(
                f,
                "n = {n} is too large for the constellation counter (at most {max})"
            ),
            ConstellationError::TooDeep { depth, max } => {
                write!(f, "split depth {depth} is too deep (at most {max})")
            }
            ConstellationError::TooMany { n, depth } => write!(
                f,
                "a split of depth {depth} for n = {n} has more than {MAX_SUBPROBLEMS} \
                 subproblems: choose a smaller depth"
            ),
            ConstellationError::BadRange { range, len } => write!(
                f,
                "subproblem range {}..{} does not fit the {len} subproblems \
                 (need start <= end <= {len})",
                range.start, range.end
            ),
            ConstellationError::ThreadPool { message } => {
                write!(f, "could not start the thread pool: {message}")
            }
        }
    }
}

impl std::error::Error for ConstellationError {}

/// The border queens of a solution: one per border line.
///
/// A corner queen is on two border lines, so it appears twice (for example
/// `top == 0` and `left == 0` for a queen in the top-left corner).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Border {
    /// Column of the queen in row 0.
    pub top: u8,
    /// Column of the queen in row `n − 1`.
    pub bottom: u8,
    /// Row of the queen in column 0.
    pub left: u8,
    /// Row of the queen in column `n − 1`.
    pub right: u8,
}

impl Border {
    /// The squares `(row, column)` of the border queens (a corner queen
    /// twice).
    fn squares(self, n: usize) -> [(usize, usize); 4] {
        let last = n - 1;
        [
            (0, usize::from(self.top)),
            (last, usize::from(self.bottom)),
            (usize::from(self.left), 0),
            (usize::from(self.right), last),
        ]
    }

    /// The border of a set of squares that has one queen on each border line.
    fn from_squares(n: usize, squares: &[(usize, usize); 4]) -> Border {
        let last = n - 1;
        let mut b = Border {
            top: 0,
            bottom: 0,
            left: 0,
            right: 0,
        };
        // Every square lies in [0, n) with n <= 64, so the casts are exact.
        for &(r, x) in squares {
            if r == 0 {
                b.top = x as u8;
            }
            if r == last {
                b.bottom = x as u8;
            }
            if x == 0 {
                b.left = r as u8;
            }
            if x == last {
                b.right = r as u8;
            }
        }
        b
    }

    /// Its image under symmetry `g` (0..8) of the square.
    fn image(self, n: usize, g: usize) -> Border {
        let last = n - 1;
        let squares = self.squares(n).map(|(r, x)| match g {
            0 => (r, x),
            1 => (x, last - r),
            2 => (last - r, last - x),
            3 => (last - x, r),
            4 => (r, last - x),
            5 => (last - r, x),
            6 => (x, r),
            _ => (last - x, last - r),
        });
        Border::from_squares(n, &squares)
    }
}

/// Whether two queens attack each other (distinct squares on one line).
fn attack(a: (usize, usize), b: (usize, usize)) -> bool {
    a != b && (a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1))
}

/// Whether border queens can belong to one solution: no two attack each
/// other. (A corner queen must be the queen of both its lines: a second
/// queen on one of them would share it.)
fn consistent(squares: &[(usize, usize); 4]) -> bool {
    (0..4).all(|i| (i + 1..4).all(|j| !attack(squares[i], squares[j])))
}

/// One representative constellation, ready to search.
#[derive(Debug, Clone)]
struct Prepared {
    border: Border,
    /// Size of its orbit under the eight symmetries.
    weight: u8,
    /// Number of free rows (rows without a border queen).
    rows: usize,
    /// The free rows, top to bottom.
    row_of: [u8; MAX_N],
    /// Squares of each free row (by index) open after the border queens.
    allowed: [Mask; MAX_N],

    /// Gap from each free row to the next one: the attack masks shift by it.
    shift: [u32; MAX_N],
    /// The columns without a border queen.
    open_cols: Mask,
}

impl Prepared {
    fn new(n: usize, border: Border, weight: u8) -> Prepared {
        let squares = border.squares(n);
        let mut fixed_rows = 0u64;
        let mut fixed_cols: Mask = 0;
        for &(r, x) in &squares {
            fixed_rows |= 1 << r;
            fixed_cols |= 1 << x;
        }
        let board = ((1u64 << n) - 1) as Mask;
        let mut p = Prepared {
            border,
            weight,
            rows: 0,
            row_of: [0; MAX_N],
            allowed: [0; MAX_N],
            shift: [1; MAX_N],
            open_cols: board & !fixed_cols,
        };
        for r in (0..n).filter(|&r| fixed_rows & (1 << r) == 0) {
            let mut open = p.open_cols;
            for &(r0, x0) in &squares {
                let d = r.abs_diff(r0);
                if x0 + d < n {
                    open &= !((1 as Mask) << (x0 + d));
                }
                if x0 >= d {
                    open &= !((1 as Mask) << (x0 - d));
                }
            }
            p.row_of[p.rows] = r as u8;
            p.allowed[p.rows] = open;
            p.rows += 1;
        }
        for i in 0..p.rows.saturating_sub(1) {
            p.shift[i] = u32::from(p.row_of[i + 1] - p.row_of[i]);
        }

        p
    }

    /// A guess at the size of its search, to choose among the eight images
    /// of a constellation the one to search: the product of the numbers of
    /// open squares of the top half of the free rows (plus two rows). The
    /// counts are the same for every image, the trees are not: putting the
    /// most constrained rows first cuts the search at n = 16 by a third
    /// against the lexicographically smallest image.
    fn score(&self) -> u64 {
        let depth = (self.rows / 2 + 2).min(self.rows);
        self.allowed[..depth]
            .iter()
            .fold(1u64, |p, a| p.saturating_mul(u64::from(a.count_ones())))
    }

    /// The attack masks on free row `start` after placing `prefix` (one
    /// column per free row from the top), or `None` if the prefix is not
    /// consistent.
    fn masks_after(&self, prefix: &[u8]) -> Option<(Mask, Mask, Mask)> {
        let (mut ld, mut rd, mut col) = (0, 0, 0);
        for (i, &x) in prefix.iter().enumerate() {
            let bit = (1 as Mask) << x;
            if self.allowed[i] & !(ld | rd | col) & bit == 0 {
                return None;
            }
            ld = (ld | bit) << self.shift[i];
            rd = (rd | bit) >> self.shift[i];
            col |= bit;
        }
        Some((ld, rd, col))
    }
}

/// Every border of the `n × n` board (`n ≥ 1`) whose queens do not attack
/// each other, in lexicographic order of `(top, bottom, left, right)`.
fn borders(n: usize) -> Vec<Border> {
    // Coordinates are below n <= MAX_N, so the casts are exact.
    let all = (0..n).flat_map(|top| {
        (0..n).flat_map(move |bottom| {
            (0..n).flat_map(move |left| {
                (0..n).map(move |right| Border {
                    top: top as u8,
                    bottom: bottom as u8,
                    left: left as u8,
                    right: right as u8,
                })
            })
        })
    });
    all.filter(|b| consistent(&b.squares(n))).collect()
}

/// Every representative constellation of the `n × n` board (`n ≥ 1`) — the
/// lexicographically smallest border of every orbit, in increasing order —
/// with the size of its orbit.
fn representatives(n: usize) -> Vec<(Border, u8)> {
    let mut found = Vec::new();
    for b in borders(n) {
        let mut fixed = 0;
        let mut smallest = true;
        for g in 0..8 {
            let image = b.image(n, g);
            if image < b {
                smallest = false;
                break;
            }
            if image == b {
                fixed += 1;
            }
        }
        if smallest {
            found.push((b, (8 / fixed) as u8));
        }
    }
    found
}

/// [`Split::count_one`] calls its `poll` every this many chunks (a few
/// milliseconds of search).
const POLL_CHUNKS: u32 = 1024;

/// Nodes taken from a free row at a time (see [`complete`]). With AVX2 at
/// n = 17 on one loaded core, best of 3: 64 nodes 1.69 s, 128 1.49 s, 256
/// 1.38 s, 512 1.38 s (the portable code: the same at 64 and 256).
const CHUNK: usize = 256;

/// Size of each free row's buffer. A row receives the children of a chunk
/// only while it holds fewer than `CHUNK` nodes, and a chunk has at most 32
/// children per node, so `33 · CHUNK` nodes always fit, plus the lanes a
/// vector store writes past the end. A power of two, so that an index
/// masked by `ROOM − 1` needs no bounds check.
const ROOM: usize = 16384;
const _: () = assert!(ROOM.is_power_of_two() && ROOM >= 33 * CHUNK + 16);

/// The nodes waiting on one free row, one array per attack mask (a node's
/// open squares are recomputed when it is expanded: cheaper than moving
/// them).
struct Level {
    ld: Box<[Mask; ROOM]>,
    rd: Box<[Mask; ROOM]>,
    col: Box<[Mask; ROOM]>,
}

impl Level {
    fn new() -> Level {
        let array =
            || -> Box<[Mask; ROOM]> { vec![0; ROOM].into_boxed_slice().try_into().expect("ROOM") };
        Level {
            ld: array(),
            rd: array(),
            col: array(),
        }
    }

    /// Writes node `(ld, rd, col)` at `o` (masked into the buffer).
    #[inline(always)]
    fn put(&mut self, o: usize, ld: Mask, rd: Mask, col: Mask) {
        let o = o & (ROOM - 1);
        self.ld[o] = ld;
        self.rd[o] = rd;
        self.col[o] = col;
    }
}

thread_local! {
    /// The node buffers of [`complete`], kept per thread so that they are
    /// allocated once, not once per subproblem.
    static LEVELS: std::cell::RefCell<Vec<Level>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How the chunks are expanded: portable code, or AVX2 (eight nodes at a
/// time) where the processor has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kernel {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The best kernel this processor runs, or the portable one if the
    /// environment variable `CSP_SIMD` is `portable` (as for the engine's
    /// vector passes).
    fn detect() -> Kernel {
        static KERNEL: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
        *KERNEL.get_or_init(|| {
            if std::env::var("CSP_SIMD").as_deref() == Ok("portable") {
                return Kernel::Portable;
            }
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt")
            {
                return Kernel::Avx2;
            }
            Kernel::Portable
        })
    }
}

/// The number of ways to complete `p` from free row `start` with the given
/// attack masks on that row (unweighted), or `Break` if `poll` stopped it,
/// expanding with `kernel` (see [`Kernel::detect`]).
///
/// The nodes of the search wait in one buffer per free row and are expanded
/// a *chunk* of up to [`CHUNK`] at a time, from the deepest row that has a
/// whole chunk (or, if none has, the deepest row that has nodes). A chunk is
/// expanded without data-dependent branches: each node's open squares are
/// taken lowest first, a fixed number of times (then again only while some
/// node has squares left), and every child is written to the next row's
/// buffer, whose end advances only if the child and the row after it both
/// have an open square. A node-by-node search takes a mispredicted branch
/// on most squares (whether to descend, whether the row is done); here the
/// branches are per chunk. The last two free rows are finished in closed
/// form, from the squares of the third last.
fn complete<P>(
    kernel: Kernel,
    p: &Prepared,
    start: usize,
    ld: Mask,
    rd: Mask,
    col: Mask,
    poll: &mut P,
) -> ControlFlow<(), u64>
where
    P: FnMut() -> ControlFlow<()>,
{
    if p.rows - start < 4 {
        return ControlFlow::Continue(complete_small(p, start, ld, rd, col));
    }
    let free = p.allowed[start] & !(ld | rd | col);
    if free == 0 {
        return ControlFlow::Continue(0);
    }
    LEVELS.with(|levels| {
        let levels = &mut *levels.borrow_mut();
        while levels.len() < p.rows {
            levels.push(Level::new());
        }
        levels[start].put(0, ld, rd, col);
        search_chunks(kernel, p, start, levels, poll)
    })
}

/// The loop of [`complete`] over chunks, from one node on free row `start`.
fn search_chunks<P>(
    kernel: Kernel,
    p: &Prepared,
    start: usize,
    levels: &mut [Level],
    poll: &mut P,
) -> ControlFlow<(), u64>
where
    P: FnMut() -> ControlFlow<()>,
{
    let m = p.rows;
    // The squares of free row `last`, the third last, are finished in
    // closed form.
    let last = m - 3;
    let tail = Tail::new(p);
    let mut len = [0usize; MAX_N];
    len[start] = 1;
    // The rows with nodes, and those with a whole chunk (m < 32).
    let mut busy: u32 = 1 << start;
    let mut full: u32 = 0;
    let mut count = 0u64;
    let mut chunks = 0u32;
    loop {
        let pick = if full != 0 { full } else { busy };
        if pick == 0 {
            return ControlFlow::Continue(count);
        }
        let row = (31 - pick.leading_zeros()) as usize;
        let k = len[row].min(CHUNK);
        let base = len[row] - k;
        len[row] = base;
        if base < CHUNK {
            full &= !(1 << row);
        }
        if base == 0 {
            busy &= !(1 << row);
        }
        let s = p.shift[row];
        let here = p.allowed[row];
        if row == last {
            count += finish(kernel, &tail, &levels[row], base, k, here, s);
        } else {
            let next = row + 1;
            let rows = Rows {
                here,
                s,
                open: p.allowed[next],
                s2: p.shift[next],
                open2: p.allowed[next + 1],
            };
            let (above, below) = levels.split_at_mut(next);
            let o = len[next];
            len[next] += expand(kernel, &rows, &above[row], base, k, &mut below[0], o);
            if len[next] >= CHUNK {
                full |= 1 << next;
            }
            if len[next] > 0 {
                busy |= 1 << next;
            }
        }
        chunks = chunks.wrapping_add(1);
        if chunks.is_multiple_of(POLL_CHUNKS) {
            poll()?;
        }
    }
}

/// What [`expand`] needs of the rows: the open squares of the chunk's row,
/// the shift from it to the next, the next row's open squares, its shift
/// and the open squares of the row after it.
struct Rows {
    here: Mask,
    s: u32,
    open: Mask,
    s2: u32,
    open2: Mask,
}

/// Expands nodes `base..base + k` of `src` into `dst` from its node `o` on
/// (`o < CHUNK`, `k ≤ CHUNK`); returns the number of children kept.
fn expand(
    kernel: Kernel,
    rows: &Rows,
    src: &Level,
    base: usize,
    k: usize,
    dst: &mut Level,
    o: usize,
) -> usize {
    assert!(o < CHUNK && k <= CHUNK && base + k + 8 <= ROOM);
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Avx2` is only chosen where the processor has
        // AVX2 and popcnt; the bounds are those asserted above.
        Kernel::Avx2 => unsafe { avx2::expand(rows, src, base, k, dst, o) },
        Kernel::Portable if (rows.s == 1) & (rows.s2 == 1) => {
            expand_portable::<true>(rows, src, base, k, dst, o)
        }
        Kernel::Portable => expand_portable::<false>(rows, src, base, k, dst, o),
    }
}

/// The completions of nodes `base..base + k` of `src`, on the third last
/// free row (`here` its open squares, `s` the shift to the second last).
fn finish(
    kernel: Kernel,
    tail: &Tail,
    src: &Level,
    base: usize,
    k: usize,
    here: Mask,
    s: u32,
) -> u64 {
    assert!(k <= CHUNK && base + k + 8 <= ROOM);
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `expand`.
        Kernel::Avx2 => unsafe { avx2::finish(tail, src, base, k, here, s) },
        Kernel::Portable if (s == 1) & (tail.s == 1) => {
            finish_portable::<true>(tail, src, base, k, here, s)
        }
        Kernel::Portable => finish_portable::<false>(tail, src, base, k, here, s),
    }
}

/// Writes the child of a node on square `bit` at `o` and returns the next
/// free position: `o + 1` if `valid` and the child and the row after it
/// have an open square, else `o`. `ONE`: both shifts are 1.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn push_child<const ONE: bool>(
    rows: &Rows,
    ld: Mask,
    rd: Mask,
    col: Mask,
    bit: Mask,
    valid: bool,
    dst: &mut Level,
    o: usize,
) -> usize {
    let (s, s2) = if ONE { (1, 1) } else { (rows.s, rows.s2) };
    let ld = (ld | bit) << s;
    let rd = (rd | bit) >> s;
    let col = col | bit;
    let free = rows.open & !(ld | rd | col);
    let ahead = rows.open2 & !((ld << s2) | (rd >> s2) | col);
    dst.put(o, ld, rd, col);
    o + usize::from(valid & (free != 0) & (ahead != 0))
}

/// [`expand`] in portable code: two squares per node without a branch (a
/// node has one or two in 84 % of cases at n = 15), then a loop.
#[inline(always)]
fn expand_portable<const ONE: bool>(
    rows: &Rows,
    src: &Level,
    base: usize,
    k: usize,
    dst: &mut Level,
    o: usize,
) -> usize {
    let mut end = o;
    for i in base..base + k {
        let i = i & (ROOM - 1);
        let (ld, rd, col) = (src.ld[i], src.rd[i], src.col[i]);
        let f = rows.here & !(ld | rd | col);
        // Every node has an open square.
        let b0 = f & f.wrapping_neg();
        let f = f ^ b0;
        end = push_child::<ONE>(rows, ld, rd, col, b0, true, dst, end);
        let b1 = f & f.wrapping_neg();
        let mut f = f ^ b1;
        end = push_child::<ONE>(rows, ld, rd, col, b1, b1 != 0, dst, end);
        while f != 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            end = push_child::<ONE>(rows, ld, rd, col, bit, true, dst, end);
        }
    }
    end - o
}

/// [`finish`] in portable code. `ONE`: `s` and the tail's shift are 1.
#[inline(always)]
fn finish_portable<const ONE: bool>(
    tail: &Tail,
    src: &Level,
    base: usize,
    k: usize,
    here: Mask,
    s: u32,
) -> u64 {
    let s = if ONE { 1 } else { s };
    let mut count = 0;
    for i in base..base + k {
        let i = i & (ROOM - 1);
        let (ld, rd, col) = (src.ld[i], src.rd[i], src.col[i]);
        let mut f = here & !(ld | rd | col);
        while f != 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            count += tail.finish::<ONE>((ld | bit) << s, (rd | bit) >> s, col | bit);
        }
    }
    count
}

/// The last two free rows of a constellation.
struct Tail {
    /// The columns without a border queen.
    open_cols: Mask,
    /// Open squares of the second last free row.
    upper: Mask,
    /// Shift from it to the last free row.
    s: u32,
    /// Open squares of the last free row.
    lower: Mask,
}

impl Tail {
    fn new(p: &Prepared) -> Tail {
        let upper = p.rows - 2;
        Tail {
            open_cols: p.open_cols,
            upper: p.allowed[upper],
            s: p.shift[upper],
            lower: p.allowed[upper + 1],
        }
    }

    /// Completions of the last two free rows, given the masks on the first
    /// of them: exactly two columns are left, so there are two candidate
    /// endings, both tested without branches. `ONE`: `self.s` is 1.
    #[inline(always)]
    fn finish<const ONE: bool>(&self, ld: Mask, rd: Mask, col: Mask) -> u64 {
        let s = if ONE { 1 } else { self.s };
        let open = self.open_cols & !col;
        let first = open & open.wrapping_neg();
        let second = open ^ first;
        let free_upper = self.upper & !(ld | rd);
        let first_ok = (free_upper & first != 0)
            & (self.lower & second & !(((ld | first) << s) | ((rd | first) >> s)) != 0);
        let second_ok = (free_upper & second != 0)
            & (self.lower & first & !(((ld | second) << s) | ((rd | second) >> s)) != 0);
        u64::from(first_ok) + u64::from(second_ok)
    }
}

/// The AVX2 kernels: eight nodes at a time, children compacted into the
/// next row's buffer with a permutation per mask of kept lanes.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Level, Mask, Rows, Tail, ROOM};
    use std::arch::x86_64::*;

    /// For each 8-bit mask of lanes, the indices of its set lanes first.
    static COMPACT: [[u32; 8]; 256] = compact_table();

    const fn compact_table() -> [[u32; 8]; 256] {
        let mut table = [[0; 8]; 256];
        let mut mask = 0;
        while mask < 256 {
            let (mut lane, mut j) = (0, 0);
            while lane < 8 {
                if mask >> lane & 1 == 1 {
                    table[mask][j] = lane as u32;
                    j += 1;
                }
                lane += 1;
            }
            mask += 1;
        }
        table
    }

    /// Eight masks from `a[i..i + 8]`.
    ///
    /// # Safety
    ///
    /// `i + 8 <= ROOM`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load(a: &[u32; ROOM], i: usize) -> __m256i {
        debug_assert!(i + 8 <= ROOM);
        // SAFETY: in bounds by the caller's promise; unaligned load.
        unsafe { _mm256_loadu_si256(a.as_ptr().add(i).cast()) }
    }

    /// Stores the lanes `perm` picks of `v` at `a[o..o + 8]`.
    ///
    /// # Safety
    ///
    /// `o + 8 <= ROOM`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(a: &mut [u32; ROOM], o: usize, v: __m256i, perm: __m256i) {
        debug_assert!(o + 8 <= ROOM);
        // SAFETY: in bounds by the caller's promise; unaligned store.
        unsafe {
            _mm256_storeu_si256(
                a.as_mut_ptr().add(o).cast(),
                _mm256_permutevar8x32_epi32(v, perm),
            )
        }
    }

    /// The lanes among `base..base + k` (from `i`), all ones, as a mask.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lanes(i: usize, end: usize) -> __m256i {
        let left = (end - i).min(8) as i32;
        _mm256_cmpgt_epi32(
            _mm256_set1_epi32(left),
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        )
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn is_zero(v: __m256i) -> __m256i {
        _mm256_cmpeq_epi32(v, _mm256_setzero_si256())
    }

    /// The lowest set bit of every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lowest(v: __m256i) -> __m256i {
        _mm256_and_si256(v, _mm256_sub_epi32(_mm256_setzero_si256(), v))
    }

    /// Calls `visit(bit, ld, rd, col)` for the open squares of nodes
    /// `base..base + k` of `src`, eight nodes at a time, lowest square
    /// first: `bit` is the square (zero in the lanes with none left), the
    /// masks those of the child on the next free row (`s` the shift to it,
    /// `here` the open squares of the nodes' row). Three squares per lane
    /// always (most nodes have one to three), then only while a lane has
    /// squares left.
    ///
    /// # Safety
    ///
    /// `base + k + 8 <= ROOM`.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn squares(
        src: &Level,
        base: usize,
        k: usize,
        here: Mask,
        s: u32,
        mut visit: impl FnMut(__m256i, __m256i, __m256i, __m256i),
    ) {
        let here = _mm256_set1_epi32(here as i32);
        let s = _mm_cvtsi32_si128(s as i32);
        let end = base + k;
        let mut i = base;
        while i < end {
            // SAFETY: `i + 8 <= end + 7 < ROOM`.
            let (ld, rd, col) = unsafe { (load(&src.ld, i), load(&src.rd, i), load(&src.col, i)) };
            let attacked = _mm256_or_si256(_mm256_or_si256(ld, rd), col);
            let mut f = _mm256_and_si256(_mm256_andnot_si256(attacked, here), lanes(i, end));
            let mut step = 0;
            loop {
                let bit = lowest(f);
                f = _mm256_xor_si256(f, bit);
                visit(
                    bit,
                    _mm256_sll_epi32(_mm256_or_si256(ld, bit), s),
                    _mm256_srl_epi32(_mm256_or_si256(rd, bit), s),
                    _mm256_or_si256(col, bit),
                );
                step += 1;
                if step >= 3 && _mm256_movemask_ps(_mm256_castsi256_ps(is_zero(f))) == 0xff {
                    break;
                }
            }
            i += 8;
        }
    }

    /// `super::expand` for AVX2.
    ///
    /// # Safety
    ///
    /// The processor has AVX2 and popcnt; `o < CHUNK`, `k <= CHUNK` and
    /// `base + k + 8 <= ROOM` (so every load and store is in bounds).
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) unsafe fn expand(
        rows: &Rows,
        src: &Level,
        base: usize,
        k: usize,
        dst: &mut Level,
        o: usize,
    ) -> usize {
        let s2 = _mm_cvtsi32_si128(rows.s2 as i32);
        let open = _mm256_set1_epi32(rows.open as i32);
        let open2 = _mm256_set1_epi32(rows.open2 as i32);
        let mut out = o;
        let child = |bit, ld, rd, col| {
            let attacked = _mm256_or_si256(_mm256_or_si256(ld, rd), col);
            let free = _mm256_andnot_si256(attacked, open);
            let next = _mm256_or_si256(
                _mm256_or_si256(_mm256_sll_epi32(ld, s2), _mm256_srl_epi32(rd, s2)),
                col,
            );
            let ahead = _mm256_andnot_si256(next, open2);
            let bad = _mm256_or_si256(_mm256_or_si256(is_zero(bit), is_zero(free)), is_zero(ahead));
            let kept = !_mm256_movemask_ps(_mm256_castsi256_ps(bad)) & 0xff;
            let perm = _mm256_loadu_si256(COMPACT[kept as usize].as_ptr().cast());
            // SAFETY: `out` grows by at most 8 per square from `o < CHUNK`,
            // at most 32 squares per node, so `out + 8 <= 33 * CHUNK + 8 <=
            // ROOM`.
            unsafe {
                store(&mut dst.ld, out, ld, perm);
                store(&mut dst.rd, out, rd, perm);
                store(&mut dst.col, out, col, perm);
            }
            out += kept.count_ones() as usize;
        };
        // SAFETY: `base + k + 8 <= ROOM`.
        unsafe { squares(src, base, k, rows.here, rows.s, child) };
        out - o
    }

    /// All ones in the lanes where putting the second last row's queen on
    /// `a` and the last row's on `b` is not a solution (or the square is
    /// `absent`), given the masks `ld`, `rd` on the second last row.
    #[inline]
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    fn not_ending(
        ld: __m256i,
        rd: __m256i,
        free_upper: __m256i,
        lower: __m256i,
        ts: __m128i,
        a: __m256i,
        b: __m256i,
        absent: __m256i,
    ) -> __m256i {
        let attacked = _mm256_or_si256(
            _mm256_sll_epi32(_mm256_or_si256(ld, a), ts),
            _mm256_srl_epi32(_mm256_or_si256(rd, a), ts),
        );
        let last = _mm256_andnot_si256(attacked, _mm256_and_si256(lower, b));
        let here = _mm256_and_si256(free_upper, a);
        _mm256_or_si256(_mm256_or_si256(is_zero(here), is_zero(last)), absent)
    }

    /// `super::finish` for AVX2.
    ///
    /// # Safety
    ///
    /// The processor has AVX2 and popcnt; `base + k + 8 <= ROOM`.
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) unsafe fn finish(
        tail: &Tail,
        src: &Level,
        base: usize,
        k: usize,
        here: Mask,
        s: u32,
    ) -> u64 {
        let ts = _mm_cvtsi32_si128(tail.s as i32);
        let open_cols = _mm256_set1_epi32(tail.open_cols as i32);
        let upper = _mm256_set1_epi32(tail.upper as i32);
        let lower = _mm256_set1_epi32(tail.lower as i32);
        let ones = _mm256_set1_epi32(-1);
        // Per lane, minus the number of endings (a lane gains at most two
        // per square, far from overflowing in one chunk).
        let mut acc = _mm256_setzero_si256();
        let endings = |bit, ld, rd, col| {
            let open = _mm256_andnot_si256(col, open_cols);
            let first = lowest(open);
            let second = _mm256_xor_si256(open, first);
            let free_upper = _mm256_andnot_si256(_mm256_or_si256(ld, rd), upper);
            let absent = is_zero(bit);
            let ending = |a, b| not_ending(ld, rd, free_upper, lower, ts, a, b, absent);
            acc = _mm256_add_epi32(acc, _mm256_xor_si256(ending(first, second), ones));
            acc = _mm256_add_epi32(acc, _mm256_xor_si256(ending(second, first), ones));
        };
        // SAFETY: `base + k + 8 <= ROOM`.
        unsafe { squares(src, base, k, here, s, endings) };
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` has room for eight i32.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), acc) };
        lanes.iter().map(|&c| u64::from(c.unsigned_abs())).sum()
    }
}

/// Completions when at most three free rows are left: plain recursion (the
/// reference the tests hold the chunked search to).
fn complete_small(p: &Prepared, row: usize, ld: Mask, rd: Mask, col: Mask) -> u64 {
    if row == p.rows {
        return 1;
    }
    let mut free = p.allowed[row] & !(ld | rd | col);
    let s = p.shift[row];
    let mut count = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        count += complete_small(p, row + 1, (ld | bit) << s, (rd | bit) >> s, col | bit);
    }
    count
}

/// Calls `f` with every consistent placement of the first `depth` free rows
/// of `p`, in search order (smallest columns first).
fn prefixes(p: &Prepared, depth: usize, f: &mut impl FnMut(&[u8])) {
    fn go(
        p: &Prepared,
        depth: usize,
        row: usize,
        masks: (Mask, Mask, Mask),
        placed: &mut Vec<u8>,
        f: &mut impl FnMut(&[u8]),
    ) {
        if row == depth {
            f(placed);
            return;
        }
        let (ld, rd, col) = masks;
        let mut free = p.allowed[row] & !(ld | rd | col);
        let s = p.shift[row];
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            placed.push(bit.trailing_zeros() as u8);
            go(
                p,
                depth,
                row + 1,
                ((ld | bit) << s, (rd | bit) >> s, col | bit),
                placed,
                f,
            );
            placed.pop();
        }
    }
    go(p, depth.min(p.rows), 0, (0, 0, 0), &mut Vec::new(), f);
}

/// One subproblem of a [`Split`], as printed by `csp queens N --count
/// --split D`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subproblem<'a> {
    /// Its index in the list.
    pub index: usize,
    /// The border queens of the representative constellation.
    pub border: Border,
    /// How many solutions each of its solutions stands for (the orbit size
    /// of the constellation).
    pub weight: u32,
    /// Columns (0-based) of the queens of the first free rows, top to
    /// bottom.
    pub prefix: &'a [u8],
    /// The rows of those queens.
    pub rows: Vec<usize>,
}

/// The list of subproblems of depth `depth` for the `n × n` board.
#[derive(Debug, Clone)]
pub struct Split {
    n: usize,
    depth: usize,
    constellations: Vec<Prepared>,
    /// Constellation of each subproblem.
    owner: Vec<u32>,
    /// Prefix of each subproblem: `depth` bytes (padded for constellations
    /// with fewer free rows).
    prefix: Vec<u8>,
}

impl Split {
    /// The subproblems of the `n`-queens count: the representative
    /// constellations (see the [module](self) documentation), each with the
    /// queens of its first `depth` free rows.
    ///
    /// For `n = 0` the list holds one subproblem, the empty board.
    ///
    /// # Errors
    ///
    /// [`ConstellationError::TooLarge`] for `n > MAX_N`,
    /// [`ConstellationError::TooDeep`] for `depth > MAX_DEPTH`.
    ///
    /// ```
    /// let split = csp_queens::constellation::Split::new(8, 0).unwrap();
    /// let first = split.get(0);
    /// assert_eq!(first.prefix.len(), 0);
    /// assert!([2, 4, 8].contains(&first.weight));
    /// ```
    pub fn new(n: usize, depth: usize) -> Result<Split, ConstellationError> {
        if n > MAX_N {
            return Err(ConstellationError::TooLarge { n, max: MAX_N });
        }
        if depth > MAX_DEPTH {
            return Err(ConstellationError::TooDeep {
                depth,
                max: MAX_DEPTH,
            });
        }
        let mut split = Split {
            n,
            depth,
            constellations: Vec::new(),
            owner: Vec::new(),
            prefix: Vec::new(),
        };
        if n == 0 {
            return Ok(split);
        }
        for (border, weight) in representatives(n) {
            let p = (0..8)
                .map(|g| Prepared::new(n, border.image(n, g), weight))
                .min_by_key(|p| p.score())
                .expect("eight images");
            let index = split.constellations.len() as u32;
            if split.owner.len() > MAX_SUBPROBLEMS {
                return Err(ConstellationError::TooMany { n, depth });
            }
            prefixes(&p, depth, &mut |placed| {
                split.owner.push(index);
                split.prefix.extend_from_slice(placed);
                split.prefix.resize(split.owner.len() * depth, 0);
            });
            split.constellations.push(p);
        }
        split.interleave();
        Ok(split)
    }

    /// Reorders the subproblems so that any range of consecutive indices
    /// mixes all kinds of constellations: index `j` takes the subproblem at
    /// `j · stride mod len` of the generation order, for a stride near
    /// `len / φ` coprime to `len`. In generation order the costliest
    /// subproblems (corner queens, three fixed queens instead of four) come
    /// first, and the first of sixteen equal slices took 2.5 times the mean.
    fn interleave(&mut self) {
        let len = self.owner.len();
        if len < 3 {
            return;
        }
        let gcd = |mut a: usize, mut b: usize| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let mut stride = (len as f64 * 0.618_033_988_75) as usize;
        while gcd(stride, len) != 1 {
            stride += 1;
        }
        let d = self.depth;
        let mut owner = Vec::with_capacity(len);
        let mut prefix = Vec::with_capacity(self.prefix.len());
        for j in 0..len {
            let i = ((j as u128 * stride as u128) % len as u128) as usize;
            owner.push(self.owner[i]);
            prefix.extend_from_slice(&self.prefix[i * d..(i + 1) * d]);
        }
        self.owner = owner;
        self.prefix = prefix;
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The split depth.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The number of subproblems (1 for `n = 0`).
    pub fn len(&self) -> usize {
        if self.n == 0 {
            1
        } else {
            self.owner.len()
        }
    }

    /// Whether the list is empty (boards with no solution can have no
    /// consistent constellation at all, as for `n = 2`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of representative constellations.
    pub fn constellations(&self) -> usize {
        self.constellations.len()
    }

    /// Subproblem `index`.
    ///
    /// # Panics
    ///
    /// If `index >= self.len()` or `n = 0`.
    pub fn get(&self, index: usize) -> Subproblem<'_> {
        let p = &self.constellations[self.owner[index] as usize];
        let len = self.depth.min(p.rows);
        let prefix = &self.prefix[index * self.depth..index * self.depth + len];
        Subproblem {
            index,
            border: p.border,
            weight: u32::from(p.weight),
            prefix,
            rows: p.row_of[..len].iter().map(|&r| usize::from(r)).collect(),
        }
    }

    /// The weighted number of solutions of subproblem `index`.
    ///
    /// # Panics
    ///
    /// If `index >= self.len()`.
    pub fn count_one(&self, index: usize) -> u128 {
        match self.count_polled(index, &mut || ControlFlow::Continue(())) {
            ControlFlow::Continue(c) => c,
            ControlFlow::Break(()) => unreachable!("the poll never stops"),
        }
    }

    /// [`Split::count_one`], calling `poll` every few milliseconds of search;
    /// `Break` if it stopped the count.
    fn count_polled<P>(&self, index: usize, poll: &mut P) -> ControlFlow<(), u128>
    where
        P: FnMut() -> ControlFlow<()>,
    {
        if self.n == 0 {
            assert_eq!(index, 0, "subproblem index out of range");
            return ControlFlow::Continue(1);
        }
        let p = &self.constellations[self.owner[index] as usize];
        let len = self.depth.min(p.rows);
        let prefix = &self.prefix[index * self.depth..index * self.depth + len];
        let Some((ld, rd, col)) = p.masks_after(prefix) else {
            return ControlFlow::Continue(0);
        };
        let raw = complete(Kernel::detect(), p, len, ld, rd, col, poll)?;
        ControlFlow::Continue(u128::from(raw) * u128::from(p.weight))
    }

    /// Counts the subproblems of `range` on `threads` threads (0: one per
    /// core) within `budget`, calling `done(index, count)` as each one
    /// finishes (from any thread, in any order).
    ///
    /// Returns the count of every subproblem of the range, in index order,
    /// `None` for those the budget cut short or never started, and the status
    /// of the run. The counts do not depend on the number of threads.
    ///
    /// # Errors
    ///
    /// [`ConstellationError::BadRange`] if the range does not fit the list,
    /// [`ConstellationError::ThreadPool`] if the pool cannot be started.
    ///
    /// ```
    /// use csp_queens::constellation::Split;
    /// use csp_queens::permutation::{Budget, Status};
    /// let split = Split::new(9, 1).unwrap();
    /// let (counts, status) = split
    ///     .count_range(0..split.len(), 2, &Budget::unlimited(), &|_, _| {})
    ///     .unwrap();
    /// assert_eq!(status, Status::Completed);
    /// assert_eq!(counts.iter().map(|c| c.unwrap()).sum::<u128>(), 352);
    /// ```
    pub fn count_range(
        &self,
        range: Range<usize>,
        threads: usize,
        budget: &Budget<'_>,
        done: &(dyn Fn(usize, u128) + Sync),
    ) -> Result<(Vec<Option<u128>>, Status), ConstellationError> {
        if range.start > range.end || range.end > self.len() {
            return Err(ConstellationError::BadRange {
                range,
                len: self.len(),
            });
        }
        let stop = Stop::new(budget);
        let one = |index: usize| -> Option<u128> {
            if stop.now() {
                return None;
            }
            let counted = if budget.deadline.is_none() && budget.cancel.is_none() {
                self.count_polled(index, &mut || ControlFlow::Continue(()))
            } else {
                self.count_polled(index, &mut || {
                    if stop.now() {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
            };
            match counted {
                ControlFlow::Continue(c) => {
                    done(index, c);
                    Some(c)
                }
                ControlFlow::Break(()) => None,
            }
        };
        let counts: Vec<Option<u128>> = if threads == 1 {
            range.map(one).collect()
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| ConstellationError::ThreadPool {
                    message: e.to_string(),
                })?;
            pool.install(|| range.into_par_iter().with_max_len(1).map(one).collect())
        };
        Ok((counts, stop.status()))
    }
}

/// The number of solutions of the `n`-queens problem (OEIS A000170) by the
/// constellation method, on `threads` threads (0: one per core).
///
/// # Errors
///
/// As [`count_within`].
///
/// ```
/// assert_eq!(csp_queens::constellation::count(12, 1).unwrap(), 14200);
/// ```
pub fn count(n: usize, threads: usize) -> Result<u128, ConstellationError> {
    Ok(count_within(n, threads, &Budget::unlimited(), &|_, _| {})?.0)
}

/// The split depth [`count_within`] uses: the constellations alone (a few
/// thousand tasks from `n = 14` on), or one more row for small boards.
pub fn default_depth(n: usize) -> usize {
    if n < 14 {
        1
    } else {
        0
    }
}

/// [`count`] within a budget, calling `progress(done, total)` whenever a
/// subproblem of the [`default_depth`] split finishes. With a status other
/// than [`Status::Completed`] the count covers only the finished
/// subproblems, a lower bound.
///
/// # Errors
///
/// [`ConstellationError::TooLarge`] for `n > MAX_N`;
/// [`ConstellationError::ThreadPool`] if the pool cannot be started.
///
/// ```
/// use csp_queens::constellation::count_within;
/// use csp_queens::permutation::{Budget, Status};
/// use std::time::Instant;
/// let past = Budget::unlimited().with_deadline(Instant::now());
/// let (part, status) = count_within(30, 1, &past, &|_, _| {}).unwrap();
/// assert_eq!((part, status), (0, Status::Deadline));
/// ```
pub fn count_within(
    n: usize,
    threads: usize,
    budget: &Budget<'_>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(u128, Status), ConstellationError> {
    let split = Split::new(n, default_depth(n))?;
    let total = split.len();
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let (counts, status) = split.count_range(0..total, threads, budget, &|_, _| {
        let k = finished.fetch_add(1, Ordering::Relaxed) + 1;
        progress(k, total);
    })?;
    Ok((counts.iter().flatten().sum(), status))
}

#[cfg(test)]
mod tests {
    use super::*;

    const A000170: [u128; 16] = [
        1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
    ];

    #[test]
    fn counts_match_oeis_up_to_13() {
        for (n, &known) in A000170.iter().enumerate().take(14) {
            assert_eq!(count(n, 1).unwrap(), known, "n = {n}");
        }
    }

    /// Every kernel this machine runs, against the plain recursion, on every
    /// subproblem of several boards and depths (both shift cases, chunks
    /// that fill and overflow a row).
    #[test]
    fn kernels_agree_with_plain_recursion() {
        let mut kernels = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            kernels.push(Kernel::Avx2);
        }
        let mut seen = 0u64;
        for n in 6..=14 {
            for depth in [0, 1, 2] {
                let split = Split::new(n, depth).unwrap();
                for i in 0..split.len() {
                    let p = &split.constellations[split.owner[i] as usize];
                    let len = depth.min(p.rows);
                    let prefix = &split.prefix[i * depth..i * depth + len];
                    let Some((ld, rd, col)) = p.masks_after(prefix) else {
                        continue;
                    };
                    let plain = complete_small(p, len, ld, rd, col);
                    for &kernel in &kernels {
                        let mut go = || ControlFlow::Continue(());
                        let got = complete(kernel, p, len, ld, rd, col, &mut go);
                        assert_eq!(
                            got,
                            ControlFlow::Continue(plain),
                            "{kernel:?}, n = {n}, subproblem {i} of depth {depth}"
                        );
                    }
                    seen += plain;
                }
            }
        }
        assert!(seen > 0);
    }

    #[test]
    fn orbit_weights_add_up_to_all_borders() {
        // Every consistent border is the image of exactly one representative,
        // so the weights add up to the number of consistent borders.
        for n in 1..=9 {
            let all = borders(n).len();
            let weights: usize = representatives(n)
                .iter()
                .map(|&(_, w)| usize::from(w))
                .sum();
            assert_eq!(weights, all, "n = {n}");
        }
    }

    #[test]
    fn splits_of_every_depth_add_up() {
        for (n, &known) in A000170.iter().enumerate().take(12).skip(4) {
            for depth in 0..=4 {
                let split = Split::new(n, depth).unwrap();
                let total: u128 = (0..split.len()).map(|i| split.count_one(i)).sum();
                assert_eq!(total, known, "n = {n}, depth = {depth}");
            }
        }
    }

    #[test]
    fn subproblems_are_consistent_and_distinct() {
        let split = Split::new(10, 2).unwrap();
        for i in 0..split.len() {
            let s = split.get(i);
            assert_eq!(s.prefix.len(), 2);
            assert_eq!(s.rows.len(), 2);
            assert!(s.rows[0] > 0 && s.rows[0] < s.rows[1]);
        }
        // Every (constellation, prefix) once.
        let mut all: Vec<(Border, Vec<u8>)> = (0..split.len())
            .map(|i| (split.get(i).border, split.get(i).prefix.to_vec()))
            .collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), split.len());
    }

    #[test]
    fn bad_sizes_and_ranges_are_errors() {
        assert!(matches!(
            count(33, 1),
            Err(ConstellationError::TooLarge { n: 33, .. })
        ));
        assert!(matches!(
            Split::new(8, 9),
            Err(ConstellationError::TooDeep { depth: 9, .. })
        ));
        let split = Split::new(8, 1).unwrap();
        let err = split
            .count_range(5..split.len() + 1, 1, &Budget::unlimited(), &|_, _| {})
            .unwrap_err();
        assert!(err.to_string().contains("does not fit"));
    }
}
