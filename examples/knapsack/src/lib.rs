//! The 0/1 knapsack: a worked example of maximisation.
//!
//! `n` items, item `i` of weight `wᵢ` and value `vᵢ`; choose the items to
//! take so that their weights sum to at most the capacity `C` and their
//! values to as much as possible. The model is one boolean `takeᵢ` per
//! item, `Σ wᵢ·takeᵢ ≤ C`, and `value = Σ vᵢ·takeᵢ` maximised by branch
//! and bound ([`Search::maximize`](csp_core::Search::maximize)).
//!
//! ```
//! use csp_knapsack::{check, model, options, parse};
//! use csp_core::Search;
//!
//! let k = parse("4 10\n3 4\n4 5\n5 7\n6 8\n").unwrap();
//! let km = model(&k).unwrap();
//! let r = Search::new(&km.model).options(options(&k, &km)).maximize(km.value).unwrap();
//! assert!(r.is_optimal());
//! let best = r.best.unwrap();
//! let taken: Vec<bool> = km.take.iter().map(|&t| best[t] == 1).collect();
//! assert_eq!(check(&k, &taken), Ok(13)); // items 2 and 4
//! ```

use csp_core::expr::sum;
use csp_core::{Model, ModelError, SearchOptions, ValOrder, VarId, VarOrder};
use csp_text::{data_lines, int as number, tokens};

/// A knapsack instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Knapsack {
    /// The capacity.
    pub capacity: i64,
    /// Per item, `(weight, value)`.
    pub items: Vec<(i64, i64)>,
}

/// A parse error at a line and column (1-based); `Display` gives
/// `line:column: message`.
pub use csp_text::TextError as ParseError;

/// The most items [`parse`] accepts.
pub const MAX_ITEMS: usize = 1000;
/// The largest weight, value and capacity [`parse`] accepts: with at most
/// [`MAX_ITEMS`] items every sum stays within `i32`, the engine's values.
pub const MAX_NUMBER: i64 = 1_000_000;

/// Parses `items capacity`, then one line `weight value` per item. Lines
/// starting with `#` and blank lines are skipped. Weights are at least 1
/// (an item of weight 0 would be taken for free), values at least 0.
pub fn parse(text: &str) -> Result<Knapsack, ParseError> {
    let mut lines = data_lines(text);
    let Some((hl, header)) = lines.next() else {
        return Err(ParseError::new(
            1,
            1,
            "empty input: expected a line 'items capacity'",
        ));
    };
    let [n, c] = pair(hl, header, "'items capacity'")?;
    let n = number(hl, n, "the number of items", 1, MAX_ITEMS as i64)? as usize;
    let capacity = number(hl, c, "the capacity", 0, MAX_NUMBER)?;
    let mut items = Vec::with_capacity(n);
    for i in 0..n {
        let Some((ln, line)) = lines.next() else {
            let last = text.lines().count().max(1);
            return Err(ParseError::new(
                last,
                1,
                format!("the input ends after {i} of {n} items"),
            ));
        };
        let [w, v] = pair(ln, line, "'weight value'")?;
        items.push((
            number(ln, w, "a weight", 1, MAX_NUMBER)?,
            number(ln, v, "a value", 0, MAX_NUMBER)?,
        ));
    }
    if let Some((ln, _)) = lines.next() {
        return Err(ParseError::new(
            ln,
            1,
            format!("more lines than the {n} items announced"),
        ));
    }
    Ok(Knapsack { capacity, items })
}

/// The two numbers of a line, with their columns (1-based).
fn pair<'a>(ln: usize, line: &'a str, what: &str) -> Result<[(usize, &'a str); 2], ParseError> {
    match tokens(line).as_slice() {
        [a, b] => Ok([*a, *b]),
        t => {
            let col = t.get(2).map_or(line.chars().count() + 1, |x| x.0);
            Err(ParseError::new(
                ln,
                col,
                format!("expected {what}, found {} numbers", t.len()),
            ))
        }
    }
}

/// The model of an instance.
#[derive(Debug)]
pub struct KnapsackModel {
    /// The model.
    pub model: Model,
    /// `take[i]` is 1 when item `i` is taken.
    pub take: Vec<VarId>,
    /// The total value of the items taken (to maximise).
    pub value: VarId,
}

/// Builds the model: a boolean per item, the capacity as one linear
/// constraint, and the value as a variable defined by a linear sum.
///
/// # Errors
/// A [`ModelError`] from the engine (not expected within [`parse`]'s limits).
pub fn model(k: &Knapsack) -> Result<KnapsackModel, ModelError> {
    let mut m = Model::new();
    let take = m.new_bools(k.items.len())?;
    let coef = |x: i64| i32::try_from(x).unwrap_or(i32::MAX);
    m.post(sum(take.iter().zip(&k.items).map(|(&t, &(w, _))| coef(w) * t)).le(coef(k.capacity)))?;
    let value = m.define(sum(take
        .iter()
        .zip(&k.items)
        .map(|(&t, &(_, v))| coef(v) * t)))?;
    Ok(KnapsackModel {
        model: m,
        take,
        value,
    })
}

/// The search: the items in [`ratio_order`] (value per weight, best
/// first), each taken before it is left out. The first solution is then
/// the greedy one, and branch and bound improves on it.
pub fn options(k: &Knapsack, km: &KnapsackModel) -> SearchOptions {
    SearchOptions {
        var_order: VarOrder::Input,
        val_order: ValOrder::Descending,
        decision_vars: ratio_order(k).into_iter().map(|i| km.take[i]).collect(),
        learning: false, // measured with the ordinary engine
        ..SearchOptions::default()
    }
}

/// The items by value per weight, best first, ties to the lower index.
pub fn ratio_order(k: &Knapsack) -> Vec<usize> {
    let mut order: Vec<usize> = (0..k.items.len()).collect();
    // vᵢ/wᵢ > vⱼ/wⱼ  <=>  vᵢ·wⱼ > vⱼ·wᵢ (weights are positive).
    order.sort_by(|&i, &j| {
        let (wi, vi) = k.items[i];
        let (wj, vj) = k.items[j];
        (vj * wi).cmp(&(vi * wj)).then(i.cmp(&j))
    });
    order
}

/// Checks a choice of items independently of the model: the weight within
/// the capacity. Returns the total value.
pub fn check(k: &Knapsack, taken: &[bool]) -> Result<i64, String> {
    if taken.len() != k.items.len() {
        return Err(format!(
            "{} choices for {} items",
            taken.len(),
            k.items.len()
        ));
    }
    let (w, v) = k
        .items
        .iter()
        .zip(taken)
        .filter(|(_, &t)| t)
        .fold((0i64, 0i64), |(w, v), (&(wi, vi), _)| (w + wi, v + vi));
    if w > k.capacity {
        return Err(format!("weight {w} exceeds the capacity {}", k.capacity));
    }
    Ok(v)
}
