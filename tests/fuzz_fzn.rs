//! FlatZinc fuzzing (issue 32): the files of `tests/data/fzn-corpus/`
//! (made by `minizinc -c` for csp from models of the MiniZinc suite;
//! `scripts/fzn-corpus.sh` regenerates them) are mutated — numbers
//! replaced by extremes, tokens deleted, repeated or swapped, bytes
//! inserted or deleted, lines deleted or repeated, the text cut short —
//! and read, built and solved as `fzn-csp` would. Each must end in a
//! clean typed error that names a position inside the text, or in an
//! answer that is right: a solution the model's own checker accepts.
//! Never a panic, and never unbounded work: every search runs under a
//! node limit and csp's memory limit, and the test's allocator counts
//! the heap each case uses at its peak (see [`Heap`]). No clock is read.
//!
//! The cases come from a fixed seed (`common::fuzz_config`). More, or
//! others: `CSP_FUZZ_CASES=100000 CSP_FUZZ_SEED=7 cargo test --test fuzz_fzn`.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::LazyLock;

use proptest::prelude::*;

use csp_core::{Limits, Outcome, Search};
use csp_fzn::Objective;
use csp_text::TextError;

/// The system allocator, counting the bytes each thread holds and the
/// most it held since [`Heap::reset`]. An allocation that would take a
/// thread past [`Heap::CEILING`] fails (the process aborts with
/// "memory allocation failed") rather than taking the machine's memory.
struct Heap;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

impl Heap {
    /// Where a thread's allocations start failing.
    const CEILING: isize = 2 << 30;

    fn reset() {
        LIVE.with(|l| PEAK.with(|p| p.set(l.get())));
    }

    /// The most the thread held since [`Heap::reset`], above what it held then.
    fn peak_since(start: isize) -> isize {
        PEAK.with(|p| p.get()) - start
    }

    fn live() -> isize {
        LIVE.with(|l| l.get())
    }

    fn grow(by: isize) -> bool {
        LIVE.try_with(|l| {
            let now = l.get() + by;
            if by > 0 && now > Self::CEILING {
                return false;
            }
            l.set(now);
            let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
            true
        })
        .unwrap_or(true)
    }
}

unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !Heap::grow(layout.size() as isize) {
            return std::ptr::null_mut();
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !Heap::grow(layout.size() as isize) {
            return std::ptr::null_mut();
        }
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        Heap::grow(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let by = new_size as isize - layout.size() as isize;
        if !Heap::grow(by) {
            return std::ptr::null_mut();
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static HEAP: Heap = Heap;

/// The most heap one case may use at its peak. A file of the corpus
/// builds in well under a megabyte; a mutated size is checked against
/// csp's limits before anything of that size is allocated, and the
/// search stops at its memory limit ([`SEARCH_MEMORY`]). What the model
/// holds is not covered by that limit: a mutated `array [1..1000000]`
/// of variables is a model of a million variables, about 140 MB.
const CASE_HEAP: isize = 512 << 20;

/// The search's memory limit (csp's `Limits::with_memory`).
const SEARCH_MEMORY: u64 = 64 << 20;

/// The search's node limit.
const NODES: u64 = 2_000;

/// The corpus: (file name, text).
static CORPUS: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fzn-corpus");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "fzn"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the corpus has {} files", files.len());
    files
});

/// Numbers a mutation puts in place of a number of the text: the ends of
/// csp's and FlatZinc's integers and past them, sizes (an array of 100,000
/// variables takes about 25 MB), signs.
const EXTREMES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "1000",
    "100000",
    "-1000000",
    "2147483646",
    "2147483647",
    "2147483648",
    "-2147483647",
    "-2147483648",
    "-2147483649",
    "4294967296",
    "9007199254740993",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999",
    "1.5",
    "-0",
];

/// Bytes a mutation inserts: FlatZinc's punctuation and a few others.
const BYTES: &[u8] = b";:,.[]{}()=-+0123456789 \nabxvr_\"%\t\x00\xff";

/// The spans `start..end` of the tokens of `s`: runs of letters, digits,
/// `_` and `.`, a `-` before a digit included, or single other bytes
/// (blanks are no tokens).
fn tokens(s: &[u8]) -> Vec<(usize, usize)> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if word(s[i]) || (s[i] == b'-' && s.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i += 1;
            while i < s.len() && word(s[i]) {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// Applies mutation `(op, a, b)` to `s`; `a` and `b` pick places.
fn mutate(s: &mut Vec<u8>, (op, a, b): (u8, usize, usize)) {
    let toks = tokens(s);
    let numbers: Vec<(usize, usize)> = toks
        .iter()
        .copied()
        .filter(|&(i, j)| s[i..j].iter().all(|&c| c.is_ascii_digit() || c == b'-'))
        .collect();
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(
            s.iter()
                .enumerate()
                .filter(|p| *p.1 == b'\n')
                .map(|p| p.0 + 1),
        )
        .filter(|&i| i < s.len())
        .collect();
    let at = |n: usize| a % n.max(1);
    match op {
        // A number replaced by an extreme (most mutations are this one).
        0..=8 if !numbers.is_empty() => {
            let (i, j) = numbers[at(numbers.len())];
            s.splice(i..j, EXTREMES[b % EXTREMES.len()].bytes());
        }
        9 if !toks.is_empty() => {
            let (i, j) = toks[at(toks.len())];
            s.drain(i..j);
        }
        10 if !toks.is_empty() => {
            let (i, j) = toks[at(toks.len())];
            let t: Vec<u8> = s[i..j].to_vec();
            s.splice(j..j, t);
        }
        11 if toks.len() >= 2 => {
            let (x, y) = (at(toks.len()), b % toks.len());
            let ((i, j), (k, l)) = (toks[x.min(y)], toks[x.max(y)]);
            if x != y {
                let (first, second) = (s[i..j].to_vec(), s[k..l].to_vec());
                s.splice(k..l, first);
                s.splice(i..j, second);
            }
        }
        12 => {
            let i = at(s.len() + 1);
            s.insert(i, BYTES[b % BYTES.len()]);
        }
        13 if !s.is_empty() => {
            s.remove(at(s.len()));
        }
        14 if !line_starts.is_empty() => {
            // A line deleted, or repeated.
            let i = line_starts[at(line_starts.len())];
            let j = s[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(s.len(), |k| i + k + 1);
            if b % 2 == 0 {
                s.drain(i..j);
            } else {
                let line = s[i..j].to_vec();
                s.splice(j..j, line);
            }
        }
        _ => s.truncate(at(s.len() + 1)),
    }
}

/// An error names a place in `text`: a line from 1 to one past the last,
/// a column from 1, and says something.
fn placed(text: &str, e: &TextError) -> Result<(), String> {
    let lines = text.lines().count();
    if e.line >= 1 && e.line <= lines + 1 && e.column >= 1 && !e.message.trim().is_empty() {
        Ok(())
    } else {
        Err(format!(
            "badly placed error (the text has {lines} lines): {e:?}"
        ))
    }
}

/// Reads, builds and solves `text` as `fzn-csp` would, under limits.
fn run(text: &str) -> Result<&'static str, String> {
    let items = match csp_fzn::parse(text) {
        Ok(items) => items,
        Err(e) => return placed(text, &e).map(|()| "parse error"),
    };
    let fzn = match csp_fzn::build(&items) {
        Ok(fzn) => fzn,
        Err(e) => return placed(text, &e).map(|()| "build error"),
    };
    if fzn.inconsistent {
        return Ok("inconsistent");
    }
    let (opts, _) = csp_fzn::search::options(&fzn, false, 0);
    let limits = Limits::none().with_nodes(NODES).with_memory(SEARCH_MEMORY);
    let mut search = Search::new(&fzn.model).options(opts).limits(limits);
    let m = &fzn.model;
    let (outcome, best) = match fzn.objective {
        Objective::Satisfy => {
            match search.solve() {
                Ok(r) => (r.outcome, r.solution),
                // A typed refusal (a false constraint over no variables).
                Err(_) => return Ok("refused"),
            }
        }
        Objective::Minimize(x) | Objective::Maximize(x) => {
            let r = match fzn.objective {
                Objective::Minimize(_) => search.minimize(x),
                _ => search.maximize(x),
            };
            match r {
                Ok(o) => (o.outcome, o.best),
                // A typed refusal of the objective.
                Err(_) => return Ok("refused"),
            }
        }
    };
    if let Outcome::Invalid(c) = outcome {
        return Err(format!("the search reports constraint {c} invalid"));
    }
    if let Some(s) = &best {
        m.check(s.values())
            .map_err(|e| format!("a wrong solution: {e}"))?;
    }
    Ok(match outcome {
        Outcome::LimitReached(_) => "stopped by a limit",
        _ if best.is_some() => "solved",
        _ => "no solution",
    })
}

/// A corpus file with up to 3 mutations, most of them numbers replaced
/// (the text still reads, and the model is built and solved).
fn mutated() -> impl Strategy<Value = (usize, Vec<(u8, usize, usize)>)> {
    (
        any::<usize>(),
        proptest::collection::vec((0u8..16, any::<usize>(), any::<usize>()), 1..4),
    )
}

#[test]
fn every_corpus_file_is_read_built_and_solved() {
    for (name, text) in CORPUS.iter() {
        let got = run(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            [
                "solved",
                "stopped by a limit",
                "no solution",
                "inconsistent"
            ]
            .contains(&got),
            "{name}: {got}"
        );
    }
}

#[test]
fn mutated_flatzinc_gives_a_placed_error_or_a_right_answer() {
    let mut config = common::fuzz_config(300);
    // What proptest! sets: failures are kept in fuzz_fzn.proptest-regressions.
    config.source_file = Some(file!());
    config.test_name = Some("mutated_flatzinc_gives_a_placed_error_or_a_right_answer");
    let cases = config.cases;
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let tally: RefCell<BTreeMap<&'static str, u64>> = RefCell::default();
    let peak_kb = Cell::new(0isize);
    let result = runner.run(&mutated(), |(file, edits)| {
        let (name, text) = &CORPUS[file % CORPUS.len()];
        let mut bytes = text.as_bytes().to_vec();
        for &e in &edits {
            mutate(&mut bytes, e);
        }
        let text = String::from_utf8_lossy(&bytes);
        let start = Heap::live();
        Heap::reset();
        let got = run(&text);
        let peak = Heap::peak_since(start);
        peak_kb.set(peak_kb.get().max(peak >> 10));
        let got = got.map_err(|e| TestCaseError::fail(format!("{name} with {edits:?}: {e}")))?;
        prop_assert!(
            peak <= CASE_HEAP,
            "{name} with {edits:?}: {} MB of heap at the peak",
            peak >> 20
        );
        *tally.borrow_mut().entry(got).or_default() += 1;
        Ok(())
    });
    // The figures of the run (all the cases tried, shrinking included).
    println!(
        "fuzz_fzn: {cases} cases over {} files: {:?}; at most {} KB of heap in a case",
        CORPUS.len(),
        tally.borrow(),
        peak_kb.get()
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}
