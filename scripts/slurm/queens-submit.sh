#!/usr/bin/env bash
# Submits an N-queens count as a Slurm array job plus a merge job.
#
#   scripts/slurm/queens-submit.sh N D WORKERS [OUT]
#
# D is the split depth (see docs/scale-out.md for the choice), WORKERS the
# number of array tasks to aim for (each gets about 1/WORKERS of the
# subproblems, at least one). Prints the two job ids. CSP selects the binary
# (default `csp` on PATH); extra sbatch options go in SBATCH_ARGS, e.g.
# SBATCH_ARGS="--partition=short --time=01:00:00".
set -euo pipefail
if [[ $# -lt 3 || $# -gt 4 ]]; then
  echo "usage: queens-submit.sh N D WORKERS [OUT]" >&2
  exit 2
fi
n=$1 d=$2 workers=$3
out=$(realpath -m "${4:-queens-$n-d$d}")
here=$(cd "$(dirname "$0")" && pwd)
csp="${CSP:-csp}"
# The first line of the list says how many subproblems there are.
total=$("$csp" queens "$n" --count --split "$d" | head -n 1 | awk '{print $2}')
per=$(( (total + workers - 1) / workers ))
(( per >= 1 )) || per=1
tasks=$(( (total + per - 1) / per ))
echo "n=$n depth=$d: $total subproblems, $tasks tasks of $per, output in $out"
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array=0-$((tasks - 1)) \
  --export=ALL,N="$n",D="$d",PER_TASK="$per",OUT="$out",CSP="$csp" \
  "$here/queens-slice.sbatch")
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency=afterok:"${array%%;*}" \
  --export=ALL,OUT="$out",CSP="$csp" "$here/queens-merge.sbatch")
echo "array job $array, merge job $merge"
