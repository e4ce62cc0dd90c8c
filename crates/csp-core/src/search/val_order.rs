//! Value choice: in which order a decision variable's values are tried
//! ([`ValOrder`]). A frame of the search keeps the values not yet tried:
//! for one-word domains a bit mask taken when the frame opens; for larger
//! domains cursors over the current domain, which backtracking restores.
//!
//! | order | tries | cost per value |
//! |---|---|---|
//! | ascending / descending | smallest / largest first | O(1) words |
//! | middle | closest to the middle of the domain first, lower first on ties | O(1) words |
//! | random (seeded) | a seeded random order (large domains: ascending from a random start, wrapping) | O(1) words |
//! | split / reverse split | `x ≤ mid` then `x > mid` (reverse: the upper half first), `mid = ⌊(min + max) / 2⌋` | O(1) |
//!
//! A splitting frame holds its midpoint in `a` and its untried halves in
//! `rem` (bit 0: the lower half, bit 1: the upper half); its decisions are
//! [`Decision::AtMost`] and [`Decision::AtLeast`], which the engine applies
//! as bound changes.

use super::engine::{splitmix, Engine, Frame};
use super::{Decision, ValOrder};
use crate::ids::Value;

impl Engine<'_> {
    /// Opens a frame for a decision on `var`.
    pub(super) fn new_frame(&mut self, var: usize) -> Frame {
        let order = self
            .phase_val
            .get(var)
            .copied()
            .unwrap_or(self.opts.val_order);
        let s = &self.store;
        let mut f = Frame {
            var: var as u32,
            level: s.level() as u32,
            rem: 0,
            a: 0,
            b: 0,
            started: false,
            decision: Decision::Assign(0),
            direct: self.direct_to(var),
            order,
        };
        if order.splits() {
            // Both halves are non-empty: min ≤ mid < max.
            let (lo, hi) = (s.min(var), s.max(var));
            f.a = match order {
                ValOrder::BinaryMin => lo,
                ValOrder::BinaryMax => hi - 1,
                _ => (lo as i64 + hi as i64).div_euclid(2) as Value,
            };
            f.rem = 0b11;
            f.direct = (u32::MAX, 0);
        } else if s.is_small(var) {
            f.rem = s.small_bits(var).0;
            if let ValOrder::Middle = order {
                let (lo, hi) = (s.min(var), s.max(var));
                f.a = ((lo as i64 + hi as i64).div_euclid(2) - s.small_bits(var).1 as i64) as Value;
            }
        } else {
            let (lo, hi) = (s.min(var), s.max(var));
            match order {
                ValOrder::Ascending
                | ValOrder::Descending
                | ValOrder::Split
                | ValOrder::ReverseSplit
                | ValOrder::BinaryMin
                | ValOrder::BinaryMax => {}
                ValOrder::Middle => {
                    let mid = (lo as i64 + (hi as i64 - lo as i64) / 2) as Value;
                    f.rem = mid as i64 as u64;
                    f.a = mid.saturating_add(1);
                    f.b = mid;
                }
                ValOrder::Random { .. } => {
                    let span = (hi as i64 - lo as i64 + 1) as u64;
                    self.rng = splitmix(self.rng);
                    f.b = (lo as i64 + (self.rng % span) as i64) as Value;
                }
            }
        }
        f
    }

    /// The first decision the value order makes on open variable `var`
    /// (its value, or its first half for the splitting orders), without
    /// keeping a frame: the learning search's decision in the caller's
    /// order (`LearningOrder::User`), where a refuted decision is negated
    /// by the nogood it teaches rather than by the frame's next value.
    pub(super) fn first_decision(&mut self, var: usize) -> Option<Decision> {
        let f = self.new_frame(var);
        self.frames.push(f);
        let fi = self.frames.len() - 1;
        let d = if f.order.splits() {
            self.next_half(fi)
        } else {
            self.next_value(fi).map(Decision::Assign)
        };
        self.frames.pop();
        d
    }

    /// The next half of a splitting frame's domain, or None when both were
    /// tried.
    pub(super) fn next_half(&mut self, fi: usize) -> Option<Decision> {
        let f = &mut self.frames[fi];
        let lower_first = !matches!(f.order, ValOrder::ReverseSplit | ValOrder::BinaryMax);
        let lower = match f.rem {
            0 => return None,
            0b11 => lower_first,
            r => r == 0b01,
        };
        let mid = f.a;
        if lower {
            f.rem &= !0b01;
            Some(Decision::AtMost(mid))
        } else {
            f.rem &= !0b10;
            Some(Decision::AtLeast(mid + 1))
        }
    }

    /// Is frame `fi` out of values, as far as can be told without its
    /// state? A one-word domain's values left are the frame's own bits;
    /// large domains and splitting orders find theirs in the restored state.
    pub(super) fn out_of_values(&self, fi: usize) -> bool {
        let f = &self.frames[fi];
        f.rem == 0 && !f.order.splits() && self.store.is_small(f.var as usize)
    }

    /// The next value of the frame's variable, or None when all were tried.
    pub(super) fn next_value(&mut self, fi: usize) -> Option<Value> {
        let f = self.frames[fi];
        let var = f.var as usize;
        let order = f.order;
        if self.store.is_small(var) {
            let base = self.store.small_bits(var).1;
            let rem = f.rem;
            if rem == 0 {
                return None;
            }
            let k = match order {
                // (Splitting frames take `next_half` instead.)
                ValOrder::Ascending
                | ValOrder::Split
                | ValOrder::ReverseSplit
                | ValOrder::BinaryMin
                | ValOrder::BinaryMax => rem.trailing_zeros(),
                ValOrder::Descending => 63 - rem.leading_zeros(),
                ValOrder::Middle => {
                    let mid = f.a as u32;
                    let below = rem & (u64::MAX >> (63 - mid.min(63)));
                    let above = if mid >= 63 {
                        0
                    } else {
                        rem & (!0u64 << (mid + 1))
                    };
                    match (below != 0, above != 0) {
                        (true, false) => 63 - below.leading_zeros(),
                        (false, _) => above.trailing_zeros(),
                        (true, true) => {
                            let lo = 63 - below.leading_zeros();
                            let hi = above.trailing_zeros();
                            if mid - lo <= hi - mid {
                                lo
                            } else {
                                hi
                            }
                        }
                    }
                }
                ValOrder::Random { .. } => {
                    self.rng = splitmix(self.rng);
                    let mut r = (self.rng % rem.count_ones() as u64) as u32;
                    let mut bits = rem;
                    while r > 0 {
                        bits &= bits - 1;
                        r -= 1;
                    }
                    bits.trailing_zeros()
                }
            };
            self.frames[fi].rem = rem & !(1u64 << k);
            return Some(base + k as Value);
        }
        // Large domains: cursors over the (restored) current domain.
        let s = &self.store;
        let fr = &mut self.frames[fi];
        match order {
            ValOrder::Ascending
            | ValOrder::Split
            | ValOrder::ReverseSplit
            | ValOrder::BinaryMin
            | ValOrder::BinaryMax => {
                let x = if fr.started {
                    s.next_above(var, fr.a)?
                } else {
                    s.min(var)
                };
                fr.started = true;
                fr.a = x;
                Some(x)
            }
            ValOrder::Descending => {
                let x = if fr.started {
                    s.next_below(var, fr.a)?
                } else {
                    s.max(var)
                };
                fr.started = true;
                fr.a = x;
                Some(x)
            }
            ValOrder::Middle => {
                // Down side: largest untried value below `a`; up side: smallest
                // untried value above `b`; the middle itself sits in `rem`.
                let mid = fr.rem as i64 as Value;
                let down = s.next_below(var, fr.a);
                let up = s.next_above(var, fr.b);
                let take_down = match (down, up) {
                    (None, None) => return None,
                    (Some(_), None) => true,
                    (None, Some(_)) => false,
                    (Some(x), Some(y)) => mid as i64 - x as i64 <= y as i64 - mid as i64,
                };
                if take_down {
                    fr.a = down.expect("down side");
                    Some(fr.a)
                } else {
                    fr.b = up.expect("up side");
                    Some(fr.b)
                }
            }
            ValOrder::Random { .. } => {
                // Ascending from a random start `b`, then from the minimum up to it.
                // `rem`: 0 = not started, 1 = upper part, 2 = lower part.
                let start = fr.b;
                if fr.rem == 0 {
                    fr.rem = 1;
                    // `next_above(start − 1)`, which cannot name i32::MIN.
                    let first = match start.checked_sub(1) {
                        Some(before) => s.next_above(var, before),
                        None => Some(s.min(var)),
                    };
                    if let Some(x) = first {
                        fr.a = x;
                        return Some(x);
                    }
                }
                if fr.rem == 1 {
                    if let Some(x) = s.next_above(var, fr.a).filter(|_| fr.a >= start) {
                        fr.a = x;
                        return Some(x);
                    }
                    fr.rem = 2;
                    let x = s.min(var);
                    if x >= start {
                        return None;
                    }
                    fr.a = x;
                    return Some(x);
                }
                let x = s.next_above(var, fr.a).filter(|&x| x < start)?;
                fr.a = x;
                Some(x)
            }
        }
    }
}
