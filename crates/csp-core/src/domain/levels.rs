//! Levels of the domain store: opening one, undoing back to one, and the
//! trail that remembers what to undo (see "Undo" in the [store's module
//! documentation](super::store) for the design and the measurement behind
//! the snapshot of small arrays).

use super::store::{DomainStore, Undo};

/// What the opening of a level kept: the trail's length, the stamp of
/// the level it was opened in, and the number of open variables.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    pub(super) trail: u32,
    pub(super) stamp: u64,
    pub(super) unfixed: u32,
}

impl DomainStore {
    /// Opens a new level: changes from now on are undone by `backtrack_to`.
    #[inline]
    pub(crate) fn push_level(&mut self) {
        self.marks.push(Mark {
            trail: self.trail.len() as u32,
            stamp: self.stamp,
            unfixed: self.unfixed as u32,
        });
        if self.explaining {
            self.ex.push_mark();
        }
        if self.snapshot {
            // Level `l`'s snapshot is `snaps[l * w..(l + 1) * w]`; the array
            // only grows, so reopening a level copies without reallocating.
            let w = self.words.len();
            let at = (self.marks.len() - 1) * w;
            if self.snaps.len() < at + w {
                self.snaps.resize(at + w, 0);
            }
            copy_words(&mut self.snaps[at..at + w], &self.words);
        }
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
    }

    /// Undoes every change made since level `level` was the current one.
    pub(crate) fn backtrack_to(&mut self, level: usize) {
        if self.marks.len() <= level {
            return;
        }
        self.undo_to_mark(level);
        if self.explaining {
            self.ex.undo_to(level, false);
        }
        let mark = self.marks[level];
        self.marks.truncate(level);
        self.stamp = mark.stamp;
    }

    /// The stamp of level `l`'s current opening (`l ≤ level()`): a level
    /// closed and opened again gets a new one, so what was read at level
    /// `l` still holds while its stamp is the same.
    #[inline]
    pub(crate) fn level_stamp(&self, l: usize) -> u64 {
        if l >= self.marks.len() {
            self.stamp
        } else {
            self.marks[l].stamp
        }
    }

    /// Returns to the state at the opening of level `level + 1` and keeps
    /// that level open: `backtrack_to(level)` then `push_level()`, with one
    /// copy of the snapshot instead of two. Opens the level when it is not
    /// open yet.
    #[inline(always)]
    pub(crate) fn reopen_level(&mut self, level: usize) {
        debug_assert!(self.marks.len() >= level);
        if self.marks.len() == level {
            self.push_level();
            return;
        }
        self.undo_to_mark(level);
        if self.explaining {
            self.ex.undo_to(level, true);
        }
        self.marks.truncate(level + 1);
        // The trail of the level is gone: a fresh stamp makes every word
        // saved again before its next change.
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
    }

    /// Closes the level opened at `level` after
    /// [`reopen_level`](Self::reopen_level) left the state at its opening.
    #[inline]
    pub(crate) fn close_reopened_level(&mut self, level: usize) {
        if self.marks.len() <= level {
            return;
        }
        debug_assert_eq!(self.marks.len(), level + 1);
        debug_assert_eq!(self.trail.len(), self.marks[level].trail as usize);
        if self.explaining {
            self.ex.undo_to(level, false);
        }
        let mark = self.marks[level];
        self.marks.truncate(level);
        self.stamp = mark.stamp;
    }

    /// Undoes the trail back to `marks[level]` and copies that level's
    /// snapshot back.
    #[inline]
    fn undo_to_mark(&mut self, level: usize) {
        let mark = self.marks[level];
        if self.trail.len() > mark.trail as usize {
            self.undo_trail(mark.trail as usize);
        }
        if self.snapshot {
            let w = self.words.len();
            copy_words(&mut self.words, &self.snaps[level * w..(level + 1) * w]);
        }
        self.unfixed = mark.unfixed as usize;
    }

    /// Pops the trail back to `len` entries, restoring what each saved (out
    /// of line: in snapshot mode, with only small domains, the trail stays
    /// empty and backtracking is the snapshot copy alone).
    #[inline(never)]
    fn undo_trail(&mut self, len: usize) {
        while self.trail.len() > len {
            match self.trail.pop().expect("trail entry") {
                Undo::Word { at, old } => self.words[at as usize] = old,
                Undo::Large { li, old } => self.large[li as usize] = old,
                Undo::Bits { at, old } => self.bits[at as usize] = old,
                Undo::Hole { li, value } => self.unhole(li as usize, value),
            }
        }
    }

    /// Saves word `at` once per level (nothing to do in snapshot mode).
    #[inline(always)]
    pub(super) fn save_word(&mut self, at: usize) {
        if !self.snapshot && self.saved[at] != self.stamp {
            self.saved[at] = self.stamp;
            self.trail.push(Undo::Word {
                at: at as u32,
                old: self.words[at],
            });
        }
    }

    /// Saves large record `li` once per level.
    #[inline]
    pub(super) fn save_large(&mut self, li: usize) {
        if self.saved_large[li] != self.stamp {
            self.saved_large[li] = self.stamp;
            self.trail.push(Undo::Large {
                li: li as u32,
                old: self.large[li],
            });
        }
    }
}

/// Copies `src` to `dst` (the same length). Arrays of up to 32 words, the
/// snapshots of small boards, are copied inline as two overlapping blocks
/// of fixed size (no call, no loop); longer ones with `copy_from_slice`.
#[inline(always)]
fn copy_words(dst: &mut [u64], src: &[u64]) {
    #[inline(always)]
    fn two<const K: usize>(dst: &mut [u64], src: &[u64]) {
        let n = dst.len();
        dst[..K].copy_from_slice(&src[..K]);
        dst[n - K..].copy_from_slice(&src[n - K..n]);
    }
    let n = dst.len();
    assert_eq!(src.len(), n);
    match n {
        0..=3 => dst.copy_from_slice(src),
        4..=8 => two::<4>(dst, src),
        9..=16 => two::<8>(dst, src),
        17..=32 => two::<16>(dst, src),
        _ => dst.copy_from_slice(src),
    }
}
