//! Built-in maps: Australia and the 48 contiguous United States.
//!
//! Map coloring is graph coloring where the vertices are regions and the edges
//! join regions that share a border of positive length. Regions meeting at a single
//! point are not neighbors: at the Four Corners, Arizona–Colorado and Utah–New
//! Mexico only touch, so they may share a color.

use std::fmt;

use crate::Graph;

/// A named map: regions in a fixed order (vertex `i` is `regions[i]`) and borders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Map {
    /// The name used to look the map up (`australia`, `us`).
    pub name: &'static str,
    /// A one-line description.
    pub title: &'static str,
    /// The region codes; vertex `i` of [`Map::graph`] is `regions[i]`.
    pub regions: &'static [&'static str],
    /// The pairs of regions that share a border of positive length.
    pub borders: &'static [(&'static str, &'static str)],
}

impl Map {
    /// The vertex number of a region, by code, ignoring case.
    pub fn region(&self, code: &str) -> Option<u32> {
        self.regions
            .iter()
            .position(|r| r.eq_ignore_ascii_case(code))
            .map(|i| i as u32)
    }

    /// The map as a graph: one vertex per region, one edge per border.
    pub fn graph(&self) -> Graph {
        let index = |code: &str| {
            self.region(code)
                .unwrap_or_else(|| panic!("map {}: border names unknown region {code}", self.name))
        };
        let edges = self.borders.iter().map(|&(a, b)| (index(a), index(b)));
        Graph::new(self.regions.len() as u32, edges).expect("built-in maps are simple graphs")
    }
}

/// Australia's seven states and territories, the map of the classic textbook
/// example (Russell & Norvig, *Artificial Intelligence: A Modern Approach*, ch. 6).
///
/// Regions, in order: WA (Western Australia), NT (Northern Territory), SA (South
/// Australia), Q (Queensland), NSW (New South Wales), V (Victoria), T (Tasmania, an
/// island with no borders). Three colors suffice; two do not (WA, NT, SA form a triangle).
pub const AUSTRALIA: Map = Map {
    name: "australia",
    title: "Australia: 7 states and territories (Russell & Norvig)",
    regions: &["WA", "NT", "SA", "Q", "NSW", "V", "T"],
    borders: &[
        ("WA", "NT"),
        ("WA", "SA"),
        ("NT", "SA"),
        ("NT", "Q"),
        ("SA", "Q"),
        ("SA", "NSW"),
        ("SA", "V"),
        ("Q", "NSW"),
        ("NSW", "V"),
    ],
};

/// The 48 contiguous United States, by USPS two-letter code, in alphabetical order
/// of the code (AL, AR, AZ, CA, ..., WY). The District of Columbia is not included.
///
/// Two states are neighbors when they share a land or river border of positive
/// length: 105 borders. Four Corners point contacts (AZ–CO, NM–UT) and borders
/// only across open water (such as Michigan–Minnesota in Lake Superior) do not
/// count. Four colors suffice (the four color theorem); three do not (Nevada
/// and its five neighbors form an odd wheel).
#[rustfmt::skip]
pub const US: Map = Map {
    name: "us",
    title: "the 48 contiguous United States",
    regions: &[
        "AL", "AR", "AZ", "CA", "CO", "CT", "DE", "FL", "GA", "IA", "ID", "IL", "IN", "KS", "KY",
        "LA", "MA", "MD", "ME", "MI", "MN", "MO", "MS", "MT", "NC", "ND", "NE", "NH", "NJ", "NM",
        "NV", "NY", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VA", "VT", "WA",
        "WI", "WV", "WY",
    ],
    borders: &[
        ("AL", "FL"), ("AL", "GA"), ("AL", "MS"), ("AL", "TN"),
        ("AR", "LA"), ("AR", "MO"), ("AR", "MS"), ("AR", "OK"), ("AR", "TN"), ("AR", "TX"),
        ("AZ", "CA"), ("AZ", "NM"), ("AZ", "NV"), ("AZ", "UT"),
        ("CA", "NV"), ("CA", "OR"),
        ("CO", "KS"), ("CO", "NE"), ("CO", "NM"), ("CO", "OK"), ("CO", "UT"), ("CO", "WY"),
        ("CT", "MA"), ("CT", "NY"), ("CT", "RI"),
        ("DE", "MD"), ("DE", "NJ"), ("DE", "PA"),
        ("FL", "GA"),
        ("GA", "NC"), ("GA", "SC"), ("GA", "TN"),
        ("IA", "IL"), ("IA", "MN"), ("IA", "MO"), ("IA", "NE"), ("IA", "SD"), ("IA", "WI"),
        ("ID", "MT"), ("ID", "NV"), ("ID", "OR"), ("ID", "UT"), ("ID", "WA"), ("ID", "WY"),
        ("IL", "IN"), ("IL", "KY"), ("IL", "MO"), ("IL", "WI"),
        ("IN", "KY"), ("IN", "MI"), ("IN", "OH"),
        ("KS", "MO"), ("KS", "NE"), ("KS", "OK"),
        ("KY", "MO"), ("KY", "OH"), ("KY", "TN"), ("KY", "VA"), ("KY", "WV"),
        ("LA", "MS"), ("LA", "TX"),
        ("MA", "NH"), ("MA", "NY"), ("MA", "RI"), ("MA", "VT"),
        ("MD", "PA"), ("MD", "VA"), ("MD", "WV"),
        ("ME", "NH"),
        ("MI", "OH"), ("MI", "WI"),
        ("MN", "ND"), ("MN", "SD"), ("MN", "WI"),
        ("MO", "NE"), ("MO", "OK"), ("MO", "TN"),
        ("MS", "TN"),
        ("MT", "ND"), ("MT", "SD"), ("MT", "WY"),
        ("NC", "SC"), ("NC", "TN"), ("NC", "VA"),
        ("ND", "SD"),
        ("NE", "SD"), ("NE", "WY"),
        ("NH", "VT"),
        ("NJ", "NY"), ("NJ", "PA"),
        ("NM", "OK"), ("NM", "TX"),
        ("NV", "OR"), ("NV", "UT"),
        ("NY", "PA"), ("NY", "VT"),
        ("OH", "PA"), ("OH", "WV"),
        ("OK", "TX"),
        ("OR", "WA"),
        ("PA", "WV"),
        ("SD", "WY"),
        ("TN", "VA"),
        ("UT", "WY"),
        ("VA", "WV"),
    ],
};

/// The names [`builtin_map`] accepts (`usa` is another name for `us`).
pub const MAP_NAMES: &[&str] = &["australia", "us", "usa"];

/// A map name that is not built in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMap(pub String);

impl fmt::Display for UnknownMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown map {:?} (known maps: {})",
            self.0,
            MAP_NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownMap {}

/// Looks up a built-in map by name, ignoring case: `australia`, `us` or `usa`.
///
/// ```
/// use csp_coloring::maps::builtin_map;
///
/// assert_eq!(builtin_map("USA").unwrap().regions.len(), 48);
/// assert_eq!(
///     builtin_map("mars").unwrap_err().to_string(),
///     "unknown map \"mars\" (known maps: australia, us, usa)"
/// );
/// ```
///
/// # Errors
/// [`UnknownMap`], whose message lists the known names.
pub fn builtin_map(name: &str) -> Result<&'static Map, UnknownMap> {
    match name.to_ascii_lowercase().as_str() {
        "australia" => Ok(&AUSTRALIA),
        "us" | "usa" => Ok(&US),
        _ => Err(UnknownMap(name.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn degree(map: &Map, code: &str) -> usize {
        map.graph().degree(map.region(code).unwrap())
    }

    #[test]
    fn australia() {
        let g = AUSTRALIA.graph();
        assert_eq!((g.vertices(), g.edge_count()), (7, 9));
        assert_eq!(degree(&AUSTRALIA, "SA"), 5);
        assert_eq!(degree(&AUSTRALIA, "T"), 0);
        assert_eq!(AUSTRALIA.region("nsw"), Some(4));
    }

    #[test]
    fn us_has_48_states_and_105_borders() {
        let g = US.graph();
        assert_eq!(g.vertices(), 48);
        assert_eq!(g.edge_count(), 105);
        let mut sorted = US.regions.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, US.regions, "codes sorted and distinct");
        // Every border is listed once, with the codes in alphabetical order.
        for &(a, b) in US.borders {
            assert!(a < b, "{a}-{b}");
        }
    }

    #[test]
    fn us_spot_checks() {
        let adjacent = |a: &str, b: &str| {
            US.graph()
                .has_edge(US.region(a).unwrap(), US.region(b).unwrap())
        };
        // Four Corners: point contacts only.
        assert!(!adjacent("AZ", "CO"));
        assert!(!adjacent("UT", "NM"));
        assert!(adjacent("AZ", "NM") && adjacent("UT", "CO"));
        // Water-only boundaries.
        assert!(!adjacent("MI", "MN") && !adjacent("MI", "IL") && !adjacent("NY", "RI"));
        assert!(adjacent("MI", "WI"));
        for (code, d) in [
            ("ME", 1),
            ("MO", 8),
            ("TN", 8),
            ("KY", 7),
            ("NV", 5),
            ("WA", 2),
        ] {
            assert_eq!(degree(&US, code), d, "{code}");
        }
    }

    #[test]
    fn lookup() {
        assert_eq!(builtin_map("Australia").unwrap().name, "australia");
        assert_eq!(builtin_map("us").unwrap().name, "us");
        assert!(builtin_map("").is_err());
    }
}
