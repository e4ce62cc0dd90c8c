//! `mpirun -np K csp-mpi queens N --count [...]`: rank 0 is the master,
//! ranks 1 to K − 1 count. See the library ([`csp_mpi`]) and
//! `docs/scale-out.md`.

use std::process::ExitCode;

use clap::Parser;
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};

use csp_mpi::cli::Cli;
use csp_mpi::master::{self, FromWorker, Hub, Joined, Link, Master};
use csp_mpi::wire;

/// Rank 0's end: workers are ranks 1.., numbered from 0.
struct MpiHub<'w> {
    world: &'w SimpleCommunicator,
}

impl Hub for MpiHub<'_> {
    fn try_receive(&mut self) -> Option<(usize, FromWorker)> {
        let probed = self.world.any_process().immediate_matched_probe()?;
        let (source, tag) = (probed.1.source_rank(), probed.1.tag());
        let worker = usize::try_from(source - 1).unwrap_or(usize::MAX);
        let decoded = match tag {
            wire::FAILED => {
                let (bytes, _) = probed.matched_receive_vec::<u8>();
                wire::decode_failure(&bytes).map(|(i, why)| FromWorker::Failed(i, why))
            }
            _ => {
                let (words, _) = probed.matched_receive_vec::<u64>();
                wire::decode_counts(&words).map(FromWorker::Counts)
            }
        };
        // A message that does not decode is a bug of this program (every
        // rank runs it): stop the job rather than guess.
        match decoded {
            Some(m) if worker != usize::MAX => Some((worker, m)),
            _ => {
                eprintln!("error: a malformed message from rank {source}");
                self.world.abort(2)
            }
        }
    }

    fn send(&mut self, worker: usize, batch: &[usize]) {
        let words = wire::encode_batch(batch);
        self.world
            .process_at_rank(worker as i32 + 1)
            .send_with_tag(&words[..], wire::BATCH);
    }
}

/// A worker's end.
struct MpiLink<'w> {
    world: &'w SimpleCommunicator,
}

impl Link for MpiLink<'_> {
    fn send(&mut self, message: FromWorker) {
        let master = self.world.process_at_rank(0);
        match message {
            FromWorker::Counts(counts) => {
                master.send_with_tag(&wire::encode_counts(&counts)[..], wire::COUNTS)
            }
            FromWorker::Failed(i, why) => {
                master.send_with_tag(&wire::encode_failure(i, &why)[..], wire::FAILED)
            }
        }
    }

    fn receive(&mut self) -> Vec<usize> {
        let (words, _) = self
            .world
            .process_at_rank(0)
            .receive_vec_with_tag::<u64>(wire::BATCH);
        match wire::decode_batch(&words) {
            Some(b) => b,
            None => {
                eprintln!("error: a malformed batch from rank 0");
                self.world.abort(2)
            }
        }
    }
}

/// `threads`: whether MPI allows rank 0 a counting thread of its own.
fn run(world: &SimpleCommunicator, threads: bool) -> u8 {
    let rank = world.rank();
    let workers = (world.size() - 1) as usize;
    // Every rank parses the same arguments and builds the same list, so an
    // error here is the same everywhere: rank 0 says it, all stop.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if rank == 0 {
                let _ = e.print();
            }
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let (job, options) = match cli.job() {
        Ok(j) => j,
        Err(e) => {
            if rank == 0 {
                eprintln!("error: {e}");
            }
            return 2;
        }
    };
    if rank != 0 {
        master::work(&job, &mut MpiLink { world });
        return 0;
    }
    // Rank 0 counts too, in a thread that does not call MPI, unless told
    // not to.
    let local = usize::from(threads && !options.dedicated_master);
    if workers + local == 0 {
        eprintln!(
            "error: nothing would count: rank 0 only hands out work (--dedicated-master, or \
             an MPI without threads), so run at least 2 ranks"
        );
        return 2;
    }
    match Master::new(&job, &options, workers + local) {
        Ok(mut m) => {
            let (second, links) = master::channels(local);
            let mut hub = Joined {
                first: MpiHub { world },
                first_workers: workers,
                second,
            };
            std::thread::scope(|s| {
                for mut link in links {
                    let job = &job;
                    s.spawn(move || master::work(job, &mut link));
                }
                m.serve(&mut hub);
            });
            m.finish()
        }
        Err(e) => {
            eprintln!("error: {e}");
            // Stop the workers, which are waiting for work.
            Master::idle(&job, workers).serve(&mut MpiHub { world });
            2
        }
    }
}

fn main() -> ExitCode {
    // Rank 0's counting thread never calls MPI: only the main thread does.
    let Some((universe, level)) = mpi::initialize_with_threading(mpi::Threading::Funneled) else {
        eprintln!("error: MPI could not be initialised");
        return ExitCode::from(2);
    };
    let threads = level != mpi::Threading::Single;
    let code = run(&universe.world(), threads);
    drop(universe);
    ExitCode::from(code)
}
