//! The docs test: every `csp` command that `README.md` and `docs/*.md` show
//! with its output is run here, and its output compared with the page.
//!
//! # The markup a page follows
//!
//! * A fenced block with the info string `console` is a shell session. Each
//!   line that starts with `$ ` is a command; the lines after it, up to the
//!   next `$ ` line or the end of the block, are what it prints (stdout and
//!   stderr together, in the order written). A command that ends with ` \`
//!   continues on the next line.
//! * In the expected output, `[..]` stands for any text within one line and
//!   a line that is only `...` for any number of lines (the `trycmd`
//!   conventions). Use them only for what legitimately varies from run to
//!   run or machine to machine (times, rates, the core count, the memory
//!   available) or to shorten a long listing, and always at the place where
//!   the varying text stands: nothing is masked anywhere else.
//! * Commands shown without their output go in `sh` blocks, without a `$ `
//!   prompt; they are not run. A `$ ` prompt in any block other than
//!   `console` fails the test, so that a session cannot escape it by its
//!   info string.
//!
//! * A table whose header has a `rung` and a `command` column (the
//!   teaching ladder) lists commands shown without output; each is run
//!   and must exit with 0.
//! * `{{#include FILE:ANCHOR}}` (mdBook) must name a file, relative to the
//!   page, with `// ANCHOR: name` … `// ANCHOR_END: name` around code.
//!
//! # How the sessions run
//!
//! Each page's sessions run in order, in one scratch folder of the page
//! (files written by one command, e.g. `2> err.txt`, are there for the next),
//! by `sh -c` with `csp` and `fzn-csp` on the `PATH` as this build's binaries. The scratch
//! folder links every top-level entry of the repository (`examples/`,
//! `docs/`, ...), and `../shared` beside it links the repository's
//! `../shared` when there is one, so the pages' relative paths are those of
//! a reader at the repository root. Each command has 60 seconds. Since
//! `docs/` there is the repository's own, a session that writes a picture
//! into `docs/pictures/` (as the N-queens chapter does) regenerates the
//! picture the book shows on every run, so it cannot go stale (a change
//! shows up in `git status`).
//!
//! `DOCS_BLESS=1 cargo test --test docs` writes the actual output into the
//! pages instead of failing, keeping each `[..]` line that still matches;
//! review the diff, then put back the `...` elisions and masks it dropped.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const TIMEOUT: Duration = Duration::from_secs(60);

/// README.md and every `docs/*.md`, relative to the repository root.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("read docs/")
        .map(|e| e.expect("docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| p.strip_prefix(ROOT).unwrap().to_path_buf())
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A fenced code block: its info string, the 1-based line of its opening
/// fence, and its lines (the fence's indentation removed).
struct Block {
    info: String,
    line: usize,
    /// The index of each content line in the page, for rewriting it.
    first: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        let indent = lines[i].len() - trimmed.len();
        if let Some(info) = trimmed.strip_prefix("```") {
            let mut block = Block {
                info: info.trim().to_string(),
                line: i + 1,
                first: i + 1,
                lines: Vec::new(),
            };
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                let l = lines[i];
                let cut = l.len() - l.trim_start().len();
                block.lines.push(l[cut.min(indent)..].to_string());
                i += 1;
            }
            out.push(block);
        }
        i += 1;
    }
    out
}

/// One command of a session and the output the page shows for it.
struct Step {
    command: String,
    /// 1-based line of the command in the page.
    line: usize,
    /// Page line index of the first expected output line.
    first: usize,
    expected: Vec<String>,
}

fn steps(block: &Block) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut continued = false;
    for (k, l) in block.lines.iter().enumerate() {
        if continued {
            let step = out.last_mut().unwrap();
            step.command.push('\n');
            step.command.push_str(l);
            continued = l.ends_with('\\');
            step.first = block.first + k + 1;
        } else if let Some(cmd) = l.strip_prefix("$ ") {
            out.push(Step {
                command: cmd.to_string(),
                line: block.first + k + 1,
                first: block.first + k + 1,
                expected: Vec::new(),
            });
            continued = l.ends_with('\\');
        } else {
            let step = out
                .last_mut()
                .unwrap_or_else(|| panic!("line {}: output before any `$ ` command", block.line));
            step.expected.push(l.clone());
        }
    }
    out
}

/// Does one line match one expected line, where `[..]` is any text?
fn line_matches(pattern: &str, actual: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Do the actual lines match the expected ones, where a `...` line is any
/// number of lines?
fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => {
            (0..=actual.len()).any(|k| lines_match(rest, &actual[k..]))
        }
        Some((e, rest)) => {
            !actual.is_empty() && line_matches(e, &actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

/// Trailing blanks and trailing empty lines are not compared.
fn normalise(lines: &[String]) -> Vec<String> {
    let mut v: Vec<String> = lines.iter().map(|l| l.trim_end().to_string()).collect();
    while v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

/// The scratch folder of a page: `DIR/repo` links the repository's entries,
/// `DIR/shared` its `../shared`, `DIR/bin/csp` this build's binary.
fn scratch(page: &Path) -> (PathBuf, PathBuf) {
    let name = page.to_string_lossy().replace(['/', '.'], "_");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    let repo = dir.join("repo");
    let bin = dir.join("bin");
    fs::create_dir_all(&repo).unwrap();
    fs::create_dir_all(&bin).unwrap();
    let link = |from: &Path, to: &Path| std::os::unix::fs::symlink(from, to).unwrap();
    link(Path::new(env!("CARGO_BIN_EXE_csp")), &bin.join("csp"));
    link(
        Path::new(env!("CARGO_BIN_EXE_fzn-csp")),
        &bin.join("fzn-csp"),
    );
    for e in fs::read_dir(ROOT).unwrap() {
        let e = e.unwrap();
        let n = e.file_name();
        let s = n.to_string_lossy();
        if s == ".git" || s.starts_with("target") {
            continue;
        }
        link(&e.path(), &repo.join(&n));
    }
    let shared = Path::new(ROOT).join("../shared");
    if shared.exists() {
        link(&shared.canonicalize().unwrap(), &dir.join("shared"));
    }
    (repo, bin)
}

/// Runs one command; its output with stderr merged into stdout.
fn run(command: &str, cwd: &Path, bin: &Path) -> Result<Vec<String>, String> {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(cwd)
        .env("PATH", path)
        .env("LC_ALL", "C")
        .env_remove("RUST_LOG")
        .env_remove("CSP_SIMD")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run sh: {e}"))?;
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut buf).map(|_| buf)
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TIMEOUT {
            child.kill().ok();
            child.wait().ok();
            return Err(format!("still running after {TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let buf = reader.join().unwrap().map_err(|e| e.to_string())?;
    let text = String::from_utf8(buf).map_err(|e| format!("output is not UTF-8: {e}"))?;
    Ok(text.lines().map(str::to_string).collect())
}

/// The actual lines as the page should show them: each expected line that
/// still matches (masks included) is kept, in order; the rest is the actual
/// text.
fn blessed(expected: &[String], actual: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut j = 0;
    for a in actual {
        match (j..expected.len()).find(|&k| expected[k] != "..." && line_matches(&expected[k], a)) {
            Some(k) => {
                out.push(expected[k].clone());
                j = k + 1;
            }
            None => out.push(a.clone()),
        }
    }
    out
}

#[test]
fn every_command_shown_with_its_output_prints_that_output() {
    let bless = std::env::var_os("DOCS_BLESS").is_some();
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let text = fs::read_to_string(Path::new(ROOT).join(&page)).unwrap();
        let mut sessions = Vec::new();
        for block in blocks(&text) {
            let word = block.info.split([',', ' ']).next().unwrap_or("");
            if word == "console" {
                sessions.push(block);
            } else if let Some(k) = block.lines.iter().position(|l| l.starts_with("$ ")) {
                failures.push(format!(
                    "{}:{}: a `$ ` command in a `{}` block: make it a `console` block \
                     (run and compared) or drop the prompt (an `sh` block, not run)",
                    page.display(),
                    block.first + k + 1,
                    block.info
                ));
            }
        }
        if sessions.is_empty() {
            continue;
        }
        let (cwd, bin) = scratch(&page);
        // Page line index -> replacement lines, for DOCS_BLESS.
        let mut rewrites: BTreeMap<usize, (usize, Vec<String>)> = BTreeMap::new();
        for block in &sessions {
            for step in steps(block) {
                ran += 1;
                let expected = normalise(&step.expected);
                let where_ = format!("{}:{}", page.display(), step.line);
                match run(&step.command, &cwd, &bin) {
                    Err(e) => failures.push(format!("{where_}: `{}`: {e}", step.command)),
                    Ok(actual) => {
                        let actual = normalise(&actual);
                        if lines_match(&expected, &actual) {
                            continue;
                        }
                        if bless {
                            let new = blessed(&expected, &actual);
                            rewrites.insert(step.first, (expected.len(), new));
                        } else {
                            failures.push(format!(
                                "{where_}: `{}` printed\n{}\n--- but the page shows\n{}\n---",
                                step.command,
                                actual.join("\n"),
                                expected.join("\n"),
                            ));
                        }
                    }
                }
            }
        }
        if bless && !rewrites.is_empty() {
            let ending = text.ends_with('\n');
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            for (&first, (len, new)) in rewrites.iter().rev() {
                let indent: String = lines[first - 1].chars().take_while(|c| *c == ' ').collect();
                let new: Vec<String> = new
                    .iter()
                    .map(|l| {
                        if l.is_empty() {
                            String::new()
                        } else {
                            format!("{indent}{l}")
                        }
                    })
                    .collect();
                lines.splice(first..first + len, new);
            }
            let mut out = lines.join("\n");
            if ending {
                out.push('\n');
            }
            fs::write(Path::new(ROOT).join(&page), out).unwrap();
            eprintln!(
                "DOCS_BLESS: rewrote {} outputs in {}",
                rewrites.len(),
                page.display()
            );
        }
    }
    assert!(ran > 0, "no `console` session found in the pages");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The links of a page, outside code blocks and inline code: `](target)`.
/// (Reference-style links are not used in these pages.)
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop inline code spans.
        let mut plain = String::new();
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push((i + 1, rest[..end].to_string()));
                rest = &rest[end..];
            }
        }
    }
    out
}

/// The anchors of a page's headings, as mdBook makes them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let id: String = title
            .chars()
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c.to_lowercase().next().unwrap())
                } else if c.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        out.insert(id);
    }
    out
}

#[test]
fn the_book_lists_every_page_and_every_relative_link_resolves() {
    let summary = fs::read_to_string(Path::new(ROOT).join("docs/SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().map(|(_, t)| t).collect();
    let mut problems = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(Path::new(ROOT).join(&page)).unwrap();
        if let Ok(in_docs) = page.strip_prefix("docs") {
            let name = in_docs.to_string_lossy().to_string();
            if name != "SUMMARY.md" && !listed.contains(&name) {
                problems.push(format!("docs/{name} is not listed in docs/SUMMARY.md"));
            }
        }
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") || target.starts_with('<') {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let dir = page.parent().unwrap();
            let path = if file.is_empty() {
                Path::new(ROOT).join(&page)
            } else {
                Path::new(ROOT).join(dir).join(file)
            };
            if !path.exists() {
                problems.push(format!("{}:{line}: {target}: no such file", page.display()));
                continue;
            }
            // The book is built from docs/ alone, and SUMMARY.md is its table
            // of contents, not a page: a chapter's link must stay inside.
            if page.starts_with("docs") {
                let inside = path.canonicalize().unwrap();
                let docs = Path::new(ROOT).join("docs").canonicalize().unwrap();
                if !inside.starts_with(&docs) || inside == docs.join("SUMMARY.md") {
                    problems.push(format!(
                        "{}:{line}: {target}: not a page of the book",
                        page.display()
                    ));
                }
            }
            if let Some(anchor) = anchor {
                let target_text = fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&target_text).contains(anchor) {
                    problems.push(format!(
                        "{}:{line}: {target}: no such heading",
                        page.display()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn masks_match_only_the_text_they_stand_for() {
    assert!(line_matches("time: [..] ms", "time: 0.033 ms"));
    assert!(line_matches("a [..] b [..] c", "a 1 b 2 c"));
    assert!(!line_matches(
        "nodes: 10, time: [..]",
        "nodes: 11, time: 0.033 ms"
    ));
    assert!(!line_matches("x [..] y", "x 1 z"));
    assert!(line_matches("plain", "plain"));
    assert!(!line_matches("plain", "plain "));
    let v = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(lines_match(
        &v(&["a", "...", "z"]),
        &v(&["a", "b", "c", "z"])
    ));
    assert!(lines_match(&v(&["a", "...", "z"]), &v(&["a", "z"])));
    assert!(!lines_match(&v(&["a", "...", "z"]), &v(&["a", "b"])));
    assert!(!lines_match(&v(&["a"]), &v(&["a", "b"])));
    // Blessing keeps the masked lines that still match and takes the rest.
    assert_eq!(
        blessed(&v(&["n: 1, t: [..]", "old"]), &v(&["n: 1, t: 5", "new"])),
        v(&["n: 1, t: [..]", "new"])
    );
}

/// The cells of a Markdown table row `| a | b |`, trimmed.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

/// The commands of the ladder tables, whose header has a `rung` and a
/// `command` column: each row's inline code there that starts with `csp `,
/// with its page line. (Other tables with commands, such as the
/// benchmarks', record runs of other versions and files.)
fn table_commands(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut fenced = false;
    let mut column: Option<usize> = None;
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('|') {
            column = None;
            continue;
        }
        let row = cells(line);
        if column.is_none() {
            // A header is followed by its `|---|` line.
            if lines
                .get(i + 1)
                .is_some_and(|l| l.starts_with("|-") || l.starts_with("| -"))
            {
                let ladder = row.iter().any(|c| c.eq_ignore_ascii_case("rung"));
                column = row
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case("command"))
                    .filter(|_| ladder);
            }
            continue;
        }
        let Some(cell) = column.and_then(|k| row.get(k)) else {
            continue;
        };
        for (k, part) in cell.split('`').enumerate() {
            if k % 2 == 1 && part.starts_with("csp ") {
                out.push((i + 1, part.to_string()));
            }
        }
    }
    out
}

#[test]
fn ladder_commands_are_found_in_ladder_tables_only() {
    let page = "| rung | command |\n|---|---|\n| 1 | `csp queens 4` and `ls` |\n\n\
                | other | x |\n|---|---|\n| `csp no` | `csp no` |\n\n\
                | command | time |\n|---|---|\n| `csp no` | 1 s |\n";
    assert_eq!(table_commands(page), vec![(3, "csp queens 4".to_string())]);
}

/// A command of a ladder table (the teaching ladder of the README and the
/// N-queens chapter) runs as written and exits with 0.
#[test]
fn every_command_of_a_ladder_table_runs() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let text = fs::read_to_string(Path::new(ROOT).join(&page)).unwrap();
        let commands = table_commands(&text);
        if commands.is_empty() {
            continue;
        }
        let (cwd, bin) = scratch(&Path::new("tables").join(&page));
        for (line, command) in commands {
            ran += 1;
            match run(&format!("{command}\necho \"[exit $?]\""), &cwd, &bin) {
                Ok(out) if out.last().map(String::as_str) == Some("[exit 0]") => {}
                Ok(out) => failures.push(format!(
                    "{}:{line}: `{command}` printed\n{}",
                    page.display(),
                    out.join("\n")
                )),
                Err(e) => failures.push(format!("{}:{line}: `{command}`: {e}", page.display())),
            }
        }
    }
    assert!(ran > 0, "no ladder table found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The `{{#include FILE:ANCHOR}}` lines of a page: its line, the file
/// (relative to the page) and the anchor, if any.
fn includes(text: &str) -> Vec<(usize, String, Option<String>)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("{{#include ") {
            rest = &rest[at + "{{#include ".len()..];
            let Some(end) = rest.find("}}") else { break };
            let target = rest[..end].trim();
            let (file, anchor) = match target.rsplit_once(':') {
                Some((f, a)) if !a.chars().all(|c| c.is_ascii_digit() || c == ':') => {
                    (f.to_string(), Some(a.to_string()))
                }
                _ => (target.to_string(), None),
            };
            out.push((i + 1, file, anchor));
            rest = &rest[end..];
        }
    }
    out
}

/// Every `{{#include}}` of the book names a file that exists and, when it
/// names an anchor, a file with `ANCHOR: name` and then `ANCHOR_END: name`
/// around at least one line of code: the code the book shows is the code
/// that runs.
#[test]
fn every_included_file_and_anchor_exists() {
    let mut problems = Vec::new();
    let mut seen = 0;
    for page in pages() {
        let text = fs::read_to_string(Path::new(ROOT).join(&page)).unwrap();
        for (line, file, anchor) in includes(&text) {
            seen += 1;
            let path = Path::new(ROOT).join(page.parent().unwrap()).join(&file);
            let Ok(source) = fs::read_to_string(&path) else {
                problems.push(format!("{}:{line}: {file}: no such file", page.display()));
                continue;
            };
            let Some(anchor) = anchor else { continue };
            let lines: Vec<&str> = source.lines().collect();
            let start = lines
                .iter()
                .position(|l| l.trim() == format!("// ANCHOR: {anchor}"));
            let end = lines
                .iter()
                .position(|l| l.trim() == format!("// ANCHOR_END: {anchor}"));
            match (start, end) {
                (Some(s), Some(e)) if e > s + 1 => {}
                _ => problems.push(format!(
                    "{}:{line}: {file}: no anchor `{anchor}` around code",
                    page.display()
                )),
            }
        }
    }
    assert!(seen > 0, "no {{{{#include}}}} in the book");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
