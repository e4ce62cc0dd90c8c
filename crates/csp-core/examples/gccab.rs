//! Temporary A/B driver (not committed).
use csp_core::{Domain, Inference, Model, Search, VarOrder};
fn main() {
    let reps: usize = std::env::args().nth(1).map_or(1, |a| a.parse().unwrap());
    let mut m = Model::new();
    let x = m.new_vars(8, Domain::range(0, 3)).unwrap();
    let k = m.new_vars(4, Domain::range(1, 3)).unwrap();
    m.global_cardinality(&x, &[0, 1, 2, 3], &k).unwrap();
    for _ in 0..reps {
        let t = std::time::Instant::now();
        let r = Search::new(&m)
            .inference(Inference::Mac)
            .var_order(VarOrder::Mrv)
            .count();
        let s = r.stats;
        println!(
            "count {} nodes {} failures {} propagations {} time {:?}",
            r.count,
            s.nodes,
            s.failures,
            s.propagations,
            t.elapsed()
        );
    }
}
