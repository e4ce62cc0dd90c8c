//! The `csp` command: worked constraint-satisfaction examples on one engine.
//!
//! `csp` with no arguments solves 8-queens with the generic engine and shows
//! the board and the search statistics. `csp --help` lists the subcommands.

// All output goes through `cli::output`, which decides once what a failed
// write does; `println!` and `eprintln!` would panic instead.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[macro_use]
mod cli;

/// The exit-status convention of every subcommand (`cli::Status`), shown by
/// `csp --help`; README.md says the same.
const EXIT_STATUS: &str = "\
Exit status (every subcommand):
  0  complete answer: a solution, an exact count, every solution, two
     solutions of a puzzle that has several (\"more than one solution\"), or
     a proof that there is none (\"no solution\", \"none\", a count of 0)
  1  incomplete: a limit (--time-limit, --count-limit, --memory-limit, a
     local search's step limit) stopped the search; stderr says so, stdout
     shows what is known (\"unknown\", the count so far, a >= bound), never
     \"no solution\"
  2  bad input (options, numbers, files: with line and column), a size that
     cannot fit in memory, or output that cannot be written
  3  queens --verify: a placement that is not a solution
A closed output pipe (csp ... | head) ends csp quietly with status 0.";

/// Constraint satisfaction on one engine: N-queens, Sudoku, coloring,
/// cryptarithms, the zebra puzzle and Latin squares.
#[derive(Parser, Debug)]
#[command(name = "csp", version, about, long_about = None, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
// Each subcommand's arguments are built only when it runs (or its help
// is shown): one command's start-up does not pay for all the others.
#[command(defer = true)]
enum Command {
    /// N-queens: solve, count, list, trace, compare solvers, verify placements.
    Queens(cli::queens::Args),
    /// Sudoku (9x9, 16x16, 25x25), one puzzle per line from FILE or stdin.
    Sudoku(cli::puzzles::SudokuArgs),
    /// Graph and map coloring: DIMACS files or built-in maps.
    Color(cli::puzzles::ColorArgs),
    /// Cryptarithms such as SEND+MORE=MONEY.
    Cryptarithm(cli::puzzles::CryptarithmArgs),
    /// The zebra puzzle: who drinks water, who owns the zebra.
    Zebra(cli::puzzles::ZebraArgs),
    /// Latin squares: count them, or complete partial ones.
    Latin(cli::puzzles::LatinArgs),
    /// Futoshiki: Latin squares with inequalities, from FILE or stdin.
    Futoshiki(cli::futoshiki::FutoshikiArgs),
    /// Golomb rulers: the shortest ruler with N marks, by branch and bound.
    Golomb(cli::golomb::GolombArgs),
    /// Job-shop scheduling: the least makespan, from an OR-Library FILE.
    Jobshop(cli::jobshop::JobshopArgs),
    /// Project scheduling (RCPSP): the least makespan, from a PSPLIB .sm FILE.
    Rcpsp(cli::rcpsp::RcpspArgs),
    /// Magic squares: one square of order N, or --count them.
    Magic(cli::magic::MagicArgs),
    /// Nonograms: blacken the grid from its row and column clues.
    Nonogram(cli::nonogram::NonogramArgs),
    /// Kakuro: digits that add up to the clues, from FILE or stdin.
    Kakuro(cli::kakuro::KakuroArgs),
    /// Minesweeper: which hidden cells are certainly mines or safe.
    Minesweeper(cli::minesweeper::MinesweeperArgs),
    /// Register csp as a MiniZinc solver (writes csp.msc for fzn-csp).
    MinizincSetup(cli::minizinc::MinizincArgs),
    /// The 0/1 knapsack: the most value within the capacity, from FILE.
    Knapsack(cli::knapsack::KnapsackArgs),
    /// Bin packing: the fewest bins for the items, from a BPPLIB FILE.
    Binpack(cli::binpack::BinpackArgs),
    /// Strip packing: rectangles into a strip of fixed width, the least height.
    Strippack(cli::binpack::StrippackArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` and `--version` to stdout (exit 0), usage errors to
            // stderr (exit 2), both through `cli::output`.
            if e.use_stderr() {
                errln!("{}", e.render().to_string().trim_end());
            } else {
                out!("{}", e.render());
                cli::output::flush();
            }
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let result = match cli.command {
        None => cli::queens::run_default(),
        Some(Command::Queens(a)) => cli::queens::run(a),
        Some(Command::Sudoku(a)) => cli::puzzles::sudoku(a),
        Some(Command::Color(a)) => cli::puzzles::color(a),
        Some(Command::Cryptarithm(a)) => cli::puzzles::cryptarithm(a),
        Some(Command::Zebra(a)) => cli::puzzles::zebra(a),
        Some(Command::Latin(a)) => cli::puzzles::latin(a),
        Some(Command::Futoshiki(a)) => cli::futoshiki::run(a),
        Some(Command::Golomb(a)) => cli::golomb::run(a),
        Some(Command::Jobshop(a)) => cli::jobshop::run(a),
        Some(Command::Rcpsp(a)) => cli::rcpsp::run(a),
        Some(Command::Magic(a)) => cli::magic::run(a),
        Some(Command::Nonogram(a)) => cli::nonogram::run(a),
        Some(Command::Kakuro(a)) => cli::kakuro::run(a),
        Some(Command::Minesweeper(a)) => cli::minesweeper::run(a),
        Some(Command::MinizincSetup(a)) => cli::minizinc::run(a),
        Some(Command::Knapsack(a)) => cli::knapsack::run(a),
        Some(Command::Binpack(a)) => cli::binpack::run(a),
        Some(Command::Strippack(a)) => cli::binpack::run_strip(a),
    };
    cli::output::flush();
    match result {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
