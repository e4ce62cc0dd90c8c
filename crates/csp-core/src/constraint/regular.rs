//! Regular: a sequence of variables spells a word of a deterministic finite
//! automaton (Pesant, "A regular language membership constraint for finite
//! sequences of variables", CP 2004).

use super::distinct::subscribe_all;
use super::Why;
use super::{Constraint, Premises, Pruner};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Priority, Propagator, Setup};
use crate::{Model, ModelError};

const NONE: u32 = u32::MAX;

/// The largest transition table (states × alphabet) an automaton may have.
pub const MAX_AUTOMATON_TABLE: usize = 1 << 24;

/// A deterministic finite automaton over integer values: states `0..states`,
/// one start state, a set of accepting states, and at most one transition
/// per state and value. Build one with [`Automaton::new`], from a nonogram
/// clue ([`Automaton::nonogram`]) or from a regular expression
/// ([`Automaton::regex`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Automaton {
    states: usize,
    start: usize,
    accepting: Vec<bool>,
    /// The values with a transition, sorted.
    alphabet: Vec<Value>,
    /// `delta[q · |alphabet| + a]`: the next state, or `NONE`.
    delta: Vec<u32>,
}

fn invalid(reason: String) -> ModelError {
    ModelError::Invalid {
        constraint: "regular",
        reason,
    }
}

impl Automaton {
    /// An automaton with `states` states, the given start and accepting
    /// states, and `transitions` `(from, value, to)`.
    ///
    /// Fails with [`ModelError::Invalid`] when there is no state, a state is
    /// out of range, two transitions leave one state on one value for
    /// different states (not deterministic), or the transition table would
    /// exceed [`MAX_AUTOMATON_TABLE`] entries.
    ///
    /// ```
    /// use csp_core::constraint::Automaton;
    /// // Words over {0, 1} with no two 1s in a row: state 1 = "just read a 1".
    /// let a = Automaton::new(2, 0, &[0, 1], &[(0, 0, 0), (0, 1, 1), (1, 0, 0)]).unwrap();
    /// assert!(a.accepts(&[1, 0, 1, 0]));
    /// assert!(!a.accepts(&[0, 1, 1]));
    /// assert!(Automaton::new(2, 0, &[2], &[]).is_err());
    /// ```
    pub fn new(
        states: usize,
        start: usize,
        accepting: &[usize],
        transitions: &[(usize, Value, usize)],
    ) -> Result<Automaton, ModelError> {
        if states == 0 {
            return Err(invalid("the automaton has no state".into()));
        }
        if states >= NONE as usize {
            return Err(invalid(format!("{states} states are too many")));
        }
        let check = |q: usize, what: &str| {
            if q < states {
                Ok(())
            } else {
                Err(invalid(format!(
                    "{what} state {q} is out of range (the automaton has {states} states)"
                )))
            }
        };
        check(start, "the start")?;
        let mut acc = vec![false; states];
        for &q in accepting {
            check(q, "accepting")?;
            acc[q] = true;
        }
        let mut alphabet: Vec<Value> = Vec::new();
        for &(from, v, to) in transitions {
            check(from, "a transition's source")?;
            check(to, "a transition's target")?;
            alphabet.push(v);
        }
        alphabet.sort_unstable();
        alphabet.dedup();
        let width = alphabet.len();
        if states.saturating_mul(width) > MAX_AUTOMATON_TABLE {
            return Err(invalid(format!(
                "{states} states × {width} values exceed the table limit of {MAX_AUTOMATON_TABLE}"
            )));
        }
        let mut delta = vec![NONE; states * width];
        for &(from, v, to) in transitions {
            let a = alphabet.binary_search(&v).expect("collected above");
            let slot = &mut delta[from * width + a];
            if *slot != NONE && *slot != to as u32 {
                return Err(invalid(format!(
                    "state {from} has two transitions on value {v} (to {} and {to}): \
                     the automaton must be deterministic",
                    *slot
                )));
            }
            *slot = to as u32;
        }
        Ok(Automaton {
            states,
            start,
            accepting: acc,
            alphabet,
            delta,
        })
    }

    /// Number of states.
    pub fn states(&self) -> usize {
        self.states
    }

    /// The state reached from `q` on `v`, if any.
    pub fn next(&self, q: usize, v: Value) -> Option<usize> {
        let a = self.alphabet.binary_search(&v).ok()?;
        let t = self.delta[q * self.alphabet.len() + a];
        (t != NONE).then_some(t as usize)
    }

    /// Does the automaton accept the word `values`?
    pub fn accepts(&self, values: &[Value]) -> bool {
        let mut q = self.start;
        for &v in values {
            match self.next(q, v) {
                Some(t) => q = t,
                None => return false,
            }
        }
        self.accepting[q]
    }

    /// The automaton of a nonogram line: cells are 0 (blank) or 1 (filled),
    /// and the filled cells form blocks of the lengths in `clue`, in order,
    /// separated by at least one blank. An empty clue (or a clue of zeros)
    /// accepts only blank lines.
    ///
    /// ```
    /// use csp_core::constraint::Automaton;
    /// let a = Automaton::nonogram(&[3, 1]);
    /// assert!(a.accepts(&[0, 1, 1, 1, 0, 0, 1]));
    /// assert!(!a.accepts(&[1, 1, 1, 1]));
    /// assert!(!a.accepts(&[1, 1, 1, 0, 1, 1]));
    /// ```
    pub fn nonogram(clue: &[usize]) -> Automaton {
        // State k (0..=filled) has read k filled cells and is inside or at
        // the end of a block; gap state `filled + 1 + b` has read block b
        // and at least one blank after it. State 0 loops on leading blanks.
        let blocks: Vec<usize> = clue.iter().copied().filter(|&c| c > 0).collect();
        let filled: usize = blocks.iter().sum();
        let gap = |b: usize| filled + 1 + b;
        let mut trans = vec![(0, 0, 0)];
        let mut pos = 0;
        for (b, &len) in blocks.iter().enumerate() {
            for i in 0..len {
                // A block after the first starts only from the gap before it.
                let from = if i == 0 && b > 0 { gap(b - 1) } else { pos + i };
                trans.push((from, 1, pos + i + 1));
            }
            pos += len;
            trans.push((pos, 0, gap(b)));
            trans.push((gap(b), 0, gap(b)));
        }
        let mut accepting = vec![pos];
        if let Some(last) = blocks.len().checked_sub(1) {
            accepting.push(gap(last));
        }
        Automaton::new(filled + 1 + blocks.len(), 0, &accepting, &trans)
            .expect("the nonogram automaton is well formed")
    }
}

/// The sequence `vars` spells a word the automaton accepts.
///
/// # Pruning
/// Domain consistent at both inference levels (Pesant 2004): the layered
/// graph of the automaton's states over the positions is swept forward
/// (states reachable from the start with the current domains) and backward
/// (states from which an accepting state is reachable); a value stays when
/// one of its edges joins a forward-reachable state to a backward-reachable
/// one. Each call rebuilds the sweep, O(n·Q·d) for `n` variables, `Q`
/// states and `d` values per domain, with O(n·Q/64) words of memory. The
/// checker runs the automaton, O(n·log|Σ|); local-search violations are 0
/// or 1.
///
/// # Explanations
/// A cut of the layered graph. A value `v` goes from position `i` when no
/// edge on `v` joins a state the earlier positions reach from the start
/// (`F_i`) to one from which the later positions reach acceptance
/// (`B_{i+1}`). The reason names the values missing from the other
/// positions that would have widened those sets: at a position `j < i`,
/// each value with an edge from `F_j` out of `F_{j+1}`; at `j > i`, each
/// value with an edge into `B_{j+1}` from outside `B_j`. With them gone,
/// every path stays inside `F` before `i` and inside `B` after it, so
/// none takes `v` at `i`. A position whose missing values cross no such
/// edge is not named. A failure is the forward half alone (no accepting
/// state in `F_n`). Computed only in explaining mode.
#[derive(Debug, Clone)]
pub struct Regular {
    vars: Vec<VarId>,
    automaton: Automaton,
}

impl Regular {
    /// The automaton.
    pub fn automaton(&self) -> &Automaton {
        &self.automaton
    }
}

impl Constraint for Regular {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.automaton.accepts(values)
    }
    fn name(&self) -> &str {
        "regular"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        // MiniZinc's `regular` reads symbols 1..S and states 1..Q (0:
        // no transition): written when the alphabet is a range of values.
        let a = &self.automaton;
        let (&first, s) = (a.alphabet.first()?, a.alphabet.len());
        if a.alphabet
            .iter()
            .enumerate()
            .any(|(i, &v)| v as i64 != first as i64 + i as i64)
        {
            return None;
        }
        let symbols: Vec<String> = vars
            .iter()
            .map(|x| format!("({x} - {})", first as i64 - 1))
            .collect();
        let delta: Vec<String> = a
            .delta
            .iter()
            .map(|&q| {
                if q == NONE {
                    "0".into()
                } else {
                    (q + 1).to_string()
                }
            })
            .collect();
        let accepting: Vec<String> = (0..a.states)
            .filter(|&q| a.accepting[q])
            .map(|q| (q + 1).to_string())
            .collect();
        Some(format!(
            "regular({}, {}, {s}, array2d(1..{}, 1..{s}, [{}]), {}, {{{}}})",
            crate::minizinc::list(&symbols),
            a.states,
            a.states,
            delta.join(", "),
            a.start + 1,
            accepting.join(", ")
        ))
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(RegularProp::new(&self.vars, &self.automaton)))
    }
}

/// Above this many values a domain is not walked: its letters are found
/// by probing the alphabet's values.
const WALK_LIMIT: u64 = 1 << 16;

/// The letters of `x`'s domain, `(alphabet index, value, false)` in
/// ascending order, after bounding `x` to the alphabet's values. A domain
/// of at most [`WALK_LIMIT`] values (or no more than the alphabet has
/// within its bounds) loses its values outside the alphabet one by one;
/// a larger one keeps those between the alphabet's values (no allocation
/// and no 2³²-step loop for a variable over all of `i32`), and
/// [`Model::regular`] has counting check each solution then.
fn read_letters(
    p: &mut Pruner<'_>,
    x: VarId,
    alphabet: &[Value],
    letters: &mut Vec<(u32, Value, bool)>,
) -> Result<(), Conflict> {
    let (Some(&first), Some(&last)) = (alphabet.first(), alphabet.last()) else {
        return Err(p.fail(Why::Constraint));
    };
    p.set_min(x, first, Why::Constraint)?;
    p.set_max(x, last, Why::Constraint)?;
    let (lo, hi) = (p.min(x), p.max(x));
    let start = alphabet.partition_point(|&v| v < lo);
    let within = alphabet.partition_point(|&v| v <= hi) - start;
    if p.size(x) <= WALK_LIMIT.max(within as u64) {
        for v in p.values(x) {
            match alphabet.binary_search(&v) {
                Ok(a) => letters.push((a as u32, v, false)),
                Err(_) => {
                    p.remove(x, v, Why::Constraint)?;
                }
            }
        }
    } else {
        for (a, &v) in alphabet.iter().enumerate().skip(start).take(within) {
            if p.contains(x, v) {
                letters.push((a as u32, v, false));
            }
        }
    }
    Ok(())
}

/// Pesant's sweep, rebuilt per call (see [`Regular`]).
#[derive(Debug)]
struct RegularProp<'a> {
    vars: &'a [VarId],
    dfa: &'a Automaton,
    /// Words per layer.
    w: usize,
    /// Forward and backward state sets per layer (`n + 1` layers).
    fwd: Vec<u64>,
    bwd: Vec<u64>,
    /// Per position, the alphabet indices of its current values and
    /// whether each is supported.
    letters: Vec<Vec<(u32, Value, bool)>>,
    /// In explaining mode, per layer, the states from which the later
    /// positions' values reach an accepting state (not only those the
    /// forward sweep reached, as in `bwd`).
    back: Vec<u64>,
}

impl<'a> RegularProp<'a> {
    fn new(vars: &'a [VarId], dfa: &'a Automaton) -> RegularProp<'a> {
        let w = dfa.states.div_ceil(64);
        let layers = vars.len() + 1;
        RegularProp {
            vars,
            dfa,
            w,
            fwd: vec![0; layers * w],
            bwd: vec![0; layers * w],
            letters: vec![Vec::new(); vars.len()],
            back: Vec::new(),
        }
    }

    /// Is state `q` in the set of layer `layer` of `sets`?
    fn has(&self, sets: &[u64], layer: usize, q: usize) -> bool {
        sets[layer * self.w + q / 64] >> (q % 64) & 1 != 0
    }

    /// Fills `back` (explaining mode): the accepting states at the last
    /// layer, then every state with an edge on a current value into the
    /// next layer's set.
    fn sweep_back(&mut self) {
        let (n, w, width) = (self.vars.len(), self.w, self.dfa.alphabet.len());
        self.back.clear();
        self.back.resize((n + 1) * w, 0);
        for q in 0..self.dfa.states {
            if self.dfa.accepting[q] {
                self.back[n * w + q / 64] |= 1 << (q % 64);
            }
        }
        for i in (0..n).rev() {
            for q in 0..self.dfa.states {
                let into = self.letters[i].iter().any(|&(a, _, _)| {
                    let t = self.dfa.delta[q * width + a as usize];
                    t != NONE && self.has(&self.back, i + 1, t as usize)
                });
                if into {
                    self.back[i * w + q / 64] |= 1 << (q % 64);
                }
            }
        }
    }

    /// Pushes the cut (see [`Regular`]): for the positions before `upto`,
    /// the missing values with an edge leaving the forward sets; for those
    /// from `after` on, the missing values with an edge entering the
    /// backward sets (`back`, which must be filled).
    fn cut(&self, r: &mut Premises<'_>, upto: usize, after: usize) {
        let (n, width) = (self.vars.len(), self.dfa.alphabet.len());
        let delta = &self.dfa.delta;
        let states = 0..self.dfa.states;
        for j in (0..upto).chain(after..n) {
            let forward = j < upto;
            for (a, &u) in self.dfa.alphabet.iter().enumerate() {
                let crosses = states.clone().any(|q| {
                    let t = delta[q * width + a];
                    t != NONE
                        && if forward {
                            self.has(&self.fwd, j, q) && !self.has(&self.fwd, j + 1, t as usize)
                        } else {
                            !self.has(&self.back, j, q) && self.has(&self.back, j + 1, t as usize)
                        }
                });
                // A crossing edge's value is not in the domain the sweep
                // read (else the set would hold its end), so this holds.
                if crosses {
                    r.push(Literal::Ne(self.vars[j], u));
                }
            }
        }
    }
}

impl Propagator for RegularProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, self.vars, Events::DOMAIN);
    }

    fn wants_notify(&self) -> bool {
        false
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (n, w, width) = (self.vars.len(), self.w, self.dfa.alphabet.len());
        let delta = &self.dfa.delta;
        self.fwd.fill(0);
        self.bwd.fill(0);
        self.fwd[self.dfa.start / 64] |= 1 << (self.dfa.start % 64);
        for i in 0..n {
            let letters = &mut self.letters[i];
            letters.clear();
            read_letters(p, self.vars[i], &self.dfa.alphabet, letters)?;
            let (cur, next) = self.fwd.split_at_mut((i + 1) * w);
            let cur = &cur[i * w..];
            for (k, &word) in cur.iter().enumerate() {
                let mut b = word;
                while b != 0 {
                    let q = k * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    for &(a, _, _) in letters.iter() {
                        let t = delta[q * width + a as usize];
                        if t != NONE {
                            next[t as usize / 64] |= 1 << (t % 64);
                        }
                    }
                }
            }
        }
        // Backward: accepting states of the last layer, then every state
        // of a layer with an edge into the next layer's backward set.
        for q in 0..self.dfa.states {
            if self.dfa.accepting[q] && self.fwd[n * w + q / 64] >> (q % 64) & 1 != 0 {
                self.bwd[n * w + q / 64] |= 1 << (q % 64);
            }
        }
        for i in (0..n).rev() {
            let (head, tail) = self.bwd.split_at_mut((i + 1) * w);
            let into = &mut head[i * w..];
            let after = &tail[..w];
            let letters = &mut self.letters[i];
            let from = &self.fwd[i * w..(i + 1) * w];
            for (k, (slot, &word)) in into.iter_mut().zip(from).enumerate() {
                let mut b = word;
                while b != 0 {
                    let q = k * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    for l in letters.iter_mut() {
                        let t = delta[q * width + l.0 as usize];
                        if t != NONE && after[t as usize / 64] >> (t % 64) & 1 != 0 {
                            l.2 = true;
                            *slot |= 1 << (q % 64);
                        }
                    }
                }
            }
        }
        if self.bwd[self.dfa.start / 64] >> (self.dfa.start % 64) & 1 == 0 {
            let this = &*self;
            return Err(p.fail(|r: &mut Premises<'_>| this.cut(r, n, n)));
        }
        if p.explaining() {
            self.sweep_back();
        }
        let this = &*self;
        for i in 0..n {
            for &(_, v, ok) in &this.letters[i] {
                if !ok {
                    p.remove(this.vars[i], v, |r: &mut Premises<'_>| {
                        this.cut(r, i, i + 1)
                    })?;
                }
            }
        }
        Ok(())
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "regular"
    }
}

impl Model {
    /// The sequence `vars` spells a word `automaton` accepts (see
    /// [`Regular`]).
    ///
    /// ```
    /// use csp_core::constraint::Automaton;
    /// use csp_core::{Domain, Model, Search};
    /// // A nonogram row of 5 cells with clue [2, 1]: 11010, 11001, 01101.
    /// let mut m = Model::new();
    /// let row = m.new_vars(5, Domain::range(0, 1)).unwrap();
    /// m.regular(&row, &Automaton::nonogram(&[2, 1])).unwrap();
    /// assert_eq!(Search::new(&m).count().unwrap().count, 3);
    /// ```
    pub fn regular(
        &mut self,
        vars: &[VarId],
        automaton: &Automaton,
    ) -> Result<ConstraintId, ModelError> {
        // A sparse alphabet over a huge domain: the values between the
        // alphabet's may stay (see `read_letters`), so counting checks
        // the solutions rather than adding the last variable's values.
        let alphabet = &automaton.alphabet;
        let wide = self.sparse_over_wide(vars, alphabet, WALK_LIMIT);
        let id = self.post(Regular {
            vars: vars.to_vec(),
            automaton: automaton.clone(),
        })?;
        if wide {
            self.check_counted(id);
        }
        Ok(id)
    }
}
