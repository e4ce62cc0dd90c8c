#!/usr/bin/env bash
# The generic engine's N-queens count against the C reference, as issue 10
# measures it: `csp queens N --solver backtracking --count --threads 1` and
# `nqueens_bitboard N`, both pinned to one core, interleaved (reference,
# then each csp binary, for N = 13 and 14, round after round). Prints, per
# N and binary, the best and the median wall time and their ratios to the
# reference's best and median.
#
#   scripts/bench-generic.sh [ROUNDS] [CSP...]   (default: 15, target/release/csp)
#
# Each binary runs twice per N: with the count's default variable order
# (first-fail, `mrv`, since 2026-11-25) and with `--var-order input` (rows
# in order, the default before), marked "input" in the table.
#
# CREF=path names nqueens_bitboard (default: built from
# $SHARED/reference, SHARED=../shared, into a temporary folder). A portable
# and an x86-64-v3 build side by side:
#   RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --release --target-dir target/v3
#   scripts/bench-generic.sh 15 target/release/csp target/v3/release/csp
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-15}"
shift || true
bins=("$@")
[[ ${#bins[@]} -gt 0 ]] || bins=(target/release/csp)
if [[ -z "${CREF:-}" ]]; then
  ref="$(mktemp -d)"
  bash "${SHARED:-../shared}/reference/build.sh" "$ref" >/dev/null
  CREF="$ref/nqueens_bitboard"
fi
declare -A times
micros() { # command... : wall time of one pinned run, in microseconds
  local s e
  s=$(date +%s%N)
  taskset -c 0 "$@" >/dev/null
  e=$(date +%s%N)
  echo $(((e - s) / 1000))
}
for _ in $(seq "$rounds"); do
  for n in 13 14; do
    times[ref,$n]+="$(micros "$CREF" "$n") "
    for i in "${!bins[@]}"; do
      times[$i,$n]+="$(micros "${bins[$i]}" queens "$n" --solver backtracking --count --threads 1) "
      times[$i,$n,input]+="$(micros "${bins[$i]}" queens "$n" --solver backtracking --count --threads 1 --var-order input) "
    done
  done
done
best_median() { # "t1 t2 ..." -> "best median"
  tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[1], a[int((NR+1)/2)]}'
}
echo "| N | program | best (s) | median (s) | ratio, best | ratio, median |"
echo "|---:|---|---:|---:|---:|---:|"
for n in 13 14; do
  read -r rb rm < <(best_median "${times[ref,$n]}")
  printf '| %d | C reference | %.4f | %.4f | | |\n' "$n" "$(bc -l <<<"$rb/1000000")" "$(bc -l <<<"$rm/1000000")"
  for i in "${!bins[@]}"; do
    for order in "" ",input"; do
      read -r b m < <(best_median "${times[$i,$n$order]}")
      printf '| %d | `%s`%s | %.4f | %.4f | %.2f | %.2f |\n' "$n" "${bins[$i]}" "${order/,/, }" \
        "$(bc -l <<<"$b/1000000")" "$(bc -l <<<"$m/1000000")" "$(bc -l <<<"$b/$rb")" "$(bc -l <<<"$m/$rm")"
    done
  done
done
