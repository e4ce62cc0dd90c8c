//! The bundled DIMACS files parse to the vertex and edge counts in `KNOWN.tsv`,
//! with the documented quirks reported as warnings.

use csp_coloring::dimacs::{parse_dimacs, Dimacs, Warning};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The rows of KNOWN.tsv for the files we ship: (file, vertices, edges, p count,
/// e lines, self-loop lines, chromatic number).
fn known() -> Vec<(String, u32, usize, u64, usize, usize, u32)> {
    let text = data("KNOWN.tsv");
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
                f[5].parse().unwrap(),
                f[6].parse().unwrap(),
            )
        })
        .filter(|row| {
            std::path::Path::new(&format!(
                "{}/tests/data/{}",
                env!("CARGO_MANIFEST_DIR"),
                row.0
            ))
            .exists()
        })
        .collect()
}

fn load(name: &str) -> Dimacs {
    parse_dimacs(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_shipped_file_matches_known_tsv() {
    let rows = known();
    assert_eq!(
        rows.len(),
        6,
        "myciel3, myciel4, queen5_5, anna, homer, DSJC125.1"
    );
    for (file, vertices, edges, p_edges, e_lines, loops, _chi) in rows {
        let d = load(&file);
        assert_eq!(d.graph.vertices(), vertices, "{file}");
        assert_eq!(d.graph.edge_count(), edges, "{file}");
        assert_eq!(d.declared_edges, p_edges, "{file}");
        assert_eq!(d.edge_lines, e_lines, "{file}");
        let self_loops = d
            .warnings
            .iter()
            .filter(|w| matches!(w, Warning::SelfLoop { .. }))
            .count();
        assert_eq!(self_loops, loops, "{file}");
        let mismatch = d
            .warnings
            .iter()
            .any(|w| matches!(w, Warning::EdgeCountMismatch { .. }));
        assert_eq!(mismatch, p_edges != e_lines as u64, "{file}");
    }
}

#[test]
fn homer_self_loops_are_reported_with_their_lines() {
    let d = load("homer.col");
    let loops: Vec<String> = d.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        loops,
        [
            "line 510: self-loop on vertex 95 dropped",
            "line 511: self-loop on vertex 95 dropped"
        ]
    );
}

#[test]
fn dsjc_wrong_edge_count_is_a_warning() {
    let d = load("DSJC125.1.col");
    let text: Vec<String> = d.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(text.len(), 1);
    assert!(
        text[0].ends_with("declares 1472 edges but the file has 736 edge lines"),
        "{}",
        text[0]
    );
}

#[test]
fn truncating_the_vertex_count_is_an_error_at_the_first_bad_edge() {
    let text = data("myciel3.col").replace("p edge 11 20", "p edge 10 20");
    let err = parse_dimacs(&text).unwrap_err();
    assert!(err.to_string().contains("vertex 11 out of range"), "{err}");
    assert_eq!(
        err.line,
        text.lines().position(|l| l.contains(" 11")).unwrap() + 1
    );
}
