//! The bundled puzzle files parse, have the documented sizes and clue counts,
//! contain no repeated givens, and round-trip through the renderer.

use csp_sudoku::{parse, render, Grid};

fn load(name: &str) -> (String, Vec<Grid>) {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let grids = parse::parse_puzzles(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    (text, grids)
}

fn check_file(name: &str, count: usize, side: usize, givens: std::ops::RangeInclusive<usize>) {
    let (text, grids) = load(name);
    assert_eq!(grids.len(), count, "{name}");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    for (grid, line) in grids.iter().zip(lines) {
        assert_eq!(grid.side(), side);
        assert!(givens.contains(&grid.givens()), "{name}: {grid:?}");
        assert_eq!(grid.first_conflict(), None, "{name}: {grid:?}");
        assert_eq!(render::line(grid), line);
        assert_eq!(
            render::boxed(grid).lines().count(),
            side + grid.box_side() + 1
        );
    }
}

#[test]
fn top95() {
    check_file("top95.txt", 95, 9, 17..=26);
}

#[test]
fn hardest() {
    check_file("hardest.txt", 11, 9, 22..=28);
}

#[test]
fn sixteen_by_sixteen() {
    check_file("16x16.txt", 2, 16, 101..=102);
}

#[test]
fn boxed_picture_of_a_16x16_puzzle() {
    let (_, grids) = load("16x16.txt");
    let picture = render::boxed(&grids[0]);
    let first: Vec<&str> = picture.lines().take(2).collect();
    assert_eq!(first[0], "+---------+---------+---------+---------+");
    assert_eq!(first[1], "| D 9 2 . | . . . . | G . . . | 4 3 . . |");
}
