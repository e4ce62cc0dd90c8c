//! X-chains, XY-chains, remote pairs, AICs and nice loops, grouped or
//! not, on the cases of HoDoKu's regression library
//! (`../shared/data/sudoku/reglib-1.3.txt`): every instance found is a
//! well-formed chain (checked here from the candidates, apart from the
//! detector), the chains come shortest first, and the exact-cover checker
//! stops proving a chain's eliminations when one of its links is dropped.

use std::path::Path;

use csp_sudoku::pencil::{Candidates, House, LibraryCase};
use csp_sudoku::techniques::{find_checked, Checker, Rule, Step, Technique, MAX_CHAIN_LINKS};

fn cases(code: &str) -> Vec<LibraryCase> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku/reglib-1.3.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (whole, variant) = (format!(":{code}:"), format!(":{code}-"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(&whole) || l.starts_with(&variant))
        .map(|(i, l)| LibraryCase::parse(i + 1, l).expect("a library line"))
        .collect()
}

/// Is `c` in house `h`?
fn in_house(pm: &Candidates, h: House, c: usize) -> bool {
    pm.cells(h).contains(&c)
}

/// The eliminations a chain with ends `a` and `b` on `d` allows: every
/// other cell with `d` that sees both.
fn seeing_both(pm: &Candidates, a: usize, b: usize, d: u8) -> Vec<(usize, u8)> {
    let n = pm.side();
    (0..n * n)
        .filter(|&c| c != a && c != b && pm.has(c, d) && pm.sees(c, a) && pm.sees(c, b))
        .map(|c| (c, d))
        .collect()
}

fn distinct(cells: &[usize]) -> bool {
    (0..cells.len()).all(|i| !cells[i + 1..].contains(&cells[i]))
}

/// An X-chain: cells with `d`, link `i` a house holding cells `i` and
/// `i + 1`, odd links strong (the house has `d` in those two cells only),
/// even links weak, at least 3 links and odd.
fn check_x_chain(pm: &Candidates, s: &Step) {
    let d = s.digits[0];
    let (cells, links) = (&s.cells, &s.houses);
    assert_eq!(links.len() + 1, cells.len(), "{}", s.sentence);
    assert!(links.len() >= 3 && links.len() % 2 == 1 && links.len() <= MAX_CHAIN_LINKS);
    assert!(distinct(cells), "{}", s.sentence);
    for (i, &h) in links.iter().enumerate() {
        let (x, y) = (cells[i], cells[i + 1]);
        assert!(pm.has(x, d) && pm.has(y, d));
        assert!(in_house(pm, h, x) && in_house(pm, h, y), "{}", s.sentence);
        if i.is_multiple_of(2) {
            assert_eq!(pm.cells_with(h, d), {
                let mut v = vec![x, y];
                v.sort_unstable();
                v
            });
        }
    }
    let (a, b) = (cells[0], cells[cells.len() - 1]);
    assert_eq!(s.eliminations, seeing_both(pm, a, b, d), "{}", s.sentence);
}

/// An XY-chain: bivalue cells, neighbours in the link's house sharing the
/// digit the chain passes on, both outer digits the eliminated one.
fn check_xy_chain(pm: &Candidates, s: &Step) {
    let (cells, links) = (&s.cells, &s.houses);
    assert_eq!(links.len() + 1, cells.len());
    assert!(cells.len() >= 3 && 2 * cells.len() - 1 <= MAX_CHAIN_LINKS);
    assert!(distinct(cells), "{}", s.sentence);
    let x = s.eliminations[0].1;
    let mut v = x;
    for (i, &c) in cells.iter().enumerate() {
        let ds = pm.digits(c);
        assert!(ds.len() == 2 && ds.contains(&v), "{}", s.sentence);
        v = if ds[0] == v { ds[1] } else { ds[0] };
        if let Some(&h) = links.get(i) {
            assert!(in_house(pm, h, c) && in_house(pm, h, cells[i + 1]));
        }
    }
    assert_eq!(v, x, "the last cell's outer digit: {}", s.sentence);
    let (a, b) = (cells[0], cells[cells.len() - 1]);
    assert_eq!(s.eliminations, seeing_both(pm, a, b, x), "{}", s.sentence);
}

fn every_instance(code: &str, t: Technique, check: fn(&Candidates, &Step)) -> usize {
    every_instance_by(code, t, check, |s| s.cells.len())
}

/// [`every_instance`] with the chains' length measured by `size`.
fn every_instance_by(
    code: &str,
    t: Technique,
    check: fn(&Candidates, &Step),
    size: fn(&Step) -> usize,
) -> usize {
    let checker = Checker::new(3);
    let mut found = 0;
    for case in cases(code) {
        let steps = find_checked(&case.state, t, &checker).expect("every instance proved");
        assert!(!steps.is_empty(), "line {}", case.line);
        for w in steps.windows(2) {
            assert!(size(&w[0]) <= size(&w[1]), "shortest first");
        }
        for s in &steps {
            assert_eq!(s.technique, t);
            check(&case.state, s);
        }
        found += steps.len();
    }
    found
}

/// A remote pair: an even number (at least 4) of bivalue cells with the
/// same two digits, each seeing the next; every cell losing a digit sees
/// two of them an odd number (at least 3) of links apart.
fn check_remote_pair(pm: &Candidates, s: &Step) {
    let cells = &s.cells;
    assert!(
        cells.len() >= 4 && cells.len().is_multiple_of(2),
        "{}",
        s.sentence
    );
    assert!(distinct(cells), "{}", s.sentence);
    let m = pm.mask(cells[0]);
    assert_eq!(m.count_ones(), 2);
    for (i, &c) in cells.iter().enumerate() {
        assert_eq!(pm.mask(c), m, "{}", s.sentence);
        if i > 0 {
            assert!(
                in_house(pm, s.houses[i - 1], c) && in_house(pm, s.houses[i - 1], cells[i - 1])
            );
        }
    }
    for &(t, d) in &s.eliminations {
        assert!(!cells.contains(&t) && pm.has(t, d) && m & (1 << d) != 0);
        let odd_pair = (0..cells.len()).any(|i| {
            (i + 3..cells.len())
                .step_by(2)
                .any(|j| pm.sees(t, cells[i]) && pm.sees(t, cells[j]))
        });
        assert!(odd_pair, "{}", s.sentence);
    }
}

#[test]
fn every_remote_pair_found_is_a_well_formed_chain() {
    let n = every_instance("0703", Technique::RemotePair, check_remote_pair);
    assert!(n >= 20, "{n} remote pairs");
}

#[test]
fn every_x_chain_found_is_a_well_formed_chain() {
    let n = every_instance("0701", Technique::XChain, check_x_chain);
    assert!(n >= 14, "{n} X-chains");
}

#[test]
fn every_xy_chain_found_is_a_well_formed_chain() {
    let n = every_instance("0702", Technique::XyChain, check_xy_chain);
    assert!(n >= 23, "{n} XY-chains");
}

/// The digit each link of a chain is about: the X-chain's digit, or the
/// digit an XY-chain passes from one cell to the next.
fn link_digits(pm: &Candidates, s: &Step, t: Technique) -> Vec<u8> {
    let x = s.eliminations[0].1;
    if t == Technique::XChain {
        return vec![x; s.houses.len()];
    }
    let mut v = x;
    let mut out = Vec::new();
    for &c in &s.cells[..s.cells.len() - 1] {
        let ds = pm.digits(c);
        v = if ds[0] == v { ds[1] } else { ds[0] };
        out.push(v);
    }
    out
}

/// Drops each link's rule of the longest chain of the first case in turn:
/// the checker must then refuse an elimination (the chain is needed, and
/// the checker is not vacuous).
fn links_are_needed(code: &str, t: Technique) {
    let checker = Checker::new(3);
    let case = &cases(code)[0];
    let steps = find_checked(&case.state, t, &checker).expect("proved");
    let s = steps.last().expect("an instance (the longest)");
    assert!(checker.verify(&case.state, s).is_ok());
    let digits = link_digits(&case.state, s, t);
    for (&h, &e) in s.houses.iter().zip(&digits) {
        let mut forged = s.clone();
        forged.rules.retain(|&r| r != Rule::Digit(h, e));
        assert!(
            checker.verify(&case.state, &forged).is_err(),
            "without {h} ({e}): {}",
            s.sentence
        );
    }
}

#[test]
fn the_checker_needs_every_link_of_a_chain() {
    links_are_needed("0701", Technique::XChain);
    links_are_needed("0702", Technique::XyChain);
}

#[test]
fn the_first_x_chain_of_the_library_reads_as_a_chain() {
    let checker = Checker::new(3);
    let case = &cases("0701")[0];
    let steps = find_checked(&case.state, Technique::XChain, &checker).unwrap();
    let want = {
        let mut v = case.eliminations.clone();
        v.sort_unstable();
        v
    };
    let s = steps
        .iter()
        .find(|s| s.eliminations == want)
        .expect("the library's instance");
    assert!(s.sentence.starts_with("X-chain on 7: "), "{}", s.sentence);
    assert!(s.sentence.ends_with("so r4c2<>7"), "{}", s.sentence);
}

// ---- AICs and nice loops --------------------------------------------------

/// A node of a chain: the cells and the digit. One cell for a candidate,
/// two or three (a box-line intersection) for a group.
type Node = (Vec<usize>, u8);

/// A chain as its sentence writes it: `(5)r1c2 = (5)r3c2 - (4)r3c2`, a
/// group written `(5)r1c23` or `(5)r23c1`, read back into nodes and links
/// (`true` for `=`).
fn read_chain(s: &Step) -> (Vec<Node>, Vec<bool>) {
    let body = s
        .sentence
        .split_once(": ")
        .and_then(|(_, rest)| rest.split_once(" (=: "))
        .map(|(chain, _)| chain)
        .unwrap_or_else(|| panic!("no chain in {}", s.sentence));
    let mut nodes = Vec::new();
    let mut links = Vec::new();
    for (i, word) in body.split(' ').enumerate() {
        if i % 2 == 1 {
            links.push(match word {
                "=" => true,
                "-" => false,
                w => panic!("link {w:?} in {}", s.sentence),
            });
            continue;
        }
        nodes.push(read_node(word).unwrap_or_else(|| panic!("node {word:?} in {}", s.sentence)));
    }
    assert_eq!(nodes.len(), links.len() + 1, "{}", s.sentence);
    (nodes, links)
}

/// `(5)r1c2`, `(5)r1c23` or `(5)r23c1` as a node (cells in order).
fn read_node(word: &str) -> Option<Node> {
    let rest = word.strip_prefix('(')?;
    let (d, rest) = rest.split_once(')')?;
    let d: u8 = d.parse().ok().filter(|d| (1..=9).contains(d))?;
    let (rows, cols) = rest.strip_prefix('r')?.split_once('c')?;
    let digits = |t: &str| -> Option<Vec<usize>> {
        let v: Option<Vec<usize>> = t
            .bytes()
            .map(|b| (b'1'..=b'9').contains(&b).then(|| (b - b'1') as usize))
            .collect();
        v.filter(|v| !v.is_empty())
    };
    let (rows, cols) = (digits(rows)?, digits(cols)?);
    if rows.len() > 1 && cols.len() > 1 {
        return None;
    }
    let mut cells: Vec<usize> = rows
        .iter()
        .flat_map(|&r| cols.iter().map(move |&c| 9 * r + c))
        .collect();
    cells.sort_unstable();
    Some((cells, d))
}

fn box_of(c: usize) -> usize {
    c / 27 * 3 + c % 9 / 3
}

/// The houses holding every one of `cells`.
fn houses_holding(pm: &Candidates, cells: &[usize]) -> Vec<House> {
    pm.houses_of(cells[0])
        .into_iter()
        .filter(|&h| cells.iter().all(|&c| in_house(pm, h, c)))
        .collect()
}

/// Is a node what it claims? A candidate of the grid, or a group: every
/// candidate of its digit in the cells one box shares with one line, at
/// least two.
fn node_holds(pm: &Candidates, (cells, d): &Node) -> bool {
    if cells.len() == 1 {
        return pm.has(cells[0], *d);
    }
    let b = box_of(cells[0]);
    let lines: Vec<House> = houses_holding(pm, cells)
        .into_iter()
        .filter(|h| !matches!(h, House::Box(_)))
        .collect();
    lines.len() == 1
        && cells.iter().all(|&c| box_of(c) == b && pm.has(c, *d))
        && pm
            .cells_with(lines[0], *d)
            .into_iter()
            .filter(|&c| box_of(c) == b)
            .collect::<Vec<_>>()
            == *cells
}

/// Is the link between nodes `x` and `y` what it claims? Between two
/// candidates of a cell: weak, and strong when the cell is bivalue.
/// Otherwise one digit and no cell in common: weak when a house holds
/// both nodes, strong when the digit's candidates in that house are
/// exactly the two nodes' cells.
fn link_holds(pm: &Candidates, x: &Node, y: &Node, strong: bool) -> bool {
    let ((a, d), (b, e)) = (x, y);
    if a.len() == 1 && a == b {
        return d != e
            && (!strong
                || pm.digits(a[0]) == {
                    let mut v = vec![*d, *e];
                    v.sort_unstable();
                    v
                });
    }
    if d != e || a.iter().any(|c| b.contains(c)) {
        return false;
    }
    let mut both: Vec<usize> = a.iter().chain(b).copied().collect();
    both.sort_unstable();
    let houses = houses_holding(pm, &both);
    !houses.is_empty() && (!strong || houses.iter().any(|&h| pm.cells_with(h, *d) == both))
}

/// Cells with `d`, outside `ends`, seeing every cell of `ends`.
fn seeing_all(pm: &Candidates, ends: &[usize], d: u8) -> Vec<(usize, u8)> {
    (0..81)
        .filter(|&c| !ends.contains(&c) && pm.has(c, d) && ends.iter().all(|&e| pm.sees(c, e)))
        .map(|c| (c, d))
        .collect()
}

/// What the shape of an AIC or nice loop allows it to eliminate, computed
/// here from the chain and the candidates alone.
fn shape_eliminations(
    pm: &Candidates,
    t: Technique,
    nodes: &[Node],
    links: &[bool],
) -> Vec<(usize, u8)> {
    let (first, last) = (&nodes[0], &nodes[nodes.len() - 1]);
    let (s0, s1) = (links[0], links[links.len() - 1]);
    let others = |c: usize, keep: &[u8]| -> Vec<(usize, u8)> {
        pm.digits(c)
            .into_iter()
            .filter(|d| !keep.contains(d))
            .map(|d| (c, d))
            .collect()
    };
    let union = |x: &Node, y: &Node| -> Vec<usize> { x.0.iter().chain(&y.0).copied().collect() };
    assert_eq!(first.0.len(), 1, "a chain starts on a candidate");
    let mut out = match t {
        Technique::Aic | Technique::GroupedAic => {
            assert!(s0 && s1, "an AIC starts and ends strong");
            let ((a, x), (b, y)) = (first, last);
            assert!(a != b || b.len() > 1, "an AIC's ends are in two cells");
            if x == y {
                seeing_all(pm, &union(first, last), *x)
            } else {
                // A single end seeing all of the other end loses its digit.
                let mut v = Vec::new();
                for ((one, _), (other, d)) in [(first, last), (last, first)] {
                    if one.len() == 1
                        && pm.has(one[0], *d)
                        && other.iter().all(|&o| pm.sees(one[0], o))
                    {
                        v.push((one[0], *d));
                    }
                }
                assert!(!v.is_empty(), "a type 2 AIC: an end sees the other");
                v
            }
        }
        Technique::DiscontinuousNiceLoop | Technique::GroupedDiscontinuousNiceLoop => {
            assert_eq!(first.0, last.0, "a nice loop comes back to its cell");
            let c = first.0[0];
            match (s0, s1) {
                (false, false) if first == last => vec![(c, first.1)],
                (true, true) if first == last => others(c, &[first.1]),
                (true, true) => others(c, &[first.1, last.1]),
                _ => panic!("not a discontinuous loop"),
            }
        }
        Technique::ContinuousNiceLoop | Technique::GroupedContinuousNiceLoop => {
            assert_eq!(first, last, "a loop closes on its candidate");
            assert!(
                s0 != s1 && links.len().is_multiple_of(2),
                "alternating all round"
            );
            let mut v = Vec::new();
            for (i, &strong) in links.iter().enumerate() {
                let (x, y) = (&nodes[i], &nodes[i + 1]);
                if strong {
                    continue;
                }
                if x.0.len() == 1 && x.0 == y.0 {
                    v.extend(others(x.0[0], &[x.1, y.1]));
                } else {
                    v.extend(seeing_all(pm, &union(x, y), x.1));
                }
            }
            v
        }
        _ => unreachable!(),
    };
    out.sort_unstable();
    out.dedup();
    out
}

/// Is `t` one of the grouped techniques?
fn is_grouped(t: Technique) -> bool {
    matches!(
        t,
        Technique::GroupedAic
            | Technique::GroupedContinuousNiceLoop
            | Technique::GroupedDiscontinuousNiceLoop
    )
}

/// An AIC or nice loop: real candidates and groups (a grouped technique
/// with at least one group, an ungrouped one with none), links that
/// hold, strong and weak links alternating, at most [`MAX_CHAIN_LINKS`]
/// links, and exactly the eliminations its shape allows.
fn check_alternating(pm: &Candidates, s: &Step) -> Result<(), String> {
    let (nodes, links) = read_chain(s);
    if links.len() < 3 || links.len() > MAX_CHAIN_LINKS {
        return Err(format!("{} links", links.len()));
    }
    let name = |(cells, d): &Node| format!("({d}){cells:?}");
    for x in &nodes {
        if !node_holds(pm, x) {
            return Err(format!("{} is not a candidate or group", name(x)));
        }
    }
    let groups = nodes.iter().filter(|x| x.0.len() > 1).count();
    if is_grouped(s.technique) != (groups > 0) {
        return Err(format!("{groups} groups in a {}", s.technique));
    }
    for (i, &strong) in links.iter().enumerate() {
        if i > 0 && links[i - 1] == strong {
            return Err(format!(
                "links {i} and {} are both {}",
                i + 1,
                if strong { "strong" } else { "weak" }
            ));
        }
        if !link_holds(pm, &nodes[i], &nodes[i + 1], strong) {
            return Err(format!("link {} does not hold", i + 1));
        }
    }
    let want = shape_eliminations(pm, s.technique, &nodes, &links);
    if s.eliminations != want {
        return Err(format!(
            "eliminates {:?}, the shape allows {want:?}",
            s.eliminations
        ));
    }
    Ok(())
}

/// Every chain found for each library section `code` is well formed
/// ([`check_alternating`]), and there are at least `least` of them.
fn assert_well_formed(sections: &[(&str, Technique, usize)]) {
    for &(code, t, least) in sections {
        let n = every_instance_by(
            code,
            t,
            |pm, s| check_alternating(pm, s).unwrap_or_else(|e| panic!("{e}: {}", s.sentence)),
            |s| read_chain(s).1.len(),
        );
        assert!(n >= least, "{n} instances of {code}");
    }
}

#[test]
fn every_aic_and_nice_loop_found_is_well_formed() {
    assert_well_formed(&[
        ("0706", Technique::ContinuousNiceLoop, 18),
        ("0707", Technique::DiscontinuousNiceLoop, 27),
        ("0708", Technique::Aic, 34),
    ]);
}

/// The grouped chains of the library's cases without ALS (variants 1 and
/// 2; the grouped discontinuous loops' 1 and 2 too): every one found is
/// well formed, with at least one group.
#[test]
fn every_grouped_aic_and_nice_loop_found_is_well_formed() {
    assert_well_formed(&[
        ("0709-1", Technique::GroupedContinuousNiceLoop, 8),
        ("0710-1", Technique::GroupedDiscontinuousNiceLoop, 11),
        ("0710-2", Technique::GroupedDiscontinuousNiceLoop, 10),
        ("0711-1", Technique::GroupedAic, 10),
        ("0711-2", Technique::GroupedAic, 11),
    ]);
}

/// A candidate's name, `(5)r1c2`.
fn cand_name(c: usize, d: u8) -> String {
    format!("({d})r{}c{}", c / 9 + 1, c % 9 + 1)
}

/// A node's name as the sentences write it.
fn node_name((cells, d): &Node) -> String {
    if cells.len() == 1 {
        return cand_name(cells[0], *d);
    }
    let (r, c) = (cells[0] / 9, cells[0] % 9);
    let join = |v: Vec<usize>| v.iter().map(|x| (x + 1).to_string()).collect::<String>();
    if cells.iter().all(|&x| x / 9 == r) {
        format!(
            "({d})r{}c{}",
            r + 1,
            join(cells.iter().map(|x| x % 9).collect())
        )
    } else {
        format!(
            "({d})r{}c{}",
            join(cells.iter().map(|x| x / 9).collect()),
            c + 1
        )
    }
}

/// `s` with its chain replaced by `text`.
fn forge(s: &Step, text: &str) -> Step {
    let mut f = s.clone();
    f.sentence = format!("Forged: {text} (=: at least one is true, -: not both); forged");
    f
}

/// The checker of chain shapes refuses chains that break one of its rules:
/// a strong link where the house has the digit in three cells, two strong
/// links in a row, a weak link between cells that do not see each other.
#[test]
fn the_shape_checker_refuses_broken_chains() {
    let checker = Checker::new(3);
    let case = &cases("0708")[0];
    let pm = &case.state;
    let steps = find_checked(pm, Technique::Aic, &checker).unwrap();
    let s = steps.last().unwrap();
    assert_eq!(check_alternating(pm, s), Ok(()));
    let (nodes, _) = read_chain(s);
    let name = |(c, d): (usize, u8)| cand_name(c, d);
    let check = |text: String| check_alternating(pm, &forge(s, &text));
    // Two strong links in a row: the first three links all "=".
    let mut text = node_name(&nodes[0]);
    for (i, x) in nodes.iter().enumerate().skip(1) {
        text.push_str(if i <= 2 || i % 2 == 1 { " = " } else { " - " });
        text.push_str(&node_name(x));
    }
    assert!(check(text).unwrap_err().contains("both strong"));
    // A strong link that is only weak: a digit in three cells of a row.
    let three = (0..9).find_map(|r| {
        (1..=9u8).find_map(|d| {
            let cs: Vec<usize> = (0..9)
                .map(|c| 9 * r + c)
                .filter(|&c| pm.has(c, d))
                .collect();
            (cs.len() == 3 && cs.iter().all(|&c| pm.digits(c).len() > 2)).then_some((cs, d))
        })
    });
    let (cs, d) = three.expect("a row with a digit in three cells");
    let text = format!(
        "{} = {} - {} = {}",
        name((cs[0], d)),
        name((cs[1], d)),
        name((
            cs[1],
            pm.digits(cs[1]).into_iter().find(|&e| e != d).unwrap()
        )),
        name((cs[2], d))
    );
    assert!(check(text).unwrap_err().contains("link 1 does not hold"));
    // A weak link between cells that do not see each other.
    let (a, b) = (0..81)
        .flat_map(|a| (0..81).map(move |b| (a, b)))
        .find(|&(a, b)| a != b && !pm.sees(a, b) && pm.mask(a) & pm.mask(b) & !1 != 0)
        .unwrap();
    let d = (1..=9u8).find(|&d| pm.has(a, d) && pm.has(b, d)).unwrap();
    let text = format!(
        "{} = {} - {} = {}",
        node_name(&nodes[0]),
        node_name(&nodes[1]),
        name((a, d)),
        name((b, d))
    );
    let e = check(text).unwrap_err();
    assert!(e.contains("does not hold"), "{e}");
}

/// Forged grouped chains are refused: a group short of one of its
/// intersection's candidates, a group across two boxes, a strong link
/// from a group where its house has the digit elsewhere too, a grouped
/// technique without a group.
#[test]
fn the_shape_checker_refuses_broken_grouped_chains() {
    let checker = Checker::new(3);
    for (code, t) in [
        ("0711-1", Technique::GroupedAic),
        ("0709-1", Technique::GroupedContinuousNiceLoop),
        ("0710-2", Technique::GroupedDiscontinuousNiceLoop),
    ] {
        let case = &cases(code)[0];
        let pm = &case.state;
        let steps = find_checked(pm, t, &checker).unwrap();
        let s = steps.last().unwrap();
        assert_eq!(check_alternating(pm, s), Ok(()), "{}", s.sentence);
        let (nodes, links) = read_chain(s);
        let text = |nodes: &[Node]| {
            let mut t = node_name(&nodes[0]);
            for (x, &strong) in nodes[1..].iter().zip(&links) {
                t.push_str(if strong { " = " } else { " - " });
                t.push_str(&node_name(x));
            }
            t
        };
        let g = nodes.iter().position(|x| x.0.len() > 1).expect("a group");
        // The group short of a cell: no longer all of the intersection's.
        let mut short = nodes.clone();
        short[g].0.pop();
        assert!(check_alternating(pm, &forge(s, &text(&short))).is_err());
        // The group with a cell of the next box along its line added.
        let mut wide = nodes.clone();
        let (c0, c1) = (wide[g].0[0], wide[g].0[1]);
        let far = if c0 / 9 == c1 / 9 {
            c0 / 9 * 9 + (c0 % 9 + 3) % 9
        } else {
            (c0 + 27) % 81
        };
        wide[g].0.push(far);
        wide[g].0.sort_unstable();
        let e = check_alternating(pm, &forge(s, &text(&wide))).unwrap_err();
        assert!(e.contains("not a candidate or group"), "{e}");
        // Every group replaced by its first cell: ungrouped, so refused
        // as a grouped chain (or a link breaks).
        let plain: Vec<Node> = nodes.iter().map(|x| (vec![x.0[0]], x.1)).collect();
        let mut f = forge(s, &text(&plain));
        f.technique = t;
        assert!(check_alternating(pm, &f).is_err());
    }
    // A strong link from a group to a candidate where the house holds
    // the digit in a third place: a group of two in a box with a third
    // candidate in the box and a fourth in the line outside.
    let case = &cases("0711-1")[0];
    let pm = &case.state;
    let s = &find_checked(pm, Technique::GroupedAic, &checker).unwrap()[0];
    let bad = (1..=9u8).find_map(|d| {
        (0..9).find_map(|r| {
            (0..3).find_map(|bc| {
                let g: Vec<usize> = (0..3)
                    .map(|i| 9 * r + 3 * bc + i)
                    .filter(|&c| pm.has(c, d))
                    .collect();
                let b = box_of(9 * r + 3 * bc);
                let in_box: Vec<usize> = (0..81)
                    .filter(|&c| box_of(c) == b && pm.has(c, d) && !g.contains(&c))
                    .collect();
                (g.len() >= 2 && in_box.len() >= 2).then(|| ((g, d), (in_box[0], in_box[1])))
            })
        })
    });
    let ((g, d), x) = bad.expect("a group with two more candidates in its box");
    let text = format!(
        "{} = {} - {} = {}",
        cand_name(x.0, d),
        node_name(&(g.clone(), d)),
        cand_name(x.1, d),
        cand_name(x.0, d),
    );
    let e = check_alternating(pm, &forge(s, &text)).unwrap_err();
    assert!(e.contains("link 1 does not hold"), "{e}");
}

#[test]
fn the_checker_needs_every_link_of_an_aic_or_nice_loop() {
    let checker = Checker::new(3);
    for (code, t) in [
        ("0708", Technique::Aic),
        ("0707", Technique::DiscontinuousNiceLoop),
        ("0706", Technique::ContinuousNiceLoop),
        ("0711-1", Technique::GroupedAic),
        ("0710-2", Technique::GroupedDiscontinuousNiceLoop),
        ("0709-1", Technique::GroupedContinuousNiceLoop),
    ] {
        let case = &cases(code)[0];
        let steps = find_checked(&case.state, t, &checker).expect("proved");
        // The library's instance: the one with the case's eliminations.
        let want = {
            let mut v = case.eliminations.clone();
            v.sort_unstable();
            v
        };
        let s = steps
            .iter()
            .find(|s| s.eliminations == want)
            .expect("the library's instance");
        let (nodes, links) = read_chain(s);
        for i in 0..links.len() {
            let ((a, d), (b, _)) = (&nodes[i], &nodes[i + 1]);
            // Every rule that makes the link: the cell's, or the digit's
            // in each house holding both ends (a row and a box, say).
            let rules: Vec<Rule> = if a.len() == 1 && a == b {
                vec![Rule::Cell(a[0])]
            } else {
                let both: Vec<usize> = a.iter().chain(b).copied().collect();
                houses_holding(&case.state, &both)
                    .into_iter()
                    .map(|h| Rule::Digit(h, *d))
                    .collect()
            };
            assert!(
                rules.iter().any(|r| s.rules.contains(r)),
                "the link's rule among the step's: {}",
                s.sentence
            );
            let mut forged = s.clone();
            forged.rules.retain(|r| !rules.contains(r));
            assert!(
                checker.verify(&case.state, &forged).is_err(),
                "{code}: without {:?} the step still follows: {}",
                rules,
                s.sentence
            );
        }
    }
}
