//! What a search computes once per model and shares between the engines
//! of a parallel search: the watch lists (which constraints each variable
//! appears in), the fused all-different groups of forward checking, and
//! each constraint's inference level.

use std::sync::Arc;

use crate::constraint::fused::{combine, Combined};
use crate::domain::words::Simd;
use crate::model::Model;
use crate::search::Inference;

/// Per-model data the search needs, computed once (shared by parallel parts).
#[derive(Debug)]
pub(crate) struct Prepared {
    /// CSR watch lists: for variable v, `watch[start[v]..start[v+1]]` are the
    /// constraints it appears in.
    pub(super) start: Vec<u32>,
    pub(super) watch: Vec<u32>,
    /// Propagators that several constraints share (forward checking's
    /// fused all-different groups).
    pub(super) groups: Vec<Arc<dyn Combined>>,
    /// Per constraint, whether the engine builds no propagator of its own
    /// for it: a group took it, or it is switched off
    /// ([`Prepared::only`]).
    pub(super) skip: Vec<bool>,
    pub(super) simd: Simd,
    /// Per constraint, its inference level (the search's, or lower where
    /// the model caps it: [`Model::cap_inference`]).
    pub(super) levels: Vec<Inference>,
    /// Does the model hold constraints whose pruning is the caller's
    /// ([`Model::foreign`])? Their solutions are checked, not trusted.
    pub(super) foreign: bool,
    /// Without inference and with hidden variables ([`Model::hidden`]):
    /// the caller's variables, branched on before the hidden ones.
    /// Empty otherwise.
    pub(super) user_first: Vec<u32>,
}

impl Prepared {
    pub(crate) fn new(model: &Model, inference: Inference) -> Prepared {
        Prepared::only(model, inference, None)
    }

    /// [`Prepared::new`] for the constraints `on` marks (all when `None`):
    /// the others are switched off, as if the model did not have them
    /// (no propagator, no watch, no check). Only the explained kernel's
    /// callers switch constraints off ([`crate::Explainer::with_constraints`]);
    /// searches build with every constraint.
    pub(crate) fn only(model: &Model, inference: Inference, on: Option<&[bool]>) -> Prepared {
        let n = model.num_vars();
        let posted = model.posted();
        let is_on = |ci: usize| on.is_none_or(|on| on[ci]);
        let mut start = vec![0u32; n + 1];
        for (ci, c) in posted.iter().enumerate() {
            if !is_on(ci) {
                continue;
            }
            for x in c.scope() {
                start[x.index() + 1] += 1;
            }
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut watch = vec![0u32; start[n] as usize];
        for (ci, c) in posted.iter().enumerate() {
            if !is_on(ci) {
                continue;
            }
            for x in c.scope() {
                watch[fill[x.index()] as usize] = ci as u32;
                fill[x.index()] += 1;
            }
        }
        let mut levels: Vec<Inference> = (0..posted.len())
            .map(|ci| model.inference_of(crate::ConstraintId(ci as u32), inference))
            .collect();
        // Without inference, the variables expressions introduced would
        // be branched on like the caller's (x·y over 0..=999 has a
        // million values): the caller's come first, and the constraints
        // defining the hidden ones are forward checked, which fixes each
        // once its arguments are.
        let mut user_first = Vec::new();
        if inference == Inference::None && !model.hidden().is_empty() {
            let mut hidden = vec![false; n];
            for &(z, c) in model.hidden() {
                hidden[z.index()] = true;
                levels[c.0 as usize] = model.inference_of(c, Inference::ForwardChecking);
            }
            user_first = (0..n as u32).filter(|&i| !hidden[i as usize]).collect();
        }
        // Forward-checked all-different constraints over the same variables
        // are fused (all of them when the search forward-checks, the capped
        // ones under MAC).
        let groups = combine(model, |ci| {
            is_on(ci) && levels[ci] == Inference::ForwardChecking
        });
        let mut skip: Vec<bool> = (0..posted.len()).map(|ci| !is_on(ci)).collect();
        for g in &groups {
            for &c in g.members() {
                skip[c as usize] = true;
            }
        }
        Prepared {
            start,
            watch,
            groups,
            skip,
            simd: Simd::detect(),
            levels,
            foreign: !model.foreign().is_empty(),
            user_first,
        }
    }

    /// True when every constraint prunes (none is left to the checker on
    /// full assignments) and all the pruning is the library's, so the
    /// values left to the last variable are solutions. A caller's
    /// constraint may prune too little: each solution is then reached and
    /// checked (a node each, so the limits hold).
    pub(super) fn all_prune(&self) -> bool {
        !self.foreign && self.levels.iter().all(|&l| l != Inference::None)
    }

    /// The constraints on variable `v`.
    #[inline]
    pub(super) fn watches(&self, v: usize) -> &[u32] {
        &self.watch[self.start[v] as usize..self.start[v + 1] as usize]
    }

    pub(super) fn degree(&self, v: usize) -> u32 {
        self.start[v + 1] - self.start[v]
    }
}
