//! Two-dimensional strip packing: rectangles of fixed sizes (no rotation)
//! into a strip of fixed width, minimising the height used.
//!
//! Each height `H` tried is a satisfaction problem: rectangles at `(x, y)`
//! inside `W × H` that do not overlap ([`Model::diffn`]), with the
//! redundant [`Model::cumulative`] on each axis (the rectangles' widths as
//! demands on a resource of `W` over the height, their heights on one of
//! `H` over the width) that `docs/packing.md` measures. [`solve`] tries
//! the lower bound first; a packing of height `H` is optimal once `H − 1`
//! is proven to have none.
//!
//! ```
//! use csp_binpack::strip::{check, solve, Options, Strip};
//! // A 2 × 2, two 1 × 1 and a 3 × 1 in a strip of width 3: area 9, height 3.
//! let s = Strip { width: 3, rects: vec![(2, 2), (1, 1), (1, 1), (3, 1)] };
//! let r = solve(&s, Options::default(), None, |_| {});
//! assert!(r.proven);
//! let (height, at) = r.best.unwrap();
//! assert_eq!(height, 3);
//! assert_eq!(check(&s, &at), Ok(3));
//! ```

use csp_core::{
    Domain, LearningOrder, Model, ModelError, Outcome, Search, SearchOptions, Statistics, ValOrder,
    VarId, VarOrder,
};
use csp_text::{data_lines, int as number, tokens};

use crate::ParseError;

/// A strip-packing instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strip {
    /// The width of the strip.
    pub width: i32,
    /// Per rectangle, its `(width, height)`, each at least 1, the width at
    /// most the strip's.
    pub rects: Vec<(i32, i32)>,
}

/// The most rectangles [`parse`] accepts (Hopper and Turton's largest
/// category has 197).
pub const MAX_RECTS: usize = 1_000;
/// The largest width or height [`parse`] accepts (so that the sum of the
/// heights fits an `i32`). The coordinates' domains span the strip's
/// width and the height tried; the search's memory limit bounds what
/// their stores take.
pub const MAX_SIDE: i64 = 100_000;

/// Parses the format of Hopper and Turton's strip-packing sets (2001): the
/// number of rectangles `n`; the strip's width, optionally followed by a
/// height (Hopper and Turton give the sheet's, here read and not used);
/// then `n` lines `width height`. Blank lines and lines starting with `#`
/// are skipped. A rectangle wider than the strip makes the instance
/// infeasible, and the error says so at its width.
pub fn parse(text: &str) -> Result<Strip, ParseError> {
    let mut lines = data_lines(text);
    let last = text.lines().count().max(1);
    let (ln, l) = lines.next().ok_or_else(|| {
        ParseError::new(last, 1, "empty input: expected the number of rectangles")
    })?;
    let t = tokens(l);
    if t.len() > 1 {
        return Err(ParseError::new(
            ln,
            t[1].0,
            format!(
                "expected only the number of rectangles on this line, found '{}'",
                t[1].1
            ),
        ));
    }
    let n = number(ln, t[0], "the number of rectangles", 1, MAX_RECTS as i64)? as usize;
    let (ln, l) = lines.next().ok_or_else(|| {
        ParseError::new(last, 1, "the input ends before the strip's width (line 2)")
    })?;
    let t = tokens(l);
    if t.len() > 2 {
        return Err(ParseError::new(
            ln,
            t[2].0,
            format!("expected 'width [height]', found '{}' after them", t[2].1),
        ));
    }
    let width = number(ln, t[0], "the strip's width", 1, MAX_SIDE)?;
    if let Some(&h) = t.get(1) {
        number(ln, h, "the sheet's height", 0, MAX_SIDE)?;
    }
    let mut rects = Vec::with_capacity(n);
    for (ln, l) in lines.by_ref() {
        let t = tokens(l);
        if rects.len() == n {
            return Err(ParseError::new(
                ln,
                1,
                format!("more rectangles than the {n} announced"),
            ));
        }
        if t.len() != 2 {
            let col = t.get(2).map_or(l.trim_end().chars().count() + 1, |t| t.0);
            return Err(ParseError::new(
                ln,
                col,
                format!(
                    "expected 'width height' for rectangle {}, found {} numbers",
                    rects.len() + 1,
                    t.len()
                ),
            ));
        }
        let w = number(ln, t[0], "a width", 1, MAX_SIDE)?;
        let h = number(ln, t[1], "a height", 1, MAX_SIDE)?;
        if w > width {
            return Err(ParseError::new(
                ln,
                t[0].0,
                format!(
                    "rectangle {} of width {w} is wider than the strip ({width}): \
                     the instance is infeasible (no packing exists)",
                    rects.len() + 1
                ),
            ));
        }
        rects.push((w as i32, h as i32));
    }
    if rects.len() < n {
        return Err(ParseError::new(
            last,
            1,
            format!("the input ends after {} of the {n} rectangles", rects.len()),
        ));
    }
    Ok(Strip {
        width: width as i32,
        rects,
    })
}

impl Strip {
    /// What makes this instance unusable, if anything: [`parse`] never
    /// returns one.
    fn malformed(&self) -> Option<String> {
        if self.width < 1 {
            return Some(format!("the strip's width is {}, below 1", self.width));
        }
        if self.rects.len() > MAX_RECTS {
            return Some(format!(
                "{} rectangles, more than {MAX_RECTS}",
                self.rects.len()
            ));
        }
        let i = self.rects.iter().position(|&(w, h)| {
            w < 1 || h < 1 || w > self.width || h as i64 > MAX_SIDE || w as i64 > MAX_SIDE
        })?;
        Some(format!(
            "rectangle {} is {} × {}, not within 1..={} × 1..={MAX_SIDE}",
            i + 1,
            self.rects[i].0,
            self.rects[i].1,
            self.width
        ))
    }

    /// The total area of the rectangles.
    pub fn area(&self) -> i64 {
        self.rects.iter().map(|&(w, h)| w as i64 * h as i64).sum()
    }
}

/// A lower bound on the height: the tallest rectangle, and the area over
/// the width rounded up (the continuous bound).
pub fn lower_bound(s: &Strip) -> i32 {
    let tallest = s.rects.iter().map(|r| r.1).max().unwrap_or(0);
    let w = s.width.max(1) as i64;
    let area = ((s.area() + w - 1) / w) as i32;
    tallest.max(area)
}

/// Next fit decreasing height (Coffman, Garey, Johnson and Tarjan, 1980):
/// the rectangles by decreasing height, left to right on a shelf, a new
/// shelf on top of the last when the next one does not fit. Returns the
/// corners `(x, y)` of the rectangles, an upper bound for the search.
pub fn shelves(s: &Strip) -> Vec<(i32, i32)> {
    let mut order: Vec<usize> = (0..s.rects.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(s.rects[i].1), i));
    let mut at = vec![(0, 0); s.rects.len()];
    let (mut x, mut y, mut shelf) = (0, 0, 0);
    for i in order {
        let (w, h) = s.rects[i];
        if x + w > s.width {
            y += shelf;
            x = 0;
            shelf = 0;
        }
        at[i] = (x, y);
        x += w;
        shelf = shelf.max(h);
    }
    at
}

/// How each height is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Post the redundant `cumulative` on each axis besides `diffn`.
    pub cumulative: bool,
    /// Search with learning (lazy clause generation).
    pub learning: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            cumulative: true,
            learning: false,
        }
    }
}

/// The model of one height: the rectangles' corners inside `W × H`.
#[derive(Debug)]
pub struct AtHeight {
    /// The model.
    pub model: Model,
    /// Per rectangle, the x of its left side.
    pub xs: Vec<VarId>,
    /// Per rectangle, the y of its bottom side.
    pub ys: Vec<VarId>,
    learning: bool,
    order: Vec<usize>,
}

impl AtHeight {
    /// The search: every x first, then every y, the rectangles in
    /// decreasing order of area (`VarOrder::Input`), each the smallest
    /// value first (`ValOrder::Ascending`: left, then bottom); learning as
    /// the [`Options`] say. Placing the x's first follows Simonis and
    /// O'Sullivan ("Search strategies for rectangle packing", CP 2008),
    /// where the cumulative on x prunes before any y is chosen.
    pub fn options(&self) -> SearchOptions {
        let xs = self.order.iter().map(|&i| self.xs[i]);
        let ys = self.order.iter().map(|&i| self.ys[i]);
        SearchOptions {
            var_order: VarOrder::Input,
            val_order: ValOrder::Ascending,
            decision_vars: xs.chain(ys).collect(),
            learning: self.learning,
            learning_order: LearningOrder::Activity,
            ..Default::default()
        }
    }
}

/// The model of `s` in a box of height `height`: `x` over `0..=W − w`,
/// `y` over `0..=H − h`, [`Model::diffn`], and with
/// [`Options::cumulative`], [`Model::cumulative`] over y (duration `h`,
/// demand `w`, capacity `W`) and over x (duration `w`, demand `h`,
/// capacity `H`). Fails with [`ModelError::Invalid`] for a malformed
/// instance or a rectangle taller than `height`.
pub fn model(s: &Strip, height: i32, options: Options) -> Result<AtHeight, ModelError> {
    if let Some(reason) = s.malformed() {
        return Err(ModelError::Invalid {
            constraint: "strip packing instance",
            reason,
        });
    }
    if let Some(i) = s.rects.iter().position(|r| r.1 > height) {
        return Err(ModelError::Invalid {
            constraint: "strip packing instance",
            reason: format!("rectangle {} is taller than the height {height}", i + 1),
        });
    }
    let mut m = Model::new();
    let mut xs = Vec::with_capacity(s.rects.len());
    let mut ys = Vec::with_capacity(s.rects.len());
    for &(w, h) in &s.rects {
        xs.push(m.new_var(Domain::range(0, s.width - w))?);
        ys.push(m.new_var(Domain::range(0, height - h))?);
    }
    let ws: Vec<i32> = s.rects.iter().map(|r| r.0).collect();
    let hs: Vec<i32> = s.rects.iter().map(|r| r.1).collect();
    m.diffn(&xs, &ys, &ws, &hs)?;
    if options.cumulative {
        m.cumulative(&ys, &hs, &ws, s.width)?;
        m.cumulative(&xs, &ws, &hs, height)?;
    }
    let mut order: Vec<usize> = (0..s.rects.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(ws[i] as i64 * hs[i] as i64), i));
    Ok(AtHeight {
        model: m,
        xs,
        ys,
        learning: options.learning,
        order,
    })
}

/// What the search at one height found.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// The height tried.
    pub height: i32,
    /// `Solved`: a packing; `Unsatisfiable`: none exists; `LimitReached`:
    /// the node limit stopped it.
    pub outcome: Outcome,
    /// The search's counters.
    pub stats: Statistics,
}

/// The result of [`solve`].
#[derive(Debug, Clone)]
pub struct Solved {
    /// The best packing found, its height and each rectangle's corner:
    /// always at least the shelf packing ([`shelves`]).
    pub best: Option<(i32, Vec<(i32, i32)>)>,
    /// True when every height below the best was proven to have no
    /// packing (or is below the [`lower_bound`]).
    pub proven: bool,
    /// The greatest height proven too small, plus one: no packing is lower.
    pub bound: i32,
    /// The searches, lowest height first.
    pub attempts: Vec<Attempt>,
}

impl Solved {
    /// The search nodes over all the attempts.
    pub fn nodes(&self) -> u64 {
        self.attempts.iter().map(|a| a.stats.nodes).sum()
    }
}

/// Minimises the height between the [`lower_bound`] and the [`shelves`]
/// packing's: tries the lower bound first, then gallops up (2, 6, 14, …
/// above the bound, each step past the last height without a packing)
/// until one has a packing, then halves the gap between the highest height without a
/// packing and the best packing found, until they meet. The node limit
/// (`nodes`) is shared by all the attempts, each counting at least one
/// node; the first attempt a limit stops ends the search. Calls `each`
/// after every attempt. Every packing returned has passed [`check`].
pub fn solve(
    s: &Strip,
    options: Options,
    nodes: Option<u64>,
    each: impl FnMut(&Attempt),
) -> Solved {
    solve_with(s, options, nodes, |_| {}, each)
}

/// [`solve`], with `tune` changing each height's search options before
/// it runs (other limits, another order: `csp strippack` applies the
/// command line's engine options there). A search that any limit stops
/// ends the attempts, as the node limit does.
pub fn solve_with(
    s: &Strip,
    options: Options,
    nodes: Option<u64>,
    tune: impl Fn(&mut SearchOptions),
    mut each: impl FnMut(&Attempt),
) -> Solved {
    let shelf = shelves(s);
    let Ok(top) = check(s, &shelf) else {
        return Solved {
            best: None,
            proven: false,
            bound: lower_bound(s),
            attempts: Vec::new(),
        };
    };
    let mut best = (top, shelf);
    // No packing is lower than `lo`; `best` is `hi` high.
    let mut lo = lower_bound(s);
    let mut attempts = Vec::new();
    let mut left = nodes;
    let mut stopped = false;
    // Galloping up from the bound (lo, lo + 2, lo + 6, …) until a height
    // has a packing, then halving the gap.
    let (mut height, mut step, mut galloping) = (lo, 2, true);
    while lo < best.0 {
        height = height.clamp(lo, best.0 - 1);
        let Ok(at) = model(s, height, options) else {
            stopped = true;
            break;
        };
        let mut o = at.options();
        tune(&mut o);
        o.limits.nodes = left;
        let Ok(r) = Search::new(&at.model).options(o).solve() else {
            stopped = true;
            break;
        };
        let attempt = Attempt {
            height,
            outcome: r.outcome,
            stats: r.stats,
        };
        each(&attempt);
        // Every attempt costs at least a node, so that a node limit also
        // bounds the heights tried when each fails at once.
        if let Some(l) = left.as_mut() {
            *l = l.saturating_sub(attempt.stats.nodes.max(1));
        }
        attempts.push(attempt);
        match (r.outcome, r.solution) {
            (_, Some(sol)) => {
                let corners: Vec<(i32, i32)> = at
                    .xs
                    .iter()
                    .zip(&at.ys)
                    .map(|(&x, &y)| (sol[x], sol[y]))
                    .collect();
                match check(s, &corners) {
                    Ok(h) if h <= height => best = (h, corners),
                    _ => {
                        stopped = true;
                        break;
                    }
                }
                galloping = false;
                height = lo + (best.0 - lo) / 2;
            }
            (Outcome::Unsatisfiable, None) => {
                lo = height + 1;
                if galloping {
                    height = lo + step - 1;
                    step = step.saturating_mul(2);
                } else {
                    height = lo + (best.0 - lo) / 2;
                }
            }
            _ => {
                stopped = true;
                break;
            }
        }
        if left == Some(0) && lo < best.0 {
            stopped = true;
            break;
        }
    }
    let proven = !stopped && lo >= best.0;
    let (best, bound) = (Some(best), lo);
    Solved {
        best,
        proven,
        bound,
        attempts,
    }
}

/// An independent check of a packing (`at[i]` the corner of rectangle
/// `i`): inside the strip (x from 0 to `W − w`, y from 0) and no two
/// overlap. Returns the height used, the highest top.
pub fn check(s: &Strip, at: &[(i32, i32)]) -> Result<i32, String> {
    if at.len() != s.rects.len() {
        return Err(format!(
            "{} corners for {} rectangles",
            at.len(),
            s.rects.len()
        ));
    }
    for (i, (&(x, y), &(w, _))) in at.iter().zip(&s.rects).enumerate() {
        if x < 0 || y < 0 || x as i64 + w as i64 > s.width as i64 {
            return Err(format!(
                "rectangle {} at ({x}, {y}) sticks out of the strip of width {}",
                i + 1,
                s.width
            ));
        }
    }
    for i in 0..at.len() {
        for j in i + 1..at.len() {
            let (a, b) = (at[i], at[j]);
            let (ra, rb) = (s.rects[i], s.rects[j]);
            let apart = a.0 as i64 + ra.0 as i64 <= b.0 as i64
                || b.0 as i64 + rb.0 as i64 <= a.0 as i64
                || a.1 as i64 + ra.1 as i64 <= b.1 as i64
                || b.1 as i64 + rb.1 as i64 <= a.1 as i64;
            if !apart {
                return Err(format!("rectangles {} and {} overlap", i + 1, j + 1));
            }
        }
    }
    let top = at
        .iter()
        .zip(&s.rects)
        .map(|(&(_, y), &(_, h))| y as i64 + h as i64)
        .max()
        .unwrap_or(0);
    i32::try_from(top).map_err(|_| format!("height {top} overflows"))
}

/// The widest strip [`render`] draws.
pub const MAX_DRAWN_WIDTH: i32 = 200;
/// The most cells (width × height) [`render`] draws.
pub const MAX_DRAWN_CELLS: i64 = 100_000;

/// The packing as text. Drawn, top row first, when the strip is at most
/// [`MAX_DRAWN_WIDTH`] wide and [`MAX_DRAWN_CELLS`] in area: each cell
/// shows the rectangle covering it (`A`–`Z`, then `a`–`z`, then `0`–`9`,
/// then `#` for the rest), `.` where none does. Larger, one line per
/// rectangle: `rectangle N (w × h) at (x, y)`.
pub fn render(s: &Strip, at: &[(i32, i32)], height: i32) -> String {
    const NAMES: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    if s.width > MAX_DRAWN_WIDTH || s.width as i64 * height.max(0) as i64 > MAX_DRAWN_CELLS {
        let mut out = String::new();
        for (i, (&(x, y), &(w, h))) in at.iter().zip(&s.rects).enumerate() {
            out += &format!("rectangle {} ({w} × {h}) at ({x}, {y})\n", i + 1);
        }
        return out;
    }
    let (w, h) = (s.width.max(0) as usize, height.max(0) as usize);
    let mut grid = vec![vec![b'.'; w]; h];
    for (i, (&(x, y), &(rw, rh))) in at.iter().zip(&s.rects).enumerate() {
        let c = NAMES.get(i).copied().unwrap_or(b'#');
        for row in grid
            .iter_mut()
            .skip(y.max(0) as usize)
            .take(rh.max(0) as usize)
        {
            for cell in row
                .iter_mut()
                .skip(x.max(0) as usize)
                .take(rw.max(0) as usize)
            {
                *cell = c;
            }
        }
    }
    let mut out = String::new();
    for row in grid.iter().rev() {
        out += &String::from_utf8_lossy(row);
        out += "\n";
    }
    out
}
