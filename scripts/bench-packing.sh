#!/bin/sh
# The packing examples (docs/packing.md) under each option, one core:
# nodes and the search time the command reports (--stats), per instance.
# Usage: scripts/bench-packing.sh [CSP_BINARY]   (default target/release/csp)
# Bin packing stops at 20,000 nodes, strip packing at 300,000 (over all
# the heights tried); a stopped run shows *the value it reached*.
csp=${1:-target/release/csp}
data=examples/binpack/data
cell() {
    out=$(taskset -c 0 "$csp" "$@" --stats 2>&1)
    nodes=$(printf '%s\n' "$out" | grep -o 'nodes: [0-9]*' | awk '{s += $2} END {print s}')
    ms=$(printf '%s\n' "$out" | grep -o 'time: [0-9.]* ms' | awk '{s += $2} END {printf "%.1f", s}')
    value=$(printf '%s\n' "$out" | grep -E '^(bins|height): ' | awk '{print $2}')
    case $out in
        *"not proven"*|*unknown*) printf ' *%s* after %s, %s ms |' "$value" "$nodes" "$ms" ;;
        *) printf ' %s, %s ms |' "$nodes" "$ms" ;;
    esac
}
optimum() { grep "^$1," "$data/optima.csv" | cut -d, -f2; }
echo "| instance | optimum | L2, FFD | default | --learning | --no-symmetry | --no-symmetry --learning |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for f in N1C1W1_A.BPP N1C2W2_A.BPP N1C1W1_C.BPP N1C3W1_A.BPP N1C3W2_B.BPP \
         N1C3W4_D.BPP N1C1W1_K.BPP N1C1W1_R.BPP N1C1W4_A.BPP N1C1W4_S.BPP \
         N1C2W1_S.BPP N1C2W1_G.BPP N1C1W1_N.BPP N1C1W2_A.BPP Falkenauer_u120_00.txt; do
    file=$data/$f
    bounds=$("$csp" binpack "$file" --node-limit 1 2>/dev/null | head -1 | sed 's/.*(L2) \([0-9]*\), first fit decreasing \([0-9]*\)/\1, \2/')
    printf '| %s | %s | %s |' "${f%.*}" "$(optimum "$f")" "$bounds"
    for opts in "" "--learning" "--no-symmetry" "--no-symmetry --learning"; do
        # shellcheck disable=SC2086
        cell binpack "$file" --node-limit 20000 $opts
    done
    echo
done
echo
echo "| instance | optimum | default | --learning | --no-cumulative | --no-cumulative --learning |"
echo "|---|---:|---:|---:|---:|---:|"
for f in C1_1 C1_2 C1_3 C3_2 C3_3 C2_3; do
    printf '| %s | %s |' "$f" "$(optimum "$f.txt")"
    for opts in "" "--learning" "--no-cumulative" "--no-cumulative --learning"; do
        # shellcheck disable=SC2086
        cell strippack "$data/$f.txt" --node-limit 300000 $opts
    done
    echo
done
