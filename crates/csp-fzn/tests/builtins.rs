//! Every FlatZinc builtin and native global, checked against brute force:
//! a one-constraint FlatZinc model over small domains is built and solved
//! by csp (all solutions, projected on the declared variables), and the
//! set of solutions must equal the assignments that an independent Rust
//! statement of the builtin's meaning accepts.

use std::collections::BTreeSet;

use csp_core::{Inference, Search, SearchOptions};
use csp_fzn::{build, parse, Val};

/// A declared variable: name and range (Booleans are `0..1` and written `var bool`).
struct V(&'static str, i64, i64, bool);

fn int(name: &'static str, lo: i64, hi: i64) -> V {
    V(name, lo, hi, false)
}

fn boolean(name: &'static str) -> V {
    V(name, 0, 1, true)
}

type Pred<'a> = dyn Fn(&[i64]) -> bool + 'a;

/// Solutions csp finds for `constraint` over `vars`, under `inference`.
fn engine(vars: &[V], constraint: &str, inference: Inference) -> BTreeSet<Vec<i64>> {
    let mut text = String::new();
    for v in vars {
        if v.3 {
            text.push_str(&format!("var bool: {} :: output_var;\n", v.0));
        } else {
            text.push_str(&format!("var {}..{}: {} :: output_var;\n", v.1, v.2, v.0));
        }
    }
    text.push_str(&format!("constraint {constraint};\nsolve satisfy;\n"));
    let items = parse(&text).unwrap_or_else(|e| panic!("{constraint}: {e}"));
    let fzn = build(&items).unwrap_or_else(|e| panic!("{constraint}: {e}"));
    if fzn.inconsistent {
        return BTreeSet::new();
    }
    let xs = lookup_all(&fzn, vars);
    let opts = SearchOptions {
        inference,
        ..SearchOptions::default()
    };
    let mut out = BTreeSet::new();
    for s in Search::new(&fzn.model).options(opts).solutions().unwrap() {
        out.insert(xs.iter().map(|&x| s[x] as i64).collect());
    }
    out
}

/// Every assignment of `vars` that `pred` accepts.
fn brute(vars: &[V], pred: &Pred<'_>) -> BTreeSet<Vec<i64>> {
    let mut out = BTreeSet::new();
    let mut cur: Vec<i64> = vars.iter().map(|v| v.1).collect();
    loop {
        if pred(&cur) {
            out.insert(cur.clone());
        }
        let mut i = 0;
        loop {
            if i == vars.len() {
                return out;
            }
            if cur[i] < vars[i].2 {
                cur[i] += 1;
                break;
            }
            cur[i] = vars[i].1;
            i += 1;
        }
    }
}

fn check(vars: &[V], constraint: &str, pred: &Pred<'_>) {
    let want = brute(vars, pred);
    for inf in [Inference::ForwardChecking, Inference::Mac] {
        let got = engine(vars, constraint, inf);
        assert_eq!(
            got,
            want,
            "{constraint} under {inf:?}: csp found {} solutions, brute force {}",
            got.len(),
            want.len()
        );
    }
}

fn xyz() -> Vec<V> {
    vec![int("x", -2, 2), int("y", -2, 2), int("z", -3, 3)]
}

fn xyb() -> Vec<V> {
    vec![int("x", -2, 2), int("y", -2, 2), boolean("b")]
}

#[test]
fn integer_relations_plain_reified_and_half_reified() {
    type Rel = fn(i64, i64) -> bool;
    let rels: [(&str, Rel); 4] = [
        ("eq", |a, b| a == b),
        ("ne", |a, b| a != b),
        ("le", |a, b| a <= b),
        ("lt", |a, b| a < b),
    ];
    for (name, f) in rels {
        let two = [int("x", -2, 2), int("y", -2, 2)];
        check(&two, &format!("int_{name}(x, y)"), &|v| f(v[0], v[1]));
        check(&two, &format!("int_{name}(x, 1)"), &|v| f(v[0], 1));
        check(&two, &format!("int_{name}(-1, y)"), &|v| f(-1, v[1]));
        check(&xyb(), &format!("int_{name}_reif(x, y, b)"), &|v| {
            f(v[0], v[1]) == (v[2] == 1)
        });
        check(&xyb(), &format!("int_{name}_imp(x, y, b)"), &|v| {
            v[2] == 0 || f(v[0], v[1])
        });
        check(&xyb(), &format!("int_{name}_reif(x, 0, b)"), &|v| {
            f(v[0], 0) == (v[2] == 1)
        });
        check(&xyb(), &format!("int_{name}_reif(x, y, true)"), &|v| {
            f(v[0], v[1])
        });
        check(&xyb(), &format!("int_{name}_reif(x, y, false)"), &|v| {
            !f(v[0], v[1])
        });
        check(&xyb(), &format!("bool_{name}_reif(b, true, b)"), &|v| {
            f(v[2], 1) == (v[2] == 1)
        });
    }
}

#[test]
fn linear_relations() {
    let lin = |v: &[i64]| 2 * v[0] - 3 * v[1] + v[2];
    check(&xyz(), "int_lin_eq([2, -3, 1], [x, y, z], 1)", &|v| {
        lin(v) == 1
    });
    check(&xyz(), "int_lin_le([2, -3, 1], [x, y, z], -2)", &|v| {
        lin(v) <= -2
    });
    check(&xyz(), "int_lin_ne([2, -3, 1], [x, y, z], 0)", &|v| {
        lin(v) != 0
    });
    check(&xyz(), "int_lin_lt([2, -3, 1], [x, y, z], 0)", &|v| {
        lin(v) < 0
    });
    check(&xyz(), "int_lin_eq([1, 1, 1], [x, x, 3], 1)", &|v| {
        2 * v[0] + 3 == 1
    });
    check(&xyz(), "int_lin_le([3], [z], 4)", &|v| 3 * v[2] <= 4);
    check(&xyz(), "int_lin_le([-3], [z], 4)", &|v| -3 * v[2] <= 4);
    check(&xyz(), "int_lin_eq([2], [z], 3)", &|_| false);
    let vs = vec![int("x", -2, 2), int("y", -2, 2), boolean("b")];
    for (name, f) in [
        ("eq", (|a, b| a == b) as fn(i64, i64) -> bool),
        ("le", |a, b| a <= b),
        ("ne", |a, b| a != b),
    ] {
        check(
            &vs,
            &format!("int_lin_{name}_reif([1, 2], [x, y], 1, b)"),
            &|v| f(v[0] + 2 * v[1], 1) == (v[2] == 1),
        );
        check(
            &vs,
            &format!("int_lin_{name}_imp([1, 2], [x, y], 1, b)"),
            &|v| v[2] == 0 || f(v[0] + 2 * v[1], 1),
        );
    }
    let bs = vec![boolean("a"), boolean("b"), boolean("c")];
    check(&bs, "bool_lin_eq([1, 2, 1], [a, b, c], 2)", &|v| {
        v[0] + 2 * v[1] + v[2] == 2
    });
    check(&bs, "bool_lin_le([1, 2, 1], [a, b, c], 1)", &|v| {
        v[0] + 2 * v[1] + v[2] <= 1
    });
}

#[test]
fn arithmetic() {
    check(&xyz(), "int_plus(x, y, z)", &|v| v[0] + v[1] == v[2]);
    check(&xyz(), "int_minus(x, y, z)", &|v| v[0] - v[1] == v[2]);
    check(&xyz(), "int_times(x, y, z)", &|v| v[0] * v[1] == v[2]);
    check(&xyz(), "int_times(x, x, z)", &|v| v[0] * v[0] == v[2]);
    // Division and remainder truncate toward zero; y = 0 has no solution.
    check(&xyz(), "int_div(x, y, z)", &|v| {
        v[1] != 0 && v[0] / v[1] == v[2]
    });
    check(&xyz(), "int_mod(x, y, z)", &|v| {
        v[1] != 0 && v[0] % v[1] == v[2]
    });
    check(&xyz(), "int_abs(x, z)", &|v| v[0].abs() == v[2]);
    check(&xyz(), "int_min(x, y, z)", &|v| v[0].min(v[1]) == v[2]);
    check(&xyz(), "int_max(x, y, z)", &|v| v[0].max(v[1]) == v[2]);
    check(&xyz(), "int_pow(x, 2, z)", &|v| v[0] * v[0] == v[2]);
    check(&xyz(), "int_pow(x, 3, z)", &|v| v[0].pow(3) == v[2]);
    check(&xyz(), "array_int_maximum(z, [x, y, 1])", &|v| {
        v[0].max(v[1]).max(1) == v[2]
    });
    check(&xyz(), "array_int_minimum(z, [x, y, 1])", &|v| {
        v[0].min(v[1]).min(1) == v[2]
    });
}

#[test]
fn element() {
    let vs = vec![
        int("i", 0, 4),
        int("x", -1, 2),
        int("y", -1, 2),
        int("r", -1, 4),
    ];
    check(&vs, "array_int_element(i, [3, 1, 4], r)", &|v| {
        (1..=3).contains(&v[0]) && [3, 1, 4][(v[0] - 1) as usize] == v[3]
    });
    check(&vs, "array_var_int_element(i, [x, y, 2], r)", &|v| {
        (1..=3).contains(&v[0]) && [v[1], v[2], 2][(v[0] - 1) as usize] == v[3]
    });
    check(&vs, "array_var_int_element(i, [x, x, r], r)", &|v| {
        (1..=3).contains(&v[0]) && [v[1], v[1], v[3]][(v[0] - 1) as usize] == v[3]
    });
    let bs = vec![int("i", 1, 3), boolean("a"), boolean("r")];
    check(&bs, "array_bool_element(i, [true, false, true], r)", &|v| {
        [1, 0, 1][(v[0] - 1) as usize] == v[2]
    });
    check(
        &bs,
        "array_var_bool_element(i, [a, false, true], r)",
        &|v| [v[1], 0, 1][(v[0] - 1) as usize] == v[2],
    );
}

#[test]
fn booleans() {
    let bs = vec![boolean("a"), boolean("b"), boolean("r")];
    check(&bs, "bool_and(a, b, r)", &|v| (v[0] & v[1]) == v[2]);
    check(&bs, "bool_or(a, b, r)", &|v| (v[0] | v[1]) == v[2]);
    check(&bs, "bool_xor(a, b, r)", &|v| (v[0] ^ v[1]) == v[2]);
    check(&bs, "bool_xor(a, b)", &|v| v[0] != v[1]);
    check(&bs, "bool_xor_reif(a, b, r)", &|v| {
        (v[0] != v[1]) == (v[2] == 1)
    });
    check(&bs, "bool_and_imp(a, b, r)", &|v| {
        v[2] == 0 || (v[0] & v[1]) == 1
    });
    check(&bs, "bool_or_imp(a, b, r)", &|v| {
        v[2] == 0 || (v[0] | v[1]) == 1
    });
    check(&bs, "bool_not(a, b)", &|v| v[0] != v[1]);
    check(&bs, "bool_eq(a, b)", &|v| v[0] == v[1]);
    check(&bs, "bool_le(a, b)", &|v| v[0] <= v[1]);
    check(&bs, "bool_lt(a, b)", &|v| v[0] < v[1]);
    check(&bs, "bool_clause([a, b], [r])", &|v| {
        v[0] == 1 || v[1] == 1 || v[2] == 0
    });
    check(&bs, "bool_clause([a, true], [])", &|_| true);
    check(&bs, "bool_clause([a, false], [true])", &|v| v[0] == 1);
    check(&bs, "bool_clause([a, a], [a])", &|_| true);
    check(&bs, "bool_clause_reif([a], [b], r)", &|v| {
        (v[0] == 1 || v[1] == 0) == (v[2] == 1)
    });
    check(&bs, "array_bool_and([a, b, true], r)", &|v| {
        (v[0] & v[1]) == v[2]
    });
    check(&bs, "array_bool_or([a, b, false], r)", &|v| {
        (v[0] | v[1]) == v[2]
    });
    check(&bs, "array_bool_xor([a, b, r])", &|v| {
        (v[0] ^ v[1] ^ v[2]) == 1
    });
    check(&bs, "array_bool_and_imp([a, b], r)", &|v| {
        v[2] == 0 || (v[0] & v[1]) == 1
    });
    check(&bs, "array_bool_or_imp([a, b], r)", &|v| {
        v[2] == 0 || (v[0] | v[1]) == 1
    });
    let ib = vec![boolean("a"), int("x", -1, 2)];
    check(&ib, "bool2int(a, x)", &|v| v[0] == v[1]);
}

#[test]
fn set_membership() {
    check(&xyb(), "set_in(x, {-2, 0, 2})", &|v| {
        [-2, 0, 2].contains(&v[0])
    });
    check(&xyb(), "set_in(x, 5..9)", &|_| false);
    check(&xyb(), "set_in_reif(x, -1..1, b)", &|v| {
        (-1..=1).contains(&v[0]) == (v[2] == 1)
    });
    check(&xyb(), "set_in_imp(y, {1}, b)", &|v| v[2] == 0 || v[1] == 1);
}

fn distinct(v: &[i64]) -> bool {
    let s: BTreeSet<_> = v.iter().collect();
    s.len() == v.len()
}

#[test]
fn globals() {
    let three = vec![int("x", 1, 3), int("y", 0, 3), int("z", 1, 4)];
    check(&three, "fzn_all_different_int([x, y, z])", &distinct);
    check(&three, "fzn_all_different_int([x, y, z, 2])", &|v| {
        distinct(&[v[0], v[1], v[2], 2])
    });
    check(&three, "fzn_all_different_int([x, x, z])", &|_| false);
    check(
        &three,
        "fzn_all_different_int([x, y, z]) :: domain",
        &distinct,
    );
    check(&three, "fzn_alldifferent_except_0([x, y, z, 0, 0])", &|v| {
        let nz: Vec<i64> = v.iter().copied().filter(|&a| a != 0).collect();
        distinct(&nz)
    });
    check(
        &three,
        "csp_table_int([x, y, z], [1, 0, 4, 2, 2, 2, 3, 3, 1])",
        &|v| [[1, 0, 4], [2, 2, 2], [3, 3, 1]].contains(&[v[0], v[1], v[2]]),
    );
    check(&three, "fzn_increasing_int([x, y, z])", &|v| {
        v[0] <= v[1] && v[1] <= v[2]
    });
    check(&three, "fzn_lex_less_int([x, y], [z, 2])", &|v| {
        [v[0], v[1]] < [v[2], 2]
    });
    check(&three, "fzn_lex_lesseq_int([x, y], [z, 2])", &|v| {
        [v[0], v[1]] <= [v[2], 2]
    });
    check(&three, "fzn_nvalue(z, [x, y, 1])", &|v| {
        let s: BTreeSet<_> = [v[0], v[1], 1].into_iter().collect();
        s.len() as i64 == v[2]
    });
    check(&three, "fzn_among(z, [x, y, 1], {1, 3})", &|v| {
        [v[0], v[1], 1]
            .iter()
            .filter(|a| [1, 3].contains(*a))
            .count() as i64
            == v[2]
    });
    check(&three, "fzn_count_eq([x, y, 1], 1, z)", &|v| {
        [v[0], v[1], 1].iter().filter(|&&a| a == 1).count() as i64 == v[2]
    });
    check(&three, "fzn_count_eq([x, y, 1, 3], z, 2)", &|v| {
        [v[0], v[1], 1, 3].iter().filter(|&&a| a == v[2]).count() == 2
    });
    let gcc = vec![
        int("x", 1, 3),
        int("y", 1, 3),
        int("c", 0, 3),
        int("d", 0, 3),
    ];
    check(
        &gcc,
        "fzn_global_cardinality([x, y, 1, 1], [1, 2], [c, d])",
        &|v| {
            let a = [v[0], v[1], 1, 1];
            a.iter().filter(|&&e| e == 1).count() as i64 == v[2]
                && a.iter().filter(|&&e| e == 2).count() as i64 == v[3]
        },
    );
    // Values 1, 2, ... in order of first use, none below 1.
    check(&three, "csp_value_precede_chain(1, [x, y, z])", &|v| {
        let mut max = 0;
        v.iter().all(|&a| {
            let ok = a >= 1 && a <= max + 1;
            max = max.max(a);
            ok
        })
    });
    // value_precede(s, t, x): every t has an s before it.
    for (s, t) in [(1, 2), (3, 0), (2, 2)] {
        check(
            &three,
            &format!("csp_value_precede({s}, {t}, [x, y, z, x])"),
            &|v| {
                let seq = [v[0], v[1], v[2], v[0]];
                let mut seen = false;
                seq.iter().all(|&a| {
                    let ok = a != t || (seen && s != t);
                    seen |= a == s;
                    ok
                })
            },
        );
    }
    // disjunctive: tasks at x, y, z lasting 2, 0 and 1 never overlap (the
    // task of length 0 may go anywhere); a constant start takes part too.
    let sched = vec![int("x", 0, 4), int("y", 0, 3), int("z", 1, 5)];
    let apart = |a: i64, da: i64, b: i64, db: i64| da == 0 || db == 0 || a + da <= b || b + db <= a;
    check(&sched, "csp_disjunctive([x, y, z], [2, 0, 1])", &|v| {
        apart(v[0], 2, v[2], 1)
    });
    check(
        &sched,
        "csp_disjunctive([x, y, z, 2], [2, 1, 1, 1])",
        &|v| {
            let t = [(v[0], 2), (v[1], 1), (v[2], 1), (2, 1)];
            (0..4).all(|i| (i + 1..4).all(|j| apart(t[i].0, t[i].1, t[j].0, t[j].1)))
        },
    );
    // Words over {1, 2} with no two 2s in a row, of length 4:
    // states 1 = "last was not 2", 2 = "last was 2" (0 = failure).
    let word = vec![
        int("a", 0, 3),
        int("b", 1, 2),
        int("c", 1, 2),
        int("d", 1, 2),
    ];
    check(
        &word,
        "csp_regular([a, b, c, d], 2, 2, [1, 2, 1, 0], 1, {1, 2})",
        &|v| (1..=2).contains(&v[0]) && v.windows(2).all(|w| !(w[0] == 2 && w[1] == 2)),
    );
}

/// The successor lists numbered from `base` that form one circuit over
/// every node (`sub`: over the nodes not pointing at themselves, or none).
fn is_circuit(succ: &[i64], base: i64, sub: bool) -> bool {
    let n = succ.len() as i64;
    if succ.iter().any(|&s| s < base || s >= base + n) {
        return false;
    }
    let moving: Vec<usize> = (0..succ.len())
        .filter(|&i| succ[i] - base != i as i64)
        .collect();
    if !sub && moving.len() != succ.len() {
        return false;
    }
    let Some(&start) = moving.first() else {
        return true;
    };
    let (mut at, mut len) = (start, 0);
    loop {
        at = (succ[at] - base) as usize;
        len += 1;
        if at == start || len > moving.len() {
            break;
        }
    }
    at == start && len == moving.len()
}

#[test]
fn circuits_and_inverse() {
    let four = vec![
        int("a", 0, 5),
        int("b", 0, 5),
        int("c", 0, 5),
        int("d", 0, 5),
    ];
    for base in [0, 1, 2] {
        check(&four, &format!("csp_circuit([a, b, c, d], {base})"), &|v| {
            is_circuit(v, base, false)
        });
        check(
            &four,
            &format!("csp_subcircuit([a, b, c, d], {base})"),
            &|v| is_circuit(v, base, true),
        );
    }
    // f over 1..2 indexes g (numbered from 1); g's values index f (from 1).
    let fg = vec![
        int("f1", 0, 3),
        int("f2", 0, 3),
        int("g1", 0, 3),
        int("g2", 0, 3),
    ];
    check(&fg, "csp_inverse([f1, f2], 1, [g1, g2], 1)", &|v| {
        let (f, g) = ([v[0], v[1]], [v[2], v[3]]);
        f.iter().all(|&x| (1..=2).contains(&x))
            && g.iter().all(|&x| (1..=2).contains(&x))
            && (0..2).all(|i| g[(f[i] - 1) as usize] == i as i64 + 1)
    });
    check(&fg, "csp_inverse([f1, f2], 0, [g1, g2], 2)", &|v| {
        let (f, g) = ([v[0], v[1]], [v[2], v[3]]);
        f.iter().all(|&x| (2..=3).contains(&x))
            && g.iter().all(|&x| (0..=1).contains(&x))
            && (0..2).all(|i| g[(f[i] - 2) as usize] == i as i64)
    });
}

#[test]
fn errors_name_the_builtin_and_its_position() {
    let text =
        "var 1..3: x;\nconstraint int_le(x, 2);\nconstraint int_frob(x, 2);\nsolve satisfy;\n";
    let e = build(&parse(text).unwrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "3:1: int_frob: unsupported constraint (not a FlatZinc builtin csp knows)"
    );
    let e =
        build(&parse("var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;").unwrap()).unwrap_err();
    assert_eq!(e.to_string(), "2:1: int_le: expects 2 arguments, found 1");
    let e = build(&parse("var 1..3: x;\nconstraint int_le(x, q);\nsolve satisfy;").unwrap())
        .unwrap_err();
    assert_eq!(e.to_string(), "2:22: unknown name 'q'");
    let e = build(&parse("var float: f;\nsolve satisfy;").unwrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "1:1: 'f': float variables are not supported by csp"
    );
    let e = build(&parse("var set of 1..3: s;\nsolve satisfy;").unwrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "1:1: 's': set variables are not supported by csp"
    );
    let e = build(&parse("var 1..3: x;\nconstraint float_le(1.0, 2.0);\nsolve satisfy;").unwrap())
        .unwrap_err();
    assert!(e.to_string().starts_with("2:1: float_le: float"), "{e}");
    let e = build(&parse("var 1..3: x;\n").unwrap()).unwrap_err();
    assert!(e.to_string().contains("no solve item"), "{e}");
    let e = build(&parse("var 1..9999999999: x;\nsolve satisfy;").unwrap()).unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
}

/// The natives of issue 29: `csp_cumulative`, `csp_bin_packing` and
/// `csp_bin_packing_load` (bins numbered from the given first one).
#[test]
fn cumulative_and_bin_packing() {
    // Tasks at x, y, z lasting 2, 0, 1 with demands 2, 3, 1 on a
    // resource of 2, and a constant task at 2 lasting 1 with demand 1.
    let sched = vec![int("x", 0, 4), int("y", 0, 3), int("z", 1, 5)];
    check(
        &sched,
        "csp_cumulative([x, y, z, 2], [2, 0, 1, 1], [2, 3, 1, 1], 2)",
        &|v| {
            let t = [(v[0], 2, 2), (v[1], 0, 3), (v[2], 1, 1), (2, 1, 1)];
            t.iter().all(|&(at, _, _)| {
                let load: i64 = t
                    .iter()
                    .filter(|&&(s, d, _)| s <= at && at < s + d)
                    .map(|e| e.2)
                    .sum();
                load <= 2
            })
        },
    );
    // The same with variable durations, demands and capacity (a constant
    // among them): x lasts d, y demands q, on a capacity c; negative
    // values are not solutions.
    let vars = vec![
        int("x", 0, 2),
        int("y", 0, 2),
        int("d", -1, 2),
        int("q", -1, 3),
        int("c", -1, 2),
    ];
    check(
        &vars,
        "csp_cumulative_var([x, y, 1], [d, 2, 1], [1, q, 1], c)",
        &|v| {
            let t = [(v[0], v[2], 1), (v[1], 2, v[3]), (1, 1, 1)];
            v[2] >= 0
                && v[3] >= 0
                && v[4] >= 0
                && t.iter().all(|&(at, d, r)| {
                    let load: i64 = t
                        .iter()
                        .filter(|&&(s, d, r)| r > 0 && s <= at && at < s + d)
                        .map(|e| e.2)
                        .sum();
                    d <= 0 || r <= 0 || load <= v[4]
                })
        },
    );
    // Items of sizes 2, 1, 2 into bins of capacity 3 (any value a bin).
    check(&sched, "csp_bin_packing(3, [x, y, z], [2, 1, 2])", &|v| {
        v[0] != v[2]
    });
    // Loads of bins 1 and 2: x, y, z in {1, 2} with sizes 1, 2, 3.
    let packed = vec![
        int("x", 0, 3),
        int("y", 1, 2),
        int("z", 1, 3),
        int("a", 0, 6),
        int("b", 0, 6),
    ];
    check(
        &packed,
        "csp_bin_packing_load([a, b], [x, y, z], [1, 2, 3], 1)",
        &|v| {
            let load =
                |b: i64| -> i64 { (0..3).filter(|&i| v[i] == b).map(|i| [1, 2, 3][i]).sum() };
            v[..3].iter().all(|&b| (1..=2).contains(&b)) && v[3] == load(1) && v[4] == load(2)
        },
    );
}

/// `csp_diffn` and `csp_diffn_nonstrict` (issue 29): rectangles at
/// (a, c), (b, d) and a constant one at (1, 1), of sizes 2 × 1, 0 × 2
/// (a segment) and 2 × 2, against MiniZinc's decompositions.
#[test]
fn diffn_strict_and_nonstrict() {
    let vars = vec![
        int("a", 0, 3),
        int("b", 0, 3),
        int("c", 0, 3),
        int("d", 0, 3),
    ];
    let (dx, dy) = ([2, 0, 2], [1, 2, 2]);
    let apart = |v: &[i64], strict: bool| apart3([v[0], v[1], 1], [v[2], v[3], 1], dx, dy, strict);
    check(
        &vars,
        "csp_diffn([a, b, 1], [c, d, 1], [2, 0, 2], [1, 2, 2])",
        &|v| apart(v, true),
    );
    check(
        &vars,
        "csp_diffn_nonstrict([a, b, 1], [c, d, 1], [2, 0, 2], [1, 2, 2])",
        &|v| apart(v, false),
    );
}

/// `csp_diffn_var` and `csp_diffn_var_nonstrict` (issue 29): rectangles
/// at (a, c) and (b, d) of variable sizes w × 1 and 2 × h, and a constant
/// 1 × 1 at (1, 1), against MiniZinc's decompositions.
#[test]
fn diffn_var_strict_and_nonstrict() {
    let vars = vec![
        int("a", 0, 2),
        int("b", 0, 2),
        int("c", 0, 2),
        int("d", 0, 2),
        int("w", 0, 2),
        int("h", 0, 2),
    ];
    let apart = |v: &[i64], strict: bool| {
        let (x, y) = ([v[0], v[1], 1], [v[2], v[3], 1]);
        apart3(x, y, [v[4], 2, 1], [1, v[5], 1], strict)
    };
    check(
        &vars,
        "csp_diffn_var([a, b, 1], [c, d, 1], [w, 2, 1], [1, h, 1])",
        &|v| apart(v, true),
    );
    check(
        &vars,
        "csp_diffn_var_nonstrict([a, b, 1], [c, d, 1], [w, 2, 1], [1, h, 1])",
        &|v| apart(v, false),
    );
}

/// `csp_diffn_var` built with order literals (`BuildOptions::
/// order_literals`, what `fzn-csp` does when it learns): the same
/// packings as brute force, one solution each (the literals follow the
/// boxes), under the ordinary search and the learning one.
#[test]
fn diffn_var_with_order_literals() {
    let text = "var 0..2: a :: output_var;\nvar 0..2: b :: output_var;\n\
                var 0..2: c :: output_var;\nvar 0..2: d :: output_var;\n\
                var 0..2: w :: output_var;\nvar 0..2: h :: output_var;\n\
                constraint csp_diffn_var([a, b, 1], [c, d, 1], [w, 2, 1], [1, h, 1]);\n\
                solve satisfy;\n";
    let vars = [
        int("a", 0, 2),
        int("b", 0, 2),
        int("c", 0, 2),
        int("d", 0, 2),
        int("w", 0, 2),
        int("h", 0, 2),
    ];
    // Three rectangles: three pairs, two axes, two directions.
    check_ordered(text, &vars, 12, &|v| {
        apart3(
            [v[0], v[1], 1],
            [v[2], v[3], 1],
            [v[4], 2, 1],
            [1, v[5], 1],
            true,
        )
    });
}

/// `csp_diffn` of constant sizes built with order literals: posted as
/// the variable-size propagator with fixed sizes (six size variables,
/// twelve literals), the same packings as brute force, one each.
#[test]
fn diffn_with_order_literals() {
    let text = "var 0..2: a :: output_var;\nvar 0..2: b :: output_var;\n\
                var 0..2: c :: output_var;\nvar 0..2: d :: output_var;\n\
                constraint csp_diffn([a, b, 1], [c, d, 1], [2, 2, 1], [1, 2, 1]);\n\
                solve satisfy;\n";
    let vars = [
        int("a", 0, 2),
        int("b", 0, 2),
        int("c", 0, 2),
        int("d", 0, 2),
    ];
    // Sizes of the wrong length: a typed error, as without the literals.
    let short = text.replace("[2, 2, 1], [1, 2, 1]", "[2], [1]");
    let opts = csp_fzn::BuildOptions {
        order_literals: true,
        ..csp_fzn::BuildOptions::default()
    };
    let e = csp_fzn::build_with(&parse(&short).unwrap(), opts).unwrap_err();
    assert!(e.to_string().contains("csp_diffn"), "{e}");
    check_ordered(text, &vars, 18, &|v| {
        apart3([v[0], v[1], 1], [v[2], v[3], 1], [2, 2, 1], [1, 2, 1], true)
    });
}

/// Three rectangles at `x`, `y` of sizes `dx` × `dy` that do not overlap
/// (unless, not `strict`, one of a pair has a zero width or height).
fn apart3(x: [i64; 3], y: [i64; 3], dx: [i64; 3], dy: [i64; 3], strict: bool) -> bool {
    (0..3).all(|i| {
        (i + 1..3).all(|j| {
            (!strict && [dx[i], dx[j], dy[i], dy[j]].contains(&0))
                || x[i] + dx[i] <= x[j]
                || y[i] + dy[i] <= y[j]
                || x[j] + dx[j] <= x[i]
                || y[j] + dy[j] <= y[i]
        })
    })
}

/// Builds `text` with and without order literals: `extra` more
/// variables with them, the packings `apart` accepts over `vars` (by
/// brute force) found once each under both inference levels, and a
/// packing found by the learning search.
fn check_ordered(text: &str, vars: &[V], extra: usize, apart: &Pred<'_>) {
    use csp_fzn::{build_with, BuildOptions};
    let items = parse(text).unwrap();
    let plain = build(&items).unwrap();
    let opts = BuildOptions {
        order_literals: true,
        ..BuildOptions::default()
    };
    let fzn = build_with(&items, opts).unwrap();
    assert_eq!(fzn.model.num_vars(), plain.model.num_vars() + extra);
    let xs = lookup_all(&fzn, vars);
    let want = brute(vars, apart);
    assert!(!want.is_empty());
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        let opts = SearchOptions {
            inference,
            ..SearchOptions::default()
        };
        let sols: Vec<Vec<i64>> = Search::new(&fzn.model)
            .options(opts)
            .solutions()
            .unwrap()
            .map(|s| xs.iter().map(|&x| s[x] as i64).collect())
            .collect();
        let got: BTreeSet<Vec<i64>> = sols.iter().cloned().collect();
        assert_eq!(got, want, "{inference:?}");
        assert_eq!(
            sols.len(),
            want.len(),
            "{inference:?}: a packing found twice"
        );
    }
    let opts = SearchOptions {
        learning: true,
        inference: Inference::Mac,
        ..SearchOptions::default()
    };
    let s = Search::new(&fzn.model).options(opts).solve().unwrap();
    let s = s.solution.expect("a packing");
    let v: Vec<i64> = xs.iter().map(|&x| s[x] as i64).collect();
    assert!(apart(&v), "{v:?}");
}

/// `csp_diffn_k` and `csp_diffn_nonstrict_k` (issue 29): three boxes in
/// three dimensions, origins and sizes row by row, against MiniZinc's
/// decompositions (`fzn_diffn_k.mzn`, `fzn_diffn_nonstrict_k.mzn`).
#[test]
fn diffn_k_strict_and_nonstrict() {
    let vars = vec![
        int("a", 0, 2),
        int("b", 0, 1),
        int("c", 0, 2),
        int("d", 0, 1),
        int("w", 0, 2),
    ];
    // Box 0 at (a, 0, b) of size w × 1 × 1, box 1 at (c, 0, d) of size
    // 1 × 1 × 2, box 2 at (1, 0, 0) of size 1 × 1 × 1.
    let apart = |v: &[i64], strict: bool| {
        let o = [[v[0], 0, v[1]], [v[2], 0, v[3]], [1, 0, 0]];
        let s = [[v[4], 1, 1], [1, 1, 2], [1, 1, 1]];
        (0..3).all(|i| {
            (i + 1..3).all(|j| {
                (0..3).any(|d| {
                    (!strict && (s[i][d] == 0 || s[j][d] == 0))
                        || o[i][d] + s[i][d] <= o[j][d]
                        || o[j][d] + s[j][d] <= o[i][d]
                })
            })
        })
    };
    let (o, s) = ("[a, 0, b, c, 0, d, 1, 0, 0]", "[w, 1, 1, 1, 1, 2, 1, 1, 1]");
    check(&vars, &format!("csp_diffn_k({o}, {s}, 3)"), &|v| {
        apart(v, true)
    });
    check(
        &vars,
        &format!("csp_diffn_nonstrict_k({o}, {s}, 3)"),
        &|v| apart(v, false),
    );
}

/// The model variables of `vars`, by name.
fn lookup_all(fzn: &csp_fzn::FznModel, vars: &[V]) -> Vec<csp_core::VarId> {
    vars.iter()
        .map(|v| match fzn.lookup(v.0) {
            Some(Val::Var(x)) => *x,
            other => panic!("{}: {other:?}", v.0),
        })
        .collect()
}
