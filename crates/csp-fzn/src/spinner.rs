//! A spinner on standard error while `fzn-csp -s` searches: the model and
//! the time so far, redrawn ten times a second from the first second on,
//! and only when standard error is a terminal (MiniZinc, pipes and tests
//! never see it). It is wiped before anything else is written.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// Set to stop the spinner.
static STOP: AtomicBool = AtomicBool::new(false);
/// Set while a frame is on the screen.
static DRAWN: AtomicBool = AtomicBool::new(false);
/// Held while a frame is drawn or wiped, so that solutions written to the
/// same terminal never land on the spinner's line.
static SCREEN: Mutex<()> = Mutex::new(());

/// The spinner's thread; dropping it stops and wipes the spinner.
pub struct Spinner(Option<thread::JoinHandle<()>>);

/// Starts the spinner for the model `file`, if standard error is a
/// terminal.
pub fn start(file: &str) -> Spinner {
    if !std::io::stderr().is_terminal() {
        return Spinner(None);
    }
    let file = file.to_string();
    let started = Instant::now();
    Spinner(Some(thread::spawn(move || {
        let frames = ['|', '/', '-', '\\'];
        let mut frame = 0;
        while !STOP.load(Ordering::SeqCst) {
            thread::sleep(Duration::from_millis(100));
            let t = started.elapsed();
            if t < Duration::from_secs(1) || STOP.load(Ordering::SeqCst) {
                continue;
            }
            let _screen = SCREEN.lock().unwrap_or_else(|e| e.into_inner());
            let mut err = std::io::stderr().lock();
            let _ = write!(
                err,
                "\r\x1b[2K{} fzn-csp: solving {file} ({}s)",
                frames[frame % frames.len()],
                t.as_secs()
            );
            let _ = err.flush();
            DRAWN.store(true, Ordering::SeqCst);
            frame += 1;
        }
    })))
}

/// Stops the spinner and wipes its line (from any thread: the watchdog
/// calls it before it prints).
pub fn wipe() {
    STOP.store(true, Ordering::SeqCst);
    quiet(|| ());
}

/// Runs `write` with the spinner's line wiped and no frame drawn meanwhile
/// (the next frame is drawn below what `write` printed).
pub fn quiet<R>(write: impl FnOnce() -> R) -> R {
    let _screen = SCREEN.lock().unwrap_or_else(|e| e.into_inner());
    if DRAWN.swap(false, Ordering::SeqCst) {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K");
        let _ = err.flush();
    }
    write()
}

impl Drop for Spinner {
    fn drop(&mut self) {
        STOP.store(true, Ordering::SeqCst);
        if let Some(h) = self.0.take() {
            let _ = h.join();
        }
        wipe();
    }
}
