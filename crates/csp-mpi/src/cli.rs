//! The command line of `csp-mpi`.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::job::{Job, DEFAULT_SUBPROBLEMS};
use crate::master::RunOptions;

/// Counts with MPI: rank 0 hands out the subproblems of a split count to the
/// other ranks, journals their counts and prints the total.
#[derive(Debug, Parser)]
#[command(name = "csp-mpi", version)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// N-queens solutions: the constellation counter's split (the list of
    /// `csp queens N --count --split D`), or the generic engine's.
    Queens {
        /// The board size.
        n: usize,
        /// The split depth of the constellation counter (default: 0 from
        /// n = 14 on, 1 below, as `csp queens N --count`).
        #[arg(long, value_name = "D", conflicts_with = "generic")]
        split: Option<usize>,
        /// Count with the generic engine (the all-different model).
        #[arg(long)]
        generic: bool,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Latin squares of order N, with the generic engine (the reduced
    /// squares, times n!·(n−1)!).
    Latin {
        /// The order.
        n: usize,
        #[command(flatten)]
        run: RunArgs,
    },
}

#[derive(Debug, Args)]
struct RunArgs {
    /// Count the solutions (the only mode).
    #[arg(long)]
    count: bool,
    /// Generic engine: split the search into at least this many
    /// subproblems.
    #[arg(long, value_name = "T", default_value_t = DEFAULT_SUBPROBLEMS)]
    subproblems: usize,
    /// Append a line per counted subproblem to FILE (created with a header;
    /// a file that already holds lines is refused unless it is the
    /// --resume file).
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Skip the subproblems FILE holds, and append to it (unless --journal
    /// names another file).
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Hand out at most K subproblems, then stop (exit status 1).
    #[arg(long, value_name = "K")]
    stop_after: Option<usize>,
    /// Subproblems per batch (default: adaptive, at most 16).
    #[arg(long, value_name = "B", value_parser = clap::value_parser!(u64).range(1..))]
    batch: Option<u64>,
    /// Seconds between progress lines on stderr (0: none).
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    progress: f64,
    /// Rank 0 only hands out work (by default it also counts, in a thread
    /// of its own, so that -np K counts on K cores).
    #[arg(long)]
    dedicated_master: bool,
}

impl Cli {
    /// The job and the run options.
    ///
    /// # Errors
    ///
    /// A job that cannot be built, or options that do not go together.
    pub fn job(&self) -> Result<(Job, RunOptions), String> {
        let (job, run) = match &self.command {
            Command::Queens {
                n,
                split,
                generic,
                run,
            } => {
                let job = if *generic {
                    Job::queens_generic(*n, run.subproblems)?
                } else {
                    let d = split.unwrap_or_else(|| csp_queens::constellation::default_depth(*n));
                    Job::queens(*n, d)?
                };
                (job, run)
            }
            Command::Latin { n, run } => (Job::latin(*n, run.subproblems)?, run),
        };
        if !run.count {
            return Err("csp-mpi counts: add --count".into());
        }
        if !(run.progress.is_finite() && run.progress >= 0.0) {
            return Err(format!(
                "--progress expects a number of seconds, got {}",
                run.progress
            ));
        }
        let options = RunOptions {
            journal: run.journal.clone(),
            resume: run.resume.clone(),
            stop_after: run.stop_after,
            batch: run.batch.map(|b| b as usize),
            progress: (run.progress > 0.0).then(|| Duration::from_secs_f64(run.progress)),
            dedicated_master: run.dedicated_master,
        };
        Ok((job, options))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<(Job, RunOptions), String> {
        let cli = Cli::try_parse_from(std::iter::once("csp-mpi").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        cli.job()
    }

    #[test]
    fn command_lines() {
        let (job, o) = parse(&["queens", "12", "--count"]).unwrap();
        assert_eq!(job.name(), "queens 12 --split 1");
        assert_eq!(o.progress, Some(Duration::from_secs(5)));
        let (job, o) = parse(&[
            "queens",
            "16",
            "--count",
            "--split",
            "2",
            "--journal",
            "j",
            "--stop-after",
            "5",
            "--progress",
            "0",
        ])
        .unwrap();
        assert_eq!(job.name(), "queens 16 --split 2");
        assert_eq!(o.journal, Some(PathBuf::from("j")));
        assert_eq!((o.stop_after, o.progress), (Some(5), None));
        let (job, _) =
            parse(&["queens", "8", "--count", "--generic", "--subproblems", "9"]).unwrap();
        assert_eq!(job.name(), "queens 8 --generic --subproblems 9");
        let (job, _) = parse(&["latin", "4", "--count"]).unwrap();
        assert_eq!(job.name(), "latin 4 --subproblems 256");
    }

    #[test]
    fn bad_command_lines() {
        assert!(parse(&["queens", "8"]).unwrap_err().contains("--count"));
        assert!(parse(&["queens", "8", "--count", "--split", "1", "--generic"]).is_err());
        assert!(parse(&["queens", "8", "--count", "--batch", "0"]).is_err());
        assert!(parse(&["queens", "8", "--count", "--progress", "-1"]).is_err());
        assert!(parse(&["queens", "x", "--count"]).is_err());
        assert!(parse(&["latin", "0", "--count"]).is_err());
    }
}
