//! The puzzle as data: attributes, their values, and the fifteen clues.

use std::fmt;

use crate::Solution;

/// The number of houses (and of values of each attribute).
pub const HOUSES: usize = 5;

/// A kind of fact about a house: each house has one value of each attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attribute {
    /// The color the house is painted.
    Color,
    /// The nationality of the man who lives there.
    Nationality,
    /// What he drinks.
    Drink,
    /// What he smokes.
    Smoke,
    /// His pet.
    Pet,
}

impl Attribute {
    /// All attributes, in the order used for tables and indices.
    pub const ALL: [Attribute; 5] = [
        Attribute::Color,
        Attribute::Nationality,
        Attribute::Drink,
        Attribute::Smoke,
        Attribute::Pet,
    ];

    /// The attribute's position in [`Attribute::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The attribute's name, lowercase (`color`, `nationality`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Color => "color",
            Attribute::Nationality => "nationality",
            Attribute::Drink => "drink",
            Attribute::Smoke => "smoke",
            Attribute::Pet => "pet",
        }
    }

    /// The five values, in index order.
    pub fn values(self) -> [&'static str; HOUSES] {
        match self {
            Attribute::Color => ["red", "green", "ivory", "yellow", "blue"],
            Attribute::Nationality => [
                "Englishman",
                "Spaniard",
                "Ukrainian",
                "Norwegian",
                "Japanese",
            ],
            Attribute::Drink => ["coffee", "tea", "milk", "orange juice", "water"],
            Attribute::Smoke => [
                "Old Gold",
                "Kools",
                "Chesterfields",
                "Lucky Strike",
                "Parliaments",
            ],
            Attribute::Pet => ["dog", "snails", "fox", "horse", "zebra"],
        }
    }

    /// The five values as [`Item`]s.
    pub fn items(self) -> [Item; HOUSES] {
        std::array::from_fn(|index| Item {
            attribute: self,
            index,
        })
    }
}

/// One value of one attribute: "the red house", "the Spaniard", "the zebra".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Item {
    /// The attribute.
    pub attribute: Attribute,
    /// The value's index in [`Attribute::values`].
    pub index: usize,
}

impl Item {
    /// The value's name (`red`, `Spaniard`, `orange juice`).
    pub fn name(self) -> &'static str {
        self.attribute.values()[self.index]
    }

    /// The item with this name, ignoring case.
    ///
    /// ```
    /// use csp_zebra::clues::{Item, ZEBRA};
    /// assert_eq!(Item::from_name("Zebra"), Some(ZEBRA));
    /// assert_eq!(Item::from_name("unicorn"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Item> {
        Attribute::ALL
            .iter()
            .flat_map(|a| a.items())
            .find(|item| item.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const fn item(attribute: Attribute, index: usize) -> Item {
    Item { attribute, index }
}

/// The red house.
pub const RED: Item = item(Attribute::Color, 0);
/// The green house.
pub const GREEN: Item = item(Attribute::Color, 1);
/// The ivory house.
pub const IVORY: Item = item(Attribute::Color, 2);
/// The yellow house.
pub const YELLOW: Item = item(Attribute::Color, 3);
/// The blue house.
pub const BLUE: Item = item(Attribute::Color, 4);
/// The Englishman.
pub const ENGLISHMAN: Item = item(Attribute::Nationality, 0);
/// The Spaniard.
pub const SPANIARD: Item = item(Attribute::Nationality, 1);
/// The Ukrainian.
pub const UKRAINIAN: Item = item(Attribute::Nationality, 2);
/// The Norwegian.
pub const NORWEGIAN: Item = item(Attribute::Nationality, 3);
/// The Japanese.
pub const JAPANESE: Item = item(Attribute::Nationality, 4);
/// Coffee.
pub const COFFEE: Item = item(Attribute::Drink, 0);
/// Tea.
pub const TEA: Item = item(Attribute::Drink, 1);
/// Milk.
pub const MILK: Item = item(Attribute::Drink, 2);
/// Orange juice.
pub const ORANGE_JUICE: Item = item(Attribute::Drink, 3);
/// Water.
pub const WATER: Item = item(Attribute::Drink, 4);
/// Old Gold cigarettes.
pub const OLD_GOLD: Item = item(Attribute::Smoke, 0);
/// Kools cigarettes.
pub const KOOLS: Item = item(Attribute::Smoke, 1);
/// Chesterfields cigarettes.
pub const CHESTERFIELDS: Item = item(Attribute::Smoke, 2);
/// Lucky Strike cigarettes.
pub const LUCKY_STRIKE: Item = item(Attribute::Smoke, 3);
/// Parliaments cigarettes.
pub const PARLIAMENTS: Item = item(Attribute::Smoke, 4);
/// The dog.
pub const DOG: Item = item(Attribute::Pet, 0);
/// The snails.
pub const SNAILS: Item = item(Attribute::Pet, 1);
/// The fox.
pub const FOX: Item = item(Attribute::Pet, 2);
/// The horse.
pub const HORSE: Item = item(Attribute::Pet, 3);
/// The zebra.
pub const ZEBRA: Item = item(Attribute::Pet, 4);

/// What a clue says, in terms of the houses the items are in.
///
/// Houses are numbered 1 to 5 from left to right; "to the right of" means the
/// next house number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// There are five houses, and each value of each attribute belongs to exactly
    /// one of them (the structure of the puzzle rather than a constraint between items).
    FiveHouses,
    /// The two items are in the same house.
    SameHouse(Item, Item),
    /// The first item's house is immediately to the right of the second's.
    RightOf(Item, Item),
    /// The two items are in adjacent houses.
    NextTo(Item, Item),
    /// The item is in the given house (1-based).
    InHouse(Item, usize),
}

impl Relation {
    /// Whether the relation holds in `solution` (a solution that assigns every
    /// item a house `1..=5`; [`Relation::FiveHouses`] also checks that).
    pub fn holds(&self, solution: &Solution) -> bool {
        let h = |item: Item| i64::from(solution.house(item));
        match *self {
            Relation::FiveHouses => Attribute::ALL.iter().all(|&a| {
                let mut houses: Vec<i64> = a.items().iter().map(|&i| h(i)).collect();
                houses.sort_unstable();
                houses == [1, 2, 3, 4, 5]
            }),
            Relation::SameHouse(a, b) => h(a) == h(b),
            Relation::RightOf(a, b) => h(a) == h(b) + 1,
            Relation::NextTo(a, b) => (h(a) - h(b)).abs() == 1,
            Relation::InHouse(a, house) => h(a) == house as i64,
        }
    }
}

/// One clue: its number, its words, and what it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clue {
    /// The clue's number, 1 to 15.
    pub number: u8,
    /// The clue as published.
    pub text: &'static str,
    /// The clue as a relation between items and houses.
    pub relation: Relation,
}

/// The fifteen clues of the puzzle as published in *Life International*, 17
/// December 1962.
pub const CLUES: [Clue; 15] = [
    Clue {
        number: 1,
        text: "There are five houses.",
        relation: Relation::FiveHouses,
    },
    Clue {
        number: 2,
        text: "The Englishman lives in the red house.",
        relation: Relation::SameHouse(ENGLISHMAN, RED),
    },
    Clue {
        number: 3,
        text: "The Spaniard owns the dog.",
        relation: Relation::SameHouse(SPANIARD, DOG),
    },
    Clue {
        number: 4,
        text: "Coffee is drunk in the green house.",
        relation: Relation::SameHouse(COFFEE, GREEN),
    },
    Clue {
        number: 5,
        text: "The Ukrainian drinks tea.",
        relation: Relation::SameHouse(UKRAINIAN, TEA),
    },
    Clue {
        number: 6,
        text: "The green house is immediately to the right of the ivory house.",
        relation: Relation::RightOf(GREEN, IVORY),
    },
    Clue {
        number: 7,
        text: "The Old Gold smoker owns snails.",
        relation: Relation::SameHouse(OLD_GOLD, SNAILS),
    },
    Clue {
        number: 8,
        text: "Kools are smoked in the yellow house.",
        relation: Relation::SameHouse(KOOLS, YELLOW),
    },
    Clue {
        number: 9,
        text: "Milk is drunk in the middle house.",
        relation: Relation::InHouse(MILK, 3),
    },
    Clue {
        number: 10,
        text: "The Norwegian lives in the first house.",
        relation: Relation::InHouse(NORWEGIAN, 1),
    },
    Clue {
        number: 11,
        text: "The man who smokes Chesterfields lives in the house next to the man with the fox.",
        relation: Relation::NextTo(CHESTERFIELDS, FOX),
    },
    Clue {
        number: 12,
        text: "Kools are smoked in the house next to the house where the horse is kept.",
        relation: Relation::NextTo(KOOLS, HORSE),
    },
    Clue {
        number: 13,
        text: "The Lucky Strike smoker drinks orange juice.",
        relation: Relation::SameHouse(LUCKY_STRIKE, ORANGE_JUICE),
    },
    Clue {
        number: 14,
        text: "The Japanese smokes Parliaments.",
        relation: Relation::SameHouse(JAPANESE, PARLIAMENTS),
    },
    Clue {
        number: 15,
        text: "The Norwegian lives next to the blue house.",
        relation: Relation::NextTo(NORWEGIAN, BLUE),
    },
];

/// The two questions the puzzle asks.
pub const QUESTIONS: [&str; 2] = ["Who drinks water?", "Who owns the zebra?"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_round_trip() {
        let all: Vec<Item> = Attribute::ALL.iter().flat_map(|a| a.items()).collect();
        assert_eq!(all.len(), 25);
        for item in &all {
            assert_eq!(Item::from_name(item.name()), Some(*item));
        }
        assert_eq!(Item::from_name("ORANGE JUICE"), Some(ORANGE_JUICE));
    }

    #[test]
    fn clues_are_numbered_in_order() {
        for (i, clue) in CLUES.iter().enumerate() {
            assert_eq!(usize::from(clue.number), i + 1);
            assert!(clue.text.ends_with('.'));
        }
    }
}
