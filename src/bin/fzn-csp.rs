//! `fzn-csp`: csp as a FlatZinc solver, the executable MiniZinc runs
//! (`share/minizinc/solvers/csp.msc`). Everything is in [`csp_fzn::cli`].

/// The heap counted, so that `--memory-limit` covers building the model
/// (see [`csp_fzn::memory`]).
#[global_allocator]
static HEAP: csp_fzn::memory::Counting = csp_fzn::memory::Counting;

fn main() -> std::process::ExitCode {
    csp_fzn::cli::main()
}
