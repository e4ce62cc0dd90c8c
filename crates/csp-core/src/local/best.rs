//! Keeping the best assignment without copying it at every improvement.
//!
//! A search that copied the whole assignment each time it improved would pay
//! O(n) per improvement, which is ruinous at 10^7 variables. Instead the
//! tracker logs the moves made since the best point; the best assignment is
//! the current one with that log undone. When the log grows past the number of
//! variables (or the current assignment is about to be replaced by a restart)
//! the best is materialized once as a copy and logging stops until the next
//! improvement. Each move is thus paid O(1) amortised.

/// A move that can be undone on an assignment of `E`s.
pub(crate) trait Undo<E>: Copy {
    /// Restores the assignment as it was before the move.
    fn undo(self, values: &mut [E]);
}

/// A variable changed its value: `values[var]` was `old`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Changed<E> {
    pub(crate) var: u32,
    pub(crate) old: E,
}

impl<E: Copy> Undo<E> for Changed<E> {
    #[inline]
    fn undo(self, values: &mut [E]) {
        values[self.var as usize] = self.old;
    }
}

/// Two variables exchanged their values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Swapped {
    pub(crate) a: u32,
    pub(crate) b: u32,
}

impl<E> Undo<E> for Swapped {
    #[inline]
    fn undo(self, values: &mut [E]) {
        values.swap(self.a as usize, self.b as usize);
    }
}

/// The best assignment seen, as "current minus a log" or as a saved copy.
#[derive(Debug)]
pub(crate) struct Best<E, U> {
    /// Violations of the best assignment (`u64::MAX` before the first).
    pub(crate) violations: u64,
    since: Vec<U>,
    saved: Option<Vec<E>>,
    limit: usize,
}

impl<E: Copy, U: Undo<E>> Best<E, U> {
    /// A tracker for assignments of `n` values.
    pub(crate) fn new(n: usize) -> Best<E, U> {
        Best {
            violations: u64::MAX,
            since: Vec::new(),
            saved: None,
            limit: n.max(1024),
        }
    }

    /// Offers the current assignment with `violations`: it becomes the best
    /// when strictly better. Returns whether it did.
    #[inline]
    pub(crate) fn offer(&mut self, violations: u64) -> bool {
        if violations < self.violations {
            self.violations = violations;
            self.since.clear();
            self.saved = None;
            true
        } else {
            false
        }
    }

    /// Records a move just made on `current` (after [`Best::offer`] declined it).
    #[inline]
    pub(crate) fn record(&mut self, undo: U, current: &[E]) {
        if self.saved.is_none() {
            self.since.push(undo);
            if self.since.len() > self.limit {
                self.save(current);
            }
        }
    }

    /// Materializes the best as a copy (call before `current` is replaced
    /// wholesale, as on a restart).
    pub(crate) fn save(&mut self, current: &[E]) {
        if self.saved.is_none() {
            let mut copy = current.to_vec();
            for u in self.since.drain(..).rev() {
                u.undo(&mut copy);
            }
            self.saved = Some(copy);
        }
    }

    /// The best assignment, built from the final `current` one.
    pub(crate) fn into_best(mut self, mut current: Vec<E>) -> Vec<E> {
        match self.saved.take() {
            Some(copy) => copy,
            None => {
                for u in self.since.drain(..).rev() {
                    u.undo(&mut current);
                }
                current
            }
        }
    }

    /// Is the best assignment the current one?
    pub(crate) fn is_current(&self) -> bool {
        self.saved.is_none() && self.since.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undoes_to_the_best_and_saves_long_logs() {
        let mut cur = vec![0, 0, 0];
        let mut best: Best<i32, Changed<i32>> = Best::new(3);
        best.limit = 2;
        assert!(best.offer(5));
        cur[0] = 1;
        assert!(best.offer(3)); // best: [1, 0, 0]
        for (i, v) in [(1usize, 7), (2, 8), (1, 9)] {
            let old = cur[i];
            cur[i] = v;
            best.record(Changed { var: i as u32, old }, &cur);
        }
        assert!(!best.is_current());
        assert_eq!(best.into_best(cur.clone()), vec![1, 0, 0]);

        let mut best: Best<i32, Swapped> = Best::new(3);
        let mut cur = vec![1, 2, 3];
        best.offer(1);
        cur.swap(0, 2);
        best.record(Swapped { a: 0, b: 2 }, &cur);
        assert_eq!(best.into_best(cur), vec![1, 2, 3]);
    }
}
