//! Reading graphs in the DIMACS format of the graph-coloring benchmarks.
//!
//! # Format
//!
//! ```text
//! c any comment
//! p edge 4 3
//! e 1 2
//! e 2 3
//! e 3 4
//! ```
//!
//! * A line whose first non-blank character is `c` is a comment; blank lines are skipped.
//! * Exactly one problem line `p edge V E` (`p col V E` is accepted too) comes before
//!   the first edge. `V` is the number of vertices, numbered `1..=V`.
//! * Each edge line `e u v` joins vertices `u` and `v`.
//!
//! # Tolerated quirks (all found in the classic benchmark files)
//!
//! * **Repeated edges** (`e 1 2` and `e 2 1`) are merged: the [`Graph`] keeps distinct edges.
//! * **Self-loops** (`e 95 95` in `homer.col`) are dropped and reported as
//!   [`Warning::SelfLoop`]; the published chromatic numbers ignore them.
//! * **The edge count `E` is not trusted** (`DSJC125.1.col` says 1472 and has 736 edge
//!   lines). When it differs from the number of `e` lines, a
//!   [`Warning::EdgeCountMismatch`] is reported.
//!
//! # Errors
//!
//! Anything else is a [`ParseError`] naming the line and, where useful, the column:
//! an edge before the problem line, a second problem line, no problem line at all, a
//! vertex outside `1..=V` (a file that declares fewer vertices than its edges use),
//! a malformed or missing number, extra text, or an unknown line type.
//!
//! ```
//! use csp_coloring::dimacs::parse_dimacs;
//!
//! let parsed = parse_dimacs("p edge 3 4\ne 1 2\ne 2 1\ne 2 3\ne 3 3\n").unwrap();
//! assert_eq!(parsed.graph.edges(), &[(0, 1), (1, 2)]);
//! assert_eq!(parsed.warnings[0].to_string(), "line 5: self-loop on vertex 3 dropped");
//!
//! let err = parse_dimacs("p edge 3 1\ne 1 x4\n").unwrap_err();
//! assert_eq!(err.to_string(), "line 2, column 5: expected a vertex number, found \"x4\"");
//! ```

use std::fmt;

use crate::Graph;

/// The largest vertex count accepted (a guard against a problem line that would
/// make the model exhaust memory).
pub const MAX_VERTICES: u32 = 10_000_000;

/// A parsed DIMACS file: the graph and what was noticed along the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dimacs {
    /// The graph, with repeated edges merged and self-loops dropped.
    pub graph: Graph,
    /// The edge count `E` the problem line declares (not trusted).
    pub declared_edges: u64,
    /// The number of `e` lines, self-loops and repeats included.
    pub edge_lines: usize,
    /// Quirks that were tolerated, in file order.
    pub warnings: Vec<Warning>,
}

/// A quirk the parser tolerated.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// An edge from a vertex to itself, dropped.
    SelfLoop {
        /// The line of the edge, 1-based.
        line: usize,
        /// The vertex as written in the file (1-based).
        vertex: u32,
    },
    /// The problem line's edge count differs from the number of `e` lines.
    EdgeCountMismatch {
        /// The line of the problem line.
        line: usize,
        /// The count on the problem line.
        declared: u64,
        /// The number of `e` lines found.
        edge_lines: usize,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::SelfLoop { line, vertex } => {
                write!(f, "line {line}: self-loop on vertex {vertex} dropped")
            }
            Warning::EdgeCountMismatch {
                line,
                declared,
                edge_lines,
            } => write!(
                f,
                "line {line}: the problem line declares {declared} edges but the file has {edge_lines} edge lines"
            ),
        }
    }
}

/// A problem in a DIMACS file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The line, 1-based.
    pub line: usize,
    /// The column, 1-based in characters, when one place on the line is at fault.
    pub column: Option<usize>,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

/// What was wrong in a DIMACS file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A line that is not a comment, problem or edge line.
    UnknownLineType(String),
    /// The input ended without a problem line.
    MissingProblemLine,
    /// An edge line before the problem line.
    EdgeBeforeProblemLine,
    /// A second problem line.
    DuplicateProblemLine {
        /// The line of the first problem line.
        first: usize,
    },
    /// A problem line whose format is not `edge` (or `col`).
    UnsupportedFormat(String),
    /// A field that should be a number but is not.
    ExpectedNumber {
        /// What the number is (`a vertex number`, `the vertex count`, ...).
        what: &'static str,
        /// The text found.
        found: String,
    },
    /// A line that ends before a required field.
    MissingField {
        /// What was expected.
        what: &'static str,
    },
    /// Text after the last field of a line.
    UnexpectedText(String),
    /// A vertex count above [`MAX_VERTICES`].
    TooManyVertices(u32),
    /// A vertex outside `1..=V`.
    VertexOutOfRange {
        /// The vertex as written.
        vertex: u64,
        /// The vertex count `V` of the problem line.
        vertices: u32,
        /// The line of the problem line.
        problem_line: usize,
    },
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::UnknownLineType(t) => write!(
                f,
                "unknown line type {t:?} (expected 'c' comment, 'p' problem or 'e' edge)"
            ),
            ParseErrorKind::MissingProblemLine => {
                f.write_str("end of input without a problem line `p edge V E`")
            }
            ParseErrorKind::EdgeBeforeProblemLine => {
                f.write_str("edge line before the problem line `p edge V E`")
            }
            ParseErrorKind::DuplicateProblemLine { first } => {
                write!(f, "a second problem line (the first is on line {first})")
            }
            ParseErrorKind::UnsupportedFormat(t) => {
                write!(f, "unsupported problem format {t:?} (expected \"edge\")")
            }
            ParseErrorKind::ExpectedNumber { what, found } => {
                write!(f, "expected {what}, found {found:?}")
            }
            ParseErrorKind::MissingField { what } => {
                write!(f, "expected {what}, found end of line")
            }
            ParseErrorKind::UnexpectedText(t) => write!(f, "unexpected text {t:?}"),
            ParseErrorKind::TooManyVertices(n) => write!(
                f,
                "{n} vertices is more than the {MAX_VERTICES} supported"
            ),
            ParseErrorKind::VertexOutOfRange {
                vertex,
                vertices,
                problem_line,
            } => write!(
                f,
                "vertex {vertex} out of range: the problem line (line {problem_line}) declares vertices 1 to {vertices}"
            ),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "line {}, column {column}: {}", self.line, self.kind),
            None => write!(f, "line {}: {}", self.line, self.kind),
        }
    }
}

impl std::error::Error for ParseError {}

/// The whitespace-separated fields of a line, each with its 1-based column.
fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte offset, column)
    let mut column = 0;
    for (offset, c) in line.char_indices() {
        column += 1;
        if c.is_whitespace() {
            if let Some((s, col)) = start.take() {
                out.push((col, &line[s..offset]));
            }
        } else if start.is_none() {
            start = Some((offset, column));
        }
    }
    if let Some((s, col)) = start {
        out.push((col, &line[s..]));
    }
    out
}

/// Reads the fields of one line in order, producing errors that point at them.
struct Fields<'a> {
    line: usize,
    fields: std::vec::IntoIter<(usize, &'a str)>,
    end_column: usize,
}

impl<'a> Fields<'a> {
    fn error(&self, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            line: self.line,
            column: Some(column),
            kind,
        }
    }

    fn next(&mut self, what: &'static str) -> Result<(usize, &'a str), ParseError> {
        self.fields
            .next()
            .ok_or_else(|| self.error(self.end_column, ParseErrorKind::MissingField { what }))
    }

    fn number<T: std::str::FromStr>(
        &mut self,
        what: &'static str,
    ) -> Result<(usize, T), ParseError> {
        let (column, text) = self.next(what)?;
        let value = text
            .parse()
            .ok()
            .filter(|_| text.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| {
                self.error(
                    column,
                    ParseErrorKind::ExpectedNumber {
                        what,
                        found: text.to_string(),
                    },
                )
            })?;
        Ok((column, value))
    }

    fn end(&mut self) -> Result<(), ParseError> {
        match self.fields.next() {
            None => Ok(()),
            Some((column, text)) => {
                Err(self.error(column, ParseErrorKind::UnexpectedText(text.to_string())))
            }
        }
    }
}

/// Parses a DIMACS graph-coloring file.
///
/// # Errors
/// See the [module documentation](self): every error names its line, and its
/// column when one field is at fault.
pub fn parse_dimacs(text: &str) -> Result<Dimacs, ParseError> {
    // (line of the problem line, V, E)
    let mut problem: Option<(usize, u32, u64)> = None;
    let mut edges = Vec::new();
    let mut edge_lines = 0;
    let mut warnings = Vec::new();
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last_line = line;
        let found = fields(raw);
        let Some(&(column, kind)) = found.first() else {
            continue;
        };
        if kind.starts_with('c') {
            continue;
        }
        let mut f = Fields {
            line,
            fields: found.into_iter(),
            end_column: raw.chars().count() + 1,
        };
        f.next("a line type")?;
        match kind {
            "p" => {
                if let Some((first, _, _)) = problem {
                    return Err(f.error(column, ParseErrorKind::DuplicateProblemLine { first }));
                }
                let (format_column, format) = f.next("the format \"edge\"")?;
                if format != "edge" && format != "col" {
                    return Err(f.error(
                        format_column,
                        ParseErrorKind::UnsupportedFormat(format.to_string()),
                    ));
                }
                let (vertices_column, vertices) = f.number::<u32>("the vertex count")?;
                if vertices > MAX_VERTICES {
                    return Err(f.error(vertices_column, ParseErrorKind::TooManyVertices(vertices)));
                }
                let (_, declared) = f.number::<u64>("the edge count")?;
                f.end()?;
                problem = Some((line, vertices, declared));
            }
            "e" => {
                let Some((problem_line, vertices, _)) = problem else {
                    return Err(f.error(column, ParseErrorKind::EdgeBeforeProblemLine));
                };
                let mut ends = [0u32; 2];
                for end in &mut ends {
                    let (column, vertex) = f.number::<u64>("a vertex number")?;
                    if vertex == 0 || vertex > u64::from(vertices) {
                        return Err(f.error(
                            column,
                            ParseErrorKind::VertexOutOfRange {
                                vertex,
                                vertices,
                                problem_line,
                            },
                        ));
                    }
                    *end = vertex as u32;
                }
                f.end()?;
                edge_lines += 1;
                let [u, v] = ends;
                if u == v {
                    warnings.push(Warning::SelfLoop { line, vertex: u });
                } else {
                    edges.push((u - 1, v - 1));
                }
            }
            other => {
                return Err(f.error(column, ParseErrorKind::UnknownLineType(other.to_string())))
            }
        }
    }
    let Some((problem_line, vertices, declared_edges)) = problem else {
        return Err(ParseError {
            line: last_line.max(1),
            column: None,
            kind: ParseErrorKind::MissingProblemLine,
        });
    };
    if declared_edges != edge_lines as u64 {
        warnings.push(Warning::EdgeCountMismatch {
            line: problem_line,
            declared: declared_edges,
            edge_lines,
        });
    }
    let graph = Graph::new(vertices, edges).expect("vertices were range-checked, loops dropped");
    Ok(Dimacs {
        graph,
        declared_edges,
        edge_lines,
        warnings,
    })
}

/// Writes a graph in DIMACS format (`p edge V E` and one `e u v` line per edge, 1-based).
///
/// ```
/// use csp_coloring::{dimacs, Graph};
///
/// let g = Graph::new(3, [(0, 1), (1, 2)]).unwrap();
/// let text = dimacs::to_dimacs(&g);
/// assert_eq!(text, "p edge 3 2\ne 1 2\ne 2 3\n");
/// assert_eq!(dimacs::parse_dimacs(&text).unwrap().graph, g);
/// ```
pub fn to_dimacs(graph: &Graph) -> String {
    let mut out = format!("p edge {} {}\n", graph.vertices(), graph.edge_count());
    for &(u, v) in graph.edges() {
        out.push_str(&format!("e {} {}\n", u + 1, v + 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_dimacs(text).unwrap_err().to_string()
    }

    #[test]
    fn fields_have_character_columns() {
        assert_eq!(fields("  e 1\t22 "), vec![(3, "e"), (5, "1"), (7, "22")]);
        assert_eq!(fields("é x"), vec![(1, "é"), (3, "x")]);
        assert!(fields("   ").is_empty());
    }

    #[test]
    fn comments_blank_lines_repeats_and_loops() {
        let text =
            "c hello\n\n   c indented\np edge 4 6\ne 1 2\ne 2 1\ne 4 4\ne 3 4\r\ne 4 3\ne 4 4\n";
        let d = parse_dimacs(text).unwrap();
        assert_eq!(d.graph.vertices(), 4);
        assert_eq!(d.graph.edges(), &[(0, 1), (2, 3)]);
        assert_eq!(d.edge_lines, 6);
        assert_eq!(d.declared_edges, 6);
        let warnings: Vec<String> = d.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(
            warnings,
            [
                "line 7: self-loop on vertex 4 dropped",
                "line 10: self-loop on vertex 4 dropped"
            ]
        );
    }

    #[test]
    fn the_edge_count_is_not_trusted() {
        let d = parse_dimacs("p edge 3 5\ne 1 2\n").unwrap();
        assert_eq!(d.graph.edge_count(), 1);
        assert_eq!(
            d.warnings[0].to_string(),
            "line 1: the problem line declares 5 edges but the file has 1 edge lines"
        );
        let d = parse_dimacs("p col 3 0\n").unwrap();
        assert_eq!(d.graph.edge_count(), 0);
        assert!(d.warnings.is_empty());
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            err("c x\ne 1 2\np edge 2 1\n"),
            "line 2, column 1: edge line before the problem line `p edge V E`"
        );
        assert_eq!(
            err("p edge 2 1\ne 1 2\n p edge 2 1\n"),
            "line 3, column 2: a second problem line (the first is on line 1)"
        );
        assert_eq!(
            err("c only\nc comments\n"),
            "line 2: end of input without a problem line `p edge V E`"
        );
        assert_eq!(
            err(""),
            "line 1: end of input without a problem line `p edge V E`"
        );
        assert_eq!(
            err("p edge 11 1\ne 1 12\n"),
            "line 2, column 5: vertex 12 out of range: the problem line (line 1) declares vertices 1 to 11"
        );
        assert_eq!(
            err("p edge 11 1\ne 0 1\n"),
            "line 2, column 3: vertex 0 out of range: the problem line (line 1) declares vertices 1 to 11"
        );
        assert_eq!(
            err("p edge 3 1\ne 1\n"),
            "line 2, column 4: expected a vertex number, found end of line"
        );
        assert_eq!(
            err("p edge 3 1\ne 1 -2\n"),
            "line 2, column 5: expected a vertex number, found \"-2\""
        );
        assert_eq!(
            err("p edge 3 1\ne 1 +2\n"),
            "line 2, column 5: expected a vertex number, found \"+2\""
        );
        assert_eq!(
            err("p edge 3 1\ne 1 2 7\n"),
            "line 2, column 7: unexpected text \"7\""
        );
        assert_eq!(
            err("p edge three 1\n"),
            "line 1, column 8: expected the vertex count, found \"three\""
        );
        assert_eq!(
            err("p edge 99999999999 1\n"),
            "line 1, column 8: expected the vertex count, found \"99999999999\""
        );
        assert_eq!(
            err("p edge 4000000000 0\n"),
            "line 1, column 8: 4000000000 vertices is more than the 10000000 supported"
        );
        assert_eq!(
            err("p edge 3\n"),
            "line 1, column 9: expected the edge count, found end of line"
        );
        assert_eq!(
            err("p cnf 3 1\n"),
            "line 1, column 3: unsupported problem format \"cnf\" (expected \"edge\")"
        );
        assert_eq!(
            err("p edge 3 1\nx 1 2\n"),
            "line 2, column 1: unknown line type \"x\" (expected 'c' comment, 'p' problem or 'e' edge)"
        );
    }
}
