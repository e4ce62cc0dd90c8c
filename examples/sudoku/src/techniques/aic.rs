//! Alternating inference chains and nice loops on candidates (HoDoKu's
//! 0706 continuous nice loop, 0707 discontinuous nice loop, 0708 AIC).
//!
//! A candidate is "digit `d` in cell `c`". Two candidates are strongly
//! linked when at least one of them is true: the two digits of a bivalue
//! cell, or the two cells of a house that hold a digit in those two cells
//! only. They are weakly linked when at most one is true: two digits of
//! one cell, or one digit in two cells that see each other (a strong link
//! is also weak). A chain alternates strong and weak links, so it reads as
//! implications: "if this one is false the next is true" across a strong
//! link, "if this one is true the next is false" across a weak one.
//!
//! One breadth-first search per start candidate and polarity over the
//! states "candidate true" and "candidate false", at most
//! [`MAX_CHAIN_LINKS`] links, finds
//! - from "`p` false", every candidate `q` it makes true: `p` or `q` holds
//!   (an AIC, when that eliminates something), `p` itself (a discontinuous
//!   nice loop: `p` holds), or a weak link back into "`p` false" (a
//!   continuous nice loop: around the loop every weak link is strong too);
//! - from "`p` true", "`p` false" (a discontinuous nice loop: `p` goes).
//!
//! (Closing loops in the tree grown from "`p` true" as well finds no more
//! of the library's continuous loops, so it is not done.)
//!
//! Each elimination set comes with the shortest chain found for it,
//! shortest chains first. The chains are written `(5)r1c2 = (5)r3c2 -
//! (4)r3c2`, "=" a strong link and "-" a weak one, as in the Eureka
//! notation players use.

use std::collections::{BTreeMap, VecDeque};

use super::{finish_rules, link_rules, list, Rule, Step, Technique, MAX_CHAIN_LINKS};
use crate::pencil::{cell_name, Candidates};

/// A link to candidate `to` (numbered `cell * n + digit - 1`), with the
/// rule that makes it.
#[derive(Clone, Copy, Debug)]
struct Link {
    to: usize,
    rule: Rule,
}

/// The strong and weak links of every candidate.
struct Graph {
    n: usize,
    strong: Vec<Vec<Link>>,
    weak: Vec<Vec<Link>>,
}

impl Graph {
    fn new(pm: &Candidates) -> Graph {
        let n = pm.side();
        let mut strong: Vec<Vec<Link>> = vec![Vec::new(); n * n * n];
        let mut weak: Vec<Vec<Link>> = vec![Vec::new(); n * n * n];
        for c in 0..n * n {
            if pm.value(c) != 0 {
                continue;
            }
            let ds = pm.digits(c);
            for &d in &ds {
                let p = c * n + d as usize - 1;
                for &e in ds.iter().filter(|&&e| e != d) {
                    let link = Link {
                        to: c * n + e as usize - 1,
                        rule: Rule::Cell(c),
                    };
                    weak[p].push(link);
                    if ds.len() == 2 {
                        strong[p].push(link);
                    }
                }
                for h in pm.houses_of(c) {
                    let cs = pm.cells_with(h, d);
                    for &o in cs.iter().filter(|&&o| o != c) {
                        let link = Link {
                            to: o * n + d as usize - 1,
                            rule: Rule::Digit(h, d),
                        };
                        if cs.len() == 2 && !strong[p].iter().any(|l| l.to == link.to) {
                            strong[p].push(link);
                        }
                        if !weak[p].iter().any(|l| l.to == link.to) {
                            weak[p].push(link);
                        }
                    }
                }
            }
        }
        Graph { n, strong, weak }
    }

    fn cell(&self, p: usize) -> usize {
        p / self.n
    }

    fn digit(&self, p: usize) -> u8 {
        (p % self.n + 1) as u8
    }

    fn name(&self, p: usize) -> String {
        format!("({}){}", self.digit(p), cell_name(self.n, self.cell(p)))
    }
}

/// A chain: its candidates in order and the links between them (`true`
/// for a strong link), one fewer than the candidates.
#[derive(Clone, Debug)]
struct Chain {
    nodes: Vec<usize>,
    links: Vec<(bool, Rule)>,
}

impl Chain {
    fn text(&self, g: &Graph) -> String {
        let mut s = g.name(self.nodes[0]);
        for (i, &(strong, _)) in self.links.iter().enumerate() {
            s.push_str(if strong { " = " } else { " - " });
            s.push_str(&g.name(self.nodes[i + 1]));
        }
        s
    }
}

/// The breadth-first search's buffers, reused from start to start. State
/// `2 * candidate + on`: `on` when the chain concludes the candidate is
/// true.
struct Search {
    stamp: Vec<u32>,
    now: u32,
    depth: Vec<u8>,
    parent: Vec<usize>,
    via: Vec<Option<Rule>>,
    queue: VecDeque<usize>,
}

impl Search {
    fn new(states: usize) -> Search {
        Search {
            stamp: vec![0; states],
            now: 0,
            depth: vec![0; states],
            parent: vec![usize::MAX; states],
            via: vec![None; states],
            queue: VecDeque::new(),
        }
    }

    fn seen(&self, s: usize) -> bool {
        self.stamp[s] == self.now
    }

    fn mark(&mut self, s: usize, depth: u8, parent: usize, via: Option<Rule>) {
        self.stamp[s] = self.now;
        self.depth[s] = depth;
        self.parent[s] = parent;
        self.via[s] = via;
    }

    /// The chain from the start to state `s`, then across `last` (to the
    /// start's candidate) if given.
    fn trace(&self, mut s: usize, last: Option<(bool, Link)>) -> Chain {
        let mut nodes = Vec::new();
        let mut links = Vec::new();
        if let Some((strong, l)) = last {
            nodes.push(l.to);
            links.push((strong, l.rule));
        }
        loop {
            nodes.push(s / 2);
            match self.via[s] {
                Some(r) => {
                    links.push((s % 2 == 1, r));
                    s = self.parent[s];
                }
                None => break,
            }
        }
        nodes.reverse();
        links.reverse();
        Chain { nodes, links }
    }
}

/// What a search found: a chain and what it eliminates.
struct Found {
    technique: Technique,
    chain: Chain,
    eliminations: Vec<(usize, u8)>,
    extra_rules: Vec<Rule>,
    conclusion: String,
}

/// The chains found, by technique and elimination set.
type FoundMap = BTreeMap<(Technique, Vec<(usize, u8)>), Found>;

/// Keeps, per technique and elimination set, the shortest chain.
fn keep(found: &mut FoundMap, f: Found) {
    let key = (f.technique, f.eliminations.clone());
    match found.get(&key) {
        Some(old) if old.chain.links.len() <= f.chain.links.len() => {}
        _ => {
            found.insert(key, f);
        }
    }
}

fn sorted(mut v: Vec<(usize, u8)>) -> Vec<(usize, u8)> {
    v.sort_unstable();
    v.dedup();
    v
}

/// The AIC with ends `p` and `q` (at least one true): what it eliminates,
/// the rules that eliminate it, and the conclusion in words; `None` when
/// it eliminates nothing or the ends share a cell (a nice loop).
fn aic_ends(pm: &Candidates, g: &Graph, p: usize, q: usize) -> Option<Found> {
    let n = g.n;
    let (a, b) = (g.cell(p), g.cell(q));
    let (x, y) = (g.digit(p), g.digit(q));
    if a == b {
        return None;
    }
    let mut rules = Vec::new();
    let mut elims = Vec::new();
    if x == y {
        for t in (0..n * n).filter(|&t| t != a && t != b && pm.has(t, x)) {
            if pm.sees(t, a) && pm.sees(t, b) {
                link_rules(pm, t, &[a, b], x, &mut rules);
                elims.push((t, x));
            }
        }
    } else if let Some(h) = pm.common_house(a, b) {
        if pm.has(a, y) {
            elims.push((a, y));
            rules.extend([Rule::Cell(a), Rule::Digit(h, y)]);
        }
        if pm.has(b, x) {
            elims.push((b, x));
            rules.extend([Rule::Cell(b), Rule::Digit(h, x)]);
        }
    }
    if elims.is_empty() {
        return None;
    }
    Some(Found {
        technique: Technique::Aic,
        chain: Chain {
            nodes: vec![],
            links: vec![],
        },
        eliminations: sorted(elims),
        extra_rules: rules,
        conclusion: format!("{}={x} or {}={y}", cell_name(n, a), cell_name(n, b)),
    })
}

/// What a continuous nice loop eliminates: each weak link becomes strong,
/// so a cell whose two loop digits are weakly linked loses its other
/// digits, and a cell seeing both ends of a weak link on one digit loses
/// that digit.
fn loop_eliminations(pm: &Candidates, g: &Graph, chain: &Chain) -> (Vec<(usize, u8)>, Vec<Rule>) {
    let n = g.n;
    let mut elims = Vec::new();
    let mut rules = Vec::new();
    for (i, &(strong, _)) in chain.links.iter().enumerate() {
        if strong {
            continue;
        }
        let (p, q) = (chain.nodes[i], chain.nodes[i + 1]);
        let (a, b) = (g.cell(p), g.cell(q));
        if a == b {
            for e in pm.digits(a) {
                if e != g.digit(p) && e != g.digit(q) {
                    elims.push((a, e));
                }
            }
        } else {
            let d = g.digit(p);
            for t in (0..n * n).filter(|&t| t != a && t != b && pm.has(t, d)) {
                if pm.sees(t, a) && pm.sees(t, b) {
                    link_rules(pm, t, &[a, b], d, &mut rules);
                    elims.push((t, d));
                }
            }
        }
    }
    (sorted(elims), rules)
}

/// Every AIC and nice loop of `pm` with eliminations, as steps of their
/// three techniques, shortest chains first.
pub(super) fn chains(pm: &Candidates) -> Vec<Step> {
    let g = Graph::new(pm);
    let n = g.n;
    let cands: Vec<usize> = (0..n * n * n)
        .filter(|&p| pm.value(g.cell(p)) == 0 && pm.has(g.cell(p), g.digit(p)))
        .collect();
    let mut search = Search::new(2 * n * n * n);
    let mut found = BTreeMap::new();
    for &p in &cands {
        for start_on in [false, true] {
            if !start_on && g.strong[p].is_empty() {
                continue;
            }
            search.now += 1;
            let start = 2 * p + usize::from(start_on);
            search.mark(2 * p, 0, usize::MAX, None);
            search.mark(2 * p + 1, 0, usize::MAX, None);
            search.queue.clear();
            search.queue.push_back(start);
            while let Some(s) = search.queue.pop_front() {
                let (c, on, depth) = (s / 2, s % 2 == 1, search.depth[s] as usize);
                if depth >= MAX_CHAIN_LINKS {
                    continue;
                }
                let links = if on { &g.weak[c] } else { &g.strong[c] };
                for &l in links {
                    let t = 2 * l.to + usize::from(!on);
                    if l.to == p {
                        // Back at the start: a loop of `depth + 1` links.
                        if depth + 1 < 3 {
                            continue;
                        }
                        let chain = search.trace(s, Some((!on, l)));
                        match (start_on, on) {
                            // "p false" ... "x true" - "p false".
                            (false, true) if depth + 1 >= 4 => {
                                let (elims, rules) = loop_eliminations(pm, &g, &chain);
                                if !elims.is_empty() {
                                    keep(
                                        &mut found,
                                        Found {
                                            technique: Technique::ContinuousNiceLoop,
                                            chain,
                                            eliminations: elims,
                                            extra_rules: rules,
                                            conclusion: "around the loop each - is also =".into(),
                                        },
                                    );
                                }
                            }
                            // "p false" ... "p true": p holds.
                            (false, false) => {
                                let (a, x) = (g.cell(p), g.digit(p));
                                let elims: Vec<(usize, u8)> = pm
                                    .digits(a)
                                    .into_iter()
                                    .filter(|&e| e != x)
                                    .map(|e| (a, e))
                                    .collect();
                                if elims.is_empty() {
                                    continue;
                                }
                                keep(
                                    &mut found,
                                    Found {
                                        technique: Technique::DiscontinuousNiceLoop,
                                        chain,
                                        eliminations: elims,
                                        extra_rules: vec![Rule::Cell(a)],
                                        conclusion: format!(
                                            "{0}={x} (if it were not {x} it would be {x})",
                                            cell_name(n, a)
                                        ),
                                    },
                                );
                            }
                            // "p true" ... "p false": p goes.
                            (true, true) => {
                                let (a, x) = (g.cell(p), g.digit(p));
                                keep(
                                    &mut found,
                                    Found {
                                        technique: Technique::DiscontinuousNiceLoop,
                                        chain,
                                        eliminations: vec![(a, x)],
                                        extra_rules: vec![],
                                        conclusion: format!(
                                            "if {0} were {x} it would not be {x}",
                                            cell_name(n, a)
                                        ),
                                    },
                                );
                            }
                            _ => {}
                        }
                        continue;
                    }
                    if search.seen(t) {
                        continue;
                    }
                    search.mark(t, (depth + 1) as u8, s, Some(l.rule));
                    search.queue.push_back(t);
                    if start_on || on || depth + 1 < 3 {
                        continue;
                    }
                    // "p false" ... "q true": p or q.
                    if g.cell(l.to) == g.cell(p) {
                        // Both ends in one cell: it holds one of the two.
                        let (a, x, y) = (g.cell(p), g.digit(p), g.digit(l.to));
                        let elims: Vec<(usize, u8)> = pm
                            .digits(a)
                            .into_iter()
                            .filter(|&e| e != x && e != y)
                            .map(|e| (a, e))
                            .collect();
                        if !elims.is_empty() {
                            keep(
                                &mut found,
                                Found {
                                    technique: Technique::DiscontinuousNiceLoop,
                                    chain: search.trace(t, None),
                                    eliminations: elims,
                                    extra_rules: vec![Rule::Cell(a)],
                                    conclusion: format!("{0}={x} or {0}={y}", cell_name(n, a)),
                                },
                            );
                        }
                    } else if let Some(mut f) = aic_ends(pm, &g, p, l.to) {
                        f.chain = search.trace(t, None);
                        keep(&mut found, f);
                    }
                }
            }
        }
    }
    let mut out: Vec<(usize, Step)> = found
        .into_values()
        .map(|f| (f.chain.links.len(), step(&g, f)))
        .collect();
    out.sort_by_key(|(len, s)| (*len, std::cmp::Reverse(s.eliminations.len())));
    out.into_iter().map(|(_, s)| s).collect()
}

/// The step of a chain found.
fn step(g: &Graph, f: Found) -> Step {
    let n = g.n;
    let mut rules: Vec<Rule> = f.chain.links.iter().map(|&(_, r)| r).collect();
    rules.extend(f.extra_rules);
    let mut cells = Vec::new();
    let mut digits = Vec::new();
    for &p in &f.chain.nodes {
        if !cells.contains(&g.cell(p)) {
            cells.push(g.cell(p));
        }
        digits.push(g.digit(p));
    }
    digits.sort_unstable();
    digits.dedup();
    let houses = f
        .chain
        .links
        .iter()
        .filter_map(|&(_, r)| match r {
            Rule::Digit(h, _) => Some(h),
            Rule::Cell(_) => None,
        })
        .collect();
    let title = match f.technique {
        Technique::Aic => "AIC",
        Technique::ContinuousNiceLoop => "Continuous nice loop",
        _ => "Discontinuous nice loop",
    };
    Step {
        technique: f.technique,
        sentence: format!(
            "{title}: {} (=: at least one is true, -: not both); {}, so {}",
            f.chain.text(g),
            f.conclusion,
            list(n, &f.eliminations, false)
        ),
        digits,
        cells,
        houses,
        placements: vec![],
        eliminations: f.eliminations,
        rules: finish_rules(rules),
    }
}
