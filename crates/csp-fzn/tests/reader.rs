//! The FlatZinc reader: every item kind, annotations, literals, and the
//! position of every kind of error.

use csp_fzn::ast::{BaseType, Expr, Goal, IntSet, Item};
use csp_fzn::parse;

const MODEL: &str = r#"% a comment line
predicate my_global(array [int] of var int: x, int: k);
bool: flag = true;
int: k = -0x1F;
set of int: s = {1, 3, 5};
array [1..3] of int: a = [1, 0o7, -3];
array [1..2] of set of int: ss = [1..2, {}];
float: f = 1.5e3;
var bool: b :: output_var;
var 1..9: x :: output_var :: is_defined_var;
var {2, 4, 8}: y;
var int: z = x;
array [1..2] of var int: xs :: output_array([1..1, 1..2]) = [x, 3];
constraint int_le(x, y) :: domain;
constraint my_global(xs, 2);
constraint int_lin_eq([1, -1], [x, xs[2]], 0) :: defines_var(z);
solve :: seq_search([int_search(xs, first_fail, indomain_min, complete),
                     bool_search([b], input_order, indomain_max, complete)])
      :: restart_luby(100) minimize z;
"#;

#[test]
fn every_item_kind_reads() {
    let items = parse(MODEL).unwrap();
    assert_eq!(items.len(), 16);
    assert!(
        matches!(&items[0], Item::Predicate { name, pos } if name == "my_global" && pos.line == 2)
    );
    let decl = |i: usize| match &items[i] {
        Item::Decl {
            ty,
            name,
            anns,
            value,
            pos,
        } => (ty.clone(), name.clone(), anns.clone(), value.clone(), *pos),
        other => panic!("item {i}: {other:?}"),
    };
    let (ty, name, _, value, _) = decl(1);
    assert_eq!(
        (name.as_str(), ty.var, &ty.base),
        ("flag", false, &BaseType::Bool)
    );
    assert_eq!(value, Some(Expr::Bool(true)));
    assert_eq!(decl(2).3, Some(Expr::Int(-31)));
    assert_eq!(decl(3).3, Some(Expr::Set(IntSet::Values(vec![1, 3, 5]))));
    let (ty, _, _, value, _) = decl(4);
    assert_eq!(ty.array, Some(vec![(1, 3)]));
    assert_eq!(
        value,
        Some(Expr::Array(vec![Expr::Int(1), Expr::Int(7), Expr::Int(-3)]))
    );
    assert_eq!(
        decl(5).3,
        Some(Expr::Array(vec![
            Expr::Set(IntSet::Range(1, 2)),
            Expr::Set(IntSet::Values(vec![]))
        ]))
    );
    assert_eq!(decl(6).3, Some(Expr::Float(1500.0)));
    let (ty, _, anns, _, pos) = decl(8);
    assert_eq!(ty.base, BaseType::IntIn(IntSet::Range(1, 9)));
    assert!(ty.var);
    assert_eq!(
        anns.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
        ["output_var", "is_defined_var"]
    );
    assert_eq!((pos.line, pos.column), (10, 1));
    assert_eq!(
        decl(9).0.base,
        BaseType::IntIn(IntSet::Values(vec![2, 4, 8]))
    );
    assert!(matches!(decl(10).3, Some(Expr::Ident(n, _)) if n == "x"));
    let (ty, _, anns, _, _) = decl(11);
    assert_eq!(ty.array, Some(vec![(1, 2)]));
    assert_eq!(anns[0].name, "output_array");
    assert_eq!(
        anns[0].args,
        vec![Expr::Array(vec![
            Expr::Set(IntSet::Range(1, 1)),
            Expr::Set(IntSet::Range(1, 2))
        ])]
    );
    match &items[12] {
        Item::Constraint {
            name,
            args,
            anns,
            pos,
        } => {
            assert_eq!(name, "int_le");
            assert_eq!(args.len(), 2);
            assert_eq!(anns[0].name, "domain");
            assert_eq!((pos.line, pos.column), (14, 1));
        }
        other => panic!("{other:?}"),
    }
    match &items[14] {
        Item::Constraint { args, anns, .. } => {
            assert!(
                matches!(&args[1], Expr::Array(v) if matches!(&v[1], Expr::Access(n, 2, _) if n == "xs"))
            );
            assert_eq!(anns[0].name, "defines_var");
        }
        other => panic!("{other:?}"),
    }
    match &items[15] {
        Item::Solve { anns, goal, pos } => {
            assert!(matches!(goal, Goal::Minimize(Expr::Ident(n, _)) if n == "z"));
            assert_eq!(pos.line, 17);
            assert_eq!(anns[0].name, "seq_search");
            let Expr::Array(phases) = &anns[0].args[0] else {
                panic!("{anns:?}")
            };
            assert!(
                matches!(&phases[0], Expr::Call(a) if a.name == "int_search" && a.args.len() == 4)
            );
            assert!(matches!(&phases[1], Expr::Call(a) if a.name == "bool_search"));
            assert_eq!(anns[1].name, "restart_luby");
            assert_eq!(anns[1].args, vec![Expr::Int(100)]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_model_builds_and_solves() {
    // The same model without the user predicate (not a builtin).
    let text = MODEL.replace("constraint my_global(xs, 2);\n", "");
    let fzn = csp_fzn::build(&parse(&text).unwrap()).unwrap();
    assert!(matches!(fzn.objective, csp_fzn::Objective::Minimize(_)));
    assert_eq!(fzn.outputs.len(), 3);
    assert_eq!(fzn.outputs[2].dims, Some(vec![(1, 1), (1, 2)]));
    // z = x = xs[2] = 3 and x <= y: the only value of z is 3.
    let (o, strategy) = csp_fzn::search::options(&fzn, false, 0);
    assert_eq!(strategy.phases, vec![1, 1]); // xs = [x, 3]: one variable
    let csp_fzn::Objective::Minimize(z) = fzn.objective else {
        unreachable!()
    };
    let r = csp_core::Search::new(&fzn.model)
        .options(o)
        .minimize(z)
        .unwrap();
    assert_eq!(r.objective, Some(3));
}

#[test]
fn errors_say_where() {
    let cases = [
        (
            "var 1..3: x\nsolve satisfy;",
            "2:1: expected ';', found 'solve'",
        ),
        (
            "var 1..3: x;\nsolve satisfy",
            "2:14: expected ';', found the end of the input",
        ),
        (
            "var 1..3: x;\nconstraint int_le(x, @);",
            "2:22: unexpected character '@'",
        ),
        ("var 1..3 x;", "1:10: expected ':', found 'x'"),
        ("var 1...3: x;", "1:8: unexpected character '.'"),
        (
            "int: k = 99999999999999999999;",
            "1:10: integer '99999999999999999999' does not fit in 64 bits",
        ),
        (
            "solve :: int_search(x, \"abc) satisfy;",
            "1:24: unterminated string",
        ),
        (
            "solve find;",
            "1:7: expected 'satisfy', 'minimize' or 'maximize', found 'find'",
        ),
        (
            "array [1..n] of int: a = [];",
            "1:11: expected an integer, found 'n'",
        ),
        ("var quux: x;", "1:5: expected a type, found 'quux'"),
    ];
    for (text, want) in cases {
        match parse(text) {
            Ok(items) => panic!("{text:?} parsed: {items:?}"),
            Err(e) => assert_eq!(e.to_string(), want, "{text:?}"),
        }
    }
}
