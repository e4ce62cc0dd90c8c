//! The engine's counts and deductions against an independent brute force
//! over every mine layout of small boards (the example's and random ones),
//! every layout checked by the independent checker; bad boards get
//! positions.

use csp_core::{Inference, Search, SearchOptions};
use csp_minesweeper::{check, deduce, model, options, parse, render, Board, Cell};

fn data(file: &str) -> String {
    std::fs::read_to_string(format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Every layout of the hidden cells that the checker accepts: the count,
/// and per cell whether it is a mine in all of them, in none, or either.
fn brute_force(b: &Board) -> (u64, Vec<Option<bool>>) {
    let hidden: Vec<usize> = (0..b.cells.len())
        .filter(|&k| b.cells[k] == Cell::Hidden)
        .collect();
    assert!(hidden.len() <= 20, "too many hidden cells to enumerate");
    let base: Vec<bool> = b.cells.iter().map(|&c| c == Cell::Mine).collect();
    let (mut count, mut ever_mine, mut ever_safe) =
        (0, vec![false; b.cells.len()], vec![false; b.cells.len()]);
    for bits in 0u32..1 << hidden.len() {
        let mut mines = base.clone();
        for (i, &k) in hidden.iter().enumerate() {
            mines[k] = bits >> i & 1 == 1;
        }
        if check(b, &mines).is_ok() {
            count += 1;
            for (k, &m) in mines.iter().enumerate() {
                if m {
                    ever_mine[k] = true;
                } else {
                    ever_safe[k] = true;
                }
            }
        }
    }
    let known = if count == 0 {
        vec![None; b.cells.len()]
    } else {
        (0..b.cells.len())
            .map(|k| match (ever_mine[k], ever_safe[k]) {
                (true, false) => Some(true),
                (false, true) => Some(false),
                _ => None,
            })
            .collect()
    };
    (count, known)
}

/// The engine's count (every layout checked) and deduction, under each
/// inference, must equal the brute force's.
fn agree(b: &Board) {
    let (count, known) = brute_force(b);
    for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
        let opts = SearchOptions {
            inference,
            ..options()
        };
        let (m, mine) = model(b).unwrap();
        let layouts = Search::new(&m)
            .options(opts.clone())
            .solutions()
            .unwrap()
            .inspect(|s| {
                let layout: Vec<bool> = mine.iter().map(|&x| s[x] == 1).collect();
                check(b, &layout).unwrap();
            })
            .count();
        assert_eq!(
            layouts as u64,
            count,
            "{inference:?}\n{}",
            render(b, &known)
        );
        let d = deduce(b, &opts).unwrap();
        assert_eq!(d.consistent, count > 0);
        assert_eq!(d.cells, known, "{inference:?}\n{}", render(b, &known));
    }
}

#[test]
fn the_small_boards_agree_with_brute_force() {
    let b = parse(&data("pattern.txt")).unwrap();
    assert_eq!(brute_force(&b).0, 1);
    assert_eq!(render(&b, &brute_force(&b).1), ".*.*.\n11211\n00000\n");
    agree(&b);
    for text in [
        "1?\n11\n",
        "11?\n???\n",
        "1??\n1??\n",
        "mines 2\n1??\n1??\n",
        "mines 0\n???\n?1?\n???\n",
        "*2?\n???\n",
        ".3?\n???\n?2?\n",
        "2?\n??\n",
        "8??\n",
        // One cell: its clue has no neighbours (a sum of nothing).
        "0\n",
        "?\n",
        "mines 1\n?\n",
    ] {
        if let Ok(b) = parse(text) {
            agree(&b);
        }
    }
}

/// A tiny generator (xorshift) for reproducible random boards.
struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn random_boards_agree_with_brute_force() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..300 {
        let (h, w) = (2 + rng.next(4) as usize, 2 + rng.next(4) as usize);
        let mines: Vec<bool> = (0..h * w).map(|_| rng.next(4) == 0).collect();
        // Reveal some safe cells (their true numbers), flag a few mines,
        // keep at most 16 hidden; sometimes give the total.
        let board = Board {
            width: w,
            height: h,
            cells: vec![Cell::Hidden; h * w],
            mines: None,
        };
        let mut cells = Vec::with_capacity(h * w);
        for k in 0..h * w {
            let around = board.neighbours(k).iter().filter(|&&j| mines[j]).count() as i32;
            cells.push(match (mines[k], rng.next(3)) {
                (false, 0 | 1) => Cell::Shows(around),
                (true, 0) => Cell::Mine,
                (false, 2) if rng.next(4) == 0 => Cell::Safe,
                _ => Cell::Hidden,
            });
        }
        let total = mines.iter().filter(|&&m| m).count() as i32;
        let mut b = Board {
            cells,
            mines: (rng.next(2) == 0).then_some(total),
            ..board
        };
        if b.cells.iter().filter(|&&c| c == Cell::Hidden).count() > 16 {
            continue;
        }
        // Every few rounds, a wrong number: often no layout fits.
        if round % 5 == 0 {
            if let Some(Cell::Shows(n)) = b.cells.iter_mut().find(|c| matches!(c, Cell::Shows(_))) {
                *n = (*n + 1) % 4;
            }
        }
        agree(&b);
        // The board the engine's deduction prints parses back to itself
        // with the deduced cells known.
        let d = deduce(&b, &options()).unwrap();
        if d.consistent {
            let again = parse(&render(&b, &d.cells)).unwrap();
            let (count, _) = brute_force(&Board {
                mines: None,
                ..again.clone()
            });
            assert!(count > 0);
        }
    }
}

#[test]
fn counts_on_the_example_boards() {
    // The beginner board: the brute force would be 2^48 layouts, so the
    // count is checked against the sum over the frontier instead: every
    // layout found fits (checked), and they are all different.
    let b = parse(&data("beginner.txt")).unwrap();
    let (m, mine) = model(&b).unwrap();
    let mut seen = std::collections::HashSet::new();
    for s in Search::new(&m).options(options()).solutions().unwrap() {
        let layout: Vec<bool> = mine.iter().map(|&x| s[x] == 1).collect();
        check(&b, &layout).unwrap();
        assert!(seen.insert(layout));
    }
    let counted = Search::new(&m).options(options()).count().unwrap().count;
    assert_eq!(counted as usize, seen.len());
    // The deduction on the expert board settles its frontier quickly, and
    // every cell it calls certain is so in a fresh solve with it flipped.
    let b = parse(&data("expert.txt")).unwrap();
    let d = deduce(&b, &options()).unwrap();
    assert!(d.consistent);
    for (k, known) in d.cells.iter().enumerate() {
        if let (Cell::Hidden, Some(mine_here)) = (b.cells[k], known) {
            let (mut m, mine) = model(&b).unwrap();
            m.post(mine[k].eq(i32::from(!mine_here))).unwrap();
            let r = Search::new(&m).options(options()).solve().unwrap();
            assert!(r.solution.is_none() && r.outcome.is_complete(), "cell {k}");
        }
    }
}

#[test]
fn bad_boards_name_line_and_column() {
    let cases = [
        (
            "1?x\n",
            1,
            3,
            "expected '?', '.', '*' or a digit 0-8, found 'x'",
        ),
        ("9?\n", 1, 1, "found '9'"),
        (
            "??\n?\n",
            2,
            2,
            "a row of 1 cells; the first row (line 1) has 2",
        ),
        ("??\n???\n", 2, 3, "a row of 3 cells"),
        (
            "4?\n??\n",
            1,
            1,
            "this cell has 3 neighbours, it cannot show 4",
        ),
        (
            "mines x\n??\n",
            1,
            7,
            "expected the number of mines, found 'x'",
        ),
        ("mines -1\n??\n", 1, 7, "expected the number of mines"),
        ("mines 5\n??\n", 1, 7, "5 mines on a board of 2 cells"),
        (
            "??\nmines 1\n",
            2,
            1,
            "'mines N' must come once, before the board",
        ),
        ("% nothing\n\n", 2, 1, "no board found"),
        ("", 1, 1, "no board found"),
    ];
    csp_text::check_errors(parse, &cases).unwrap();
    let wide = format!("{}\n", "?".repeat(101));
    assert!(parse(&wide).unwrap_err().message.contains("at most 100"));
}

#[test]
fn the_checker_rejects_wrong_layouts() {
    let b = parse(&data("pattern.txt")).unwrap();
    let mut good = vec![false; 15];
    good[1] = true;
    good[3] = true;
    assert!(check(&b, &good).is_ok());
    let mut shifted = good.clone();
    shifted.swap(0, 1);
    assert!(check(&b, &shifted).is_err());
    let mut on_a_number = good.clone();
    on_a_number[5] = true;
    assert!(check(&b, &on_a_number).is_err());
    assert!(check(&b, &good[1..]).is_err());
    let b = parse("mines 1\n??\n").unwrap();
    assert!(check(&b, &[true, false]).is_ok());
    assert!(check(&b, &[true, true]).is_err());
}
