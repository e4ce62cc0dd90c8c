//! `csp minizinc-setup`: registers csp as a MiniZinc solver by writing a
//! solver configuration (`csp.msc`) with the absolute paths of this
//! build's `fzn-csp` and of the repository's MiniZinc library
//! (`share/minizinc/csp`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use super::CliError;

/// Where `csp minizinc-setup` writes by default.
const DEFAULT_DIR: &str = "~/.minizinc/solvers";

#[derive(Parser, Debug)]
pub struct MinizincArgs {
    /// Folder to write csp.msc into (MiniZinc reads ~/.minizinc/solvers,
    /// and every folder in MZN_SOLVER_PATH).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DIR)]
    dir: String,
    /// Print the configuration instead of writing it.
    #[arg(long)]
    print: bool,
}

/// `s` as a JSON string.
pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The `.msc` text for an executable and a library folder.
pub fn msc(executable: &Path, mznlib: &Path) -> String {
    format!(
        r#"{{
  "id": "org.csp.csp",
  "name": "csp",
  "description": "csp, a constraint-satisfaction toolkit in Rust",
  "version": "{}",
  "executable": {},
  "mznlib": {},
  "tags": ["cp", "int"],
  "stdFlags": ["-a", "-i", "-n", "-f", "-p", "-r", "-s", "-t", "-v"],
  "extraFlags": [["--inference", "how constraints without a propagator of their own prune: mac (default) or fc (forward checking)", "opt:mac:fc", "mac"], ["--no-learning", "the ordinary engine instead of the learning search (the default) for one solution and for optimisation", "bool", "false"], ["--learning", "the learning search (the default; kept for old scripts)", "bool", "false"], ["--no-lns", "optimisation with learning, without its neighbourhoods around the best solution (on by default)", "bool", "false"], ["--lns", "the neighbourhoods around the best solution (the default)", "bool", "false"], ["--cumulative-strength", "how cumulative propagates: energetic (default), timetable, energetic-reasoning or ttef", "opt:energetic:timetable:energetic-reasoning:ttef", "energetic"], ["--all-different-strength", "how all_different without a consistency annotation propagates: bounds where the learning search runs, value elsewhere, or domain", "opt:bounds:value:domain", "bounds"], ["--node-limit", "stop after N search nodes", "int", "0"], ["--why-unsat", "on an unsatisfiable model, name a minimal set of its constraints that cannot hold together", "bool", "false"]],
  "supportsMzn": false,
  "supportsFzn": true,
  "needsSolns2Out": true,
  "needsMznExecutable": false,
  "needsStdlibDir": false,
  "isGUIApplication": false
}}
"#,
        env!("CARGO_PKG_VERSION"),
        json_string(&executable.to_string_lossy()),
        json_string(&mznlib.to_string_lossy()),
    )
}

fn expand_home(dir: &str) -> Result<PathBuf, CliError> {
    match dir.strip_prefix("~/") {
        Some(rest) => {
            let home =
                std::env::var_os("HOME").ok_or("HOME is not set; give the folder with --dir")?;
            Ok(PathBuf::from(home).join(rest))
        }
        None => Ok(PathBuf::from(dir)),
    }
}

pub fn run(a: MinizincArgs) -> Result<ExitCode, CliError> {
    let me = std::env::current_exe().map_err(|e| format!("finding this executable: {e}"))?;
    let exe = me.with_file_name(format!("fzn-csp{}", std::env::consts::EXE_SUFFIX));
    if !exe.is_file() {
        return Err(format!(
            "{} does not exist: build it with `cargo build --release` (it is built beside csp)",
            exe.display()
        ));
    }
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("share/minizinc/csp");
    if !lib.is_dir() {
        return Err(format!(
            "the MiniZinc library {} is missing (csp was built from a checkout that moved?)",
            lib.display()
        ));
    }
    let text = msc(&exe, &lib);
    if a.print {
        out!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    let dir = expand_home(&a.dir)?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let file = dir.join("csp.msc");
    std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    out!("wrote {}\n", file.display());
    out!("MiniZinc now runs csp with: minizinc --solver csp model.mzn [data.dzn]\n");
    Ok(ExitCode::SUCCESS)
}
