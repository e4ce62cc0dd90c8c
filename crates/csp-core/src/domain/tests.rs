//! Unit tests of the domain store: levels, the three large
//! representations, and values at the `i32` extremes.

use super::{Conflict, Domain, DomainStore};
use crate::ids::Value;

fn store(d: Domain) -> DomainStore {
    DomainStore::new(&[d], &[0])
}

fn vals(s: &DomainStore) -> Vec<Value> {
    let mut v = Vec::new();
    s.values_into(0, &mut v);
    v
}

#[test]
fn small_remove_and_backtrack_restores() {
    let mut s = store(Domain::range(1, 9));
    s.push_level();
    assert_eq!(s.remove(0, 5), Ok(true));
    assert_eq!(s.remove(0, 5), Ok(false));
    assert_eq!(s.size(0), 8);
    s.push_level();
    s.fix(0, 9).unwrap();
    assert_eq!((s.min(0), s.max(0)), (9, 9));
    s.backtrack_to(1);
    assert_eq!(vals(&s), vec![1, 2, 3, 4, 6, 7, 8, 9]);
    s.backtrack_to(0);
    assert_eq!(s.size(0), 9);
}

#[test]
fn large_domain_lazy_bitset() {
    let mut s = store(Domain::range(0, 999));
    assert!(!s.is_small(0));
    s.push_level();
    s.remove(0, 0).unwrap();
    assert_eq!(s.min(0), 1);
    s.remove(0, 500).unwrap();
    assert!(!s.contains(0, 500));
    assert_eq!(s.size(0), 998);
    s.set_min(0, 499).unwrap();
    assert_eq!(s.min(0), 499);
    s.set_min(0, 500).unwrap();
    assert_eq!(s.min(0), 501);
    s.set_max(0, 502).unwrap();
    assert_eq!(vals(&s), vec![501, 502]);
    assert_eq!(s.remove(0, 501), Ok(true));
    assert_eq!(s.remove(0, 502), Err(Conflict));
    s.backtrack_to(0);
    assert_eq!(s.size(0), 1000);
    assert!(s.contains(0, 500));
    assert_eq!((s.min(0), s.max(0)), (0, 999));
}

#[test]
fn set_domain_with_holes() {
    let mut s = store(Domain::values([-100, 0, 7, 200]));
    assert_eq!(vals(&s), vec![-100, 0, 7, 200]);
    assert_eq!(s.next_above(0, 0), Some(7));
    assert_eq!(s.next_below(0, 0), Some(-100));
    s.push_level();
    s.set_max(0, 100).unwrap();
    assert_eq!(vals(&s), vec![-100, 0, 7]);
    s.backtrack_to(0);
    assert_eq!(s.size(0), 4);
}

#[test]
fn stamps_save_again_in_sibling_levels() {
    let mut s = store(Domain::range(0, 5));
    s.push_level();
    s.remove(0, 1).unwrap();
    s.backtrack_to(0);
    s.push_level();
    s.remove(0, 2).unwrap();
    s.backtrack_to(0);
    assert_eq!(s.size(0), 6);
}

/// `reopen_level` must behave as `backtrack_to` then `push_level`, in
/// both snapshot mode (few variables) and trail mode (many), for small
/// and large domains and for state words.
#[test]
fn reopen_level_matches_backtrack_and_push() {
    for n in [2, super::store::SNAPSHOT_MAX_WORDS + 1] {
        let doms = [Domain::range(0, 9), Domain::range(0, 999)];
        let var_dom: Vec<u32> = (0..n as u32).map(|i| i % 2).collect();
        let mut s = DomainStore::new(&doms, &var_dom);
        let w = s.add_word(0b1111);
        s.finish_setup();
        s.push_level();
        s.remove(0, 3).unwrap();
        let before: Vec<usize> = (0..n).map(|i| s.size(i) as usize).collect();
        for value in [4, 5, 6] {
            s.reopen_level(1);
            assert_eq!(s.level(), 2);
            assert_eq!((s.size(0), s.word(w)), (9, 0b1111), "n = {n}");
            s.fix(0, value).unwrap();
            s.remove(1, 500).unwrap();
            s.set_word(w, 0b0101);
            s.push_level();
            s.remove(1, 501).unwrap();
        }
        s.reopen_level(1);
        s.close_reopened_level(1);
        assert_eq!(s.level(), 1);
        let after: Vec<usize> = (0..n).map(|i| s.size(i) as usize).collect();
        assert_eq!(before, after);
        assert!(s.contains(1, 500) && !s.contains(0, 3));
        s.backtrack_to(0);
        assert_eq!((s.size(0), s.size(1), s.word(w)), (10, 1000, 0b1111));
    }
}

fn check_against_set(d: Domain, ops: &[(u8, Value)]) {
    // Every operation is mirrored on a plain sorted list of the values.
    let mut s = DomainStore::new(std::slice::from_ref(&d), &[0]);
    s.finish_setup();
    let mut model: Vec<Value> = if d.size() <= 1 << 20 {
        d.iter().collect()
    } else {
        Vec::new()
    };
    let exact = d.size() <= 1 << 20;
    for &(op, v) in ops {
        s.push_level();
        let before = model.clone();
        let r = match op {
            0 => s.remove(0, v).map(|_| ()),
            1 => s.set_min(0, v).map(|_| ()),
            2 => s.set_max(0, v).map(|_| ()),
            _ => s.fix(0, v),
        };
        if exact {
            let next: Vec<Value> = match op {
                0 => model.iter().copied().filter(|&x| x != v).collect(),
                1 => model.iter().copied().filter(|&x| x >= v).collect(),
                2 => model.iter().copied().filter(|&x| x <= v).collect(),
                _ => model.iter().copied().filter(|&x| x == v).collect(),
            };
            if next.is_empty() {
                assert_eq!(r, Err(Conflict), "op {op} {v} on {before:?}");
            } else {
                assert!(r.is_ok());
                model = next;
                assert_eq!(s.size(0), model.len() as u64);
                assert_eq!((s.min(0), s.max(0)), (model[0], *model.last().unwrap()));
                for &x in &before {
                    assert_eq!(s.contains(0, x), model.contains(&x), "value {x}");
                }
                check_bits(&s, &model, v);
            }
        }
    }
    let levels = s.level();
    for l in (0..levels).rev() {
        s.backtrack_to(l);
    }
    assert_eq!(s.size(0), d.size());
    assert_eq!((s.min(0), s.max(0)), (d.min().unwrap(), d.max().unwrap()));
}

/// `bits_into` over windows below, at, inside and around the domain (whole
/// words, shifted words, member by member) agrees with the member list.
fn check_bits(s: &DomainStore, model: &[Value], near: Value) {
    let lo = s.min(0) as i64;
    let declared = s.base[0] as i64;
    for base in [
        declared,
        declared - 70,
        declared + 3,
        lo - 1,
        near as i64 - 100,
    ] {
        let Ok(base) = Value::try_from(base) else {
            continue;
        };
        let mut out = [0u64; 4];
        s.bits_into(0, base, &mut out);
        for k in 0..256i64 {
            let v = base as i64 + k;
            let want = Value::try_from(v).is_ok_and(|v| model.binary_search(&v).is_ok());
            let got = out[k as usize / 64] >> (k % 64) & 1 == 1;
            assert_eq!(got, want, "value {v} in the window from {base}");
        }
    }
}

/// A seeded generator of numbers below `m` (splitmix).
fn below(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut rng = seed;
    move |m: u64| {
        rng = crate::search::splitmix(rng);
        rng % m
    }
}

#[test]
fn large_representations_agree_with_a_list() {
    let mut next = below(0x5eed);
    let doms = [
        Domain::range(-70, 70),
        Domain::values((0..200).map(|i| i * 7 - 500)),
        Domain::values((0..100).map(|i| i * 100_000)),
        Domain::range(0, 100_000),
    ];
    for d in doms {
        for _ in 0..200 {
            let (lo, hi) = (d.min().unwrap() as i64, d.max().unwrap() as i64);
            let ops: Vec<(u8, Value)> = (0..12)
                .map(|_| {
                    let v = if next(2) == 0 {
                        let all: Vec<Value> = d.iter().take(4096).collect();
                        all[next(all.len() as u64) as usize]
                    } else {
                        (lo + next((hi - lo + 1) as u64) as i64) as Value
                    };
                    ((next(10) as u8).min(3), v)
                })
                .collect();
            check_against_set(d.clone(), &ops);
        }
    }
}

#[test]
fn values_at_the_i32_extremes() {
    // The full range, and sets holding both extremes.
    let full = Domain::range(Value::MIN, Value::MAX);
    assert_eq!(full.size(), 1 << 32);
    let mut s = DomainStore::new(std::slice::from_ref(&full), &[0]);
    s.finish_setup();
    assert_eq!(s.size(0), 1 << 32);
    s.push_level();
    assert_eq!(s.remove(0, Value::MAX), Ok(true));
    assert_eq!(s.max(0), Value::MAX - 1);
    assert_eq!(s.remove(0, 0), Ok(true));
    assert!(!s.contains(0, 0));
    assert_eq!(s.next_above(0, -1), Some(1));
    assert_eq!(s.next_below(0, 1), Some(-1));
    assert_eq!(s.set_min(0, Value::MAX - 1), Ok(true));
    assert_eq!(
        (s.min(0), s.max(0), s.size(0)),
        (Value::MAX - 1, Value::MAX - 1, 1)
    );
    assert_eq!(s.next_above(0, Value::MAX - 1), None);
    s.backtrack_to(0);
    assert_eq!(s.size(0), 1 << 32);
    assert_eq!(s.next_above(0, Value::MAX), None);
    assert_eq!(s.next_below(0, Value::MIN), None);

    for d in [
        Domain::values([Value::MIN, Value::MAX]),
        Domain::values([Value::MIN, 0, Value::MAX]),
        Domain::range(Value::MIN + 1, Value::MAX),
        Domain::range(Value::MAX - 63, Value::MAX),
        Domain::range(Value::MIN, Value::MIN + 63),
        Domain::range(Value::MAX - 100, Value::MAX),
    ] {
        let (lo, hi) = (d.min().unwrap(), d.max().unwrap());
        check_against_set(d.clone(), &[(1, hi - 1), (0, hi)]);
        check_against_set(d.clone(), &[(2, lo + 1), (0, lo)]);
        check_against_set(d.clone(), &[(3, hi)]);
        check_against_set(d.clone(), &[(3, lo), (0, lo)]);
        let mut s = DomainStore::new(std::slice::from_ref(&d), &[0]);
        s.finish_setup();
        assert_eq!((s.min(0), s.max(0)), (lo, hi));
        assert_eq!(s.size(0), d.size());
        assert_eq!(s.next_above(0, hi), None);
        assert_eq!(s.next_below(0, lo), None);
        let mut v = Vec::new();
        if d.size() < 1000 {
            s.values_into(0, &mut v);
            assert_eq!(v, d.iter().collect::<Vec<_>>());
        }
    }
}

/// `smallest_open` (the MRV choice) against a scan of the sizes, on
/// stores of one-word domains (both builds of the word scan: portable
/// and, where the machine has it, popcnt) and on stores with large
/// domains.
#[test]
fn smallest_open_is_the_first_open_variable_of_least_size() {
    use super::words::Simd;
    let mut next = below(0x9e37_79b9_7f4a_7c15);
    for round in 0..2_000 {
        let n = 1 + next(20) as usize;
        let large = round % 4 == 3;
        let doms: Vec<Domain> = (0..n)
            .map(|i| match (large, i % 3) {
                (true, 0) => Domain::range(0, 200),
                _ => Domain::range(0, next(64) as Value),
            })
            .collect();
        let mut s = DomainStore::new(&doms, &vec![0; n]);
        for i in 0..n {
            for _ in 0..next(4) {
                let v = next(40) as Value;
                if s.size(i) > 1 && s.contains(i, v) {
                    s.remove(i, v).unwrap();
                }
            }
            if next(3) == 0 {
                s.fix(i, s.min(i)).unwrap();
            }
        }
        let want = (0..n)
            .filter(|&i| s.size(i) > 1)
            .min_by_key(|&i| (s.size(i), i));
        for simd in [Simd::Portable, Simd::detect()] {
            s.simd = simd;
            assert_eq!(s.smallest_open(), want, "round {round}, {simd:?}");
        }
    }
}
