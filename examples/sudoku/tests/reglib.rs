//! HoDoKu's regression library (`reglib-1.3.txt`, 1,112 cases of one
//! technique each on a pencil-mark state) through the technique finders
//! `csp sudoku --hint --technique CODE` runs: every case of an implemented
//! technique must come out exactly as the library says. The library is read
//! from `../shared/data/sudoku/` beside the repository.

use std::collections::BTreeMap;
use std::path::Path;

use csp_sudoku::pencil::LibraryCase;
use csp_sudoku::techniques::{run_case, CaseOutcome, Checker, Technique};

fn library() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku/reglib-1.3.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (HoDoKu's regression library is expected at ../shared/data/sudoku/ beside the repository)",
            path.display()
        )
    })
}

/// Library lines the finders here miss (see `docs/hints.md`): three
/// continuous nice loops (0706) whose loop is not the shortest one the
/// breadth-first search finds from its start candidates, and one grouped
/// continuous nice loop (0709, line 1247) where the loop found eliminates
/// one candidate more than the library lists (r8c3<>2: 2 is weakly linked
/// around the loop in column 3, and r8c3 is a cell of the loop's group
/// (3)r8c13; the checker proves it). The test fails when one of them
/// starts to pass, too, so the list stays exact. Of the almost locked
/// set techniques: two ALS-XY-Chains (0903, lines 1453 and 1459) whose
/// ends the breadth-first chain search does not pair with the library's
/// first and last RCCs, and one Death Blossom with overlapping petals
/// (0904-2, line 1475) that is not found.
const KNOWN_MISSES: [usize; 7] = [1152, 1157, 1159, 1247, 1453, 1459, 1475];

/// The library's variants of the grouped techniques whose chains use
/// almost locked sets as nodes, which are not built here (the ALS
/// techniques 0901-0904 are, and are checked like the others): their cases
/// are run and counted, a checker error fails the test, and the number
/// that pass anyway (a chain without ALS has the same eliminations) is
/// exact, so a change shows.
const ALS_VARIANTS: [&str; 5] = ["0709-2", "0710-3", "0710-4", "0711-3", "0711-4"];
const ALS_CASES_PASSING: usize = 2;

#[test]
fn every_implemented_section_passes() {
    let text = library();
    let checker = Checker::new(3);
    // Per code: (passed, failed, not implemented).
    let mut table: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut missed = Vec::new();
    let (mut als_passed, mut als_missed) = (0, 0);
    let mut cases = 0;
    for (i, line) in text.lines().enumerate() {
        if !line.starts_with(':') {
            continue;
        }
        cases += 1;
        let case = LibraryCase::parse(i + 1, line).unwrap_or_else(|e| panic!("{e}"));
        let key = match &case.variant {
            Some(v) => format!("{}-{v}", case.code),
            None => case.code.clone(),
        };
        let als = ALS_VARIANTS.contains(&key.as_str());
        let e = table.entry(key).or_default();
        match run_case(&case, &checker) {
            CaseOutcome::Pass => {
                e.0 += 1;
                als_passed += usize::from(als);
            }
            CaseOutcome::Fail(why) => {
                e.1 += 1;
                if als && !why.starts_with("checker:") {
                    als_missed += 1;
                } else if KNOWN_MISSES.contains(&(i + 1)) {
                    missed.push(i + 1);
                } else {
                    failures.push(format!("line {}: {}: {why}", i + 1, case.code));
                }
            }
            CaseOutcome::NotImplemented => e.2 += 1,
        }
    }
    assert_eq!(cases, 1112);
    println!("| code | technique | cases | passed |");
    println!("|---|---|---:|---:|");
    for (code, (p, f, _)) in &table {
        if p + f > 0 {
            let name =
                Technique::parse(code.split('-').next().unwrap_or(code)).map_or("", |t| t.name());
            println!(
                "| {code} | {name} | {} | {p} ({:.0} %) |",
                p + f,
                100.0 * *p as f64 / (p + f) as f64
            );
        }
    }
    let skipped: usize = table.values().map(|t| t.2).sum();
    println!("not implemented: {skipped} cases");
    println!("chains with ALS nodes (not built): {als_passed} passed, {als_missed} missed");
    assert_eq!(missed, KNOWN_MISSES, "the known misses");
    assert_eq!(
        (als_passed, als_missed),
        (ALS_CASES_PASSING, 46 - ALS_CASES_PASSING),
        "the ALS variants' cases"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_malformed_line_names_its_line_and_field() {
    let e = LibraryCase::parse(7, ":0300:3:12345:::").unwrap_err();
    assert_eq!(e.to_string(), "line 7: givens: 5 cells, expected 81");
    let e = LibraryCase::parse(8, &format!(":0300:x:{}:::", ".".repeat(81))).unwrap_err();
    assert_eq!(e.field, "candidates");
    let e = LibraryCase::parse(9, &format!(":0300:3:{}:1234:::", ".".repeat(81))).unwrap_err();
    assert_eq!(e.field, "deleted candidates");
    let e = LibraryCase::parse(10, "0300:3").unwrap_err();
    assert_eq!(e.field, "line");
}
