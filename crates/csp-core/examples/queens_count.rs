//! Counts N-queens solutions with the generic engine (three all-different over
//! offsets, forward checking, rows in order): `cargo run --release -p csp-core --example queens_count -- 12`.
use csp_core::{Domain, Inference, Model, Search, ValOrder, VarOrder};
use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(12);
    let threads: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let mut m = Model::new();
    let q = m
        .new_vars(n, Domain::range(0, n as i32 - 1))
        .expect("domain");
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = up.iter().map(|i| -i).collect();
    m.all_different(&q).expect("post");
    m.all_different_offset(&q, &up).expect("post");
    m.all_different_offset(&q, &down).expect("post");
    let t = Instant::now();
    let s = Search::new(&m)
        .inference(Inference::ForwardChecking)
        .var_order(VarOrder::Input)
        .val_order(ValOrder::Ascending);
    let r = if threads == 0 {
        s.count()
    } else {
        s.par_count(threads)
    };
    println!(
        "{n} {} {:.4}s\n{}",
        r.count,
        t.elapsed().as_secs_f64(),
        r.stats
    );
}
