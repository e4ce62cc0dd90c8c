//! What a run counts: a list of subproblems that every rank computes alike,
//! the count of one of them, and the journal lines that record counts.
//!
//! * `queens N` (the constellation counter): the list of `csp queens N
//!   --count --split D`; journal lines `N D index count`, the format of
//!   `csp queens merge`.
//! * `queens N --generic` and `latin N` (the generic engine): the list of
//!   [`Search::subproblems`] of the model; journal lines `index count` under
//!   a header line that names the job, which `--resume` requires.

use std::collections::BTreeMap;

use csp_core::{Model, Outcome, Search, SearchOptions, Subproblem};
use csp_latin::model::{counting_model, Counting};
use csp_queens::constellation::Split;
use csp_queens::journal::{self, LineError, Tally};
use csp_queens::model::{queens_model, ModelKind};

/// The number of Latin squares of order `n = 0..=8` (OEIS A002860), to
/// check totals against. Not used by any counter.
pub const A002860: [u128; 9] = [
    1,
    1,
    2,
    12,
    576,
    161_280,
    812_851_200,
    61_479_419_904_000,
    108_776_032_459_082_956_800,
];

/// The subproblems a generic-engine job asks for by default (as
/// [`Search::par_count`]).
pub const DEFAULT_SUBPROBLEMS: usize = 256;

enum Kind {
    /// The constellation counter's split.
    Queens(Split),
    /// A generic-engine count: each subproblem's count times `factor`.
    Generic {
        model: Box<Model>,
        options: SearchOptions,
        subs: Vec<Subproblem>,
        factor: u128,
    },
}

/// One counting job: the list of subproblems and how to count one.
pub struct Job {
    kind: Kind,
    /// `queens 16 --split 0`, `latin 6 --subproblems 256`.
    name: String,
    /// The known total and what it is, when there is one.
    known: Option<(u128, String)>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("name", &self.name)
            .field("len", &self.len())
            .finish()
    }
}

impl Job {
    /// `queens n` with the constellation counter, split at depth `depth`.
    ///
    /// # Errors
    ///
    /// A board too large or a split too deep for the counter.
    pub fn queens(n: usize, depth: usize) -> Result<Job, String> {
        let split = Split::new(n, depth).map_err(|e| e.to_string())?;
        Ok(Job {
            kind: Kind::Queens(split),
            name: format!("queens {n} --split {depth}"),
            known: known_queens(n),
        })
    }

    /// `queens n` with the generic engine (the all-different model, default
    /// search options), split into at least `target` subproblems.
    ///
    /// # Errors
    ///
    /// A board the model does not accept.
    pub fn queens_generic(n: usize, target: usize) -> Result<Job, String> {
        let q = queens_model(n, ModelKind::AllDifferent).map_err(|e| e.to_string())?;
        let name = format!("queens {n} --generic --subproblems {target}");
        Job::generic(
            name,
            q.model,
            SearchOptions::default(),
            1,
            target,
            known_queens(n),
        )
    }

    /// The Latin squares of order `n` with the generic engine: the reduced
    /// squares (the model of `csp_latin`), each count times `n!·(n−1)!`.
    ///
    /// # Errors
    ///
    /// An order the model does not accept.
    pub fn latin(n: usize, target: usize) -> Result<Job, String> {
        if n == 0 {
            return Err("latin squares need an order from 1".into());
        }
        let (model, factor) = counting_model(n, Counting::Reduced).map_err(|e| e.to_string())?;
        let name = format!("latin {n} --subproblems {target}");
        let known = A002860
            .get(n)
            .map(|&k| (k, format!("L({n}) (OEIS A002860)")));
        Job::generic(
            name,
            model,
            csp_latin::model::options(),
            factor,
            target,
            known,
        )
    }

    fn generic(
        name: String,
        model: Model,
        options: SearchOptions,
        factor: u128,
        target: usize,
        known: Option<(u128, String)>,
    ) -> Result<Job, String> {
        if target == 0 {
            return Err("--subproblems must be at least 1".into());
        }
        let subs = Search::new(&model)
            .options(options.clone())
            .subproblems(target)
            .map_err(|l| format!("the split stopped: {l:?}"))?;
        Ok(Job {
            kind: Kind::Generic {
                model: Box::new(model),
                options,
                subs,
                factor,
            },
            name,
            known,
        })
    }

    /// The job as given on the command line (`queens 16 --split 0`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of subproblems.
    pub fn len(&self) -> usize {
        match &self.kind {
            Kind::Queens(split) => split.len(),
            Kind::Generic { subs, .. } => subs.len(),
        }
    }

    /// Whether there are no subproblems (`queens 2`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The known total and what it is (`Q(16) (OEIS A000170)`).
    pub fn known(&self) -> Option<(u128, &str)> {
        self.known.as_ref().map(|(k, what)| (*k, what.as_str()))
    }

    /// The count of subproblem `index`.
    ///
    /// # Errors
    ///
    /// An index out of range, or an engine count that did not complete
    /// (which names the constraint that let a non-solution through).
    pub fn count(&self, index: usize) -> Result<u128, String> {
        if index >= self.len() {
            return Err(format!(
                "subproblem {index} is out of range ({} subproblems)",
                self.len()
            ));
        }
        match &self.kind {
            Kind::Queens(split) => Ok(split.count_one(index)),
            Kind::Generic {
                model,
                options,
                subs,
                factor,
            } => {
                let r = Search::new(model)
                    .options(options.clone())
                    .count_subproblem(&subs[index])
                    .map_err(|e| e.to_string())?;
                match r.outcome {
                    Outcome::Solved | Outcome::Unsatisfiable => Ok(r.count * factor),
                    other => Err(format!(
                        "subproblem {index}: the count ended with {other:?}"
                    )),
                }
            }
        }
    }

    /// The first line of a journal of this job (a comment for `csp queens
    /// merge`).
    pub fn header(&self) -> String {
        format!("# csp-mpi {}: {} subproblems", self.name, self.len())
    }

    /// The journal line of one count (without the newline).
    pub fn line(&self, index: usize, count: u128) -> String {
        match &self.kind {
            Kind::Queens(split) => format!("{} {} {index} {count}", split.n(), split.depth()),
            Kind::Generic { .. } => format!("{index} {count}"),
        }
    }

    /// The counts a journal holds, by index.
    ///
    /// A last line without its newline (a run stopped while writing it)
    /// must have been cut off by the caller. Blank lines and `#` comments
    /// are skipped; a first line `# csp-mpi ...` must be this job's
    /// [`header`](Job::header), and a generic job's journal must start with
    /// it.
    ///
    /// # Errors
    ///
    /// `file:line:column: message` for a malformed line, a line of another
    /// split, a header of another job; `file:line: ...` for an index out of
    /// range or two different counts of one subproblem (both places).
    pub fn read_journal(&self, file: &str, text: &str) -> Result<BTreeMap<usize, u128>, String> {
        let first = text.lines().next().unwrap_or("");
        let header = self.header();
        let generic = matches!(self.kind, Kind::Generic { .. });
        if (first.starts_with("# csp-mpi") || generic) && first != header {
            return Err(format!(
                "{file}:1:1: not a journal of this job: expected the line '{header}'"
            ));
        }
        let entries: Vec<(usize, u128, String)> = match &self.kind {
            Kind::Queens(split) => {
                let entries = journal::parse_text(file, text).map_err(|e| e.to_string())?;
                journal::same_split(&entries, Some((split.n(), split.depth())))?;
                entries
                    .into_iter()
                    .map(|e| (e.index, e.count, e.place))
                    .collect()
            }
            Kind::Generic { .. } => parse_generic(file, text).map_err(|e| e.to_string())?,
        };
        let tally = Tally::new(entries, self.len());
        if let Some(p) = tally.problems.first() {
            return Err(p.to_string());
        }
        Ok(tally.counts.into_iter().map(|(i, (c, _))| (i, c)).collect())
    }
}

fn known_queens(n: usize) -> Option<(u128, String)> {
    journal::A000170
        .get(n)
        .map(|&k| (k, format!("Q({n}) (OEIS A000170)")))
}

/// The `index count` lines of a generic journal.
fn parse_generic(file: &str, text: &str) -> Result<Vec<(usize, u128, String)>, LineError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let lineno = i + 1;
        if let Some([index, (_, count)]) =
            journal::parse_fields(file, lineno, line, ["index", "count"])?
        {
            let index = journal::small(file, lineno, index, "index")?;
            entries.push((index, count, format!("{file}:{lineno}")));
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_to_the_known_totals() {
        let jobs = [
            Job::queens(9, 1).unwrap(),
            Job::queens_generic(8, 30).unwrap(),
            Job::latin(4, 5).unwrap(),
        ];
        for job in &jobs {
            let total: u128 = (0..job.len()).map(|i| job.count(i).unwrap()).sum();
            assert_eq!(Some(total), job.known().map(|k| k.0), "{}", job.name());
        }
        assert!(jobs[1].len() >= 30);
        assert!(jobs[0].count(jobs[0].len()).is_err());
    }

    #[test]
    fn latin_totals_match_the_reduced_counts() {
        // A002860 against the reduced counts of A000315 times n!(n-1)!.
        let reduced: [u128; 9] = [1, 1, 1, 1, 4, 56, 9408, 16_942_080, 535_281_401_856];
        for (n, r) in reduced.iter().enumerate().skip(1) {
            let f: u128 = (1..=n as u128).product::<u128>() * (1..n as u128).product::<u128>();
            assert_eq!(r * f, A002860[n], "n = {n}");
        }
    }

    #[test]
    fn journals_round_trip_and_errors_are_placed() {
        let job = Job::queens(8, 1).unwrap();
        let text = format!("{}\n{}\n{}\n", job.header(), job.line(0, 4), job.line(3, 8));
        let counts = job.read_journal("j", &text).unwrap();
        assert_eq!(counts, BTreeMap::from([(0, 4), (3, 8)]));
        let bad = format!("{text}8 1 x 2\n");
        assert_eq!(
            job.read_journal("j", &bad).unwrap_err(),
            "j:4:5: index must be a non-negative integer, got 'x'"
        );
        let conflict = format!("{text}8 1 3 9\n");
        assert_eq!(
            job.read_journal("j", &conflict).unwrap_err(),
            "j:4: subproblem 3 counted 9 here but 8 at j:3"
        );
        let other = format!("{text}9 1 3 9\n");
        assert!(job
            .read_journal("j", &other)
            .unwrap_err()
            .starts_with("j:4: line for n = 9"));
        let past = format!("{text}8 1 99999 9\n");
        assert!(job
            .read_journal("j", &past)
            .unwrap_err()
            .contains("index 99999 is out of range"));
        // A header of another job.
        let other_job = Job::queens(8, 2).unwrap();
        let err = other_job.read_journal("j", &text).unwrap_err();
        assert!(err.starts_with("j:1:1: not a journal of this job"), "{err}");

        let latin = Job::latin(4, 5).unwrap();
        let text = format!("{}\n{}\n", latin.header(), latin.line(2, 144));
        assert_eq!(latin.line(2, 144), "2 144");
        assert_eq!(
            latin.read_journal("l", &text).unwrap(),
            BTreeMap::from([(2, 144)])
        );
        // A generic journal needs its header.
        let err = latin.read_journal("l", "2 144\n").unwrap_err();
        assert!(err.starts_with("l:1:1: not a journal of this job"), "{err}");
        let err = latin
            .read_journal("l", &format!("{}\n2 144 1\n", latin.header()))
            .unwrap_err();
        assert_eq!(err, "l:2:7: expected 2 fields 'index count', found 3");
    }

    #[test]
    fn bad_jobs_are_errors() {
        assert!(Job::queens(40, 0).unwrap_err().contains("too large"));
        assert!(Job::queens(8, 9).unwrap_err().contains("too deep"));
        assert!(Job::latin(0, 10).is_err());
        assert!(Job::latin(11, 10).is_err());
        assert!(Job::latin(4, 0).is_err());
    }
}
