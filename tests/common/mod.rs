//! Helpers the command-line tests share: run the `csp` binary built for
//! the tests, with or without standard input.
#![allow(dead_code)] // each test file uses a subset

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `csp` with `args` and no input.
pub fn csp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .output()
        .expect("run csp")
}

/// Runs `csp` with `args`, writing `input` to its standard input.
pub fn csp_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run csp");
    let written = child.stdin.take().unwrap().write_all(input.as_bytes());
    // csp may exit before it reads its input (a bad option): a closed pipe
    // then is no failure of the test's own.
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// Bytes as text (lossy).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
