//! Uniqueness techniques: the Uniqueness Tests 1-6, the Hidden Rectangle
//! and BUG+1 (HoDoKu's codes 0600-0606 and 0610).
//!
//! They rest on a premise the other techniques do not need: the puzzle has
//! exactly one solution. A *deadly pattern* is four empty cells in two
//! rows, two columns and two boxes whose candidates include the same two
//! digits `a` and `b`: in any solution where the four cells hold only `a`
//! and `b` (necessarily `a b / b a`), swapping `a` and `b` in them gives a
//! second solution (every row, column and box of the rectangle keeps one
//! `a` and one `b`, and every cell keeps a candidate). A puzzle with one
//! solution therefore never fills a rectangle that way, and each test
//! finds a candidate whose truth would force it to. BUG+1 is the same
//! argument for a whole grid: when every empty cell but one holds two
//! candidates and every digit has two places in each house, the
//! solutions pair up (each with the one that takes the other candidate
//! in every empty cell), so the one cell with three candidates must take
//! the digit that breaks the pattern.
//!
//! The detectors are written here from the techniques' definitions
//! (HoDoKu's documentation, <https://hodoku.sourceforge.net/en/tech_ur.php>);
//! [`Checker::verify_unique`] proves each step without them: that the
//! state has exactly one completion (by an independent count), that the
//! pattern is deadly, and, with the exact-cover checker, that each
//! conclusion's negation forces the pattern.

use std::sync::Mutex;

use super::*;

/// Is `t` one of the techniques that assume a unique solution?
pub(super) fn is_uniqueness(t: Technique) -> bool {
    use Technique::*;
    matches!(
        t,
        UniquenessTest1
            | UniquenessTest2
            | UniquenessTest3
            | UniquenessTest4
            | UniquenessTest5
            | UniquenessTest6
            | HiddenRectangle
            | BugPlusOne
    )
}

/// The nodes the completion count may visit before it gives up (then
/// the premise is taken as unknown and no uniqueness step is offered).
const COUNT_NODES: usize = 200_000;

/// The last state whose completion was found unique, and its solution:
/// a later state of the same solve has a subset of its candidates, so it
/// has at most that one completion, and has it if it still allows it.
///
/// And the last givens counted, with their solution if they have one.
#[derive(Debug, Default)]
pub(super) struct UniqueCache {
    state: Mutex<Option<StateEntry>>,
    givens: Mutex<Option<GivensEntry>>,
}

/// A state's digits and candidate masks, and its one completion.
type StateEntry = (Vec<u8>, Vec<u32>, Vec<u8>);
/// Givens, and their solution if they have exactly one.
type GivensEntry = (Vec<u8>, Option<Vec<u8>>);
/// A naked subset with the virtual cell: its digits, its other cells,
/// the houses it is found in, the eliminations.
type Subset3 = (u32, Vec<usize>, Vec<House>, Vec<(usize, u8)>);

/// Why a uniqueness step may be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Premise {
    /// The givens alone have exactly one solution, and it completes the
    /// state: a deadly pattern's cells need only not be givens (they may
    /// miss candidates, as in HoDoKu's "missing candidates" cases).
    Givens,
    /// The state itself has exactly one completion (a pencil-mark state
    /// whose givens alone do not decide it): the pattern's cells must be
    /// empty and hold both digits.
    State,
}

/// House number `h` (rows, columns, boxes) as a [`House`].
fn house(h: usize, n: usize) -> House {
    match h / n {
        0 => House::Row(h),
        1 => House::Col(h - n),
        _ => House::Box(h - 2 * n),
    }
}

/// Counts the completions of `pm` (grids that keep its digits, take a
/// candidate in every empty cell and obey the rules), up to `cap`, by
/// depth-first search over the cell or house-digit with fewest options. `None` when the
/// node limit is hit. The first completion found comes back too.
fn completions(pm: &Candidates, cap: usize, limit: usize) -> Option<(usize, Option<Vec<u8>>)> {
    struct Count<'a> {
        pm: &'a Candidates,
        n: usize,
        k: usize,
        value: Vec<u8>,
        used: Vec<u32>,
        nodes: usize,
        limit: usize,
        cap: usize,
        count: usize,
        first: Option<Vec<u8>>,
    }
    impl Count<'_> {
        fn houses(&self, c: usize) -> [usize; 3] {
            let (r, col) = (c / self.n, c % self.n);
            [
                r,
                self.n + col,
                2 * self.n + r / self.k * self.k + col / self.k,
            ]
        }
        fn options(&self, c: usize) -> u32 {
            let [h0, h1, h2] = self.houses(c);
            self.pm.mask(c) & !(self.used[h0] | self.used[h1] | self.used[h2])
        }
        /// `false` when the node limit was hit.
        fn run(&mut self) -> bool {
            self.nodes += 1;
            if self.nodes > self.limit {
                return false;
            }
            // Branch where the choices are fewest: a cell's digits, or
            // a digit's places in a house that lacks it.
            let n = self.n;
            let mut best: Option<(Vec<(usize, u8)>, usize)> = None;
            let mut open = false;
            for c in 0..n * n {
                if self.value[c] != 0 {
                    continue;
                }
                open = true;
                let m = self.options(c);
                let k = m.count_ones() as usize;
                if k == 0 {
                    return true;
                }
                if best.as_ref().is_none_or(|b| k < b.1) {
                    best = Some((digits_of(m).into_iter().map(|d| (c, d)).collect(), k));
                    if k == 1 {
                        break;
                    }
                }
            }
            if !open {
                self.count += 1;
                if self.first.is_none() {
                    self.first = Some(self.value.clone());
                }
                return true;
            }
            if best.as_ref().is_some_and(|b| b.1 > 1) {
                for h in 0..3 * n {
                    for d in 1..=n as u8 {
                        if self.used[h] & bit(d) != 0 {
                            continue;
                        }
                        let places: Vec<(usize, u8)> = self
                            .pm
                            .cells(house(h, n))
                            .iter()
                            .filter(|&&c| self.value[c] == 0 && self.options(c) & bit(d) != 0)
                            .map(|&c| (c, d))
                            .collect();
                        if places.is_empty() {
                            return true;
                        }
                        if best.as_ref().is_none_or(|b| places.len() < b.1) {
                            let k = places.len();
                            best = Some((places, k));
                        }
                    }
                }
            }
            let Some((choices, _)) = best else {
                return true;
            };
            for (c, d) in choices {
                let hs = self.houses(c);
                self.value[c] = d;
                for h in hs {
                    self.used[h] |= bit(d);
                }
                let ok = self.run();
                for h in hs {
                    self.used[h] &= !bit(d);
                }
                self.value[c] = 0;
                if !ok {
                    return false;
                }
                if self.count >= self.cap {
                    return true;
                }
            }
            true
        }
    }
    let n = pm.side();
    let mut s = Count {
        pm,
        n,
        k: pm.box_side(),
        value: (0..n * n).map(|c| pm.value(c)).collect(),
        used: vec![0; 3 * n],
        nodes: 0,
        limit,
        cap,
        count: 0,
        first: None,
    };
    for c in 0..n * n {
        let d = pm.value(c);
        if d == 0 {
            continue;
        }
        for h in s.houses(c) {
            if s.used[h] & bit(d) != 0 {
                return Some((0, None)); // a digit twice in a house
            }
            s.used[h] |= bit(d);
        }
    }
    s.run().then_some((s.count, s.first))
}

impl Checker {
    /// The premise under which uniqueness steps may be taken in `pm`, if
    /// any: [`Premise::Givens`] when the givens of `pm` (its cells marked
    /// given) have exactly one solution and it completes `pm`, else
    /// [`Premise::State`] when `pm` has exactly one completion.
    pub fn uniqueness_premise(&self, pm: &Candidates) -> Option<Premise> {
        let n = pm.side();
        let givens: Vec<u8> = (0..n * n)
            .map(|c| if pm.is_given(c) { pm.value(c) } else { 0 })
            .collect();
        let sol = {
            let mut cache = self.unique.givens.lock().unwrap_or_else(|e| e.into_inner());
            match cache.as_ref() {
                Some((g, sol)) if *g == givens => sol.clone(),
                _ => {
                    let sol = crate::Grid::new(pm.box_side(), givens.clone())
                        .ok()
                        .and_then(|g| {
                            match completions(&Candidates::from_grid(&g), 2, COUNT_NODES) {
                                Some((1, sol)) => sol,
                                _ => None,
                            }
                        });
                    *cache = Some((givens, sol.clone()));
                    sol
                }
            }
        };
        let completes = |sol: &[u8]| {
            (0..n * n).all(|c| match pm.value(c) {
                0 => pm.has(c, sol[c]),
                v => v == sol[c],
            })
        };
        if sol.as_deref().is_some_and(completes) {
            Some(Premise::Givens)
        } else if self.has_one_completion(pm) {
            Some(Premise::State)
        } else {
            None
        }
    }

    /// Does `pm` have exactly one completion? The premise of the
    /// uniqueness techniques: on a state with two completions (a puzzle
    /// with two solutions) or none, or one too large to count within the
    /// node limit, they are not offered.
    pub fn has_one_completion(&self, pm: &Candidates) -> bool {
        let n = pm.side();
        let mut cache = self.unique.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((value, mask, sol)) = cache.as_ref() {
            let inside = value.len() == n * n
                && (0..n * n).all(|c| {
                    let (v, m) = (pm.value(c), pm.mask(c));
                    if value[c] != 0 {
                        v == value[c]
                    } else if v != 0 {
                        mask[c] & bit(v) != 0
                    } else {
                        m & !mask[c] == 0
                    }
                });
            let allows = (0..n * n).all(|c| match pm.value(c) {
                0 => pm.has(c, sol[c]),
                v => v == sol[c],
            });
            if inside && allows {
                return true;
            }
        }
        match completions(pm, 2, COUNT_NODES) {
            Some((1, Some(sol))) => {
                *cache = Some((
                    (0..n * n).map(|c| pm.value(c)).collect(),
                    (0..n * n).map(|c| pm.mask(c)).collect(),
                    sol,
                ));
                true
            }
            _ => false,
        }
    }

    /// Proves a uniqueness step: (1) `pm` has exactly one completion;
    /// (2) the step's pattern is deadly (four empty cells in two rows,
    /// two columns and two boxes, each with both digits; for BUG+1, the
    /// grid without the kept digit in the one trivalue cell is a
    /// bivalue universal grave); (3) for a rectangle, each conclusion's
    /// negation, with the step's rules and the candidates, leaves the
    /// four cells only the two digits (each other candidate of theirs is
    /// proved false by [`check_step`]), so it would give a second
    /// completion by the swap; for BUG+1 each eliminated digit is not
    /// the kept one. So in the one completion every conclusion holds.
    pub(super) fn verify_unique(&self, pm: &Candidates, s: &Step) -> Result<(), String> {
        let n = self.n;
        let fail = |why: String| Err(format!("{}: {why}: {}", s.technique, s.sentence));
        if !s.placements.is_empty() {
            return fail("a uniqueness step here only eliminates".into());
        }
        let Some(premise) = self.uniqueness_premise(pm) else {
            return fail("neither the givens nor the state have exactly one solution".into());
        };
        if s.technique == Technique::BugPlusOne {
            let (&[t], &[b]) = (&s.cells[..], &s.digits[..]) else {
                return fail("BUG+1 names one cell and one digit".into());
            };
            if pm.value(t) != 0 || !pm.has(t, b) {
                return fail(format!("{} does not hold {b}", cell_name(n, t)));
            }
            if s.eliminations.iter().any(|&(c, d)| c != t || d == b) {
                return fail("BUG+1 eliminates only the other digits of its cell".into());
            }
            let mut grave = pm.clone();
            grave.eliminate(t, b);
            return match bug_flaw(&grave) {
                None => Ok(()),
                Some(why) => fail(format!("without {b} in {} {why}", cell_name(n, t))),
            };
        }
        let (Some(q), &[a, b, ..]) = (s.cells.get(..4), &s.digits[..]) else {
            return fail("a rectangle names four cells and two digits".into());
        };
        if let Some(why) = not_deadly(pm, q, a, b, premise) {
            return fail(why);
        }
        let cs = self.constraints(&s.rules);
        let ab = bit(a) | bit(b);
        for &(c, d) in &s.eliminations {
            let mut premises = self.premises(pm, &cs);
            premises.push(Literal::Eq(self.var(c, d), 1));
            for &x in q {
                for f in digits_of(pm.mask(x) & !ab) {
                    let lit = Literal::Eq(self.var(x, f), 0);
                    match check_step(&self.model, &premises, &cs, lit, 1_000_000) {
                        Verdict::Implied => {}
                        v => {
                            return fail(format!(
                                "with {}={d}, {}={f} is not excluded ({v:?})",
                                cell_name(n, c),
                                cell_name(n, x)
                            ))
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Why `q` is not a deadly pattern on `a`/`b` in `pm` under `premise`,
/// if it is not: four cells in a rectangle in two boxes; under
/// [`Premise::State`] empty, each with both digits (so the swap gives a
/// second completion of the state); under [`Premise::Givens`] none given
/// and none placed with another digit (so the swap gives a second
/// solution of the givens).
fn not_deadly(pm: &Candidates, q: &[usize], a: u8, b: u8, premise: Premise) -> Option<String> {
    let n = pm.side();
    let rows: BTreeSet<usize> = q.iter().map(|&c| c / n).collect();
    let cols: BTreeSet<usize> = q.iter().map(|&c| c % n).collect();
    let boxes: BTreeSet<House> = q.iter().map(|&c| pm.houses_of(c)[2]).collect();
    let cells: BTreeSet<usize> = q.iter().copied().collect();
    if cells.len() != 4 || rows.len() != 2 || cols.len() != 2 || boxes.len() != 2 || a == b {
        return Some("the four cells are not a rectangle in two boxes".into());
    }
    match premise {
        Premise::State => q
            .iter()
            .find(|&&c| pm.value(c) != 0 || !pm.has(c, a) || !pm.has(c, b))
            .map(|&c| format!("{} is not an empty cell with {a} and {b}", cell_name(n, c))),
        Premise::Givens => q
            .iter()
            .find(|&&c| pm.is_given(c) || ![0, a, b].contains(&pm.value(c)))
            .map(|&c| {
                format!(
                    "{} is a given or holds neither {a} nor {b}",
                    cell_name(n, c)
                )
            }),
    }
}

/// Why `pm` is not a bivalue universal grave (every empty cell two
/// candidates, every digit missing from a house two places in it).
fn bug_flaw(pm: &Candidates) -> Option<String> {
    let n = pm.side();
    if let Some(c) = (0..n * n).find(|&c| pm.value(c) == 0 && pm.mask(c).count_ones() != 2) {
        return Some(format!("{} has not two candidates", cell_name(n, c)));
    }
    for h in pm.houses() {
        let placed = pm.cells(h).iter().fold(0, |m, &c| m | bit(pm.value(c)));
        for d in 1..=n as u8 {
            if placed & bit(d) == 0 && pm.cells_with(h, d).len() != 2 {
                return Some(format!("{d} has not two places in {h}"));
            }
        }
    }
    None
}

/// A rectangle: corners `r1c1, r1c2, r2c1, r2c2`, empty, in two boxes,
/// with both digits `a < b` in each.
struct Rect {
    q: [usize; 4],
    rows: [usize; 2],
    cols: [usize; 2],
    a: u8,
    b: u8,
}

impl Rect {
    /// Each corner's candidates besides `a` and `b`.
    fn extras(&self, pm: &Candidates) -> [u32; 4] {
        let ab = bit(self.a) | bit(self.b);
        self.q.map(|c| pm.mask(c) & !ab)
    }
}

/// The rectangles of four empty cells in two boxes, and each pair of
/// digits `a < b` that one of them holds alone (every test here has such
/// a cell) and that every cell has (`missing`: that every cell has one of).
fn rectangles(pm: &Candidates, missing: bool) -> Vec<Rect> {
    let (n, k) = (pm.side(), pm.box_side());
    let mut out = Vec::new();
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    // Two boxes: the rows in one band or the columns in
                    // one stack, not both.
                    if (r1 / k == r2 / k) == (c1 / k == c2 / k) {
                        continue;
                    }
                    let q = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    if q.iter().any(|&c| pm.value(c) != 0) {
                        continue;
                    }
                    let mut pairs: Vec<u32> = q
                        .iter()
                        .map(|&c| pm.mask(c))
                        .filter(|m| m.count_ones() == 2)
                        .collect();
                    pairs.sort_unstable();
                    pairs.dedup();
                    for ab in pairs {
                        let fits = |c: &usize| {
                            let m = pm.mask(*c) & ab;
                            if missing {
                                m != 0
                            } else {
                                m == ab
                            }
                        };
                        if !q.iter().all(fits) {
                            continue;
                        }
                        let ds = digits_of(ab);
                        out.push(Rect {
                            q,
                            rows: [r1, r2],
                            cols: [c1, c2],
                            a: ds[0],
                            b: ds[1],
                        });
                    }
                }
            }
        }
    }
    out
}

fn sorted(mut v: Vec<(usize, u8)>) -> Vec<(usize, u8)> {
    v.sort_unstable();
    v.dedup();
    v
}

/// The opening of each rectangle sentence: the cells that hold only the
/// two digits, and the others.
fn rect_text(n: usize, r: &Rect, ex: &[u32; 4]) -> String {
    let (two, more): (Vec<usize>, Vec<usize>) = (0..4).partition(|&i| ex[i] == 0);
    let name = |ix: &[usize]| cells_text(n, &ix.iter().map(|&i| r.q[i]).collect::<Vec<_>>());
    let ab = format!("{}/{}", r.a, r.b);
    match (two.len(), more.len()) {
        (_, 0) => format!("{} hold only {ab}", name(&two)),
        (0, _) => format!("{} hold {ab} and more", name(&more)),
        (1, _) => format!(
            "{} holds only {ab} and {} hold {ab} and more",
            name(&two),
            name(&more)
        ),
        (_, 1) => format!(
            "{} hold only {ab} and {} holds {ab} and more",
            name(&two),
            name(&more)
        ),
        _ => format!(
            "{} hold only {ab} and {} hold {ab} and more",
            name(&two),
            name(&more)
        ),
    }
}

/// Every instance of `t` (a uniqueness technique); `missing`: rectangles
/// may miss one of their two digits in some cells (valid when the givens
/// alone have one solution, [`Premise::Givens`]).
pub(super) fn find(pm: &Candidates, t: Technique, missing: bool) -> Vec<Step> {
    if t == Technique::BugPlusOne {
        return bug_plus_one(pm);
    }
    let n = pm.side();
    let mut out: Vec<Step> = Vec::new();
    for r in rectangles(pm, missing) {
        let ex = r.extras(pm);
        let more: Vec<usize> = (0..4).filter(|&i| ex[i] != 0).collect();
        let two: Vec<usize> = (0..4).filter(|&i| ex[i] == 0).collect();
        let cells_at = |ix: &[usize]| ix.iter().map(|&i| r.q[i]).collect::<Vec<_>>();
        let push = |out: &mut Vec<Step>,
                    elims: Vec<(usize, u8)>,
                    extra_cells: Vec<usize>,
                    houses: Vec<House>,
                    rules: Vec<Rule>,
                    why: String| {
            let mut elims = sorted(elims);
            elims.retain(|&(c, d)| pm.has(c, d));
            if elims.is_empty() || out.iter().any(|s| s.eliminations == elims) {
                return;
            }
            let mut cells = r.q.to_vec();
            cells.extend(extra_cells);
            out.push(Step {
                technique: t,
                digits: vec![r.a, r.b],
                cells,
                houses,
                placements: vec![],
                sentence: format!(
                    "{}: {}; {why}, so {}",
                    t.title(),
                    rect_text(n, &r, &ex),
                    list(n, &elims, false)
                ),
                eliminations: elims,
                rules: finish_rules(rules),
            });
        };
        let same_line = |i: usize, j: usize| r.q[i] / n == r.q[j] / n || r.q[i] % n == r.q[j] % n;
        match t {
            Technique::UniquenessTest1 if more.len() == 1 => {
                let d = r.q[more[0]];
                push(
                    &mut out,
                    vec![(d, r.a), (d, r.b)],
                    vec![],
                    vec![],
                    vec![Rule::Cell(d)],
                    format!(
                        "were {} {} or {}, the four cells would form a deadly pattern (two solutions)",
                        cell_name(n, d),
                        r.a,
                        r.b
                    ),
                );
            }
            Technique::UniquenessTest2 | Technique::UniquenessTest5 if more.len() >= 2 => {
                let x = ex[more[0]];
                if x.count_ones() != 1 || more.iter().any(|&i| ex[i] != x) {
                    continue;
                }
                let lined = more.len() == 2 && same_line(more[0], more[1]);
                if lined != (t == Technique::UniquenessTest2) {
                    continue;
                }
                let d = x.trailing_zeros() as u8;
                let xs = cells_at(&more);
                let mut rules: Vec<Rule> = xs.iter().map(|&c| Rule::Cell(c)).collect();
                let mut elims = Vec::new();
                for e in 0..n * n {
                    if r.q.contains(&e) || !pm.has(e, d) || !xs.iter().all(|&c| pm.sees(e, c)) {
                        continue;
                    }
                    link_rules(pm, e, &xs, d, &mut rules);
                    elims.push((e, d));
                }
                push(
                    &mut out,
                    elims,
                    vec![],
                    vec![],
                    rules,
                    format!(
                        "one of {} must hold {d}, or the four cells would form a deadly pattern",
                        cells_text(n, &xs)
                    ),
                );
            }
            Technique::UniquenessTest3 if more.len() == 2 && same_line(more[0], more[1]) => {
                let xs = cells_at(&more);
                let u = ex[more[0]] | ex[more[1]];
                if u.count_ones() < 2 {
                    continue;
                }
                // The naked subsets with the virtual cell, by digits: those
                // of the line and of the box with the same digits make one
                // step (as HoDoKu reports them).
                let mut found: Vec<Subset3> = Vec::new();
                for h in pm.houses_of(xs[0]) {
                    if !pm.cells(h).contains(&xs[1]) {
                        continue;
                    }
                    let pool: Vec<usize> = pm
                        .open_cells(h)
                        .into_iter()
                        .filter(|c| !xs.contains(c) && pm.mask(*c) & (bit(r.a) | bit(r.b)) == 0)
                        .collect();
                    for m in 1..=3 {
                        for o in combos(&pool, m) {
                            let set = o.iter().fold(u, |acc, &c| acc | pm.mask(c));
                            if set.count_ones() as usize != m + 1 {
                                continue;
                            }
                            let mut elims = Vec::new();
                            for &e in pm.cells(h) {
                                if !xs.contains(&e) && !o.contains(&e) {
                                    elims.extend(
                                        digits_of(pm.mask(e) & set).into_iter().map(|d| (e, d)),
                                    );
                                }
                            }
                            if elims.is_empty() {
                                continue;
                            }
                            match found.iter_mut().find(|f| f.0 == set) {
                                Some(f) => {
                                    for &c in o.iter() {
                                        if !f.1.contains(&c) {
                                            f.1.push(c);
                                        }
                                    }
                                    f.2.push(h);
                                    f.3.extend(elims);
                                }
                                None => found.push((set, o.to_vec(), vec![h], elims)),
                            }
                        }
                    }
                }
                for (set, o, houses, elims) in found {
                    let mut rules: Vec<Rule> =
                        xs.iter().chain(o.iter()).map(|&c| Rule::Cell(c)).collect();
                    for &h in &houses {
                        rules.extend(digits_of(set).into_iter().map(|d| Rule::Digit(h, d)));
                    }
                    let ds = digits_of(set);
                    let where_ = houses
                        .iter()
                        .map(|h| h.to_string())
                        .collect::<Vec<_>>()
                        .join(" and ");
                    push(
                        &mut out,
                        elims,
                        o.clone(),
                        houses,
                        rules,
                        format!(
                            "one of {} must hold one of {}, or the four cells would form a deadly pattern; with {} they form a naked {} {} in {where_}",
                            cells_text(n, &xs),
                            digits_text(&digits_of(u)),
                            cells_text(n, &o),
                            ["pair", "triple", "quadruple", "quintuple"][ds.len() - 2],
                            digits_text(&ds)
                        ),
                    );
                }
            }
            Technique::UniquenessTest4 if more.len() == 2 && same_line(more[0], more[1]) => {
                let xs = cells_at(&more);
                for h in pm.houses_of(xs[0]) {
                    if !pm.cells(h).contains(&xs[1]) {
                        continue;
                    }
                    for (u, v) in [(r.a, r.b), (r.b, r.a)] {
                        if pm.cells_with(h, u) != xs {
                            continue;
                        }
                        push(
                            &mut out,
                            vec![(xs[0], v), (xs[1], v)],
                            vec![],
                            vec![h],
                            vec![Rule::Cell(xs[0]), Rule::Cell(xs[1]), Rule::Digit(h, u)],
                            format!(
                                "in {h} the {u}s are all in {}, so one of them holds {u} and neither may hold {v}, or the four cells would form a deadly pattern",
                                cells_text(n, &xs)
                            ),
                        );
                    }
                }
            }
            Technique::UniquenessTest6 if two.len() == 2 && !same_line(two[0], two[1]) => {
                let xs = cells_at(&more);
                for u in [r.a, r.b] {
                    let only = |h: House| pm.cells_with(h, u).iter().all(|c| r.q.contains(c));
                    let rows = r.rows.iter().all(|&i| only(House::Row(i)));
                    let cols = r.cols.iter().all(|&i| only(House::Col(i)));
                    if !rows && !cols {
                        continue;
                    }
                    let lines: Vec<House> = if rows {
                        r.rows.iter().map(|&i| House::Row(i)).collect()
                    } else {
                        r.cols.iter().map(|&i| House::Col(i)).collect()
                    };
                    let mut rules: Vec<Rule> = r.q.iter().map(|&c| Rule::Cell(c)).collect();
                    rules.extend(r.rows.iter().map(|&i| Rule::Digit(House::Row(i), u)));
                    rules.extend(r.cols.iter().map(|&i| Rule::Digit(House::Col(i), u)));
                    push(
                        &mut out,
                        xs.iter().map(|&c| (c, u)).collect(),
                        vec![],
                        lines.clone(),
                        rules,
                        format!(
                            "the {u}s of {} and {} are all in the four cells, so {u} in {} or {} would leave a deadly pattern",
                            lines[0],
                            lines[1],
                            cell_name(n, xs[0]),
                            cell_name(n, xs[1])
                        ),
                    );
                }
            }
            Technique::HiddenRectangle if !two.is_empty() => {
                for &i in &two {
                    let j = 3 - i; // the opposite corner
                    let (rj, cj) = (r.q[j] / n, r.q[j] % n);
                    for (u, v) in [(r.a, r.b), (r.b, r.a)] {
                        // Strong links: two places in each line, both
                        // corners of the rectangle.
                        let link = |h: House| {
                            let at = pm.cells_with(h, u);
                            at.len() == 2 && at.iter().all(|c| r.q.contains(c))
                        };
                        if !link(House::Row(rj)) || !link(House::Col(cj)) {
                            continue;
                        }
                        let mut rules: Vec<Rule> = r.q.iter().map(|&c| Rule::Cell(c)).collect();
                        rules.extend(r.rows.iter().map(|&x| Rule::Digit(House::Row(x), u)));
                        rules.extend(r.cols.iter().map(|&x| Rule::Digit(House::Col(x), u)));
                        push(
                            &mut out,
                            vec![(r.q[j], v)],
                            vec![],
                            vec![House::Row(rj), House::Col(cj)],
                            rules,
                            format!(
                                "the {u}s of row {} and column {} are all in the four cells, so {v} in {} would force {u} into the two cells beside it and a deadly pattern with {}",
                                rj + 1,
                                cj + 1,
                                cell_name(n, r.q[j]),
                                cell_name(n, r.q[i])
                            ),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// BUG+1: every empty cell but one holds two candidates, the one holds
/// three, and one of its digits has three places in each of its houses;
/// every other digit of every house has two. The cell keeps that digit.
fn bug_plus_one(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let mut three = None;
    for c in 0..n * n {
        if pm.value(c) != 0 {
            continue;
        }
        match pm.mask(c).count_ones() {
            2 => {}
            3 if three.is_none() => three = Some(c),
            _ => return vec![],
        }
    }
    let Some(t) = three else {
        return vec![];
    };
    let houses = pm.houses_of(t);
    let Some(b) = pm
        .digits(t)
        .into_iter()
        .find(|&d| houses.iter().all(|&h| pm.cells_with(h, d).len() == 3))
    else {
        return vec![];
    };
    let mut grave = pm.clone();
    grave.eliminate(t, b);
    if bug_flaw(&grave).is_some() {
        return vec![];
    }
    let elims: Vec<(usize, u8)> = digits_of(pm.mask(t) & !bit(b))
        .into_iter()
        .map(|d| (t, d))
        .collect();
    vec![Step {
        technique: Technique::BugPlusOne,
        digits: vec![b],
        cells: vec![t],
        houses: houses.to_vec(),
        placements: vec![],
        sentence: format!(
            "BUG+1: every empty cell but {t_name} holds two candidates and every other digit has two places in each house, but {b} has three in {t_name}'s row, column and box; without {b} in {t_name} the grid would have no solution or two (a bivalue universal grave), so {}",
            list(n, &elims, false),
            t_name = cell_name(n, t)
        ),
        eliminations: elims,
        rules: vec![],
    }]
}
