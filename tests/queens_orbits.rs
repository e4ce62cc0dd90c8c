//! `csp queens N --orbits` and the SVG pictures of several solutions.
//!
//! The classes are checked against Burnside's lemma, computed here from
//! the solutions another solver (`teach-sets`) lists and from the eight
//! symmetries of the square written out again in this file; the pictures
//! go through a small XML well-formedness checker written here, which
//! also asks for exactly one root element.

use std::collections::BTreeSet;
use std::process::Output;

mod common;
use common::{csp, text, xml_roots};

fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

/// Every solution of `n` queens (1-based columns), from `teach-sets`.
fn solutions(n: usize) -> BTreeSet<Vec<u32>> {
    let ns = n.to_string();
    let o = csp(&[
        "queens",
        &ns,
        "--all",
        "--format",
        "columns",
        "--solver",
        "teach-sets",
    ]);
    assert_eq!(o.status.code(), Some(0));
    stdout(&o)
        .lines()
        .filter(|l| *l != "no solution")
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect()
}

/// The image of a placement (1-based columns, row r holding column c)
/// under symmetry `g` of the square, as the map of squares (r, c) → (r', c')
/// with m = n − 1: the identity, three turns, four mirrors.
fn image(g: usize, cols: &[u32]) -> Vec<u32> {
    let m = cols.len() as u32 - 1;
    let mut out = vec![0u32; cols.len()];
    for (r, &c1) in cols.iter().enumerate() {
        let (r, c) = (r as u32, c1 - 1);
        let (r2, c2) = match g {
            0 => (r, c),
            1 => (c, m - r),
            2 => (m - r, m - c),
            3 => (m - c, r),
            4 => (r, m - c),
            5 => (m - r, c),
            6 => (c, r),
            _ => (m - c, m - r),
        };
        out[r2 as usize] = c2 + 1;
    }
    out
}

/// The number of classes by Burnside's lemma: the mean, over the eight
/// symmetries, of the number of solutions each leaves unchanged.
fn burnside(all: &BTreeSet<Vec<u32>>) -> usize {
    let fixed: usize = (0..8)
        .map(|g| all.iter().filter(|s| image(g, s) == **s).count())
        .sum();
    assert_eq!(fixed % 8, 0);
    fixed / 8
}

/// The numbers of a JSON array `[1,2,3]` at the start of `s`.
fn array(s: &str) -> (Vec<u32>, &str) {
    let s = s.strip_prefix('[').expect("an array");
    let end = s.find(']').unwrap();
    let v = if end == 0 {
        Vec::new()
    } else {
        s[..end].split(',').map(|t| t.parse().unwrap()).collect()
    };
    (v, &s[end + 1..])
}

/// One line of `--orbits --format json`: representative, size, images.
fn class(line: &str) -> (Vec<u32>, u32, Vec<Vec<u32>>) {
    let rest = line.strip_prefix("{\"representative\":").expect(line);
    let (rep, rest) = array(rest);
    let rest = rest.strip_prefix(",\"size\":").expect(line);
    let comma = rest.find(',').unwrap();
    let size = rest[..comma].parse().unwrap();
    let mut rest = rest[comma..].strip_prefix(",\"images\":[").expect(line);
    let mut images = Vec::new();
    while rest.starts_with('[') {
        let (v, r) = array(rest);
        images.push(v);
        rest = r.strip_prefix(',').unwrap_or(r);
    }
    assert_eq!(rest, "]}", "{line}");
    (rep, size, images)
}

#[test]
fn orbit_classes_match_burnside_for_n_4_to_10() {
    for n in 4..=10 {
        let all = solutions(n);
        let ns = n.to_string();
        let o = csp(&["queens", &ns, "--orbits", "--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "n={n}");
        let classes: Vec<_> = stdout(&o).lines().map(class).collect();
        assert_eq!(classes.len(), burnside(&all), "n={n}: classes");
        let sizes: u32 = classes.iter().map(|c| c.1).sum();
        assert_eq!(
            sizes as usize,
            all.len(),
            "n={n}: sizes add up to the count"
        );
        let mut seen = BTreeSet::new();
        for (rep, size, images) in &classes {
            // The eight images, the identity first, are the test's own.
            assert_eq!(images.len(), 8);
            for (g, img) in images.iter().enumerate() {
                assert_eq!(*img, image(g, rep), "n={n} {rep:?} symmetry {g}");
                assert!(all.contains(img), "n={n}: {img:?} is not a solution");
            }
            let distinct: BTreeSet<&Vec<u32>> = images.iter().collect();
            assert_eq!(distinct.len() as u32, *size, "n={n} {rep:?}");
            assert_eq!(*distinct.first().unwrap(), rep, "the smallest represents");
            // No solution in two classes.
            assert!(distinct.iter().all(|s| seen.insert((*s).clone())), "n={n}");
        }
        assert_eq!(seen, all, "n={n}: every solution in a class");
    }
}

#[test]
fn orbits_as_text_say_how_the_count_splits() {
    let o = csp(&["queens", "8", "--orbits"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.starts_with("class 1, size 8: 1 5 8 6 3 7 2 4\n  identity   1 5 8 6 3 7 2 4\n"),
        "{out}"
    );
    assert!(
        out.ends_with("12 classes, 92 solutions: 11 × 8 + 1 × 4\n"),
        "{out}"
    );
    // 4-queens: one class of two, the turns repeating the identity.
    let o = csp(&["queens", "4", "--orbits", "--format", "a1"]);
    let out = stdout(&o);
    assert!(
        out.contains("  half turn  b1 d2 a3 c4  (= identity)\n"),
        "{out}"
    );
    assert!(out.ends_with("1 class, 2 solutions: 1 × 2\n"), "{out}");
    // Flags it would ignore are refused.
    for extra in ["--count", "--all", "--unique", "--trace"] {
        let o = csp(&["queens", "8", "--orbits", extra]);
        assert_eq!(o.status.code(), Some(2), "{extra}");
    }
    assert_eq!(
        csp(&["queens", "8", "--orbits", "--format", "board"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn the_xml_checker_rejects_what_it_should() {
    assert_eq!(
        xml_roots("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/>t &amp; u</a>\n"),
        Ok(vec!["a".to_string()])
    );
    assert_eq!(xml_roots("<a/><a/>").map(|r| r.len()), Ok(2));
    for bad in [
        "<a><b></a></b>",
        "<a>",
        "<a x=1/>",
        "<a>&nope;</a>",
        "x<a/>",
        "<a/>y",
    ] {
        assert!(xml_roots(bad).is_err(), "{bad}");
    }
}

#[test]
fn several_solutions_make_one_svg_document() {
    for args in [
        &["queens", "8", "--unique", "--all", "--format", "svg"][..],
        &[
            "queens",
            "6",
            "--all",
            "--format",
            "svg",
            "--solver",
            "teach-sets",
        ],
        &["queens", "8", "--orbits", "--format", "svg"],
    ] {
        let o = csp(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let svg = stdout(&o);
        assert_eq!(xml_roots(&svg), Ok(vec!["svg".to_string()]), "{args:?}");
        assert_eq!(svg.matches("<?xml").count(), 1, "{args:?}");
    }
    // One board per solution, one disc per queen: 12 × 8 and 4 × 6; the
    // orbits draw the 8 images of each of the 12 classes.
    let discs = |args: &[&str]| stdout(&csp(args)).matches("<circle").count();
    assert_eq!(
        discs(&["queens", "8", "--unique", "--all", "--format", "svg"]),
        12 * 8
    );
    assert_eq!(discs(&["queens", "6", "--all", "--format", "svg"]), 4 * 6);
    assert_eq!(
        discs(&["queens", "8", "--orbits", "--format", "svg"]),
        12 * 8 * 8
    );
}
