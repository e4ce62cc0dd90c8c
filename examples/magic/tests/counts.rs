//! Counts from the engine, every solution checked independently.

use csp_core::{Inference, Search, SearchOptions};
use csp_magic::{check, model};

#[test]
fn order_3_has_8_squares_all_magic() {
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        let (m, cells) = model(3).unwrap();
        let opts = SearchOptions {
            inference,
            ..Default::default()
        };
        let mut n = 0;
        for s in Search::new(&m).options(opts).solutions().unwrap() {
            let sq: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
            check(3, &sq).unwrap();
            n += 1;
        }
        assert_eq!(n, 8);
    }
}

#[test]
fn order_4_has_7040_squares() {
    let (m, cells) = model(4).unwrap();
    let mut n = 0;
    for s in Search::new(&m)
        .options(csp_magic::options())
        .solutions()
        .unwrap()
    {
        let sq: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
        check(4, &sq).unwrap();
        n += 1;
    }
    assert_eq!(n, 7040);
}

#[test]
fn the_checker_rejects_what_is_not_magic() {
    assert!(check(3, &[2, 7, 6, 9, 5, 1, 4, 3, 8]).is_ok());
    assert!(check(3, &[2, 7, 6, 9, 5, 1, 3, 4, 8]).is_err()); // columns
    assert!(check(3, &[2, 7, 6, 9, 5, 1, 4, 3, 3]).is_err()); // repeat
    assert!(check(3, &[1; 8]).is_err());
    assert!(model(0).is_err() && model(101).is_err());
}
