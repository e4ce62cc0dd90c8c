#!/usr/bin/env bash
# csp's domain-consistent all-different against Gecode's IPL_DOM distinct
# on Sudoku (docs/benchmarks.md, "All-different strengths on Sudoku"):
# both pinned to core 0, interleaved, R rounds (default 9), medians of the
# wall times of the whole process, for top95 and forum_hardest_1106.
#
#   scripts/bench-sudoku-gecode.sh [REPEATS]
#
# Needs libgecode-dev and a release build (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
R="${1:-9}"
SHARED="${SHARED:-../shared}"
GECODE=/tmp/sudoku-gecode
g++ -O2 -o "$GECODE" scripts/gecode/sudoku.cpp \
    -lgecodeminimodel -lgecodesearch -lgecodeint -lgecodekernel -lgecodesupport
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
for f in examples/sudoku/tests/data/top95.txt "$SHARED/data/sudoku/forum_hardest_1106.txt"; do
    : >/tmp/bsg.csp; : >/tmp/bsg.gecode
    for _ in $(seq "$R"); do
        s=$(now); taskset -c 0 target/release/csp sudoku --alldiff domain "$f" >/dev/null; e=$(now)
        echo "$e - $s" | bc -l >>/tmp/bsg.csp
        s=$(now); taskset -c 0 "$GECODE" dom <"$f" >/dev/null; e=$(now)
        echo "$e - $s" | bc -l >>/tmp/bsg.gecode
    done
    c=$(median </tmp/bsg.csp); g=$(median </tmp/bsg.gecode)
    printf '%s: csp %.4f s, Gecode %.4f s, ratio %.3f (load %s)\n' "$(basename "$f")" "$c" "$g" \
        "$(echo "$c / $g" | bc -l)" "$(cut -d' ' -f1-3 /proc/loadavg)"
done
