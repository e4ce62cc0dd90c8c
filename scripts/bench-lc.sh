#!/bin/sh
# Last-conflict reasoning on and off, one core: nodes (summed over the
# engine calls of a run) and the time the command reports, per instance.
# Usage: scripts/bench-lc.sh [CSP_BINARY]   (default target/release/csp)
# Each instance stops after 20 s (--time-limit); "stopped" marks it.
csp=${1:-target/release/csp}
row() {
    for lc in "" --last-conflict; do
        out=$(taskset -c 0 "$csp" "$@" --stats --time-limit 20 $lc 2>&1 >/dev/null)
        nodes=$(printf '%s\n' "$out" | grep -o 'nodes: [0-9]*' | awk '{s += $2} END {print s}')
        ms=$(printf '%s\n' "$out" | grep -o 'time: [0-9.]* ms' | awk '{s += $2} END {printf "%.0f", s}')
        case $out in *"not proven"*|*unknown*|*"time limit"*) ms="$ms (stopped)" ;; esac
        printf ' %s | %s ms |' "$nodes" "$ms"
    done
}
echo "| instance | nodes | time | nodes, last conflict | time, last conflict |"
echo "|---|---:|---:|---:|---:|"
for n in 9 10; do
    for order in input dom-wdeg; do
        printf '| golomb %s, %s |' "$n" "$order"; row golomb "$n" --var-order "$order"; echo
    done
done
for f in ../shared/data/coloring/*.col; do
    printf '| %s |' "$(basename "$f")"; row color "$f"; echo
done
