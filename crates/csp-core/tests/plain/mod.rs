//! Models written the way a user first writes them, with checkers and
//! lower bounds computed from the data alone: shared by
//! `tests/defaults.rs` and `examples/learning_bench.rs`.

#![allow(dead_code)]

use csp_core::expr::{max_of, sum};
use csp_core::{Domain, Model, Relation, VarId};

/// A small deterministic generator (a 64-bit LCG, Knuth's MMIX constants).
pub struct Lcg(u64);

impl Lcg {
    pub fn below(&mut self, k: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % k
    }
}

pub const OFF: i32 = 0;
pub const DAY: i32 = 1;
pub const EVENING: i32 = 2;
pub const NIGHT: i32 = 3;

/// A two-week roster: who works which shift on which day.
pub struct Roster {
    pub nurses: usize,
    pub days: usize,
    /// Per nurse, the days they asked to have off (a soft rule).
    pub requests: Vec<Vec<usize>>,
}

impl Roster {
    pub fn new(nurses: usize, days: usize, seed: u64) -> Roster {
        let mut rng = Lcg(seed);
        // Each nurse asks for a third of the days off, all different.
        let requests = (0..nurses)
            .map(|_| {
                let mut asked: Vec<usize> = Vec::new();
                while asked.len() < days / 3 {
                    let d = rng.below(days as u64) as usize;
                    if !asked.contains(&d) {
                        asked.push(d);
                    }
                }
                asked
            })
            .collect();
        Roster {
            nurses,
            days,
            requests,
        }
    }

    /// At least this many nurses on each shift (day, evening, night):
    /// fewer at weekends (days 5 and 6 of each week).
    pub fn demand(&self, day: usize) -> [usize; 3] {
        if day % 7 >= 5 {
            [2, 2, 1]
        } else {
            [3, 3, 2]
        }
    }

    /// The model, and its objective: the requests not granted plus the
    /// weekends worked on one day only.
    pub fn model(&self) -> (Model, Vec<Vec<VarId>>, VarId) {
        let mut m = Model::new();
        let x: Vec<Vec<VarId>> = (0..self.nurses)
            .map(|_| m.new_vars(self.days, Domain::range(OFF, NIGHT)).unwrap())
            .collect();
        for d in 0..self.days {
            let on_day: Vec<VarId> = x.iter().map(|row| row[d]).collect();
            for (shift, need) in [DAY, EVENING, NIGHT].into_iter().zip(self.demand(d)) {
                m.count(&on_day, shift, Relation::Ge, need as i64).unwrap();
            }
        }
        // Rest: no night followed by a day or evening shift, no evening
        // followed by a day shift.
        let allowed: Vec<Vec<i32>> = (OFF..=NIGHT)
            .flat_map(|a| (OFF..=NIGHT).map(move |b| vec![a, b]))
            .filter(|t| !forbidden(t[0], t[1]))
            .collect();
        let mut penalties = Vec::new();
        for (row, requests) in x.iter().zip(&self.requests) {
            for d in 0..self.days - 1 {
                m.table(&[row[d], row[d + 1]], allowed.clone()).unwrap();
            }
            // At most five working days in a row.
            for window in row.windows(6) {
                m.count(window, OFF, Relation::Ge, 1i64).unwrap();
            }
            // Between 8 and 10 shifts, at most 4 of them nights.
            m.count(row, OFF, Relation::Ge, 4i64).unwrap();
            m.count(row, OFF, Relation::Le, 6i64).unwrap();
            m.count(row, NIGHT, Relation::Le, 4i64).unwrap();
            for &d in requests {
                penalties.push(m.reify(row[d].ne(OFF)).unwrap());
            }
            for w in 0..self.days / 7 {
                let sat_off = m.reify(row[7 * w + 5].eq(OFF)).unwrap();
                let sun_off = m.reify(row[7 * w + 6].eq(OFF)).unwrap();
                penalties.push(m.reify(sat_off.ne(sun_off)).unwrap());
            }
        }
        let cost = m.define(sum(penalties)).unwrap();
        (m, x, cost)
    }

    /// The roster's cost if it keeps every rule, else what it breaks.
    pub fn check(&self, shifts: &[Vec<i32>]) -> Result<usize, String> {
        for d in 0..self.days {
            for (shift, need) in [DAY, EVENING, NIGHT].into_iter().zip(self.demand(d)) {
                let on = shifts.iter().filter(|row| row[d] == shift).count();
                if on < need {
                    return Err(format!("day {d}: {on} on shift {shift}, {need} needed"));
                }
            }
        }
        let mut cost = 0;
        for (i, row) in shifts.iter().enumerate() {
            if let Some(d) = (1..self.days).find(|&d| forbidden(row[d - 1], row[d])) {
                return Err(format!("nurse {i}: shift {} after {}", row[d], row[d - 1]));
            }
            let mut run = 0;
            for &s in row {
                run = if s == OFF { 0 } else { run + 1 };
                if run > 5 {
                    return Err(format!("nurse {i}: more than five days in a row"));
                }
            }
            let off = row.iter().filter(|&&s| s == OFF).count();
            let nights = row.iter().filter(|&&s| s == NIGHT).count();
            if !(4..=6).contains(&off) || nights > 4 {
                return Err(format!("nurse {i}: {off} days off, {nights} nights"));
            }
            cost += self.requests[i].iter().filter(|&&d| row[d] != OFF).count();
            cost += (0..self.days / 7)
                .filter(|w| (row[7 * w + 5] == OFF) != (row[7 * w + 6] == OFF))
                .count();
        }
        Ok(cost)
    }

    /// A lower bound from the data alone: on each day at most `nurses −
    /// demand` nurses are off, so the requests for that day beyond that
    /// number are refused.
    pub fn lower_bound(&self) -> usize {
        (0..self.days)
            .map(|d| {
                let asked = self
                    .requests
                    .iter()
                    .map(|r| r.iter().filter(|&&day| day == d).count())
                    .sum::<usize>();
                let free = self.nurses - self.demand(d).iter().sum::<usize>();
                asked.saturating_sub(free)
            })
            .sum()
    }
}

pub fn forbidden(before: i32, after: i32) -> bool {
    matches!(
        (before, after),
        (NIGHT, DAY) | (NIGHT, EVENING) | (EVENING, DAY)
    )
}

/// Eighteen items of sizes 20 to 50 into bins of 100, as a user writes it:
/// a bin per item, a load per bin, the bins used the largest bin number
/// plus one.
pub fn bin_packing(seed: u64) -> (Model, Vec<VarId>, VarId, Vec<i32>) {
    let mut rng = Lcg(seed);
    let sizes: Vec<i32> = (0..18).map(|_| 20 + rng.below(31) as i32).collect();
    let n = sizes.len();
    let mut m = Model::new();
    let bin = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    let load = m.new_vars(n, Domain::range(0, 100)).unwrap();
    m.bin_packing_load(&load, &bin, &sizes).unwrap();
    let used = m.define(max_of(bin.clone()) + 1).unwrap();
    (m, bin, used, sizes)
}
