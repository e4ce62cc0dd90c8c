//! # csp-mpi: counting across machines with MPI
//!
//! `mpirun -np K csp-mpi queens N --count` counts the `N`-queens solutions
//! with `K − 1` workers: rank 0 hands out the subproblems of a split count
//! in small batches, on request (their costs vary, so a static split would
//! balance badly), journals each count as it comes back, and prints the
//! total, checked against the known one. `--resume JOURNAL` skips what a
//! journal holds, since a lost rank aborts an MPI job. The same runs a
//! generic-engine count (`queens N --generic`, `latin N`) through the
//! library's split ([`csp_core::Search::subproblems`]).
//!
//! This library holds everything but MPI itself, so that it builds and is
//! tested without Open MPI: the jobs ([`job`]), the master's bookkeeping and
//! the protocol over any transport ([`master`]), the encoding of the
//! messages ([`wire`]) and the command line ([`cli`]). The `csp-mpi`
//! binary (feature `mpi`) puts them on MPI. See `docs/scale-out.md`.

pub mod cli;
pub mod job;
pub mod master;
pub mod wire;
