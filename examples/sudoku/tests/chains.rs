//! X-chains, XY-chains and remote pairs on the cases of HoDoKu's regression library
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
    let prefix = format!(":{code}:");
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(&prefix))
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
    let checker = Checker::new(3);
    let mut found = 0;
    for case in cases(code) {
        let steps = find_checked(&case.state, t, &checker).expect("every instance proved");
        assert!(!steps.is_empty(), "line {}", case.line);
        for w in steps.windows(2) {
            assert!(w[0].cells.len() <= w[1].cells.len(), "shortest first");
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
