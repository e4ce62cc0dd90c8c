#!/bin/sh
# The chromatic number by one search per k (`--method loop`) against one
# branch-and-bound search (`--method minimize`, the default), one core,
# interleaved runs; prints the median of the times `csp color --stats`
# reports (its "total", which leaves out process start-up) and the nodes.
# Usage: scripts/bench-chromatic.sh [CSP_BINARY [ROUNDS]]
csp=${1:-target/release/csp}
rounds=${2:-5}
data=../shared/data/coloring
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
run() { # file method -> "seconds nodes answer"
    out=$(taskset -c 0 "$csp" color "$data/$1" --stats --method "$2" --time-limit 60 2>&1 >/dev/null)
    total=$(printf '%s\n' "$out" | sed -n 's/^total \([0-9.]*\) s$/\1/p')
    nodes=$(printf '%s\n' "$out" | grep -o 'nodes: [0-9]*' | awk '{s += $2} END {print s}')
    chi=$(printf '%s\n' "$out" | sed -n 's/^chromatic number: \([0-9]*\).*/\1/p')
    echo "$total $nodes ${chi:-none}"
}
echo "| instance | χ (loop / minimize) | nodes, loop | nodes, minimize | loop (s) | minimize (s) | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
# The instances both methods prove within the limit (INSTANCES overrides).
for f in ${INSTANCES:-$(cd "$data" && ls *.col | grep -v -e myciel6 -e myciel7 -e queen9_9)}; do
    rm -f /tmp/bench-chromatic.loop /tmp/bench-chromatic.min
    i=0
    while [ $i -lt "$rounds" ]; do
        run "$f" loop >>/tmp/bench-chromatic.loop
        run "$f" minimize >>/tmp/bench-chromatic.min
        i=$((i + 1))
    done
    tl=$(cut -d' ' -f1 /tmp/bench-chromatic.loop | median)
    tm=$(cut -d' ' -f1 /tmp/bench-chromatic.min | median)
    set -- $(head -1 /tmp/bench-chromatic.loop) $(head -1 /tmp/bench-chromatic.min)
    ratio=$(awk -v a="$tl" -v b="$tm" 'BEGIN {if (a > 0) printf "%.2f", b / a; else print "–"}')
    echo "| $f | $3 / $6 | $2 | $5 | $tl | $tm | $ratio |"
done
