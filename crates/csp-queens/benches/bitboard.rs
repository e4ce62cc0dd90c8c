//! Timing of the bitboard counters against the C reference program.
//!
//! ```text
//! cargo bench -p csp-queens --bench bitboard -- [N ...] [--reps R] [--plain]
//! ```
//!
//! For every `N` (default 15 and 16) this prints the best of `R` runs
//! (default 3) of `count` on 1 and 2 threads, `count_mirror`, optionally
//! `count_plain`, and of `/tmp/ref/nqueens_bitboard N` (mirror halving in C)
//! when that program exists (override with `QUEENS_REF`), with the ratios.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use csp_queens::bitboard;

/// Best wall time of `reps` runs of `f`, which returns the count it found.
fn best_of(reps: usize, expected: Option<u128>, mut f: impl FnMut() -> u128) -> (f64, u128) {
    let mut best = f64::INFINITY;
    let mut result = 0;
    for _ in 0..reps {
        let start = Instant::now();
        result = f();
        best = best.min(start.elapsed().as_secs_f64());
        if let Some(expected) = expected {
            assert_eq!(result, expected, "counts disagree");
        }
    }
    (best, result)
}

/// Best time reported by the reference program, and its count.
fn reference(program: &PathBuf, n: usize, reps: usize) -> Option<(f64, u128)> {
    let mut best = f64::INFINITY;
    let mut count = 0;
    for _ in 0..reps {
        let output = Command::new(program).arg(n.to_string()).output().ok()?;
        let text = String::from_utf8_lossy(&output.stdout);
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 3 {
            return None;
        }
        count = fields[1].parse().ok()?;
        best = best.min(fields[2].parse().ok()?);
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
    println!("best of {reps} runs, seconds");
    for n in sizes {
        let reference = reference(&program, n, reps);
        let expected = reference.map(|(_, count)| count);
        let (one, total) = best_of(reps, expected, || bitboard::count(n, 1).unwrap());
        let (two, _) = best_of(reps, Some(total), || bitboard::count(n, 2).unwrap());
        let (mirror, _) = best_of(reps, Some(total), || bitboard::count_mirror(n).unwrap());
        println!("n = {n}: {total} solutions");
        if let Some((seconds, _)) = reference {
            println!("  reference C (mirror)   {seconds:9.4}");
        }
        let ratio = |t: f64| match reference {
            Some((seconds, _)) => format!("  {:.3}x reference", t / seconds),
            None => String::new(),
        };
        println!("  count, 1 thread        {one:9.4}{}", ratio(one));
        println!(
            "  count, 2 threads       {two:9.4}{}  speed-up {:.2}x",
            ratio(two),
            one / two
        );
        println!("  count_mirror           {mirror:9.4}{}", ratio(mirror));
        if plain {
            let (t, _) = best_of(reps, Some(total), || bitboard::count_plain(n).unwrap());
            println!("  count_plain            {t:9.4}{}", ratio(t));
        }
    }
}
