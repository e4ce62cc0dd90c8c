//! The `serde` feature: search results serialise (issue 31). Run with
//! `cargo test -p csp-core --features serde --test serde`.
#![cfg(feature = "serde")]

use csp_core::{Domain, Model, Search};

#[test]
fn results_serialise_to_json() {
    let mut m = Model::new();
    let xs = m.new_vars_named("x", [3], Domain::range(1, 3)).unwrap();
    m.all_different(&xs).unwrap();
    let r = Search::new(&m).solve().unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["outcome"], "Solved");
    assert_eq!(v["solution"]["values"], serde_json::json!([1, 2, 3]));
    assert_eq!(v["stats"]["solutions"], 1);
    let c = Search::new(&m).node_limit(2).count().unwrap();
    let v = serde_json::to_value(&c).unwrap();
    assert_eq!(v["outcome"], serde_json::json!({"LimitReached": "Nodes"}));
    let o = Search::new(&m).minimize(xs[0]).unwrap();
    let v = serde_json::to_value(&o).unwrap();
    assert_eq!(v["objective"], 1);
    assert_eq!(v["bound"], 1);
    assert_eq!(v["proven"], true);
    assert_eq!(v["improvements"][0]["objective"], 1);
}
