//! Optimal lengths from the engine, proven, against the known values; every
//! ruler checked independently.

use csp_core::Search;
use csp_golomb::{check, model, OPTIMAL};

#[test]
fn optimal_rulers_up_to_8_marks() {
    for n in 1..=8 {
        let g = model(n).unwrap();
        let r = Search::new(&g.model)
            .options(csp_golomb::options())
            .minimize(g.length)
            .unwrap();
        assert!(r.is_optimal(), "{n} marks: {r}");
        assert_eq!(r.objective, Some(OPTIMAL[n]), "{n} marks");
        let best = r.best.unwrap();
        let marks: Vec<i32> = g.marks.iter().map(|&x| best[x]).collect();
        check(&marks).unwrap();
        assert_eq!(marks[n - 1], OPTIMAL[n]);
    }
}

#[test]
fn the_checker_rejects_non_rulers() {
    assert!(check(&[0, 1, 4, 6]).is_ok());
    assert!(check(&[0, 1, 2]).is_err());
    assert!(check(&[0, 3, 2]).is_err());
    assert!(check(&[1, 3]).is_err());
    assert!(model(0).is_err() && model(41).is_err());
}
