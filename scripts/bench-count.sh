#!/usr/bin/env bash
# Single-thread N-queens counting against NQueensFAF and the C reference:
# every program pinned to one core (taskset -c CORE), runs interleaved
# (round 1 of every program, then round 2, ...), CPU time (user + system of
# the whole process, JVM threads included) and wall time from GNU time.
# Prints a Markdown table of the best CPU time of each program per N, with
# ratios to NQueensFAF and to the C reference, and checks every count
# against OEIS A000170.
#
#   scripts/bench-count.sh [-r ROUNDS] [-c CORE] [-s SKIP] N...
#
# ROUNDS: runs per program (default 3). SKIP: a regular expression of
# program names to leave out above N = 17 (default: the C reference, which
# takes over 3 minutes at N = 18). Programs (environment):
#   BINS="name=path ..."  csp binaries (default: native=target/release/csp)
#   FAF=path              NQueensFAF run.sh (default: a copy of $SHARED/reference/nqueensfaf,
#                         SHARED=../shared, built on first use)
#   CREF=path             nqueens_bitboard (default: built into a temporary folder)
# Build variants, e.g.:
#   RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --release --target-dir target/v3
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=3 core=0 skip='^C reference$'
while getopts "r:c:s:" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    c) core=$OPTARG ;;
    s) skip=$OPTARG ;;
    *) echo "usage: bench-count.sh [-r ROUNDS] [-c CORE] [-s SKIP] N..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 ]] || { echo "usage: bench-count.sh [-r ROUNDS] [-c CORE] [-s SKIP] N..." >&2; exit 2; }
if [[ -n "${FAF:-}" ]]; then
  faf=$FAF
else
  # run.sh compiles NQueensFAF into its own folder on first use, and
  # ../shared is read-only: run a copy.
  fafdir=$(mktemp -d)
  cp -r "${SHARED:-../shared}/reference/nqueensfaf/." "$fafdir/"
  faf="$fafdir/run.sh"
fi
if [[ -z "${CREF:-}" ]]; then
  ref=$(mktemp -d)
  bash "${SHARED:-../shared}/reference/build.sh" "$ref" >/dev/null
  CREF="$ref/nqueens_bitboard"
fi
read -r -a bins <<< "${BINS:-native=target/release/csp}"
known=(1 1 0 0 2 10 4 40 92 352 724 2680 14200 73712 365596 2279184 14772512
  95815104 666090624 4968057848 39029188884)

names=() cmds=()
for b in "${bins[@]}"; do
  names+=("csp (${b%%=*})")
  cmds+=("${b#*=} queens N --count --threads 1")
done
names+=("NQueensFAF" "C reference")
cmds+=("$faf N 1" "$CREF N")

declare -A cpu wall
echo "| N | program | CPU s (best of $rounds) | wall s (best) | / NQueensFAF | / C reference |"
echo "|---:|---|---:|---:|---:|---:|"
for n in "$@"; do
  for ((r = 0; r < rounds; r++)); do
    for i in "${!names[@]}"; do
      if (( n > 17 )) && [[ ${names[$i]} =~ $skip ]]; then continue; fi
      cmd=${cmds[$i]//N/$n}
      out=$(mktemp)
      # shellcheck disable=SC2086
      /usr/bin/time -f '%U %S %e' -o "$out.t" taskset -c "$core" $cmd > "$out"
      count=$(awk 'NR == 1 { print ($2 != "" ? $2 : $1) }' "$out")
      if [[ -n "${known[$n]:-}" && "$count" != "${known[$n]}" ]]; then
        echo "wrong count from ${names[$i]} for N=$n: $count" >&2; exit 1
      fi
      read -r u s e < "$out.t"
      c=$(echo "$u + $s" | bc -l)
      key="$n/$i"
      if [[ -z "${cpu[$key]:-}" ]] || (( $(echo "$c < ${cpu[$key]}" | bc -l) )); then cpu[$key]=$c; fi
      if [[ -z "${wall[$key]:-}" ]] || (( $(echo "$e < ${wall[$key]}" | bc -l) )); then wall[$key]=$e; fi
      rm -f "$out" "$out.t"
    done
  done
  fafi=$((${#names[@]} - 2)) ci=$((${#names[@]} - 1))
  for i in "${!names[@]}"; do
    key="$n/$i"
    [[ -n "${cpu[$key]:-}" ]] || continue
    ratio() { if (( $(echo "$2 > 0" | bc -l) )); then echo "scale=2; $1 / $2" | bc -l; else echo -; fi; }
    rf=$(ratio "${cpu[$key]}" "${cpu[$n/$fafi]}")
    rc=-
    [[ -n "${cpu[$n/$ci]:-}" ]] && rc=$(ratio "${cpu[$key]}" "${cpu[$n/$ci]}")
    printf '| %s | %s | %.2f | %.2f | %s | %s |\n' "$n" "${names[$i]}" "${cpu[$key]}" "${wall[$key]}" "$rf" "$rc"
  done
done
