//! Alternating inference chains and nice loops on candidates (HoDoKu's
//! 0706 continuous nice loop, 0707 discontinuous nice loop, 0708 AIC),
//! and their grouped forms (0709, 0710, 0711).
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
//!
//! The grouped search adds group nodes: the candidates of one digit in
//! the cells a box shares with a row or a column, when there are at least
//! two of them ("one of r5c1 and r5c2 holds 5", written `(5)r5c12` as
//! HoDoKu writes it). A group is true when one of its cells holds the
//! digit. It is strongly linked to a candidate or group of its digit that
//! holds the rest of the digit in the box or in the line, and weakly
//! linked to every other candidate or (disjoint) group of its digit in
//! the box or the line: those see all of its cells. The grouped search
//! runs over two layers of states, before and after the chain's first
//! group, and reports only chains that reach the second layer, so a
//! grouped chain is the shortest chain with at least one group for its
//! ends, and the ungrouped techniques are found exactly as before.

use std::collections::{BTreeMap, VecDeque};

use super::{finish_rules, link_rules, list, Rule, Step, Technique, MAX_CHAIN_LINKS};
use crate::pencil::{cell_name, Candidates, House};

/// A link to node `to` (a candidate, numbered `cell * n + digit - 1`, or
/// a group, numbered from `n * n * n` on), with the rule that makes it.
#[derive(Clone, Copy, Debug)]
struct Link {
    to: usize,
    rule: Rule,
}

/// A group node: the candidates of `digit` in `cells`, the cells of the
/// box-line intersection `houses` (box, line) that hold it, at least two.
#[derive(Clone, Debug)]
struct Group {
    digit: u8,
    cells: Vec<usize>,
    houses: [House; 2],
}

/// The strong and weak links of every node.
struct Graph {
    n: usize,
    /// The number of candidate nodes, `n * n * n`; groups come after.
    base: usize,
    groups: Vec<Group>,
    /// `0..n * n`, so that a candidate's cells are a slice too.
    ids: Vec<usize>,
    strong: Vec<Vec<Link>>,
    weak: Vec<Vec<Link>>,
}

impl Graph {
    /// The links of `pm`'s candidates, and with `grouped` its groups'.
    fn new(pm: &Candidates, grouped: bool) -> Graph {
        let n = pm.side();
        let base = n * n * n;
        let mut strong: Vec<Vec<Link>> = vec![Vec::new(); base];
        let mut weak: Vec<Vec<Link>> = vec![Vec::new(); base];
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
        let mut g = Graph {
            n,
            base,
            groups: Vec::new(),
            ids: (0..n * n).collect(),
            strong,
            weak,
        };
        if grouped {
            g.add_groups(pm);
        }
        g
    }

    /// Adds the group nodes of `pm` and their links.
    fn add_groups(&mut self, pm: &Candidates) {
        let (n, k) = (self.n, pm.box_side());
        for d in 1..=n as u8 {
            for b in 0..n {
                let in_box = pm.cells_with(House::Box(b), d);
                let (r0, c0) = (b / k * k, b % k * k);
                let lines = (r0..r0 + k)
                    .map(House::Row)
                    .chain((c0..c0 + k).map(House::Col));
                for line in lines {
                    let cells: Vec<usize> = in_box
                        .iter()
                        .copied()
                        .filter(|&c| match line {
                            House::Row(r) => c / n == r,
                            House::Col(x) => c % n == x,
                            House::Box(_) => false,
                        })
                        .collect();
                    if cells.len() >= 2 {
                        self.groups.push(Group {
                            digit: d,
                            cells,
                            houses: [House::Box(b), line],
                        });
                    }
                }
            }
        }
        let total = self.base + self.groups.len();
        self.strong.resize(total, Vec::new());
        self.weak.resize(total, Vec::new());
        // The groups of each house and digit.
        let mut of_house: BTreeMap<(House, u8), Vec<usize>> = BTreeMap::new();
        for (i, gr) in self.groups.iter().enumerate() {
            for h in gr.houses {
                of_house.entry((h, gr.digit)).or_default().push(i);
            }
        }
        for i in 0..self.groups.len() {
            let node = self.base + i;
            let (d, houses) = (self.groups[i].digit, self.groups[i].houses);
            for h in houses {
                let rule = Rule::Digit(h, d);
                let rest: Vec<usize> = pm
                    .cells_with(h, d)
                    .into_iter()
                    .filter(|c| !self.groups[i].cells.contains(c))
                    .collect();
                for &c in &rest {
                    let cand = c * n + d as usize - 1;
                    self.weak[node].push(Link { to: cand, rule });
                    self.weak[cand].push(Link { to: node, rule });
                    if rest.len() == 1 {
                        self.strong[node].push(Link { to: cand, rule });
                        self.strong[cand].push(Link { to: node, rule });
                    }
                }
                for &j in of_house.get(&(h, d)).map_or(&[][..], |v| v) {
                    let other = &self.groups[j].cells;
                    if j == i || other.iter().any(|c| self.groups[i].cells.contains(c)) {
                        continue;
                    }
                    // Each direction is added from its own end.
                    self.weak[node].push(Link {
                        to: self.base + j,
                        rule,
                    });
                    if rest == *other {
                        self.strong[node].push(Link {
                            to: self.base + j,
                            rule,
                        });
                    }
                }
            }
        }
    }

    fn total(&self) -> usize {
        self.base + self.groups.len()
    }

    fn is_group(&self, p: usize) -> bool {
        p >= self.base
    }

    /// The cell of candidate `p`.
    fn cell(&self, p: usize) -> usize {
        debug_assert!(!self.is_group(p));
        p / self.n
    }

    /// The cells of node `p`: one for a candidate.
    fn cells(&self, p: usize) -> &[usize] {
        if self.is_group(p) {
            &self.groups[p - self.base].cells
        } else {
            &self.ids[p / self.n..p / self.n + 1]
        }
    }

    fn digit(&self, p: usize) -> u8 {
        if self.is_group(p) {
            self.groups[p - self.base].digit
        } else {
            (p % self.n + 1) as u8
        }
    }

    /// `(5)r1c2`, or for a group `(5)r1c23` (`r1c{2,3}` beyond 9 columns).
    fn name(&self, p: usize) -> String {
        let d = self.digit(p);
        if !self.is_group(p) {
            return format!("({d}){}", cell_name(self.n, self.cell(p)));
        }
        let (n, cells) = (self.n, self.cells(p));
        let many = |xs: Vec<usize>| -> String {
            let xs: Vec<String> = xs.iter().map(|x| (x + 1).to_string()).collect();
            if n <= 9 {
                xs.concat()
            } else {
                format!("{{{}}}", xs.join(","))
            }
        };
        match self.groups[p - self.base].houses[1] {
            House::Row(r) => format!(
                "({d})r{}c{}",
                r + 1,
                many(cells.iter().map(|c| c % n).collect())
            ),
            _ => format!(
                "({d})r{}c{}",
                many(cells.iter().map(|c| c / n).collect()),
                cells[0] % n + 1
            ),
        }
    }
}

/// A chain: its nodes in order and the links between them (`true` for a
/// strong link), one fewer than the nodes.
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
/// `2 * (layer * total + node) + on`: `on` when the chain concludes the
/// node is true, layer 1 once the chain has passed a group.
struct Search {
    total: usize,
    stamp: Vec<u32>,
    now: u32,
    depth: Vec<u8>,
    parent: Vec<usize>,
    via: Vec<Option<Rule>>,
    queue: VecDeque<usize>,
}

impl Search {
    fn new(total: usize, layers: usize) -> Search {
        let states = 2 * total * layers;
        Search {
            total,
            stamp: vec![0; states],
            now: 0,
            depth: vec![0; states],
            parent: vec![usize::MAX; states],
            via: vec![None; states],
            queue: VecDeque::new(),
        }
    }

    fn state(&self, layer: usize, node: usize, on: bool) -> usize {
        2 * (layer * self.total + node) + usize::from(on)
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
            nodes.push((s / 2) % self.total);
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

/// The grouped form of an ungrouped technique.
fn grouped_form(t: Technique) -> Technique {
    match t {
        Technique::Aic => Technique::GroupedAic,
        Technique::ContinuousNiceLoop => Technique::GroupedContinuousNiceLoop,
        Technique::DiscontinuousNiceLoop => Technique::GroupedDiscontinuousNiceLoop,
        t => t,
    }
}

/// Cells holding `d`, outside `ends`, that see every cell of `ends`, with
/// the rules by which each would exclude `d` from all of them.
fn seeing_all(
    pm: &Candidates,
    ends: &[usize],
    d: u8,
    elims: &mut Vec<(usize, u8)>,
    rules: &mut Vec<Rule>,
) {
    let n = pm.side();
    for t in (0..n * n).filter(|&t| pm.has(t, d) && !ends.contains(&t)) {
        if ends.iter().all(|&e| pm.sees(t, e)) {
            link_rules(pm, t, ends, d, rules);
            elims.push((t, d));
        }
    }
}

/// The AIC with ends `p` and `q` (at least one true; `p` a candidate, `q`
/// a candidate or a group): what it eliminates, the rules that eliminate
/// it, and the conclusion in words; `None` when it eliminates nothing or
/// the ends are candidates of one cell (a nice loop).
fn aic_ends(pm: &Candidates, g: &Graph, p: usize, q: usize) -> Option<Found> {
    let (a, b) = (g.cells(p), g.cells(q));
    let (x, y) = (g.digit(p), g.digit(q));
    if !g.is_group(q) && a == b {
        return None;
    }
    let mut rules = Vec::new();
    let mut elims = Vec::new();
    if x == y {
        let both: Vec<usize> = a.iter().chain(b).copied().collect();
        seeing_all(pm, &both, x, &mut elims, &mut rules);
    } else {
        // A single end that sees all of the other end's cells loses the
        // other end's digit: holding it would make both ends false.
        for (one, other, d) in [(a, b, y), (b, a, x)] {
            let c = one[0];
            if one.len() == 1 && pm.has(c, d) && other.iter().all(|&o| pm.sees(c, o)) {
                elims.push((c, d));
                rules.push(Rule::Cell(c));
                link_rules(pm, c, other, d, &mut rules);
            }
        }
    }
    if elims.is_empty() {
        return None;
    }
    let name = |p: usize| {
        let s = g.name(p);
        s[s.find(')').map_or(0, |i| i + 1)..].to_string()
    };
    let (na, nb) = (name(p), name(q));
    Some(Found {
        technique: Technique::Aic,
        chain: Chain {
            nodes: vec![],
            links: vec![],
        },
        eliminations: sorted(elims),
        extra_rules: rules,
        conclusion: format!("{na}={x} or {nb}={y}"),
    })
}

/// What a continuous nice loop eliminates: each weak link becomes strong,
/// so a cell whose two loop digits are weakly linked loses its other
/// digits, and a cell seeing all cells of both ends of a weak link on one
/// digit loses that digit.
fn loop_eliminations(pm: &Candidates, g: &Graph, chain: &Chain) -> (Vec<(usize, u8)>, Vec<Rule>) {
    let mut elims = Vec::new();
    let mut rules = Vec::new();
    for (i, &(strong, _)) in chain.links.iter().enumerate() {
        if strong {
            continue;
        }
        let (p, q) = (chain.nodes[i], chain.nodes[i + 1]);
        if !g.is_group(p) && !g.is_group(q) && g.cell(p) == g.cell(q) {
            let a = g.cell(p);
            for e in pm.digits(a) {
                if e != g.digit(p) && e != g.digit(q) {
                    elims.push((a, e));
                }
            }
        } else {
            let both: Vec<usize> = g.cells(p).iter().chain(g.cells(q)).copied().collect();
            seeing_all(pm, &both, g.digit(p), &mut elims, &mut rules);
        }
    }
    (sorted(elims), rules)
}

/// Does no candidate appear twice in the chain (in a candidate node or a
/// group), apart from a loop's closing node? The breadth-first search
/// tracks "true" and "false" apart, so a shortest path may pass one
/// candidate both ways; such a chain is valid but not a chain as players
/// write one, and part of it would do.
fn simple(g: &Graph, chain: &Chain) -> bool {
    let mut nodes = &chain.nodes[..];
    if nodes.len() > 1 && nodes[0] == nodes[nodes.len() - 1] {
        nodes = &nodes[..nodes.len() - 1];
    }
    let mut seen: Vec<(usize, u8)> = Vec::new();
    for &p in nodes {
        let d = g.digit(p);
        for &c in g.cells(p) {
            if seen.contains(&(c, d)) {
                return false;
            }
            seen.push((c, d));
        }
    }
    true
}

/// Every AIC and nice loop of `pm` with eliminations, as steps of their
/// three techniques, shortest chains first; with `grouped`, the chains
/// through at least one group, as steps of the three grouped techniques.
pub(super) fn chains(pm: &Candidates, grouped: bool) -> Vec<Step> {
    let g = Graph::new(pm, grouped);
    let n = g.n;
    let cands: Vec<usize> = (0..g.base)
        .filter(|&p| pm.value(g.cell(p)) == 0 && pm.has(g.cell(p), g.digit(p)))
        .collect();
    let mut search = Search::new(g.total(), 1 + usize::from(grouped));
    // Chains are reported from this layer only.
    let report = usize::from(grouped);
    let mut found = BTreeMap::new();
    let keep_as = |found: &mut FoundMap, mut f: Found| {
        if !simple(&g, &f.chain) {
            return;
        }
        if grouped {
            f.technique = grouped_form(f.technique);
        }
        keep(found, f);
    };
    for &p in &cands {
        for start_on in [false, true] {
            if !start_on && g.strong[p].is_empty() {
                continue;
            }
            search.now += 1;
            let start = search.state(0, p, start_on);
            for on in [false, true] {
                let s = search.state(0, p, on);
                search.mark(s, 0, usize::MAX, None);
            }
            search.queue.clear();
            search.queue.push_back(start);
            while let Some(s) = search.queue.pop_front() {
                let (x, on, depth) = ((s / 2) % g.total(), s % 2 == 1, search.depth[s] as usize);
                let layer = s / 2 / g.total();
                if depth >= MAX_CHAIN_LINKS {
                    continue;
                }
                let links = if on { &g.weak[x] } else { &g.strong[x] };
                for &l in links {
                    let next_layer = layer.max(usize::from(g.is_group(l.to)));
                    let t = search.state(next_layer, l.to, !on);
                    if l.to == p {
                        // Back at the start: a loop of `depth + 1` links.
                        if depth + 1 < 3 || next_layer != report {
                            continue;
                        }
                        let chain = search.trace(s, Some((!on, l)));
                        match (start_on, on) {
                            // "p false" ... "x true" - "p false".
                            (false, true) if depth + 1 >= 4 => {
                                let (elims, rules) = loop_eliminations(pm, &g, &chain);
                                if !elims.is_empty() {
                                    keep_as(
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
                                keep_as(
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
                                keep_as(
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
                    if start_on || on || depth + 1 < 3 || next_layer != report {
                        continue;
                    }
                    // "p false" ... "q true": p or q.
                    if !g.is_group(l.to) && g.cell(l.to) == g.cell(p) {
                        // Both ends in one cell: it holds one of the two.
                        let (a, x, y) = (g.cell(p), g.digit(p), g.digit(l.to));
                        let elims: Vec<(usize, u8)> = pm
                            .digits(a)
                            .into_iter()
                            .filter(|&e| e != x && e != y)
                            .map(|e| (a, e))
                            .collect();
                        if !elims.is_empty() {
                            keep_as(
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
                        keep_as(&mut found, f);
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
        for &c in g.cells(p) {
            if !cells.contains(&c) {
                cells.push(c);
            }
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
        Technique::DiscontinuousNiceLoop => "Discontinuous nice loop",
        Technique::GroupedAic => "Grouped AIC",
        Technique::GroupedContinuousNiceLoop => "Grouped continuous nice loop",
        _ => "Grouped discontinuous nice loop",
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
