#!/usr/bin/env bash
# Regenerates tests/data/fzn-corpus/: FlatZinc files that `minizinc -c`
# makes for csp from models of the MiniZinc suite (../shared/data/minizinc,
# see its manifest.tsv), the seeds that tests/fuzz_fzn.rs mutates.
#
#   scripts/fzn-corpus.sh [SUITE_DIR]
#
# Flattens with csp's solver configuration (share/minizinc/solvers/csp.msc,
# whose library share/minizinc/csp/ hands csp's native globals over; no
# build is needed to flatten), so the files are what fzn-csp is given under
# MiniZinc. The ids below are chosen for variety (all-different, linear,
# Boolean, element, table, regular, scheduling, packing, circuits,
# optimisation) and size: each file is kept under 50 KB. Needs minizinc
# (2.6 or later; the files differ a little between MiniZinc versions).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SUITE="${1:-$ROOT/../shared/data/minizinc}"
OUT="$ROOT/tests/data/fzn-corpus"
IDS="sudoku-9x9 queens-ip oss template-design quasigroup-qg5 2dpacking zebra
written-diffn alpha golomb global-among global-regular global-cumulative
global-inverse global-circuit global-bin-packing-capa global-table halfreif
bool-iffall written-element"
MAX_BYTES=51200

mkdir -p "$OUT"
rm -f "$OUT"/*.fzn
for id in $IDS; do
    row=$(awk -F'\t' -v id="$id" '$1 == id' "$SUITE/manifest.tsv")
    [ -n "$row" ] || { echo "no row $id in $SUITE/manifest.tsv" >&2; exit 1; }
    model=$(printf '%s\n' "$row" | cut -f2)
    data=$(printf '%s\n' "$row" | cut -f3)
    args=("$model")
    [ "$data" = "-" ] || args+=("$data")
    (cd "$SUITE" && MZN_SOLVER_PATH="$ROOT/share/minizinc/solvers" \
        minizinc --solver org.csp.csp -c "${args[@]}" \
        --fzn "$OUT/$id.fzn" --ozn /dev/null)
    size=$(wc -c < "$OUT/$id.fzn")
    if [ "$size" -gt "$MAX_BYTES" ]; then
        echo "$id.fzn is $size bytes, over $MAX_BYTES: pick a smaller model" >&2
        exit 1
    fi
done
echo "wrote $(ls "$OUT"/*.fzn | wc -l) files, $(cat "$OUT"/*.fzn | wc -c) bytes, into tests/data/fzn-corpus/"
