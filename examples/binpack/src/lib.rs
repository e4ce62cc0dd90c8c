//! One-dimensional bin packing: a worked example of the `bin_packing`
//! global constraint, symmetry breaking and branch and bound; and, in
//! [`strip`], two-dimensional strip packing with `diffn` and redundant
//! `cumulative`s.
//!
//! Items of given sizes go into bins of one capacity; minimise the number
//! of bins used. Instances come in the format of BPPLIB (Delorme, Iori and
//! Martello, 2018) and of Scholl, Klein and Jürgens's sets (1997): the
//! number of items, the capacity, then one size per line.
//!
//! ```
//! use csp_binpack::{check, lower_bound, model, Instance, Options};
//! use csp_core::Search;
//!
//! // Sizes 6, 5, 4, 3, 2 in bins of 10: 20 units need at least 2 bins,
//! // and {6, 4} {5, 3, 2} is a packing into 2.
//! let inst = Instance { capacity: 10, sizes: vec![6, 5, 4, 3, 2] };
//! assert_eq!(lower_bound(&inst), 2);
//! let m = model(&inst, Options::default()).unwrap();
//! let r = Search::new(&m.model).options(m.options()).minimize(m.used).unwrap();
//! assert!(r.is_optimal());
//! let bins = m.assignment(r.best.as_ref().unwrap());
//! assert_eq!(check(&inst, &bins), Ok(2));
//! ```

use csp_core::{
    Domain, LearningOrder, Model, ModelError, SearchOptions, Solution, ValOrder, VarId, VarOrder,
};
use csp_text::{data_lines, int as number, tokens};

pub mod strip;

/// A parse error at a line and column (1-based); `Display` gives
/// `line:column: message`.
pub use csp_text::TextError as ParseError;

/// A bin-packing instance: items of `sizes` into bins of `capacity`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The capacity of every bin.
    pub capacity: i32,
    /// Per item, its size (from 0 to the capacity).
    pub sizes: Vec<i32>,
}

/// The most items [`parse`] accepts: BPPLIB's largest classic instances
/// (Falkenauer's u1000, the AI and ANI sets) have about 1,000. The model
/// has a variable per item whose domain spans the bins, and the
/// propagator costs O(items × bins) per call.
pub const MAX_ITEMS: usize = 1_000;
/// The largest capacity [`parse`] accepts (so that the total size of
/// [`MAX_ITEMS`] items fits an `i64` and one bin's load an `i32`).
pub const MAX_CAPACITY: i64 = 1_000_000_000;

/// Parses the BPPLIB format: the number of items `n`, the capacity, then
/// `n` sizes, each number alone on its line (blank lines and lines
/// starting with `#` are skipped; Windows line ends are accepted, as the
/// Scholl files have them).
///
/// Besides the format it rejects an item larger than the capacity: no
/// packing exists, and the error says so at that size.
pub fn parse(text: &str) -> Result<Instance, ParseError> {
    let mut lines = data_lines(text);
    let last = text.lines().count().max(1);
    // The one number of a line.
    let single = |(ln, l): (usize, &str), what: &str, lo: i64, hi: i64| {
        let t = tokens(l);
        if t.len() > 1 {
            return Err(ParseError::new(
                ln,
                t[1].0,
                format!("expected only {what} on this line, found '{}'", t[1].1),
            ));
        }
        number(ln, t[0], what, lo, hi)
    };
    let first = lines
        .next()
        .ok_or_else(|| ParseError::new(last, 1, "empty input: expected the number of items"))?;
    let n = single(first, "the number of items", 1, MAX_ITEMS as i64)? as usize;
    let second = lines
        .next()
        .ok_or_else(|| ParseError::new(last, 1, "the input ends before the capacity (line 2)"))?;
    let capacity = single(second, "the capacity", 1, MAX_CAPACITY)?;
    let mut sizes = Vec::with_capacity(n);
    for (ln, l) in lines.by_ref() {
        if sizes.len() == n {
            return Err(ParseError::new(
                ln,
                1,
                format!("more sizes than the {n} items announced"),
            ));
        }
        let size = single((ln, l), "a size", 0, MAX_CAPACITY)?;
        if size > capacity {
            return Err(ParseError::new(
                ln,
                tokens(l)[0].0,
                format!(
                    "item {} of size {size} is larger than the capacity {capacity}: \
                     the instance is infeasible (no packing exists)",
                    sizes.len() + 1
                ),
            ));
        }
        sizes.push(size as i32);
    }
    if sizes.len() < n {
        return Err(ParseError::new(
            last,
            1,
            format!("the input ends after {} of the {n} sizes", sizes.len()),
        ));
    }
    Ok(Instance {
        capacity: capacity as i32,
        sizes,
    })
}

impl Instance {
    /// What makes this instance unusable (a negative size or capacity, an
    /// item larger than the capacity), if anything: [`parse`] never
    /// returns one.
    fn malformed(&self) -> Option<String> {
        if self.capacity < 0 {
            return Some(format!("the capacity is negative ({})", self.capacity));
        }
        if self.sizes.len() > MAX_ITEMS {
            return Some(format!("{} items, more than {MAX_ITEMS}", self.sizes.len()));
        }
        let bad = self
            .sizes
            .iter()
            .position(|&s| s < 0 || s > self.capacity)?;
        Some(format!(
            "item {} has size {}, outside 0..={}",
            bad + 1,
            self.sizes[bad],
            self.capacity
        ))
    }

    /// The items by decreasing size (ties by index): `order[k]` is the
    /// item in position `k`.
    pub fn decreasing(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.sizes.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(self.sizes[i]), i));
        order
    }
}

/// Martello and Toth's lower bound L2 ("Lower bounds and reduction
/// procedures for the bin packing problem", *Discrete Applied Mathematics*
/// 28, 1990): for each threshold `a` from 0 to `C/2`, the items larger
/// than `C − a` each need a bin of their own, the items in `(C/2, C − a]`
/// need one each too (no two share a bin), and the items in `[a, C/2]`
/// fill what those leave free before needing more bins. L2 is the best of
/// these counts; it is at least the continuous bound `⌈Σ sizes / C⌉` (L1,
/// the threshold 0). Items of size 0 need no bin; an instance with
/// nothing to pack needs 0 bins. `O(n log n + n·k)` for `k` distinct
/// sizes of at most `C/2`.
pub fn lower_bound(inst: &Instance) -> usize {
    let c = inst.capacity as i64;
    let mut sizes: Vec<i64> = inst
        .sizes
        .iter()
        .map(|&s| s as i64)
        .filter(|&s| s > 0)
        .collect();
    if sizes.is_empty() || c <= 0 {
        return 0;
    }
    sizes.sort_unstable();
    let mut thresholds: Vec<i64> = sizes.iter().copied().filter(|&s| 2 * s <= c).collect();
    thresholds.dedup();
    thresholds.insert(0, 0);
    let mut best = 0usize;
    for &a in &thresholds {
        let (mut j1, mut j2, mut s2, mut s3) = (0usize, 0usize, 0i64, 0i64);
        for &s in &sizes {
            if s > c - a {
                j1 += 1;
            } else if 2 * s > c {
                j2 += 1;
                s2 += s;
            } else if s >= a {
                s3 += s;
            }
        }
        let free = j2 as i64 * c - s2;
        let extra = (s3 - free).max(0);
        let bound = j1 + j2 + ((extra + c - 1) / c) as usize;
        best = best.max(bound);
    }
    best
}

/// First fit decreasing (Johnson, 1973): each item, largest first, into
/// the first bin with room, a new bin when none has. Returns the bin of
/// each item, numbered from 0 in the order the bins are opened; an upper
/// bound for the model (at most `11/9 · OPT + 6/9` bins, Dósa 2007).
pub fn first_fit_decreasing(inst: &Instance) -> Vec<usize> {
    let mut bin = vec![0usize; inst.sizes.len()];
    let mut loads: Vec<i64> = Vec::new();
    for i in inst.decreasing() {
        let s = inst.sizes[i] as i64;
        match loads.iter().position(|&l| l + s <= inst.capacity as i64) {
            Some(b) => {
                loads[b] += s;
                bin[i] = b;
            }
            None => {
                bin[i] = loads.len();
                loads.push(s);
            }
        }
    }
    bin
}

/// How the model is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Break the symmetry of identical bins: the items sorted by
    /// decreasing size, the `k`-th (from 0) goes into a bin numbered at
    /// most `k`.
    pub symmetry: bool,
    /// Search with learning (lazy clause generation) rather than plain
    /// branch and bound.
    pub learning: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            symmetry: true,
            learning: false,
        }
    }
}

/// The model: a bin per item, a load per bin, the number of bins used.
#[derive(Debug)]
pub struct BinPack {
    /// The model.
    pub model: Model,
    /// `bins[i]`: the bin of item `i` (in the input's order).
    pub bins: Vec<VarId>,
    /// `loads[b]`: the total size in bin `b`.
    pub loads: Vec<VarId>,
    /// The number of bins used, to minimise: every item's bin is below it.
    pub used: VarId,
    /// The lower bound L2 ([`lower_bound`]), the least `used` allowed.
    pub lower: usize,
    /// The bins of first fit decreasing, the most `used` allowed.
    pub upper: usize,
    options: Options,
    order: Vec<usize>,
}

impl BinPack {
    /// The search of the example: the items' bins in decreasing order of
    /// size (`VarOrder::Input` over that order), each given its smallest
    /// bin first (`ValOrder::Ascending`), so that the first dive is first
    /// fit decreasing; learning as the [`Options`] say. `docs/packing.md`
    /// measures the choices.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            var_order: VarOrder::Input,
            val_order: ValOrder::Ascending,
            decision_vars: self.order.iter().map(|&i| self.bins[i]).collect(),
            learning: self.options.learning,
            learning_order: LearningOrder::Activity,
            ..Default::default()
        }
    }

    /// The bin of each item in `solution`.
    pub fn assignment(&self, solution: &Solution) -> Vec<i32> {
        self.bins.iter().map(|&b| solution[b]).collect()
    }
}

/// Builds the model of `inst`:
///
/// * `K`, the bins of first fit decreasing, numbered `0..K`; the number of
///   bins used, `used`, over `L2..=K` ([`lower_bound`]);
/// * a bin per item over `0..K` (with symmetry breaking, the `k`-th item
///   by decreasing size over `0..=min(k, K − 1)`), and `bin < used`;
/// * a load per bin over `0..=C` and [`Model::bin_packing_load`] (Shaw's
///   propagator, with its own L2 test).
pub fn model(inst: &Instance, options: Options) -> Result<BinPack, ModelError> {
    if let Some(reason) = inst.malformed() {
        return Err(ModelError::Invalid {
            constraint: "bin packing instance",
            reason,
        });
    }
    let n = inst.sizes.len();
    let ffd = first_fit_decreasing(inst);
    let upper = ffd.iter().map(|&b| b + 1).max().unwrap_or(0);
    let lower = lower_bound(inst);
    let k = upper.max(1);
    let order = inst.decreasing();
    let mut m = Model::new();
    let mut position = vec![0usize; n];
    for (pos, &i) in order.iter().enumerate() {
        position[i] = pos;
    }
    let mut bins = Vec::with_capacity(n);
    for &pos in &position {
        let top = if options.symmetry {
            pos.min(k - 1)
        } else {
            k - 1
        };
        bins.push(m.new_var(Domain::range(0, top as i32))?);
    }
    let loads = m.new_vars(k, Domain::range(0, inst.capacity))?;
    let used = m.new_var(Domain::range(lower as i32, upper as i32))?;
    m.bin_packing_load(&loads, &bins, &inst.sizes)?;
    for &b in &bins {
        m.post((b + 1).le(used))?;
    }
    Ok(BinPack {
        model: m,
        bins,
        loads,
        used,
        lower,
        upper,
        options,
        order,
    })
}

/// An independent check of a packing (`bins[i]` the bin of item `i`,
/// any non-negative numbers): no bin holds more than the capacity.
/// Returns the number of bins used (holding at least one item).
pub fn check(inst: &Instance, bins: &[i32]) -> Result<usize, String> {
    if bins.len() != inst.sizes.len() {
        return Err(format!(
            "{} bins for {} items",
            bins.len(),
            inst.sizes.len()
        ));
    }
    let mut load: std::collections::BTreeMap<i32, i64> = Default::default();
    for (i, &b) in bins.iter().enumerate() {
        if b < 0 {
            return Err(format!("item {} is in bin {b}, below 0", i + 1));
        }
        *load.entry(b).or_default() += inst.sizes[i] as i64;
    }
    for (&b, &l) in &load {
        if l > inst.capacity as i64 {
            return Err(format!(
                "bin {} holds {l}, more than the capacity {}",
                b + 1,
                inst.capacity
            ));
        }
    }
    Ok(load.len())
}

/// The packing as text: one line per bin used, `bin B (load L): sizes`,
/// the bins in the order of their numbers, each bin's items as `item:size`.
pub fn render(inst: &Instance, bins: &[i32]) -> String {
    let mut by_bin: std::collections::BTreeMap<i32, Vec<usize>> = Default::default();
    for (i, &b) in bins.iter().enumerate() {
        by_bin.entry(b).or_default().push(i);
    }
    let mut out = String::new();
    for (k, items) in by_bin.values().enumerate() {
        let load: i64 = items.iter().map(|&i| inst.sizes[i] as i64).sum();
        let list: Vec<String> = items
            .iter()
            .map(|&i| format!("{}:{}", i + 1, inst.sizes[i]))
            .collect();
        out += &format!(
            "bin {:>3} ({load:>4} of {}): {}\n",
            k + 1,
            inst.capacity,
            list.join(" ")
        );
    }
    out
}
