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

/// A chain as its sentence writes it: `(5)r1c2 = (5)r3c2 - (4)r3c2`, read
/// back into candidates `(cell, digit)` and links (`true` for `=`).
fn read_chain(s: &Step) -> (Vec<(usize, u8)>, Vec<bool>) {
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
        let b = word.as_bytes();
        assert!(
            b.len() == 7 && b[0] == b'(' && b[2] == b')' && b[3] == b'r' && b[5] == b'c',
            "candidate {word:?} in {}",
            s.sentence
        );
        let (d, r, c) = (b[1] - b'0', (b[4] - b'1') as usize, (b[6] - b'1') as usize);
        nodes.push((9 * r + c, d));
    }
    assert_eq!(nodes.len(), links.len() + 1, "{}", s.sentence);
    (nodes, links)
}

/// Is the link between candidates `x` and `y` what it claims? Strong: the
/// two digits of a bivalue cell, or one digit in the only two cells of a
/// house that hold it. Weak: two digits of a cell, or one digit in two
/// cells that see each other.
fn link_holds(pm: &Candidates, x: (usize, u8), y: (usize, u8), strong: bool) -> bool {
    let ((a, d), (b, e)) = (x, y);
    if a == b {
        return d != e
            && (!strong
                || pm.digits(a) == {
                    let mut v = vec![d, e];
                    v.sort_unstable();
                    v
                });
    }
    if d != e || !pm.sees(a, b) {
        return false;
    }
    !strong
        || pm.houses_of(a).iter().any(|&h| {
            let mut pair = vec![a, b];
            pair.sort_unstable();
            pm.cells_with(h, d) == pair
        })
}

/// What the shape of an AIC or nice loop allows it to eliminate, computed
/// here from the chain and the candidates alone.
fn shape_eliminations(
    pm: &Candidates,
    t: Technique,
    nodes: &[(usize, u8)],
    links: &[bool],
) -> Vec<(usize, u8)> {
    let (first, last) = (nodes[0], nodes[nodes.len() - 1]);
    let (s0, s1) = (links[0], links[links.len() - 1]);
    let others = |c: usize, keep: &[u8]| -> Vec<(usize, u8)> {
        pm.digits(c)
            .into_iter()
            .filter(|d| !keep.contains(d))
            .map(|d| (c, d))
            .collect()
    };
    let mut out = match t {
        Technique::Aic => {
            assert!(s0 && s1, "an AIC starts and ends strong");
            let ((a, x), (b, y)) = (first, last);
            assert_ne!(a, b);
            if x == y {
                seeing_both(pm, a, b, x)
            } else {
                assert!(pm.sees(a, b), "the ends of a type 2 AIC see each other");
                [(a, y), (b, x)]
                    .into_iter()
                    .filter(|&(c, d)| pm.has(c, d))
                    .collect()
            }
        }
        Technique::DiscontinuousNiceLoop => {
            assert_eq!(first.0, last.0, "a nice loop comes back to its cell");
            match (s0, s1) {
                (false, false) if first == last => vec![first],
                (true, true) if first == last => others(first.0, &[first.1]),
                (true, true) => others(first.0, &[first.1, last.1]),
                _ => panic!("not a discontinuous loop"),
            }
        }
        Technique::ContinuousNiceLoop => {
            assert_eq!(first, last, "a loop closes on its candidate");
            assert!(
                s0 != s1 && links.len().is_multiple_of(2),
                "alternating all round"
            );
            let mut v = Vec::new();
            for (i, &strong) in links.iter().enumerate() {
                let ((a, d), (b, e)) = (nodes[i], nodes[i + 1]);
                if strong {
                    continue;
                }
                if a == b {
                    v.extend(others(a, &[d, e]));
                } else {
                    v.extend(seeing_both(pm, a, b, d));
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

/// An AIC or nice loop: real candidates, links that hold, strong and
/// weak links alternating, at most [`MAX_CHAIN_LINKS`] links, and
/// exactly the eliminations its shape allows.
fn check_alternating(pm: &Candidates, s: &Step) -> Result<(), String> {
    let (nodes, links) = read_chain(s);
    if links.len() < 3 || links.len() > MAX_CHAIN_LINKS {
        return Err(format!("{} links", links.len()));
    }
    for &(c, d) in &nodes {
        if !pm.has(c, d) {
            return Err(format!("r{}c{} has no {d}", c / 9 + 1, c % 9 + 1));
        }
    }
    for (i, &strong) in links.iter().enumerate() {
        if i > 0 && links[i - 1] == strong {
            return Err(format!(
                "links {i} and {} are both {}",
                i + 1,
                if strong { "strong" } else { "weak" }
            ));
        }
        if !link_holds(pm, nodes[i], nodes[i + 1], strong) {
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

#[test]
fn every_aic_and_nice_loop_found_is_well_formed() {
    for (code, t, least) in [
        ("0706", Technique::ContinuousNiceLoop, 18),
        ("0707", Technique::DiscontinuousNiceLoop, 27),
        ("0708", Technique::Aic, 34),
    ] {
        let n = every_instance_by(
            code,
            t,
            |pm, s| check_alternating(pm, s).unwrap_or_else(|e| panic!("{e}: {}", s.sentence)),
            |s| read_chain(s).1.len(),
        );
        assert!(n >= least, "{n} instances of {code}");
    }
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
    let name = |(c, d): (usize, u8)| format!("({d})r{}c{}", c / 9 + 1, c % 9 + 1);
    let forge = |text: String| {
        let mut f = s.clone();
        f.sentence = format!("AIC: {text} (=: at least one is true, -: not both); forged");
        check_alternating(pm, &f)
    };
    // Two strong links in a row: the first three links all "=".
    let mut text = name(nodes[0]);
    for (i, &x) in nodes.iter().enumerate().skip(1) {
        text.push_str(if i <= 2 || i % 2 == 1 { " = " } else { " - " });
        text.push_str(&name(x));
    }
    assert!(forge(text).unwrap_err().contains("both strong"));
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
    assert!(forge(text).unwrap_err().contains("link 1 does not hold"));
    // A weak link between cells that do not see each other.
    let (a, b) = (0..81)
        .flat_map(|a| (0..81).map(move |b| (a, b)))
        .find(|&(a, b)| a != b && !pm.sees(a, b) && pm.mask(a) & pm.mask(b) & !1 != 0)
        .unwrap();
    let d = (1..=9u8).find(|&d| pm.has(a, d) && pm.has(b, d)).unwrap();
    let text = format!(
        "{} = {} - {} = {}",
        name(nodes[0]),
        name(nodes[1]),
        name((a, d)),
        name((b, d))
    );
    let e = forge(text).unwrap_err();
    assert!(e.contains("does not hold"), "{e}");
}

#[test]
fn the_checker_needs_every_link_of_an_aic_or_nice_loop() {
    let checker = Checker::new(3);
    for (code, t) in [
        ("0708", Technique::Aic),
        ("0707", Technique::DiscontinuousNiceLoop),
        ("0706", Technique::ContinuousNiceLoop),
    ] {
        let case = &cases(code)[0];
        let steps = find_checked(&case.state, t, &checker).expect("proved");
        let s = steps.last().expect("an instance (the longest)");
        let (nodes, links) = read_chain(s);
        for i in 0..links.len() {
            let ((a, d), (b, e)) = (nodes[i], nodes[i + 1]);
            let rule = if a == b {
                Rule::Cell(a)
            } else {
                let h = case
                    .state
                    .houses_of(a)
                    .into_iter()
                    .find(|h| {
                        s.rules.contains(&Rule::Digit(*h, d)) && case.state.cells(*h).contains(&b)
                    })
                    .expect("the link's house among the rules");
                Rule::Digit(h, e)
            };
            let mut forged = s.clone();
            forged.rules.retain(|&r| r != rule);
            assert!(
                checker.verify(&case.state, &forged).is_err(),
                "{code}: without {} the step still follows: {}",
                rule.show(9),
                s.sentence
            );
        }
    }
}
