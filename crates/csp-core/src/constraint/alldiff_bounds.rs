//! The bounds-consistent all-different propagator: Hall intervals found in
//! O(n log n) (López-Ortiz, Quimper, Tromp and van Beek, "A fast and simple
//! algorithm for bounds consistency of the alldifferent constraint", IJCAI
//! 2003), plus the removal of fixed values from the peers.
//!
//! # The idea
//! A *Hall interval* is an interval `[a, b]` that exactly `b − a + 1`
//! variables' domains lie inside: those variables use up every value of the
//! interval, so any other variable whose minimum (maximum) lies in it must
//! move its minimum above `b` (maximum below `a`); more variables than values
//! inside is a conflict. The paper's algorithm scans the variables by
//! increasing maximum and merges the gaps between the distinct bounds with
//! two path-compressed union-find-like arrays (`t` for the capacity left,
//! `h` for the Hall intervals found so far); the symmetric pass raises the
//! maxima. The code here is written from the paper's description.
//!
//! The variables are kept sorted by minimum and by maximum between calls (a
//! plain field, valid whatever the domains are): the insertion sort that
//! repairs the order is linear when few bounds moved.
//!
//! On interval domains one call (both passes over the same Hall intervals)
//! reaches bounds consistency, so the propagator is idempotent and is not
//! woken by its own changes; only when a new bound lands on a hole and moves
//! on past the one asked for does the call run again (Gecode's `Bnd`
//! propagator reports the same case as "not at fixpoint").
//!
//! It runs at [`Priority::Quadratic`], after the cheaper propagators it
//! shares variables with have settled (Gecode ranks its `Bnd` as a
//! quadratic propagator too): on Golomb rulers the sums and differences
//! then move several bounds between two sorts, and 9 marks take 4,354
//! calls instead of 14,071.

use super::distinct::{remove_from_others, FixedValueProp};
use super::hall::{hall_interval, overfull_interval};
use crate::constraint::Pruner;
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::propagation::{Event, Events, Premises, Priority, Propagator, Setup, StateInt};

/// Bounds-consistent all-different over distinct variables (see
/// [`Consistency::Bounds`](super::Consistency::Bounds)).
#[derive(Debug)]
pub(crate) struct BoundsProp<'a> {
    vars: &'a [VarId],
    /// Scope positions sorted by minimum, then by maximum (repaired each call).
    by_min: Vec<u32>,
    by_max: Vec<u32>,
    /// Per position: current bounds (as `i64`) and their ranks in `bounds`.
    lo: Vec<i64>,
    hi: Vec<i64>,
    min_rank: Vec<u32>,
    max_rank: Vec<u32>,
    /// The distinct values among the minima and the maxima + 1, with a
    /// sentinel below and above: `bounds[0..=nb + 1]`.
    bounds: Vec<i64>,
    nb: usize,
    t: Vec<u32>,
    d: Vec<i64>,
    h: Vec<u32>,
    /// Reversible: 1 once the values of the variables fixed before the first
    /// call have been removed from the others (later fixes go through
    /// `notify`); backtracking above that call resets it.
    rooted: Option<StateInt>,
    /// Set by a pass whose new bound fell past a hole (the bound moved
    /// further than the Hall interval asked): the call then runs again.
    crossed: bool,
}

impl<'a> BoundsProp<'a> {
    pub(crate) fn new(vars: &'a [VarId]) -> BoundsProp<'a> {
        let n = vars.len();
        BoundsProp {
            vars,
            by_min: (0..n as u32).collect(),
            by_max: (0..n as u32).collect(),
            lo: vec![0; n],
            hi: vec![0; n],
            min_rank: vec![0; n],
            max_rank: vec![0; n],
            bounds: vec![0; 2 * n + 2],
            nb: 0,
            t: vec![0; 2 * n + 2],
            d: vec![0; 2 * n + 2],
            h: vec![0; 2 * n + 2],
            rooted: None,
            crossed: false,
        }
    }

    /// Reads the bounds, repairs both orders and ranks the bounds.
    fn sort(&mut self, p: &Pruner<'_>) {
        let n = self.vars.len();
        for ((l, h), &x) in self.lo.iter_mut().zip(self.hi.iter_mut()).zip(self.vars) {
            *l = p.min(x) as i64;
            *h = p.max(x) as i64;
        }
        let (lo, hi) = (&self.lo[..n], &self.hi[..n]);
        insertion_sort(&mut self.by_min, |a, b| lo[a as usize] < lo[b as usize]);
        insertion_sort(&mut self.by_max, |a, b| hi[a as usize] < hi[b as usize]);
        // Merge the sorted minima and maxima + 1 into the distinct bounds,
        // written in place (`bounds` holds 2n + 2 entries): a sentinel
        // below, then each new value, then a sentinel above.
        let (by_min, by_max) = (&self.by_min[..n], &self.by_max[..n]);
        let (min_rank, max_rank) = (&mut self.min_rank[..n], &mut self.max_rank[..n]);
        let b = &mut self.bounds[..2 * n + 2];
        let mut next_min = lo[by_min[0] as usize];
        let mut next_max = hi[by_max[0] as usize] + 1;
        b[0] = next_min - 2;
        let (mut nb, mut i, mut j) = (0, 0, 0);
        loop {
            if i < n && next_min <= next_max {
                if b[nb] != next_min {
                    nb += 1;
                    b[nb] = next_min;
                }
                min_rank[by_min[i] as usize] = nb as u32;
                i += 1;
                if i < n {
                    next_min = lo[by_min[i] as usize];
                }
            } else {
                if b[nb] != next_max {
                    nb += 1;
                    b[nb] = next_max;
                }
                max_rank[by_max[j] as usize] = nb as u32;
                j += 1;
                if j == n {
                    break;
                }
                next_max = hi[by_max[j] as usize] + 1;
            }
        }
        b[nb + 1] = b[nb] + 2;
        self.nb = nb;
    }

    /// Raises the minima past the Hall intervals below them.
    fn filter_lower(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let nb = self.nb;
        let (t, d, h, b) = (&mut self.t, &mut self.d, &mut self.h, &self.bounds);
        for i in 1..=nb + 1 {
            t[i] = (i - 1) as u32;
            h[i] = (i - 1) as u32;
            d[i] = b[i] - b[i - 1];
        }
        for k in 0..self.vars.len() {
            let pos = self.by_max[k] as usize;
            let x = self.min_rank[pos] as usize;
            let y = self.max_rank[pos] as usize;
            let mut z = path_max(t, x + 1);
            let j = t[z] as usize;
            d[z] -= 1;
            if d[z] == 0 {
                t[z] = (z + 1) as u32;
                z = path_max(t, t[z] as usize);
                t[z] = j as u32;
            }
            path_set(t, x + 1, z, z);
            if d[z] < b[z] - b[y] {
                return Err(overfull(p, self.vars));
            }
            if h[x] as usize > x {
                let w = path_max(h, h[x] as usize);
                // Past the largest value: no room left.
                let Ok(lo) = Value::try_from(b[w]) else {
                    return Err(overfull(p, self.vars));
                };
                let vars = self.vars;
                let why = move |r: &mut Premises| hall_interval(r, vars, pos, lo, true);
                if p.set_min(self.vars[pos], lo, why)? && p.min(self.vars[pos]) != lo {
                    self.crossed = true;
                }
                path_set(h, x, w, w);
            }
            if d[z] == b[z] - b[y] {
                let from = h[y] as usize;
                path_set(h, from, j - 1, y);
                h[y] = (j - 1) as u32;
            }
        }
        Ok(())
    }

    /// Lowers the maxima below the Hall intervals above them.
    fn filter_upper(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let nb = self.nb;
        let (t, d, h, b) = (&mut self.t, &mut self.d, &mut self.h, &self.bounds);
        for i in 0..=nb {
            t[i] = (i + 1) as u32;
            h[i] = (i + 1) as u32;
            d[i] = b[i + 1] - b[i];
        }
        for k in (0..self.vars.len()).rev() {
            let pos = self.by_min[k] as usize;
            let x = self.max_rank[pos] as usize;
            let y = self.min_rank[pos] as usize;
            let mut z = path_min(t, x - 1);
            let j = t[z] as usize;
            d[z] -= 1;
            if d[z] == 0 {
                t[z] = (z - 1) as u32;
                z = path_min(t, t[z] as usize);
                t[z] = j as u32;
            }
            path_set(t, x - 1, z, z);
            if d[z] < b[y] - b[z] {
                return Err(overfull(p, self.vars));
            }
            if (h[x] as usize) < x {
                let w = path_min(h, h[x] as usize);
                let Ok(hi) = Value::try_from(b[w] - 1) else {
                    return Err(overfull(p, self.vars));
                };
                let vars = self.vars;
                let why = move |r: &mut Premises| hall_interval(r, vars, pos, hi, false);
                if p.set_max(self.vars[pos], hi, why)? && p.max(self.vars[pos]) != hi {
                    self.crossed = true;
                }
                path_set(h, x, w, w);
            }
            if d[z] == b[y] - b[z] {
                let from = h[y] as usize;
                path_set(h, from, j + 1, y);
                h[y] = (j + 1) as u32;
            }
        }
        Ok(())
    }
}

/// The failure of a pass: an interval with more variables than values.
#[cold]
fn overfull(p: &mut Pruner<'_>, vars: &[VarId]) -> Conflict {
    p.fail(|r: &mut Premises| overfull_interval(r, vars))
}

/// Follows `a` upward from `i` to its root (`a[i] <= i`).
#[inline]
fn path_max(a: &[u32], mut i: usize) -> usize {
    while a[i] as usize > i {
        i = a[i] as usize;
    }
    i
}

/// Follows `a` downward from `i` to its root (`a[i] >= i`).
#[inline]
fn path_min(a: &[u32], mut i: usize) -> usize {
    while (a[i] as usize) < i {
        i = a[i] as usize;
    }
    i
}

/// Points every entry on the path from `from` up to (not including) `to` at
/// `target` (path compression).
#[inline]
fn path_set(a: &mut [u32], from: usize, to: usize, target: usize) {
    let mut k = from;
    while k != to {
        let next = a[k] as usize;
        a[k] = target as u32;
        k = next;
    }
}

/// Stable insertion sort: linear on an almost sorted slice.
fn insertion_sort(v: &mut [u32], less: impl Fn(u32, u32) -> bool) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && less(x, v[j - 1]) {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

impl Propagator for BoundsProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        for (i, &x) in self.vars.iter().enumerate() {
            // The kinds reported are those subscribed: FIXED for the values to
            // remove, BOUNDS for the Hall intervals.
            setup.subscribe(x, i, Events::FIXED | Events::BOUNDS);
        }
        self.rooted = Some(setup.new_int(0));
    }

    fn notify_on(&self) -> Events {
        // Bounds events only schedule `propagate`.
        Events::FIXED
    }

    fn notify(&mut self, p: &mut Pruner<'_>, pos: usize, event: Event) -> Result<bool, Conflict> {
        if event.is_fixed() {
            remove_from_others(p, self.vars, pos, None)?;
        }
        Ok(true)
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        if self.vars.is_empty() {
            return Ok(());
        }
        FixedValueProp::first_call(p, self.rooted, self.vars, None)?;
        loop {
            self.crossed = false;
            self.sort(p);
            self.filter_lower(p)?;
            self.filter_upper(p)?;
            if !self.crossed {
                return Ok(());
            }
        }
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn name(&self) -> &str {
        "all-different (bounds)"
    }
}
