//! The headless browser the page tests use: Debian's `chromium`
//! (`--headless --dump-dom`), or the binary `CSP_CHROMIUM` names. Without
//! one the tests fail with a message, unless `CSP_SKIP_BROWSER=1` is set.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::text;

/// The chromium binary, or `None` when `CSP_SKIP_BROWSER=1` and there is
/// none; without either, the test fails and says what to install.
pub fn chromium() -> Option<String> {
    let name = std::env::var("CSP_CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
    let found = Command::new(&name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        return Some(name);
    }
    if std::env::var("CSP_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("note: CSP_SKIP_BROWSER=1: the page is not tested in a browser");
        return None;
    }
    panic!(
        "the --format html tests need a headless browser: `{name}` was not found \
         (install it: apt-get install -y chromium; or set CSP_CHROMIUM to the binary, \
         or CSP_SKIP_BROWSER=1 to skip these tests)"
    );
}

/// A scratch directory for one test.
pub fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("csp-html-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Loads `page` with `query` in headless chromium, lets the page's timers
/// run for `virtual_ms` of virtual time, and returns the DOM.
pub fn dump_dom(browser: &str, page: &Path, query: &str, virtual_ms: u32) -> String {
    let profile = page.with_extension(format!("profile-{}", query.replace(['=', '&', ','], "-")));
    let url = format!("file://{}?{query}", page.display());
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--virtual-time-budget={virtual_ms}"),
            "--dump-dom",
            &url,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    // Drain the pipes while waiting: a DOM larger than a pipe's buffer
    // (64 KiB) would otherwise block chromium on its write.
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    while child.try_wait().expect("wait for chromium").is_none() {
        if start.elapsed() > Duration::from_secs(90) {
            child.kill().ok();
            panic!("chromium still running after 90 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&profile);
    let dom = text(&stdout.join().unwrap());
    assert!(
        dom.contains("id=\"counter\""),
        "chromium showed no page for {url}: {}",
        text(&stderr.join().unwrap())
    );
    dom
}

/// Dumps several replays of one page at once (one chromium each).
pub fn dump_all(browser: &str, page: &Path, queries: &[(&str, u32)]) -> Vec<String> {
    std::thread::scope(|s| {
        let handles: Vec<_> = queries
            .iter()
            .map(|&(q, ms)| s.spawn(move || dump_dom(browser, page, q, ms)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}
