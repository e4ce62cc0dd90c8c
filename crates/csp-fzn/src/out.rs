//! `fzn-csp`'s standard output: batched, but never late.
//!
//! `fzn-csp -a` on a model with many solutions prints each one; writing and
//! flushing them one by one costs a system call per solution, which on a
//! pipe to MiniZinc took as long as the search itself (12-queens: 14,201
//! writes). Here the text goes into one buffer, which is written out when
//! [`Batched::flush`] is called and the last write is at least
//! [`EVERY`] old, and otherwise by a flusher thread within [`EVERY`]: a lone
//! solution still appears at once, a burst of solutions costs one write per
//! [`EVERY`]. The time-limit watchdog writes out the buffer with
//! [`write_out`] before it ends the process.

use std::io::{self, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest a flushed solution waits in the buffer.
pub const EVERY: Duration = Duration::from_millis(20);

struct Pending {
    buf: Vec<u8>,
    /// When the buffer was last written out (`None`: never).
    last: Option<Instant>,
    /// A write error of the flusher thread, handed to the next caller.
    error: Option<io::ErrorKind>,
    flusher: bool,
}

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    buf: Vec::new(),
    last: None,
    error: None,
    flusher: false,
});

fn lock() -> std::sync::MutexGuard<'static, Pending> {
    // A panic while holding the lock leaves plain bytes behind: still usable.
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

fn drain(p: &mut Pending) -> io::Result<()> {
    if let Some(k) = p.error {
        return Err(k.into());
    }
    p.last = Some(Instant::now());
    if p.buf.is_empty() {
        return Ok(());
    }
    let r = crate::spinner::quiet(|| {
        let mut out = io::stdout().lock();
        out.write_all(&p.buf).and_then(|()| out.flush())
    });
    p.buf.clear();
    if let Err(e) = &r {
        p.error = Some(e.kind());
    }
    r
}

/// Writes out everything buffered now (at the end of a run, and from the
/// watchdog).
pub fn write_out() -> io::Result<()> {
    drain(&mut lock())
}

/// The writer `fzn-csp` prints through (see the module doc).
#[derive(Debug, Default)]
pub struct Batched;

impl Write for Batched {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut p = lock();
        if let Some(k) = p.error {
            return Err(k.into());
        }
        p.buf.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut p = lock();
        let due = p.last.is_none_or(|t| t.elapsed() >= EVERY);
        if due {
            return drain(&mut p);
        }
        if !p.flusher {
            p.flusher = true;
            std::thread::spawn(flusher);
        }
        Ok(())
    }
}

/// Writes out what a burst left in the buffer, every [`EVERY`].
fn flusher() {
    loop {
        std::thread::sleep(EVERY);
        let mut p = lock();
        if !p.buf.is_empty() && p.error.is_none() {
            let _ = drain(&mut p);
        }
    }
}
