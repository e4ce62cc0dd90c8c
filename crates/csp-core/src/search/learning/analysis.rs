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
use super::trace::{ConflictTrace, Origin, Resolution, TracedEntry};
use crate::domain::explained::{implies, Cause, History};
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
    /// Scratch: the entries that make a set of premises true.
    found: Vec<usize>,
    /// Per trail position: the stamp of the analysis whose minimisation
    /// found the entry not implied by the nogood.
    failed: Vec<u32>,
    /// Scratch of [`redundant`](Self::redundant): its search's frames and
    /// the entries behind their reasons.
    stack: Vec<(usize, usize, usize, usize)>,
    behind: Vec<usize>,
    /// Literals of the nogood below the conflict level that no single
    /// entry makes true (see [`Analyzer::take`]), with their levels.
    composites: Vec<(Literal, u32)>,
    /// Per variable: the stamp of the analysis that has a composite
    /// literal on it.
    composite_var: Vec<u32>,
    /// Scratch: per premise, the premise and its entries in `found`.
    groups: Vec<(Literal, usize, usize)>,
    /// Reasons already computed, kept while their entries stay on the
    /// trail (see [`Analyzer::reason`]).
    reasons: ReasonCache,
    /// Entries the last minimisation dropped.
    pub(crate) removed: usize,
    /// Of those, the entries whose removal needed the recursion (local
    /// minimisation, which looks at the direct premises only, would have
    /// kept them).
    pub(crate) deep: usize,
    /// When tracing: the conflict being analysed, step by step
    /// (`Learner::traces`).
    pub(crate) trace: Option<ConflictTrace>,
}

/// The reasons of trail entries already computed, with the entries that
/// make each premise true, kept until their entries leave the trail. An
/// entry's reason and its premises' entries are read as of its position,
/// so they stay the same while the entry and the trail before it do; the
/// minimisation of each conflict asks again for the reasons of the same
/// lower-level entries, and a lazy reason can cost far more than the
/// copy (all-different's Hall sets rebuild past domains). Chuffed turns a
/// lazy reason into a stored one the first time it is asked for; this
/// cache does the same beside the trail, whose premise store is cut back
/// per level and cannot take premises of an older level.
#[derive(Clone, Debug, Default)]
struct ReasonCache {
    /// Per trail position: its premises' range in `groups`, when cached.
    at: Vec<Option<(u32, u32)>>,
    /// Per premise: the premise and the range of its entries in `entries`.
    groups: Vec<(Literal, u32, u32)>,
    entries: Vec<usize>,
    /// Premises in `groups` that belong to entries still on the trail.
    live: usize,
}

impl ReasonCache {
    /// Beyond this many premises, a cache holding at most a quarter of
    /// live ones is compacted.
    #[cfg(not(debug_assertions))]
    const COMPACT_AT: usize = 1 << 16;
    /// Small in debug builds (the tests), so that the brute-force tests
    /// of learned nogoods (`tests/learning.rs`) go through compactions.
    #[cfg(debug_assertions)]
    const COMPACT_AT: usize = 16;

    /// The range in `groups` of the premises of trail entry `k`, computed
    /// (with `prem` as scratch) unless cached.
    fn of(&mut self, engine: &mut Engine<'_>, k: usize, prem: &mut Vec<Literal>) -> (usize, usize) {
        if let Some(&Some((s, e))) = self.at.get(k) {
            let (s, e) = (s as usize, e as usize);
            #[cfg(debug_assertions)]
            {
                // The tests check every hit against the reason read anew.
                let (mut groups, mut entries) = (Vec::new(), Vec::new());
                Self::read(engine, k, prem, &mut groups, &mut entries);
                let cached: Vec<(Literal, &[usize])> = self.groups[s..e]
                    .iter()
                    .map(|&(p, a, b)| (p, &self.entries[a as usize..b as usize]))
                    .collect();
                let fresh: Vec<(Literal, &[usize])> = groups
                    .iter()
                    .map(|&(p, a, b)| (p, &entries[a as usize..b as usize]))
                    .collect();
                assert_eq!(cached, fresh, "the cached reason of entry {k}");
            }
            return (s, e);
        }
        let start = self.groups.len();
        Self::read(engine, k, prem, &mut self.groups, &mut self.entries);
        if self.at.len() <= k {
            self.at.resize(k + 1, None);
        }
        let end = self.groups.len();
        self.at[k] = Some((start as u32, end as u32));
        self.live += end - start;
        (start, end)
    }

    /// Reads the premises of entry `k` (with `prem` as scratch) and the
    /// entries behind each, appending them to `groups` and `entries`.
    fn read(
        engine: &mut Engine<'_>,
        k: usize,
        prem: &mut Vec<Literal>,
        groups: &mut Vec<(Literal, u32, u32)>,
        entries: &mut Vec<usize>,
    ) {
        prem.clear();
        entry_premises(engine, k, prem);
        let h = history(engine, k);
        for &p in prem.iter() {
            let a = entries.len() as u32;
            h.supports_into(p, entries);
            groups.push((p, a, entries.len() as u32));
        }
    }

    /// Forgets the reasons of the entries from position `len` on (the
    /// trail was cut back to `len` entries).
    fn truncate(&mut self, len: usize) {
        if self.at.len() <= len {
            return;
        }
        for (s, e) in self.at.drain(len..).flatten() {
            self.live -= (e - s) as usize;
        }
        if self.live == 0 {
            self.groups.clear();
            self.entries.clear();
        } else if self.groups.len() > Self::COMPACT_AT && self.groups.len() > 4 * self.live {
            let mut groups = Vec::with_capacity(2 * self.live);
            let mut entries = Vec::new();
            for r in self.at.iter_mut().flatten() {
                let start = groups.len() as u32;
                for &(p, a, b) in &self.groups[r.0 as usize..r.1 as usize] {
                    let from = entries.len() as u32;
                    entries.extend_from_slice(&self.entries[a as usize..b as usize]);
                    groups.push((p, from, entries.len() as u32));
                }
                *r = (start, groups.len() as u32);
            }
            self.groups = groups;
            self.entries = entries;
        }
    }
}

/// Entry `k` of the trail, for a trace.
pub(crate) fn traced(engine: &Engine<'_>, k: usize) -> TracedEntry {
    let e = engine.store.ex.entries[k];
    TracedEntry {
        lit: e.lit(),
        level: e.level(),
        origin: origin(engine, e.cause()),
    }
}

/// Why an entry of cause `c` holds, for a trace.
pub(crate) fn origin(engine: &Engine<'_>, c: Cause) -> Origin {
    match c {
        Cause::Given => Origin::Given,
        Cause::Decision => Origin::Decision,
        Cause::Bound => Origin::Bound,
        Cause::Propagated { prop, .. } if prop == u32::MAX => Origin::Unexplained,
        Cause::Propagated { prop, .. } if prop == super::nogoods::NOGOOD_PROP => Origin::Nogood,
        Cause::Propagated { prop, .. } => Origin::Constraints(
            engine
                .kernel
                .owners(prop)
                .iter()
                .map(|&c| crate::ConstraintId(c))
                .collect(),
        ),
    }
}

/// Is `c` a propagation with a reason (not a decision, a given, the
/// bound, or a change recorded without a reason)?
#[inline]
fn explained(c: Cause) -> bool {
    matches!(c, Cause::Propagated { prop, .. } if prop != u32::MAX)
}

/// The bit of level `l` in a set of levels kept as a `u64` (levels equal
/// modulo 64 share a bit: the set may say yes wrongly, never no).
#[inline]
fn level_bit(l: u32) -> u64 {
    1u64 << (l & 63)
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
            self.failed.resize(len, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.failed.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.lower.clear();
        self.composites.clear();
        if self.composite_var.len() < engine.store.len() {
            self.composite_var.resize(engine.store.len(), 0);
        }
        // The entries behind the conflict, and its level.
        let mut found = std::mem::take(&mut self.found);
        let mut groups = std::mem::take(&mut self.groups);
        gather(engine, len, conflict, &mut found, &mut groups);
        let ex = &engine.store.ex;
        let top = found
            .iter()
            .map(|&k| ex.entries[k].level())
            .max()
            .unwrap_or(0);
        if top == 0 {
            self.found = found;
            self.groups = groups;
            return None;
        }
        let mut count = 0usize;
        let behind = self.take_all(engine, &found, &groups, top, &mut count, activity);
        if let Some(t) = &mut self.trace {
            t.level = top;
            t.conflict = conflict.to_vec();
            t.entries = behind;
        }
        // Walk the trail back, resolving entries of level `top`.
        let mut i = len;
        let uip = loop {
            if i == 0 {
                // Cannot happen (the count stays at least 1), but never
                // loop: no clause.
                self.found = found;
                self.groups = groups;
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
            gather(engine, i, &prem, &mut found, &mut groups);
            let behind = self.take_all(engine, &found, &groups, top, &mut count, activity);
            if let Some(t) = &mut self.trace {
                t.steps.push(Resolution {
                    entry: traced(engine, i),
                    premises: prem.clone(),
                    behind,
                });
            }
            self.premises = prem;
        };
        self.found = found;
        self.groups = groups;
        let before = self.trace.as_ref().map(|_| self.lower.clone());
        self.minimize(engine);
        if let (Some(t), Some(before)) = (&mut self.trace, before) {
            t.uip = traced(engine, uip);
            t.dropped = before
                .iter()
                .filter(|k| !self.lower.contains(k))
                .map(|&k| traced(engine, k))
                .collect();
        }
        let ex = &engine.store.ex;
        // Highest level first, so that lits[1] is of the backjump level
        // (entries before composites within a level: a stable sort).
        self.lower
            .sort_unstable_by_key(|&k| std::cmp::Reverse((ex.entries[k].level(), k)));
        let mut others: Vec<(u32, Literal)> = self
            .lower
            .iter()
            .map(|&k| (ex.entries[k].level(), ex.entries[k].lit()))
            .chain(self.composites.iter().map(|&(l, lv)| (lv, l)))
            .collect();
        others.sort_by_key(|&(lv, _)| std::cmp::Reverse(lv));
        let mut lits = Vec::with_capacity(others.len() + 1);
        lits.push(ex.entries[uip].lit().negate());
        lits.extend(others.iter().map(|&(_, l)| l.negate()));
        let level = others.first().map_or(0, |&(lv, _)| lv) as usize;
        let mut levels: Vec<u32> = others.iter().map(|&(lv, _)| lv).collect();
        levels.dedup(); // sorted by level already
        let lbd = levels.len() as u32 + 1;
        if let Some(t) = &mut self.trace {
            t.clause = lits.clone();
            t.backjump = level;
        }
        Some(Learnt { lits, level, lbd })
    }

    /// The trail was cut back to `len` entries: the reasons of the entries
    /// past it are forgotten.
    pub(crate) fn backtracked(&mut self, len: usize) {
        self.reasons.truncate(len);
    }

    /// Drops from the nogood the entries of lower levels that the others
    /// imply: recursive minimisation (Sörensson and Biere, "Minimizing
    /// learned clauses", SAT 2009; MiniSat 2.2's `litRedundant`). An entry
    /// is redundant when every entry behind its reason is in the nogood
    /// (seen by this analysis), a level-0 fact, or itself redundant;
    /// decisions, givens and the bound are not. Every entry seen is
    /// implied by the nogood's entries before it on the trail (the
    /// resolution steps say so, and an entry is only marked when proven
    /// redundant), and an entry's premises precede it, so by induction on
    /// the trail the shorter nogood still cannot hold. The search stops
    /// at the entries of levels the nogood does not have (MiniSat's
    /// abstract levels): those rest on a decision not in it.
    fn minimize(&mut self, engine: &mut Engine<'_>) {
        let lower = std::mem::take(&mut self.lower);
        let mut levels = 0u64;
        for &k in &lower {
            levels |= level_bit(engine.store.ex.entries[k].level());
        }
        for &(_, lv) in &self.composites {
            levels |= level_bit(lv);
        }
        let mut kept = Vec::with_capacity(lower.len());
        self.deep = 0;
        for &k in &lower {
            let e = engine.store.ex.entries[k];
            if !explained(e.cause()) || !self.redundant(engine, k, levels) {
                kept.push(k);
            }
        }
        self.removed = lower.len() - kept.len();
        self.lower = kept;
    }

    /// Is entry `k` (seen) implied by the other entries seen? A depth-
    /// first search over the entries behind the reasons. An entry is
    /// marked as seen once every entry behind its reason is (it is implied
    /// then, and stays so for the rest of this analysis); when the search
    /// meets an entry that cannot be implied (a decision, a given, the
    /// bound, a change without a reason, an entry of a level the nogood
    /// lacks, or one that failed before), the entries on the path to it
    /// are marked as failed, so that no later search of this analysis
    /// explores them again (the "poisoned" literals of Van Gelder's
    /// improvement to MiniSat's minimisation, as in CaDiCaL and Pumpkin).
    fn redundant(&mut self, engine: &mut Engine<'_>, k: usize, levels: u64) -> bool {
        let mut frames = std::mem::take(&mut self.stack);
        let mut behind = std::mem::take(&mut self.behind);
        let mut prem = std::mem::take(&mut self.premises);
        frames.clear();
        behind.clear();
        // A frame is (entry, start, next, end): the entries behind its
        // reason are `behind[start..end]`, those from `next` not looked at
        // yet. The top frame's are last in `behind`.
        self.push_frame(engine, k, &mut prem, &mut behind, &mut frames);
        let mut ok = true;
        let mut deep = false;
        while let Some(&(q, start, next, end)) = frames.last() {
            if next == end {
                // Everything behind `q` is implied, so `q` is.
                frames.pop();
                behind.truncate(start);
                self.seen[q] = self.stamp;
                continue;
            }
            let n = frames.len();
            frames[n - 1].2 += 1;
            let j = behind[next];
            let e = engine.store.ex.entries[j];
            if self.seen[j] == self.stamp || e.level() == 0 {
                continue;
            }
            if self.failed[j] == self.stamp
                || !explained(e.cause())
                || levels & level_bit(e.level()) == 0
            {
                ok = false;
                break;
            }
            deep = true;
            self.push_frame(engine, j, &mut prem, &mut behind, &mut frames);
        }
        if ok {
            // Local minimisation would have kept `k` when the search went
            // beyond its own premises.
            self.deep += usize::from(deep);
        } else {
            // The entries on the path to the failure are not implied.
            for &(q, ..) in &frames {
                self.failed[q] = self.stamp;
            }
        }
        self.stack = frames;
        self.behind = behind;
        self.premises = prem;
        ok
    }

    /// Pushes a frame for entry `q`: the entries behind its reason,
    /// appended to `behind`.
    fn push_frame(
        &mut self,
        engine: &mut Engine<'_>,
        q: usize,
        prem: &mut Vec<Literal>,
        behind: &mut Vec<usize>,
        frames: &mut Vec<(usize, usize, usize, usize)>,
    ) {
        let (a, b) = self.reasons.of(engine, q, prem);
        let start = behind.len();
        for &(p, s, e) in &self.reasons.groups[a..b] {
            if !self.covered(p) {
                behind.extend_from_slice(&self.reasons.entries[s as usize..e as usize]);
            }
        }
        frames.push((q, start, start, behind.len()));
    }

    /// [`take`](Self::take)s each premise of `groups` (as [`gather`]
    /// made them) into the nogood; what it took, when tracing.
    fn take_all(
        &mut self,
        engine: &Engine<'_>,
        found: &[usize],
        groups: &[(Literal, usize, usize)],
        top: u32,
        count: &mut usize,
        activity: &mut Activity,
    ) -> Vec<TracedEntry> {
        let mut took = Vec::new();
        for &(p, a, b) in groups {
            self.take(engine, p, &found[a..b], top, count, activity, &mut took);
        }
        took
    }

    /// Takes premise `p`, made true by the entries `by`, into the nogood.
    /// When several entries make it true and all are below the conflict
    /// level `top`, the literal itself goes into the nogood (a
    /// *composite*: `x = 5` reached by removing the other values one at a
    /// time is one literal of the clause, not one per value removed), as
    /// in lazy clause generation, where every literal of a reason is a
    /// literal of the clause (Chuffed, Pumpkin); else its entries, each
    /// by [`add`](Self::add). Appends what it took to `traced_out` when
    /// tracing.
    #[allow(clippy::too_many_arguments)]
    fn take(
        &mut self,
        engine: &Engine<'_>,
        p: Literal,
        by: &[usize],
        top: u32,
        count: &mut usize,
        activity: &mut Activity,
        traced_out: &mut Vec<TracedEntry>,
    ) {
        if by.len() > 1 {
            let ex = &engine.store.ex;
            let level = by.iter().map(|&k| ex.entries[k].level()).max().unwrap_or(0);
            if level == 0 {
                return; // a fact
            }
            if level < top {
                if !self.covered(p) {
                    let x = p.var().index();
                    self.composite_var[x] = self.stamp;
                    self.composites.push((p, level));
                    activity.bump(x as u32);
                }
                if self.trace.is_some() {
                    traced_out.push(TracedEntry {
                        lit: p,
                        level,
                        origin: Origin::Domain,
                    });
                }
                return;
            }
        }
        for &k in by {
            if self.trace.is_some() {
                traced_out.push(traced(engine, k));
            }
            self.add(engine, k, top, count, activity);
        }
    }

    /// Does a composite literal of the nogood imply `p`?
    #[inline]
    fn covered(&self, p: Literal) -> bool {
        let x = p.var().index();
        self.composite_var[x] == self.stamp
            && self
                .composites
                .iter()
                .any(|&(c, _)| c.var() == p.var() && implies(c, p))
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

/// The entries that make each of `premises` true as of position `at`,
/// in `found`, and per premise its range there, in `groups` (both
/// cleared first).
fn gather(
    engine: &Engine<'_>,
    at: usize,
    premises: &[Literal],
    found: &mut Vec<usize>,
    groups: &mut Vec<(Literal, usize, usize)>,
) {
    found.clear();
    groups.clear();
    let h = history(engine, at);
    for &p in premises {
        let start = found.len();
        h.supports_into(p, found);
        groups.push((p, start, found.len()));
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
