//! `csp sudoku --explain --format html`: the explanation page, tested in a
//! real headless browser (see `common::browser`); and the same page for a
//! Latin square, a Kakuro and N-queens with queens placed (`check_generic`:
//! their domains computed here from the input and the JSON steps; the
//! queens' steps also checked against every completion of the board).
//!
//! The tests load the page at several `?step=K`, read the board and the
//! sentence from the DOM, and compare them with what is computed here,
//! independently of the page:
//!
//! * the step itself (sentence, technique, placements, eliminations,
//!   premises) from `csp sudoku --explain --format json`;
//! * the candidates on the board before step K, by filling in the givens'
//!   candidates with the rules of Sudoku in this file and applying the
//!   placements and eliminations of steps 1 to K-1 read from that JSON;
//! * the solved grid from the plain `csp sudoku`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

mod common;
use common::browser::{chromium, dump_all, scratch};
use common::{csp, csp_stdin, text};

/// top95's first puzzle: solved in 71 steps by singles and pointing.
const SOLVED: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// Norvig's hardest, second puzzle: the techniques stop, search is needed.
const STUCK: &str =
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
/// Box 1 has no place for its 9.
const NONE: &str =
    "123......456......78......9......................................................";

// ---- the independent side ---------------------------------------------------

/// A 9×9 state: each cell's digit (0 when open) and its candidates.
#[derive(Clone, Debug)]
struct State {
    value: [u8; 81],
    cands: [BTreeSet<u8>; 81],
}

fn peers(a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
}

impl State {
    /// The givens, and for every open cell the digits no peer holds.
    fn of(puzzle: &str) -> State {
        let value: [u8; 81] = std::array::from_fn(|i| match puzzle.as_bytes()[i] {
            b @ b'1'..=b'9' => b - b'0',
            _ => 0,
        });
        let cands = std::array::from_fn(|i| {
            if value[i] != 0 {
                return BTreeSet::new();
            }
            (1..=9)
                .filter(|&d| (0..81).all(|j| !(peers(i, j) && value[j] == d)))
                .collect()
        });
        State { value, cands }
    }

    fn place(&mut self, cell: usize, d: u8) {
        self.value[cell] = d;
        self.cands[cell].clear();
        for j in 0..81 {
            if peers(cell, j) {
                self.cands[j].remove(&d);
            }
        }
    }

    fn apply(&mut self, step: &JsonStep) {
        for &(c, d) in &step.placements {
            self.place(c, d);
        }
        for &(c, d) in &step.eliminations {
            self.cands[c].remove(&d);
        }
    }
}

/// `r4c6` as a cell index.
fn cell_of(name: &str) -> usize {
    let (r, c) = name
        .strip_prefix('r')
        .and_then(|s| s.split_once('c'))
        .unwrap_or_else(|| panic!("a cell name: {name}"));
    (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1
}

/// One step of `--explain --format json`.
#[derive(Debug)]
struct JsonStep {
    text: String,
    technique: String,
    code: String,
    level: String,
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
    premise_cells: BTreeSet<usize>,
}

fn facts(v: &Json, sep: &str) -> Vec<(usize, u8)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let (c, d) = f.as_str().unwrap().split_once(sep).unwrap();
            (cell_of(c), d.parse().unwrap())
        })
        .collect()
}

/// The steps `csp sudoku --explain --format json` prints for `puzzle`.
fn json_steps(puzzle: &str) -> Vec<JsonStep> {
    let out = csp_stdin(&["sudoku", "--explain", "--format", "json"], puzzle);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .filter(|j| j.get("step").is_some())
        .map(|j| JsonStep {
            text: j["text"].as_str().unwrap().to_string(),
            technique: j["technique"].as_str().unwrap().to_string(),
            code: j["code"].as_str().unwrap().to_string(),
            level: j["level"].as_str().unwrap().to_string(),
            placements: facts(&j["placements"], "="),
            eliminations: facts(&j["eliminations"], "<>"),
            premise_cells: j["premises"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    let p = p.as_str().unwrap();
                    cell_of(&p[..p.find(['=', '∈']).unwrap()])
                })
                .collect(),
        })
        .collect()
}

/// The last line of the text `--explain` (how it ends).
fn text_end(puzzle: &str) -> String {
    let out = csp_stdin(&["sudoku", "--explain"], puzzle);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout).lines().last().unwrap().to_string()
}

// ---- the page ---------------------------------------------------------------

/// Writes the page of `puzzle` into `dir`.
fn write_page(dir: &Path, name: &str, puzzle: &str) -> PathBuf {
    let out = csp_stdin(&["sudoku", "--explain", "--format", "html"], puzzle);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = dir.join(format!("{name}.html"));
    std::fs::write(&path, &out.stdout).unwrap();
    path
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The text of the element with `id` (no nested elements).
fn text_of(dom: &str, id: &str) -> String {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in the page"));
    let open = start + dom[start..].find('>').unwrap() + 1;
    let end = open + dom[open..].find('<').unwrap();
    unescape(&dom[open..end])
}

/// The paragraphs of `#text`: the sentence, then any further lines.
fn sentence(dom: &str) -> Vec<String> {
    let start = dom.find("id=\"text\"").expect("a #text");
    let inner = &dom[start..start + dom[start..].find("</div>").unwrap()];
    inner
        .split("<p")
        .skip(1)
        .map(|p| unescape(&p[p.find('>').unwrap() + 1..p.find("</p>").unwrap()]))
        .collect()
}

/// A cell as drawn: its classes, and its digit or its candidates (each
/// with its classes).
#[derive(Debug)]
struct Cell {
    classes: BTreeSet<String>,
    digit: Option<u8>,
    cands: BTreeMap<u8, BTreeSet<String>>,
}

fn classes(tag: &str) -> BTreeSet<String> {
    let i = tag.find("class=\"").unwrap() + 7;
    tag[i..i + tag[i..].find('"').unwrap()]
        .split(' ')
        .map(str::to_string)
        .collect()
}

fn board(dom: &str) -> Vec<Cell> {
    board_as(dom, &|shown| shown.parse().unwrap())
}

/// The board, each value read by `value` (a queen's `Q` as 1).
fn board_as(dom: &str, value: &dyn Fn(&str) -> u8) -> Vec<Cell> {
    let mut out = Vec::new();
    let mut rest = &dom[dom.find("id=\"board\"").expect("a board")..];
    while let Some(i) = rest.find("<div data-cell=\"") {
        rest = &rest[i..];
        let index: usize = rest[16..16 + rest[16..].find('"').unwrap()]
            .parse()
            .unwrap();
        assert_eq!(index, out.len(), "cells in order");
        let tag_end = rest.find('>').unwrap();
        let end = rest.find("</div>").unwrap();
        let inner = &rest[tag_end + 1..end];
        let mut cands = BTreeMap::new();
        for span in inner.split("<span ").skip(1) {
            let shown = &span[span.find('>').unwrap() + 1..span.find("</span>").unwrap()];
            if !shown.is_empty() {
                cands.insert(value(shown), classes(span));
            }
        }
        out.push(Cell {
            classes: classes(&rest[..tag_end]),
            digit: if inner.contains("<span") || inner.is_empty() {
                None
            } else {
                Some(value(inner))
            },
            cands,
        });
        rest = &rest[end..];
    }
    out
}

/// The cells with class `class`.
fn marked(cells: &[Cell], class: &str) -> BTreeSet<usize> {
    (0..cells.len())
        .filter(|&i| cells[i].classes.contains(class))
        .collect()
}

/// The candidates with class `class`, as (cell, digit).
fn marked_cands(cells: &[Cell], class: &str) -> BTreeSet<(usize, u8)> {
    let mut out = BTreeSet::new();
    for (i, c) in cells.iter().enumerate() {
        for (&d, cl) in &c.cands {
            if cl.contains(class) {
                out.insert((i, d));
            }
        }
    }
    out
}

/// The board shows `state`: the digits of filled cells, the candidates of
/// open ones.
fn assert_shows(cells: &[Cell], state: &State, what: &str) {
    assert_eq!(cells.len(), 81, "{what}: 81 cells");
    for (i, c) in cells.iter().enumerate() {
        if state.value[i] != 0 {
            assert_eq!(c.digit, Some(state.value[i]), "{what}: cell {i}");
        } else {
            assert_eq!(c.digit, None, "{what}: cell {i} is open");
            let shown: BTreeSet<u8> = c.cands.keys().copied().collect();
            assert_eq!(shown, state.cands[i], "{what}: the candidates of cell {i}");
        }
    }
}

/// Step `k` (1-based) as the page shows it agrees with `--explain`'s JSON.
fn assert_step(dom: &str, k: usize, steps: &[JsonStep], before: &State) {
    let s = &steps[k - 1];
    let what = format!("step {k}");
    assert_eq!(
        text_of(dom, "counter"),
        format!("step {k} / {}", steps.len())
    );
    assert_eq!(sentence(dom), vec![format!("{k}. {}", s.text)], "{what}");
    assert_eq!(text_of(dom, "technique-name"), s.technique, "{what}");
    assert_eq!(text_of(dom, "technique-code"), format!("({})", s.code));
    assert_eq!(text_of(dom, "level"), format!("level: {}", s.level));
    let cells = board(dom);
    assert_shows(&cells, before, &what);
    let placed: BTreeSet<(usize, u8)> = s.placements.iter().copied().collect();
    let gone: BTreeSet<(usize, u8)> = s.eliminations.iter().copied().collect();
    assert_eq!(marked_cands(&cells, "place"), placed, "{what}: placed");
    assert_eq!(marked_cands(&cells, "gone"), gone, "{what}: struck");
    let placed_cells: BTreeSet<usize> = placed.iter().map(|&(c, _)| c).collect();
    let losing: BTreeSet<usize> = gone
        .iter()
        .map(|&(c, _)| c)
        .filter(|c| !placed_cells.contains(c))
        .collect();
    assert_eq!(marked(&cells, "concluded"), placed_cells, "{what}");
    assert_eq!(marked(&cells, "loses"), losing, "{what}");
    assert_eq!(marked(&cells, "premise"), s.premise_cells, "{what}");
}

/// The states before each step: before[k] is the board before step k+1,
/// before[steps.len()] the end.
fn states(puzzle: &str, steps: &[JsonStep]) -> Vec<State> {
    let mut s = State::of(puzzle);
    let mut out = vec![s.clone()];
    for step in steps {
        s.apply(step);
        out.push(s.clone());
    }
    out
}

#[test]
fn the_page_shows_each_step_as_explain_says() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("explain-solved");
    let page = write_page(&dir, "solved", SOLVED);
    let steps = json_steps(SOLVED);
    assert_eq!(steps.len(), 71);
    let before = states(SOLVED, &steps);
    // Singles, pointing (eliminations), the last step, the end, the start.
    let ks = [1, 4, 9, 40, 71];
    let mut queries: Vec<String> = ks.iter().map(|k| format!("step={k}")).collect();
    queries.push("step=end".into());
    queries.push(String::new());
    let q: Vec<(&str, u32)> = queries.iter().map(|q| (q.as_str(), 500)).collect();
    let doms = dump_all(&browser, &page, &q);
    for (&k, dom) in ks.iter().zip(&doms) {
        assert_step(dom, k, &steps, &before[k - 1]);
    }
    // The end: the grid the plain command solves, and the last line of
    // the text explanation.
    let end = &doms[ks.len()];
    assert_eq!(text_of(end, "counter"), "end (71 steps)");
    assert_eq!(sentence(end), vec![text_end(SOLVED)]);
    let out = csp_stdin(&["sudoku"], SOLVED);
    let solved = text(&out.stdout);
    let cells = board(end);
    for (i, c) in cells.iter().enumerate() {
        let want = solved.as_bytes()[i] - b'0';
        assert_eq!(c.digit, Some(want), "the end: cell {i}");
    }
    assert_shows(&cells, &before[71], "the end");
    assert!(marked(&cells, "premise").is_empty());
    // The start: the givens and their candidates, nothing marked; givens
    // bold, nothing placed yet.
    let start = &doms[ks.len() + 1];
    assert_eq!(text_of(start, "counter"), "start (71 steps)");
    let cells = board(start);
    assert_shows(&cells, &before[0], "the start");
    let givens: BTreeSet<usize> = (0..81).filter(|&i| SOLVED.as_bytes()[i] != b'.').collect();
    assert_eq!(marked(&cells, "given"), givens);
    assert!(marked(&cells, "placed").is_empty());
    for class in ["concluded", "loses", "premise"] {
        assert!(marked(&cells, class).is_empty(), "{class} at the start");
    }
    // At step 40, the cells placed by steps 1 to 39 are drawn as placed.
    let cells = board(&doms[3]);
    let placed_before: BTreeSet<usize> = steps[..39]
        .iter()
        .flat_map(|s| s.placements.iter().map(|&(c, _)| c))
        .collect();
    assert_eq!(marked(&cells, "placed"), placed_before);
    // The list of steps: every sentence, the current one marked.
    let list = &doms[1][doms[1].find("id=\"steps\"").unwrap()..];
    assert_eq!(list.matches("<li").count(), 71);
    let current = &list[list.find("class=\"current\"").unwrap()..];
    assert!(unescape(current).starts_with(&format!("class=\"current\">{}</li>", steps[3].text)));
}

#[test]
fn the_buttons_and_keys_move_between_steps() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("explain-controls");
    let page = write_page(&dir, "controls", SOLVED);
    let steps = json_steps(SOLVED);
    let before = states(SOLVED, &steps);
    let cases: [(&str, Option<usize>); 6] = [
        ("step=3&press=next,next,back", Some(4)),
        ("press=next,next,next", Some(3)),
        ("step=10&keys=ArrowLeft,ArrowLeft,ArrowLeft", Some(7)),
        ("step=70&keys=ArrowRight", Some(71)),
        ("step=5&press=first&keys=ArrowRight", Some(1)),
        ("step=2&press=last", None),
    ];
    let q: Vec<(&str, u32)> = cases.iter().map(|&(q, _)| (q, 500)).collect();
    let doms = dump_all(&browser, &page, &q);
    for ((query, want), dom) in cases.iter().zip(&doms) {
        match want {
            Some(k) => assert_step(dom, *k, &steps, &before[k - 1]),
            None => assert_eq!(text_of(dom, "counter"), "end (71 steps)", "{query}"),
        }
    }
}

#[test]
fn a_page_that_ends_where_search_is_needed() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("explain-stuck");
    let page = write_page(&dir, "stuck", STUCK);
    let steps = json_steps(STUCK);
    let before = states(STUCK, &steps);
    let n = steps.len();
    let last = format!("step={n}");
    let doms = dump_all(&browser, &page, &[(&last, 500), ("step=end", 500)]);
    assert_step(&doms[0], n, &steps, &before[n - 1]);
    let end = &doms[1];
    let said = text_end(STUCK);
    assert!(said.starts_with("No technique here applies"), "{said}");
    assert_eq!(sentence(end), vec![said.clone()]);
    let cells = board(end);
    assert_shows(&cells, &before[n], "the end");
    // The case split it names is the cell marked.
    let split = said.split("case split is ").nth(1).unwrap();
    let split_cell = cell_of(split.split(' ').next().unwrap());
    assert_eq!(marked(&cells, "premise"), BTreeSet::from([split_cell]));
    // Pressing nothing past the end: ?step beyond it shows the end.
    let far = format!("step={}", n + 50);
    let far = dump_all(&browser, &page, &[(&far, 500)]);
    assert_eq!(sentence(&far[0]), vec![said]);
}

#[test]
fn a_page_without_solution_shows_the_conflict() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("explain-none");
    let page = write_page(&dir, "none", NONE);
    let dom = &dump_all(&browser, &page, &[("", 500)])[0];
    assert_eq!(text_of(dom, "counter"), "verdict");
    // The lines of the text explanation, the indentation aside.
    let out = csp_stdin(&["sudoku", "--explain"], NONE);
    let said: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    assert!(said[0].starts_with("No solution: these givens"), "{said:?}");
    let shown: Vec<String> = sentence(dom).iter().map(|l| l.trim().to_string()).collect();
    assert_eq!(shown, said);
    // The conflict's givens are the cells marked.
    let givens: BTreeSet<usize> = said[0]
        .rsplit(": ")
        .next()
        .unwrap()
        .split(", ")
        .map(|g| cell_of(g.split('=').next().unwrap()))
        .collect();
    assert_eq!(givens.len(), 7);
    assert_eq!(marked(&board(dom), "premise"), givens);
}

// ---- the other puzzles -------------------------------------------------------

/// A puzzle's cells for the generic page: by position, `None` where the
/// puzzle has no cell, else the values the cell may still take.
type Domains = Vec<Option<BTreeSet<i32>>>;

/// Applies a fact of the JSON (`r1c2=3`, `r4c1<>2`, `r8c5>=3`,
/// `r2c2<=2`) to `d`, `cell` giving a cell's index by its name, and
/// returns the values it removed.
fn restrict(d: &mut Domains, cell: &dyn Fn(&str) -> usize, f: &str) -> BTreeSet<i32> {
    let i = f.find(['=', '<', '>']).unwrap();
    let j = f.rfind(['=', '<', '>']).unwrap() + 1;
    let v: i32 = f[j..].parse().unwrap();
    let dom = d[cell(&f[..i])].as_mut().expect("a cell");
    let before = dom.clone();
    dom.retain(|&w| match &f[i..j] {
        "=" => w == v,
        "<>" => w != v,
        ">=" => w >= v,
        "<=" => w <= v,
        op => panic!("{op}"),
    });
    before.difference(dom).copied().collect()
}

/// `r4c6` as a cell index on a board `cols` wide.
fn cell_of_in(name: &str, cols: usize) -> usize {
    let (r, c) = name
        .strip_prefix('r')
        .and_then(|s| s.split_once('c'))
        .unwrap_or_else(|| panic!("a cell name: {name}"));
    (r.parse::<usize>().unwrap() - 1) * cols + c.parse::<usize>().unwrap() - 1
}

/// The JSON steps of `--explain --format json` for a puzzle command.
fn generic_steps(args: &[&str], input: &str) -> Vec<Json> {
    let mut a = args.to_vec();
    a.extend(["--explain", "--format", "json"]);
    let out = csp_stdin(&a, input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .filter(|j| j["step"].is_u64())
        .collect()
}

/// How a generic puzzle's page is read: a cell's index by its name (`r4c6`
/// on a board `cols` wide, or a chess square), a value by how the page
/// shows it, and the cells of a constraint by its label.
struct Layout<'a> {
    cell: Box<dyn Fn(&str) -> usize + 'a>,
    value: Box<dyn Fn(&str) -> u8 + 'a>,
    scope: Box<Cells<'a>>,
}

/// The cells of a constraint, by its label.
type Cells<'a> = dyn Fn(&str) -> BTreeSet<usize> + 'a;

impl<'a> Layout<'a> {
    /// Cells named `r4c6` on a board `cols` wide, values shown as numbers.
    fn grid(cols: usize, scope: impl Fn(&str) -> BTreeSet<usize> + 'a) -> Layout<'a> {
        Layout {
            cell: Box::new(move |n| cell_of_in(n, cols)),
            value: Box::new(|v| v.parse().unwrap()),
            scope: Box::new(scope),
        }
    }
}

/// Loads the page of `args` at each of `ks` and checks each step against
/// the JSON and the domains (`start`, then the steps applied).
fn check_generic(
    name: &str,
    args: &[&str],
    input: &str,
    start: Domains,
    ks: &[usize],
    layout: &Layout<'_>,
) {
    let cell: &dyn Fn(&str) -> usize = &layout.cell;
    let scope = &layout.scope;
    let Some(browser) = chromium() else { return };
    let dir = scratch(name);
    let mut a = args.to_vec();
    a.extend(["--explain", "--format", "html"]);
    let out = csp_stdin(&a, input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = dir.join(format!("{name}.html"));
    std::fs::write(&page, &out.stdout).unwrap();
    let steps = generic_steps(args, input);
    let queries: Vec<String> = ks.iter().map(|k| format!("step={k}")).collect();
    let q: Vec<(&str, u32)> = queries.iter().map(|q| (q.as_str(), 500)).collect();
    let doms = dump_all(&browser, &page, &q);
    let mut d = start;
    let mut done = 0;
    for (&k, dom) in ks.iter().zip(&doms) {
        for s in &steps[done..k - 1] {
            for f in s["placements"]
                .as_array()
                .unwrap()
                .iter()
                .chain(s["eliminations"].as_array().unwrap())
            {
                restrict(&mut d, cell, f.as_str().unwrap());
            }
        }
        done = k - 1;
        let s = &steps[k - 1];
        let what = format!("{name} step {k}");
        assert_eq!(
            text_of(dom, "counter"),
            format!("step {k} / {}", steps.len())
        );
        assert_eq!(
            sentence(dom),
            vec![format!("{k}. {}", s["text"].as_str().unwrap())],
            "{what}"
        );
        assert_eq!(
            text_of(dom, "technique-name"),
            s["technique"].as_str().unwrap()
        );
        let cells = board_as(dom, &layout.value);
        assert_eq!(cells.len(), d.len(), "{what}");
        for (i, (c, dom_i)) in cells.iter().zip(&d).enumerate() {
            match dom_i {
                None => assert!(c.classes.contains("none"), "{what}: cell {i} is no cell"),
                Some(v) if v.len() == 1 => {
                    let only = *v.iter().next().unwrap();
                    assert_eq!(c.digit.map(i32::from), Some(only), "{what}: cell {i}");
                }
                Some(v) => {
                    let shown: BTreeSet<i32> = c.cands.keys().map(|&x| i32::from(x)).collect();
                    assert_eq!(&shown, v, "{what}: the values of cell {i}");
                }
            }
        }
        // What the step concludes, struck or circled.
        let mut gone = BTreeSet::new();
        let mut placed = BTreeSet::new();
        for f in s["placements"].as_array().unwrap() {
            let f = f.as_str().unwrap();
            let (at, v) = f.split_once('=').unwrap();
            placed.insert((cell(at), v.parse::<u8>().unwrap()));
        }
        for f in s["eliminations"].as_array().unwrap() {
            let f = f.as_str().unwrap();
            let at = cell(&f[..f.find(['<', '>']).unwrap()]);
            let mut scratch = d.clone();
            for v in restrict(&mut scratch, cell, f) {
                gone.insert((at, v as u8));
            }
        }
        assert_eq!(marked_cands(&cells, "place"), placed, "{what}: placed");
        assert_eq!(marked_cands(&cells, "gone"), gone, "{what}: struck");
        let placed_cells: BTreeSet<usize> = placed.iter().map(|&(c, _)| c).collect();
        assert_eq!(marked(&cells, "concluded"), placed_cells, "{what}");
        let losing: BTreeSet<usize> = gone.iter().map(|&(c, _)| c).collect();
        assert_eq!(marked(&cells, "loses"), losing, "{what}");
        // The pattern: the premises' cells and the constraints' cells.
        let mut pattern: BTreeSet<usize> = s["premises"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let p = p.as_str().unwrap();
                cell(&p[..p.find(['=', '<', '>']).unwrap()])
            })
            .collect();
        for c in s["constraints"].as_array().unwrap() {
            pattern.extend(scope(c.as_str().unwrap()));
        }
        assert_eq!(marked(&cells, "premise"), pattern, "{what}: the pattern");
    }
}

#[test]
fn a_latin_page_shows_each_step_as_explain_says() {
    let input = "1 . . .\n. . 3 .\n. 4 . 1\n. . . 2\n";
    // Every cell may take 1 to 4, the givens their value.
    let start: Domains = input
        .split_whitespace()
        .map(|t| match t {
            "." => Some((1..=4).collect()),
            v => Some(BTreeSet::from([v.parse().unwrap()])),
        })
        .collect();
    let scope = |label: &str| -> BTreeSet<usize> {
        let (kind, k) = label.split_once(' ').unwrap();
        let k: usize = k.parse::<usize>().unwrap() - 1;
        match kind {
            "row" => (0..4).map(|c| k * 4 + c).collect(),
            "column" => (0..4).map(|r| r * 4 + k).collect(),
            _ => panic!("{label}"),
        }
    };
    let n = generic_steps(&["latin", "-"], input).len();
    assert_eq!(n, 33);
    check_generic(
        "latin",
        &["latin", "-"],
        input,
        start,
        &[1, 2, 10, 20, n],
        &Layout::grid(4, scope),
    );
}

#[test]
fn a_kakuro_page_strikes_what_a_bound_removes() {
    let file = "examples/kakuro/data/8x8.txt";
    let text_in = std::fs::read_to_string(file).unwrap();
    // White cells (`.`) take 1 to 9; the rest is no cell.
    let grid: Vec<Vec<bool>> = text_in
        .lines()
        .filter(|l| !l.starts_with('%'))
        .map(|l| l.split_whitespace().map(|t| t == ".").collect())
        .collect();
    let cols = grid[0].len();
    let start: Domains = grid
        .iter()
        .flatten()
        .map(|&white| white.then(|| (1..=9).collect()))
        .collect();
    // "the run across from r2c2 (sum 19)": r2c2 and the white cells after it.
    let scope = |label: &str| -> BTreeSet<usize> {
        let (dir, rest) = if let Some(r) = label.strip_prefix("the run across from ") {
            ((0, 1), r)
        } else {
            ((1, 0), label.strip_prefix("the run down from ").unwrap())
        };
        let first = cell_of_in(rest.split(' ').next().unwrap(), cols);
        let (mut r, mut c) = (first / cols, first % cols);
        let mut out = BTreeSet::new();
        while r < grid.len() && c < cols && grid[r][c] {
            out.insert(r * cols + c);
            r += dir.0;
            c += dir.1;
        }
        out
    };
    let n = generic_steps(&["kakuro", file], "").len();
    check_generic(
        "kakuro",
        &["kakuro", file],
        "",
        start,
        &[1, 3, 17, n],
        &Layout::grid(cols, scope),
    );
}

/// A chess square (`c3`) as its index on the page of an `n`×`n` board:
/// rank `n` on top, file a on the left.
fn square_on_page(name: &str, n: usize) -> usize {
    let file = name.as_bytes()[0] - b'a';
    let rank: usize = name[1..].parse().unwrap();
    (n - rank) * n + usize::from(file)
}

/// Every completion of an `n`×`n` board with queens on `placed` (chess
/// squares), by trying every permutation: each square's 0/1, by page
/// index.
fn queens_completions(n: usize, placed: &[&str]) -> Vec<Vec<i32>> {
    fn permute(k: usize, files: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k == files.len() {
            out.push(files.clone());
            return;
        }
        for i in k..files.len() {
            files.swap(k, i);
            // No two queens on a diagonal so far (ranks 0..=k).
            if (0..k).all(|j| files[j].abs_diff(files[k]) != k - j) {
                permute(k + 1, files, out);
            }
            files.swap(k, i);
        }
    }
    let mut all = Vec::new();
    permute(0, &mut (0..n).collect(), &mut all);
    all.into_iter()
        .filter(|files| {
            placed.iter().all(|sq| {
                let rank: usize = sq[1..].parse().unwrap();
                files[rank - 1] == usize::from(sq.as_bytes()[0] - b'a')
            })
        })
        .map(|files| {
            let mut board = vec![0; n * n];
            for (r, &f) in files.iter().enumerate() {
                board[(n - 1 - r) * n + f] = 1;
            }
            board
        })
        .collect()
}

#[test]
fn a_queens_page_shows_each_step_as_explain_says() {
    let n = 8;
    let placed = ["a1", "e2"];
    let squares = placed.join(",");
    let args = ["queens", "8", "--place", squares.as_str()];
    // Every square is empty or holds a queen; the placed ones a queen.
    let mut start: Domains = vec![Some(BTreeSet::from([0, 1])); n * n];
    for sq in placed {
        start[square_on_page(sq, n)] = Some(BTreeSet::from([1]));
    }
    // The steps hold in every completion of the board (brute force).
    assert_eq!(queens_completions(n, &[]).len(), 92, "the brute force");
    let completions = queens_completions(n, &placed);
    // One completion: the steps must agree with it (propagation stops
    // before it, where search is needed).
    assert_eq!(completions.len(), 1);
    let steps = generic_steps(&args, "");
    assert!(steps.len() >= 10, "{} steps", steps.len());
    for s in &steps {
        for f in s["placements"]
            .as_array()
            .unwrap()
            .iter()
            .chain(s["eliminations"].as_array().unwrap())
        {
            let f = f.as_str().unwrap();
            let (sq, v, eq) = match f.split_once("<>") {
                Some((sq, v)) => (sq, v, false),
                None => {
                    let (sq, v) = f.split_once('=').unwrap();
                    (sq, v, true)
                }
            };
            let (at, v): (usize, i32) = (square_on_page(sq, n), v.parse().unwrap());
            for b in &completions {
                assert_eq!(b[at] == v, eq, "{f} fails in a completion: {}", s["text"]);
            }
        }
    }
    // "rank 3", "file c", "diagonal a1–h8": the squares of the line.
    let scope = move |label: &str| -> BTreeSet<usize> {
        if let Some(r) = label.strip_prefix("rank ") {
            let r: usize = r.parse().unwrap();
            return (0..n).map(|c| (n - r) * n + c).collect();
        }
        if let Some(f) = label.strip_prefix("file ") {
            let c = usize::from(f.as_bytes()[0] - b'a');
            return (0..n).map(|r| r * n + c).collect();
        }
        let (from, to) = label
            .strip_prefix("diagonal ")
            .and_then(|d| d.split_once('–'))
            .unwrap_or_else(|| panic!("a line: {label}"));
        let at = |sq: &str| {
            (
                usize::from(sq.as_bytes()[0] - b'a'),
                sq[1..].parse::<usize>().unwrap(),
            )
        };
        let ((f0, r0), (f1, r1)) = (at(from), at(to));
        assert_eq!(f0.abs_diff(f1), r0.abs_diff(r1), "{label}");
        (0..=f0.abs_diff(f1))
            .map(|k| {
                let f = if f1 > f0 { f0 + k } else { f0 - k };
                let r = if r1 > r0 { r0 + k } else { r0 - k };
                (n - r) * n + f
            })
            .collect()
    };
    let layout = Layout {
        cell: Box::new(move |sq| square_on_page(sq, n)),
        value: Box::new(|v| match v {
            "Q" => 1,
            "-" => 0,
            _ => panic!("a square shows Q or -, not {v}"),
        }),
        scope: Box::new(scope),
    };
    let k = steps.len();
    check_generic("queens", &args, "", start, &[1, 2, k / 2, k], &layout);
}

#[test]
fn a_latin_page_without_solution_shows_the_conflict() {
    let Some(browser) = chromium() else { return };
    let file = "tests/data/puzzles/latin-none.txt";
    let out = csp(&["latin", file, "--explain", "--format", "html"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = scratch("latin-none").join("none.html");
    std::fs::write(&page, &out.stdout).unwrap();
    let dom = &dump_all(&browser, &page, &[("", 500)])[0];
    assert_eq!(text_of(dom, "counter"), "verdict");
    let said: Vec<String> = text(&csp(&["latin", file, "--explain"]).stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    assert!(said[0].starts_with("no solution: these givens"), "{said:?}");
    let shown: Vec<String> = sentence(dom).iter().map(|l| l.trim().to_string()).collect();
    assert_eq!(shown, said);
}

#[test]
fn the_page_is_self_contained() {
    let out = csp_stdin(&["sudoku", "--explain", "--format", "html"], SOLVED);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = text(&out.stdout);
    assert!(page.starts_with("<!DOCTYPE html>"));
    for bad in ["http:", "https:", "src=", "href=", "@import"] {
        assert!(!page.contains(bad), "the page refers to {bad}");
    }
    // The data cannot end its script early.
    let data = &page[page.find("id=\"explain-data\"").unwrap()..];
    let data = &data[..data.find("</script>").unwrap()];
    assert!(!data[1..].contains('<'), "a < in the data");
}

#[test]
fn bad_requests_are_refused() {
    let two = format!("{SOLVED}\n{STUCK}\n");
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["sudoku", "--explain", "--format", "html"],
            &two,
            "holds 2: pick one",
        ),
        (
            &["sudoku", "--hint", "--format", "html"],
            SOLVED,
            "use --explain",
        ),
        (
            &["sudoku", "--explain", "--format", "html", "--trace"],
            SOLVED,
            "pick one",
        ),
        (
            &["sudoku", "--explain", "--format", "html"],
            "1234\n",
            "expected 81",
        ),
    ];
    for (args, input, says) in cases {
        let out = csp_stdin(args, input);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: no page");
        let err = text(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = csp(&["sudoku", "--explain", "--format", "html", "/nonexistent/x"]);
    assert_eq!(out.status.code(), Some(2));
    // The other puzzles: a page for one puzzle, with --explain only.
    let refused: [(&[&str], &str, &str); 6] = [
        (
            &[
                "futoshiki",
                "examples/futoshiki/data/puzzles.txt",
                "--explain",
                "--format",
                "html",
            ],
            "",
            "holds 3",
        ),
        (
            &["latin", "-", "--hint", "--format", "html"],
            "1 . .\n. . .\n. . .\n",
            "use it with --explain",
        ),
        (
            &["latin", "-", "--explain", "--format", "html"],
            "1 . .\n. . .\n. . .\n\n. 1 .\n. . .\n. . .\n",
            "holds 2",
        ),
        (
            &["latin", "-", "--explain", "--format", "html"],
            "x\n",
            "out of range",
        ),
        (
            &["queens", "8", "--place", "a1", "--format", "html"],
            "",
            "use it with --explain",
        ),
        (
            &["queens", "8", "--place", "a1", "--hint", "--format", "html"],
            "",
            "use it with --explain",
        ),
    ];
    for (args, input, says) in refused {
        let out = csp_stdin(args, input);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: no page");
        let err = text(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
