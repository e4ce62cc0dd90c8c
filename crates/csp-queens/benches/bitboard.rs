//! Timing of the bitboard and constellation counters against the C
//! reference program.
//!
//! ```text
//! cargo bench -p csp-queens --bench bitboard -- [N ...] [--reps R] [--plain]
//! ```
//!
//! For every `N` (default 15 and 16) this prints the best of `R` runs
//! (default 3) of `count` on 1 and 2 threads, `count_mirror`,
//! `constellation::count` on 1 and 2 threads, optionally `count_plain`, and
//! of `/tmp/ref/nqueens_bitboard N` (mirror halving in C)
//! when that program exists (override with `QUEENS_REF`), with the ratios.
//!
//! Two clocks are reported: wall time, and on Linux the CPU time of the
//! process (or of the reference child process) read from `/proc/self/stat`
//! in ticks of 10 ms. On a machine shared with other jobs the CPU time of
//! the single-threaded runs is the fairer comparison.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use csp_queens::{bitboard, constellation};

/// Clock ticks per second of `/proc/self/stat` (USER_HZ, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// (CPU seconds of this process, CPU seconds of its waited-for children),
/// or zeros where `/proc` is not available.
fn cpu_seconds() -> (f64, f64) {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return (0.0, 0.0);
    };
    // Fields after the parenthesized command name; utime is field 14.
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
        return (0.0, 0.0);
    };
    let fields: Vec<f64> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    if fields.len() < 15 {
        return (0.0, 0.0);
    }
    // rest starts at field 3: utime = 14, stime = 15, cutime = 16, cstime = 17.
    let own = (fields[11] + fields[12]) / TICKS_PER_SECOND;
    let children = (fields[13] + fields[14]) / TICKS_PER_SECOND;
    (own, children)
}

/// Best wall and CPU times over `reps` runs.
#[derive(Debug, Clone, Copy)]
struct Timing {
    wall: f64,
    cpu: f64,
}

/// Times `reps` runs of `f`, which returns the count it found.
fn best_of(reps: usize, expected: Option<u128>, mut f: impl FnMut() -> u128) -> (Timing, u128) {
    let mut best = Timing {
        wall: f64::INFINITY,
        cpu: f64::INFINITY,
    };
    let mut result = 0;
    for _ in 0..reps {
        let cpu_start = cpu_seconds().0;
        let start = Instant::now();
        result = f();
        best.wall = best.wall.min(start.elapsed().as_secs_f64());
        best.cpu = best.cpu.min(cpu_seconds().0 - cpu_start);
        if let Some(expected) = expected {
            assert_eq!(result, expected, "counts disagree");
        }
    }
    (best, result)
}

/// Best times of the reference program (wall as it reports it, CPU of the
/// child), and its count.
fn reference(program: &PathBuf, n: usize, reps: usize) -> Option<(Timing, u128)> {
    let mut best = Timing {
        wall: f64::INFINITY,
        cpu: f64::INFINITY,
    };
    let mut count = 0;
    for _ in 0..reps {
        let cpu_start = cpu_seconds().1;
        let output = Command::new(program).arg(n.to_string()).output().ok()?;
        best.cpu = best.cpu.min(cpu_seconds().1 - cpu_start);
        let text = String::from_utf8_lossy(&output.stdout);
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 3 {
            return None;
        }
        count = fields[1].parse().ok()?;
        best.wall = best.wall.min(fields[2].parse().ok()?);
    }
    Some((best, count))
}

fn main() {
    let mut sizes = Vec::new();
    let mut reps = 3;
    let mut plain = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--reps" => reps = args.next().and_then(|r| r.parse().ok()).unwrap_or(reps),
            "--plain" => plain = true,
            other => {
                if let Ok(n) = other.parse::<usize>() {
                    sizes.push(n);
                }
                // Other flags (such as cargo's `--bench`) are ignored.
            }
        }
    }
    if sizes.is_empty() {
        sizes = vec![15, 16];
    }
    let program = PathBuf::from(
        std::env::var("QUEENS_REF").unwrap_or_else(|_| "/tmp/ref/nqueens_bitboard".into()),
    );
    println!("best of {reps} runs; seconds of wall time / CPU time; ratios to the reference");
    for n in sizes {
        let reference = reference(&program, n, reps);
        let expected = reference.map(|(_, count)| count);
        let (one, total) = best_of(reps, expected, || bitboard::count(n, 1).unwrap());
        let (two, _) = best_of(reps, Some(total), || bitboard::count(n, 2).unwrap());
        let (mirror, _) = best_of(reps, Some(total), || bitboard::count_mirror(n).unwrap());
        let (cons1, _) = best_of(reps, Some(total), || constellation::count(n, 1).unwrap());
        let (cons2, _) = best_of(reps, Some(total), || constellation::count(n, 2).unwrap());
        println!("n = {n}: {total} solutions");
        let line = |name: &str, t: Timing| {
            let mut text = format!("  {name:<22} {:8.4} / {:8.4}", t.wall, t.cpu);
            if let Some((r, _)) = reference {
                text += &format!("   {:.3}x / {:.3}x", t.wall / r.wall, t.cpu / r.cpu);
            }
            text
        };
        if let Some((r, _)) = reference {
            println!(
                "  {:<22} {:8.4} / {:8.4}",
                "reference C (mirror)", r.wall, r.cpu
            );
        }
        println!("{}", line("count, 1 thread", one));
        println!(
            "{}   wall speed-up {:.2}x",
            line("count, 2 threads", two),
            one.wall / two.wall
        );
        println!("{}", line("count_mirror", mirror));
        println!("{}", line("constellation, 1 thr.", cons1));
        println!(
            "{}   wall speed-up {:.2}x",
            line("constellation, 2 thr.", cons2),
            cons1.wall / cons2.wall
        );
        if plain {
            let (t, _) = best_of(reps, Some(total), || bitboard::count_plain(n).unwrap());
            println!("{}", line("count_plain", t));
        }
    }
}
