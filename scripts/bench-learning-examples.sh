#!/bin/bash
# Learning against the ordinary engine in two worked examples (issue 28,
# "Where it is used": csp knapsack and csp color use learning where it is
# faster, measured). Prints one tab-separated line per run: instance, the
# engine, CPU seconds, the answer and the search statistics.
#
# usage: scripts/bench-learning-examples.sh [CSP] [SECONDS]
#   CSP      the csp binary (default target/release/csp)
#   SECONDS  the time limit of each run (default 20)
#
# Knapsack instances are generated (Pisinger's uncorrelated, weakly and
# strongly correlated classes, weights 1..1000, capacity half the total
# weight; seeded, so every run sees the same ones) with their optimum by
# dynamic programming, printed beside csp's answer. Coloring runs every
# graph of ../shared/data/coloring/KNOWN.tsv with --colors chi (find a
# coloring) and chi - 1 (prove there is none). Each run is pinned to one
# core (taskset -c 1).
set -euo pipefail
cd "$(dirname "$0")/.."
CSP=${1:-target/release/csp}
LIMIT=${2:-20}
SHARED=../shared/data/coloring
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { # name engine args...
    local name=$1 engine=$2; shift 2
    local flag=""
    [ "$engine" = learning ] && flag=--learning
    out=$( { /usr/bin/time -f "cpu %U" taskset -c 1 "$CSP" "$@" $flag --time-limit "$LIMIT" --stats; } 2>&1 || true)
    cpu=$(echo "$out" | sed -n 's/^cpu //p')
    ans=$(echo "$out" | grep -m1 '^value:' || echo "$out" | grep -v 'nodes\|^cpu' | head -1 | cut -c1-60)
    st=$(echo "$out" | grep 'nodes' | tail -1 | sed 's/, propagations.*//')
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$engine" "$cpu" "$ans" "$st"
}
python3 - "$dir" <<'PY'
import random, sys
d = sys.argv[1]
for kind in ["unc", "weak", "strong"]:
    for n in [30, 50]:
        r = random.Random(1000 + n)
        items = []
        for _ in range(n):
            w = r.randint(1, 1000)
            v = {"unc": r.randint(1, 1000), "weak": max(1, w + r.randint(-100, 100)), "strong": w + 100}[kind]
            items.append((w, v))
        cap = sum(w for w, _ in items) // 2
        best = [0] * (cap + 1)
        for w, v in items:
            for c in range(cap, w - 1, -1):
                best[c] = max(best[c], best[c - w] + v)
        with open(f"{d}/{kind}-{n}.txt", "w") as f:
            f.write(f"{n} {cap}\n" + "".join(f"{w} {v}\n" for w, v in items))
        print(f"{kind}-{n}\toptimum (dynamic programming)\t{best[cap]}")
PY
for f in "$dir"/*.txt; do
    for e in plain learning; do run "knapsack $(basename "$f" .txt)" $e knapsack "$f"; done
done
tail -n +2 "$SHARED/KNOWN.tsv" | while IFS=$'\t' read -r g _ _ _ _ _ chi _; do
    for k in "$chi" $((chi - 1)); do
        for e in plain learning; do run "color $g k=$k" $e color "$SHARED/$g" --colors "$k"; done
    done
done
