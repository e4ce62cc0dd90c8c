//! The [`Graph`] type: an undirected simple graph on vertices `0..n`.

use std::fmt;

/// An undirected graph without self-loops or repeated edges.
///
/// Vertices are `0..vertices()` (0-based; DIMACS files number them from 1 and the
/// parser subtracts one). Each edge is stored once as `(u, v)` with `u < v`, and the
/// edge list is sorted.
///
/// ```
/// use csp_coloring::Graph;
///
/// // A triangle, with one edge listed twice and once backwards.
/// let g = Graph::new(3, [(0, 1), (1, 2), (2, 0), (1, 0)]).unwrap();
/// assert_eq!(g.edges(), &[(0, 1), (0, 2), (1, 2)]);
/// assert!(g.has_edge(2, 1));
/// assert_eq!(g.degree(0), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Graph {
    vertices: u32,
    edges: Vec<(u32, u32)>,
}

/// Why a [`Graph`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GraphError {
    /// An edge names a vertex `>= vertices`.
    VertexOutOfRange {
        /// The offending vertex (0-based).
        vertex: u32,
        /// The number of vertices of the graph.
        vertices: u32,
    },
    /// An edge joins a vertex to itself; no coloring can satisfy it.
    SelfLoop {
        /// The vertex (0-based).
        vertex: u32,
    },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::VertexOutOfRange { vertex, vertices } => write!(
                f,
                "vertex {vertex} out of range (the graph has vertices 0 to {})",
                i64::from(*vertices) - 1
            ),
            GraphError::SelfLoop { vertex } => write!(f, "self-loop on vertex {vertex}"),
        }
    }
}

impl std::error::Error for GraphError {}

impl Graph {
    /// A graph on `vertices` vertices with the given edges, in any order and
    /// direction; repeats are merged.
    ///
    /// # Errors
    /// An edge naming a vertex out of range, or a self-loop.
    pub fn new(
        vertices: u32,
        edges: impl IntoIterator<Item = (u32, u32)>,
    ) -> Result<Graph, GraphError> {
        let mut list = Vec::new();
        for (u, v) in edges {
            for w in [u, v] {
                if w >= vertices {
                    return Err(GraphError::VertexOutOfRange {
                        vertex: w,
                        vertices,
                    });
                }
            }
            if u == v {
                return Err(GraphError::SelfLoop { vertex: u });
            }
            list.push((u.min(v), u.max(v)));
        }
        list.sort_unstable();
        list.dedup();
        Ok(Graph {
            vertices,
            edges: list,
        })
    }

    /// The number of vertices.
    pub fn vertices(&self) -> u32 {
        self.vertices
    }

    /// The distinct edges, each as `(u, v)` with `u < v`, sorted.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// The number of distinct edges.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// `true` when `u` and `v` are joined by an edge (either order).
    pub fn has_edge(&self, u: u32, v: u32) -> bool {
        self.edges.binary_search(&(u.min(v), u.max(v))).is_ok()
    }

    /// The neighbors of every vertex, each list sorted.
    pub fn adjacency(&self) -> Vec<Vec<u32>> {
        let mut adj = vec![Vec::new(); self.vertices as usize];
        for &(u, v) in &self.edges {
            adj[u as usize].push(v);
            adj[v as usize].push(u);
        }
        for list in &mut adj {
            list.sort_unstable();
        }
        adj
    }

    /// The number of neighbors of `v`.
    pub fn degree(&self, v: u32) -> usize {
        self.edges
            .iter()
            .filter(|&&(a, b)| a == v || b == v)
            .count()
    }
}
