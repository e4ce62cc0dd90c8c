#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of two `csp` binaries on
# the engine workloads: a Markdown table with the change. Counts do not
# depend on the machine's load, so this compares changes on a busy host.
#
#   scripts/bench-callgrind.sh BEFORE_CSP AFTER_CSP
set -euo pipefail
cd "$(dirname "$0")/.."
A="$1"; B="$2"
SHARED="${SHARED:-../shared}"
refs() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,; }
echo "| workload (\`csp …\`) | before | after | change |"
echo "|---|---:|---:|---:|"
while read -r w; do
    # shellcheck disable=SC2086
    a=$(refs "$A" $w); b=$(refs "$B" $w)
    echo "| \`$w\` | $a | $b | $(echo "scale=1; 100 * ($b - $a) / $a" | bc -l) % |"
done <<W
queens 12 --solver backtracking --count --threads 1
queens 10 --solver backtracking --count --threads 1 --inference mac
sudoku examples/sudoku/tests/data/top95.txt
latin 5 --count
cryptarithm SEND+MORE=MONEY
zebra
color $SHARED/data/coloring/myciel5.col
W
