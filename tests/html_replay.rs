//! `--format html`: the page that replays a search, tested in a real
//! headless browser.
//!
//! The tests write the pages with the `csp` binary, load them in Debian's
//! `chromium` (`--headless --dump-dom`) with a scripted replay in the
//! address (`?step=K`, `?steps=K&back=J`, `?autoplay=1`), and compare what
//! the page shows with what is computed here, independently of the page:
//!
//! * the nodes of the search (their number, their kinds, the path to each)
//!   from a small observer of the engine written in this file;
//! * the domains at a node by a second, fresh engine run: the model with
//!   the node's decisions as fixed values, propagated once at the root.
//!
//! Chromium is required: a machine without it fails these tests with a
//! message, unless `CSP_SKIP_BROWSER=1` is set (CI installs `chromium`).
//! `CSP_CHROMIUM` names another binary.

use std::path::{Path, PathBuf};
use std::process::Output;

use csp::queens::model::{queens_model_with, ModelKind};
use csp::sudoku::Grid;
use csp::{
    Domain, Inference, Limits, Model, Search, SearchObserver, SearchOptions, ValOrder, Value,
    VarId, VarOrder,
};

mod common;
use common::browser::{chromium, dump_all, dump_dom, scratch};
use common::{csp, csp_stdin, text};

// ---- reading the DOM ------------------------------------------------------

/// The text of the element with `id` (no nested elements).
fn text_of(dom: &str, id: &str) -> String {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in the page"));
    let open = start + dom[start..].find('>').unwrap() + 1;
    let end = open + dom[open..].find('<').unwrap();
    dom[open..end].replace("&amp;", "&")
}

/// The value of attribute `name` in the tag text `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let i = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[i..i + tag[i..].find('"')?])
}

/// One cell of the board: its classes, attributes and what it shows
/// (the text, or the candidates of a Sudoku cell).
#[derive(Debug)]
struct Cell {
    classes: Vec<String>,
    tag: String,
    shown: String,
    candidates: Vec<u32>,
}

impl Cell {
    fn has(&self, class: &str) -> bool {
        self.classes.iter().any(|c| c == class)
    }
    fn num(&self, name: &str) -> usize {
        attr(&self.tag, name).unwrap().parse().unwrap()
    }
}

fn cells(dom: &str) -> Vec<Cell> {
    let mut out = Vec::new();
    let board = dom.find("id=\"board\"").expect("a board");
    let mut rest = &dom[board..board + dom[board..].find("id=\"domains\"").unwrap()];
    while let Some(i) = rest.find("<div class=\"cell") {
        rest = &rest[i..];
        let tag_end = rest.find('>').unwrap();
        let tag = &rest[..tag_end];
        let end = rest.find("</div>").unwrap();
        let inner = &rest[tag_end + 1..end];
        let candidates = inner
            .split("<span>")
            .filter_map(|s| s.split("</span>").next())
            .filter_map(|s| s.parse().ok())
            .collect();
        out.push(Cell {
            classes: attr(tag, "class")
                .unwrap()
                .split(' ')
                .map(str::to_string)
                .collect(),
            tag: tag.to_string(),
            shown: if inner.contains("<span>") {
                String::new()
            } else {
                inner.to_string()
            },
            candidates,
        });
        rest = &rest[end..];
    }
    out
}

/// The tree's nodes: (id, kind, visited, current), in id order.
fn tree_nodes(dom: &str) -> Vec<(usize, String, bool, bool)> {
    let mut out = Vec::new();
    let tree = dom.find("id=\"tree\"").expect("a tree");
    let svg = &dom[tree..tree + dom[tree..].find("</svg>").expect("the tree's SVG")];
    for part in svg.split("<g id=\"node-").skip(1) {
        let tag = &part[..part.find('>').unwrap()];
        let id: usize = tag[..tag.find('"').unwrap()].parse().unwrap();
        let classes: Vec<&str> = attr(tag, "class").unwrap().split(' ').collect();
        let kind = classes[1].to_string();
        out.push((
            id,
            kind,
            classes.contains(&"visited"),
            classes.contains(&"current"),
        ));
    }
    out
}

// ---- the engine, observed here --------------------------------------------

/// A node of the engine's search: its decision path and its kind.
#[derive(Clone, Debug)]
struct Node {
    /// (variable, value) decisions from the root to this node.
    path: Vec<(usize, Value)>,
    kind: &'static str,
}

/// Records the nodes: the root, then one per value tried.
struct Nodes(Vec<Node>);

impl SearchObserver for Nodes {
    fn on_assign(&mut self, var: VarId, value: Value, depth: usize) {
        let parent = self
            .0
            .iter()
            .rev()
            .find(|n| n.path.len() == depth - 1 && n.kind != "failure");
        let mut path = parent.expect("a parent").path.clone();
        path.push((var.index(), value));
        self.0.push(Node {
            path,
            kind: "choice",
        });
    }
    fn on_fail(&mut self, _: VarId, _: Value, _: usize) {
        self.0.last_mut().unwrap().kind = "failure";
    }
    fn on_solution(&mut self, _: &[Value]) {
        self.0.last_mut().unwrap().kind = "solution";
    }
}

fn engine_nodes(model: &Model, options: SearchOptions) -> Vec<Node> {
    let mut nodes = Nodes(vec![Node {
        path: Vec::new(),
        kind: "root",
    }]);
    Search::new(model)
        .options(options)
        .observer(&mut nodes)
        .solve()
        .unwrap();
    nodes.0
}

/// The domains after the first propagation of `model` with `options` (a
/// fresh engine run stopped before its first decision): each variable's
/// values.
fn root_domains(model: &Model, options: SearchOptions) -> Vec<Vec<Value>> {
    struct Prunes(Vec<(usize, Value)>);
    impl SearchObserver for Prunes {
        fn on_prune(&mut self, var: VarId, value: Value) {
            self.0.push((var.index(), value));
        }
    }
    let mut p = Prunes(Vec::new());
    Search::new(model)
        .options(options)
        .limits(Limits::none().with_nodes(1))
        .observer(&mut p)
        .solve()
        .unwrap();
    model
        .vars()
        .map(|x| {
            model
                .domain(x)
                .iter()
                .filter(|&v| !p.0.contains(&(x.index(), v)))
                .collect()
        })
        .collect()
}

/// `q2 {3 4}  q3 = 1 (forced)`: the page's domains line for the variables
/// not decided, named by `name`, values shown by `shown`.
fn domains_line(
    domains: &[Vec<Value>],
    skip: impl Fn(usize) -> bool,
    name: impl Fn(usize) -> String,
    shown: impl Fn(Value) -> Value,
) -> String {
    let parts: Vec<String> = domains
        .iter()
        .enumerate()
        .filter(|(x, _)| !skip(*x))
        .map(|(x, d)| match d.as_slice() {
            [v] => format!("{} = {} (forced)", name(x), shown(*v)),
            _ => {
                let vs: Vec<String> = d.iter().map(|v| shown(*v).to_string()).collect();
                format!("{} {{{}}}", name(x), vs.join(" "))
            }
        })
        .collect();
    parts.join("  ")
}

/// Checks the counter and the tree of a page showing step `k` of `nodes`.
fn check_step_and_tree(dom: &str, k: usize, nodes: &[Node]) {
    let last = nodes.len() - 1;
    assert_eq!(text_of(dom, "counter"), format!("step {k} / {last}"));
    let tree = tree_nodes(dom);
    assert_eq!(tree.len(), nodes.len(), "one tree node per search node");
    for (id, kind, visited, current) in &tree {
        assert_eq!(kind, nodes[*id].kind, "the kind of node {id}");
        assert_eq!(*visited, *id <= k, "node {id} visited at step {k}");
        assert_eq!(*current, *id == k, "node {id} current at step {k}");
    }
}

// ---- N-queens -------------------------------------------------------------

fn write_page(dir: &Path, name: &str, out: &Output) -> PathBuf {
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = dir.join(name);
    std::fs::write(&path, &out.stdout).unwrap();
    path
}

#[test]
fn queens_page_replays_the_engine_search() {
    let Some(browser) = chromium() else { return };
    let n = 6;
    let dir = scratch("queens");
    let page = write_page(
        &dir,
        "q6.html",
        &csp(&["queens", "6", "--format", "html", "--inference", "fc"]),
    );
    let model = |domains: &[Domain]| {
        queens_model_with(n, ModelKind::AllDifferent, domains)
            .unwrap()
            .model
    };
    let full = vec![Domain::range(0, n as Value - 1); n];
    let options = SearchOptions {
        inference: Inference::ForwardChecking,
        var_order: VarOrder::Input,
        val_order: ValOrder::Ascending,
        ..Default::default()
    };
    let nodes = engine_nodes(&model(&full), options.clone());
    let last = nodes.len() - 1;
    assert_eq!(nodes[last].kind, "solution");
    // A choice deep in the tree, and the first failure.
    let k = (1..last.saturating_sub(3))
        .filter(|&i| nodes[i].kind == "choice")
        .max_by_key(|&i| (nodes[i].path.len(), std::cmp::Reverse(i)))
        .unwrap();
    let fail = (1..=last).find(|&i| nodes[i].kind == "failure").unwrap();
    let later = k + 3;
    let fwd = format!("steps={later}&back={}", later - k);
    let at_fail = format!("step={fail}");
    let doms = dump_all(
        &browser,
        &page,
        &[(&fwd, 1000), (&at_fail, 1000), ("autoplay=1", 60_000)],
    );
    // Step k, reached forward and back: the board and the domains of the
    // engine run afresh with the path's decisions given.
    for dom in &doms[..1] {
        check_step_and_tree(dom, k, &nodes);
        let mut given = full.clone();
        for &(row, col) in &nodes[k].path {
            given[row] = Domain::singleton(col);
        }
        let want = root_domains(&model(&given), options.clone());
        let decided: Vec<usize> = nodes[k].path.iter().map(|d| d.0).collect();
        for c in cells(dom) {
            let (row, col) = (c.num("data-row") - 1, c.num("data-col") as Value - 1);
            let d = &want[row];
            let queen = d == &[col];
            assert_eq!(c.has("queen"), queen, "queen at {row},{col}: {c:?}");
            assert_eq!(c.shown == "\u{265B}", queen);
            assert_eq!(c.has("decided"), queen && decided.contains(&row));
            assert_eq!(c.has("forced"), queen && !decided.contains(&row));
            assert_eq!(c.has("open"), d.len() > 1 && d.contains(&col));
        }
        let line = domains_line(
            &want,
            |x| decided.contains(&x),
            |x| format!("q{}", x + 1),
            |v| v + 1,
        );
        assert_eq!(text_of(dom, "domains"), line);
        let (row, col) = *nodes[k].path.last().unwrap();
        assert!(
            text_of(dom, "text").starts_with(&format!("row {} := column {}", row + 1, col + 1)),
            "{}",
            text_of(dom, "text")
        );
    }
    // The first failure: its decisions on the board, a culprit row marked.
    let dom = &doms[1];
    check_step_and_tree(dom, fail, &nodes);
    let board = cells(dom);
    for &(row, col) in &nodes[fail].path {
        let c = board
            .iter()
            .find(|c| (c.num("data-row"), c.num("data-col")) == (row + 1, col as usize + 1))
            .unwrap();
        assert!(c.has("queen") && c.has("decided"), "{c:?}");
    }
    assert!(text_of(dom, "text").contains("; failure: "));
    assert!(board.iter().any(|c| c.has("culprit")));
    // Played to the end: the engine's solution.
    let dom = &doms[2];
    check_step_and_tree(dom, last, &nodes);
    let cols = nodes[last].path.clone();
    let q = queens_model_with(n, ModelKind::AllDifferent, &full).unwrap();
    let solution = q.columns(
        &Search::new(&q.model)
            .options(options)
            .solve()
            .unwrap()
            .solution
            .unwrap(),
    );
    let mut queens: Vec<(usize, usize)> = cells(dom)
        .iter()
        .filter(|c| c.has("queen"))
        .map(|c| (c.num("data-row") - 1, c.num("data-col") - 1))
        .collect();
    queens.sort();
    let want: Vec<(usize, usize)> = (0..n).map(|r| (r, solution[r] as usize)).collect();
    assert_eq!(queens, want, "decisions on the way: {cols:?}");
    assert!(csp::queens::verify::check(&solution).is_solution());
    assert_eq!(
        text_of(dom, "result"),
        format!("Result: a solution, at step {last}.")
    );
    assert!(text_of(dom, "text").ends_with("solution"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The queens board reads like the terminal's chess diagram: rank n at the
/// top and rank 1 at the bottom, file a on the left, a1 dark and the
/// squares alternating, the ranks on the left and the files below.
#[test]
fn queens_page_is_a_chess_diagram() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("queens-diagram");
    let page = write_page(&dir, "q8.html", &csp(&["queens", "8", "--format", "html"]));
    let dom = dump_dom(&browser, &page, "step=0", 1000);
    let board = cells(&dom);
    assert_eq!(board.len(), 64);
    // In reading order: rank 8 first, file a first in every rank.
    let order: Vec<(usize, usize)> = board
        .iter()
        .map(|c| (c.num("data-row"), c.num("data-col")))
        .collect();
    let want: Vec<(usize, usize)> = (1..=8)
        .rev()
        .flat_map(|r| (1..=8).map(move |f| (r, f)))
        .collect();
    assert_eq!(order, want);
    for c in &board {
        let (r, f) = (c.num("data-row"), c.num("data-col"));
        // a1 is dark, and so is every square of even rank + file.
        assert_eq!(c.has("dark"), (r + f) % 2 == 0, "{c:?}");
    }
    // The coordinates: the rank before each row, the files below.
    let at = dom.find("id=\"board\"").unwrap();
    let board_html = &dom[at..at + dom[at..].find("id=\"domains\"").unwrap()];
    let coords: Vec<&str> = board_html
        .split("<div class=\"coord\">")
        .skip(1)
        .map(|s| &s[..s.find('<').unwrap()])
        .collect();
    let mut expect: Vec<String> = (1..=8).rev().map(|r| r.to_string()).collect();
    expect.push(String::new());
    expect.extend("abcdefgh".chars().map(String::from));
    assert_eq!(coords, expect);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Sudoku ---------------------------------------------------------------

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

#[test]
fn sudoku_page_replays_the_engine_search() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("sudoku");
    let page = write_page(
        &dir,
        "s.html",
        &csp_stdin(&["sudoku", "--trace", "--format", "html"], PUZZLE),
    );
    let grid: Grid = PUZZLE.parse().unwrap();
    let (model, _) = csp::sudoku::model::model(&grid);
    let nodes = engine_nodes(&model, csp::sudoku::model::options());
    let last = nodes.len() - 1;
    assert!(last > 5, "a search with decisions: {nodes:?}");
    // The deepest choice, reached forward and by stepping back from a later
    // node; and the last step, played to.
    let k = (1..last.saturating_sub(4))
        .filter(|&i| nodes[i].kind == "choice")
        .max_by_key(|&i| (nodes[i].path.len(), std::cmp::Reverse(i)))
        .unwrap();
    let later = k + 4;
    let back = format!("steps={later}&back={}", later - k);
    // A failure the page explains by a unit (row, column or box) left
    // without a place for a value: its id, the value, the unit's cells.
    let page_text = std::fs::read_to_string(&page).unwrap();
    let (fail, value, unit) = page_text
        .lines()
        .filter(|l| l.starts_with("{\"id\":") && l.contains("\"kind\":\"failure\""))
        .find_map(|l| {
            let id: usize = l[6..l.find(',')?].parse().ok()?;
            let cells = &l[l.find("\"unit\":[")? + 8..];
            let cells: Vec<usize> = cells[..cells.find(']')?]
                .split(',')
                .filter_map(|c| c.parse().ok())
                .collect();
            let v = l[l.find("can take ")? + 9..].chars().next()?.to_digit(10)?;
            (!cells.is_empty()).then_some((id, v, cells))
        })
        .expect("a failure explained by a unit");
    let doms = dump_all(
        &browser,
        &page,
        &[
            (&format!("step={k}"), 1000),
            (&back, 1000),
            (&format!("step={last}"), 1000),
            (&format!("step={fail}"), 1000),
        ],
    );
    for dom in &doms[..2] {
        check_step_and_tree(dom, k, &nodes);
        // The engine afresh, with the path's decisions as givens.
        let mut given = grid.clone();
        for &(x, v) in &nodes[k].path {
            given.set(x / 9, x % 9, v as u8).unwrap();
        }
        let (fresh, _) = csp::sudoku::model::model(&given);
        let want = root_domains(&fresh, csp::sudoku::model::options());
        let decided: Vec<usize> = nodes[k].path.iter().map(|d| d.0).collect();
        let board = cells(dom);
        assert_eq!(board.len(), 81);
        for (x, c) in board.iter().enumerate() {
            assert_eq!(c.num("data-var"), x);
            let d = &want[x];
            if let [v] = d.as_slice() {
                assert_eq!(c.shown, v.to_string(), "cell {x}: {c:?}");
                let class = if grid.cells()[x] != 0 {
                    "given"
                } else if decided.contains(&x) {
                    "decided"
                } else {
                    "forced"
                };
                assert!(c.has(class), "cell {x} should be {class}: {c:?}");
            } else {
                assert!(c.has("candidates"), "cell {x}: {c:?}");
                let shown: Vec<Value> = c.candidates.iter().map(|&v| v as Value).collect();
                assert_eq!(&shown, d, "candidates of cell {x}");
            }
        }
        let line = domains_line(
            &want,
            |x| decided.contains(&x) || grid.cells()[x] != 0,
            |x| format!("r{}c{}", x / 9 + 1, x % 9 + 1),
            |v| v,
        );
        assert_eq!(text_of(dom, "domains"), line);
    }
    // The last step: the solution the engine finds, every cell filled.
    let dom = &doms[2];
    check_step_and_tree(dom, last, &nodes);
    let solved = csp::sudoku::model::solve(&grid, &csp::sudoku::model::options())
        .solution
        .unwrap();
    let shown: String = cells(dom).iter().map(|c| c.shown.clone()).collect();
    assert_eq!(shown, csp::sudoku::render::line(&solved));
    assert_eq!(
        text_of(dom, "result"),
        format!("Result: a solution, at step {last}.")
    );
    assert!(text_of(dom, "text").ends_with("solution"));
    // The failure: its unit is a row, column or box of the grid, marked on
    // the board, and no cell of it shows the value, fixed or as a candidate.
    let dom = &doms[3];
    check_step_and_tree(dom, fail, &nodes);
    let units: Vec<Vec<usize>> = (0..9)
        .flat_map(|i| {
            [
                (0..9).map(|c| i * 9 + c).collect(),
                (0..9).map(|r| r * 9 + i).collect(),
                (0..9)
                    .map(|j| (i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3)
                    .collect(),
            ]
        })
        .collect();
    assert!(units.contains(&unit), "{unit:?} is not a unit");
    let board = cells(dom);
    let marked: Vec<usize> = (0..81).filter(|&x| board[x].has("unit")).collect();
    assert_eq!(marked, unit);
    for &x in &unit {
        assert_ne!(board[x].shown, value.to_string(), "cell {x}");
        assert!(!board[x].candidates.contains(&value), "cell {x}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- the page itself, and the command line (no browser) -------------------

#[test]
fn pages_are_self_contained() {
    let pages = [
        csp(&["queens", "5", "--format", "html"]),
        csp_stdin(&["sudoku", "--format", "html"], PUZZLE),
    ];
    for out in pages {
        assert!(out.status.success(), "{}", text(&out.stderr));
        let page = text(&out.stdout);
        assert!(page.starts_with("<!DOCTYPE html>"));
        for bad in [
            "http://", "https://", "src=", "<link", "@import", "url(", "//cdn",
        ] {
            assert!(!page.contains(bad), "the page refers to '{bad}'");
        }
        // One inline script for the program, one block of data.
        assert_eq!(page.matches("<script").count(), 2);
        assert!(page.contains("<script id=\"search-data\" type=\"application/json\">"));
    }
}

#[test]
fn a_large_search_is_cut_at_the_node_limit() {
    let out = csp(&["queens", "30", "--format", "html", "--all"]);
    assert_eq!(out.status.code(), Some(1), "a limit stopped the search");
    assert!(text(&out.stderr).contains("records at most 2000 nodes"));
    let page = text(&out.stdout);
    assert!(page.contains("\"note\":\"the page records at most 2000 nodes"));
    assert_eq!(page.matches("{\"id\":").count(), 2000);
    // A local search that gives up says so, and exits with 1.
    let out = csp(&[
        "queens",
        "3",
        "--solver",
        "teach-genetic",
        "--format",
        "html",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("teach-genetic gave up after"));
    assert!(text(&out.stdout).contains("\"result\":\"no solution found\""));
    // A teaching solver is stopped at the page's cap too: 8⁸ placements.
    let out = csp(&["queens", "8", "--solver", "teach-nn", "--format", "html"]);
    assert_eq!(out.status.code(), Some(1), "a limit stopped the search");
    assert!(text(&out.stderr).contains("records at most 2000 steps"));
    assert_eq!(text(&out.stdout).matches("{\"id\":").count(), 2000);
}

#[test]
fn bad_combinations_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["queens", "8", "--format", "html", "--solver", "bitboard"],
            "replays the generic engine's search",
        ),
        (
            &["queens", "8", "--format", "html", "--count"],
            "not a count",
        ),
        (
            &["queens", "65", "--format", "html", "--solver", "teach-sets"],
            "to n = 64",
        ),
        (
            &[
                "queens",
                "8",
                "--format",
                "html",
                "--solver",
                "teach-genetic",
                "--all",
            ],
            "need an exact solver",
        ),
        (&["queens", "65", "--format", "html"], "to n = 64"),
        (&["queens", "0", "--format", "html"], "from n = 1"),
        (
            &[
                "sudoku",
                "examples/sudoku/tests/data/top95.txt",
                "--format",
                "html",
            ],
            "replays one puzzle",
        ),
        (
            &["sudoku", "examples/sudoku/tests/data/top95.txt", "--trace"],
            "add --format html",
        ),
        (
            &["sudoku", "docs/data/bad.txt", "--format", "html"],
            "replays one puzzle",
        ),
    ];
    for (args, want) in cases {
        let out = csp(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = csp_stdin(&["sudoku", "--format", "html"], "..x\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 1, column 3"),
        "{}",
        text(&out.stderr)
    );
    // A grid with two 5s in a row: no solution, shown as a failed root.
    let two_fives = format!("55{}", ".".repeat(79));
    let out = csp_stdin(&["sudoku", "--format", "html"], &two_fives);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("\"kind\":\"failure\""));
}

// ---- the teaching solvers' pages ------------------------------------------

use csp::queens::teaching::{self, attack, Run};
use csp::queens::trace::{Mark, TraceLine};
use serde_json::Value as Json;

/// The page's data block, parsed.
fn page_data(page: &str) -> Json {
    let open = "<script id=\"search-data\" type=\"application/json\">";
    let start = page.find(open).expect("a data block") + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).expect("the data is JSON")
}

/// The queens a step holds, row -> column (0-based), worked out from the
/// page's data as the script does: the decisions on the path from the
/// root (or the step's `decided` rows), each at its only column.
fn queens_at(steps: &[Json], k: usize) -> Vec<Option<u32>> {
    let n = steps[k]["dom"].as_array().unwrap().len();
    let mut at = vec![None; n];
    let col = |s: &Json, r: usize| s["dom"][r][0].as_u64().unwrap() as u32 - 1;
    if let Some(rows) = steps[k]["decided"].as_array() {
        for r in rows {
            let r = r.as_u64().unwrap() as usize;
            at[r] = Some(col(&steps[k], r));
        }
        return at;
    }
    let mut s = Some(k);
    while let Some(i) = s {
        if let Some(r) = steps[i]["var"].as_u64() {
            at[r as usize] = Some(steps[i]["value"].as_u64().unwrap() as u32 - 1);
        }
        s = steps[i]["parent"].as_u64().map(|p| p as usize);
    }
    at
}

/// The nodes a teaching solver shows to `--trace` (its backtrack lines
/// aside), with forward checking's domains of the open rows.
fn teaching_nodes(solver: &str, n: usize) -> Vec<(TraceLine, Option<Vec<Vec<u32>>>)> {
    let mut nodes = Vec::new();
    let mut run = Run::counting();
    let mut keep = |l: &TraceLine, d: Option<&[Vec<u32>]>| {
        if l.mark != Mark::Backtrack {
            nodes.push((l.clone(), d.map(<[Vec<u32>]>::to_vec)));
        }
    };
    let mut show = |l: &TraceLine| keep(l, None);
    match solver {
        "teach-sets" => teaching::sets::solve_watched(n, &mut run, Some(&mut show)),
        "teach-stack" => teaching::stack::solve(n, &mut run, Some(&mut show)),
        "teach-nn" => teaching::brute_nn::solve_watched(n, &mut run, Some(&mut show)),
        "teach-perm" => teaching::brute_perm::solve_watched(n, &mut run, Some(&mut show)),
        "teach-fc" => {
            let mut show = |l: &TraceLine, d: &[Vec<u32>]| keep(l, Some(d));
            teaching::forward::solve(n, &mut run, Some(&mut show))
        }
        other => panic!("no tree for {other}"),
    }
    nodes
}

fn write_html(args: &[&str]) -> String {
    let out = csp(args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// Every tree search of the ladder: the page's steps are the solver's own
/// nodes, in order, with their placements and marks; forward checking's
/// domains; each refused queen joined to a queen that attacks it.
#[test]
fn teaching_pages_replay_the_solvers_own_nodes() {
    for (solver, n, solutions) in [
        ("teach-sets", 6, 4),
        ("teach-stack", 6, 4),
        ("teach-fc", 6, 4),
        ("teach-nn", 4, 2),
        ("teach-perm", 5, 10),
    ] {
        let ns = n.to_string();
        let page = write_html(&[
            "queens", &ns, "--solver", solver, "--all", "--format", "html",
        ]);
        let data = page_data(&page);
        assert_eq!(data["view"], "tree");
        let steps = data["steps"].as_array().unwrap();
        let want = teaching_nodes(solver, n);
        assert_eq!(steps.len(), want.len(), "{solver}: one step a node");
        let mut found = 0;
        for (k, (s, (line, open))) in steps.iter().zip(&want).enumerate() {
            let placed: Vec<Option<u32>> =
                line.placement.iter().map(|p| p.map(|c| c - 1)).collect();
            assert_eq!(queens_at(steps, k), placed, "{solver}, step {k}");
            let kind = match line.mark {
                _ if k == 0 => "root",
                Mark::Failed => "failure",
                Mark::Solution => "solution",
                _ => "choice",
            };
            assert_eq!(s["kind"], kind, "{solver}, step {k}: {}", s["text"]);
            found += usize::from(kind == "solution");
            if let Some(open) = open {
                let shown: Vec<Vec<u32>> = s["dom"].as_array().unwrap()[line.depth..]
                    .iter()
                    .map(|d| {
                        d.as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.as_u64().unwrap() as u32 - 1)
                            .collect()
                    })
                    .collect();
                assert_eq!(&shown, open, "{solver}, step {k}: the domains");
            }
            // A line joins two queens of the step that attack each other.
            if let Some(l) = s["line"].as_array() {
                let sq = |i: usize| {
                    (
                        l[i][0].as_u64().unwrap() as usize,
                        l[i][1].as_u64().unwrap() as u32 - 1,
                    )
                };
                let ((r1, c1), (r2, c2)) = (sq(0), sq(1));
                let at = queens_at(steps, k);
                assert_eq!((at[r1], at[r2]), (Some(c1), Some(c2)), "{solver}, step {k}");
                assert!(r1 != r2 && attack(r1, c1, r2, c2), "{solver}, step {k}");
            }
            let refused = kind == "failure" && solver != "teach-fc";
            assert_eq!(s["line"].is_array(), refused, "{solver}, step {k}: {s}");
        }
        assert_eq!(found, solutions, "{solver}");
    }
}

/// The bitboard's page: its nodes are the free squares teach-sets tries, in
/// the same order; a node is a dead end exactly when the next row has no
/// free square; each text shows the bit taken as `free & -free`.
#[test]
fn the_bitboard_page_shows_its_masks() {
    let n = 6;
    let data = page_data(&write_html(&[
        "queens",
        "6",
        "--solver",
        "teach-bits",
        "--all",
        "--format",
        "html",
    ]));
    let steps = data["steps"].as_array().unwrap();
    let sets = teaching_nodes("teach-sets", n);
    assert_eq!(steps.len(), sets.len());
    for (k, (s, (line, _))) in steps.iter().zip(&sets).enumerate() {
        let at = queens_at(steps, k);
        let placed: Vec<Option<u32>> = line.placement.iter().map(|p| p.map(|c| c - 1)).collect();
        assert_eq!(at, placed, "step {k}");
        let cols: Vec<u32> = at.iter().flatten().copied().collect();
        let row = cols.len();
        let next_free =
            row < n && (0..n as u32).any(|x| (0..row).all(|r| !attack(r, cols[r], row, x)));
        let dead = k > 0 && row < n && !next_free;
        assert_eq!(s["kind"] == "failure", dead, "step {k}: {}", s["text"]);
        if k > 0 {
            let bit = format!("{:0n$b}", 1u64 << cols[row - 1]);
            assert!(
                s["text"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("bit {bit} = free & -free")),
                "{}",
                s["text"]
            );
        }
    }
}

/// The attacking pairs of a placement, counted here.
fn pairs(cols: &[u32]) -> usize {
    (0..cols.len())
        .flat_map(|r| (0..r).map(move |s| (r, s)))
        .filter(|&(r, s)| attack(r, cols[r], s, cols[s]))
        .count()
}

/// The min-conflicts page: each move changes one row, from the column it
/// names to one of the least attacked others; the counts are the attackers
/// of each square of the row before the move, the pairs those left; the
/// lines are the terminal's, the chart the pairs, the end a solution.
#[test]
fn the_min_conflicts_page_counts_the_conflicts() {
    for seed in ["1", "2", "3"] {
        let page = write_html(&[
            "queens",
            "8",
            "--solver",
            "teach-min-conflicts",
            "--seed",
            seed,
            "--format",
            "html",
        ]);
        let data = page_data(&page);
        assert_eq!(data["view"], "local");
        let steps = data["steps"].as_array().unwrap();
        let cols = |k: usize| -> Vec<u32> {
            queens_at(steps, k)
                .into_iter()
                .map(Option::unwrap)
                .collect()
        };
        let mut moves = 0;
        for (k, s) in steps.iter().enumerate() {
            assert_eq!(
                s["pairs"].as_u64().unwrap() as usize,
                pairs(&cols(k)),
                "seed {seed}, step {k}"
            );
            let Some(row) = s["moved"].as_u64().map(|r| r as usize) else {
                continue;
            };
            moves += 1;
            let (before, after) = (cols(k - 1), cols(k));
            let counts: Vec<usize> = s["counts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap() as usize)
                .collect();
            let want: Vec<usize> = (0..8u32)
                .map(|x| {
                    (0..8)
                        .filter(|&r| r != row && attack(r, before[r], row, x))
                        .count()
                })
                .collect();
            assert_eq!(counts, want, "seed {seed}, step {k}");
            let from = s["from"].as_u64().unwrap() as u32 - 1;
            assert_eq!(before[row], from);
            for r in (0..8).filter(|&r| r != row) {
                assert_eq!(
                    before[r], after[r],
                    "seed {seed}, step {k}: only row {row} moves"
                );
            }
            let least = (0..8u32)
                .filter(|&x| x != from)
                .map(|x| want[x as usize])
                .min()
                .unwrap();
            assert_ne!(after[row], from);
            assert_eq!(want[after[row] as usize], least, "seed {seed}, step {k}");
        }
        assert!(moves > 0, "seed {seed}: a search with moves");
        let last = steps.len() - 1;
        assert_eq!(steps[last]["kind"], "solution");
        assert!(csp::queens::verify::check(&cols(last)).is_solution());
        let chart: Vec<f64> = data["chart"][0]["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let shown: Vec<f64> = steps.iter().map(|s| s["pairs"].as_f64().unwrap()).collect();
        assert_eq!(chart, shown);
        // The same lines as `--trace` prints (which ends with the solution).
        let trace = csp(&[
            "queens",
            "8",
            "--solver",
            "teach-min-conflicts",
            "--seed",
            seed,
            "--trace",
        ]);
        let lines: Vec<String> = text(&trace.stdout).lines().map(str::to_string).collect();
        let texts: Vec<String> = steps
            .iter()
            .map(|s| s["text"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(texts[..], lines[..lines.len() - 1], "seed {seed}");
    }
}

/// The genetic search's page: a step a generation, the best individual on
/// the board with its attacking pairs, the best never rising (the best
/// individual is kept from one generation to the next).
#[test]
fn the_genetic_page_charts_best_and_mean() {
    let data = page_data(&write_html(&[
        "queens",
        "6",
        "--solver",
        "teach-genetic",
        "--format",
        "html",
    ]));
    let steps = data["steps"].as_array().unwrap();
    let names: Vec<&str> = data["chart"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["best", "mean"]);
    let best: Vec<f64> = data["chart"][0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(best.len(), steps.len());
    for (k, s) in steps.iter().enumerate() {
        let cols: Vec<u32> = queens_at(steps, k)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert_eq!(pairs(&cols) as f64, best[k], "generation {}", k + 1);
        assert!(s["text"]
            .as_str()
            .unwrap()
            .starts_with(&format!("generation {}: best", k + 1)));
    }
    assert!(best.windows(2).all(|w| w[1] <= w[0]), "{best:?}");
}

/// The squares `a1`-style of a page cell.
fn square(c: &Cell) -> (usize, usize) {
    (c.num("data-row") - 1, c.num("data-col") - 1)
}

/// In the browser, teach-stack's page draws the line of attack to a
/// refused queen; in play mode a click puts a queen, the page marks the
/// squares it attacks and lists the columns left to each row, and the
/// engine's next step from a queen on a1 is the search's own.
#[test]
fn teaching_page_draws_refusals_and_plays() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("teach-play");
    let n: usize = 5;
    let page = write_page(
        &dir,
        "stack5.html",
        &csp(&["queens", "5", "--solver", "teach-stack", "--format", "html"]),
    );
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    let steps = data["steps"].as_array().unwrap();
    let fail = steps.iter().position(|s| s["kind"] == "failure").unwrap();
    let a1 = steps
        .iter()
        .position(|s| s["var"] == 0 && s["value"] == 1)
        .unwrap();
    let child = steps.iter().position(|s| s["parent"] == a1).unwrap();
    let doms = dump_all(
        &browser,
        &page,
        &[
            (&format!("step={fail}"), 1000),
            ("mode=play&click=c3", 1000),
            ("mode=play&click=a1&engine=1", 1000),
        ],
    );
    // The refusal: the squares from the refused queen to its attacker.
    let l = steps[fail]["line"].as_array().expect("a line");
    let end = |i: usize| {
        (
            l[i][0].as_u64().unwrap() as usize,
            l[i][1].as_u64().unwrap() as usize - 1,
        )
    };
    let ((r1, c1), (r2, c2)) = (end(0), end(1));
    let on_line = |(r, c): (usize, usize)| {
        let between = |x: usize, a: usize, b: usize| a.min(b) <= x && x <= a.max(b);
        between(r, r1, r2)
            && between(c, c1, c2)
            && (c1 == c2 && c == c1 || r.abs_diff(r1) == c.abs_diff(c1))
    };
    for c in cells(&doms[0]) {
        assert_eq!(c.has("ray"), on_line(square(&c)), "{c:?}");
        assert_eq!(c.has("attacker"), square(&c) == (r2, c2), "{c:?}");
    }
    // Play mode: a queen on c3, the squares it attacks, the columns left.
    let dom = &doms[1];
    for c in cells(dom) {
        let (r, f) = square(&c);
        let queen = (r, f) == (2, 2);
        let attacked = !queen && (r == 2 || f == 2 || r.abs_diff(2) == f.abs_diff(2));
        assert_eq!(c.has("queen"), queen, "{c:?}");
        assert_eq!(c.has("attacked"), attacked, "{c:?}");
    }
    let left: Vec<String> = (0..n)
        .map(|r| {
            if r == 2 {
                return "row 3: queen on c3".to_string();
            }
            let files: Vec<String> = (0..n)
                .filter(|&f| f != 2 && r.abs_diff(2) != f.abs_diff(2))
                .map(|f| ((b'a' + f as u8) as char).to_string())
                .collect();
            format!("row {}: {}", r + 1, files.join(" "))
        })
        .collect();
    assert_eq!(text_of(dom, "domains"), left.join("  "));
    assert_eq!(text_of(dom, "text"), "your queens: c3");
    // The engine's next step from a1: the first node below a1.
    let dom = &doms[2];
    assert_eq!(
        text_of(dom, "text"),
        format!(
            "engine, step {child}: {}",
            steps[child]["text"].as_str().unwrap()
        )
    );
    let queens: Vec<(usize, usize)> = cells(dom)
        .iter()
        .filter(|c| c.has("queen"))
        .map(square)
        .collect();
    let want: Vec<(usize, usize)> = if steps[child]["kind"] == "failure" {
        vec![(0, 0)]
    } else {
        (0..n)
            .filter_map(|r| queens_at(steps, child)[r].map(|c| (r, c as usize)))
            .collect()
    };
    assert_eq!(queens, want);
    let _ = std::fs::remove_dir_all(&dir);
}

/// In the browser, a move of the min-conflicts page shows the attackers of
/// each square of the row it moved, its old square outlined, and marks
/// the step on the chart.
#[test]
fn min_conflicts_page_shows_a_move() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("min-conflicts");
    let page = write_page(
        &dir,
        "mc8.html",
        &csp(&[
            "queens",
            "8",
            "--solver",
            "teach-min-conflicts",
            "--format",
            "html",
        ]),
    );
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    let steps = data["steps"].as_array().unwrap();
    let k = steps
        .iter()
        .position(|s| s["moved"].is_u64())
        .expect("a move");
    let before: Vec<u32> = queens_at(steps, k - 1)
        .into_iter()
        .map(Option::unwrap)
        .collect();
    let after: Vec<u32> = queens_at(steps, k)
        .into_iter()
        .map(Option::unwrap)
        .collect();
    let row = steps[k]["moved"].as_u64().unwrap() as usize;
    let dom = dump_dom(&browser, &page, &format!("step={k}"), 1000);
    for c in cells(&dom) {
        let (r, f) = square(&c);
        assert_eq!(c.has("queen"), after[r] as usize == f, "{c:?}");
        let counted = r == row && after[r] as usize != f;
        assert_eq!(c.has("count"), counted, "{c:?}");
        if counted {
            let attackers = (0..8)
                .filter(|&q| q != row && attack(q, before[q], row, f as u32))
                .count();
            assert_eq!(c.shown, attackers.to_string(), "{c:?}");
        }
        assert_eq!(c.has("from"), r == row && before[r] as usize == f, "{c:?}");
        // A queen under attack is ringed.
        let attacked = (0..8).any(|q| q != r && attack(q, after[q], r, f as u32));
        assert_eq!(
            c.has("culprit"),
            after[r] as usize == f && attacked,
            "{c:?}"
        );
    }
    let name = |r: usize| format!("{}{}", (b'a' + after[r] as u8) as char, r + 1);
    let pairs: Vec<String> = (0..8)
        .flat_map(|r| (r + 1..8).map(move |q| (r, q)))
        .filter(|&(r, q)| attack(r, after[r], q, after[q]))
        .map(|(r, q)| format!("{}\u{2013}{}", name(r), name(q)))
        .collect();
    assert!(!pairs.is_empty(), "a move before the solution leaves pairs");
    assert_eq!(
        text_of(&dom, "domains"),
        format!("attacking pairs: {}", pairs.join(" "))
    );
    let marker = &dom[dom.find("id=\"marker\"").expect("the chart's marker")..];
    let tag = &marker[..marker.find('>').unwrap()];
    assert_eq!(attr(tag, "data-step"), Some(k.to_string().as_str()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine's page draws the line of attack too: with no propagation,
/// every failure is a queen refused by one already placed, and its line
/// joins the decision to that queen; with forward checking, a failure is
/// a row run dry and has no line.
#[test]
fn engine_pages_draw_the_line_of_attack() {
    for (inference, lines) in [("none", true), ("fc", false)] {
        let data = page_data(&write_html(&[
            "queens",
            "6",
            "--format",
            "html",
            "--inference",
            inference,
        ]));
        let steps = data["steps"].as_array().unwrap();
        let mut failures = 0;
        for (k, s) in steps.iter().enumerate() {
            if s["kind"] != "failure" {
                assert!(s["line"].is_null(), "step {k}");
                continue;
            }
            failures += 1;
            assert_eq!(s["line"].is_array(), lines, "step {k}: {s}");
            if let Some(l) = s["line"].as_array() {
                let at = queens_at(steps, k);
                let sq = |i: usize| {
                    let r = l[i][0].as_u64().unwrap() as usize;
                    (r, l[i][1].as_u64().unwrap() as u32 - 1)
                };
                let ((r1, c1), (r2, c2)) = (sq(0), sq(1));
                assert_eq!(
                    (r1, c1 + 1),
                    (
                        s["var"].as_u64().unwrap() as usize,
                        s["value"].as_u64().unwrap() as u32
                    )
                );
                assert_eq!(at[r2], Some(c2), "step {k}: the attacker is on the board");
                assert!(attack(r1, c1, r2, c2), "step {k}");
            }
        }
        assert!(failures > 0, "--inference {inference}");
    }
}
