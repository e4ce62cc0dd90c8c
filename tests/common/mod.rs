//! Helpers the command-line tests share: run the `csp` binary built for
//! the tests, with or without standard input.
#![allow(dead_code)] // each test file uses a subset

pub mod browser;

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

/// The elements of a well-formed XML document, by the names of the roots
/// (an error says what is wrong). Checks: one prolog at most, at the
/// start; balanced tags; quoted attributes; text without `<` and with
/// known entities only; nothing but blanks outside the root.
pub fn xml_roots(doc: &str) -> Result<Vec<String>, String> {
    let mut rest = doc;
    if let Some(r) = rest.strip_prefix("<?xml") {
        rest = &r[r.find("?>").ok_or("unterminated prolog")? + 2..];
    }
    let mut stack: Vec<String> = Vec::new();
    let mut roots = Vec::new();
    loop {
        let lt = rest.find('<').unwrap_or(rest.len());
        let text = &rest[..lt];
        if stack.is_empty() && !text.trim().is_empty() {
            return Err(format!("text outside the root: {text:?}"));
        }
        let mut t = text;
        while let Some(amp) = t.find('&') {
            let semi = t[amp..].find(';').ok_or("bare &")?;
            let entity = &t[amp + 1..amp + semi];
            if !["lt", "gt", "amp", "quot", "apos"].contains(&entity) && !entity.starts_with('#') {
                return Err(format!("unknown entity &{entity};"));
            }
            t = &t[amp + semi..];
        }
        if lt == rest.len() {
            break;
        }
        rest = &rest[lt + 1..];
        if let Some(r) = rest.strip_prefix("!--") {
            rest = &r[r.find("-->").ok_or("unterminated comment")? + 3..];
            continue;
        }
        let gt = rest.find('>').ok_or("unterminated tag")?;
        let tag = &rest[..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => continue,
                other => return Err(format!("</{name}> closes {other:?}")),
            }
        }
        let (body, closed) = match tag.strip_suffix('/') {
            Some(b) => (b, true),
            None => (tag, false),
        };
        let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
        let name = &body[..name_end];
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == ':')
        {
            return Err(format!("bad tag name in <{tag}>"));
        }
        // Attributes: name="value", separated by blanks.
        let mut attrs = body[name_end..].trim();
        while !attrs.is_empty() {
            let eq = attrs
                .find("=\"")
                .ok_or(format!("unquoted attribute in <{tag}>"))?;
            let value = &attrs[eq + 2..];
            let close = value
                .find('"')
                .ok_or(format!("unterminated value in <{tag}>"))?;
            if value[..close].contains('<') {
                return Err(format!("< in an attribute of <{tag}>"));
            }
            attrs = value[close + 1..].trim_start();
        }
        if stack.is_empty() {
            roots.push(name.to_string());
        }
        if !closed {
            stack.push(name.to_string());
        }
    }
    if let Some(open) = stack.last() {
        return Err(format!("<{open}> is never closed"));
    }
    Ok(roots)
}

/// The seed of the fuzz tests' random cases unless `CSP_FUZZ_SEED` (or
/// proptest's own `PROPTEST_RNG_SEED`) says otherwise.
pub const FUZZ_SEED: u64 = 0x00C5_9F00_2032;

/// proptest's configuration for the fuzz tests (`fuzz_parsers.rs`,
/// `fuzz_fzn.rs`): `default_cases` cases from the fixed seed
/// [`FUZZ_SEED`], so that every run, CI's among them, tries the same
/// inputs (a failure found elsewhere is kept in the test's
/// `.proptest-regressions` file and tried first). For longer runs,
/// `CSP_FUZZ_CASES=N` sets the number of cases and `CSP_FUZZ_SEED=S`
/// another seed, or `CSP_FUZZ_SEED=random` a new one every run (proptest
/// prints it with a failure).
pub fn fuzz_config(default_cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let cases = match env("CSP_FUZZ_CASES") {
        Some(n) => n
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("CSP_FUZZ_CASES: '{n}' is not a number of cases")),
        None => default_cases,
    };
    let mut config = Config::with_cases(cases);
    if config.rng_seed == RngSeed::Random {
        config.rng_seed = match env("CSP_FUZZ_SEED").as_deref().map(str::trim) {
            Some("random") => RngSeed::Random,
            Some(s) => RngSeed::Fixed(
                s.parse()
                    .unwrap_or_else(|_| panic!("CSP_FUZZ_SEED: '{s}' is not a u64 or 'random'")),
            ),
            None => RngSeed::Fixed(FUZZ_SEED),
        };
    }
    config
}
