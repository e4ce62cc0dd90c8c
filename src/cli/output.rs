//! Standard output and standard error for every subcommand, in one place.
//!
//! Everything `csp` prints goes through [`Stdout`] (by way of [`stdout`],
//! [`outln!`] and [`out!`]) or through [`errln!`]; `println!` and `eprintln!`
//! are denied by clippy in this crate, because they panic when a write fails.
//! What a failed write does is decided here, once:
//!
//! * stdout closed by the reader (`EPIPE`, as in `csp queens 8 --all | head -3`):
//!   the reader wants no more, so the program ends at once, quietly, with
//!   exit status 0;
//! * any other write error on stdout (a full disk: `csp zebra > /dev/full`):
//!   one line `error: writing to standard output: …` on stderr and exit
//!   status 2;
//! * a write error on stderr is ignored: there is nobody left to tell.

use std::fmt;
use std::io::{self, Write};

/// The exit status after a write to stdout failed with anything but a closed
/// pipe (see the module documentation).
pub const WRITE_ERROR_EXIT: i32 = 2;

/// Locked standard output whose write errors never come back to the caller:
/// they end the program as the module documentation says. Wrap it in a
/// `BufWriter` (see [`stdout`]) for many small writes.
pub struct Stdout(io::StdoutLock<'static>);

/// Buffered standard output for a subcommand's results. Dropping it flushes it
/// (and a failed flush ends the program as [`Stdout`] says).
pub fn stdout() -> io::BufWriter<Stdout> {
    io::BufWriter::new(Stdout(io::stdout().lock()))
}

/// Ends the program after a failed write to stdout.
fn fail(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    let _ = writeln!(io::stderr(), "error: writing to standard output: {e}");
    std::process::exit(WRITE_ERROR_EXIT);
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0.write(buf) {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => fail(&e),
            r => r,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.0.flush() {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => fail(&e),
            r => r,
        }
    }
}

/// Writes `args` to stdout (the body of [`out!`] and [`outln!`]).
pub fn print(args: fmt::Arguments<'_>) {
    let mut out = Stdout(io::stdout().lock());
    // `Stdout` ends the program on any error but an interrupt, which
    // `write_fmt` retries.
    let _ = out.write_fmt(args);
}

/// Writes `args` to stderr, ignoring errors (the body of [`errln!`]).
pub fn print_err(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// Flushes stdout at the end of the program (a failure ends it as [`Stdout`]
/// says).
pub fn flush() {
    let _ = Stdout(io::stdout().lock()).flush();
}

/// `print!` for results: through [`Stdout`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::print(format_args!($($arg)*))
    };
}

/// `println!` for results: through [`Stdout`].
macro_rules! outln {
    () => {
        $crate::cli::output::print(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::output::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` for warnings, notes and statistics: errors are ignored.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::output::print_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}
