//! The bitwise N-queens solver: counting (with the symmetries of the square)
//! and enumeration in lexicographic order.
//!
//! # Representation
//!
//! Rows are filled from the top (row 0) down. Three `u64` masks describe the
//! squares of the current row attacked by the queens above it: bit `c` of
//! `down` is set when column `c` is taken, and the two diagonal masks hold the
//! squares attacked along `x − y` and `x + y`; going one row down shifts the
//! first left by one bit and the second right by one bit. The free squares of
//! a row are `mask & !(left | down | right)`, and the search tries them lowest
//! bit (smallest column) first with `free & free.wrapping_neg()`. The search
//! keeps its own explicit stack of rows instead of recursing. Two cheap
//! additions cut the number of mispredicted branches, which dominate the
//! running time: a queen is only pushed if the row after the next one still
//! has a square free from the queens already placed (a one-row look-ahead),
//! and the last two rows, which must take the last two empty columns in one
//! of two orders, are finished in closed form.
//!
//! # Counting with the eight symmetries
//!
//! [`count`] (and [`count_unique`], [`count_both`]) enumerate only one
//! representative of every class of solutions under the eight symmetries of
//! the square and add the size of its class (2, 4 or 8); the principle is the
//! one of the classic programs by Jeff Somers and "Takaken". Every solution
//! for `n ≥ 2` has at most one queen in a corner (any two corners share a
//! row, a column or a diagonal), which gives two disjoint kinds of classes:
//!
//! * **A corner queen.** Turn the board so that the corner queen sits in the
//!   top-left corner. Two members of the class do (the solution and its
//!   transpose), and no solution equals its own transpose (a queen off the
//!   main diagonal and its mirror image share an anti-diagonal), so the class
//!   has 8 members. The representative is the one where the queen of row 1 is
//!   in a column `b` smaller than the row of the queen in column 1, which the
//!   search enforces by keeping column 1 empty in rows `2..b`.
//! * **No corner queen.** Each of the four border queens lies at some
//!   distance from the two corners of its edge; let `k` be the smallest of
//!   these eight distances. The representatives are turned so that the queen
//!   of row 0 is in column `k < n − 1 − k`; the search then forbids the side
//!   columns in rows `1..k` and the outer `k` columns on both sides in the
//!   last row, and requires both side columns to be taken by row `n − 1 − k`.
//!   Those tests on the partial board cut the search to about an eighth. Only
//!   the three rotations can map such a board onto another board obeying the
//!   same rules (a mirror image would put two queens on one line), and only
//!   when one of three other border queens is also at distance `k`; in those
//!   rare cases the complete board is compared with its rotated images to
//!   keep the lexicographically smallest and to find the size of its class.
//!
//! The work is split into tasks by the first rows of every kind of class and
//! run on a local [rayon] pool; per-task results are summed in task order, so
//! the result does not depend on the number of threads.
//!
//! ```
//! use csp_queens::bitboard;
//! assert_eq!(bitboard::count(8, 1).unwrap(), 92);
//! assert_eq!(bitboard::count_unique(8, 1).unwrap(), 12);
//! let mut first = Vec::new();
//! bitboard::for_each_solution(8, |cols| {
//!     first = cols.to_vec();
//!     std::ops::ControlFlow::Break(())
//! })
//! .unwrap();
//! assert_eq!(first, vec![0, 4, 7, 5, 2, 6, 1, 3]);
//! ```
//!
//! # Why one file
//! About 1,050 lines, of which 300 are comments and 60 tests: counting,
//! symmetric counting and enumeration are one search over the same three
//! masks, written out once per job so that each inner loop stays small.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::permutation::{Budget, Status};

use crate::symmetry::{self, Symmetry};

/// The largest board size accepted: one bit per column of a `u64`.
///
/// Counting boards anywhere near this size would take far longer than any
/// computer has run; the limit only keeps the masks exact.
pub const MAX_N: usize = 64;

/// Errors of the bitboard solver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BitboardError {
    /// The board has more columns than a `u64` mask has bits.
    TooLarge {
        /// The requested board size.
        n: usize,
        /// The largest accepted size, [`MAX_N`].
        max: usize,
    },
    /// The rayon thread pool could not be built.
    ThreadPool {
        /// Rayon's description of the failure.
        message: String,
    },
}

impl fmt::Display for BitboardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitboardError::TooLarge { n, max } => write!(
                f,
                "n = {n} is too large for the bitboard solver (at most {max})"
            ),
            BitboardError::ThreadPool { message } => {
                write!(f, "could not start the thread pool: {message}")
            }
        }
    }
}

impl std::error::Error for BitboardError {}

/// The number of solutions of one board size, all of them and up to symmetry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Counts {
    /// All solutions (OEIS A000170).
    pub total: u128,
    /// Classes of solutions under the eight symmetries of the square (OEIS
    /// A002562).
    pub unique: u128,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.total += other.total;
        self.unique += other.unique;
    }
}

fn check_size(n: usize) -> Result<(), BitboardError> {
    if n > MAX_N {
        Err(BitboardError::TooLarge { n, max: MAX_N })
    } else {
        Ok(())
    }
}

/// The mask of the `n` columns of the board.
fn board_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The mask of the `k` lowest columns.
fn low_bits(k: usize) -> u64 {
    board_mask(k)
}

/// Which kind of representatives a [`Plan`] enumerates, and so how a found
/// board is weighted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Every solution, each counted once.
    Plain,
    /// One of every mirror pair, counted twice.
    Mirror,
    /// Corner-queen representatives, each standing for 8 solutions.
    Corner,
    /// Representatives without corner queens whose row-0 queen is in column
    /// `k`; their weight is decided on the complete board.
    Edge {
        /// Column of the queen in row 0 = the smallest border distance.
        k: usize,
    },
}

/// The per-row restrictions of one search.
#[derive(Debug, Clone)]
struct Plan {
    n: usize,
    kind: Kind,
    /// The `n` columns of the board.
    mask: u64,
    /// Columns a queen of each row may take before attacks are considered.
    allowed: [u64; MAX_N],
    /// A row by which both side columns must be taken (`usize::MAX`: none).
    gate_row: usize,
    /// The two side columns.
    sides: u64,
    /// Rows whose column is fixed by the plan itself.
    fixed_rows: usize,
}

impl Plan {
    fn new(n: usize, kind: Kind) -> Plan {
        let mut allowed = [0u64; MAX_N];
        allowed[..n].fill(board_mask(n));
        Plan {
            n,
            kind,
            mask: board_mask(n),
            allowed,
            gate_row: usize::MAX,
            sides: if n == 0 { 0 } else { 1 | (1u64 << (n - 1)) },
            fixed_rows: 0,
        }
    }

    fn plain(n: usize) -> Plan {
        Plan::new(n, Kind::Plain)
    }

    /// Plans for mirror halving (`n ≥ 2`): row 0 in the left half, or, for
    /// odd `n`, row 0 in the middle and row 1 in the left half.
    fn mirror(n: usize) -> Vec<Plan> {
        let half = n / 2;
        let mut left = Plan::new(n, Kind::Mirror);
        left.allowed[0] = low_bits(half);
        let mut plans = vec![left];
        if n % 2 == 1 {
            let mut middle = Plan::new(n, Kind::Mirror);
            middle.allowed[0] = 1u64 << half;
            middle.allowed[1] = low_bits(half);
            middle.fixed_rows = 1;
            plans.push(middle);
        }
        plans
    }

    /// Plans for the full symmetry method (`n ≥ 4`), corner plans first.
    fn symmetric(n: usize) -> Vec<Plan> {
        let mask = board_mask(n);
        let mut plans = Vec::new();
        // Queen in the top-left corner, queen of row 1 in column b; column 1
        // stays empty in rows 2..b (its queen must come below row b).
        for b in 2..n - 1 {
            let mut plan = Plan::new(n, Kind::Corner);
            plan.allowed[0] = 1;
            plan.allowed[1] = 1u64 << b;
            for row in 2..b {
                plan.allowed[row] = mask & !2;
            }
            plan.fixed_rows = 2;
            plans.push(plan);
        }
        // No corner queen; the row-0 queen is at the smallest border
        // distance k.
        let mut k = 1;
        while k < n - 1 - k {
            let mut plan = Plan::new(n, Kind::Edge { k });
            plan.allowed[0] = 1u64 << k;
            for row in 1..k {
                plan.allowed[row] = mask & !plan.sides;
            }
            let outer = low_bits(k) | (low_bits(k) << (n - k));
            plan.allowed[n - 1] = mask & !outer;
            plan.gate_row = n - 1 - k;
            plan.fixed_rows = 1;
            plans.push(plan);
            k += 1;
        }
        plans
    }

    /// The free squares of `row` given the attack masks from the rows above.
    #[inline(always)]
    fn free(&self, row: usize, left: u64, down: u64, right: u64) -> u64 {
        let mut free = self.allowed[row & 63] & !(left | down | right);
        if row == self.gate_row {
            let taken = down & self.sides;
            if taken == 0 {
                return 0;
            }
            if taken != self.sides {
                free &= self.sides;
            }
        }
        free
    }
}

/// One level of the explicit search stack.
#[derive(Debug, Clone, Copy, Default)]
struct Frame {
    left: u64,
    down: u64,
    right: u64,
    free: u64,
}

/// [`explore_polled`] calls its `poll` on returning to a row with at least
/// this many rows below it (a finished subtree of that depth: at most a few
/// milliseconds of search).
const POLL_ROWS: usize = 12;

/// [`explore_polled`] without a poll.
fn explore<const RECORD: bool, F>(
    plan: &Plan,
    prefix: &[u64],
    target: usize,
    leaf: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&[u64]) -> ControlFlow<()>,
{
    explore_polled::<RECORD, F, _>(
        plan,
        prefix,
        target,
        leaf,
        &mut || ControlFlow::Continue(()),
    )
}

/// Depth-first search of `plan` from the placed rows `prefix` (one bit per
/// row, as produced by an earlier call), calling `leaf` whenever the rows
/// `0..target` are all placed, smallest columns first.
///
/// With `RECORD` the leaf receives the bits of the rows `0..target`; without
/// it the slice has the right length but stale contents in the rows the
/// search placed, which saves a store per node for the counters that only
/// need to know that a leaf exists. With `target == n` the leaves are
/// complete solutions. `prefix` must be consistent with `plan` and
/// `prefix.len() <= target <= plan.n`. `poll` is called now and then (see
/// [`POLL_ROWS`]) and stops the search when it breaks (time limits).
fn explore_polled<const RECORD: bool, F, P>(
    plan: &Plan,
    prefix: &[u64],
    target: usize,
    leaf: &mut F,
    poll: &mut P,
) -> ControlFlow<()>
where
    F: FnMut(&[u64]) -> ControlFlow<()>,
    P: FnMut() -> ControlFlow<()>,
{
    let n = plan.n;
    debug_assert!(prefix.len() <= target && target <= n);
    let mut placed = [0u64; MAX_N];
    let (mut left, mut down, mut right) = (0u64, 0u64, 0u64);
    for (row, &bit) in prefix.iter().enumerate() {
        placed[row] = bit;
        left = (left | bit) << 1;
        down |= bit;
        right = (right | bit) >> 1;
    }
    let start = prefix.len();
    if start == target {
        return leaf(&placed[..start]);
    }
    // Complete solutions: the last two rows are finished in closed form.
    let full = target == n;
    if full && start + 1 == n {
        let free = plan.free(start, left, down, right);
        if free != 0 {
            placed[start] = free;
            return leaf(&placed[..n]);
        }
        return ControlFlow::Continue(());
    }
    if full && start + 2 == n {
        return finish_two_rows(plan, left, down, right, &mut placed, leaf);
    }
    if full && start + 3 == n {
        return finish_three_rows(plan, left, down, right, &mut placed, leaf);
    }
    let stop = if full { n - 3 } else { target };
    // The frame of the current row lives in `current`; `stack[r]` keeps the
    // frame of every row `r` above it. Indices are masked with 63 (rows are
    // below MAX_N = 64) so the compiler can drop the bounds checks.
    let mut stack = [Frame::default(); MAX_N];
    let mut current = Frame {
        left,
        down,
        right,
        free: plan.free(start, left, down, right),
    };
    let mut row = start;
    loop {
        if current.free == 0 {
            if row == start {
                return ControlFlow::Continue(());
            }
            row -= 1;
            // Back at a row with at least POLL_ROWS rows below it: a whole
            // subtree that deep is done, so polls are rare and their cost
            // scales with the work between them.
            if row + POLL_ROWS <= n {
                poll()?;
            }
            current = stack[row & 63];
            continue;
        }
        let bit = current.free & current.free.wrapping_neg();
        current.free ^= bit;
        if RECORD {
            placed[row & 63] = bit;
        }
        let left = (current.left | bit) << 1;
        let down = current.down | bit;
        let right = (current.right | bit) >> 1;
        let next = row + 1;
        if next == stop {
            if full {
                finish_three_rows(plan, left, down, right, &mut placed, leaf)?;
            } else {
                leaf(&placed[..next])?;
            }
        } else {
            let free = plan.free(next, left, down, right);
            // Look one row further: the row after `next` must already have a
            // square that the queens placed so far leave free.
            let ahead = plan.allowed[(next + 1) & 63] & !((left << 1) | down | (right >> 1));
            if (free != 0) & (ahead != 0) {
                stack[row & 63] = current;
                current = Frame {
                    left,
                    down,
                    right,
                    free,
                };
                row = next;
            }
        }
    }
}

/// Completes the last three rows given the attack masks on row `n − 3`:
/// a tight loop over that row's free squares, each finished by
/// [`finish_two_rows`], without the stack traffic of the general loop.
#[inline(always)]
fn finish_three_rows<F>(
    plan: &Plan,
    left: u64,
    down: u64,
    right: u64,
    placed: &mut [u64; MAX_N],
    leaf: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&[u64]) -> ControlFlow<()>,
{
    let row = plan.n - 3;
    let mut free = plan.free(row, left, down, right);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        placed[row & 63] = bit;
        finish_two_rows(
            plan,
            (left | bit) << 1,
            down | bit,
            (right | bit) >> 1,
            placed,
            leaf,
        )?;
    }
    ControlFlow::Continue(())
}

/// Completes rows `n − 2` and `n − 1` given the attack masks on row `n − 2`.
///
/// Exactly two columns are still empty, so there are only two ways to end
/// the board; both are tested without branching on the intermediate
/// results, which avoids most of the mispredicted branches of the deepest
/// levels of the search.
#[inline(always)]
fn finish_two_rows<F>(
    plan: &Plan,
    left: u64,
    down: u64,
    right: u64,
    placed: &mut [u64; MAX_N],
    leaf: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&[u64]) -> ControlFlow<()>,
{
    let n = plan.n;
    let (upper, lower) = (n - 2, n - 1);
    let open = plan.mask & !down;
    let first = open & open.wrapping_neg();
    let second = open ^ first;
    let free_upper = plan.free(upper, left, down, right);
    let last_after = |bit: u64| plan.free(lower, (left | bit) << 1, down | bit, (right | bit) >> 1);
    let first_ok = (free_upper & first != 0) & (last_after(first) != 0);
    let second_ok = (free_upper & second != 0) & (last_after(second) != 0);
    if first_ok | second_ok {
        if first_ok {
            placed[upper & 63] = first;
            placed[lower & 63] = second;
            leaf(&placed[..n])?;
        }
        if second_ok {
            placed[upper & 63] = second;
            placed[lower & 63] = first;
            leaf(&placed[..n])?;
        }
    }
    ControlFlow::Continue(())
}

/// Converts one-bit-per-row masks to 0-based columns.
fn bits_to_cols(bits: &[u64], cols: &mut [u32]) {
    for (col, bit) in cols.iter_mut().zip(bits) {
        *col = bit.trailing_zeros();
    }
}

/// The weight of a complete board found by an [`Kind::Edge`] plan: 0 if a
/// rotated image obeying the same rules is lexicographically smaller (that
/// image is counted instead), otherwise the size of its class.
fn edge_weight(placed: &[u64], k: usize) -> u32 {
    let n = placed.len();
    // A rotated image has its row-0 queen in column k (and so obeys the plan)
    // exactly when one of these three border queens is at distance k too.
    let quarter = placed[n - 1 - k] == 1; // left column, row n-1-k
    let half = placed[n - 1] == 1u64 << (n - 1 - k); // bottom row
    let three_quarters = placed[k] == 1u64 << (n - 1); // right column, row k
    if !(quarter || half || three_quarters) {
        return 8;
    }
    let mut cols = [0u32; MAX_N];
    let mut image = [0u32; MAX_N];
    let cols = &mut cols[..n];
    let image = &mut image[..n];
    bits_to_cols(placed, cols);
    let mut unchanged = 0;
    for (applies, sym) in [
        (quarter, Symmetry::Rotate90),
        (half, Symmetry::Rotate180),
        (three_quarters, Symmetry::Rotate270),
    ] {
        if applies {
            symmetry::apply_into(sym, cols, image);
            match (*image).cmp(cols) {
                std::cmp::Ordering::Less => return 0,
                std::cmp::Ordering::Equal => unchanged += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
    }
    // The stabilizer is {id}, {id, half turn} or all four rotations.
    match unchanged {
        0 => 8,
        1 => 4,
        _ => 2,
    }
}

/// Counts of the complete boards below `prefix` in `plan`; stops early when
/// `stop` says so (looked at as [`POLL_ROWS`] says).
fn run_count(plan: &Plan, prefix: &[u64], stop: &Stop<'_>) -> Counts {
    if stop.budget.deadline.is_none() && stop.budget.cancel.is_none() {
        // Nothing to look at: the loop without polls (measured 2-4 % faster).
        return count_below(plan, prefix, &mut || ControlFlow::Continue(()));
    }
    count_below(plan, prefix, &mut || {
        if stop.now() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// [`run_count`] with a given poll.
fn count_below<P>(plan: &Plan, prefix: &[u64], poll: &mut P) -> Counts
where
    P: FnMut() -> ControlFlow<()>,
{
    let mut counts = Counts::default();
    let n = plan.n;
    let _ = match plan.kind {
        Kind::Plain | Kind::Mirror | Kind::Corner => {
            // Each solution stands for a fixed number of solutions.
            let (weight, unique) = match plan.kind {
                Kind::Plain => (1, 0),
                Kind::Mirror => (2, 0),
                _ => (8, 1),
            };
            explore_polled::<false, _, _>(
                plan,
                prefix,
                n,
                &mut |_| {
                    counts.total += weight;
                    counts.unique += unique;
                    ControlFlow::Continue(())
                },
                poll,
            )
        }
        Kind::Edge { k } => explore_polled::<true, _, _>(
            plan,
            prefix,
            n,
            &mut |placed| {
                let weight = edge_weight(placed, k);
                if weight != 0 {
                    counts.total += u128::from(weight);
                    counts.unique += 1;
                }
                ControlFlow::Continue(())
            },
            poll,
        ),
    };
    counts
}

/// A budget shared by the tasks of one count: the first task to find it
/// exhausted records why, and the others stop at their next look.
pub(crate) struct Stop<'a> {
    pub(crate) budget: &'a Budget<'a>,
    why: std::sync::Mutex<Option<Status>>,
    flag: AtomicBool,
}

impl<'a> Stop<'a> {
    pub(crate) fn new(budget: &'a Budget<'a>) -> Stop<'a> {
        Stop {
            budget,
            why: std::sync::Mutex::new(None),
            flag: AtomicBool::new(false),
        }
    }

    /// Whether to stop now (out of line and cold: the search loop keeps its
    /// registers).
    #[cold]
    #[inline(never)]
    pub(crate) fn now(&self) -> bool {
        if self.flag.load(Ordering::Relaxed) {
            return true;
        }
        match self.budget.interrupted() {
            None => false,
            Some(why) => {
                if let Ok(mut w) = self.why.lock() {
                    w.get_or_insert(why);
                }
                self.flag.store(true, Ordering::Relaxed);
                true
            }
        }
    }

    pub(crate) fn status(self) -> Status {
        self.why
            .into_inner()
            .ok()
            .flatten()
            .unwrap_or(Status::Completed)
    }
}

/// A unit of parallel work: a plan and the first rows placed.
#[derive(Debug, Clone)]
struct Task {
    plan: usize,
    prefix: Vec<u64>,
}

/// Splits every plan into tasks by the two rows after its fixed ones, in
/// search order.
fn make_tasks(plans: &[Plan]) -> Vec<Task> {
    let mut tasks = Vec::new();
    for (index, plan) in plans.iter().enumerate() {
        let target = (plan.fixed_rows + 2).min(plan.n.saturating_sub(1));
        let _ = explore::<true, _>(plan, &[], target, &mut |prefix| {
            tasks.push(Task {
                plan: index,
                prefix: prefix.to_vec(),
            });
            ControlFlow::Continue(())
        });
    }
    tasks
}

/// Runs `job` on a local pool of `threads` threads (0: one per core).
fn with_pool<R, F>(threads: usize, job: F) -> Result<R, BitboardError>
where
    R: Send,
    F: FnOnce() -> R + Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| BitboardError::ThreadPool {
            message: e.to_string(),
        })?;
    Ok(pool.install(job))
}

/// Runs all tasks of `plans` in parallel and sums their counts in task order;
/// a task started after the budget ran out counts nothing.
fn count_plans(
    plans: &[Plan],
    threads: usize,
    budget: &Budget<'_>,
) -> Result<(Counts, Status), BitboardError> {
    let tasks = make_tasks(plans);
    let stop = Stop::new(budget);
    let parts: Vec<Counts> = with_pool(threads, || {
        tasks
            .par_iter()
            .map(|task| {
                if stop.now() {
                    Counts::default()
                } else {
                    run_count(&plans[task.plan], &task.prefix, &stop)
                }
            })
            .collect()
    })?;
    let mut total = Counts::default();
    for part in parts {
        total += part;
    }
    Ok((total, stop.status()))
}

/// Counts for boards too small for the symmetry plans (`n < 4`), by plain
/// enumeration and a canonical-form test.
fn small_counts(n: usize) -> Counts {
    let mut counts = Counts::default();
    let mut scratch = vec![0u32; n];
    let _ = for_each_cols(&Plan::plain(n), |cols| {
        counts.total += 1;
        if symmetry::is_canonical_unchecked(cols, &mut scratch) {
            counts.unique += 1;
        }
        ControlFlow::Continue(())
    });
    counts
}

/// Both counts of the `n`-queens problem, using the full symmetry method on
/// `threads` threads (0: one per core).
///
/// The empty board (`n = 0`) counts as one solution.
///
/// # Errors
///
/// [`BitboardError::TooLarge`] for `n > MAX_N`; [`BitboardError::ThreadPool`]
/// if the pool cannot be started.
///
/// ```
/// let counts = csp_queens::bitboard::count_both(10, 2).unwrap();
/// assert_eq!((counts.total, counts.unique), (724, 92));
/// ```
pub fn count_both(n: usize, threads: usize) -> Result<Counts, BitboardError> {
    Ok(count_within(n, threads, &Budget::unlimited())?.0)
}

/// [`count_both`] within a budget: its deadline and cancel flag are looked
/// at before each task and whenever a subtree of twelve rows is finished, at
/// most a few milliseconds of search apart (its node limit is not used). With a status other than
/// [`Status::Completed`] the counts cover only the part of the search done,
/// a lower bound.
///
/// # Errors
///
/// As [`count_both`].
///
/// ```
/// use csp_queens::bitboard;
/// use csp_queens::permutation::{Budget, Status};
/// use std::time::Instant;
/// let (all, status) = bitboard::count_within(10, 1, &Budget::unlimited()).unwrap();
/// assert_eq!((all.total, status), (724, Status::Completed));
/// let past = Budget::unlimited().with_deadline(Instant::now());
/// let (part, status) = bitboard::count_within(30, 1, &past).unwrap();
/// assert_eq!((part.total, status), (0, Status::Deadline));
/// ```
pub fn count_within(
    n: usize,
    threads: usize,
    budget: &Budget<'_>,
) -> Result<(Counts, Status), BitboardError> {
    check_size(n)?;
    if n < 4 {
        return Ok((small_counts(n), Status::Completed));
    }
    count_plans(&Plan::symmetric(n), threads, budget)
}

/// The number of solutions of the `n`-queens problem (OEIS A000170), counted
/// with the eight symmetries of the square on `threads` threads (0: one per
/// core). The result is the same for every thread count.
///
/// The work grows about sevenfold from one `n` to the next; `n = 16` takes
/// under two seconds on one core of a current machine.
///
/// # Errors
///
/// As [`count_both`].
///
/// ```
/// assert_eq!(csp_queens::bitboard::count(12, 0).unwrap(), 14200);
/// ```
pub fn count(n: usize, threads: usize) -> Result<u128, BitboardError> {
    Ok(count_both(n, threads)?.total)
}

/// The number of solutions up to rotations and reflections (OEIS A002562).
///
/// # Errors
///
/// As [`count_both`].
///
/// ```
/// assert_eq!(csp_queens::bitboard::count_unique(12, 1).unwrap(), 1787);
/// ```
pub fn count_unique(n: usize, threads: usize) -> Result<u128, BitboardError> {
    Ok(count_both(n, threads)?.unique)
}

/// The number of solutions using only the left-right mirror symmetry (half
/// the search), on the calling thread. For comparison with [`count`].
///
/// # Errors
///
/// [`BitboardError::TooLarge`] for `n > MAX_N`.
///
/// ```
/// assert_eq!(csp_queens::bitboard::count_mirror(9).unwrap(), 352);
/// ```
pub fn count_mirror(n: usize) -> Result<u128, BitboardError> {
    Ok(count_mirror_within(n, &Budget::unlimited())?.0)
}

/// [`count_mirror`] within a budget, looked at as in [`count_within`].
///
/// # Errors
///
/// As [`count_mirror`].
pub fn count_mirror_within(n: usize, budget: &Budget<'_>) -> Result<(u128, Status), BitboardError> {
    check_size(n)?;
    if n < 2 {
        return Ok((small_counts(n).total, Status::Completed));
    }
    let stop = Stop::new(budget);
    let total = Plan::mirror(n)
        .iter()
        .map(|plan| run_count(plan, &[], &stop).total)
        .sum();
    Ok((total, stop.status()))
}

/// The number of solutions by searching the whole tree, on the calling
/// thread. For comparison with [`count`].
///
/// # Errors
///
/// [`BitboardError::TooLarge`] for `n > MAX_N`.
///
/// ```
/// assert_eq!(csp_queens::bitboard::count_plain(6).unwrap(), 4);
/// ```
pub fn count_plain(n: usize) -> Result<u128, BitboardError> {
    check_size(n)?;
    if n == 0 {
        return Ok(1);
    }
    Ok(run_count(&Plan::plain(n), &[], &Stop::new(&Budget::unlimited())).total)
}

/// Calls `f` with every complete board of `plan`, as columns, in search order.
fn for_each_cols<F>(plan: &Plan, mut f: F) -> ControlFlow<()>
where
    F: FnMut(&[u32]) -> ControlFlow<()>,
{
    let n = plan.n;
    if n == 0 {
        return f(&[]);
    }
    let mut cols = vec![0u32; n];
    explore::<true, _>(plan, &[], n, &mut |placed| {
        bits_to_cols(placed, &mut cols);
        f(&cols)
    })
}

/// Calls `f` with every solution, as 0-based columns per row, in
/// lexicographic order (row 0's column smallest first), until `f` returns
/// [`ControlFlow::Break`].
///
/// Returns `Break` if `f` stopped the enumeration and `Continue` if every
/// solution was visited. For `n = 0`, `f` sees the empty board once.
///
/// # Errors
///
/// [`BitboardError::TooLarge`] for `n > MAX_N`.
///
/// ```
/// use std::ops::ControlFlow;
/// let mut all = Vec::new();
/// csp_queens::bitboard::for_each_solution(4, |cols| {
///     all.push(cols.to_vec());
///     ControlFlow::Continue(())
/// })
/// .unwrap();
/// assert_eq!(all, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
/// ```
pub fn for_each_solution<F>(n: usize, f: F) -> Result<ControlFlow<()>, BitboardError>
where
    F: FnMut(&[u32]) -> ControlFlow<()>,
{
    check_size(n)?;
    Ok(for_each_cols(&Plan::plain(n), f))
}

/// Calls `f` with one representative of every class of solutions under the
/// eight symmetries: the lexicographically smallest member (see
/// [`symmetry::canonical`]), in lexicographic order, until `f` returns
/// [`ControlFlow::Break`]. The return value is as for [`for_each_solution`].
///
/// # Errors
///
/// [`BitboardError::TooLarge`] for `n > MAX_N`.
///
/// ```
/// use std::ops::ControlFlow;
/// let mut reps = Vec::new();
/// csp_queens::bitboard::for_each_unique(6, |cols| {
///     reps.push(cols.to_vec());
///     ControlFlow::Continue(())
/// })
/// .unwrap();
/// assert_eq!(reps, vec![vec![1, 3, 5, 0, 2, 4]]);
/// ```
pub fn for_each_unique<F>(n: usize, mut f: F) -> Result<ControlFlow<()>, BitboardError>
where
    F: FnMut(&[u32]) -> ControlFlow<()>,
{
    check_size(n)?;
    // The smallest image has its row-0 queen in the left half (or the
    // middle), since the left-right mirror moves it to the other half.
    let mut plan = Plan::plain(n);
    if n > 0 {
        plan.allowed[0] = low_bits(n.div_ceil(2));
    }
    let mut scratch = vec![0u32; n];
    Ok(for_each_cols(&plan, |cols| {
        if symmetry::is_canonical_unchecked(cols, &mut scratch) {
            f(cols)
        } else {
            ControlFlow::Continue(())
        }
    }))
}

/// Every solution, as 0-based columns per row, in lexicographic order,
/// computed in parallel on `threads` threads (0: one per core). The result is
/// the same for every thread count.
///
/// The number of solutions grows quickly (14 772 512 for `n = 16`); this is
/// meant for small boards.
///
/// # Errors
///
/// As [`count_both`].
///
/// ```
/// let sols = csp_queens::bitboard::collect_solutions(6, 2).unwrap();
/// assert_eq!(sols.len(), 4);
/// assert_eq!(sols[0], vec![1, 3, 5, 0, 2, 4]);
/// ```
pub fn collect_solutions(n: usize, threads: usize) -> Result<Vec<Vec<u32>>, BitboardError> {
    check_size(n)?;
    if n == 0 {
        return Ok(vec![Vec::new()]);
    }
    let plans = [Plan::plain(n)];
    let tasks = make_tasks(&plans);
    let parts: Vec<Vec<Vec<u32>>> = with_pool(threads, || {
        tasks
            .par_iter()
            .map(|task| {
                let mut found = Vec::new();
                let _ = explore::<true, _>(&plans[task.plan], &task.prefix, n, &mut |placed| {
                    let mut cols = vec![0u32; n];
                    bits_to_cols(placed, &mut cols);
                    found.push(cols);
                    ControlFlow::Continue(())
                });
                found
            })
            .collect()
    })?;
    Ok(parts.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_beyond_max_are_rejected() {
        let err = count(65, 1).unwrap_err();
        assert_eq!(err, BitboardError::TooLarge { n: 65, max: 64 });
        assert!(err.to_string().contains("65"));
        assert!(count_mirror(100).is_err());
        assert!(count_plain(65).is_err());
        assert!(for_each_solution(65, |_| ControlFlow::Continue(())).is_err());
        assert!(for_each_unique(65, |_| ControlFlow::Continue(())).is_err());
        assert!(collect_solutions(65, 1).is_err());
    }

    #[test]
    fn largest_board_masks_are_exact() {
        // n = 64 uses every bit of the masks. Two rows: 62 squares free in
        // row 1 below a corner queen, 61 below any other.
        let plans = [Plan::plain(64)];
        assert_eq!(make_tasks(&plans).len(), 2 * 62 + 62 * 61);
        // Completing the last rows of a known solution finds only solutions,
        // among them the known one.
        let known = crate::construction::construct(64).unwrap();
        let prefix: Vec<u64> = known[..52].iter().map(|&c| 1u64 << c).collect();
        let mut found = Vec::new();
        let _ = explore::<true, _>(&plans[0], &prefix, 64, &mut |placed| {
            let mut cols = vec![0u32; 64];
            bits_to_cols(placed, &mut cols);
            assert!(crate::verify::check(&cols).is_solution());
            found.push(cols);
            ControlFlow::Continue(())
        });
        assert!(found.contains(&known));
    }

    #[test]
    fn every_plan_kind_agrees_with_plain_search() {
        for n in 4..=11 {
            let plain = count_plain(n).unwrap();
            assert_eq!(count_mirror(n).unwrap(), plain, "mirror n={n}");
            assert_eq!(count(n, 1).unwrap(), plain, "full n={n}");
        }
    }

    #[test]
    fn tasks_cover_the_search_in_order() {
        let plans = [Plan::plain(9)];
        let tasks = make_tasks(&plans);
        assert!(tasks.len() > 50);
        for pair in tasks.windows(2) {
            // Bits compare like columns, so prefixes must increase.
            let a: Vec<u32> = pair[0].prefix.iter().map(|b| b.trailing_zeros()).collect();
            let b: Vec<u32> = pair[1].prefix.iter().map(|b| b.trailing_zeros()).collect();
            assert!(a < b);
        }
    }
}
