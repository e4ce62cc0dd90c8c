#!/usr/bin/env bash
# Benchmarks every workload the issues name, against the C reference programs
# in ../shared/reference, in one run on this machine. Prints a Markdown table
# of best-of-R wall times and ratios (ours / reference).
#
#   scripts/bench.sh [REPEATS]        (default 3)
#
# Needs: gcc (for the references), GNU time (/usr/bin/time) for peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
R="${1:-3}"
SHARED="${SHARED:-../shared}"
REF="$(mktemp -d)"
bash "$SHARED/reference/build.sh" "$REF" >/dev/null
cargo build --release -q
CSP=./target/release/csp

# best-of-R wall time of a command, in seconds
best() {
    local best=999999
    for _ in $(seq "$R"); do
        local s e t
        s=$(date +%s.%N)
        "$@" >/dev/null 2>&1
        e=$(date +%s.%N)
        t=$(echo "$e - $s" | bc -l)
        if (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
    done
    printf '%.4f' "$best"
}
# peak resident memory in MB
peak() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.0f", $1/1024}'; }
ratio() { echo "scale=2; $1 / $2" | bc -l; }

echo "| workload | command | ours (s) | reference (s) | ratio | target |"
echo "|---|---|---:|---:|---:|---|"
row() { echo "| $1 | \`$2\` | $3 | $4 | $5 | $6 |"; }

for n in 15 16; do
    o=$(best $CSP queens $n --count --threads 1); r=$(best "$REF/nqueens_bitboard" $n)
    row "count, default solver, 1 thread" "csp queens $n --count --threads 1" "$o" "$r" "$(ratio "$o" "$r")" "≤ 0.5"
done
o1=$(best $CSP queens 16 --count --threads 1); o2=$(best $CSP queens 16 --count --threads 2)
row "count, 2 threads vs 1" "csp queens 16 --count --threads 2" "$o2" "$o1 (1 thread)" "$(ratio "$o1" "$o2")× faster" "≥ 1.8×"
for n in 13 14; do
    o=$(best $CSP queens $n --solver backtracking --count --threads 1); r=$(best "$REF/nqueens_bitboard" $n)
    row "generic engine count" "csp queens $n --solver backtracking --count --threads 1" "$o" "$r" "$(ratio "$o" "$r")" "≤ 3"
done
o=$(best $CSP queens 12 --solver backtracking --count --threads 1 --inference fc)
row "generic engine, 12-queens count" "csp queens 12 --solver backtracking --count --threads 1" "$o" "-" "-" "< 0.1 s"
o=$(best $CSP queens 1000 --solver backtracking --var-order mrv --val-order middle)
row "generic engine, one solution" "csp queens 1000 --solver backtracking --var-order mrv --val-order middle" "$o" "-" "-" "< 0.1 s"
for n in 1000000 10000000; do
    o=$(best $CSP queens $n --format columns); r=$(best "$REF/nqueens_minconflicts" $n)
    m=$(peak $CSP queens $n --format columns)
    row "one solution, default solver (min-conflicts), peak ${m} MB" "csp queens $n --format columns" "$o" "$r" "$(ratio "$o" "$r")" "≤ 2, < 1.5 GB"
done
o=$(best $CSP queens 10000000 --solver construction --format columns)
row "construction" "csp queens 10000000 --solver construction --format columns" "$o" "-" "-" "< 1 s"
o=$(best $CSP sudoku examples/sudoku/tests/data/top95.txt)
row "Sudoku top95, whole process" "csp sudoku examples/sudoku/tests/data/top95.txt" "$o" "-" "-" "≤ 0.020 s"
for f in myciel5 queen7_7 anna homer DSJC125.1 le450_5a; do
    o=$(best $CSP color "$SHARED/data/coloring/$f.col" --time-limit 20)
    row "chromatic number, $f" "csp color $SHARED/data/coloring/$f.col" "$o" "-" "-" "-"
done
rm -rf "$REF"
