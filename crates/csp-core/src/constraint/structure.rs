//! Structure constraints over successor variables (circuit, subcircuit)
//! and permutations (inverse). Indices are 0-based.

use super::distinct::subscribe_all;
use super::distinct::Consistency;
use super::Why;
use super::{Constraint, Pruner};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Premises, Priority, Propagator, Setup};
use crate::{Model, ModelError};

/// The successor variables `succ` (node `i` goes to node `succ[i]`, 0-based)
/// form one Hamiltonian circuit over all nodes; with `sub`, the nodes `i`
/// with `succ[i] = i` are left out and the others form one circuit (or none
/// at all).
///
/// # Pruning
/// [`Model::circuit`] and [`Model::subcircuit`] post this constraint beside
/// a domain-consistent all-different over `succ`. This one removes the
/// values outside `0..n` (and, for a circuit of two or more nodes, the
/// self-loops) and does the no-subtour reasoning of Caseau and Laburthe
/// ("Solving small TSPs with constraints", ICLP 1997): for each chain of
/// fixed successors from `s` to `e` that does not cover every node, `s` is
/// removed from `succ[e]` (closing it would make a subtour); a cycle of fixed
/// successors that leaves a node out is a conflict. For a subcircuit, a
/// chain may close only when every node outside it can point to itself.
/// O(n) per call. The checker follows the successors, O(n); local-search
/// violations are 0 or 1.
#[derive(Debug, Clone)]
pub struct Circuit {
    succ: Vec<VarId>,
    sub: bool,
}

impl Constraint for Circuit {
    fn scope(&self) -> &[VarId] {
        &self.succ
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        let n = values.len();
        if values.iter().any(|&v| v < 0 || v as usize >= n) {
            return false;
        }
        let mut seen = vec![false; n];
        let in_circuit: Vec<usize> = if self.sub {
            (0..n).filter(|&i| values[i] as usize != i).collect()
        } else {
            (0..n).collect()
        };
        let Some(&start) = in_circuit.first() else {
            // No node: the empty circuit (subcircuit only, or n = 0).
            return true;
        };
        let mut at = start;
        for _ in 0..in_circuit.len() {
            if seen[at] {
                return false;
            }
            seen[at] = true;
            at = values[at] as usize;
        }
        at == start && in_circuit.iter().all(|&i| seen[i])
    }
    fn name(&self) -> &str {
        if self.sub {
            "subcircuit"
        } else {
            "circuit"
        }
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        // MiniZinc's successors count from 1.
        let name = if self.sub { "subcircuit" } else { "circuit" };
        Some(format!(
            "{name}({})",
            crate::minizinc::list(&crate::minizinc::plus_one(vars))
        ))
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        let n = self.succ.len();
        Some(Box::new(CircuitProp {
            c: self,
            has_pred: vec![false; n],
            seen: vec![false; n],
        }))
    }
}

#[derive(Debug)]
struct CircuitProp<'a> {
    c: &'a Circuit,
    has_pred: Vec<bool>,
    seen: Vec<bool>,
}

impl CircuitProp<'_> {
    /// Can every node outside `chain` (marked in `seen` for this chain)
    /// point to itself? (For a subcircuit: may the chain close?)
    fn rest_can_loop(&self, p: &Pruner<'_>, in_chain: &[bool]) -> bool {
        self.c
            .succ
            .iter()
            .enumerate()
            .all(|(i, &x)| in_chain[i] || p.contains(x, i as Value))
    }
}

/// Pushes the fixed successors of the chain (or cycle) from `s`:
/// `succ[k] = next` for each node until an open one or a repeat.
fn chain(r: &mut Premises<'_>, succ: &[VarId], s: usize) {
    let mut seen = vec![false; succ.len()];
    let mut at = s;
    while !seen[at] {
        seen[at] = true;
        match r.value(succ[at]) {
            Some(j) if j as usize != at => {
                r.push(Literal::Eq(succ[at], j));
                at = j as usize;
            }
            _ => break,
        }
    }
}

impl Propagator for CircuitProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, &self.c.succ, Events::FIXED);
    }

    fn wants_notify(&self) -> bool {
        false
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let succ = &self.c.succ;
        let n = succ.len();
        if n == 0 {
            return Ok(());
        }
        let top = (n - 1) as Value;
        for (i, &x) in succ.iter().enumerate() {
            p.set_min(x, 0, Why::Constraint)?;
            p.set_max(x, top, Why::Constraint)?;
            if !self.c.sub && n > 1 {
                p.remove(x, i as Value, Why::Constraint)?;
            }
        }
        // Fixed successors that are not self-loops form chains and cycles.
        let fixed_next =
            |p: &Pruner<'_>, i: usize| p.value(succ[i]).map(|v| v as usize).filter(|&j| j != i);
        self.has_pred.fill(false);
        self.seen.fill(false);
        for i in 0..n {
            if let Some(j) = fixed_next(p, i) {
                self.has_pred[j] = true;
            }
        }
        let mut in_chain = vec![false; n];
        for s in 0..n {
            if self.has_pred[s] || fixed_next(p, s).is_none() {
                continue;
            }
            // A chain s → … → e whose last successor is open.
            let mut len = 1;
            let mut e = s;
            in_chain.fill(false);
            in_chain[s] = true;
            self.seen[s] = true;
            while let Some(j) = fixed_next(p, e) {
                e = j;
                if self.seen[e] {
                    // Two chains meet: two fixed successors name `e`.
                    let meet = |r: &mut Premises| {
                        for (k, &x) in succ.iter().enumerate() {
                            if k != e && r.value(x) == Some(e as Value) {
                                r.push(Literal::Eq(x, e as Value));
                            }
                        }
                    };
                    return Err(p.fail(meet));
                }
                self.seen[e] = true;
                in_chain[e] = true;
                len += 1;
            }
            if len < n && !(self.c.sub && self.rest_can_loop(p, &in_chain)) {
                // Closing the chain makes a short cycle; with subcircuit,
                // one that leaves out a node that cannot point to itself.
                let sub = self.c.sub;
                let why = |r: &mut Premises| {
                    chain(r, succ, s);
                    if sub {
                        let out =
                            (0..n).find(|&i| !in_chain[i] && !r.contains(succ[i], i as Value));
                        if let Some(i) = out {
                            r.push(Literal::Ne(succ[i], i as Value));
                        }
                    }
                };
                p.remove(succ[e], s as Value, why)?;
            }
        }
        // Nodes not reached: on cycles of fixed successors.
        for s in 0..n {
            if self.seen[s] || fixed_next(p, s).is_none() {
                continue;
            }
            let mut len = 0;
            let mut at = s;
            in_chain.fill(false);
            while !self.seen[at] {
                self.seen[at] = true;
                in_chain[at] = true;
                len += 1;
                match fixed_next(p, at) {
                    Some(j) => at = j,
                    None => return Err(p.fail(Why::Scope)),
                }
            }
            if len < n {
                // A cycle of fixed successors shorter than n.
                let cycle = |r: &mut Premises| chain(r, succ, s);
                if !self.c.sub {
                    return Err(p.fail(cycle));
                }
                // The other nodes must all point to themselves.
                for (i, &x) in succ.iter().enumerate() {
                    if !in_chain[i] {
                        p.fix(x, i as Value, cycle)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn name(&self) -> &str {
        "circuit"
    }
}

/// `f[i] = j ⇔ g[j] = i` over 0-based indices: `f` and `g` are inverse
/// permutations of `0..n`.
///
/// # Pruning
/// Domain consistent on the channeling, O(Σ|D|) per call: values outside
/// `0..n` go, `j` stays in `f[i]` only while `i` is in `g[j]`, and `f[i]`
/// fixed to `j` fixes `g[j]` to `i` (and the same from `g`'s side). That each is a permutation is left to the channeling
/// and the checker (post an all-different for more pruning). The checker is
/// O(n); local-search violations are the number of `i` with `f[i]` out of
/// range or `g[f[i]] ≠ i`, plus the same count from `g`'s side.
#[derive(Debug, Clone)]
pub struct Inverse {
    /// `f` then `g`.
    scope: Vec<VarId>,
}

impl Constraint for Inverse {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.violations(values) == 0
    }
    fn name(&self) -> &str {
        "inverse"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let (f, g) = vars.split_at(vars.len() / 2);
        let (f, g) = (crate::minizinc::plus_one(f), crate::minizinc::plus_one(g));
        Some(format!(
            "inverse({}, {})",
            crate::minizinc::list(&f),
            crate::minizinc::list(&g)
        ))
    }
    fn violations(&self, values: &[Value]) -> u64 {
        let n = values.len() / 2;
        let (f, g) = values.split_at(n);
        let broken = |a: &[Value], b: &[Value]| {
            (0..n)
                .filter(|&i| {
                    let j = a[i];
                    j < 0 || j as usize >= n || b[j as usize] as i64 != i as i64
                })
                .count() as u64
        };
        broken(f, g) + broken(g, f)
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(InverseProp(self)))
    }
}

#[derive(Debug)]
struct InverseProp<'a>(&'a Inverse);

impl Propagator for InverseProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, &self.0.scope, Events::DOMAIN);
    }

    fn wants_notify(&self) -> bool {
        false
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let n = self.0.scope.len() / 2;
        let (f, g) = self.0.scope.split_at(n);
        if n == 0 {
            return Ok(());
        }
        let top = (n - 1) as Value;
        for &x in &self.0.scope {
            p.set_min(x, 0, Why::Constraint)?;
            p.set_max(x, top, Why::Constraint)?;
        }
        for (a, b) in [(f, g), (g, f)] {
            for (i, &x) in a.iter().enumerate() {
                // f[i] = j fixed: g[j] = i.
                if let Some(j) = p.value(x) {
                    p.fix(b[j as usize], i as Value, Literal::Eq(x, j))?;
                }
                let drop: smallvec::SmallVec<[Value; 16]> = p
                    .values(x)
                    .filter(|&j| !p.contains(b[j as usize], i as Value))
                    .collect();
                for j in drop {
                    // f[i] = j needs g[j] = i, which is gone.
                    p.remove(x, j, Literal::Ne(b[j as usize], i as Value))?;
                }
            }
        }
        Ok(())
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn name(&self) -> &str {
        "inverse"
    }
}

impl Model {
    /// The successors `succ` form one circuit through every node (see
    /// [`Circuit`]); also posts a domain-consistent all-different over them.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let succ = m.new_vars(4, Domain::range(0, 3)).unwrap();
    /// m.circuit(&succ).unwrap();
    /// assert_eq!(Search::new(&m).count().unwrap().count, 6); // (4 − 1)!
    /// ```
    pub fn circuit(&mut self, succ: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.structure(succ, false)
    }

    /// The nodes `i` with `succ[i] ≠ i` form one circuit, or none (see
    /// [`Circuit`]); also posts a domain-consistent all-different.
    pub fn subcircuit(&mut self, succ: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.structure(succ, true)
    }

    fn structure(&mut self, succ: &[VarId], sub: bool) -> Result<ConstraintId, ModelError> {
        let id = self.post(Circuit {
            succ: succ.to_vec(),
            sub,
        })?;
        if succ.len() > 1 {
            // Domains too large for domain consistency get bounds.
            if let Err(ModelError::Invalid { .. }) =
                self.all_different_with(succ, Consistency::Domain)
            {
                self.all_different_with(succ, Consistency::Bounds)?;
            }
        }
        Ok(id)
    }

    /// `f[i] = j ⇔ g[j] = i` (see [`Inverse`]); `f` and `g` must have one
    /// length.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let f = m.new_vars(3, Domain::range(0, 2)).unwrap();
    /// let g = m.new_vars(3, Domain::range(0, 2)).unwrap();
    /// m.inverse(&f, &g).unwrap();
    /// assert_eq!(Search::new(&m).count().unwrap().count, 6);
    /// ```
    pub fn inverse(&mut self, f: &[VarId], g: &[VarId]) -> Result<ConstraintId, ModelError> {
        if f.len() != g.len() {
            return Err(ModelError::LengthMismatch {
                constraint: "inverse",
                what: "variables in the second list",
                expected: f.len(),
                found: g.len(),
            });
        }
        self.post(Inverse {
            scope: f.iter().chain(g).copied().collect(),
        })
    }
}
