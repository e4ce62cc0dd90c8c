//! Writing colorings for people and for other programs.

use crate::maps::Map;

/// Names for the first eight colors; later colors are written `color 9`, `color 10`, ...
pub const COLOR_NAMES: [&str; 8] = [
    "red", "green", "blue", "yellow", "orange", "purple", "cyan", "magenta",
];

/// The name of color `c` (0-based): `red`, `green`, ..., then `color 9` and up.
///
/// ```
/// assert_eq!(csp_coloring::render::color_name(0), "red");
/// assert_eq!(csp_coloring::render::color_name(8), "color 9");
/// ```
pub fn color_name(c: u32) -> String {
    COLOR_NAMES
        .get(c as usize)
        .map_or_else(|| format!("color {}", c + 1), |name| name.to_string())
}

/// One line per vertex, `vertex color`, both numbered from 1 (DIMACS style).
///
/// ```
/// assert_eq!(csp_coloring::render::vertex_colors(&[0, 1, 0]), "1 1\n2 2\n3 1\n");
/// ```
pub fn vertex_colors(colors: &[u32]) -> String {
    colors
        .iter()
        .enumerate()
        .map(|(v, c)| format!("{} {}\n", v + 1, c + 1))
        .collect()
}

/// One line per region, `CODE = color name`, in the map's region order.
///
/// ```
/// use csp_coloring::{maps::AUSTRALIA, render::map_coloring};
///
/// let text = map_coloring(&AUSTRALIA, &[0, 1, 2, 0, 1, 0, 0]);
/// assert!(text.starts_with("WA = red\nNT = green\nSA = blue\n"));
/// ```
///
/// # Panics
/// If `colors` does not have one entry per region.
pub fn map_coloring(map: &Map, colors: &[u32]) -> String {
    assert_eq!(colors.len(), map.regions.len(), "one color per region");
    map.regions
        .iter()
        .zip(colors)
        .map(|(region, &c)| format!("{region} = {}\n", color_name(c)))
        .collect()
}
