//! The [`Solution`] type: which house each item is in.

use std::fmt;

use crate::clues::{Attribute, Item, HOUSES};

/// A full assignment: the house (1 to 5, from the left) of every item.
///
/// `house_of[attribute][value]` is the house of that value, indexed as in
/// [`Attribute::ALL`] and [`Attribute::values`]. This is exactly the shape of the
/// model: one variable per item whose value is a house.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Solution {
    /// The house of each value of each attribute.
    pub house_of: [[u8; HOUSES]; HOUSES],
}

/// Why a table of names is not an assignment ([`Solution::from_houses`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolutionError {
    /// A name that is no value of any attribute.
    UnknownName {
        /// The house (1-based) where it was written.
        house: usize,
        /// The name.
        name: String,
    },
    /// A house given two values of one attribute.
    TwoValues {
        /// The house, 1-based.
        house: usize,
        /// The first value.
        first: Item,
        /// The second value.
        second: Item,
    },
    /// A value placed in two houses.
    TwoHouses {
        /// The value.
        item: Item,
        /// The first house.
        first: usize,
        /// The second house.
        second: usize,
    },
}

impl fmt::Display for SolutionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolutionError::UnknownName { house, name } => {
                write!(f, "house {house}: unknown name {name:?}")
            }
            SolutionError::TwoValues {
                house,
                first,
                second,
            } => write!(
                f,
                "house {house}: two {}s, {first} and {second}",
                first.attribute.name()
            ),
            SolutionError::TwoHouses {
                item,
                first,
                second,
            } => write!(f, "{item} is in house {first} and in house {second}"),
        }
    }
}

impl std::error::Error for SolutionError {}

impl Solution {
    /// A solution from a table with one row of names per house, left to right,
    /// names in any order and any case.
    ///
    /// Items not mentioned get house 0, which no clue accepts, so a partial table
    /// can be built and then rejected by the checker.
    ///
    /// ```
    /// use csp_zebra::{clues::ZEBRA, Solution};
    ///
    /// let s = Solution::from_houses([
    ///     ["yellow", "Norwegian", "water", "Kools", "fox"],
    ///     ["blue", "Ukrainian", "tea", "Chesterfields", "horse"],
    ///     ["red", "Englishman", "milk", "Old Gold", "snails"],
    ///     ["ivory", "Spaniard", "orange juice", "Lucky Strike", "dog"],
    ///     ["green", "Japanese", "coffee", "Parliaments", "zebra"],
    /// ])
    /// .unwrap();
    /// assert_eq!(s.house(ZEBRA), 5);
    /// ```
    ///
    /// # Errors
    /// An unknown name, two values of one attribute in a house, or one value in two houses.
    pub fn from_houses<const N: usize, S: AsRef<str>>(
        rows: [[S; N]; HOUSES],
    ) -> Result<Solution, SolutionError> {
        let mut house_of = [[0u8; HOUSES]; HOUSES];
        for (h, row) in rows.iter().enumerate() {
            let house = h + 1;
            let mut seen: [Option<Item>; HOUSES] = [None; HOUSES];
            for name in row {
                let item =
                    Item::from_name(name.as_ref()).ok_or_else(|| SolutionError::UnknownName {
                        house,
                        name: name.as_ref().to_string(),
                    })?;
                let a = item.attribute.index();
                if let Some(first) = seen[a] {
                    return Err(SolutionError::TwoValues {
                        house,
                        first,
                        second: item,
                    });
                }
                seen[a] = Some(item);
                let slot = &mut house_of[a][item.index];
                if *slot != 0 {
                    return Err(SolutionError::TwoHouses {
                        item,
                        first: usize::from(*slot),
                        second: house,
                    });
                }
                *slot = house as u8;
            }
        }
        Ok(Solution { house_of })
    }

    /// The house (1 to 5) of `item`.
    pub fn house(&self, item: Item) -> u8 {
        self.house_of[item.attribute.index()][item.index]
    }

    /// The value of `attribute` in `house` (1-based), if some value is there.
    pub fn item_in(&self, house: u8, attribute: Attribute) -> Option<Item> {
        attribute
            .items()
            .into_iter()
            .find(|&i| self.house(i) == house)
    }

    /// The nationality of the man in the house of `item`: `who(WATER)` answers
    /// "who drinks water?".
    pub fn who(&self, item: Item) -> Option<Item> {
        self.item_in(self.house(item), Attribute::Nationality)
    }
}

/// A table with one column per house, one row per attribute.
impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::render::table(self))
    }
}
