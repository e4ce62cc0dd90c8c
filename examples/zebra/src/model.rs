//! The model, one line per clue, and solving through the generic engine.
//!
//! ```
//! use csp_zebra::{check_solution, model, render};
//!
//! let answer = model::solve_unique().unwrap();
//! let model::Answer::Unique(solution) = answer else { panic!("{answer:?}") };
//! assert_eq!(check_solution(&solution), Ok(()));
//! assert_eq!(
//!     render::answers(&solution).unwrap(),
//!     "The Norwegian drinks water.\nThe Japanese owns the zebra.\n"
//! );
//! ```

use csp_core::{
    Domain, Inference, Limit, Model, ModelError, Relation, Search, SearchOptions, Solution,
    ValOrder, Value, VarId, VarOrder,
};

use crate::clues::*;
use crate::Solution as Houses;

/// The model under construction: the engine's model and the house variable of
/// every item. Its methods are the four kinds of statement the clues make.
#[derive(Debug)]
pub struct Zebra {
    /// The engine's model.
    pub model: Model,
    /// `house[attribute][value]`: the house (1 to 5) of each item.
    pub house: [[VarId; HOUSES]; HOUSES],
}

impl Zebra {
    /// One variable per item, named by the item (`red`, `Englishman`, ...), its
    /// value the house number `1..=5`; no constraints yet.
    pub fn new() -> Result<Zebra, ModelError> {
        let mut model = Model::new();
        let mut house = [[VarId::from_index(0); HOUSES]; HOUSES];
        for attribute in Attribute::ALL {
            for item in attribute.items() {
                house[attribute.index()][item.index] =
                    model.new_var_named(item.name(), Domain::range(1, HOUSES as Value))?;
            }
        }
        Ok(Zebra { model, house })
    }

    /// The variable of `item`.
    pub fn var(&self, item: Item) -> VarId {
        self.house[item.attribute.index()][item.index]
    }

    /// The five values of `attribute` are in five different houses.
    pub fn different_houses(&mut self, attribute: Attribute) -> Result<(), ModelError> {
        let vars = self.house[attribute.index()];
        self.model.all_different(&vars).map(drop)
    }

    /// `a` and `b` are in the same house: `house[a] = house[b]`.
    pub fn same_house(&mut self, a: Item, b: Item) -> Result<(), ModelError> {
        self.model.equal(self.var(a), self.var(b), 0).map(drop)
    }

    /// `a` is immediately to the right of `b`: `house[a] = house[b] + 1`.
    pub fn right_of(&mut self, a: Item, b: Item) -> Result<(), ModelError> {
        self.model.equal(self.var(a), self.var(b), 1).map(drop)
    }

    /// `a` and `b` are in neighboring houses: `|house[a] − house[b]| = 1`,
    /// as the table of allowed pairs `(1, 2), (2, 1), (2, 3), ...`.
    pub fn next_to(&mut self, a: Item, b: Item) -> Result<(), ModelError> {
        let pairs = (1..HOUSES as Value).flat_map(|h| [vec![h, h + 1], vec![h + 1, h]]);
        self.model
            .table(&[self.var(a), self.var(b)], pairs)
            .map(drop)
    }

    /// `a` is in house number `house`: `house[a] = house`.
    pub fn in_house(&mut self, a: Item, house: usize) -> Result<(), ModelError> {
        self.model
            .linear(&[(1, self.var(a))], Relation::Eq, house as i64)
            .map(drop)
    }

    /// The assignment a solution of the model describes.
    pub fn houses(&self, solution: &Solution) -> Houses {
        let mut house_of = [[0u8; HOUSES]; HOUSES];
        for (a, row) in self.house.iter().enumerate() {
            for (v, &x) in row.iter().enumerate() {
                house_of[a][v] = u8::try_from(solution[x]).expect("houses are 1..=5");
            }
        }
        Houses { house_of }
    }
}

/// The whole puzzle: one statement per clue, in the order of [`CLUES`].
///
/// # Errors
/// None in practice; a [`ModelError`] from the engine is passed on.
pub fn model() -> Result<Zebra, ModelError> {
    let mut z = Zebra::new()?;
    // 1. There are five houses: each attribute's five values in different houses.
    for attribute in Attribute::ALL {
        z.different_houses(attribute)?;
    }
    // 2. The Englishman lives in the red house.
    z.same_house(ENGLISHMAN, RED)?;
    // 3. The Spaniard owns the dog.
    z.same_house(SPANIARD, DOG)?;
    // 4. Coffee is drunk in the green house.
    z.same_house(COFFEE, GREEN)?;
    // 5. The Ukrainian drinks tea.
    z.same_house(UKRAINIAN, TEA)?;
    // 6. The green house is immediately to the right of the ivory house.
    z.right_of(GREEN, IVORY)?;
    // 7. The Old Gold smoker owns snails.
    z.same_house(OLD_GOLD, SNAILS)?;
    // 8. Kools are smoked in the yellow house.
    z.same_house(KOOLS, YELLOW)?;
    // 9. Milk is drunk in the middle house.
    z.in_house(MILK, 3)?;
    // 10. The Norwegian lives in the first house.
    z.in_house(NORWEGIAN, 1)?;
    // 11. The man who smokes Chesterfields lives in the house next to the man with the fox.
    z.next_to(CHESTERFIELDS, FOX)?;
    // 12. Kools are smoked in the house next to the house where the horse is kept.
    z.next_to(KOOLS, HORSE)?;
    // 13. The Lucky Strike smoker drinks orange juice.
    z.same_house(LUCKY_STRIKE, ORANGE_JUICE)?;
    // 14. The Japanese smokes Parliaments.
    z.same_house(JAPANESE, PARLIAMENTS)?;
    // 15. The Norwegian lives next to the blue house.
    z.next_to(NORWEGIAN, BLUE)?;
    Ok(z)
}

/// The search options used: arc consistency, smallest domain first.
pub fn options() -> SearchOptions {
    SearchOptions {
        inference: Inference::Mac,
        var_order: VarOrder::Mrv,
        val_order: ValOrder::Ascending,
        limits: Default::default(),
        learning: false, // measured with the ordinary engine
        ..Default::default()
    }
}

/// What [`solve_unique`] proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The clues admit no assignment.
    None,
    /// Exactly one assignment satisfies the clues.
    Unique(Houses),
    /// At least two do (the first two found).
    Multiple(Houses, Houses),
    /// A search limit stopped the engine first.
    Unknown(Limit),
    /// The engine let through an assignment that violates this constraint
    /// (a propagator bug; see `csp_core::Outcome::Invalid`).
    Invalid(csp_core::ConstraintId),
}

/// Solves the puzzle and proves the solution unique with the engine's `is_unique`.
///
/// # Errors
/// A [`ModelError`] from building the model (not expected).
pub fn solve_unique() -> Result<Answer, ModelError> {
    let z = model()?;
    Ok(
        match Search::new(&z.model)
            .options(options())
            .is_unique()
            .expect("the options name no variables")
        {
            csp_core::Uniqueness::None => Answer::None,
            csp_core::Uniqueness::Unique(s) => Answer::Unique(z.houses(&s)),
            csp_core::Uniqueness::Multiple(a, b) => Answer::Multiple(z.houses(&a), z.houses(&b)),
            csp_core::Uniqueness::Unknown(l) => Answer::Unknown(l),
            csp_core::Uniqueness::Invalid(c) => Answer::Invalid(c),
        },
    )
}
