//! The example's puzzles, made from drawings: the engine finds exactly the
//! drawing (counted, checked independently), and bad files get positions.

use csp_core::{Inference, Search, SearchOptions};
use csp_nonogram::{check, model, parse, render};

fn solve_all(file: &str) -> Vec<String> {
    let text =
        std::fs::read_to_string(format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let p = parse(&text).unwrap();
    let (m, cells) = model(&p).unwrap();
    let mut out = Vec::new();
    for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
        let opts = SearchOptions {
            inference,
            ..Default::default()
        };
        let sols: Vec<String> = Search::new(&m)
            .options(opts)
            .solutions()
            .unwrap()
            .map(|s| {
                let g: Vec<bool> = cells.iter().map(|&x| s[x] == 1).collect();
                check(&p, &g).unwrap();
                render(&p, &g)
            })
            .collect();
        assert_eq!(sols.len(), 1, "{file} under {inference:?}");
        out.push(sols[0].clone());
    }
    out
}

#[test]
fn the_heart_is_the_heart() {
    let drawing = ".##...##.\n####.####\n#########\n#########\n.#######.\n..#####..\n...###...\n....#....\n.........\n";
    assert!(solve_all("heart.txt").iter().all(|s| s == drawing));
}

#[test]
fn csp_spells_csp() {
    let drawing = "###.###.###\n#...#...#.#\n#...###.###\n#.....#.#..\n###.###.#..\n";
    assert!(solve_all("csp.txt").iter().all(|s| s == drawing));
}

#[test]
fn bad_files_name_line_and_column() {
    let cases = [
        ("1\n", 1, 1, "expected 'rows' before the first clue"),
        (
            "rows\n1 x\ncolumns\n1\n",
            2,
            3,
            "expected a run length from 0 to 200, found 'x'",
        ),
        (
            "rows\n1\n",
            2,
            1,
            "expected a 'rows' section and a 'columns' section",
        ),
        ("columns\n1\n", 1, 1, "'columns' must follow the row clues"),
        (
            "rows\n3\ncolumns\n1\n1\n",
            2,
            1,
            "row 1 needs 3 cells, the grid has 2",
        ),
        ("rows\n1 1\ncolumns\n1\n1\n", 2, 1, "row 1 needs 3 cells"),
        ("rows\ncolumns\n1\n", 3, 1, "0 rows: expected 1 to 200"),
    ];
    csp_text::check_errors(parse, &cases).unwrap();
    // Clues that cannot be met together: no solution, a complete answer.
    let p = parse("rows\n1\n0\ncolumns\n0\n0\n").unwrap();
    let (m, _) = model(&p).unwrap();
    assert_eq!(Search::new(&m).count().unwrap().count, 0);
}
