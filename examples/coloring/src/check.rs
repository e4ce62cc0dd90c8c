//! An independent checker for colorings.

use crate::Graph;

/// Checks that `colors` is a proper coloring of `graph` with colors `0..k`.
///
/// `colors[v]` is the color of vertex `v` (0-based). There must be one color per
/// vertex, each below `k`, and the two ends of every edge must differ. Messages
/// number vertices from 1, as DIMACS files do.
///
/// ```
/// use csp_coloring::{check_coloring, Graph};
///
/// let triangle = Graph::new(3, [(0, 1), (1, 2), (0, 2)]).unwrap();
/// assert_eq!(check_coloring(&triangle, &[0, 1, 2], 3), Ok(()));
/// assert_eq!(
///     check_coloring(&triangle, &[0, 1, 0], 3),
///     Err("vertices 1 and 3 are adjacent and both have color 0".to_string())
/// );
/// ```
///
/// # Errors
/// A message naming the first fault found.
pub fn check_coloring(graph: &Graph, colors: &[u32], k: u32) -> Result<(), String> {
    if colors.len() != graph.vertices() as usize {
        return Err(format!(
            "{} colors for {} vertices",
            colors.len(),
            graph.vertices()
        ));
    }
    if let Some(v) = colors.iter().position(|&c| c >= k) {
        return Err(format!(
            "vertex {} has color {}, but only colors 0 to {} are allowed",
            v + 1,
            colors[v],
            i64::from(k) - 1
        ));
    }
    for &(u, v) in graph.edges() {
        if colors[u as usize] == colors[v as usize] {
            return Err(format!(
                "vertices {} and {} are adjacent and both have color {}",
                u + 1,
                v + 1,
                colors[u as usize]
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults() {
        let path = Graph::new(3, [(0, 1), (1, 2)]).unwrap();
        assert_eq!(check_coloring(&path, &[0, 1, 0], 2), Ok(()));
        assert_eq!(
            check_coloring(&path, &[0, 1], 2),
            Err("2 colors for 3 vertices".into())
        );
        assert_eq!(
            check_coloring(&path, &[0, 2, 0], 2),
            Err("vertex 2 has color 2, but only colors 0 to 1 are allowed".into())
        );
        assert_eq!(
            check_coloring(&path, &[0, 0, 1], 0),
            Err("vertex 1 has color 0, but only colors 0 to -1 are allowed".into())
        );
        let empty = Graph::new(0, []).unwrap();
        assert_eq!(check_coloring(&empty, &[], 0), Ok(()));
    }
}
