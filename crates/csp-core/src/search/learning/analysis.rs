//! Conflict analysis to the first unique implication point, over domain
//! literals and the explanation trail.
//!
//! A conflict comes as a conjunction of literals that hold now and cannot
//! hold together (a failing propagator's premises, or a nogood whose
//! literals are all false). Each literal is made true by one or more trail
//! entries ([`History::supports`]): the analysis works on entries, as
//! MiniSat's works on trail positions. Let `L` be the highest decision
//! level among them. While more than one entry of level `L` is left, the
//! latest one is replaced by the entries behind its reason (its premises,
//! read as of its position: eager, lazy through
//! [`Propagator::explain`](crate::propagation::Propagator::explain), the
//! scope fallback, or the nogood that wrote it); entries of level 0 are
//! facts and dropped. The last entry of level `L` left is the first UIP:
//! the nogood is the UIP's literal with the entries of lower levels, and
//! the clause learned is its negation, which after backjumping to the
//! highest of those lower levels makes the UIP's negation true (Marques-
//! Silva and Sakallah's GRASP, 1999; over domain literals as in lazy
//! clause generation, Ohrimenko, Stuckey and Codish, 2009, and Chuffed;
//! Pumpkin's analysis is the same shape).
//!
//! The analysis is sound for any reason that is: each replacement keeps a
//! conjunction that, with the model and the declared domains, cannot hold.
//! So a learned clause excludes no solution of the model (under the
//! objective bound in force, which is a level-0 fact).

use super::activity::Activity;
use crate::domain::explained::{Cause, History};
use crate::explain::entry_premises;
use crate::literal::Literal;
use crate::search::engine::Engine;

/// A learned clause: `lits[0]` is the asserting literal (the negated UIP),
/// `lits[1]` (if any) a literal of the backjump level.
#[derive(Clone, Debug)]
pub(crate) struct Learnt {
    /// The clause.
    pub(crate) lits: Vec<Literal>,
    /// The level to backjump to (where the clause is unit).
    pub(crate) level: usize,
    /// Its literal block distance: the number of decision levels among
    /// its literals.
    pub(crate) lbd: u32,
}

/// Scratch space of the analysis, kept between conflicts.
#[derive(Clone, Debug, Default)]
pub(crate) struct Analyzer {
    /// Per trail position: the stamp of the analysis that saw it.
    seen: Vec<u32>,
    stamp: u32,
    premises: Vec<Literal>,
    /// Entries of the nogood below the conflict level.
    lower: Vec<usize>,
}

impl Analyzer {
    /// Analyses a conflict on `conflict` (literals true at the end of the
    /// trail). `None` when the conflict rests on level-0 facts alone: the
    /// problem (under the current bound) has no solution.
    pub(crate) fn analyze(
        &mut self,
        engine: &mut Engine<'_>,
        conflict: &[Literal],
        activity: &mut Activity,
    ) -> Option<Learnt> {
        engine.store.ex.chain();
        let len = engine.store.ex.entries.len();
        if self.seen.len() < len {
            self.seen.resize(len, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.lower.clear();
        // The entries behind the conflict, and its level.
        let mut roots: Vec<usize> = Vec::new();
        {
            let h = history(engine, len);
            for &p in conflict {
                roots.extend(h.supports(p));
            }
        }
        let ex = &engine.store.ex;
        let top = roots
            .iter()
            .map(|&k| ex.entries[k].level())
            .max()
            .unwrap_or(0);
        if top == 0 {
            return None;
        }
        let mut count = 0usize;
        for k in roots {
            self.add(engine, k, top, &mut count, activity);
        }
        // Walk the trail back, resolving entries of level `top`.
        let mut i = len;
        let uip = loop {
            if i == 0 {
                // Cannot happen (the count stays at least 1), but never
                // loop: no clause.
                return None;
            }
            i -= 1;
            let e = engine.store.ex.entries[i];
            if self.seen[i] != self.stamp || e.level() != top {
                continue;
            }
            if count == 1 {
                break i;
            }
            count -= 1;
            self.premises.clear();
            let mut prem = std::mem::take(&mut self.premises);
            entry_premises(engine, i, &mut prem);
            let mut found: Vec<usize> = Vec::new();
            {
                let h = history(engine, i);
                for &p in &prem {
                    found.extend(h.supports(p));
                }
            }
            self.premises = prem;
            for k in found {
                self.add(engine, k, top, &mut count, activity);
            }
        };
        self.minimize(engine);
        let ex = &engine.store.ex;
        // Highest level first, so that lits[1] is of the backjump level.
        self.lower
            .sort_unstable_by_key(|&k| std::cmp::Reverse((ex.entries[k].level(), k)));
        let mut lits = Vec::with_capacity(self.lower.len() + 1);
        lits.push(ex.entries[uip].lit().negate());
        lits.extend(self.lower.iter().map(|&k| ex.entries[k].lit().negate()));
        let level = self.lower.first().map_or(0, |&k| ex.entries[k].level()) as usize;
        let mut levels: Vec<u32> = self.lower.iter().map(|&k| ex.entries[k].level()).collect();
        levels.dedup(); // sorted by level already
        let lbd = levels.len() as u32 + 1;
        Some(Learnt { lits, level, lbd })
    }

    /// Drops from the nogood the entries of lower levels that its other
    /// entries imply: a propagated entry whose premises all rest on
    /// entries seen by this analysis (or on level-0 facts). Every entry
    /// seen is implied by the nogood's literals with the entries before it
    /// (by trail order), so the shorter nogood still cannot hold (MiniSat's
    /// local minimisation; Sörensson and Biere, "Minimizing learned
    /// clauses", SAT 2009, do it recursively).
    fn minimize(&mut self, engine: &mut Engine<'_>) {
        let lower = std::mem::take(&mut self.lower);
        let mut kept = Vec::with_capacity(lower.len());
        let mut prem = std::mem::take(&mut self.premises);
        for k in lower {
            let e = engine.store.ex.entries[k];
            if !matches!(e.cause(), Cause::Propagated { .. }) {
                kept.push(k);
                continue;
            }
            prem.clear();
            entry_premises(engine, k, &mut prem);
            let h = history(engine, k);
            let ex = &engine.store.ex;
            let implied = prem.iter().all(|&p| {
                h.supports(p)
                    .iter()
                    .all(|&j| self.seen[j] == self.stamp || ex.entries[j].level() == 0)
            });
            if !implied {
                kept.push(k);
            }
        }
        self.premises = prem;
        self.lower = kept;
    }

    /// Marks entry `k` as part of the nogood: counted if of level `top`,
    /// kept if lower, dropped if of level 0.
    fn add(
        &mut self,
        engine: &Engine<'_>,
        k: usize,
        top: u32,
        count: &mut usize,
        activity: &mut Activity,
    ) {
        if self.seen[k] == self.stamp {
            return;
        }
        self.seen[k] = self.stamp;
        let e = engine.store.ex.entries[k];
        if e.level() == 0 {
            return;
        }
        activity.bump(e.lit().var().index() as u32);
        if e.level() == top {
            *count += 1;
        } else {
            self.lower.push(k);
        }
    }
}

/// The trail of `engine` as of position `at`.
fn history<'e>(engine: &'e Engine<'_>, at: usize) -> History<'e> {
    History {
        root: engine
            .root
            .as_deref()
            .expect("learning runs in explaining mode"),
        trail: &engine.store.ex,
        at,
    }
}
