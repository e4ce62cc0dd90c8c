//! Conflicts as the analysis sees them, step by step, for people learning
//! how a nogood is made ([`Search::trace_conflicts`](crate::Search::trace_conflicts),
//! `fzn-csp --trace-conflicts N`, the learning chapter of the book).
//!
//! Tracing copies what the analysis reads (the entries behind the
//! conflict, each resolution, the first UIP, what minimisation drops); a
//! search that traces nothing pays one test per conflict.

use std::fmt::Write;

use crate::ids::ConstraintId;
use crate::literal::Literal;
use crate::model::Model;

/// Why an entry of the trail holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A decision of the search.
    Decision,
    /// A given (a fact asserted before the search).
    Given,
    /// The objective bound of branch and bound.
    Bound,
    /// Inferred by these constraints (one propagator may serve several,
    /// when constraints are fused).
    Constraints(Vec<ConstraintId>),
    /// Inferred by a learned nogood.
    Nogood,
    /// Made true by several earlier changes of its variable together (no
    /// one entry implies it: `x = 5` once every other value was removed),
    /// and taken into the nogood as one literal.
    Domain,
    /// Recorded without a reason (a bug the explanation checks report).
    Unexplained,
}

/// One entry of the trail: a literal made true at a decision level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedEntry {
    /// What became true.
    pub lit: Literal,
    /// The decision level where it did (0: a fact at the root).
    pub level: u32,
    /// Why.
    pub origin: Origin,
}

/// One resolution step: an entry of the conflict level replaced by the
/// entries behind its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The entry resolved away (the latest of the conflict level).
    pub entry: TracedEntry,
    /// Its reason's premises: the literals that, with its constraint,
    /// imply it.
    pub premises: Vec<Literal>,
    /// The trail entries that make those premises true.
    pub behind: Vec<TracedEntry>,
}

/// One conflict of the learning search, analysed to its first unique
/// implication point (see `docs/learning.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictTrace {
    /// The conflict's number in the search (1 for the first).
    pub number: u64,
    /// The decision level where the conflict happened.
    pub level: u32,
    /// What failed: the constraints of the failing propagator, or a
    /// learned nogood.
    pub failed: Origin,
    /// The literals that hold and cannot hold together.
    pub conflict: Vec<Literal>,
    /// The trail entries that make them true.
    pub entries: Vec<TracedEntry>,
    /// The resolutions, latest entry first, until one entry of the
    /// conflict level is left.
    pub steps: Vec<Resolution>,
    /// The entry left: the first unique implication point.
    pub uip: TracedEntry,
    /// Entries of lower levels the minimisation dropped (the others imply
    /// them).
    pub dropped: Vec<TracedEntry>,
    /// The clause learned: at least one of these literals holds in every
    /// solution. The first is the negated UIP, which the clause asserts
    /// after the backjump.
    pub clause: Vec<Literal>,
    /// The level the search backjumps to.
    pub backjump: usize,
}

impl ConflictTrace {
    /// The trace as lines of text, with the variables and constraints of
    /// `model` by name.
    pub fn render(&self, model: &Model) -> String {
        let lit = |l: &Literal| l.display_with(|x| model.display_name(x)).to_string();
        let lits = |ls: &[Literal], sep: &str| ls.iter().map(lit).collect::<Vec<_>>().join(sep);
        let origin = |o: &Origin| match o {
            Origin::Decision => "decision".to_string(),
            Origin::Given => "given".to_string(),
            Origin::Bound => "the objective bound".to_string(),
            Origin::Nogood => "a learned nogood".to_string(),
            Origin::Domain => "its variable's earlier changes together".to_string(),
            Origin::Unexplained => "no reason recorded".to_string(),
            Origin::Constraints(cs) => cs
                .iter()
                .map(|&c| constraint(model, c))
                .collect::<Vec<_>>()
                .join(" + "),
        };
        let entry =
            |e: &TracedEntry| format!("{} @{} ({})", lit(&e.lit), e.level, origin(&e.origin));
        let entries = |es: &[TracedEntry]| {
            es.iter()
                .map(|e| format!("    {}\n", entry(e)))
                .collect::<String>()
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "conflict {} at level {}: {} fails",
            self.number,
            self.level,
            origin(&self.failed)
        );
        let _ = writeln!(
            out,
            "  cannot hold together: {}",
            lits(&self.conflict, ", ")
        );
        let _ = write!(out, "  made true by:\n{}", entries(&self.entries));
        for (k, s) in self.steps.iter().enumerate() {
            let _ = writeln!(
                out,
                "  step {}: resolve {}, implied by {}",
                k + 1,
                entry(&s.entry),
                if s.premises.is_empty() {
                    "nothing".to_string()
                } else {
                    lits(&s.premises, ", ")
                }
            );
            if !s.behind.is_empty() {
                let _ = write!(out, "{}", entries(&s.behind));
            }
        }
        let _ = writeln!(
            out,
            "  one entry of level {} left, the first UIP: {}",
            self.level,
            entry(&self.uip)
        );
        if !self.dropped.is_empty() {
            let _ = write!(
                out,
                "  minimisation drops (implied by the rest):\n{}",
                entries(&self.dropped)
            );
        }
        let negated: Vec<Literal> = self.clause.iter().map(|l| l.negate()).collect();
        let _ = writeln!(out, "  nogood: {}", lits(&negated, " ∧ "));
        let _ = writeln!(out, "  learned clause: {}", lits(&self.clause, " ∨ "));
        let _ = writeln!(
            out,
            "  backjump to level {}, where the clause makes {} true",
            self.backjump,
            lit(&self.clause[0])
        );
        out
    }
}

/// A constraint as `name(x, y, ...)` (at most six variables shown).
fn constraint(model: &Model, c: ConstraintId) -> String {
    let con = model.constraint(c);
    let scope = con.scope();
    let mut names: Vec<String> = scope
        .iter()
        .take(6)
        .map(|&x| model.display_name(x))
        .collect();
    if scope.len() > 6 {
        names.push(format!("… {} more", scope.len() - 6));
    }
    format!("{}({})", con.name(), names.join(", "))
}
