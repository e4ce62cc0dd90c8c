//! Variable activity (VSIDS) and saved phases.
//!
//! Each variable has an activity, bumped when it takes part in a conflict
//! analysis and decayed by growing the bump (MiniSat's `var_inc /= decay`,
//! so old bumps count for less without touching every variable); the
//! search branches on the open variable of highest activity, kept in a
//! binary max-heap with positions (Moskewicz et al., "Chaff", 2001; Eén and
//! Sörensson, 2003). Ties go to the lower index, so a search is a function
//! of the model and the options.

use crate::ids::Value;

/// The decay factor of the activities: each conflict multiplies the bump
/// by `1 / DECAY` (MiniSat's default, 0.95).
pub(crate) const DECAY: f64 = 0.95;

/// Activities and the heap of candidate variables.
#[derive(Clone, Debug)]
pub(crate) struct Activity {
    act: Vec<f64>,
    inc: f64,
    heap: Vec<u32>,
    /// Position in `heap`, or `u32::MAX` when not in it.
    pos: Vec<u32>,
    /// Per variable: the value it last had when fixed (phase saving,
    /// Pipatsrisawat and Darwiche 2007), if any.
    pub(crate) phase: Vec<Option<Value>>,
    /// Per variable: its tier; a lower tier is branched on first,
    /// whatever the activities (the user's decision variables are tier 0,
    /// the rest tier 1, when the options name some).
    tier: Vec<u8>,
}

const OUT: u32 = u32::MAX;

impl Activity {
    /// Every variable in `vars` in the heap, activities 0 (`order` gives
    /// the initial activities' tie-break: earlier is preferred).
    pub(crate) fn new(num_vars: usize, vars: &[u32]) -> Activity {
        let mut a = Activity {
            act: vec![0.0; num_vars],
            inc: 1.0,
            heap: Vec::with_capacity(vars.len()),
            pos: vec![OUT; num_vars],
            phase: vec![None; num_vars],
            tier: vec![0; num_vars],
        };
        for &x in vars {
            a.insert(x);
        }
        a
    }

    /// Puts the variables not in `first` after those in it: the search
    /// then branches on `first` while one of them is open. Call before
    /// the search starts.
    pub(crate) fn prefer(&mut self, first: &[u32]) {
        if first.is_empty() {
            return;
        }
        self.tier.fill(1);
        for &x in first {
            if let Some(t) = self.tier.get_mut(x as usize) {
                *t = 0;
            }
        }
        let all = std::mem::take(&mut self.heap);
        for &x in &all {
            self.pos[x as usize] = OUT;
        }
        for x in all {
            self.insert(x);
        }
    }

    /// Gives every variable a small random starting activity (below
    /// 10⁻³, a thousandth of the first bump), drawn from `seed`: the ties
    /// between equal activities — all of them before the first conflict —
    /// then go by a seeded random order instead of by index (parallel
    /// workers, `parallel::diversify`). Call before the search starts.
    pub(crate) fn shuffle(&mut self, seed: u64) {
        let mut r = seed;
        for a in &mut self.act {
            r = crate::search::engine::splitmix(r);
            *a += (r >> 11) as f64 / (1u64 << 53) as f64 * 1e-3;
        }
        let all = std::mem::take(&mut self.heap);
        for &x in &all {
            self.pos[x as usize] = OUT;
        }
        for x in all {
            self.insert(x);
        }
    }

    /// Is `x` before `y` in the heap's order?
    #[inline]
    fn better(&self, x: u32, y: u32) -> bool {
        let (tx, ty) = (self.tier[x as usize], self.tier[y as usize]);
        if tx != ty {
            return tx < ty;
        }
        let (ax, ay) = (self.act[x as usize], self.act[y as usize]);
        ax > ay || (ax == ay && x < y)
    }

    /// Puts `x` back among the candidates (no-op if it is there).
    pub(crate) fn insert(&mut self, x: u32) {
        if self.pos[x as usize] != OUT {
            return;
        }
        self.pos[x as usize] = self.heap.len() as u32;
        self.heap.push(x);
        self.up(self.heap.len() - 1);
    }

    /// Takes the candidate of highest activity.
    pub(crate) fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = OUT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.down(0);
        }
        Some(top)
    }

    /// Bumps `x`'s activity.
    pub(crate) fn bump(&mut self, x: u32) {
        let a = &mut self.act[x as usize];
        *a += self.inc;
        if *a > 1e100 {
            for v in &mut self.act {
                *v *= 1e-100;
            }
            self.inc *= 1e-100;
        }
        let p = self.pos[x as usize];
        if p != OUT {
            self.up(p as usize);
        }
    }

    /// Ages every activity (after a conflict).
    pub(crate) fn decay(&mut self) {
        self.inc /= DECAY;
    }

    fn up(&mut self, mut i: usize) {
        let x = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !self.better(x, p) {
                break;
            }
            self.heap[i] = p;
            self.pos[p as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = x;
        self.pos[x as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize) {
        let x = self.heap[i];
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.better(self.heap[r], self.heap[l]) {
                r
            } else {
                l
            };
            let y = self.heap[c];
            if !self.better(y, x) {
                break;
            }
            self.heap[i] = y;
            self.pos[y as usize] = i as u32;
            i = c;
        }
        self.heap[i] = x;
        self.pos[x as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heap_gives_the_most_active_first_ties_by_index() {
        let mut a = Activity::new(5, &[0, 1, 2, 3, 4]);
        a.bump(3);
        a.decay();
        a.bump(1);
        a.bump(1);
        assert_eq!(a.pop(), Some(1));
        assert_eq!(a.pop(), Some(3));
        assert_eq!(a.pop(), Some(0));
        a.insert(1);
        assert_eq!(a.pop(), Some(1));
        assert_eq!(a.pop(), Some(2));
        assert_eq!(a.pop(), Some(4));
        assert_eq!(a.pop(), None);
    }

    #[test]
    fn preferred_variables_come_first_whatever_their_activity() {
        let mut a = Activity::new(4, &[0, 1, 2, 3]);
        a.bump(0);
        a.bump(0);
        a.prefer(&[3, 2, 9]); // 9 is not a variable: ignored
        a.bump(2);
        assert_eq!(a.pop(), Some(2));
        assert_eq!(a.pop(), Some(3));
        assert_eq!(a.pop(), Some(0));
        assert_eq!(a.pop(), Some(1));
    }

    #[test]
    fn a_shuffle_reorders_ties_but_keeps_tiers_and_bumps() {
        let mut a = Activity::new(6, &[0, 1, 2, 3, 4, 5]);
        a.prefer(&[5]);
        a.shuffle(7);
        a.bump(0);
        assert_eq!(a.pop(), Some(5)); // tier first
        assert_eq!(a.pop(), Some(0)); // a bump beats any shuffle
        let rest: Vec<u32> = std::iter::from_fn(|| a.pop()).collect();
        let mut sorted = rest.clone();
        sorted.sort();
        assert_eq!(sorted, vec![1, 2, 3, 4]);
        // Some seed puts the ties out of index order.
        let unordered = (0..8).any(|seed| {
            let mut b = Activity::new(6, &[0, 1, 2, 3, 4, 5]);
            b.shuffle(seed);
            let order: Vec<u32> = std::iter::from_fn(|| b.pop()).collect();
            order != vec![0, 1, 2, 3, 4, 5]
        });
        assert!(unordered);
    }
}
