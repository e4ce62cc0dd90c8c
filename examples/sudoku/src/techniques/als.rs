//! Almost locked sets (HoDoKu's 0901 ALS-XZ, 0902 ALS-XY-Wing, 0903
//! ALS-XY-Chain, 0904 Death Blossom), written from the definitions on
//! HoDoKu's technique pages (<https://hodoku.sourceforge.net/en/tech_als.php>)
//! and Sudopedia's "Almost Locked Set" article.
//!
//! An almost locked set (ALS) is `N` empty cells of one house whose
//! candidates are `N + 1` digits between them: a single bivalue cell is
//! the smallest. Its cells hold `N` different digits, so it misses at
//! most one of its digits; when one digit is taken away it is locked and
//! holds all the others. A digit `x` of two ALS is a restricted common
//! candidate (RCC) when every cell of one that has `x` sees every cell of
//! the other that has `x` (and no cell of both has it): then `x` is in at
//! most one of the two, so the other holds all its remaining digits.
//!
//! - ALS-XZ: two ALS `A` and `B` with an RCC `x`: one of them is locked,
//!   so a digit `z` of both (not `x`) is in `A` or in `B`, and a cell that
//!   sees every `z` of both loses `z`. Two RCCs (doubly linked): each ALS
//!   misses one of the two, so both are locked sets without them, and each
//!   RCC is in one of the two.
//! - ALS-XY-Wing: `A` and `B` each linked to a pivot ALS `C`, by different
//!   RCCs `x` and `y`: `C` holds `x` or `y`, so `A` or `B` is locked, and a
//!   digit `z` of both `A` and `B` (neither `x` nor `y`) is in one of them.
//! - ALS-XY-Chain: `A1 -x1- A2 -x2- … An`, consecutive RCCs different: if
//!   `A1` does not hold `z` it is locked, holds `x1`, so `A2` is locked and
//!   holds `x2`, …, and `An` holds `z`.
//! - Death Blossom: a stem cell and, for each of its digits `d`, a petal
//!   ALS with `d` in cells that all see the stem: whichever digit the stem
//!   holds locks that petal, so a digit `z` of every petal is in one.
//!
//! ALS may overlap when the overlap holds no RCC, as in HoDoKu's "all
//! steps" search that made its library; in the hint ladder they would be
//! disjoint, as in HoDoKu's solver (they are not in it yet: see
//! [`Technique::in_ladder`]).
//!
//! Each step names as rules the cells of its ALS ("holds exactly one
//! digit"), the ALS's house for each of its digits ("holds it once"), the
//! houses that make each RCC restricted and the houses by which each
//! eliminated candidate sees the digit's cells; the checker proves the
//! eliminations from those alone.

use std::collections::HashSet;

use super::{finish_rules, list, Rule, Step, Technique};
use crate::pencil::{bit, cell_name, digits_of, Candidates, House};

/// Words of a cell set: 625 cells (25×25) at most.
const WORDS: usize = 10;

/// A set of cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Cells([u64; WORDS]);

impl Cells {
    fn insert(&mut self, c: usize) {
        self.0[c / 64] |= 1 << (c % 64);
    }
    fn contains(&self, c: usize) -> bool {
        self.0[c / 64] >> (c % 64) & 1 == 1
    }
    fn and(mut self, o: &Cells) -> Cells {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a &= b;
        }
        self
    }
    fn minus(mut self, o: &Cells) -> Cells {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a &= !b;
        }
        self
    }
    fn meets(&self, o: &Cells) -> bool {
        self.0.iter().zip(o.0).any(|(a, b)| a & b != 0)
    }
    fn is_subset(&self, o: &Cells) -> bool {
        self.0.iter().zip(o.0).all(|(a, b)| a & !b == 0)
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w >> b & 1 == 1)
                .map(move |b| i * 64 + b)
        })
    }
}

/// An almost locked set.
#[derive(Clone, Debug)]
struct Als {
    /// Its cells, ascending.
    cells: Vec<usize>,
    set: Cells,
    house: House,
    /// Its `N + 1` digits.
    mask: u32,
    /// Per digit `d` (at `d - 1`): the cells of the set with `d`.
    with: Vec<Cells>,
    /// Per digit `d`: the cells that see every cell of the set with `d`.
    seen: Vec<Cells>,
}

/// The most cells of an ALS searched on grids larger than 9×9 (on 9×9
/// and smaller every size is searched).
const MAX_LARGE_ALS: usize = 4;

/// The ALS of a state and the restricted common candidates between them.
pub(super) struct Sets {
    n: usize,
    /// Per cell, the other cells it sees.
    peers: Vec<Cells>,
    /// Per digit, the cells with it as a candidate.
    cand: Vec<Cells>,
    alses: Vec<Als>,
    /// Per ALS, its RCC neighbours: (ALS, mask of RCC digits).
    rcc: Vec<Vec<(usize, u32)>>,
}

impl Sets {
    /// Every ALS of `pm` (a cell set once, in the first house it is found
    /// in: rows, columns, boxes), and the RCCs between them; with
    /// `overlap` false, only between ALS without common cells.
    pub(super) fn new(pm: &Candidates, overlap: bool) -> Sets {
        let n = pm.side();
        let cells = n * n;
        let peers: Vec<Cells> = (0..cells)
            .map(|c| {
                let mut s = Cells::default();
                for h in pm.houses_of(c) {
                    for &o in pm.cells(h) {
                        if o != c {
                            s.insert(o);
                        }
                    }
                }
                s
            })
            .collect();
        let cand: Vec<Cells> = (1..=n as u8)
            .map(|d| {
                let mut s = Cells::default();
                for c in 0..cells {
                    if pm.value(c) == 0 && pm.has(c, d) {
                        s.insert(c);
                    }
                }
                s
            })
            .collect();
        let cap = if n <= 9 { n } else { MAX_LARGE_ALS };
        let mut seen_sets = HashSet::new();
        let mut alses = Vec::new();
        for h in pm.houses() {
            let empty: Vec<usize> = pm.open_cells(h);
            let mut stack = Vec::new();
            subsets(pm, &empty, 0, 0, cap, &mut stack, &mut |set, mask| {
                let mut s = Cells::default();
                for &c in set {
                    s.insert(c);
                }
                if seen_sets.insert(s) {
                    alses.push(make_als(pm, &peers, set, s, h, mask));
                }
            });
        }
        let mut rcc = vec![Vec::new(); alses.len()];
        for i in 0..alses.len() {
            for j in i + 1..alses.len() {
                let (a, b) = (&alses[i], &alses[j]);
                if !overlap && a.set.meets(&b.set) {
                    continue;
                }
                let m = rcc_mask(a, b);
                if m != 0 {
                    rcc[i].push((j, m));
                    rcc[j].push((i, m));
                }
            }
        }
        Sets {
            n,
            peers,
            cand,
            alses,
            rcc,
        }
    }

    /// The cells outside `ends` with candidate `d` that see every `d` of
    /// every ALS in `ends` (each of which has `d`).
    fn targets(&self, ends: &[usize], d: u8) -> Vec<usize> {
        let mut t = self.cand[d as usize - 1];
        for &i in ends {
            t = t
                .and(&self.alses[i].seen[d as usize - 1])
                .minus(&self.alses[i].set);
        }
        t.iter().collect()
    }

    fn text(&self, i: usize) -> String {
        let a = &self.alses[i];
        let ds: Vec<String> = digits_of(a.mask).iter().map(|d| d.to_string()).collect();
        format!(
            "{} ({})",
            a.cells
                .iter()
                .map(|&c| cell_name(self.n, c))
                .collect::<Vec<_>>()
                .join(" "),
            ds.join("/")
        )
    }

    /// "ALS `i` misses at most one of its digits": its cells, and its
    /// house for each digit (a single cell needs no more).
    fn als_rules(&self, i: usize, rules: &mut Vec<Rule>) {
        let a = &self.alses[i];
        rules.extend(a.cells.iter().map(|&c| Rule::Cell(c)));
        if a.cells.len() > 1 {
            rules.extend(
                digits_of(a.mask)
                    .into_iter()
                    .map(|d| Rule::Digit(a.house, d)),
            );
        }
    }

    /// "Not both `i` and `j` hold `x`": a house per pair of their cells
    /// with `x`.
    fn rcc_rules(&self, pm: &Candidates, i: usize, j: usize, x: u8, rules: &mut Vec<Rule>) {
        let (a, b) = (&self.alses[i], &self.alses[j]);
        for p in a.with[x as usize - 1].iter() {
            for q in b.with[x as usize - 1].iter() {
                if let Some(h) = pm.common_house(p, q) {
                    rules.push(Rule::Digit(h, x));
                }
            }
        }
    }

    /// "`e` sees every `d` of the ALS `ends`".
    fn sight_rules(&self, pm: &Candidates, e: usize, ends: &[usize], d: u8, rules: &mut Vec<Rule>) {
        for &i in ends {
            for c in self.alses[i].with[d as usize - 1].iter() {
                if let Some(h) = pm.common_house(e, c) {
                    rules.push(Rule::Digit(h, d));
                }
            }
        }
    }

    /// Every digit `z` of `mask` with its targets for the ALS `ends`: the
    /// eliminations, with their rules added.
    fn eliminate(
        &self,
        pm: &Candidates,
        ends: &[usize],
        mask: u32,
        rules: &mut Vec<Rule>,
    ) -> Vec<(usize, u8)> {
        let mut elims = Vec::new();
        for z in digits_of(mask) {
            for e in self.targets(ends, z) {
                self.sight_rules(pm, e, ends, z, rules);
                elims.push((e, z));
            }
        }
        elims
    }

    fn step(
        &self,
        technique: Technique,
        members: &[usize],
        mut elims: Vec<(usize, u8)>,
        rules: Vec<Rule>,
        sentence: String,
    ) -> Step {
        elims.sort_unstable();
        elims.dedup();
        let mut cells: Vec<usize> = Vec::new();
        let mut houses = Vec::new();
        let mut mask = 0;
        for &i in members {
            let a = &self.alses[i];
            for &c in &a.cells {
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
            if a.cells.len() > 1 && !houses.contains(&a.house) {
                houses.push(a.house);
            }
            mask |= a.mask;
        }
        Step {
            technique,
            sentence: format!("{sentence}, so {}", list(self.n, &elims, false)),
            digits: digits_of(mask),
            cells,
            houses,
            placements: vec![],
            eliminations: elims,
            rules: finish_rules(rules),
        }
    }
}

/// The digits of `mask`, ascending, without allocating (the searches
/// below run it for every pair of ALS).
fn bits(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let b = mask.trailing_zeros();
        mask &= mask - 1;
        Some(b as u8)
    })
}

/// Is `t` one of the ALS techniques?
pub(super) fn is_als(t: Technique) -> bool {
    use Technique::*;
    matches!(t, AlsXz | AlsXyWing | AlsXyChain | DeathBlossom)
}

/// The instances of ALS technique `t` (none for another technique).
pub(super) fn find(pm: &Candidates, sets: &Sets, t: Technique, overlap: bool) -> Vec<Step> {
    match t {
        Technique::AlsXz => xz(pm, sets),
        Technique::AlsXyWing => xy_wing(pm, sets, overlap),
        Technique::AlsXyChain => xy_chain(pm, sets, overlap),
        Technique::DeathBlossom => death_blossom(pm, sets, overlap),
        _ => Vec::new(),
    }
}

/// Calls `f` with every subset of `empty[from..]` added to `stack` whose
/// cells have one candidate more than cells, at most `cap` cells.
fn subsets(
    pm: &Candidates,
    empty: &[usize],
    from: usize,
    mask: u32,
    cap: usize,
    stack: &mut Vec<usize>,
    f: &mut dyn FnMut(&[usize], u32),
) {
    for i in from..empty.len() {
        let m = mask | pm.mask(empty[i]);
        // The union only grows, one cell at a time: more than `cap + 1`
        // digits can never come down to cells + 1.
        if m.count_ones() as usize > cap + 1 {
            continue;
        }
        stack.push(empty[i]);
        if m.count_ones() as usize == stack.len() + 1 {
            f(stack, m);
        }
        if stack.len() < cap {
            subsets(pm, empty, i + 1, m, cap, stack, f);
        }
        stack.pop();
    }
}

fn make_als(
    pm: &Candidates,
    peers: &[Cells],
    cells: &[usize],
    set: Cells,
    h: House,
    mask: u32,
) -> Als {
    let n = pm.side();
    let mut with = vec![Cells::default(); n];
    let mut seen = vec![Cells::default(); n];
    for d in digits_of(mask) {
        let mut w = Cells::default();
        let mut s: Option<Cells> = None;
        for &c in cells {
            if pm.has(c, d) {
                w.insert(c);
                s = Some(match s {
                    None => peers[c],
                    Some(s) => s.and(&peers[c]),
                });
            }
        }
        with[d as usize - 1] = w;
        seen[d as usize - 1] = s.unwrap_or_default();
    }
    Als {
        cells: cells.to_vec(),
        set,
        house: h,
        mask,
        with,
        seen,
    }
}

/// The restricted common candidates of two ALS: digits of both whose
/// cells in one all see its cells in the other, none in a common cell.
fn rcc_mask(a: &Als, b: &Als) -> u32 {
    let mut m = 0;
    for x in bits(a.mask & b.mask) {
        let (wa, wb) = (&a.with[x as usize - 1], &b.with[x as usize - 1]);
        if wa.meets(&b.set) || wb.meets(&a.set) {
            continue;
        }
        if wb.is_subset(&a.seen[x as usize - 1]) {
            m |= bit(x);
        }
    }
    m
}

/// ALS-XZ, singly and doubly linked.
pub(super) fn xz(pm: &Candidates, sets: &Sets) -> Vec<Step> {
    let mut out = Vec::new();
    for i in 0..sets.alses.len() {
        for &(j, r) in &sets.rcc[i] {
            if j < i {
                continue;
            }
            let (a, b) = (&sets.alses[i], &sets.alses[j]);
            let mut rules = Vec::new();
            sets.als_rules(i, &mut rules);
            sets.als_rules(j, &mut rules);
            for x in digits_of(r) {
                sets.rcc_rules(pm, i, j, x, &mut rules);
            }
            let xs = digits_of(r);
            match xs.len() {
                1 => {
                    let x = xs[0];
                    let zs = a.mask & b.mask & !bit(x);
                    let elims = sets.eliminate(pm, &[i, j], zs, &mut rules);
                    if elims.is_empty() {
                        continue;
                    }
                    let zt: Vec<String> = digits_of(zs).iter().map(|d| d.to_string()).collect();
                    out.push(sets.step(
                        Technique::AlsXz,
                        &[i, j],
                        elims,
                        rules,
                        format!(
                            "ALS-XZ: {} and {} cannot both hold {x}, so one of them is locked and holds {}",
                            sets.text(i),
                            sets.text(j),
                            zt.join(" and ")
                        ),
                    ));
                }
                2 => {
                    // Each misses one of the two RCCs: both are locked
                    // without them, and each RCC is in one of the two.
                    let mut elims = sets.eliminate(pm, &[i, j], r, &mut rules);
                    // (Not from the other set's cells, as HoDoKu does
                    // it, though they would lose a locked digit too.)
                    elims.extend(
                        sets.eliminate(pm, &[i], a.mask & !r, &mut rules)
                            .into_iter()
                            .filter(|&(e, _)| !b.set.contains(e)),
                    );
                    elims.extend(
                        sets.eliminate(pm, &[j], b.mask & !r, &mut rules)
                            .into_iter()
                            .filter(|&(e, _)| !a.set.contains(e)),
                    );
                    if elims.is_empty() {
                        continue;
                    }
                    out.push(sets.step(
                        Technique::AlsXz,
                        &[i, j],
                        elims,
                        rules,
                        format!(
                            "ALS-XZ (doubly linked): {} and {} cannot both hold {} nor both hold {}, so each holds one of them and all its other digits",
                            sets.text(i),
                            sets.text(j),
                            xs[0],
                            xs[1]
                        ),
                    ));
                }
                // Three RCCs cannot hold: the state is broken.
                _ => {}
            }
        }
    }
    out
}

/// ALS-XY-Wing: ALS `a` and `b` linked to a pivot `c` by different RCCs.
pub(super) fn xy_wing(pm: &Candidates, sets: &Sets, overlap: bool) -> Vec<Step> {
    let mut out = Vec::new();
    for c in 0..sets.alses.len() {
        let nb = &sets.rcc[c];
        for (ia, &(a, ra)) in nb.iter().enumerate() {
            for &(b, rb) in &nb[ia + 1..] {
                let (sa, sb) = (&sets.alses[a], &sets.alses[b]);
                if !overlap && sa.set.meets(&sb.set) {
                    continue;
                }
                let common = sa.mask & sb.mask;
                if common == 0 {
                    continue;
                }
                for x in bits(ra) {
                    for y in bits(rb) {
                        if x == y {
                            continue;
                        }
                        let zs = common & !bit(x) & !bit(y);
                        if zs == 0 {
                            continue;
                        }
                        let elims: Vec<(usize, u8)> = digits_of(zs)
                            .into_iter()
                            .flat_map(|z| sets.targets(&[a, b], z).into_iter().map(move |e| (e, z)))
                            .filter(|&(e, _)| !sets.alses[c].set.contains(e))
                            .collect();
                        if elims.is_empty() {
                            continue;
                        }
                        let mut rules = Vec::new();
                        for &(e, z) in &elims {
                            sets.sight_rules(pm, e, &[a, b], z, &mut rules);
                        }
                        for s in [a, b, c] {
                            sets.als_rules(s, &mut rules);
                        }
                        sets.rcc_rules(pm, a, c, x, &mut rules);
                        sets.rcc_rules(pm, b, c, y, &mut rules);
                        let zt: Vec<String> = digits_of(zs).iter().map(|d| d.to_string()).collect();
                        out.push(sets.step(
                            Technique::AlsXyWing,
                            &[c, a, b],
                            elims,
                            rules,
                            format!(
                                "ALS-XY-Wing: pivot {} holds {x} or {y}, so {} (RCC {x}) or {} (RCC {y}) is locked and holds {}",
                                sets.text(c),
                                sets.text(a),
                                sets.text(b),
                                zt.join(" and ")
                            ),
                        ));
                    }
                }
            }
        }
    }
    out
}

/// The most ALS in an ALS-XY-Chain (HoDoKu's default, 6).
pub const MAX_ALS_CHAIN: usize = 6;

/// ALS-XY-Chain: `A1 -x1- A2 - … - An` (4 to [`MAX_ALS_CHAIN`] ALS; three
/// are an ALS-XY-Wing), consecutive RCCs different, ALS not repeated
/// (and disjoint unless `overlap`). A breadth-first search from every
/// start ALS and first RCC over the states "ALS reached, by RCC digit"
/// keeps the first path to each state; one step per pair of ends and
/// first and last RCC, shortest chains first.
pub(super) fn xy_chain(pm: &Candidates, sets: &Sets, overlap: bool) -> Vec<Step> {
    let n = sets.n;
    let count = sets.alses.len();
    let mut found: Vec<(usize, Step)> = Vec::new();
    let mut done: HashSet<(usize, usize, u8, u8)> = HashSet::new();
    // parent[state] for the current search; state = als * n + digit - 1.
    let mut parent: Vec<Option<usize>> = vec![None; count * n];
    let mut depth: Vec<usize> = vec![0; count * n];
    let mut touched: Vec<usize> = Vec::new();
    for a1 in 0..count {
        let first = &sets.alses[a1];
        // Digits of A1 that could be eliminated somewhere at all.
        let useful: u32 = digits_of(first.mask)
            .into_iter()
            .filter(|&z| !sets.targets(&[a1], z).is_empty())
            .fold(0, |m, z| m | bit(z));
        if useful == 0 {
            continue;
        }
        for &(a2, r) in &sets.rcc[a1] {
            for x1 in digits_of(r) {
                if useful & !bit(x1) == 0 {
                    continue;
                }
                for s in touched.drain(..) {
                    parent[s] = None;
                }
                let start = a2 * n + x1 as usize - 1;
                parent[start] = Some(usize::MAX);
                depth[start] = 2;
                touched.push(start);
                let mut queue = std::collections::VecDeque::from([start]);
                while let Some(s) = queue.pop_front() {
                    let (b, xin) = (s / n, (s % n + 1) as u8);
                    let path = chain_path(&parent, s, n, a1);
                    if depth[s] >= 4 {
                        let zs = first.mask & sets.alses[b].mask & !bit(x1) & !bit(xin) & useful;
                        if zs != 0 && !done.contains(&(a1, b, x1, xin)) {
                            if let Some(step) = chain_step(pm, sets, &path, zs) {
                                done.insert((a1, b, x1, xin));
                                found.push((path.len(), step));
                            }
                        }
                    }
                    if depth[s] == MAX_ALS_CHAIN {
                        continue;
                    }
                    for &(c, rc) in &sets.rcc[b] {
                        if path.iter().any(|&(p, _)| {
                            p == c || (!overlap && sets.alses[p].set.meets(&sets.alses[c].set))
                        }) {
                            continue;
                        }
                        for y in bits(rc & !bit(xin)) {
                            let t = c * n + y as usize - 1;
                            if parent[t].is_none() {
                                parent[t] = Some(s);
                                depth[t] = depth[s] + 1;
                                touched.push(t);
                                queue.push_back(t);
                            }
                        }
                    }
                }
            }
        }
    }
    found.sort_by_key(|(len, _)| *len);
    found.into_iter().map(|(_, s)| s).collect()
}

/// The chain to state `s`: (ALS, RCC into it), from `a1` (RCC 0) on.
fn chain_path(parent: &[Option<usize>], mut s: usize, n: usize, a1: usize) -> Vec<(usize, u8)> {
    let mut path = vec![(s / n, (s % n + 1) as u8)];
    while let Some(p) = parent[s] {
        if p == usize::MAX {
            break;
        }
        path.push((p / n, (p % n + 1) as u8));
        s = p;
    }
    path.push((a1, 0));
    path.reverse();
    path
}

fn chain_step(pm: &Candidates, sets: &Sets, path: &[(usize, u8)], zs: u32) -> Option<Step> {
    let (a1, an) = (path[0].0, path[path.len() - 1].0);
    let mut inside = Cells::default();
    for &(p, _) in path {
        for &c in &sets.alses[p].cells {
            inside.insert(c);
        }
    }
    let elims: Vec<(usize, u8)> = digits_of(zs)
        .into_iter()
        .flat_map(|z| sets.targets(&[a1, an], z).into_iter().map(move |e| (e, z)))
        .filter(|&(e, _)| !inside.contains(e))
        .collect();
    if elims.is_empty() {
        return None;
    }
    let mut rules = Vec::new();
    for &(e, z) in &elims {
        sets.sight_rules(pm, e, &[a1, an], z, &mut rules);
    }
    let mut text = sets.text(a1);
    for w in path.windows(2) {
        sets.als_rules(w[0].0, &mut rules);
        sets.rcc_rules(pm, w[0].0, w[1].0, w[1].1, &mut rules);
        text.push_str(&format!(" -{}- {}", w[1].1, sets.text(w[1].0)));
    }
    sets.als_rules(an, &mut rules);
    let members: Vec<usize> = path.iter().map(|&(p, _)| p).collect();
    let zt: Vec<String> = digits_of(zs).iter().map(|d| d.to_string()).collect();
    Some(sets.step(
        Technique::AlsXyChain,
        &members,
        elims,
        rules,
        format!(
            "ALS-XY-Chain: {text} (-x-: not both hold x); if the first does not hold {} each one is locked in turn, so the last does",
            zt.join(" and ")
        ),
    ))
}

/// Death Blossom: a stem cell, and for each of its digits `d` a petal ALS
/// (without the stem) whose cells with `d` all see the stem; a digit `z`
/// of every petal, not of the stem, is in one of the petals.
pub(super) fn death_blossom(pm: &Candidates, sets: &Sets, overlap: bool) -> Vec<Step> {
    let n = sets.n;
    let mut out = Vec::new();
    for stem in 0..n * n {
        if pm.value(stem) != 0 || pm.mask(stem).count_ones() < 2 {
            continue;
        }
        let ds = pm.digits(stem);
        let petals: Vec<Vec<usize>> = ds
            .iter()
            .map(|&d| {
                (0..sets.alses.len())
                    .filter(|&i| {
                        let a = &sets.alses[i];
                        a.mask & bit(d) != 0
                            && !a.set.contains(stem)
                            && a.mask & !pm.mask(stem) != 0
                            && a.with[d as usize - 1].is_subset(&sets.peers[stem])
                    })
                    .collect()
            })
            .collect();
        if petals.iter().any(|p| p.is_empty()) {
            continue;
        }
        let mut chosen = Vec::new();
        blossom(
            pm,
            sets,
            stem,
            &ds,
            &petals,
            overlap,
            !pm.mask(stem),
            &mut chosen,
            &mut out,
        );
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn blossom(
    pm: &Candidates,
    sets: &Sets,
    stem: usize,
    ds: &[u8],
    petals: &[Vec<usize>],
    overlap: bool,
    zs: u32,
    chosen: &mut Vec<usize>,
    out: &mut Vec<Step>,
) {
    let k = chosen.len();
    if k == ds.len() {
        let mut elims = Vec::new();
        for z in digits_of(zs) {
            for e in sets.targets(chosen, z) {
                if e != stem {
                    elims.push((e, z));
                }
            }
        }
        if elims.is_empty() {
            return;
        }
        let mut rules = vec![Rule::Cell(stem)];
        for (&p, &d) in chosen.iter().zip(ds) {
            sets.als_rules(p, &mut rules);
            for c in sets.alses[p].with[d as usize - 1].iter() {
                if let Some(h) = pm.common_house(stem, c) {
                    rules.push(Rule::Digit(h, d));
                }
            }
        }
        for &(e, z) in &elims {
            sets.sight_rules(pm, e, chosen, z, &mut rules);
        }
        let petals_text: Vec<String> = chosen
            .iter()
            .zip(ds)
            .map(|(&p, d)| format!("{d}: {}", sets.text(p)))
            .collect();
        let zt: Vec<String> = digits_of(zs).iter().map(|d| d.to_string()).collect();
        let mut step = sets.step(
            Technique::DeathBlossom,
            chosen,
            elims,
            rules,
            format!(
                "Death Blossom: stem {} ({}), petals {}; whichever digit the stem holds locks its petal, so one petal holds {}",
                cell_name(sets.n, stem),
                ds.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("/"),
                petals_text.join(", "),
                zt.join(" and ")
            ),
        );
        step.cells.insert(0, stem);
        out.push(step);
        return;
    }
    for &p in &petals[k] {
        let a = &sets.alses[p];
        if chosen.contains(&p)
            || (!overlap && chosen.iter().any(|&q| sets.alses[q].set.meets(&a.set)))
        {
            continue;
        }
        let z2 = zs & a.mask;
        // Some z must still have a target seeing every chosen petal.
        chosen.push(p);
        let live = digits_of(z2)
            .into_iter()
            .any(|z| sets.targets(chosen, z).iter().any(|&e| e != stem));
        if live {
            blossom(pm, sets, stem, ds, petals, overlap, z2, chosen, out);
        }
        chosen.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::techniques::Checker;
    use crate::Grid;

    /// HoDoKu's library, line 1406 (an ALS-XZ: r2c7<>3).
    const XZ: &str = ":0901-1:3:.24.6.+7..5.74.9.1.....+7......+5.9+4+87+14+7.+6.85.3..8..7.6.+7......46.+46..3.+57.5.7+4+61..:314 819 225 134 237 937 238 938 239 839 269 372 972 973 274 291 891 999:327::";

    #[test]
    fn the_sets_and_links_are_those_of_the_definitions() {
        let g: Grid =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let case = Candidates::from_library_line(1406, XZ).unwrap();
        for pm in [Candidates::from_grid(&g), case.state] {
            let sets = Sets::new(&pm, true);
            // Brute force: every subset of every house's empty cells.
            let mut want = HashSet::new();
            for h in pm.houses() {
                let empty: Vec<usize> = pm.open_cells(h);
                for bits in 1u32..1 << empty.len() {
                    let cells: Vec<usize> = (0..empty.len())
                        .filter(|i| bits >> i & 1 == 1)
                        .map(|i| empty[i])
                        .collect();
                    let m = cells.iter().fold(0, |m, &c| m | pm.mask(c));
                    if m.count_ones() as usize == cells.len() + 1 {
                        want.insert(cells);
                    }
                }
            }
            let got: HashSet<Vec<usize>> = sets.alses.iter().map(|a| a.cells.clone()).collect();
            assert_eq!(got.len(), sets.alses.len(), "each set once");
            assert_eq!(got, want);
            // An RCC: a digit of both, in no common cell, each of its cells
            // in one seeing each in the other.
            for (i, a) in sets.alses.iter().enumerate() {
                for (j, b) in sets.alses.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let mut m = 0;
                    for x in digits_of(a.mask & b.mask) {
                        let xa: Vec<usize> =
                            a.cells.iter().copied().filter(|&c| pm.has(c, x)).collect();
                        let xb: Vec<usize> =
                            b.cells.iter().copied().filter(|&c| pm.has(c, x)).collect();
                        if xa.iter().all(|&p| xb.iter().all(|&q| pm.sees(p, q))) {
                            m |= bit(x);
                        }
                    }
                    let got = sets.rcc[i]
                        .iter()
                        .find(|&&(k, _)| k == j)
                        .map_or(0, |l| l.1);
                    assert_eq!(got, m, "{} and {}", sets.text(i), sets.text(j));
                }
            }
        }
    }

    #[test]
    fn an_als_step_needs_its_rules() {
        let case = Candidates::from_library_line(1406, XZ).unwrap();
        let pm = &case.state;
        let checker = Checker::new(3);
        let steps = xz(pm, &Sets::new(pm, true));
        let s = steps
            .iter()
            .find(|s| s.eliminations == case.eliminations)
            .expect("the library's ALS-XZ");
        checker.verify(pm, s).unwrap();
        // Without the cells' rules (an ALS's cells hold one digit each),
        // or without the houses', or with a candidate more, it does not
        // follow.
        for cells in [true, false] {
            let mut forged = s.clone();
            forged.rules.retain(|q| matches!(q, Rule::Cell(_)) != cells);
            assert!(checker.verify(pm, &forged).is_err(), "cells: {cells}");
        }
        let mut forged = s.clone();
        let far = (0..81)
            .find(|&c| {
                pm.value(c) == 0
                    && !s.cells.contains(&c)
                    && pm.has(c, 3)
                    && !s.eliminations.contains(&(c, 3))
            })
            .unwrap();
        forged.eliminations.push((far, 3));
        assert!(checker.verify(pm, &forged).is_err());
    }
}
