//! `fzn-csp`'s memory budget (`--memory-limit`, default half the
//! available memory): the process's heap, counted by an allocator the
//! executable installs, covers reading and building the model as well as
//! the search.
//!
//! The search has its own memory limit ([`csp_core::Limits`]), which
//! counts the engine's store; a FlatZinc file of 40 bytes can declare
//! 2²⁴ variables, a model of about 2.5 GB, before any search starts. The
//! builder therefore asks [`Budget::exceeded`] after every item and every
//! few thousand variables of an array, and stops with a positioned error
//! (see [`crate::build_within`]).
//!
//! ```
//! use csp_fzn::memory::parse_size;
//! assert_eq!(parse_size("512M"), Ok(512 << 20));
//! assert_eq!(parse_size("1.5G"), Ok(3 << 29));
//! assert!(parse_size("lots").is_err());
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Bytes allocated through [`Counting`] and not yet freed.
static ALLOCATED: AtomicU64 = AtomicU64::new(0);
/// Has [`Counting`] served an allocation (is it the global allocator)?
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The system allocator, counting the bytes it holds. `fzn-csp` installs
/// it with `#[global_allocator]`; its cost is one relaxed atomic addition
/// per allocation and per release (the search allocates only when its
/// arrays grow).
pub struct Counting;

// SAFETY: every call is forwarded unchanged to `System`; the counter is
// only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
            INSTALLED.store(true, Ordering::Relaxed);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
            INSTALLED.store(true, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        ALLOCATED.fetch_sub(layout.size() as u64, Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            ALLOCATED.fetch_add(new_size as u64, Ordering::Relaxed);
            ALLOCATED.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        }
        p
    }
}

/// The heap in bytes held now, when [`Counting`] is the global allocator
/// (`None` otherwise: a library user's process is not counted).
pub fn allocated() -> Option<u64> {
    INSTALLED
        .load(Ordering::Relaxed)
        .then(|| ALLOCATED.load(Ordering::Relaxed))
}

/// A limit on the heap and how to read it.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// The most bytes the heap may hold.
    pub bytes: u64,
    /// The heap held now (normally [`allocated`]); `None` checks nothing.
    pub heap: fn() -> Option<u64>,
}

impl Budget {
    /// A budget of `bytes` on the heap [`Counting`] counts.
    pub fn of(bytes: u64) -> Budget {
        Budget {
            bytes,
            heap: allocated,
        }
    }

    /// The heap held now, when it is above the budget.
    pub fn exceeded(&self) -> Option<u64> {
        (self.heap)().filter(|&h| h > self.bytes)
    }

    /// What is left of the budget for the search, which counts only its
    /// own store (at least 1 byte, so that a spent budget stops it at once).
    pub fn left(&self) -> u64 {
        let used = (self.heap)().unwrap_or(0);
        self.bytes.saturating_sub(used).max(1)
    }

    /// The message for a budget the heap outgrew while `doing`.
    pub fn message(&self, doing: &str, heap: u64) -> String {
        format!(
            "memory limit: {doing} took {} of heap, the limit is {}; \
             raise it with --memory-limit SIZE (default half the available memory)",
            mib(u128::from(heap)),
            mib(u128::from(self.bytes))
        )
    }
}

/// `n` bytes as `12.3 MiB` (or `4.0 KiB` below a mebibyte).
pub fn mib(n: u128) -> String {
    if n < 1 << 20 {
        format!("{:.1} KiB", n as f64 / 1024.0)
    } else {
        format!("{:.1} MiB", n as f64 / f64::from(1u32 << 20))
    }
}

/// Parses a `--memory-limit` size: a number of bytes with an optional
/// binary suffix `K`, `M`, `G` or `T` (`512M`, `4G`, `1.5G`, `64MiB`).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let bad = || format!("--memory-limit expects a size such as 512M or 4G, got '{s}'");
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (num, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(bad()),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    match num.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => {
            let bytes = x * (1u64 << shift) as f64;
            if bytes < 1.0 || bytes >= u64::MAX as f64 {
                Err(bad())
            } else {
                Ok(bytes as u64)
            }
        }
        _ => Err(bad()),
    }
}

/// The memory available now (`MemAvailable` in /proc/meminfo, else
/// `MemTotal`), or `None` where that cannot be read.
pub fn available_memory() -> Option<u128> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u128> {
        let line = info.lines().find(|l| l.starts_with(name))?;
        let kb: u128 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    field("MemAvailable:").or_else(|| field("MemTotal:"))
}

/// The budget `--memory-limit` asks for, else half the available memory,
/// else none.
pub fn default_limit(asked: Option<&str>) -> Result<Option<u64>, String> {
    match asked {
        Some(s) => parse_size(s).map(Some),
        None => Ok(available_memory().map(|b| (b / 2).min(u128::from(u64::MAX)) as u64)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1"), Ok(1));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("1T"), Ok(1 << 40));
        for bad in ["", "0", "-1M", "1X", "nanM", "0.1", "99999999999T"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn budgets() {
        let b = Budget {
            bytes: 100,
            heap: || Some(150),
        };
        assert_eq!(b.exceeded(), Some(150));
        assert_eq!(b.left(), 1);
        let b = Budget {
            bytes: 100,
            heap: || Some(40),
        };
        assert_eq!((b.exceeded(), b.left()), (None, 60));
        let b = Budget {
            bytes: 100,
            heap: || None,
        };
        assert_eq!((b.exceeded(), b.left()), (None, 100));
    }
}
