#!/usr/bin/env bash
# Before/after: times every engine workload of docs/benchmarks.md with two
# `csp` binaries, interleaved, pinned to one core, best of R, and prints a
# Markdown table with after/before ratios.
#
#   scripts/bench-ab.sh BEFORE_CSP AFTER_CSP [REPEATS]   (default 5)
#
# Build "before" from another commit, e.g.
#   git worktree add /tmp/before <commit> && (cd /tmp/before && cargo build --release)
# Data comes from this repository and ../shared (the coloring graphs).
set -euo pipefail
cd "$(dirname "$0")/.."
A="$1"; B="$2"; R="${3:-5}"
SHARED="${SHARED:-../shared}"
now() { date +%s.%N; }
declare -A best
run() { # key binary args...
    local key=$1 bin=$2; shift 2
    local s e t
    s=$(now); taskset -c 0 "$bin" "$@" >/dev/null 2>&1 || true; e=$(now)
    t=$(echo "$e - $s" | bc -l)
    if [[ -z "${best[$key]:-}" ]] || (( $(echo "$t < ${best[$key]}" | bc -l) )); then best[$key]=$t; fi
}
workloads=(
    "queens 12 --solver backtracking --count --threads 1"
    "queens 13 --solver backtracking --count --threads 1"
    "queens 14 --solver backtracking --count --threads 1"
    "queens 14 --solver backtracking --count --threads 1 --var-order input"
    "queens 1000 --solver backtracking --var-order mrv --val-order middle"
    "queens 10 --solver backtracking --count --threads 1 --inference mac"
    "sudoku examples/sudoku/tests/data/top95.txt"
    "latin 5 --count"
    "color $SHARED/data/coloring/myciel5.col"
    "color $SHARED/data/coloring/queen7_7.col"
    "color $SHARED/data/coloring/homer.col"
    "color $SHARED/data/coloring/le450_5a.col"
    "cryptarithm SEND+MORE=MONEY"
    "zebra"
)
for _ in $(seq "$R"); do
    for w in "${workloads[@]}"; do
        # shellcheck disable=SC2086
        run "a|$w" "$A" $w
        # shellcheck disable=SC2086
        run "b|$w" "$B" $w
    done
done
echo "| workload | before (s) | after (s) | after / before |"
echo "|---|---:|---:|---:|"
for w in "${workloads[@]}"; do
    a=${best["a|$w"]}; b=${best["b|$w"]}
    printf '| `csp %s` | %.4f | %.4f | %.2f |\n' "$w" "$a" "$b" "$(echo "$b / $a" | bc -l)"
done
