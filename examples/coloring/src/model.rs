//! The model, and solving through the generic engine.
//!
//! ```
//! use csp_coloring::{check_coloring, maps, model};
//! use csp_core::Outcome;
//!
//! let graph = maps::AUSTRALIA.graph();
//! let two = model::color(&graph, 2, &model::ColorOptions::default()).unwrap();
//! assert_eq!(two.outcome, Outcome::Unsatisfiable);
//! let three = model::color(&graph, 3, &model::ColorOptions::default()).unwrap();
//! assert_eq!(check_coloring(&graph, &three.colors.unwrap(), 3), Ok(()));
//! ```

use std::fmt;
use std::time::{Duration, Instant};

use csp_core::{
    Domain, Inference, Limits, LocalError, MinConflicts, Model, ModelError, Outcome, Search,
    SearchOptions, Statistics, ValOrder, Value, VarId, VarOrder,
};

use crate::Graph;
use csp_core::constraint::ValuePrecedeChain;

/// How the interchangeable colors are told apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No symmetry breaking: every coloring and all its renamings are solutions.
    None,
    /// Colors appear in order of first use along [`precedence_order`] (see
    /// [`ValuePrecedeChain`]): one coloring per class of renamings. The default.
    #[default]
    ValuePrecedence,
}

/// Options for [`color`] and [`chromatic_number`].
#[derive(Debug, Clone)]
pub struct ColorOptions {
    /// The engine's search options (including its limits, applied per call of
    /// the engine).
    pub search: SearchOptions,
    /// Symmetry breaking.
    pub symmetry: Symmetry,
}

impl Default for ColorOptions {
    /// Forward checking (with not-equal constraints, arc consistency prunes no
    /// more and costs a queue), variables by domain size over weighted degree,
    /// colors ascending, value precedence on.
    fn default() -> ColorOptions {
        ColorOptions {
            search: SearchOptions {
                inference: Inference::ForwardChecking,
                var_order: VarOrder::DomWdeg,
                val_order: ValOrder::Ascending,
                limits: Limits::none(),
                learning: false, // measured with the ordinary engine
                ..Default::default()
            },
            symmetry: Symmetry::ValuePrecedence,
        }
    }
}

/// A large clique found greedily: from every vertex in turn (up to
/// [`CLIQUE_STARTS`] of them, highest degree first), grow a clique by adding the
/// candidate adjacent to the most other candidates; keep the largest.
///
/// Its size is a lower bound on the chromatic number, and listing its vertices
/// first in [`precedence_order`] gives them colors 0, 1, 2, ... outright. This is
/// modelling help, not a solver: it runs before the engine and never decides
/// whether a coloring exists.
///
/// ```
/// let g = csp_coloring::Graph::new(5, [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4)]).unwrap();
/// assert_eq!(csp_coloring::model::greedy_clique(&g), vec![0, 1, 2]);
/// ```
pub fn greedy_clique(graph: &Graph) -> Vec<u32> {
    if graph.vertices() as usize <= DENSE_CLIQUE_MAX_VERTICES {
        greedy_clique_dense(graph)
    } else {
        greedy_clique_sparse(graph)
    }
}

/// Up to this many vertices [`greedy_clique`] works on an adjacency bit
/// matrix (at most 2 MB, and fastest); above, on adjacency lists restricted
/// to each start's neighborhood, in memory and time that follow the edges.
/// (The matrix for every size took 125 GB for 10^6 vertices, and quadratic
/// time: 10.9 s for 40,000 vertices without edges.) Both give the same clique.
pub const DENSE_CLIQUE_MAX_VERTICES: usize = 4096;

/// [`greedy_clique`] on an adjacency bit matrix.
fn greedy_clique_dense(graph: &Graph) -> Vec<u32> {
    let n = graph.vertices() as usize;
    let words = n.div_ceil(64);
    let mut rows = vec![0u64; n * words];
    for &(u, v) in graph.edges() {
        let (u, v) = (u as usize, v as usize);
        rows[u * words + v / 64] |= 1 << (v % 64);
        rows[v * words + u / 64] |= 1 << (u % 64);
    }
    let row = |v: usize| &rows[v * words..(v + 1) * words];
    let mut by_degree: Vec<usize> = (0..n).collect();
    let degree = |v: usize| row(v).iter().map(|w| w.count_ones()).sum::<u32>();
    by_degree.sort_by_key(|&v| (std::cmp::Reverse(degree(v)), v));
    let mut best: Vec<u32> = Vec::new();
    for &seed in by_degree.iter().take(CLIQUE_STARTS) {
        if (degree(seed) as usize) < best.len() {
            break; // a clique through `seed` cannot beat the best
        }
        let mut clique = vec![seed as u32];
        let mut cand: Vec<u64> = row(seed).to_vec();
        loop {
            // The candidate with the most neighbors among the candidates.
            let mut pick: Option<(u32, usize)> = None;
            for (w, &bits) in cand.iter().enumerate() {
                let mut b = bits;
                while b != 0 {
                    let v = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    let links: u32 = row(v)
                        .iter()
                        .zip(&cand)
                        .map(|(a, c)| (a & c).count_ones())
                        .sum();
                    match pick {
                        Some((l, _)) if l >= links => {}
                        _ => pick = Some((links, v)),
                    }
                }
            }
            let Some((_, v)) = pick else { break };
            clique.push(v as u32);
            for (c, a) in cand.iter_mut().zip(row(v)) {
                *c &= a;
            }
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    best.sort_unstable();
    best
}

/// [`greedy_clique`] on adjacency lists, the same choices in the same order.
fn greedy_clique_sparse(graph: &Graph) -> Vec<u32> {
    let adj = graph.adjacency();
    let n = adj.len();
    let mut by_degree: Vec<usize> = (0..n).collect();
    by_degree.sort_by_key(|&v| (std::cmp::Reverse(adj[v].len()), v));
    // Everything below is local to the start's neighborhood, so the work and
    // memory follow the edges there, not the square of the vertex count.
    // `local[v]` is `v`'s index among the start's neighbors (reset after each
    // start); a neighbor's `links` are its neighbors among them, by index.
    let mut local = vec![u32::MAX; n];
    let mut best: Vec<u32> = Vec::new();
    for &seed in by_degree.iter().take(CLIQUE_STARTS) {
        let nbrs = &adj[seed];
        if nbrs.len() < best.len() {
            break; // a clique through `seed` cannot beat the best
        }
        for (i, &v) in nbrs.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let links: Vec<Vec<u32>> = nbrs
            .iter()
            .map(|&v| {
                adj[v as usize]
                    .iter()
                    .map(|&w| local[w as usize])
                    .filter(|&i| i != u32::MAX)
                    .collect()
            })
            .collect();
        for &v in nbrs {
            local[v as usize] = u32::MAX;
        }
        let mut clique = vec![seed as u32];
        // The candidates, ascending; a membership flag and, for every
        // neighbor, its number of neighbors among the candidates, kept up to
        // date as candidates drop out (each drops out once per start).
        let mut cand: Vec<u32> = (0..nbrs.len() as u32).collect();
        let mut in_cand = vec![true; nbrs.len()];
        let mut count: Vec<u32> = links.iter().map(|l| l.len() as u32).collect();
        loop {
            // The candidate with the most neighbors among the candidates (the
            // first such, in vertex order).
            let mut pick: Option<(u32, u32)> = None;
            for &i in &cand {
                match pick {
                    Some((best_l, _)) if best_l >= count[i as usize] => {}
                    _ => pick = Some((count[i as usize], i)),
                }
            }
            let Some((_, i)) = pick else { break };
            clique.push(nbrs[i as usize]);
            let next: Vec<u32> = links[i as usize]
                .iter()
                .copied()
                .filter(|&j| in_cand[j as usize])
                .collect();
            for &j in &cand {
                in_cand[j as usize] = false;
            }
            for &j in &next {
                in_cand[j as usize] = true;
            }
            for &r in cand.iter().filter(|&&r| !in_cand[r as usize]) {
                for &j in &links[r as usize] {
                    count[j as usize] -= 1;
                }
            }
            cand = next;
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    best.sort_unstable();
    best
}

/// How many start vertices [`greedy_clique`] tries.
pub const CLIQUE_STARTS: usize = 1000;

/// The order of the vertices for value precedence: a greedy clique first (its
/// vertices then get colors 0, 1, 2, ... outright), then the others by
/// decreasing degree, ties by number.
pub fn precedence_order(graph: &Graph) -> Vec<u32> {
    let adj = graph.adjacency();
    let clique = greedy_clique(graph);
    let mut in_clique = vec![false; graph.vertices() as usize];
    for &v in &clique {
        in_clique[v as usize] = true;
    }
    let mut rest: Vec<u32> = (0..graph.vertices())
        .filter(|&v| !in_clique[v as usize])
        .collect();
    rest.sort_by_key(|&v| (std::cmp::Reverse(adj[v as usize].len()), v));
    clique.into_iter().chain(rest).collect()
}

/// Builds the model: one variable per vertex (`colors[v]`, named `v1`, `v2`, ...
/// as in DIMACS files) with domain `0..k`, one not-equal constraint per edge,
/// and with [`Symmetry::ValuePrecedence`], one value-precedence constraint over
/// all vertices in [`precedence_order`].
///
/// # Errors
/// [`ModelError`] when `k` is 0 and the graph has vertices (an empty domain).
pub fn model(graph: &Graph, k: u32, symmetry: Symmetry) -> Result<(Model, Vec<VarId>), ModelError> {
    let (m, colors, _) = model_with_top(graph, k, symmetry, None)?;
    Ok((m, colors))
}

/// [`model`], and with `bound = Some((lo, hi))` a variable `top` in `lo..=hi`
/// (named `colors-1`) that bounds every color. With value precedence the
/// bound is part of that one constraint ([`ValuePrecedeChain::bounded`]), so
/// each vertex keeps the weighted degree it has in [`model`] and dom/wdeg
/// chooses as it does there: `top = max(colors)` (or a constraint per
/// vertex) added one to every vertex's weighted degree, which alone made
/// myciel5 need 27 % more nodes than one search per `k` (36,743 against
/// 28,857, with the weights reset for each `top`). Without symmetry
/// breaking, `top = max(colors)`.
fn model_with_top(
    graph: &Graph,
    k: u32,
    symmetry: Symmetry,
    bound: Option<(Value, Value)>,
) -> Result<(Model, Vec<VarId>, Option<VarId>), ModelError> {
    let mut m = Model::new();
    let top = Value::try_from(k).unwrap_or(Value::MAX) - 1;
    let colors: Vec<VarId> = (0..graph.vertices())
        .map(|v| m.new_var_named(&format!("v{}", v + 1), Domain::range(0, top)))
        .collect::<Result<_, _>>()?;
    // The rule: the two ends of every edge have different colors.
    for &(u, v) in graph.edges() {
        m.not_equal(colors[u as usize], colors[v as usize], 0)?;
    }
    let top = bound
        .map(|(lo, hi)| m.new_var_named("colors-1", Domain::range(lo, hi)))
        .transpose()?;
    if symmetry == Symmetry::ValuePrecedence && !colors.is_empty() {
        let order = precedence_order(graph)
            .into_iter()
            .map(|v| colors[v as usize])
            .collect();
        match top {
            Some(t) => m.post(ValuePrecedeChain::bounded(order, 0, t))?,
            None => m.post(ValuePrecedeChain::new(order, 0))?,
        };
    } else if let Some(t) = top {
        m.max(&colors, t)?;
    }
    Ok((m, colors, top))
}

/// The result of [`color`].
#[derive(Debug, Clone)]
pub struct Colored {
    /// `Solved`, `Unsatisfiable` (no `k`-coloring exists), or `LimitReached`.
    pub outcome: Outcome,
    /// A coloring, `colors[v]` in `0..k`, when one was found.
    pub colors: Option<Vec<u32>>,
    /// The engine's counters.
    pub stats: Statistics,
}

/// Looks for a coloring of `graph` with at most `k` colors.
///
/// Two shortcuts keep large inputs cheap: vertices without neighbors get
/// color 0 outside the engine, and `k` above `Δ + 1` (`Δ` the largest degree)
/// is lowered to `Δ + 1`, which always suffices. Either way the coloring uses
/// at most `k` colors.
///
/// # Errors
/// None in practice (the model is always well formed); a [`ModelError`] is passed on.
pub fn color(graph: &Graph, k: u32, options: &ColorOptions) -> Result<Colored, ModelError> {
    if k == 0 {
        let outcome = if graph.vertices() == 0 {
            Outcome::Solved
        } else {
            Outcome::Unsatisfiable
        };
        return Ok(Colored {
            outcome,
            colors: (graph.vertices() == 0).then(Vec::new),
            stats: Statistics::default(),
        });
    }
    let Some(core) = Core::of(graph) else {
        return Ok(Colored {
            outcome: Outcome::Solved,
            colors: Some(vec![0; graph.vertices() as usize]),
            stats: Statistics::default(),
        });
    };
    // Δ + 1 colors always suffice (each vertex has a color its neighbors do
    // not use), so more only make the domains larger: k = 4294967295 asked
    // the engine for 512 MB per vertex.
    let k = k.min(core.max_degree.saturating_add(1));
    let (m, vars) = model(&core.graph, k, options.symmetry)?;
    // The caller's decision variables and phases can only name variables
    // of another model: dropped.
    let r = Search::new(&m)
        .options(options.search.for_another_model())
        .solve()
        .map_err(|e| ModelError::Invalid {
            constraint: "coloring",
            reason: e.to_string(),
        })?;
    Ok(Colored {
        outcome: r.outcome,
        colors: r.solution.map(|s| core.colors(graph, &vars, &s)),
        stats: r.stats,
    })
}

/// The part of a graph the engine sees: the vertices with neighbors.
/// Vertices without neighbors take color 0 and stay out of the model (10^6
/// of them made one model variable each, and value precedence over all of
/// them took time quadratic in their number).
struct Core {
    /// The linked vertices, in order: model vertex `i` is `linked[i]`.
    linked: Vec<u32>,
    /// The graph on them.
    graph: Graph,
    /// The largest degree, `Δ`.
    max_degree: u32,
}

impl Core {
    /// `None` when no vertex has a neighbor.
    fn of(graph: &Graph) -> Option<Core> {
        let adj = graph.adjacency();
        let linked: Vec<u32> = (0..graph.vertices())
            .filter(|&v| !adj[v as usize].is_empty())
            .collect();
        if linked.is_empty() {
            return None;
        }
        let max_degree = adj.iter().map(Vec::len).max().unwrap_or(0);
        let core = if linked.len() == adj.len() {
            graph.clone()
        } else {
            let mut index = vec![u32::MAX; adj.len()];
            for (i, &v) in linked.iter().enumerate() {
                index[v as usize] = i as u32;
            }
            let edges = graph
                .edges()
                .iter()
                .map(|&(u, v)| (index[u as usize], index[v as usize]));
            Graph::new(linked.len() as u32, edges).expect("the edges join linked vertices")
        };
        Some(Core {
            linked,
            graph: core,
            max_degree: u32::try_from(max_degree).unwrap_or(u32::MAX),
        })
    }

    /// The coloring of the whole graph from a solution of the core's model.
    fn colors(&self, graph: &Graph, vars: &[VarId], s: &csp_core::Solution) -> Vec<u32> {
        let mut colors = vec![0u32; graph.vertices() as usize];
        for (&v, &x) in self.linked.iter().zip(vars) {
            colors[v as usize] = u32::try_from(s[x]).expect("colors are 0..k");
        }
        colors
    }
}

/// What [`chromatic_number`] established.
#[derive(Debug, Clone)]
pub struct Chromatic {
    /// A proved lower bound: no coloring with fewer colors exists.
    pub lower: u32,
    /// The best coloring found, `colors[v]`, with `upper` colors.
    pub coloring: Option<Vec<u32>>,
    /// The number of colors of `coloring` (an upper bound), when one was found.
    pub upper: Option<u32>,
    /// One entry per engine call: the `k` tried, how it ended, and its counters.
    pub attempts: Vec<(u32, Outcome, Statistics)>,
}

impl Chromatic {
    /// The chromatic number, when it was proved (`lower == upper`).
    pub fn exact(&self) -> Option<u32> {
        (self.upper == Some(self.lower)).then_some(self.lower)
    }
}

/// Finds the chromatic number by trying `k` colors for increasing `k`, one
/// search per `k` (the method before [`chromatic_number`] used the
/// optimisation API; kept as its reference and for the benchmark in
/// `docs/benchmarks.md`). Same answers, same result fields.
///
/// Two bounds come first: the lower bound is the size of a [`greedy_clique`]
/// (the clique alone needs that many colors), and the upper bound is the number
/// of colors in the first coloring the engine finds with `Δ + 1` colors (`Δ` the
/// largest degree: with that many colors every vertex always has a free color,
/// so the search hardly ever backtracks). Then `k` runs up from the lower bound:
/// each `k` the engine proves impossible raises the lower bound; the first `k`
/// with a coloring is the chromatic number.
///
/// `time_limit` bounds the whole run (each engine call gets the time left); when
/// it runs out, the result holds the bounds proved so far.
///
/// ```
/// use csp_coloring::{maps, model};
///
/// let c = model::chromatic_number_by_loop(&maps::US.graph(), None, &model::ColorOptions::default()).unwrap();
/// assert_eq!(c.exact(), Some(4));
/// ```
///
/// # Errors
/// A [`ModelError`] from building a model (not expected for any graph).
pub fn chromatic_number_by_loop(
    graph: &Graph,
    time_limit: Option<Duration>,
    options: &ColorOptions,
) -> Result<Chromatic, ModelError> {
    let (climb, mut result) = Climb::start(graph, time_limit, options)?;
    // Up from the lower bound.
    while Some(result.lower) < result.upper {
        let Some(opts) = climb.call_options() else {
            return Ok(result);
        };
        let k = result.lower;
        let r = color(graph, k, &opts)?;
        match result.record(k, r) {
            Outcome::Unsatisfiable => result.lower = k + 1,
            Outcome::Solved => {}
            Outcome::LimitReached(_) | Outcome::Invalid(_) => return Ok(result),
        }
    }
    Ok(result)
}

/// Finds the chromatic number with one branch-and-bound search
/// ([`Search::minimize`]).
///
/// The bounds come first, as in [`chromatic_number_by_loop`]: the lower
/// bound is the size of a [`greedy_clique`], the upper bound the number of
/// colors of a first coloring with `Δ + 1` colors (`Δ` the largest degree:
/// with that many colors every vertex always has a free color, so the
/// search hardly ever backtracks). Between them, one model: the coloring
/// model with `upper − 1` colors, a variable `top` in
/// `[lower − 1, upper − 2]` with `colors[v] ≤ top` for every vertex (part
/// of the value-precedence constraint, see [`ValuePrecedeChain::bounded`]),
/// and `minimize(top)`. The search decides `top` first, smallest value
/// first ([`SearchOptions::decision_vars`](csp_core::SearchOptions::decision_vars)),
/// so it tries `lower` colors, then `lower + 1`, … within one search that
/// keeps its dom/wdeg weights from one to the next
/// ([`RootWeights::Keep`](csp_core::RootWeights); with `Reset` each value
/// of `top` explores the tree of [`chromatic_number_by_loop`] for that
/// number of colors, node for node; measured over `../shared/data/coloring`
/// on 2026-11-24, myciel5 needs 27,633 nodes kept, 30,488 halved and
/// 28,861 reset, queen8_8 413,041, 411,736 and 429,960, the loop 28,857
/// and 429,955); the first coloring it finds is optimal, and branch and
/// bound then unwinds the rest of the tree at once. No coloring at all
/// proves the first coloring optimal.
///
/// `time_limit` bounds the whole run; when it runs out, the result holds
/// the bounds proved so far (each value of `top` the search moved past is
/// refuted).
///
/// ```
/// use csp_coloring::{maps, model};
///
/// let c = model::chromatic_number(&maps::US.graph(), None, &model::ColorOptions::default()).unwrap();
/// assert_eq!(c.exact(), Some(4));
/// assert_eq!(c.attempts.len(), 2); // the first coloring, then one minimisation
/// ```
///
/// # Errors
/// A [`ModelError`] from building a model (not expected for any graph).
pub fn chromatic_number(
    graph: &Graph,
    time_limit: Option<Duration>,
    options: &ColorOptions,
) -> Result<Chromatic, ModelError> {
    let (climb, mut result) = Climb::start(graph, time_limit, options)?;
    let (Some(upper), Some(core)) = (result.upper, Core::of(graph)) else {
        return Ok(result);
    };
    if result.lower >= upper {
        return Ok(result);
    }
    let Some(mut opts) = climb.call_options() else {
        return Ok(result);
    };
    // `upper − 1` colors, 0..=upper − 2; top ≥ every color, in
    // [lower − 1, upper − 2].
    let k = upper - 1;
    let as_value = |c: u32| Value::try_from(c).unwrap_or(Value::MAX);
    let bound = (as_value(result.lower.max(1) - 1), as_value(k - 1));
    let (m, vars, top) = model_with_top(&core.graph, k, opts.symmetry, Some(bound))?;
    let top = top.expect("a bound was asked for");
    opts.search.decision_vars = vec![top];
    opts.search.root_weights = csp_core::RootWeights::Keep;
    let ascending = opts.search.val_order == ValOrder::Ascending;
    let mut watch = TopWatch { top, tried: None };
    let r = Search::new(&m)
        .options(opts.search)
        .observer(&mut watch)
        .minimize(top)
        // `top` is the model's own: not expected.
        .map_err(|e| ModelError::Invalid {
            constraint: "chromatic number",
            reason: e.to_string(),
        })?;
    let colored = Colored {
        outcome: r.outcome,
        colors: r.best.as_ref().map(|s| core.colors(graph, &vars, s)),
        stats: r.stats,
    };
    match result.record(k, colored) {
        // The first coloring was optimal.
        Outcome::Unsatisfiable => result.lower = upper,
        Outcome::Solved => result.lower = result.upper.unwrap_or(upper),
        Outcome::LimitReached(_) | Outcome::Invalid(_) => {
            // Trying top = t smallest first means every smaller value failed:
            // at least t + 1 colors are needed.
            if let (true, Some(t)) = (ascending, watch.tried) {
                result.lower = result.lower.max(u32::try_from(t).unwrap_or(0) + 1);
            }
        }
    }
    Ok(result)
}

/// Follows the values the minimisation in [`chromatic_number`] gives
/// `top` at its first level.
struct TopWatch {
    top: VarId,
    /// The largest value of `top` tried at depth 1.
    tried: Option<Value>,
}

impl csp_core::SearchObserver for TopWatch {
    fn on_decision(&mut self, var: VarId, d: csp_core::Decision, depth: usize) {
        if let (true, 1, csp_core::Decision::Assign(t)) = (var == self.top, depth, d) {
            self.tried = Some(self.tried.map_or(t, |u| u.max(t)));
        }
    }
    fn wants_prunes(&self) -> bool {
        false
    }
}

/// What the two chromatic-number methods share: the time budget and the
/// first bounds.
struct Climb<'a> {
    start: Instant,
    time_limit: Option<Duration>,
    options: &'a ColorOptions,
}

impl<'a> Climb<'a> {
    /// The clock started, and the first bounds: the clique's lower bound
    /// and the upper bound of a first coloring with `Δ + 1` colors (the
    /// empty graph: 0 colors, settled).
    fn start(
        graph: &Graph,
        time_limit: Option<Duration>,
        options: &'a ColorOptions,
    ) -> Result<(Climb<'a>, Chromatic), ModelError> {
        let climb = Climb {
            start: Instant::now(),
            time_limit,
            options,
        };
        let result = match climb.bounds(graph)? {
            Some(r) => r,
            None => Chromatic::of_empty(),
        };
        Ok((climb, result))
    }

    /// Options for one engine call, within the time left; None when it is up.
    fn call_options(&self) -> Option<ColorOptions> {
        let mut opts = self.options.clone();
        if let Some(limit) = self.time_limit {
            let left = limit.saturating_sub(self.start.elapsed());
            if left.is_zero() {
                return None;
            }
            let per_call = opts.search.limits.time.map_or(left, |t| t.min(left));
            opts.search.limits.time = Some(per_call);
        }
        Some(opts)
    }

    /// The clique's lower bound and the upper bound of a first coloring
    /// with `Δ + 1` colors (`None`: the graph has no vertex).
    fn bounds(&self, graph: &Graph) -> Result<Option<Chromatic>, ModelError> {
        if graph.vertices() == 0 {
            return Ok(None);
        }
        let mut result = Chromatic {
            lower: greedy_clique(graph).len() as u32,
            coloring: None,
            upper: None,
            attempts: Vec::new(),
        };
        let max_degree = graph.adjacency().iter().map(Vec::len).max().unwrap_or(0) as u32;
        if let Some(opts) = self.call_options() {
            let r = color(graph, max_degree + 1, &opts)?;
            result.record(max_degree + 1, r);
        }
        Ok(Some(result))
    }
}

impl Chromatic {
    /// The empty graph: 0 colors.
    fn of_empty() -> Chromatic {
        Chromatic {
            lower: 0,
            coloring: Some(Vec::new()),
            upper: Some(0),
            attempts: Vec::new(),
        }
    }

    /// Records an engine call with `k` colors: a coloring with fewer colors
    /// than the best becomes the best. Returns its outcome.
    fn record(&mut self, k: u32, r: Colored) -> Outcome {
        if let Some(colors) = r.colors {
            let used = colors.iter().max().map_or(0, |&c| c + 1);
            if self.upper.is_none_or(|u| used < u) {
                self.upper = Some(used);
                self.coloring = Some(colors);
            }
        }
        self.attempts.push((k, r.outcome, r.stats));
        r.outcome
    }
}

/// Why [`color_min_conflicts`] could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LocalSearchError {
    /// Building the model failed.
    Model(ModelError),
    /// The local search rejected its options.
    Local(LocalError),
}

impl fmt::Display for LocalSearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocalSearchError::Model(e) => e.fmt(f),
            LocalSearchError::Local(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LocalSearchError {}

/// What [`color_min_conflicts`] found.
#[derive(Debug, Clone)]
pub struct LocalColored {
    /// `Solved` when the best assignment is a proper coloring, else the limit
    /// that stopped the search. Local search never proves that no coloring exists.
    pub outcome: Outcome,
    /// The best assignment found, `colors[v]` in `0..k` (a proper coloring when
    /// `outcome` is `Solved`).
    pub colors: Vec<u32>,
    /// The number of edges whose ends share a color in `colors`.
    pub conflicts: u64,
    /// Steps taken (each moves at most one vertex).
    pub steps: u64,
    /// Restarts from a fresh assignment.
    pub restarts: u64,
    /// Wall-clock time.
    pub time: Duration,
}

/// Looks for a `k`-coloring with the engine's min-conflicts local search, on the
/// model without symmetry breaking (renamed colorings are all equally good to a
/// local search, and precedence would only add violations to repair).
///
/// `limits` supplies the time limit, cancel token and, as a step limit, the node
/// limit; without any limit the search runs until it finds a coloring, which for
/// a `k` below the chromatic number is forever. The same seed and step limit give
/// the same run.
///
/// ```
/// use csp_coloring::{check_coloring, maps, model};
/// use csp_core::{Limits, Outcome};
///
/// let g = maps::US.graph();
/// let r = model::color_min_conflicts(&g, 4, 1, &Limits::none().with_nodes(100_000)).unwrap();
/// assert_eq!(r.outcome, Outcome::Solved);
/// assert_eq!(check_coloring(&g, &r.colors, 4), Ok(()));
/// ```
///
/// # Errors
/// `k = 0` for a graph with vertices (no color to start from), or an option the
/// local search rejects.
pub fn color_min_conflicts(
    graph: &Graph,
    k: u32,
    seed: u64,
    limits: &Limits,
) -> Result<LocalColored, LocalSearchError> {
    // Δ + 1 colors always suffice (see `color`); more only make the domains
    // larger.
    let max_degree = graph.adjacency().iter().map(Vec::len).max().unwrap_or(0);
    let k = k.min(u32::try_from(max_degree + 1).unwrap_or(u32::MAX));
    let (m, vars) = model(graph, k, Symmetry::None).map_err(LocalSearchError::Model)?;
    let r = MinConflicts::new(&m)
        .seed(seed)
        .limits(limits)
        .run()
        .map_err(LocalSearchError::Local)?;
    Ok(LocalColored {
        outcome: r.outcome,
        colors: vars
            .iter()
            .map(|x| u32::try_from(r.assignment[x.index()]).expect("colors are 0..k"))
            .collect(),
        conflicts: r.violations,
        steps: r.steps,
        restarts: r.restarts,
        time: r.time,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random graph on `n` vertices with edge probability about `p` / 1000,
    /// from a seeded generator.
    fn random_graph(n: u32, p: u64, seed: u64) -> Graph {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 1000 < p {
                    edges.push((u, v));
                }
            }
        }
        Graph::new(n, edges).unwrap()
    }

    /// Decision variables of another model are dropped, not a panic.
    #[test]
    fn foreign_decision_variables_are_dropped() {
        let mut other = csp_core::Model::new();
        let xs = other.new_vars(30, csp_core::Domain::range(0, 1)).unwrap();
        let mut o = ColorOptions::default();
        o.search.decision_vars = xs;
        let g = random_graph(12, 400, 3);
        let c = color(&g, 12, &o).unwrap();
        let colors = c.colors.expect("12 colors suffice for 12 vertices");
        assert_eq!(c.outcome, Outcome::Solved);
        for &(u, v) in g.edges() {
            assert_ne!(colors[u as usize], colors[v as usize]);
        }
    }

    #[test]
    fn sparse_and_dense_cliques_agree() {
        for seed in 0..40 {
            let n = 1 + (seed as u32 * 7) % 90;
            for p in [20, 150, 500, 900] {
                let g = random_graph(n, p, seed);
                let c = greedy_clique_sparse(&g);
                assert_eq!(c, greedy_clique_dense(&g), "n {n} p {p} seed {seed}");
                assert!(c
                    .iter()
                    .enumerate()
                    .all(|(i, &u)| c[..i].iter().all(|&v| g.has_edge(u, v))));
            }
        }
    }

    /// 10^6 vertices without edges: the clique is one vertex, found in
    /// linear time and memory (the bit matrix asked for 125 GB), and
    /// coloring them never reaches the engine (40,000 took 10.9 s there).
    #[test]
    fn a_million_isolated_vertices() {
        let g = Graph::new(1_000_000, []).unwrap();
        assert_eq!(greedy_clique(&g), vec![0]);
        assert_eq!(precedence_order(&g).len(), 1_000_000);
        let options = ColorOptions::default();
        let c = color(&g, 1, &options).unwrap();
        assert_eq!(c.outcome, Outcome::Solved);
        assert_eq!(c.colors, Some(vec![0; 1_000_000]));
        let chi = chromatic_number(&g, None, &options).unwrap();
        assert_eq!(chi.exact(), Some(1));
    }

    /// Isolated vertices beside a graph get color 0; the rest is colored as
    /// before; a huge `k` is lowered to Δ + 1 (it asked for 512 MB a vertex).
    #[test]
    fn isolated_vertices_and_huge_k() {
        let g = Graph::new(7, [(1, 3), (3, 5), (5, 1)]).unwrap();
        let options = ColorOptions::default();
        for k in [3, 4, u32::MAX] {
            let c = color(&g, k, &options).unwrap();
            let colors = c.colors.unwrap();
            assert_eq!(crate::check_coloring(&g, &colors, k), Ok(()));
            assert_eq!([colors[0], colors[2], colors[4], colors[6]], [0; 4]);
            assert!(colors.iter().all(|&c| c < 3), "{colors:?}");
        }
        assert_eq!(
            color(&g, 2, &options).unwrap().outcome,
            Outcome::Unsatisfiable
        );
        let r = color_min_conflicts(&g, u32::MAX, 1, &Limits::none().with_nodes(10_000)).unwrap();
        assert_eq!(r.outcome, Outcome::Solved);
        assert!(r.colors.iter().all(|&c| c < 3), "{:?}", r.colors);
    }
}
