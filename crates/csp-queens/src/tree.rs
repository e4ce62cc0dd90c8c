//! The search tree of a trace as data: Graphviz DOT (choice, failure and
//! solution nodes drawn distinctly, as Gist and CP-Profiler draw them) or
//! JSON for other tools.
//!
//! The input is the lines of a [`Tracer`](crate::trace::Tracer): every node
//! in the order the search met it, each with its depth; `backtrack` lines
//! (a return to a node already shown) are not nodes. A node's parent is the
//! last node met one level up.

use std::fmt::Write as _;

use crate::trace::{Mark, TraceLine};

/// A node of the tree: its parent, depth, placement and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The parent's index in the node list (`None` for the root).
    pub parent: Option<usize>,
    /// Depth (0 = the empty board).
    pub depth: usize,
    /// Column per row, 1-based, `None` where no queen is placed.
    pub placement: Vec<Option<u32>>,
    /// `"choice"`, `"failure"` or `"solution"`.
    pub kind: &'static str,
}

/// The nodes of the tree, in the order the search met them.
pub fn nodes(lines: &[TraceLine]) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::new();
    // `last[d]`: the index of the last node met at depth d.
    let mut last: Vec<usize> = Vec::new();
    for l in lines.iter().filter(|l| l.mark != Mark::Backtrack) {
        let parent = l.depth.checked_sub(1).and_then(|d| last.get(d).copied());
        let kind = match l.mark {
            Mark::Failed => "failure",
            Mark::Solution => "solution",
            _ => "choice",
        };
        last.truncate(l.depth);
        last.push(out.len());
        out.push(Node {
            parent,
            depth: l.depth,
            placement: l.placement.clone(),
            kind,
        });
    }
    out
}

fn label(p: &[Option<u32>]) -> String {
    let cells: Vec<String> = p
        .iter()
        .map(|c| c.map_or("*".to_string(), |c| c.to_string()))
        .collect();
    format!("({})", cells.join(" "))
}

/// The tree as a Graphviz digraph: choices are blue circles, failures red
/// squares, solutions green diamonds (`dot -Tsvg tree.dot > tree.svg`).
pub fn to_dot(lines: &[TraceLine]) -> String {
    let mut s = String::from("digraph search {\n  node [fontname=\"monospace\", style=filled];\n");
    for (i, n) in nodes(lines).iter().enumerate() {
        let (shape, color) = match n.kind {
            "failure" => ("box", "#e06666"),
            "solution" => ("diamond", "#93c47d"),
            _ => ("circle", "#9fc5e8"),
        };
        let _ = writeln!(
            s,
            "  n{i} [label=\"{}\", shape={shape}, fillcolor=\"{color}\"];",
            label(&n.placement)
        );
        if let Some(p) = n.parent {
            let _ = writeln!(s, "  n{p} -> n{i};");
        }
    }
    s.push_str("}\n");
    s
}

/// The tree as JSON: `{"nodes": [{"id", "parent", "depth", "placement",
/// "kind"}, …]}` with `placement` 1-based columns or `null`.
pub fn to_json(lines: &[TraceLine]) -> String {
    let mut s = String::from("{\"nodes\":[");
    for (i, n) in nodes(lines).iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let parent = n.parent.map_or("null".to_string(), |p| p.to_string());
        let cells: Vec<String> = n
            .placement
            .iter()
            .map(|c| c.map_or("null".to_string(), |c| c.to_string()))
            .collect();
        let _ = write!(
            s,
            "{{\"id\":{i},\"parent\":{parent},\"depth\":{},\"placement\":[{}],\"kind\":\"{}\"}}",
            n.depth,
            cells.join(","),
            n.kind
        );
    }
    s.push_str("]}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(depth: usize, p: &[Option<u32>], mark: Mark) -> TraceLine {
        TraceLine {
            depth,
            placement: p.to_vec(),
            mark,
        }
    }

    #[test]
    fn parents_follow_depth_and_backtracks_are_not_nodes() {
        let lines = [
            line(0, &[None, None], Mark::None),
            line(1, &[Some(1), None], Mark::None),
            line(2, &[Some(1), Some(2)], Mark::Failed),
            line(0, &[None, None], Mark::Backtrack),
            line(1, &[Some(2), None], Mark::None),
            line(2, &[Some(2), Some(1)], Mark::Solution),
        ];
        let n = nodes(&lines);
        let parents: Vec<Option<usize>> = n.iter().map(|x| x.parent).collect();
        assert_eq!(parents, [None, Some(0), Some(1), Some(0), Some(3)]);
        let kinds: Vec<&str> = n.iter().map(|x| x.kind).collect();
        assert_eq!(kinds, ["choice", "choice", "failure", "choice", "solution"]);
        let dot = to_dot(&lines);
        assert!(dot.contains("n3 -> n4;") && dot.contains("shape=diamond"));
        let json = to_json(&lines);
        assert!(json.starts_with("{\"nodes\":[{\"id\":0,\"parent\":null,\"depth\":0,\"placement\":[null,null],\"kind\":\"choice\"}"));
    }
}
