//! Sudoku techniques, named as players name them, each step checked.
//!
//! The techniques and their codes are HoDoKu's (Bernhard Hobiger's HoDoKu,
//! <https://hodoku.sourceforge.net/>, whose regression library
//! `reglib-1.3.txt` lists them); the detectors are written here from the
//! techniques' definitions. A [`Step`] names the placements and
//! eliminations, the pattern's cells, and the [`Rule`]s it uses: "cell
//! r4c6 holds exactly one digit" or "row 4 holds exactly one 7". Before a
//! step is handed out, [`Checker`] proves each of its conclusions from
//! those rules and the current candidates alone, with
//! [`csp_core::hints::check_step`] over an exact-cover model of the grid
//! (one 0/1 variable per cell and digit), not with the detectors' logic.
//! The uniqueness techniques ([`Technique::assumes_uniqueness`]) hold
//! only if the puzzle has one solution: the checker verifies that premise
//! too ([`Checker::uniqueness_premise`]), and without it they are not
//! offered.
//!
//! ```
//! use csp_sudoku::pencil::Candidates;
//! use csp_sudoku::techniques::{self, Technique};
//! use csp_sudoku::Grid;
//! let g: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! let pm = Candidates::from_grid(&g);
//! let step = techniques::next(&pm).unwrap();
//! assert_eq!(step.technique, Technique::HiddenSingle);
//! assert_eq!(step.sentence, "Hidden single: in box 4, only r6c2 can hold 4");
//! ```

use std::collections::BTreeSet;
use std::fmt;

use csp_core::hints::{check_step, Verdict};
use csp_core::{Constraint, ConstraintId, Domain, Literal, Model, Value, VarId};

use crate::pencil::{bit, cell_name, digits_of, Candidates, House};

mod aic;
mod als;
mod unique;

pub use unique::Premise;

/// HoDoKu's difficulty levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles only.
    Easy,
    /// Intersections, pairs and triples.
    Medium,
    /// Quadruples, basic fish, single-digit patterns, wings.
    Hard,
    /// Jellyfish and beyond.
    Unfair,
    /// Beyond every technique here (search).
    Extreme,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
        })
    }
}

/// The techniques implemented, in the order [`next`] tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// The last empty cell of a house.
    FullHouse,
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit with one cell left in a house.
    HiddenSingle,
    /// Locked candidates type 1: a digit of a box confined to one line.
    Pointing,
    /// Locked candidates type 2: a digit of a line confined to one box.
    Claiming,
    /// A naked pair in a box and a line at once: both houses lose its digits.
    LockedPair,
    /// A naked triple in a box and a line at once.
    LockedTriple,
    /// Two cells of a house with the same two candidates.
    NakedPair,
    /// Two digits of a house confined to two cells.
    HiddenPair,
    /// Three cells of a house with three candidates between them.
    NakedTriple,
    /// Three digits of a house confined to three cells.
    HiddenTriple,
    /// Four cells, four candidates.
    NakedQuadruple,
    /// Four digits, four cells.
    HiddenQuadruple,
    /// Basic fish of size 2.
    XWing,
    /// Remote pair: a chain of bivalue cells with the same two digits.
    RemotePair,
    /// Skyscraper: two conjugate pairs in parallel lines, one end aligned.
    Skyscraper,
    /// 2-String Kite: a conjugate pair in a row and one in a column joined in a box.
    TwoStringKite,
    /// Empty rectangle: a box's candidates in a cross and a conjugate pair.
    EmptyRectangle,
    /// Turbot fish: two conjugate pairs joined by a weak link.
    TurbotFish,
    /// Simple colours, trap: a cell seeing both colours of a chain.
    ColourTrap,
    /// Simple colours, wrap: a colour with two cells seeing each other.
    ColourWrap,
    /// Multi-colours 1: two chains of conjugate pairs, a colour of each
    /// seeing the other: a cell seeing both other colours loses the digit.
    MultiColours1,
    /// Multi-colours 2: a colour of one chain sees both colours of
    /// another: it is false.
    MultiColours2,
    /// Basic fish of size 3.
    Swordfish,
    /// XY-Wing: a bivalue pivot and two bivalue pincers.
    XyWing,
    /// XYZ-Wing: a trivalue pivot and two bivalue pincers.
    XyzWing,
    /// W-Wing: two equal bivalue cells joined by a strong link.
    WWing,
    /// BUG+1: all empty cells bivalue but one; it keeps the digit that
    /// breaks the bivalue universal grave (assumes a unique solution).
    BugPlusOne,
    /// Uniqueness Test 1: three corners of a rectangle hold only the same
    /// two digits; the fourth loses them (assumes a unique solution).
    UniquenessTest1,
    /// Uniqueness Test 2: two corners in a line hold one extra digit; it
    /// leaves the cells seeing both.
    UniquenessTest2,
    /// Uniqueness Test 3: the extra digits of two corners form a naked
    /// subset with other cells of a house.
    UniquenessTest3,
    /// Uniqueness Test 4: one of the two digits is confined to two corners
    /// in a house; they lose the other.
    UniquenessTest4,
    /// Uniqueness Test 5: diagonal corners (or three) hold one extra digit.
    UniquenessTest5,
    /// Uniqueness Test 6: a digit confined to the rectangle in both rows
    /// (or columns) leaves the two corners with extra digits.
    UniquenessTest6,
    /// Hidden Rectangle: a bivalue corner and a digit confined to the
    /// rectangle in the opposite corner's row and column.
    HiddenRectangle,
    /// Basic fish of size 4.
    Jellyfish,
    /// An X-Wing with fins in one box.
    FinnedXWing,
    /// A finned X-Wing missing a body candidate.
    SashimiXWing,
    /// A Swordfish with fins in one box.
    FinnedSwordfish,
    /// A finned Swordfish missing a body candidate.
    SashimiSwordfish,
    /// A Jellyfish with fins in one box.
    FinnedJellyfish,
    /// A finned Jellyfish missing a body candidate.
    SashimiJellyfish,
    /// X-chain: alternating strong and weak links of one digit.
    XChain,
    /// XY-chain: bivalue cells linked by shared digits, equal outer digits.
    XyChain,
    /// Alternating inference chain: strong and weak links between
    /// candidates, strong at both ends, so one end is true.
    Aic,
    /// Continuous nice loop: a closed alternating chain of candidates;
    /// every weak link of it is strong too.
    ContinuousNiceLoop,
    /// Discontinuous nice loop: a chain from a candidate back to its own
    /// cell that refutes or proves it.
    DiscontinuousNiceLoop,
    /// Grouped AIC: an AIC whose nodes may be groups (a digit's
    /// candidates in a box-line intersection).
    GroupedAic,
    /// Grouped continuous nice loop.
    GroupedContinuousNiceLoop,
    /// Grouped discontinuous nice loop.
    GroupedDiscontinuousNiceLoop,
    /// ALS-XZ: two almost locked sets joined by a restricted common
    /// candidate (or two: doubly linked).
    AlsXz,
    /// ALS-XY-Wing: two almost locked sets each joined to a third by a
    /// different restricted common candidate.
    AlsXyWing,
    /// ALS-XY-Chain: almost locked sets joined in a chain by restricted
    /// common candidates, consecutive ones different.
    AlsXyChain,
    /// Death Blossom: a stem cell whose every digit locks a petal ALS.
    DeathBlossom,
    /// Forcing net, contradiction: placing the digit leads, by singles
    /// alone, to a cell or a house-digit with no place left.
    ForcingNetContradiction,
    /// Forcing net, verity: every digit of a cell (or every place of a
    /// digit in a house) leads, by singles, to the same conclusion.
    ForcingNetVerity,
}

/// Every technique, in the order [`next`] tries them (but for those
/// that are not [`Technique::in_ladder`]).
pub const LADDER: [Technique; 56] = [
    Technique::FullHouse,
    Technique::NakedSingle,
    Technique::HiddenSingle,
    Technique::Pointing,
    Technique::Claiming,
    Technique::LockedPair,
    Technique::LockedTriple,
    Technique::NakedPair,
    Technique::HiddenPair,
    Technique::NakedTriple,
    Technique::HiddenTriple,
    Technique::NakedQuadruple,
    Technique::HiddenQuadruple,
    Technique::XWing,
    Technique::RemotePair,
    Technique::BugPlusOne,
    Technique::Skyscraper,
    Technique::TwoStringKite,
    Technique::EmptyRectangle,
    Technique::TurbotFish,
    Technique::FinnedXWing,
    Technique::SashimiXWing,
    Technique::Swordfish,
    Technique::XyWing,
    Technique::XyzWing,
    Technique::WWing,
    Technique::UniquenessTest1,
    Technique::UniquenessTest2,
    Technique::UniquenessTest3,
    Technique::UniquenessTest4,
    Technique::UniquenessTest5,
    Technique::UniquenessTest6,
    Technique::HiddenRectangle,
    Technique::ColourTrap,
    Technique::ColourWrap,
    Technique::Jellyfish,
    Technique::FinnedSwordfish,
    Technique::SashimiSwordfish,
    Technique::FinnedJellyfish,
    Technique::SashimiJellyfish,
    Technique::MultiColours1,
    Technique::MultiColours2,
    Technique::XChain,
    Technique::XyChain,
    Technique::Aic,
    Technique::ContinuousNiceLoop,
    Technique::DiscontinuousNiceLoop,
    Technique::GroupedAic,
    Technique::GroupedContinuousNiceLoop,
    Technique::GroupedDiscontinuousNiceLoop,
    Technique::AlsXz,
    Technique::AlsXyWing,
    Technique::AlsXyChain,
    Technique::DeathBlossom,
    Technique::ForcingNetContradiction,
    Technique::ForcingNetVerity,
];

impl Technique {
    /// Does [`next`] try it? Every technique but the almost locked set
    /// ones, which [`find_all`] (`--hint --technique`) finds: their
    /// search, every ALS and every pair of them at each state no chain
    /// explains, made the explanations of top95 about twice as slow
    /// (`docs/benchmarks.md`), so they wait for a faster one. (Death
    /// Blossom is off in HoDoKu's default configuration anyway.)
    pub fn in_ladder(self) -> bool {
        !als::is_als(self)
    }

    /// Does it rest on the premise that the puzzle has exactly one
    /// solution (the uniqueness tests, the hidden rectangle, BUG+1)? Such
    /// a step is offered only when the state has exactly one completion.
    pub fn assumes_uniqueness(self) -> bool {
        unique::is_uniqueness(self)
    }

    /// HoDoKu's code (`0300` for X-Wing).
    pub fn code(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "0000",
            HiddenSingle => "0002",
            NakedSingle => "0003",
            Pointing => "0100",
            Claiming => "0101",
            LockedPair => "0110",
            LockedTriple => "0111",
            NakedPair => "0200",
            NakedTriple => "0201",
            NakedQuadruple => "0202",
            HiddenPair => "0210",
            HiddenTriple => "0211",
            HiddenQuadruple => "0212",
            XWing => "0300",
            Swordfish => "0301",
            Jellyfish => "0302",
            FinnedXWing => "0310",
            FinnedSwordfish => "0311",
            FinnedJellyfish => "0312",
            SashimiXWing => "0320",
            SashimiSwordfish => "0321",
            SashimiJellyfish => "0322",
            Skyscraper => "0400",
            TwoStringKite => "0401",
            EmptyRectangle => "0402",
            TurbotFish => "0403",
            ColourTrap => "0500",
            ColourWrap => "0501",
            MultiColours1 => "0502",
            MultiColours2 => "0503",
            XyWing => "0800",
            XyzWing => "0801",
            WWing => "0803",
            UniquenessTest1 => "0600",
            UniquenessTest2 => "0601",
            UniquenessTest3 => "0602",
            UniquenessTest4 => "0603",
            UniquenessTest5 => "0604",
            UniquenessTest6 => "0605",
            HiddenRectangle => "0606",
            BugPlusOne => "0610",
            XChain => "0701",
            RemotePair => "0703",
            XyChain => "0702",
            ContinuousNiceLoop => "0706",
            DiscontinuousNiceLoop => "0707",
            Aic => "0708",
            GroupedContinuousNiceLoop => "0709",
            GroupedDiscontinuousNiceLoop => "0710",
            GroupedAic => "0711",
            AlsXz => "0901",
            AlsXyWing => "0902",
            AlsXyChain => "0903",
            DeathBlossom => "0904",
            ForcingNetContradiction => "1303",
            ForcingNetVerity => "1304",
        }
    }

    /// The name players use (lower case, as in the CLI's `--technique`).
    pub fn name(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "full house",
            HiddenSingle => "hidden single",
            NakedSingle => "naked single",
            Pointing => "locked candidates (pointing)",
            Claiming => "locked candidates (claiming)",
            LockedPair => "locked pair",
            LockedTriple => "locked triple",
            NakedPair => "naked pair",
            NakedTriple => "naked triple",
            NakedQuadruple => "naked quadruple",
            HiddenPair => "hidden pair",
            HiddenTriple => "hidden triple",
            HiddenQuadruple => "hidden quadruple",
            XWing => "x-wing",
            Swordfish => "swordfish",
            Jellyfish => "jellyfish",
            FinnedXWing => "finned x-wing",
            FinnedSwordfish => "finned swordfish",
            FinnedJellyfish => "finned jellyfish",
            SashimiXWing => "sashimi x-wing",
            SashimiSwordfish => "sashimi swordfish",
            SashimiJellyfish => "sashimi jellyfish",
            Skyscraper => "skyscraper",
            TwoStringKite => "2-string kite",
            EmptyRectangle => "empty rectangle",
            TurbotFish => "turbot fish",
            ColourTrap => "simple colors trap",
            ColourWrap => "simple colors wrap",
            MultiColours1 => "multi colors 1",
            MultiColours2 => "multi colors 2",
            XyWing => "xy-wing",
            XyzWing => "xyz-wing",
            WWing => "w-wing",
            UniquenessTest1 => "uniqueness test 1",
            UniquenessTest2 => "uniqueness test 2",
            UniquenessTest3 => "uniqueness test 3",
            UniquenessTest4 => "uniqueness test 4",
            UniquenessTest5 => "uniqueness test 5",
            UniquenessTest6 => "uniqueness test 6",
            HiddenRectangle => "hidden rectangle",
            BugPlusOne => "bug+1",
            XChain => "x-chain",
            RemotePair => "remote pair",
            XyChain => "xy-chain",
            ContinuousNiceLoop => "continuous nice loop",
            DiscontinuousNiceLoop => "discontinuous nice loop",
            Aic => "alternating inference chain",
            GroupedContinuousNiceLoop => "grouped continuous nice loop",
            GroupedDiscontinuousNiceLoop => "grouped discontinuous nice loop",
            GroupedAic => "grouped alternating inference chain",
            AlsXz => "als-xz",
            AlsXyWing => "als-xy-wing",
            AlsXyChain => "als-xy-chain",
            DeathBlossom => "death blossom",
            ForcingNetContradiction => "forcing net contradiction",
            ForcingNetVerity => "forcing net verity",
        }
    }

    /// The name as a sentence starts it (`X-Wing`, `Naked pair`).
    pub fn title(self) -> String {
        use Technique::*;
        match self {
            XWing => "X-Wing".into(),
            FinnedXWing => "Finned X-Wing".into(),
            SashimiXWing => "Sashimi X-Wing".into(),
            TwoStringKite => "2-String Kite".into(),
            XyWing => "XY-Wing".into(),
            XyzWing => "XYZ-Wing".into(),
            WWing => "W-Wing".into(),
            UniquenessTest1 => "Uniqueness Test 1".into(),
            UniquenessTest2 => "Uniqueness Test 2".into(),
            UniquenessTest3 => "Uniqueness Test 3".into(),
            UniquenessTest4 => "Uniqueness Test 4".into(),
            UniquenessTest5 => "Uniqueness Test 5".into(),
            UniquenessTest6 => "Uniqueness Test 6".into(),
            HiddenRectangle => "Hidden Rectangle".into(),
            BugPlusOne => "BUG+1".into(),
            XChain => "X-Chain".into(),
            XyChain => "XY-Chain".into(),
            Aic => "AIC".into(),
            GroupedAic => "Grouped AIC".into(),
            AlsXz => "ALS-XZ".into(),
            AlsXyWing => "ALS-XY-Wing".into(),
            AlsXyChain => "ALS-XY-Chain".into(),
            DeathBlossom => "Death Blossom".into(),
            t => capital(t.name()),
        }
    }

    /// The level HoDoKu gives the technique in its default configuration
    /// (see `docs/hints.md` for the table).
    pub fn level(self) -> Level {
        use Technique::*;
        match self {
            FullHouse | NakedSingle | HiddenSingle => Level::Easy,
            Pointing | Claiming | LockedPair | LockedTriple | NakedPair | HiddenPair
            | NakedTriple | HiddenTriple => Level::Medium,
            NakedQuadruple | HiddenQuadruple | XWing | Swordfish | Skyscraper | TwoStringKite
            | XyWing | XyzWing | WWing | FinnedXWing | SashimiXWing | EmptyRectangle
            | TurbotFish | ColourTrap | ColourWrap | MultiColours1 | MultiColours2 | RemotePair
            | BugPlusOne | UniquenessTest1 | UniquenessTest2 | UniquenessTest3
            | UniquenessTest4 | UniquenessTest5 | UniquenessTest6 | HiddenRectangle => Level::Hard,
            Jellyfish
            | FinnedSwordfish
            | SashimiSwordfish
            | FinnedJellyfish
            | SashimiJellyfish
            | XChain
            | XyChain
            | ContinuousNiceLoop
            | DiscontinuousNiceLoop
            | Aic
            | GroupedContinuousNiceLoop
            | GroupedDiscontinuousNiceLoop
            | GroupedAic
            | AlsXz
            | AlsXyWing
            | AlsXyChain
            | DeathBlossom => Level::Unfair,
            ForcingNetContradiction | ForcingNetVerity => Level::Extreme,
        }
    }

    /// The score of one step, for the rating's total (weights modelled on
    /// HoDoKu's default step scores).
    pub fn score(self) -> u32 {
        use Technique::*;
        match self {
            FullHouse => 4,
            NakedSingle => 4,
            HiddenSingle => 14,
            Pointing | Claiming => 50,
            LockedPair => 40,
            LockedTriple => 60,
            NakedPair => 60,
            HiddenPair => 70,
            NakedTriple => 80,
            HiddenTriple => 100,
            NakedQuadruple => 120,
            HiddenQuadruple => 150,
            XWing => 140,
            Swordfish => 150,
            Jellyfish => 160,
            FinnedXWing => 130,
            SashimiXWing => 150,
            FinnedSwordfish => 200,
            SashimiSwordfish => 240,
            FinnedJellyfish => 250,
            SashimiJellyfish => 260,
            Skyscraper => 130,
            TwoStringKite => 150,
            EmptyRectangle => 120,
            TurbotFish => 120,
            ColourTrap | ColourWrap => 150,
            MultiColours1 | MultiColours2 => 200,
            XyWing => 160,
            XyzWing => 180,
            WWing => 150,
            XChain | XyChain => 260,
            ContinuousNiceLoop | DiscontinuousNiceLoop | Aic => 280,
            GroupedContinuousNiceLoop | GroupedDiscontinuousNiceLoop | GroupedAic => 300,
            RemotePair => 110,
            BugPlusOne | UniquenessTest1 | UniquenessTest2 | UniquenessTest3 | UniquenessTest4
            | UniquenessTest5 | UniquenessTest6 | HiddenRectangle => 100,
            AlsXz => 300,
            AlsXyWing => 320,
            AlsXyChain => 340,
            DeathBlossom => 360,
            ForcingNetContradiction | ForcingNetVerity => 700,
        }
    }

    /// A technique by HoDoKu code (`0300`) or name (`x-wing`, `X-Wing`,
    /// `xwing`, `xy wing`: case, blanks and dashes do not matter; `aic`
    /// and `nice loop` are short for the alternating inference chain and
    /// the discontinuous nice loop, `grouped aic` and `grouped nice loop`
    /// for their grouped forms).
    ///
    /// ```
    /// use csp_sudoku::techniques::Technique;
    /// assert_eq!(Technique::parse("0300"), Some(Technique::XWing));
    /// assert_eq!(Technique::parse("X-Wing"), Some(Technique::XWing));
    /// assert_eq!(Technique::parse("pointing"), Some(Technique::Pointing));
    /// assert_eq!(Technique::parse("AIC"), Some(Technique::Aic));
    /// assert_eq!(Technique::parse("0707"), Some(Technique::DiscontinuousNiceLoop));
    /// assert_eq!(Technique::parse("grouped AIC"), Some(Technique::GroupedAic));
    /// assert_eq!(Technique::parse("0709"), Some(Technique::GroupedContinuousNiceLoop));
    /// assert_eq!(Technique::parse("0999"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Technique> {
        let key = |t: &str| -> String {
            t.chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase()
        };
        let k = key(s);
        LADDER.iter().copied().find(|t| {
            t.code() == s.trim()
                || key(t.name()) == k
                || (k == "pointing" && *t == Technique::Pointing)
                || (k == "claiming" && *t == Technique::Claiming)
                || (k == "lockedcandidates1" && *t == Technique::Pointing)
                || (k == "lockedcandidates2" && *t == Technique::Claiming)
                || (k == "aic" && *t == Technique::Aic)
                || (k == "niceloop" && *t == Technique::DiscontinuousNiceLoop)
                || (k == "groupedaic" && *t == Technique::GroupedAic)
                || (k == "groupedniceloop" && *t == Technique::GroupedDiscontinuousNiceLoop)
        })
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule of Sudoku a step uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// The cell holds exactly one digit.
    Cell(usize),
    /// The house holds the digit exactly once.
    Digit(House, u8),
}

impl Rule {
    /// `r4c6` or `row 4 (7)`.
    pub fn show(self, n: usize) -> String {
        match self {
            Rule::Cell(c) => cell_name(n, c),
            Rule::Digit(h, d) => format!("{h} ({d})"),
        }
    }
}

/// One step: what it places and eliminates, the pattern, the rules it
/// uses, and the sentence that says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// The digits of the pattern.
    pub digits: Vec<u8>,
    /// The cells of the pattern (the premises' cells).
    pub cells: Vec<usize>,
    /// The houses the sentence names.
    pub houses: Vec<House>,
    /// `(cell, digit)` placed.
    pub placements: Vec<(usize, u8)>,
    /// `(cell, digit)` eliminated.
    pub eliminations: Vec<(usize, u8)>,
    /// The rules it uses.
    pub rules: Vec<Rule>,
    /// One plain sentence.
    pub sentence: String,
}

impl Step {
    /// Placements in HoDoKu's notation: `r4c6=7`.
    pub fn placement_names(&self, n: usize) -> Vec<String> {
        self.placements
            .iter()
            .map(|&(c, d)| format!("{}={d}", cell_name(n, c)))
            .collect()
    }

    /// Eliminations in HoDoKu's notation: `r4c5<>7`.
    pub fn elimination_names(&self, n: usize) -> Vec<String> {
        self.eliminations
            .iter()
            .map(|&(c, d)| format!("{}<>{d}", cell_name(n, c)))
            .collect()
    }

    /// The candidate facts of the pattern's cells: `r4c6 = 7` for a placed
    /// cell, `r1c2 ∈ {1,5}` for an empty one.
    pub fn premises(&self, pm: &Candidates) -> Vec<String> {
        let n = pm.side();
        self.cells
            .iter()
            .map(|&c| {
                if pm.value(c) != 0 {
                    format!("{}={}", cell_name(n, c), pm.value(c))
                } else {
                    let ds: Vec<String> = pm.digits(c).iter().map(|d| d.to_string()).collect();
                    format!("{}∈{{{}}}", cell_name(n, c), ds.join(","))
                }
            })
            .collect()
    }
}

fn list(n: usize, items: &[(usize, u8)], eq: bool) -> String {
    items
        .iter()
        .map(|&(c, d)| format!("{}{}{d}", cell_name(n, c), if eq { "=" } else { "<>" }))
        .collect::<Vec<_>>()
        .join(", ")
}

fn cells_text(n: usize, cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| cell_name(n, c))
        .collect::<Vec<_>>()
        .join(", ")
}

fn digits_text(ds: &[u8]) -> String {
    ds.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// A subset of at most four items (every pattern here has at most four
/// lines, cells or digits), kept inline: the fish and subset detectors
/// look at thousands of them per step.
#[derive(Clone, Copy, Debug)]
struct Subset<T> {
    items: [T; 4],
    len: usize,
}

impl<T> std::ops::Deref for Subset<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T: Copy + Default> Subset<T> {
    fn of(items: &[T]) -> Subset<T> {
        let mut s = Subset {
            items: [T::default(); 4],
            len: items.len(),
        };
        s.items[..items.len()].copy_from_slice(items);
        s
    }
}

/// The `k`-element subsets of `items` (`k` at most 4), in order.
fn combos<T: Copy + Default>(items: &[T], k: usize) -> Vec<Subset<T>> {
    assert!(k <= 4, "patterns of at most four");
    let mut out = Vec::new();
    if k > items.len() {
        return out;
    }
    // Indices of the current subset, advanced like an odometer.
    let mut ix: [usize; 4] = [0, 1, 2, 3];
    loop {
        let mut s = Subset {
            items: [T::default(); 4],
            len: k,
        };
        for (slot, &i) in s.items.iter_mut().zip(&ix[..k]) {
            *slot = items[i];
        }
        out.push(s);
        // The rightmost index that can still move.
        let Some(j) = (0..k).rev().find(|&j| ix[j] < items.len() - k + j) else {
            return out;
        };
        ix[j] += 1;
        for t in j + 1..k {
            ix[t] = ix[t - 1] + 1;
        }
    }
}

/// Every instance of technique `t` in `pm` (unchecked).
pub fn find_all(pm: &Candidates, t: Technique) -> Vec<Step> {
    use Technique::*;
    match t {
        FullHouse => full_house(pm),
        NakedSingle => naked_single(pm),
        HiddenSingle => hidden_single(pm),
        Pointing => locked(pm, true),
        Claiming => locked(pm, false),
        LockedPair => locked_subset(pm, 2),
        LockedTriple => locked_subset(pm, 3),
        NakedPair => naked(pm, 2),
        NakedTriple => naked(pm, 3),
        NakedQuadruple => naked(pm, 4),
        HiddenPair => hidden(pm, 2),
        HiddenTriple => hidden(pm, 3),
        HiddenQuadruple => hidden(pm, 4),
        XWing => fish(pm, 2, false),
        Swordfish => fish(pm, 3, false),
        Jellyfish => fish(pm, 4, false),
        FinnedXWing | SashimiXWing => only(fish(pm, 2, true), t),
        FinnedSwordfish | SashimiSwordfish => only(fish(pm, 3, true), t),
        FinnedJellyfish | SashimiJellyfish => only(fish(pm, 4, true), t),
        Skyscraper => skyscraper(pm),
        TwoStringKite => kite(pm),
        EmptyRectangle => empty_rectangle(pm),
        TurbotFish => turbot(pm),
        ColourTrap => colours(pm, false),
        ColourWrap => colours(pm, true),
        MultiColours1 => multi_colours(pm, false),
        MultiColours2 => multi_colours(pm, true),
        XyWing => xy_wing(pm),
        XyzWing => xyz_wing(pm),
        WWing => w_wing(pm),
        XChain => x_chain(pm),
        RemotePair => remote_pairs(pm),
        XyChain => xy_chain(pm),
        ContinuousNiceLoop | DiscontinuousNiceLoop | Aic => only(aic::chains(pm, false), t),
        GroupedContinuousNiceLoop | GroupedDiscontinuousNiceLoop | GroupedAic => {
            only(aic::chains(pm, true), t)
        }
        AlsXz | AlsXyWing | AlsXyChain | DeathBlossom => {
            als::find(pm, &als::Sets::new(pm, true), t, true)
        }
        UniquenessTest1 | UniquenessTest2 | UniquenessTest3 | UniquenessTest4 | UniquenessTest5
        | UniquenessTest6 | HiddenRectangle | BugPlusOne => unique::find(pm, t, false),
        ForcingNetContradiction => forcing_contradiction(pm),
        ForcingNetVerity => forcing_verity(pm),
    }
}

/// The size of a finned or sashimi fish technique.
fn fish_size(t: Technique) -> Option<usize> {
    use Technique::*;
    match t {
        FinnedXWing | SashimiXWing => Some(2),
        FinnedSwordfish | SashimiSwordfish => Some(3),
        FinnedJellyfish | SashimiJellyfish => Some(4),
        _ => None,
    }
}

/// For the techniques [`aic::chains`] finds, whether `t` is grouped.
fn nice_loop_kind(t: Technique) -> Option<bool> {
    use Technique::*;
    match t {
        ContinuousNiceLoop | DiscontinuousNiceLoop | Aic => Some(false),
        GroupedContinuousNiceLoop | GroupedDiscontinuousNiceLoop | GroupedAic => Some(true),
        _ => None,
    }
}

fn only(steps: Vec<Step>, t: Technique) -> Vec<Step> {
    steps.into_iter().filter(|s| s.technique == t).collect()
}

/// Every instance of `t`, each checked by `checker`; an instance the
/// checker refutes is an error naming it.
///
/// The uniqueness techniques ([`Technique::assumes_uniqueness`]) find
/// nothing unless their premise holds ([`Checker::uniqueness_premise`]).
pub fn find_checked(pm: &Candidates, t: Technique, checker: &Checker) -> Result<Vec<Step>, String> {
    let steps = if t.assumes_uniqueness() {
        match checker.uniqueness_premise(pm) {
            None => return Ok(vec![]),
            Some(p) => unique::find(pm, t, p == Premise::Givens),
        }
    } else {
        find_all(pm, t)
    };
    for s in &steps {
        checker.verify(pm, s)?;
    }
    Ok(steps)
}

/// The next step: the first instance of the first technique of [`LADDER`]
/// that applies, checked. `None` when none applies.
pub fn next(pm: &Candidates) -> Option<Step> {
    next_with(pm, &Checker::new(pm.box_side())).ok().flatten()
}

/// [`next`] with a checker built once (`Err`: the checker refuted a step,
/// which is a bug).
pub fn next_with(pm: &Candidates, checker: &Checker) -> Result<Option<Step>, String> {
    // Finned and sashimi fish of one size come from one search: kept
    // for the second of the two.
    let mut finned: [Option<Vec<Step>>; 5] = Default::default();
    // The three nice-loop techniques also come from one search, and
    // their three grouped forms from another.
    let mut loops: [Option<Vec<Step>>; 2] = Default::default();
    // The almost locked sets, built once; without overlaps, as HoDoKu's
    // solver uses them.
    let mut sets: Option<als::Sets> = None;
    // The uniqueness techniques' premise, counted once, when first needed.
    let mut premise: Option<Option<Premise>> = None;
    for t in LADDER {
        if !t.in_ladder() {
            continue;
        }
        let prem = if t.assumes_uniqueness() {
            match *premise.get_or_insert_with(|| checker.uniqueness_premise(pm)) {
                None => continue,
                p => p,
            }
        } else {
            None
        };
        let steps = match (fish_size(t), nice_loop_kind(t)) {
            _ if als::is_als(t) => {
                let sets = sets.get_or_insert_with(|| als::Sets::new(pm, false));
                als::find(pm, sets, t, false)
            }
            (None, Some(grouped)) => loops[usize::from(grouped)]
                .get_or_insert_with(|| aic::chains(pm, grouped))
                .iter()
                .filter(|s| s.technique == t)
                .take(1)
                .cloned()
                .collect(),
            (Some(k), _) => {
                let all = finned[k].get_or_insert_with(|| fish(pm, k, true));
                all.iter()
                    .filter(|s| s.technique == t)
                    .take(1)
                    .cloned()
                    .collect()
            }
            _ if prem.is_some() => unique::find(pm, t, prem == Some(Premise::Givens)),
            (None, None) => find_all(pm, t),
        };
        if let Some(s) = steps.into_iter().next() {
            checker.verify(pm, &s)?;
            return Ok(Some(s));
        }
    }
    Ok(None)
}

/// Applies a step's placements and eliminations.
pub fn apply(pm: &mut Candidates, s: &Step) {
    for &(c, d) in &s.placements {
        pm.place(c, d);
    }
    for &(c, d) in &s.eliminations {
        pm.eliminate(c, d);
    }
}

/// How a step-wise solution ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Every cell placed.
    Solved,
    /// No technique applies: search is needed from here.
    Stuck,
    /// The state is contradictory (`what`).
    Broken(String),
}

/// The steps from `pm` until it is solved or no technique applies.
pub fn solve_steps(pm: &Candidates, checker: &Checker) -> Result<(Vec<Step>, End), String> {
    let mut pm = pm.clone();
    let mut steps = Vec::new();
    loop {
        if let Some(b) = pm.broken() {
            return Ok((steps, End::Broken(b)));
        }
        if pm.is_solved() {
            return Ok((steps, End::Solved));
        }
        match next_with(&pm, checker)? {
            Some(s) => {
                apply(&mut pm, &s);
                steps.push(s);
            }
            None => return Ok((steps, End::Stuck)),
        }
    }
}

/// A rating: HoDoKu's level of the hardest technique needed, and the sum
/// of the steps' scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The level (`Extreme` when the techniques here do not solve it).
    pub level: Level,
    /// The sum of the steps' scores.
    pub score: u32,
    /// The number of steps.
    pub steps: usize,
}

/// Rates a sequence of steps.
pub fn rate(steps: &[Step], end: &End) -> Rating {
    let level = match end {
        End::Solved => steps
            .iter()
            .map(|s| s.technique.level())
            .max()
            .unwrap_or(Level::Easy),
        _ => Level::Extreme,
    };
    Rating {
        level,
        score: steps.iter().map(|s| s.technique.score()).sum(),
        steps: steps.len(),
    }
}

// ---- forcing nets -------------------------------------------------------------

/// Places `d` in `cell` as a step of a net: the cell's rule and the digit's
/// rules of its three houses are what the placement uses.
fn net_place(pm: &mut Candidates, cell: usize, d: u8, used: &mut Vec<Rule>) {
    pm.place(cell, d);
    used.push(Rule::Cell(cell));
    for h in pm.houses_of(cell) {
        used.push(Rule::Digit(h, d));
    }
}

/// Naked and hidden singles from `pm` until none is left; `true` when the
/// state breaks (an empty cell without candidates, or a digit with no
/// place in a house that lacks it). `used` gathers the rules the net
/// applied, the broken one last.
fn net_singles(pm: &mut Candidates, used: &mut Vec<Rule>) -> bool {
    let n = pm.side();
    let houses = pm.houses();
    loop {
        let mut changed = false;
        for c in 0..n * n {
            if pm.value(c) != 0 {
                continue;
            }
            let m = pm.mask(c);
            if m == 0 {
                used.push(Rule::Cell(c));
                return true;
            }
            if m & (m - 1) == 0 {
                net_place(pm, c, m.trailing_zeros() as u8, used);
                changed = true;
            }
        }
        let all = ((1u64 << (n + 1)) - 2) as u32;
        for &h in &houses {
            // Digits with one place, and digits with none, from masks.
            let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
            for &x in pm.cells(h) {
                let m = pm.mask(x);
                twice |= once & m;
                once |= m;
                placed |= bit(pm.value(x));
            }
            let missing = all & !placed & !once;
            if missing != 0 {
                used.push(Rule::Digit(h, missing.trailing_zeros() as u8));
                return true;
            }
            let mut single = once & !twice & !placed & all;
            while single != 0 {
                let d = single.trailing_zeros() as u8;
                single &= single - 1;
                // An earlier placement of this pass may have taken its
                // place: the next pass finds the house broken.
                if let Some(&c) = pm.cells(h).iter().find(|&&c| pm.has(c, d)) {
                    used.push(Rule::Digit(h, d));
                    net_place(pm, c, d, used);
                    changed = true;
                }
            }
        }
        if !changed {
            return false;
        }
    }
}

fn dedup_rules(mut rules: Vec<Rule>) -> Vec<Rule> {
    rules.sort_unstable();
    rules.dedup();
    rules
}

/// Forcing nets by contradiction: a candidate whose placement breaks the
/// grid by singles is eliminated. Shortest nets (fewest rules) first.
fn forcing_contradiction(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let mut out = Vec::new();
    for c in 0..n * n {
        if pm.value(c) != 0 {
            continue;
        }
        for d in digits_of(pm.mask(c)) {
            let mut branch = pm.clone();
            let mut used = Vec::new();
            net_place(&mut branch, c, d, &mut used);
            if !net_singles(&mut branch, &mut used) {
                continue;
            }
            let why = match used.last() {
                Some(&Rule::Cell(x)) => format!("{} without a candidate", cell_name(n, x)),
                Some(&Rule::Digit(h, e)) => format!("no place for {e} in {h}"),
                None => String::new(),
            };
            let rules = dedup_rules(used);
            out.push(Step {
                technique: Technique::ForcingNetContradiction,
                digits: vec![d],
                cells: vec![c],
                houses: vec![],
                placements: vec![],
                eliminations: vec![(c, d)],
                sentence: format!(
                    "Forcing net (contradiction): with {d} in {}, singles over {} rules leave {why}, so {} is not {d}",
                    cell_name(n, c),
                    rules.len(),
                    cell_name(n, c)
                ),
                rules,
            });
        }
    }
    out.sort_by_key(|s| s.rules.len());
    out
}

/// Forcing nets by verity: each branch of a bivalue cell, or of a digit
/// with two places in a house, is followed by singles; what every branch
/// concludes (a placement, an elimination) holds. Smallest nets first.
fn forcing_verity(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    // Each choice: its branches, the rule that says one of them holds,
    // and how to name it.
    type Choice = (Vec<(usize, u8)>, Rule, String);
    let mut choices: Vec<Choice> = Vec::new();
    for c in 0..n * n {
        let ds = digits_of(pm.mask(c));
        if pm.value(c) == 0 && ds.len() == 2 {
            let branches = ds.iter().map(|&d| (c, d)).collect();
            choices.push((branches, Rule::Cell(c), cell_name(n, c)));
        }
    }
    for h in pm.houses() {
        for d in 1..=n as u8 {
            let at = pm.cells_with(h, d);
            if at.len() == 2 {
                let branches = at.iter().map(|&c| (c, d)).collect();
                choices.push((branches, Rule::Digit(h, d), format!("{d} in {h}")));
            }
        }
    }
    let mut out = Vec::new();
    for (branches, root, name) in choices {
        let mut ends = Vec::new();
        let mut used = vec![root];
        for &(c, d) in &branches {
            let mut b = pm.clone();
            let mut u = Vec::new();
            net_place(&mut b, c, d, &mut u);
            let broken = net_singles(&mut b, &mut u);
            used.extend(u);
            if !broken {
                ends.push(b);
            }
        }
        // A broken branch is a contradiction net's business; with every
        // branch broken the grid has no solution.
        if ends.len() != branches.len() {
            continue;
        }
        let mut placements = Vec::new();
        let mut eliminations = Vec::new();
        for c in 0..n * n {
            if pm.value(c) != 0 {
                continue;
            }
            let v = ends[0].value(c);
            if v != 0 && ends.iter().all(|e| e.value(c) == v) {
                placements.push((c, v));
                continue;
            }
            for d in digits_of(pm.mask(c)) {
                if ends.iter().all(|e| e.value(c) != d && !e.has(c, d)) {
                    eliminations.push((c, d));
                }
            }
        }
        if placements.is_empty() && eliminations.is_empty() {
            continue;
        }
        let what: Vec<String> = placements
            .iter()
            .map(|&(c, d)| format!("{}={d}", cell_name(n, c)))
            .chain(
                eliminations
                    .iter()
                    .map(|&(c, d)| format!("{}<>{d}", cell_name(n, c))),
            )
            .collect();
        let rules = dedup_rules(used);
        let cells = branches.iter().map(|&(c, _)| c).collect();
        let mut digits: Vec<u8> = branches.iter().map(|&(_, d)| d).collect();
        digits.dedup();
        out.push(Step {
            technique: Technique::ForcingNetVerity,
            digits,
            cells,
            houses: vec![],
            placements,
            eliminations,
            sentence: format!(
                "Forcing net (verity): every choice for {name}, followed by singles over {} rules, gives {}",
                rules.len(),
                what.join(", ")
            ),
            rules,
        });
    }
    out.sort_by_key(|s| s.rules.len());
    out
}

// ---- detectors --------------------------------------------------------------

fn full_house(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let mut out = Vec::new();
    for h in pm.houses() {
        let empty: Vec<usize> = pm.open_cells(h);
        if empty.len() != 1 {
            continue;
        }
        let c = empty[0];
        let placed: u32 = pm.cells(h).iter().fold(0, |m, &x| m | bit(pm.value(x)));
        let missing = digits_of(!placed & (((1u64 << (n + 1)) - 2) as u32));
        if missing.len() != 1 || !pm.has(c, missing[0]) {
            continue;
        }
        let d = missing[0];
        if out.iter().any(|s: &Step| s.placements[0] == (c, d)) {
            continue;
        }
        out.push(Step {
            technique: Technique::FullHouse,
            digits: vec![d],
            cells: pm.cells(h).to_vec(),
            houses: vec![h],
            placements: vec![(c, d)],
            eliminations: vec![],
            rules: vec![Rule::Digit(h, d)],
            sentence: format!(
                "Full house: {} is the last empty cell of {h}, so it holds {d}",
                cell_name(n, c)
            ),
        });
    }
    out
}

fn naked_single(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    (0..n * n)
        .filter(|&c| pm.value(c) == 0 && pm.mask(c).count_ones() == 1)
        .map(|c| {
            let d = pm.digits(c)[0];
            Step {
                technique: Technique::NakedSingle,
                digits: vec![d],
                cells: vec![c],
                houses: vec![],
                placements: vec![(c, d)],
                eliminations: vec![],
                rules: vec![Rule::Cell(c)],
                sentence: format!("Naked single: {} can only hold {d}", cell_name(n, c)),
            }
        })
        .collect()
}

fn hidden_single(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let mut out: Vec<Step> = Vec::new();
    let mut houses = pm.houses();
    houses.sort_by_key(|h| match h {
        House::Box(i) => (0, *i),
        House::Row(i) => (1, *i),
        House::Col(i) => (2, *i),
    });
    for h in houses {
        for d in 1..=n as u8 {
            let cs = pm.cells_with(h, d);
            if cs.len() != 1 || out.iter().any(|s| s.placements[0] == (cs[0], d)) {
                continue;
            }
            let c = cs[0];
            out.push(Step {
                technique: Technique::HiddenSingle,
                digits: vec![d],
                cells: pm.cells(h).to_vec(),
                houses: vec![h],
                placements: vec![(c, d)],
                eliminations: vec![],
                rules: vec![Rule::Digit(h, d)],
                sentence: format!(
                    "Hidden single: in {h}, only {} can hold {d}",
                    cell_name(n, c)
                ),
            });
        }
    }
    out
}

fn locked(pm: &Candidates, pointing: bool) -> Vec<Step> {
    let n = pm.side();
    let mut out = Vec::new();
    let houses: Vec<House> = pm
        .houses()
        .into_iter()
        .filter(|h| matches!(h, House::Box(_)) == pointing)
        .collect();
    for h in houses {
        for d in 1..=n as u8 {
            let cs = pm.cells_with(h, d);
            if cs.len() < 2 {
                continue;
            }
            // The other house every cell shares: a line for a box, the box for a line.
            let others: Vec<House> = (0..3)
                .map(|i| pm.houses_of(cs[0])[i])
                .filter(|&o| o != h && matches!(o, House::Box(_)) != pointing)
                .filter(|&o| cs.iter().all(|&c| pm.houses_of(c).contains(&o)))
                .collect();
            for o in others {
                let elims: Vec<(usize, u8)> = pm
                    .cells_with(o, d)
                    .into_iter()
                    .filter(|c| !cs.contains(c))
                    .map(|c| (c, d))
                    .collect();
                if elims.is_empty() {
                    continue;
                }
                let (technique, verb) = if pointing {
                    (Technique::Pointing, "pointing")
                } else {
                    (Technique::Claiming, "claiming")
                };
                out.push(Step {
                    technique,
                    digits: vec![d],
                    cells: pm.cells(h).to_vec(),
                    houses: vec![h, o],
                    placements: vec![],
                    sentence: format!(
                        "Locked candidates ({verb}): in {h}, the {d}s are all in {o}, so {}",
                        list(n, &elims, false)
                    ),
                    eliminations: elims,
                    rules: vec![Rule::Digit(h, d), Rule::Digit(o, d)],
                });
            }
        }
    }
    out
}

fn size_word(k: usize) -> (&'static str, Technique, Technique) {
    match k {
        2 => ("pair", Technique::NakedPair, Technique::HiddenPair),
        3 => ("triple", Technique::NakedTriple, Technique::HiddenTriple),
        _ => (
            "quadruple",
            Technique::NakedQuadruple,
            Technique::HiddenQuadruple,
        ),
    }
}

fn naked(pm: &Candidates, k: usize) -> Vec<Step> {
    let n = pm.side();
    let (word, technique, _) = size_word(k);
    let mut out = Vec::new();
    for h in pm.houses() {
        for set in naked_sets(pm, h, k) {
            let lead = format!(
                "Naked {word}: in {h}, {} hold only {}",
                cells_text(n, &set),
                digits_text(&pm_digits(pm, &set))
            );
            out.extend(subset_step(pm, technique, set, &[h], lead));
        }
    }
    out
}

/// The digits the cells of `set` hold between them.
fn pm_digits(pm: &Candidates, set: &[usize]) -> Vec<u8> {
    digits_of(set.iter().fold(0u32, |m, &c| m | pm.mask(c)))
}

/// The sets of `k` empty cells of house `h` with `k` candidates between them.
fn naked_sets(pm: &Candidates, h: House, k: usize) -> Vec<Vec<usize>> {
    let small: Vec<usize> = pm
        .cells(h)
        .iter()
        .copied()
        .filter(|&c| pm.value(c) == 0 && (2..=k as u32).contains(&pm.mask(c).count_ones()))
        .collect();
    combos(&small, k)
        .into_iter()
        .filter(|set| pm_digits(pm, set).len() == k)
        .map(|set| set.to_vec())
        .collect()
}

/// A naked subset `set` eliminating its digits from the rest of `houses`
/// (`None` when that removes nothing); the sentence is `lead, so …`.
fn subset_step(
    pm: &Candidates,
    technique: Technique,
    set: Vec<usize>,
    houses: &[House],
    lead: String,
) -> Option<Step> {
    let n = pm.side();
    let ds = pm_digits(pm, &set);
    let mask = ds.iter().fold(0u32, |m, &d| m | bit(d));
    let mut elims = Vec::new();
    for &h in houses {
        for &c in pm.cells(h) {
            if !set.contains(&c) {
                for d in digits_of(pm.mask(c) & mask) {
                    elims.push((c, d));
                }
            }
        }
    }
    elims.sort_unstable();
    elims.dedup();
    if elims.is_empty() {
        return None;
    }
    let mut rules: Vec<Rule> = set.iter().map(|&c| Rule::Cell(c)).collect();
    for &h in houses {
        rules.extend(ds.iter().map(|&d| Rule::Digit(h, d)));
    }
    Some(Step {
        technique,
        sentence: format!("{lead}, so {}", list(n, &elims, false)),
        digits: ds,
        cells: set,
        houses: houses.to_vec(),
        placements: vec![],
        eliminations: elims,
        rules,
    })
}

/// Locked pairs and triples: `k` cells of a box, all in one line, with `k`
/// candidates between them; the box and the line lose those digits.
fn locked_subset(pm: &Candidates, k: usize) -> Vec<Step> {
    let n = pm.side();
    let (technique, word) = if k == 2 {
        (Technique::LockedPair, "pair")
    } else {
        (Technique::LockedTriple, "triple")
    };
    let mut out = Vec::new();
    for b in 0..n {
        let bx = House::Box(b);
        for set in naked_sets(pm, bx, k) {
            let line = (0..2)
                .map(|i| pm.houses_of(set[0])[i])
                .find(|h| set.iter().all(|&c| pm.houses_of(c).contains(h)));
            let Some(line) = line else { continue };
            let lead = format!(
                "Locked {word}: {} hold only {} and lie in {bx} and {line}",
                cells_text(n, &set),
                digits_text(&pm_digits(pm, &set))
            );
            out.extend(subset_step(pm, technique, set, &[bx, line], lead));
        }
    }
    out
}

fn hidden(pm: &Candidates, k: usize) -> Vec<Step> {
    let n = pm.side();
    let (word, _, technique) = size_word(k);
    let mut out = Vec::new();
    for h in pm.houses() {
        let ds: Vec<u8> = (1..=n as u8)
            .filter(|&d| (1..=k).contains(&pm.cells_with(h, d).len()))
            .collect();
        for set in combos(&ds, k) {
            let cells: BTreeSet<usize> = set.iter().flat_map(|&d| pm.cells_with(h, d)).collect();
            if cells.len() != k {
                continue;
            }
            let mask = set.iter().fold(0u32, |m, &d| m | bit(d));
            let mut elims = Vec::new();
            for &c in &cells {
                for d in digits_of(pm.mask(c) & !mask) {
                    elims.push((c, d));
                }
            }
            if elims.is_empty() {
                continue;
            }
            let cells: Vec<usize> = cells.into_iter().collect();
            let mut rules: Vec<Rule> = set.iter().map(|&d| Rule::Digit(h, d)).collect();
            rules.extend(cells.iter().map(|&c| Rule::Cell(c)));
            out.push(Step {
                technique,
                sentence: format!(
                    "Hidden {word}: in {h}, {} fit only in {}, so {}",
                    digits_text(&set),
                    cells_text(n, &cells),
                    list(n, &elims, false)
                ),
                digits: set.to_vec(),
                cells,
                houses: vec![h],
                placements: vec![],
                eliminations: elims,
                rules,
            });
        }
    }
    out
}

/// Basic (`finned` false) or finned and sashimi fish of size `k`: the
/// candidates of a digit in `k` base lines lie in `k` cover lines, except
/// for fins that all lie in one box. Without fins, every other candidate
/// of the cover lines goes; with fins, only those in the fins' box (they
/// see every fin). A finned fish is sashimi when a base line has fewer
/// than two candidates outside the fins.
fn fish(pm: &Candidates, k: usize, finned: bool) -> Vec<Step> {
    let n = pm.side();
    let mut out = Vec::new();
    for d in 1..=n as u8 {
        for rows in [true, false] {
            let line = |i: usize| if rows { House::Row(i) } else { House::Col(i) };
            let cover = |i: usize| if rows { House::Col(i) } else { House::Row(i) };
            // The cover index of a cell of a base line.
            let cross = |c: usize| if rows { c % n } else { c / n };
            let most = if finned { k + pm.box_side() } else { k };
            // The cells of `d` in each line, found once.
            let on_line: Vec<Vec<usize>> = (0..n).map(|i| pm.cells_with(line(i), d)).collect();
            let bases: Vec<usize> = (0..n)
                .filter(|&i| (2..=most).contains(&on_line[i].len()))
                .collect();
            for set in combos(&bases, k) {
                let base_cells: Vec<usize> = set
                    .iter()
                    .flat_map(|&i| on_line[i].iter().copied())
                    .collect();
                let crosses: Vec<usize> = base_cells
                    .iter()
                    .map(|&c| cross(c))
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                let choices = if finned {
                    combos(&crosses, k)
                } else if crosses.len() == k {
                    vec![Subset::of(&crosses)]
                } else {
                    vec![]
                };
                for covers in choices {
                    let covered = covers.iter().fold(0u64, |m, &j| m | 1 << j);
                    let in_cover = |c: usize| covered >> cross(c) & 1 == 1;
                    // The fins (base cells outside the covers) must share a
                    // box: tested before anything is collected.
                    let mut fin_box = None;
                    let mut one_box = true;
                    for &c in base_cells.iter().filter(|&&c| !in_cover(c)) {
                        let b = pm.houses_of(c)[2];
                        if *fin_box.get_or_insert(b) != b {
                            one_box = false;
                            break;
                        }
                    }
                    let body = |i: usize| on_line[i].iter().filter(|&&c| in_cover(c)).count();
                    if finned
                        && (fin_box.is_none() || !one_box || set.iter().any(|&i| body(i) == 0))
                    {
                        continue;
                    }
                    let fins: Vec<usize> = base_cells
                        .iter()
                        .copied()
                        .filter(|&c| !in_cover(c))
                        .collect();
                    let sashimi = finned && set.iter().any(|&i| body(i) < 2);
                    let elims: Vec<(usize, u8)> = covers
                        .iter()
                        .flat_map(|&j| pm.cells_with(cover(j), d))
                        .filter(|c| !base_cells.contains(c))
                        .filter(|&c| fin_box.is_none_or(|b| pm.houses_of(c)[2] == b))
                        .map(|c| (c, d))
                        .collect::<BTreeSet<_>>()
                        .into_iter()
                        .collect();
                    if elims.is_empty() {
                        continue;
                    }
                    let technique = fish_technique(k, finned, sashimi);
                    let base_h: Vec<House> = set.iter().map(|&i| line(i)).collect();
                    let cover_h: Vec<House> = covers.iter().map(|&j| cover(j)).collect();
                    let mut rules: Vec<Rule> = base_h
                        .iter()
                        .chain(&cover_h)
                        .map(|&h| Rule::Digit(h, d))
                        .collect();
                    let mut fin_text = String::new();
                    if let Some(b) = fin_box {
                        rules.push(Rule::Digit(b, d));
                        fin_text = format!(
                            " but for the fin{} {} in {b}",
                            if fins.len() == 1 { "" } else { "s" },
                            cells_text(n, &fins)
                        );
                    }
                    out.push(Step {
                        technique,
                        sentence: format!(
                            "{}: the {d}s of {} lie in {}{fin_text}, so {}",
                            technique.title(),
                            lines_text(rows, &set),
                            lines_text(!rows, &covers),
                            list(n, &elims, false)
                        ),
                        digits: vec![d],
                        cells: base_cells.clone(),
                        houses: base_h.into_iter().chain(cover_h).chain(fin_box).collect(),
                        placements: vec![],
                        eliminations: elims,
                        rules: finish_rules(rules),
                    });
                }
            }
        }
    }
    out
}

fn fish_technique(k: usize, finned: bool, sashimi: bool) -> Technique {
    use Technique::*;
    match (k, finned, sashimi) {
        (2, false, _) => XWing,
        (3, false, _) => Swordfish,
        (_, false, _) => Jellyfish,
        (2, true, false) => FinnedXWing,
        (3, true, false) => FinnedSwordfish,
        (_, true, false) => FinnedJellyfish,
        (2, true, true) => SashimiXWing,
        (3, true, true) => SashimiSwordfish,
        (_, true, true) => SashimiJellyfish,
    }
}

/// `rows 3 and 7`, `columns 1, 4 and 8` (1-based).
fn lines_text(rows: bool, ix: &[usize]) -> String {
    let nums: Vec<String> = ix.iter().map(|i| (i + 1).to_string()).collect();
    let (last, head) = nums.split_last().expect("a fish has lines");
    format!(
        "{} {} and {last}",
        if rows { "rows" } else { "columns" },
        head.join(", ")
    )
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Cells with `d` that see both `a` and `b` (neither of them).
fn seeing_both(pm: &Candidates, a: usize, b: usize, d: u8) -> Vec<usize> {
    let n = pm.side();
    (0..n * n)
        .filter(|&c| c != a && c != b && pm.has(c, d) && pm.sees(c, a) && pm.sees(c, b))
        .collect()
}

/// The rules by which `e` (holding `d`) would exclude `d` from each of `ends`.
fn link_rules(pm: &Candidates, e: usize, ends: &[usize], d: u8, rules: &mut Vec<Rule>) {
    for &x in ends {
        if let Some(h) = pm.common_house(e, x) {
            rules.push(Rule::Digit(h, d));
        }
    }
}

fn finish_rules(mut rules: Vec<Rule>) -> Vec<Rule> {
    rules.sort_unstable();
    rules.dedup();
    rules
}

fn skyscraper(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let mut out = Vec::new();
    for d in 1..=n as u8 {
        for rows in [true, false] {
            let line = |i: usize| if rows { House::Row(i) } else { House::Col(i) };
            let cross = |c: usize| if rows { c % n } else { c / n };
            let cross_house = |c: usize| {
                if rows {
                    House::Col(c % n)
                } else {
                    House::Row(c / n)
                }
            };
            let pairs: Vec<(usize, Vec<usize>)> = (0..n)
                .map(|i| (i, pm.cells_with(line(i), d)))
                .filter(|(_, cs)| cs.len() == 2)
                .collect();
            for (a, pa) in pairs.iter().enumerate() {
                for pb in &pairs[a + 1..] {
                    for (ia, ib) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                        let (base_a, base_b) = (pa.1[ia], pb.1[ib]);
                        let (end_a, end_b) = (pa.1[1 - ia], pb.1[1 - ib]);
                        if cross(base_a) != cross(base_b) || cross(end_a) == cross(end_b) {
                            continue;
                        }
                        let lead = format!(
                            "Skyscraper: the {d}s of {} and {} are pairs joined in {}",
                            line(pa.0),
                            line(pb.0),
                            cross_house(base_a)
                        );
                        out.extend(two_ends(
                            pm,
                            Technique::Skyscraper,
                            d,
                            [line(pa.0), line(pb.0), cross_house(base_a)],
                            vec![end_a, base_a, base_b, end_b],
                            lead,
                        ));
                    }
                }
            }
        }
    }
    out
}

/// A single-digit pattern whose three houses (each with two cells left
/// for `d`) chain from `cells[0]` to `cells[3]`: one of those two ends
/// holds `d`, so no cell seeing both does.
fn two_ends(
    pm: &Candidates,
    technique: Technique,
    d: u8,
    houses: [House; 3],
    cells: Vec<usize>,
    lead: String,
) -> Option<Step> {
    let n = pm.side();
    let (a, b) = (cells[0], cells[3]);
    let targets = seeing_both(pm, a, b, d);
    if targets.is_empty() {
        return None;
    }
    let mut rules: Vec<Rule> = houses.iter().map(|&h| Rule::Digit(h, d)).collect();
    for &e in &targets {
        link_rules(pm, e, &[a, b], d, &mut rules);
    }
    let elims: Vec<(usize, u8)> = targets.iter().map(|&x| (x, d)).collect();
    Some(Step {
        technique,
        sentence: format!(
            "{lead}; one of {} and {} holds {d}, so {}",
            cell_name(n, a),
            cell_name(n, b),
            list(n, &elims, false)
        ),
        digits: vec![d],
        cells,
        houses: houses.to_vec(),
        placements: vec![],
        eliminations: elims,
        rules: finish_rules(rules),
    })
}

fn kite(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let mut out = Vec::new();
    for d in 1..=n as u8 {
        for r in 0..n {
            let rp = pm.cells_with(House::Row(r), d);
            if rp.len() != 2 {
                continue;
            }
            for c in 0..n {
                let cp = pm.cells_with(House::Col(c), d);
                if cp.len() != 2 {
                    continue;
                }
                for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let (row_in, row_end) = (rp[i], rp[1 - i]);
                    let (col_in, col_end) = (cp[j], cp[1 - j]);
                    let cells = [row_in, row_end, col_in, col_end];
                    let distinct = (0..4).all(|x| (x + 1..4).all(|y| cells[x] != cells[y]));
                    let bx = pm.houses_of(row_in)[2];
                    if !distinct
                        || pm.houses_of(col_in)[2] != bx
                        || pm.houses_of(row_end)[2] == bx
                        || pm.houses_of(col_end)[2] == bx
                    {
                        continue;
                    }
                    let lead = format!(
                        "2-String Kite: the {d}s of row {} and column {} are pairs joined in {bx}",
                        r + 1,
                        c + 1
                    );
                    out.extend(two_ends(
                        pm,
                        Technique::TwoStringKite,
                        d,
                        [House::Row(r), bx, House::Col(c)],
                        vec![row_end, row_in, col_in, col_end],
                        lead,
                    ));
                }
            }
        }
    }
    out
}

/// Empty rectangles: the candidates of `d` in a box lie in one row and
/// one column of it (the cross, and not all in one of them); a conjugate
/// pair of `d` in a line crossing the cross's row (or column) outside the
/// box, with its far end `q`, removes `d` from the cell where `q`'s line
/// meets the cross's column (or row).
fn empty_rectangle(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let k = pm.box_side();
    let mut out = Vec::new();
    for d in 1..=n as u8 {
        for b in 0..n {
            let bx = House::Box(b);
            let cs = pm.cells_with(bx, d);
            if cs.len() < 2 {
                continue;
            }
            let (r0, c0) = (b / k * k, b % k * k);
            for r in r0..r0 + k {
                for c in c0..c0 + k {
                    let in_row = |x: usize| x / n == r;
                    let in_col = |x: usize| x % n == c;
                    if !cs.iter().all(|&x| in_row(x) || in_col(x))
                        || cs.iter().all(|&x| in_row(x))
                        || cs.iter().all(|&x| in_col(x))
                    {
                        continue;
                    }
                    // A pair in a column: p in row r outside the box, q in
                    // the same column; the target is (row of q, c). And the
                    // same with rows and columns swapped.
                    for by_col in [true, false] {
                        for line in 0..n {
                            let outside = if by_col {
                                line / k != b % k
                            } else {
                                line / k != b / k
                            };
                            if !outside {
                                continue;
                            }
                            let h = if by_col {
                                House::Col(line)
                            } else {
                                House::Row(line)
                            };
                            let pair = pm.cells_with(h, d);
                            if pair.len() != 2 {
                                continue;
                            }
                            for (p, q) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                                let (meets, far) = if by_col {
                                    (in_row(p), q / n)
                                } else {
                                    (in_col(p), q % n)
                                };
                                let far_in_box = if by_col {
                                    far / k == b / k
                                } else {
                                    far / k == b % k
                                };
                                if !meets || far_in_box {
                                    continue;
                                }
                                let t = if by_col { far * n + c } else { r * n + far };
                                if !pm.has(t, d) || t == q {
                                    continue;
                                }
                                let (cross_line, far_line, t_line) = if by_col {
                                    (House::Row(r), House::Row(far), House::Col(c))
                                } else {
                                    (House::Col(c), House::Col(far), House::Row(r))
                                };
                                let rules = vec![
                                    Rule::Digit(bx, d),
                                    Rule::Digit(h, d),
                                    Rule::Digit(cross_line, d),
                                    Rule::Digit(far_line, d),
                                    Rule::Digit(t_line, d),
                                ];
                                let elims = vec![(t, d)];
                                out.push(Step {
                                    technique: Technique::EmptyRectangle,
                                    sentence: format!(
                                        "Empty rectangle: the {d}s of {bx} lie in row {} and column {}, and the {d}s of {h} are {} and {}; so {}",
                                        r + 1,
                                        c + 1,
                                        cell_name(n, p),
                                        cell_name(n, q),
                                        list(n, &elims, false)
                                    ),
                                    digits: vec![d],
                                    cells: cs.iter().copied().chain([p, q]).collect(),
                                    houses: vec![bx, h],
                                    placements: vec![],
                                    eliminations: elims,
                                    rules: finish_rules(rules),
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Turbot fish: two conjugate pairs of a digit in any houses, `a`–`b` and
/// `c`–`e`, with `b` seeing `c`: one of `a` and `e` holds the digit, so no
/// cell seeing both does (Skyscraper and 2-String Kite are special cases).
fn turbot(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let mut out = Vec::new();
    for d in 1..=n as u8 {
        let pairs: Vec<(House, usize, usize)> = pm
            .houses()
            .into_iter()
            .filter_map(|h| {
                let cs = pm.cells_with(h, d);
                (cs.len() == 2).then(|| (h, cs[0], cs[1]))
            })
            .collect();
        for (i, &(h1, x1, y1)) in pairs.iter().enumerate() {
            for &(h2, x2, y2) in &pairs[i + 1..] {
                for (a, b) in [(x1, y1), (y1, x1)] {
                    for (c, e) in [(x2, y2), (y2, x2)] {
                        let cells = [a, b, c, e];
                        let distinct = (0..4).all(|x| (x + 1..4).all(|y| cells[x] != cells[y]));
                        let Some(link) = pm.common_house(b, c) else {
                            continue;
                        };
                        if !distinct || link == h1 || link == h2 {
                            continue;
                        }
                        let lead = format!(
                            "Turbot fish: the {d}s of {h1} and {h2} are pairs, {} and {} see each other",
                            cell_name(n, b),
                            cell_name(n, c)
                        );
                        out.extend(two_ends(
                            pm,
                            Technique::TurbotFish,
                            d,
                            [h1, link, h2],
                            cells.to_vec(),
                            lead,
                        ));
                    }
                }
            }
        }
    }
    out
}

/// Simple colours: the conjugate pairs of a digit form chains whose cells
/// alternate between two colours, one of them true. A cell seeing both
/// colours of a chain loses the digit (trap); a colour with two cells that
/// see each other is false everywhere (wrap).
fn colours(pm: &Candidates, wrap: bool) -> Vec<Step> {
    let n = pm.side();
    let mut out = Vec::new();
    for d in 1..=n as u8 {
        // Each chain coloured depth-first (the order its proofs and
        // sentences have always followed).
        for cluster in colour_clusters(pm, d, false) {
            let Cluster { cells: chain, .. } = &cluster;
            let start = chain[0];
            let path = |c: usize, rules: &mut Vec<Rule>| cluster.path(c, d, rules);
            let of = |c: usize| cluster.of(c);
            let mut rules = Vec::new();
            let mut elims = Vec::new();
            if wrap {
                for bad in [false, true] {
                    let cells = cluster.side(bad);
                    let clash = cells.iter().enumerate().find_map(|(i, &x)| {
                        cells[i + 1..]
                            .iter()
                            .find(|&&y| pm.sees(x, y))
                            .map(|&y| (x, y))
                    });
                    let Some((x, y)) = clash else { continue };
                    if let Some(h) = pm.common_house(x, y) {
                        rules.push(Rule::Digit(h, d));
                    }
                    for &c in chain.iter() {
                        path(c, &mut rules);
                    }
                    elims = cells.iter().map(|&c| (c, d)).collect();
                    break;
                }
            } else {
                for t in 0..n * n {
                    if !pm.has(t, d) || of(t).is_some() {
                        continue;
                    }
                    let a = chain
                        .iter()
                        .copied()
                        .find(|&c| of(c) == Some(false) && pm.sees(t, c));
                    let b = chain
                        .iter()
                        .copied()
                        .find(|&c| of(c) == Some(true) && pm.sees(t, c));
                    let (Some(a), Some(b)) = (a, b) else { continue };
                    link_rules(pm, t, &[a, b], d, &mut rules);
                    path(a, &mut rules);
                    path(b, &mut rules);
                    elims.push((t, d));
                }
            }
            if elims.is_empty() {
                continue;
            }
            elims.sort_unstable();
            let technique = if wrap {
                Technique::ColourWrap
            } else {
                Technique::ColourTrap
            };
            out.push(Step {
                technique,
                sentence: format!(
                    "{}: the conjugate pairs of {d} from {} colour {} cells in two colours, so {}",
                    technique.title(),
                    cell_name(n, start),
                    chain.len(),
                    list(n, &elims, false)
                ),
                digits: vec![d],
                cells: chain.clone(),
                houses: vec![],
                placements: vec![],
                eliminations: elims,
                rules: finish_rules(rules),
            });
        }
    }
    out
}

/// One cluster of a digit's conjugate pairs, coloured in two colours:
/// its cells, each cell's colour, and each cell's tree path of strong
/// links back to the cluster's first cell (the proof that its colour is
/// opposite or equal to that cell's).
struct Cluster {
    cells: Vec<usize>,
    colour: Vec<Option<(bool, usize, Option<House>)>>,
}

impl Cluster {
    fn of(&self, c: usize) -> Option<bool> {
        self.colour[c].map(|x| x.0)
    }
    fn side(&self, k: bool) -> Vec<usize> {
        self.cells
            .iter()
            .copied()
            .filter(|&c| self.of(c) == Some(k))
            .collect()
    }
    /// The strong links from `c` back to the first cell.
    fn path(&self, mut c: usize, d: u8, rules: &mut Vec<Rule>) {
        while let Some((_, parent, Some(h))) = self.colour[c] {
            rules.push(Rule::Digit(h, d));
            c = parent;
        }
    }
}

/// The clusters of digit `d` with at least one strong link, each
/// coloured breadth-first (multi-colours) or depth-first (simple
/// colours) from its first cell.
fn colour_clusters(pm: &Candidates, d: u8, breadth_first: bool) -> Vec<Cluster> {
    let n = pm.side();
    // Strong links: cell -> (other cell, house).
    let mut links: Vec<Vec<(usize, House)>> = vec![Vec::new(); n * n];
    for h in pm.houses() {
        let cs = pm.cells_with(h, d);
        if cs.len() == 2 {
            links[cs[0]].push((cs[1], h));
            links[cs[1]].push((cs[0], h));
        }
    }
    let mut seen = vec![false; n * n];
    let mut out = Vec::new();
    for start in 0..n * n {
        if seen[start] || links[start].is_empty() {
            continue;
        }
        // Each cell's colour and parent link, for the proofs.
        let mut colour: Vec<Option<(bool, usize, Option<House>)>> = vec![None; n * n];
        colour[start] = Some((false, start, None));
        let mut queue = std::collections::VecDeque::from([start]);
        let mut cells = Vec::new();
        while let Some(c) = if breadth_first {
            queue.pop_front()
        } else {
            queue.pop_back()
        } {
            seen[c] = true;
            cells.push(c);
            let (k, _, _) = colour[c].expect("coloured");
            for &(o, h) in &links[c] {
                if colour[o].is_none() {
                    colour[o] = Some((!k, c, Some(h)));
                    queue.push_back(o);
                }
            }
        }
        out.push(Cluster { cells, colour });
    }
    out
}

/// Multi-colours: two clusters of one digit. Type 1 (0502): a cell of
/// one colour of the first sees a cell of one colour of the second, so
/// not both colours are true and one of the two others is: a cell seeing
/// both of those loses the digit. Type 2 (0503): one colour of the first
/// sees both colours of the second, one of which is true: that colour is
/// false.
fn multi_colours(pm: &Candidates, two: bool) -> Vec<Step> {
    let n = pm.side();
    let mut out = Vec::new();
    for d in 1..=n as u8 {
        let cl = colour_clusters(pm, d, true);
        for (i, p) in cl.iter().enumerate() {
            for (j, q) in cl.iter().enumerate() {
                if i == j || (!two && j < i) {
                    continue;
                }
                let mut rules = Vec::new();
                let mut elims: Vec<(usize, u8)> = Vec::new();
                // A cell of `xs` seeing a cell of `ys`, with the house.
                let meet = |xs: &[usize], ys: &[usize]| {
                    xs.iter().find_map(|&x| {
                        ys.iter()
                            .find(|&&y| pm.sees(x, y))
                            .map(|&y| (x, y, pm.common_house(x, y)))
                    })
                };
                for pk in [false, true] {
                    let ps = p.side(pk);
                    if two {
                        let (Some((x1, y1, h1)), Some((x2, y2, h2))) =
                            (meet(&ps, &q.side(false)), meet(&ps, &q.side(true)))
                        else {
                            continue;
                        };
                        rules.extend(h1.into_iter().chain(h2).map(|h| Rule::Digit(h, d)));
                        for c in [x1, x2].into_iter().chain(ps.iter().copied()) {
                            p.path(c, d, &mut rules);
                        }
                        q.path(y1, d, &mut rules);
                        q.path(y2, d, &mut rules);
                        elims.extend(ps.iter().map(|&c| (c, d)));
                        continue;
                    }
                    for qk in [false, true] {
                        let Some((x, y, h)) = meet(&ps, &q.side(qk)) else {
                            continue;
                        };
                        let (pa, qa) = (p.side(!pk), q.side(!qk));
                        for t in 0..n * n {
                            if !pm.has(t, d) || pa.contains(&t) || qa.contains(&t) {
                                continue;
                            }
                            let a = pa.iter().copied().find(|&c| pm.sees(t, c));
                            let b = qa.iter().copied().find(|&c| pm.sees(t, c));
                            let (Some(a), Some(b)) = (a, b) else { continue };
                            rules.extend(h.map(|h| Rule::Digit(h, d)));
                            link_rules(pm, t, &[a, b], d, &mut rules);
                            for c in [a, x] {
                                p.path(c, d, &mut rules);
                            }
                            for c in [b, y] {
                                q.path(c, d, &mut rules);
                            }
                            elims.push((t, d));
                        }
                    }
                }
                elims.sort_unstable();
                elims.dedup();
                if elims.is_empty() || out.iter().any(|s: &Step| s.eliminations == elims) {
                    continue;
                }
                let technique = if two {
                    Technique::MultiColours2
                } else {
                    Technique::MultiColours1
                };
                let why = if two {
                    "a colour of the first sees both colours of the second, so it is false"
                } else {
                    "a colour of each sees the other, so one of the two other colours is true and a cell seeing both is not"
                };
                let mut cells = p.cells.clone();
                cells.extend(&q.cells);
                out.push(Step {
                    technique,
                    sentence: format!(
                        "{}: the conjugate pairs of {d} make two chains, {} and {}, each in two colours; {why}, so {}",
                        technique.title(),
                        cells_text(n, &p.cells),
                        cells_text(n, &q.cells),
                        list(n, &elims, false)
                    ),
                    digits: vec![d],
                    cells,
                    houses: vec![],
                    placements: vec![],
                    eliminations: elims,
                    rules: finish_rules(rules),
                });
            }
        }
    }
    out
}

fn bivalue(pm: &Candidates) -> Vec<usize> {
    let n = pm.side();
    (0..n * n)
        .filter(|&c| pm.value(c) == 0 && pm.mask(c).count_ones() == 2)
        .collect()
}

fn xy_wing(pm: &Candidates) -> Vec<Step> {
    let bv = bivalue(pm);
    let mut out = Vec::new();
    for &p in &bv {
        let pd = pm.digits(p);
        let (x, y) = (pd[0], pd[1]);
        let wings: Vec<usize> = bv.iter().copied().filter(|&c| pm.sees(c, p)).collect();
        for &a in &wings {
            for &b in &wings {
                if a >= b {
                    continue;
                }
                // One pincer {x,z}, the other {y,z}, z outside the pivot.
                let (ma, mb) = (pm.mask(a), pm.mask(b));
                let z_mask = ma & mb & !pm.mask(p);
                if z_mask.count_ones() != 1 || ma == mb {
                    continue;
                }
                let z = digits_of(z_mask)[0];
                let (xz, yz) = (bit(x) | bit(z), bit(y) | bit(z));
                if !((ma == xz && mb == yz) || (ma == yz && mb == xz)) {
                    continue;
                }
                let targets: Vec<usize> = seeing_both(pm, a, b, z)
                    .into_iter()
                    .filter(|&c| c != p)
                    .collect();
                if !targets.is_empty() {
                    out.push(wing(pm, Technique::XyWing, [p, a, b], z, &targets));
                }
            }
        }
    }
    out
}

/// An XY- or XYZ-Wing step: pivot `p`, pincers `a` and `b` (each `z` and one
/// digit of the pivot), `z` eliminated from `targets`.
fn wing(
    pm: &Candidates,
    technique: Technique,
    [p, a, b]: [usize; 3],
    z: u8,
    targets: &[usize],
) -> Step {
    let n = pm.side();
    let zb = bit(z);
    let mut rules = vec![Rule::Cell(p), Rule::Cell(a), Rule::Cell(b)];
    for w in [a, b] {
        if let Some(h) = pm.common_house(p, w) {
            rules.push(Rule::Digit(h, digits_of(pm.mask(w) & !zb)[0]));
        }
    }
    let ends: Vec<usize> = if technique == Technique::XyzWing {
        vec![a, b, p]
    } else {
        vec![a, b]
    };
    for &e in targets {
        link_rules(pm, e, &ends, z, &mut rules);
    }
    let elims: Vec<(usize, u8)> = targets.iter().map(|&c| (c, z)).collect();
    let show = |c: usize| format!("{} ({})", cell_name(n, c), digits_text(&pm.digits(c)));
    Step {
        technique,
        sentence: format!(
            "{}: pivot {} with {} and {}: one of them holds {z}, so {}",
            if technique == Technique::XyzWing {
                "XYZ-Wing"
            } else {
                "XY-Wing"
            },
            show(p),
            show(a),
            show(b),
            list(n, &elims, false)
        ),
        digits: digits_of(pm.mask(p) | pm.mask(a) | pm.mask(b)),
        cells: vec![p, a, b],
        houses: vec![],
        placements: vec![],
        eliminations: elims,
        rules: finish_rules(rules),
    }
}

fn xyz_wing(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let bv = bivalue(pm);
    let mut out = Vec::new();
    for p in 0..n * n {
        if pm.value(p) != 0 || pm.mask(p).count_ones() != 3 {
            continue;
        }
        let mp = pm.mask(p);
        let wings: Vec<usize> = bv
            .iter()
            .copied()
            .filter(|&c| pm.sees(c, p) && pm.mask(c) & !mp == 0)
            .collect();
        for &a in &wings {
            for &b in &wings {
                if a >= b || pm.mask(a) == pm.mask(b) {
                    continue;
                }
                let z_mask = pm.mask(a) & pm.mask(b);
                if z_mask.count_ones() != 1 {
                    continue;
                }
                let z = digits_of(z_mask)[0];
                let targets: Vec<usize> = seeing_both(pm, a, b, z)
                    .into_iter()
                    .filter(|&c| c != p && pm.sees(c, p))
                    .collect();
                if !targets.is_empty() {
                    out.push(wing(pm, Technique::XyzWing, [p, a, b], z, &targets));
                }
            }
        }
    }
    out
}

fn w_wing(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let bv = bivalue(pm);
    let mut out = Vec::new();
    for (i, &a) in bv.iter().enumerate() {
        for &b in &bv[i + 1..] {
            if pm.mask(a) != pm.mask(b) || pm.sees(a, b) {
                continue;
            }
            let ds = pm.digits(a);
            for (x, y) in [(ds[0], ds[1]), (ds[1], ds[0])] {
                let targets = seeing_both(pm, a, b, y);
                if targets.is_empty() {
                    continue;
                }
                // A strong link on x: a house with x in exactly two cells,
                // one seeing a, the other seeing b.
                for h in pm.houses() {
                    let cs = pm.cells_with(h, x);
                    if cs.len() != 2 || cs.contains(&a) || cs.contains(&b) {
                        continue;
                    }
                    let (c1, c2) = if pm.sees(cs[0], a) && pm.sees(cs[1], b) {
                        (cs[0], cs[1])
                    } else if pm.sees(cs[1], a) && pm.sees(cs[0], b) {
                        (cs[1], cs[0])
                    } else {
                        continue;
                    };
                    let mut rules = vec![Rule::Cell(a), Rule::Cell(b), Rule::Digit(h, x)];
                    link_rules(pm, a, &[c1], x, &mut rules);
                    link_rules(pm, b, &[c2], x, &mut rules);
                    for &e in &targets {
                        link_rules(pm, e, &[a, b], y, &mut rules);
                    }
                    let elims: Vec<(usize, u8)> = targets.iter().map(|&c| (c, y)).collect();
                    out.push(Step {
                        technique: Technique::WWing,
                        sentence: format!(
                            "W-Wing: {} and {} hold {x}/{y}, joined by the {x}s of {h} in {} and {}; one of them holds {y}, so {}",
                            cell_name(n, a),
                            cell_name(n, b),
                            cell_name(n, c1),
                            cell_name(n, c2),
                            list(n, &elims, false)
                        ),
                        digits: vec![x, y],
                        cells: vec![a, c1, c2, b],
                        houses: vec![h],
                        placements: vec![],
                        eliminations: elims,
                        rules: finish_rules(rules),
                    });
                    break;
                }
            }
        }
    }
    out
}

// ---- chains -----------------------------------------------------------------

/// The longest chain the chain techniques look for, in links (HoDoKu's
/// default restriction is 20; chains alternate strong and weak links and
/// start and end with a strong one, so the length is odd). It bounds the
/// AIC and nice-loop search too (a continuous loop has an even number of
/// links, so at most 18), which keeps that search to one breadth-first
/// pass of at most this depth per candidate and polarity.
pub const MAX_CHAIN_LINKS: usize = 19;

/// Is `cell` on the path of BFS state `s` (following `parent`)?
fn on_path(parent: &[Option<usize>], mut s: usize, width: usize, cell: usize) -> bool {
    loop {
        if s / width == cell {
            return true;
        }
        match parent[s] {
            Some(p) => s = p,
            None => return false,
        }
    }
}

/// The states of the path ending in `s`, first to last.
fn path_states(parent: &[Option<usize>], mut s: usize) -> Vec<usize> {
    let mut out = vec![s];
    while let Some(p) = parent[s] {
        out.push(p);
        s = p;
    }
    out.reverse();
    out
}

/// One chain found: its cells in order, the houses of its links (one
/// fewer than the cells), and its length in links.
struct Chain {
    cells: Vec<usize>,
    links: Vec<House>,
}

impl Chain {
    /// The chain a breadth-first search reached in state `t`: the states
    /// on its path (`parent`), each `width * cell + extra`, and the house
    /// of the link into each (`via`).
    fn traced(parent: &[Option<usize>], via: &[Option<House>], t: usize, width: usize) -> Chain {
        let states = path_states(parent, t);
        Chain {
            cells: states.iter().map(|&x| x / width).collect(),
            links: states[1..]
                .iter()
                .map(|&x| via[x].expect("a link into every later state"))
                .collect(),
        }
    }
}

/// Keeps, per pair of ends, the shortest chain (`found` keyed by
/// `(digit, low end, high end)`).
fn keep_shortest(
    found: &mut std::collections::BTreeMap<(u8, usize, usize), Chain>,
    d: u8,
    chain: Chain,
) {
    let (a, b) = (
        chain.cells[0],
        *chain.cells.last().expect("a chain has cells"),
    );
    let key = (d, a.min(b), a.max(b));
    match found.get(&key) {
        Some(old) if old.links.len() <= chain.links.len() => {}
        _ => {
            found.insert(key, chain);
        }
    }
}

/// X-chains: for one digit, strong links (a house with the digit in two
/// cells: one of them holds it) alternate with weak links (two cells that
/// see each other: not both hold it), starting and ending with a strong
/// link. If the first cell does not hold the digit, the last one does, so
/// a cell seeing both ends does not. Breadth-first from every start, so
/// each pair of ends comes with a shortest chain (cells not repeated, at
/// most [`MAX_CHAIN_LINKS`] links, at least 3: one strong link alone is no
/// chain). Shortest chains first.
fn x_chain(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let mut found = std::collections::BTreeMap::new();
    for d in 1..=n as u8 {
        let mut strong: Vec<Vec<(usize, House)>> = vec![Vec::new(); n * n];
        for h in pm.houses() {
            let cs = pm.cells_with(h, d);
            if cs.len() == 2 && !strong[cs[0]].iter().any(|&(o, _)| o == cs[1]) {
                strong[cs[0]].push((cs[1], h));
                strong[cs[1]].push((cs[0], h));
            }
        }
        let with: Vec<usize> = (0..n * n).filter(|&c| pm.has(c, d)).collect();
        // Weak links: the other cells with `d` each cell sees.
        let mut weak: Vec<Vec<(usize, House)>> = vec![Vec::new(); n * n];
        for &c in &with {
            weak[c] = with
                .iter()
                .filter_map(|&o| pm.common_house(c, o).filter(|_| o != c).map(|h| (o, h)))
                .collect();
        }
        // State `2 * cell + on`: `on` when the chain concludes the cell
        // holds `d` (reached by a strong link), else it does not.
        for &start in &with {
            if strong[start].is_empty() {
                continue;
            }
            let mut parent: Vec<Option<usize>> = vec![None; 2 * n * n];
            let mut depth = vec![usize::MAX; 2 * n * n];
            let mut via: Vec<Option<House>> = vec![None; 2 * n * n];
            depth[2 * start] = 0;
            let mut queue = std::collections::VecDeque::from([2 * start]);
            while let Some(s) = queue.pop_front() {
                let (c, on) = (s / 2, s % 2 == 1);
                if depth[s] >= MAX_CHAIN_LINKS {
                    continue;
                }
                let next = if on { &weak[c] } else { &strong[c] };
                for &(o, h) in next {
                    let t = 2 * o + usize::from(!on);
                    if depth[t] != usize::MAX || on_path(&parent, s, 2, o) {
                        continue;
                    }
                    depth[t] = depth[s] + 1;
                    parent[t] = Some(s);
                    via[t] = Some(h);
                    queue.push_back(t);
                    if !on && depth[t] >= 3 {
                        keep_shortest(&mut found, d, Chain::traced(&parent, &via, t, 2));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for ((d, _, _), chain) in found {
        let (a, b) = (chain.cells[0], *chain.cells.last().expect("cells"));
        let targets = seeing_both(pm, a, b, d);
        if targets.is_empty() {
            continue;
        }
        let mut rules: Vec<Rule> = chain.links.iter().map(|&h| Rule::Digit(h, d)).collect();
        for &e in &targets {
            link_rules(pm, e, &[a, b], d, &mut rules);
        }
        let mut text = cell_name(n, a);
        for (i, &c) in chain.cells.iter().enumerate().skip(1) {
            text.push_str(if i % 2 == 1 { " = " } else { " - " });
            text.push_str(&cell_name(n, c));
        }
        let elims: Vec<(usize, u8)> = targets.iter().map(|&x| (x, d)).collect();
        out.push(Step {
            technique: Technique::XChain,
            sentence: format!(
                "X-chain on {d}: {text} (=: one of the two holds {d}, -: not both); one of {} and {} holds {d}, so {}",
                cell_name(n, a),
                cell_name(n, b),
                list(n, &elims, false)
            ),
            digits: vec![d],
            houses: chain.links.clone(),
            cells: chain.cells,
            placements: vec![],
            eliminations: elims,
            rules: finish_rules(rules),
        });
    }
    out.sort_by_key(|s| (s.cells.len(), std::cmp::Reverse(s.eliminations.len())));
    out
}

/// The other digit of a bivalue cell.
fn other_digit(pm: &Candidates, c: usize, d: u8) -> u8 {
    (pm.mask(c) & !bit(d)).trailing_zeros() as u8
}

/// XY-chains: bivalue cells, each holding one of its two digits (a strong
/// link inside the cell), joined by a digit two neighbours share and see
/// each other with (a weak link). If the first cell does not hold its
/// outer digit `x`, the next holds the shared one, and so on until the
/// last holds its outer digit; when both outer digits are `x`, one end
/// holds `x`, so a cell seeing both ends does not. At least three cells
/// (two would be a pair), at most [`MAX_CHAIN_LINKS`] links, the shortest
/// chain per pair of ends, shortest chains first.
fn xy_chain(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let bv = bivalue(pm);
    let width = n + 1;
    // The bivalue cells each bivalue cell sees, with the house they share.
    let mut seen: Vec<Vec<(usize, House)>> = vec![Vec::new(); n * n];
    for &c in &bv {
        seen[c] = bv
            .iter()
            .filter_map(|&o| pm.common_house(c, o).filter(|_| o != c).map(|h| (o, h)))
            .collect();
    }
    let mut found = std::collections::BTreeMap::new();
    for &start in &bv {
        for x in pm.digits(start) {
            // State `width * cell + v`: the chain concludes `cell` holds `v`.
            let mut parent: Vec<Option<usize>> = vec![None; width * n * n];
            let mut depth = vec![usize::MAX; width * n * n];
            let mut via: Vec<Option<House>> = vec![None; width * n * n];
            let first = width * start + other_digit(pm, start, x) as usize;
            depth[first] = 1;
            let mut queue = std::collections::VecDeque::from([first]);
            while let Some(s) = queue.pop_front() {
                let (c, v) = (s / width, (s % width) as u8);
                if depth[s] + 2 > MAX_CHAIN_LINKS {
                    continue;
                }
                for &(o, h) in &seen[c] {
                    if !pm.has(o, v) {
                        continue;
                    }
                    let w = other_digit(pm, o, v);
                    let t = width * o + w as usize;
                    if depth[t] != usize::MAX || on_path(&parent, s, width, o) {
                        continue;
                    }
                    depth[t] = depth[s] + 2;
                    parent[t] = Some(s);
                    via[t] = Some(h);
                    queue.push_back(t);
                    if w == x && depth[t] >= 5 {
                        keep_shortest(&mut found, x, Chain::traced(&parent, &via, t, width));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for ((x, _, _), chain) in found {
        let (a, b) = (chain.cells[0], *chain.cells.last().expect("cells"));
        let targets = seeing_both(pm, a, b, x);
        if targets.is_empty() {
            continue;
        }
        let mut rules: Vec<Rule> = chain.cells.iter().map(|&c| Rule::Cell(c)).collect();
        let mut text = Vec::new();
        let mut v = x;
        let mut digits = vec![x];
        for (i, &c) in chain.cells.iter().enumerate() {
            let w = other_digit(pm, c, v);
            text.push(format!("({v}={w}){}", cell_name(n, c)));
            if let Some(&h) = chain.links.get(i) {
                rules.push(Rule::Digit(h, w));
            }
            digits.push(w);
            v = w;
        }
        for &e in &targets {
            link_rules(pm, e, &[a, b], x, &mut rules);
        }
        digits.sort_unstable();
        digits.dedup();
        let elims: Vec<(usize, u8)> = targets.iter().map(|&c| (c, x)).collect();
        out.push(Step {
            technique: Technique::XyChain,
            sentence: format!(
                "XY-chain: {} (each cell holds one of its two digits, neighbours not the same one); one of {} and {} holds {x}, so {}",
                text.join(" - "),
                cell_name(n, a),
                cell_name(n, b),
                list(n, &elims, false)
            ),
            digits,
            houses: chain.links.clone(),
            cells: chain.cells,
            placements: vec![],
            eliminations: elims,
            rules: finish_rules(rules),
        });
    }
    out.sort_by_key(|s| (s.cells.len(), std::cmp::Reverse(s.eliminations.len())));
    out
}

/// Remote pairs: bivalue cells with the same two digits, each seeing the
/// next. Their digits alternate along the chain, so two cells an odd
/// number of links apart (at least 3; one link apart is a naked pair)
/// hold both digits between them, and a cell seeing both holds neither.
/// Breadth-first from every start, a shortest chain per pair of ends with
/// an even number of cells (at least 4, at most [`MAX_CHAIN_LINKS`] links
/// counted as an XY-chain counts them); the step eliminates what every
/// such pair of its cells allows.
fn remote_pairs(pm: &Candidates) -> Vec<Step> {
    let n = pm.side();
    let bv = bivalue(pm);
    let mut found = std::collections::BTreeMap::new();
    for &start in &bv {
        let m = pm.mask(start);
        let mut parent: Vec<Option<usize>> = vec![None; n * n];
        let mut depth = vec![usize::MAX; n * n];
        let mut via: Vec<Option<House>> = vec![None; n * n];
        depth[start] = 1;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            if 2 * (depth[c] + 1) - 1 > MAX_CHAIN_LINKS {
                continue;
            }
            for &o in &bv {
                let Some(h) = pm.common_house(c, o).filter(|_| o != c && pm.mask(o) == m) else {
                    continue;
                };
                if depth[o] != usize::MAX || on_path(&parent, c, 1, o) {
                    continue;
                }
                depth[o] = depth[c] + 1;
                parent[o] = Some(c);
                via[o] = Some(h);
                queue.push_back(o);
                if depth[o] >= 4 && depth[o].is_multiple_of(2) {
                    let cells = path_states(&parent, o);
                    let links = cells[1..]
                        .iter()
                        .map(|&x| via[x].expect("a link"))
                        .collect();
                    keep_shortest(&mut found, 0, Chain { cells, links });
                }
            }
        }
    }
    let mut out = Vec::new();
    for (_, chain) in found {
        let cells = &chain.cells;
        let ds = pm.digits(cells[0]);
        let mut rules: Vec<Rule> = cells.iter().map(|&c| Rule::Cell(c)).collect();
        for &h in &chain.links {
            rules.extend(ds.iter().map(|&d| Rule::Digit(h, d)));
        }
        let mut elims = Vec::new();
        for t in 0..n * n {
            if cells.contains(&t) || pm.mask(t) & pm.mask(cells[0]) == 0 {
                continue;
            }
            let pair = (0..cells.len()).find_map(|i| {
                (i + 3..cells.len())
                    .step_by(2)
                    .find(|&j| pm.sees(t, cells[i]) && pm.sees(t, cells[j]))
                    .map(|j| (cells[i], cells[j]))
            });
            let Some((a, b)) = pair else { continue };
            for &d in &ds {
                if pm.has(t, d) {
                    link_rules(pm, t, &[a, b], d, &mut rules);
                    elims.push((t, d));
                }
            }
        }
        if elims.is_empty() {
            continue;
        }
        let elims_sorted = {
            let mut e = elims.clone();
            e.sort_unstable();
            e
        };
        if out.iter().any(|s: &Step| s.eliminations == elims_sorted) {
            continue;
        }
        out.push(Step {
            technique: Technique::RemotePair,
            sentence: format!(
                "Remote pair: {} hold only {}, each seeing the next, so their digits alternate: {}",
                cells_text(n, cells),
                digits_text(&ds),
                list(n, &elims_sorted, false)
            ),
            digits: ds,
            houses: chain.links.clone(),
            cells: chain.cells,
            placements: vec![],
            eliminations: elims_sorted,
            rules: finish_rules(rules),
        });
    }
    out.sort_by_key(|s| (s.cells.len(), std::cmp::Reverse(s.eliminations.len())));
    out
}

// ---- the checker -----------------------------------------------------------

/// "Exactly one of these 0/1 variables is 1": a cell's digits, or a
/// house's cells for one digit. The checker's only rule.
#[derive(Debug)]
struct ExactlyOne(Vec<VarId>);

impl Constraint for ExactlyOne {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        values.iter().filter(|&&v| v == 1).count() == 1
    }
    fn name(&self) -> &str {
        "exactly one"
    }
    fn is_consistent_partial(&self, values: &[Option<Value>]) -> bool {
        let ones = values.iter().filter(|v| **v == Some(1)).count();
        let open = values.iter().filter(|v| v.is_none()).count();
        ones == 1 || (ones == 0 && open > 0)
    }
}

/// The independent checker: the exact-cover model of the grid (a 0/1
/// variable per cell and digit, "exactly one" per cell and per house and
/// digit), and [`csp_core::hints::check_step`] over the rules a step names.
pub struct Checker {
    n: usize,
    model: Model,
    vars: Vec<VarId>,
    cell_rule: Vec<ConstraintId>,
    digit_rule: Vec<ConstraintId>,
    unique: unique::UniqueCache,
}

impl fmt::Debug for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checker")
            .field("n", &self.n)
            .finish_non_exhaustive()
    }
}

impl Checker {
    /// The checker for grids of box side `k`.
    pub fn new(k: usize) -> Checker {
        let n = k * k;
        let mut model = Model::new();
        let vars = model
            .new_vars(n * n * n, Domain::range(0, 1))
            .expect("a few thousand 0/1 variables");
        let var = |c: usize, d: usize| vars[c * n + d - 1];
        let cell_rule = (0..n * n)
            .map(|c| {
                model
                    .post(ExactlyOne((1..=n).map(|d| var(c, d)).collect()))
                    .expect("variables of the model")
            })
            .collect();
        let pm = Candidates::from_grid(&crate::Grid::empty(k).expect("a supported box side"));
        // In house order (rows, columns, boxes), digits ascending: the
        // rule of house `h` and digit `d` is at `h.index(n) * n + d - 1`.
        let mut digit_rule = Vec::with_capacity(3 * n * n);
        for h in pm.houses() {
            for d in 1..=n {
                digit_rule.push(
                    model
                        .post(ExactlyOne(pm.cells(h).iter().map(|&c| var(c, d)).collect()))
                        .expect("variables of the model"),
                );
            }
        }
        Checker {
            n,
            model,
            vars,
            cell_rule,
            digit_rule,
            unique: unique::UniqueCache::default(),
        }
    }

    fn var(&self, c: usize, d: u8) -> VarId {
        self.vars[c * self.n + d as usize - 1]
    }

    /// The constraints of `rules`.
    fn constraints(&self, rules: &[Rule]) -> Vec<ConstraintId> {
        let n = self.n;
        rules
            .iter()
            .map(|&r| match r {
                Rule::Cell(c) => self.cell_rule[c],
                Rule::Digit(h, d) => self.digit_rule[h.index(n) * n + d as usize - 1],
            })
            .collect()
    }

    /// The candidate facts of `pm` over the variables of `cs`.
    fn premises(&self, pm: &Candidates, cs: &[ConstraintId]) -> Vec<Literal> {
        let n = self.n;
        let mut scope: BTreeSet<VarId> = BTreeSet::new();
        for &c in cs {
            scope.extend(self.model.constraint(c).scope().iter().copied());
        }
        let mut premises = Vec::new();
        for &x in &scope {
            let (c, d) = (x.index() / n, (x.index() % n + 1) as u8);
            let v = pm.value(c);
            if v != 0 {
                premises.push(Literal::Eq(x, Value::from(v == d)));
            } else if !pm.has(c, d) {
                premises.push(Literal::Eq(x, 0));
            }
        }
        premises
    }

    /// Proves each placement and elimination of `s` from its rules and the
    /// candidates of `pm`; the first one that does not follow is an error.
    /// A uniqueness step is proved under its premise, which is checked
    /// too: the state has exactly one completion, and each conclusion's
    /// negation would give it a second one (see `docs/hints.md`).
    pub fn verify(&self, pm: &Candidates, s: &Step) -> Result<(), String> {
        if s.technique.assumes_uniqueness() {
            return self.verify_unique(pm, s);
        }
        let n = self.n;
        let cs = self.constraints(&s.rules);
        let premises = self.premises(pm, &cs);
        let claims = s
            .placements
            .iter()
            .map(|&(c, d)| {
                (
                    Literal::Eq(self.var(c, d), 1),
                    format!("{}={d}", cell_name(n, c)),
                )
            })
            .chain(s.eliminations.iter().map(|&(c, d)| {
                (
                    Literal::Eq(self.var(c, d), 0),
                    format!("{}<>{d}", cell_name(n, c)),
                )
            }));
        for (lit, name) in claims {
            match check_step(&self.model, &premises, &cs, lit, 1_000_000) {
                Verdict::Implied => {}
                v => {
                    return Err(format!(
                        "{}: {name} does not follow from {} ({v:?}): {}",
                        s.technique,
                        s.rules
                            .iter()
                            .map(|r| r.show(n))
                            .collect::<Vec<_>>()
                            .join(", "),
                        s.sentence
                    ))
                }
            }
        }
        Ok(())
    }
}

/// How a HoDoKu library case came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseOutcome {
    /// The technique found exactly the expected eliminations and
    /// placements (or, for a fail case, nothing).
    Pass,
    /// It did not: what it found instead.
    Fail(String),
    /// The case's technique is not implemented here.
    NotImplemented,
}

/// Runs one case of HoDoKu's regression library through [`find_checked`]
/// (what `csp sudoku --hint --technique CODE` runs): an instance of the
/// technique must have exactly the eliminations and placements the case
/// expects; a fail case (`-x`) must find none.
pub fn run_case(case: &crate::pencil::LibraryCase, checker: &Checker) -> CaseOutcome {
    let Some(t) = Technique::parse(&case.code) else {
        return CaseOutcome::NotImplemented;
    };
    let steps = match find_checked(&case.state, t, checker) {
        Ok(s) => s,
        Err(e) => return CaseOutcome::Fail(format!("checker: {e}")),
    };
    if case.is_fail_case() {
        return match steps.first() {
            None => CaseOutcome::Pass,
            Some(s) => CaseOutcome::Fail(format!("found {}", s.sentence)),
        };
    }
    let sorted = |v: &[(usize, u8)]| {
        let mut v = v.to_vec();
        v.sort_unstable();
        v
    };
    let (want_e, want_p) = (sorted(&case.eliminations), sorted(&case.placements));
    if steps
        .iter()
        .any(|s| sorted(&s.eliminations) == want_e && sorted(&s.placements) == want_p)
    {
        return CaseOutcome::Pass;
    }
    let n = case.state.side();
    let found: Vec<String> = steps
        .iter()
        .take(3)
        .map(|s| {
            let mut v = s.placement_names(n);
            v.extend(s.elimination_names(n));
            v.join(" ")
        })
        .collect();
    CaseOutcome::Fail(format!(
        "{} instance(s), none matching; first: [{}]",
        steps.len(),
        found.join("] [")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn the_checker_refutes_a_forged_step() {
        let pm = Candidates::from_grid(&EASY.parse::<Grid>().unwrap());
        let checker = Checker::new(3);
        let mut s = next_with(&pm, &checker).unwrap().unwrap();
        // The same rules do not eliminate an unrelated candidate.
        let far = (0..81)
            .find(|&c| pm.value(c) == 0 && !s.cells.contains(&c) && pm.mask(c).count_ones() > 1)
            .unwrap();
        s.placements.clear();
        s.eliminations = vec![(far, pm.digits(far)[0])];
        assert!(checker.verify(&pm, &s).is_err());
    }

    #[test]
    fn an_easy_puzzle_is_solved_by_singles_every_step_checked() {
        let g: Grid = EASY.parse().unwrap();
        let pm = Candidates::from_grid(&g);
        let (steps, end) = solve_steps(&pm, &Checker::new(3)).unwrap();
        assert_eq!(end, End::Solved);
        let mut done = pm.clone();
        for s in &steps {
            apply(&mut done, s);
        }
        assert_eq!(crate::check_solution(&g, &done.grid()), Ok(()));
        assert_eq!(rate(&steps, &end).level, Level::Easy);
    }

    #[test]
    fn names_and_codes_round_trip() {
        for t in LADDER {
            assert_eq!(Technique::parse(t.code()), Some(t));
            assert_eq!(Technique::parse(t.name()), Some(t));
        }
    }
}
