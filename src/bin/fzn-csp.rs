//! `fzn-csp`: csp as a FlatZinc solver, the executable MiniZinc runs
//! (`share/minizinc/solvers/csp.msc`). Everything is in [`csp_fzn::cli`].

fn main() -> std::process::ExitCode {
    csp_fzn::cli::main()
}
